"""Word alignments read from cross-attention, and their error rate against a gold alignment.

Torch-free. Pieces are merged to words (a SentencePiece piece that starts with '▁' starts a word); a
target word's attention is the mean of its pieces' rows, a source word's the sum of its pieces'
columns, and each target word is linked to the source word it attends to most. Links are written the
Pharaoh way, ``source-target`` with 0-based word indices. AER, precision and recall follow Och & Ney
2003, with sure links S counted as possible too (S ⊆ P).

Row t of the cross-attention is the decoder step that *produces* target piece t, before it has seen it.
Chen et al. 2020 ("Accurate Word Alignment Induction from Neural Machine Translation", Shift-Att) read
instead the step that takes piece t as its input, row t + 1, which aligns better in a trained model:
``shift=True``. A word whose pieces have no following step (the translation was cut off) gets no link.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from model.errors import UserError

WORD_START = "▁"
SPECIAL = ("<s>", "</s>", "<pad>")

Link = tuple[int, int]  # (source word, target word)


def spaceless(piece: str) -> bool:
    """Whether a piece begins with a Chinese or Japanese character: text written without spaces, where no
    piece carries SentencePiece's word start, so each such piece counts as a word of its own."""
    ch = piece.lstrip(WORD_START)[:1]
    return bool(ch) and ("\u3040" <= ch <= "\u30ff" or "\u3400" <= ch <= "\u4dbf" or "\u4e00" <= ch <= "\u9fff"
                         or "\uf900" <= ch <= "\ufaff")


def word_ids(pieces: tuple[str, ...] | list[str]) -> list[int]:
    """Word index of each piece; -1 for special tokens, which belong to no word. A word starts at ``▁``,
    and, in Chinese and Japanese, at every piece that begins with one of their characters."""
    out, word = [], -1
    for p in pieces:
        if p in SPECIAL:
            out.append(-1)
            continue
        if p.startswith(WORD_START) or word < 0 or spaceless(p):
            word += 1
        out.append(word)
    return out


def align(cross: np.ndarray, source_pieces, target_pieces, shift: bool = False) -> set[Link]:
    """cross: (T, S) weights, row t producing target_pieces[t] and column s reading source_pieces[s];
    shift: read row t + 1 for piece t (Chen et al. 2020)."""
    src_w, tgt_w = word_ids(source_pieces), word_ids(target_pieces)
    n_src, n_tgt = max(src_w, default=-1) + 1, max(tgt_w, default=-1) + 1
    if n_src == 0:
        return set()
    w = np.asarray(cross, dtype=np.float64)
    by_src = np.zeros((w.shape[0], n_src))
    for s, word in enumerate(src_w):
        if word >= 0:
            by_src[:, word] += w[:, s]
    links = set()
    step = 1 if shift else 0
    for word in range(n_tgt):
        rows = [t + step for t, x in enumerate(tgt_w) if x == word and t + step < w.shape[0]]
        if rows:
            links.add((int(by_src[rows].mean(0).argmax()), word))
    return links


def pharaoh(links: set[Link]) -> str:
    return " ".join(f"{s}-{t}" for s, t in sorted(links))


def parse_gold_line(line: str, where: str = "") -> tuple[set[Link], set[Link]]:
    """'0-0 1?2 2-1 P' → (sure, possible); possible includes sure. 'i-j P' or 'i?j' is possible,
    'i-j' or 'i-j S' sure."""
    sure, possible = set(), set()
    tokens = line.split()
    for k, tok in enumerate(tokens):
        if tok in ("S", "P"):
            continue
        sep = "?" if "?" in tok else "-"
        a, _, b = tok.partition(sep)
        try:
            link = (int(a), int(b))
        except ValueError:
            raise UserError(f"cannot read alignment link {tok!r}{where}: write i-j (sure) or i?j (possible)") from None
        possible.add(link)
        mark = tokens[k + 1] if k + 1 < len(tokens) and tokens[k + 1] in ("S", "P") else "S"
        if sep == "-" and mark == "S":
            sure.add(link)
    return sure, possible


@dataclass(frozen=True)
class AlignmentScore:
    precision: float
    recall: float
    aer: float


def score(predicted: list[set[Link]], gold: list[tuple[set[Link], set[Link]]]) -> AlignmentScore:
    """Corpus precision |A∩P|/|A|, recall |A∩S|/|S| and AER 1 − (|A∩S| + |A∩P|)/(|A| + |S|)."""
    a = a_s = a_p = s_n = 0
    for links, (sure, possible) in zip(predicted, gold, strict=True):
        possible = possible | sure
        a += len(links)
        s_n += len(sure)
        a_s += len(links & sure)
        a_p += len(links & possible)
    precision = a_p / a if a else 0.0
    recall = a_s / s_n if s_n else 0.0
    aer = 1.0 - (a_s + a_p) / (a + s_n) if a + s_n else 0.0
    return AlignmentScore(precision, recall, aer)
