"""Split the Ding pairs into train / valid / test and write them as a corpus folder (``data ding``).

Decisions, and why:

* Held-out pairs share neither their normalised English nor their normalised German with train or with
  each other, so the split holds for German→English too and the same pairs are held out either way.
* ``everyday_phrases`` chooses which phrases survive ``max_phrases``: first the exclamations (``Good
  morning!``) and the phrases whose every word, on both sides, occurs at least twice in the *train*
  sentences (``on foot`` :: ``zu Fuß``), then a random sample of the rest (``Zwickelmaschine``). A
  uniform sample spends most phrase slots on technical terms, bird species and compounds that
  neither the test sentences nor users' sentences need. Held-out sentences never enter the ranking.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from model.corpus.ding import DING_PATH, PHRASE, SENTENCE, DingPair, fold, read_ding, sentence_shaped
from model.corpus.lines import aligned_lines
from model.errors import CorpusError, UserError
from model.files import write_atomic


@dataclass(frozen=True)
class DingSplit:
    """(source, target) pairs; ``split_ding`` gives English→German."""

    train: list[tuple[str, str]]
    valid: list[tuple[str, str]]
    test: list[tuple[str, str]]
    stats: dict


_WORD = re.compile(r"\w+")  # apostrophes split words on both sides alike ("don’t" -> don, t)


def _everyday(phrases: list[tuple[str, str]], sentences: list[tuple[str, str]]) -> list[bool]:
    """Per phrase: an exclamation, or every word on both sides occurs >= 2 times in ``sentences``."""
    en_c = Counter(w for en, _ in sentences for w in _WORD.findall(en.lower()))
    de_c = Counter(w for _, de in sentences for w in _WORD.findall(de.lower()))

    def known(text: str, c: Counter) -> bool:
        ws = _WORD.findall(text.lower())
        return bool(ws) and all(c[w] >= 2 for w in ws)

    return [sentence_shaped(en) or (known(en, en_c) and known(de, de_c)) for en, de in phrases]


def split_ding(pairs: Iterable[DingPair], n_valid: int = 1000, n_test: int = 1000, seed: int = 1,
               sentence_repeat: int = 1, max_phrases: int | None = None,
               everyday_phrases: bool = False) -> DingSplit:
    """Hold out ``n_valid`` + ``n_test`` sentence pairs, English→German; the rest (plus phrases) is train.

    Held-out pairs share neither their normalised English nor their normalised German with train or with
    each other. Checking both sides keeps the split valid for German→English too, and so the same pairs are
    held out in either direction.
    """
    if min(n_valid, n_test) < 0 or sentence_repeat < 1 or (max_phrases is not None and max_phrases < 0):
        raise UserError("need n_valid >= 0, n_test >= 0, sentence_repeat >= 1 and max_phrases >= 0")
    rng = random.Random(seed)
    # Sort first so the result depends on the set of pairs, not on the order they arrived in.
    everything = sorted({(p.en, p.de, p.kind) for p in pairs})
    sentences = [(en, de) for en, de, kind in everything if kind == SENTENCE]
    phrases = [(en, de) for en, de, kind in everything if kind == PHRASE]
    order = sentences[:]
    rng.shuffle(order)
    valid: list[tuple[str, str]] = []
    test: list[tuple[str, str]] = []
    held_en: set[str] = set()
    held_de: set[str] = set()
    for en, de in order:
        if len(test) >= n_test and len(valid) >= n_valid:
            break
        if fold(en) in held_en or fold(de) in held_de:
            continue
        (valid if len(valid) < n_valid else test).append((en, de))
        held_en.add(fold(en))
        held_de.add(fold(de))
    if len(valid) < n_valid or len(test) < n_test:
        raise CorpusError(f"only {len(valid) + len(test)} distinct sentence pairs could be held out; "
                          f"asked for {n_valid} valid + {n_test} test")
    held = set(valid) | set(test)

    def clear(pair: tuple[str, str]) -> bool:
        return pair not in held and fold(pair[0]) not in held_en and fold(pair[1]) not in held_de

    train_sent = [p for p in sentences if clear(p)]
    train_phr = [p for p in phrases if clear(p)]
    n_phr_clear = len(train_phr)
    n_everyday = None
    if max_phrases is not None and max_phrases < len(train_phr):
        if everyday_phrases:
            flags = _everyday(train_phr, train_sent)
            first = [p for p, f in zip(train_phr, flags) if f]
            rest = [p for p, f in zip(train_phr, flags) if not f]
            first = rng.sample(first, max_phrases) if len(first) > max_phrases else first
            n_everyday = len(first)
            train_phr = sorted(first + rng.sample(rest, max_phrases - len(first)))
        else:
            train_phr = sorted(rng.sample(train_phr, max_phrases))
    train = train_sent * sentence_repeat + train_phr
    rng.shuffle(train)
    stats = {
        "source": "en", "target": "de", "seed": seed, "sentence_repeat": sentence_repeat,
        "max_phrases": max_phrases, **({"everyday_phrases": n_everyday} if everyday_phrases else {}),
        "pairs": {SENTENCE: len(sentences), PHRASE: len(phrases)},
        "train": {SENTENCE: len(train_sent), "sentence_lines": len(train_sent) * sentence_repeat,
                  PHRASE: len(train_phr), "lines": len(train)},
        "valid": len(valid), "test": len(test),
        "dropped": {"overlaps_held_out": len(sentences) - len(held) - len(train_sent)
                    + len(phrases) - n_phr_clear,
                    "phrases_over_max": n_phr_clear - len(train_phr)},
    }
    return DingSplit(train, valid, test, stats)


def build_ding_corpus(out_dir: Path, path: Path = DING_PATH, n_valid: int = 1000, n_test: int = 1000,
                      seed: int = 1, sentence_repeat: int = 1, max_phrases: int | None = None,
                      reverse: bool = False, augment: int = 0, everyday_phrases: bool = False,
                      check: Callable[[], None] | None = None) -> DingSplit:
    """Read, split, write ``{train,valid,test}.{en,de}`` and ``stats.json``; return (source, target) pairs.

    With ``reverse`` the direction is German→English: the returned tuples are (de, en) and stats say so,
    but the files are named by language, and thanks to the two-sided hold-out they are the same as forward.
    ``augment`` adds that many synthetic pairs (``model.corpus.augment``) to train only; valid/test do not change.
    """
    path, out_dir = Path(path), Path(out_dir)
    pairs, malformed = read_ding(path, check)
    split = split_ding(pairs, n_valid, n_test, seed, sentence_repeat, max_phrases, everyday_phrases)
    extra: list[tuple[str, str]] = []
    if augment:
        from model.corpus.augment import generate  # noqa: PLC0415 (loaded only when asked for)
        # Both sides of every held-out pair are excluded, so the hold-out stays clean in either direction.
        held = {fold(s) for rows in (split.valid, split.test) for pair in rows for s in pair}
        extra = generate(augment, seed=seed, ding_path=path, exclude=held)
        train = split.train + extra
        random.Random(seed).shuffle(train)
        split = DingSplit(train, split.valid, split.test,
                          dict(split.stats, train=dict(split.stats["train"], lines=len(train))))
    if check is not None:
        check()  # the last chance to stop before anything is written
    out_dir.mkdir(parents=True, exist_ok=True)
    for name in ("train", "valid", "test"):
        rows = getattr(split, name)
        write_atomic(out_dir / f"{name}.en", aligned_lines(en for en, _ in rows))
        write_atomic(out_dir / f"{name}.de", aligned_lines(de for _, de in rows))
    stats = dict(split.stats, augment=len(extra), malformed_lines=malformed, ding_file=str(path),
                 ding_sha256=hashlib.sha256(path.read_bytes()).hexdigest(),
                 license="Ding data: GPL-2.0-or-later")
    if reverse:
        stats.update(source="de", target="en")
        split = DingSplit(*([(b, a) for a, b in getattr(split, n)] for n in ("train", "valid", "test")),
                          stats=stats)
    else:
        split = DingSplit(split.train, split.valid, split.test, stats)
    text = json.dumps(stats, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    write_atomic(out_dir / "stats.json", text.encode("utf-8"))
    return split
