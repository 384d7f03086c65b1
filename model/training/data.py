"""Parallel corpora: read, check, clean, split, encode and batch by token count.

Bad lines are skipped and reported (line numbers kept), never silently lost; a file that cannot be a
corpus at all (missing, not UTF-8, unequal line counts, nothing usable) raises ``CorpusError``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from model.corpus.lines import read_lines
from model.errors import CorpusError
from model.tokenizer import Tokenizer, clean_text
from model.training.tasks import make_task

MAX_CHARS = 1000  # per side; longer lines are almost always concatenated garbage


@dataclass(frozen=True)
class Corpus:
    pairs: list[tuple[str, str]]
    skipped: list[tuple[int, str]] = field(default_factory=list)  # (1-based line, reason)
    source: str = ""

    def report(self, limit: int = 10) -> str:
        """'N pairs, M skipped (lines 3: empty target, ...)' for the CLI and the GUI.

        English, as everything the model says; the Train tab recognises this form (and the task's line
        in :func:`load_corpora`) to show it in the window's language (explorer/training/model_lines.py),
        and tests/explorer/test_train_log_language.py fails if the two part ways."""
        text = f"{len(self.pairs)} pairs from {self.source}"
        if self.skipped:
            shown = ", ".join(f"{n}: {why}" for n, why in self.skipped[:limit])
            more = f", … {len(self.skipped) - limit} more" if len(self.skipped) > limit else ""
            text += f"; skipped {len(self.skipped)} (line {shown}{more})"
        return text


def _read_lines(path: Path) -> list[str]:
    return read_lines(path, "corpus")


def _check_pair(src: str, tgt: str) -> str | None:
    if not src:
        return "empty source"
    if not tgt:
        return "empty target"
    if len(src) > MAX_CHARS or len(tgt) > MAX_CHARS:
        return f"longer than {MAX_CHARS} characters"
    return None


def _collect(rows, name: str) -> Corpus:
    pairs, skipped = [], []
    for n, (s, t) in rows:
        s, t = clean_text(s), clean_text(t)
        why = _check_pair(s, t)
        if why:
            skipped.append((n, why))
        else:
            pairs.append((s, t))
    if not pairs:
        raise CorpusError(f"{name} holds no usable sentence pairs ({len(skipped)} lines skipped)")
    return Corpus(pairs, skipped, name)


def read_parallel(src_path: Path, tgt_path: Path) -> Corpus:
    """Two aligned files, one sentence per line."""
    src, tgt = _read_lines(src_path), _read_lines(tgt_path)
    if len(src) != len(tgt):
        raise CorpusError(f"{src_path} has {len(src)} lines but {tgt_path} has {len(tgt)}: "
                          "the files must be aligned line by line")
    return _collect(((i + 1, (s, t)) for i, (s, t) in enumerate(zip(src, tgt))), f"{src_path} + {tgt_path}")


def read_tsv(path: Path) -> Corpus:
    """One pair per line: source<TAB>target. Lines without exactly one tab are skipped."""
    rows, bad = [], []
    for i, line in enumerate(_read_lines(path)):
        cols = line.split("\t")
        if len(cols) != 2:
            bad.append((i + 1, f"expected 2 tab-separated columns, found {len(cols)}"))
        else:
            rows.append((i + 1, (cols[0], cols[1])))
    corpus = _collect(rows, str(path)) if rows else None
    if corpus is None:
        raise CorpusError(f"{path} holds no tab-separated pairs (is it a TSV file?)")
    return Corpus(corpus.pairs, sorted(corpus.skipped + bad), corpus.source)


def split(pairs: list[tuple[str, str]], n_valid: int, seed: int) -> tuple[list, list]:
    """Deterministic shuffled train/valid split; valid sources never occur in train."""
    order = list(range(len(pairs)))
    random.Random(seed).shuffle(order)
    n_valid = min(n_valid, len(pairs) // 10)
    valid = [pairs[i] for i in order[:n_valid]]
    held = {s for s, _ in valid}
    train = [pairs[i] for i in order[n_valid:] if pairs[i][0] not in held]
    return train, valid


@dataclass(frozen=True)
class Encoded:
    src: list[np.ndarray]  # int32 ids, source pieces + </s>
    tgt: list[np.ndarray]  # int32 ids, <s> + target pieces + </s>
    skipped_long: int = 0


def encode_pairs(tok: Tokenizer, pairs: list[tuple[str, str]], max_tokens: int,
                 check: Callable[[], None] | None = None) -> Encoded:
    """Ids of each pair that fits ``max_tokens``; ``check`` (a stop or pause) is called every few thousand pairs."""
    src, tgt, skipped = [], [], 0
    for n, (s, t) in enumerate(pairs):
        if check is not None and n % 4096 == 0:
            check()
        a, b = tok.encode(s), tok.encode_target(t)
        if not a or not b or len(a) + 1 > max_tokens or len(b) + 2 > max_tokens:
            skipped += 1
            continue
        # The tokenizer's own ids: an imported Marian model starts from its pad id and ends with id 0.
        src.append(np.array(a + [tok.eos_id], dtype=np.int32))
        tgt.append(np.array([tok.bos_id] + b + [tok.eos_id], dtype=np.int32))
    return Encoded(src, tgt, skipped)


def make_batches(data: Encoded, batch_tokens: int, seed: int, epoch: int,
                 sort: bool = True) -> list[np.ndarray]:
    """Index batches whose padded size (rows × (S + T)) stays under batch_tokens.

    With ``sort``, pairs are sorted by length inside large random chunks, which keeps padding low while
    each epoch still sees a different order. Without it, batches are runs of one random permutation, so
    each holds a mix of lengths: worth the padding on short synthetic tasks, where length-homogeneous
    steps make the weights swing between lengths. A chunk's last, part-filled batch is carried into the
    next chunk rather than emitted: a one-row batch would get a full-size step from its single sentence.
    The result depends only on (seed, epoch, sort), which makes resuming exact.
    """
    rng = np.random.default_rng([seed, epoch])
    n = len(data.src)
    lens_s = np.fromiter((len(x) for x in data.src), dtype=np.int64, count=n)
    lens_t = np.fromiter((len(x) for x in data.tgt), dtype=np.int64, count=n)
    order = rng.permutation(n)
    chunk = 100 * max(1, batch_tokens // 32)
    batches: list[np.ndarray] = []
    carry = np.zeros(0, dtype=np.int64)
    for start in range(0, n, chunk):
        idx = np.concatenate([carry, order[start:start + chunk]])
        if sort:
            idx = idx[np.lexsort((lens_s[idx], lens_t[idx]))]
        cur: list[int] = []
        max_s = max_t = 0
        for i in idx:
            ms, mt = max(max_s, lens_s[i]), max(max_t, lens_t[i])
            if cur and (len(cur) + 1) * (ms + mt) > batch_tokens:
                batches.append(np.array(cur))
                cur, ms, mt = [], lens_s[i], lens_t[i]
            cur.append(i)
            max_s, max_t = ms, mt
        carry = np.array(cur, dtype=np.int64)
        last_chunk = start + chunk >= n
        if len(carry) and (last_chunk or 2 * len(carry) * (max_s + max_t) >= batch_tokens):
            batches.append(carry)  # at least half full (or nothing left to merge with): keep it
            carry = np.zeros(0, dtype=np.int64)
    rng.shuffle(batches)
    return batches


def collate(data: Encoded, idx: np.ndarray, pad_id: int) -> tuple[np.ndarray, np.ndarray]:
    """Pad a batch: (B, S) source ids and (B, T) target ids (with <s> … </s>)."""
    s_len = max(len(data.src[i]) for i in idx)
    t_len = max(len(data.tgt[i]) for i in idx)
    src = np.full((len(idx), s_len), pad_id, dtype=np.int64)
    tgt = np.full((len(idx), t_len), pad_id, dtype=np.int64)
    for row, i in enumerate(idx):
        src[row, : len(data.src[i])] = data.src[i]
        tgt[row, : len(data.tgt[i])] = data.tgt[i]
    return src, tgt


def load_corpora(cfg) -> tuple[list, list, str]:
    """(train pairs, valid pairs, report) for a TrainConfig's data fields."""
    if cfg.task:
        train = make_task(cfg.task, cfg.task_size, seed=cfg.seed)
        valid = make_task(cfg.task, cfg.n_valid, seed=cfg.seed + 10_000)
        return train, valid, f"task {cfg.task}: {len(train)} generated pairs"
    if cfg.tsv:
        corpus = read_tsv(Path(cfg.tsv))
    elif cfg.src:
        corpus = read_parallel(Path(cfg.src), Path(cfg.tgt))
    else:
        raise CorpusError("no corpus given: use --src/--tgt, --tsv or --task")
    if cfg.valid_src:
        valid = read_parallel(Path(cfg.valid_src), Path(cfg.valid_tgt or cfg.valid_src)).pairs
        train = corpus.pairs
    else:
        train, valid = split(corpus.pairs, cfg.n_valid, cfg.seed)
    return train, valid, corpus.report()
