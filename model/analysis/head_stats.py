"""Per-head statistics over a test set, the numbers head-analysis papers report, on NumPy maps only.

Torch-free (it reads ``model.records.AttentionMaps``), so a view can use it on maps it already has.
For each head and each sentence the statistics are means over the head's query rows; over a test set
they are the mean of the per-sentence values, so a long sentence counts as much as a short one.

- entropy: −Σ_j w_ij log2 w_ij, in bits (0 = all weight on one key).
- confidence: max_j w_ij, the "confidence" of Voita et al. 2019 (Analyzing Multi-Head Self-Attention).
- distance: Σ_j w_ij |i − j|; for cross-attention i is the target and j the source position, so a
  monotone alignment of similar-length sentences reads as a small distance.
- previous / same / next: w_i,i−1, w_ii, w_i,i+1, averaged over the rows where that key exists (row 0
  has no previous key). In the decoder "next" is always 0: the causal mask hides it.
- eos: weight on ``</s>`` keys; punctuation: weight on keys whose piece is punctuation only.
Removed (ablated) heads have no weights: their statistics are NaN.
"""

from __future__ import annotations

import unicodedata

import numpy as np

from model.records import KINDS, AttentionMaps
from model.records.research import STATS, HeadTable

EOS = "</s>"
WORD_START = "▁"  # SentencePiece marks a piece that starts a word with it


def is_punctuation(piece: str) -> bool:
    """True for pieces such as '.', '▁,' or '?!': every character (the word mark aside) is punctuation."""
    text = piece.replace(WORD_START, "")
    return bool(text) and all(unicodedata.category(c).startswith("P") for c in text)


def _offset_share(w: np.ndarray, offset: int) -> float:
    """Mean over rows i that have a key i + offset of w[i, i + offset]; NaN when no row has one."""
    rows, cols = w.shape
    i = np.arange(rows)
    j = i + offset
    ok = (j >= 0) & (j < cols)
    return float(w[i[ok], j[ok]].mean()) if ok.any() else float("nan")


def map_statistics(w: np.ndarray, col_labels: tuple[str, ...]) -> np.ndarray:
    """The ``STATS`` of one (rows, cols) map whose rows are distributions over keys, as a float64 array."""
    w = np.asarray(w, dtype=np.float64)
    rows, cols = w.shape
    logw = np.log2(np.where(w > 0, w, 1.0))  # 0 · log 0 counts as 0 (masked keys, exact zeros)
    i, j = np.arange(rows)[:, None], np.arange(cols)[None, :]
    eos = np.array([s == EOS for s in col_labels], dtype=bool)
    punct = np.array([is_punctuation(s) for s in col_labels], dtype=bool)
    return np.array([
        float(-(w * logw).sum(1).mean()),
        float(w.max(1).mean()),
        float((w * np.abs(i - j)).sum(1).mean()),
        _offset_share(w, -1), _offset_share(w, 0), _offset_share(w, 1),
        float(w[:, eos].sum(1).mean()),
        float(w[:, punct].sum(1).mean()),
    ])


def sentence_statistics(maps: AttentionMaps) -> dict[str, np.ndarray]:
    """{kind: (L, H, len(STATS))} for one sentence; NaN rows for removed heads."""
    out = {}
    for kind in KINDS:
        arr, (_, cols) = maps.of_kind(kind), maps.labels(kind)
        stats = np.empty(arr.shape[:2] + (len(STATS),))
        for layer in range(arr.shape[0]):
            for head in range(arr.shape[1]):
                stats[layer, head] = (np.nan if maps.is_removed(kind, layer, head)
                                      else map_statistics(arr[layer, head], cols))
        out[kind] = stats
    return out


def average(per_sentence: list[dict[str, np.ndarray]]) -> HeadTable:
    """Mean over sentences of ``sentence_statistics``; a value undefined in a sentence is left out of
    that value's mean (e.g. 'previous' of a one-piece source)."""
    if not per_sentence:
        raise ValueError("no sentences to average")
    values = {}
    for kind in KINDS:
        stack = np.stack([s[kind] for s in per_sentence])
        counts = (~np.isnan(stack)).sum(0)
        total = np.nansum(stack, axis=0)
        values[kind] = np.where(counts > 0, total / np.maximum(counts, 1), np.nan)
    return HeadTable(values, len(per_sentence))
