"""Build an English–German parallel corpus from the Ding dictionary (Debian package ``trans-de-en``).

Ding lines look like ``German :: English``. Each side splits into sub-entries at `` | `` that align
one-to-one; inside a sub-entry, ``; `` separates alternatives that are synonyms of each other and do
*not* align one-to-one. Many sub-entries are example sentences, which make the most useful training
pairs; the rest are words and terms, which we keep as a smaller "phrase" kind.

Decisions, and why:

* Sentences keep their text (parenthesised words included) minus ``{…}``, ``[…]``, ``<…>`` and
  ``/ABBR/`` annotations; phrases also lose ``(…)`` explanations, which are glosses, not translations.
* Alternatives of a sentence sub-entry are paired i-th with i-th, and the surplus on the longer side
  with the first alternative of the other side: alternatives are synonyms, so every such pair is a
  valid translation, and this uses each alternative once without a combinatorial blow-up.
* Phrases take the first *usable* alternative on each side: one pair per sub-entry, never all
  combinations (the dictionary still yields ~345k; ``max_phrases`` subsamples). Short exclamations
  (``Das nervt!``) that fall below the sentence length also land here.
* Slash alternatives (``in/under``, ``… / …``) drop the pair, except digit/digit (``24/7``): their
  scope is not marked (``bad/go wrong``, ``zuletzt/das letzte Mal``), so "keep the first" silently
  breaks text. The exception is a closed list of pronoun/auxiliary/article slashes (``er/sie``,
  ``has/had``, ``a/the``): they always span one word, so the first alternative is taken.
* ``everyday_phrases`` chooses which phrases survive ``max_phrases``: first the exclamations (``Good
  morning!``) and the phrases whose every word, on both sides, occurs at least twice in the *train*
  sentences (``on foot`` :: ``zu Fuß``), then a random sample of the rest (``Zwickelmaschine``). A
  uniform sample spends most phrase slots on technical terms, bird species and compounds that
  neither the test sentences nor users' sentences need. Held-out sentences never enter the ranking.
* Pairs with placeholders (``sth.``, ``sb.``, ``etw.``, ``jdn.``, ``jdm.``, ``jds.``, ``jd.``) or
  ellipses (``…``) are dropped: they are templates, not natural text.
* A sub-entry that looks like a sentence on one side only is dropped: it is a fragment on the other.

The Ding data is GPL-2.0-or-later; the corpus written here is derived from it and is not shipped.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import secrets
import sys
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from model.errors import CorpusError, UserError

DING_PATH = Path("/usr/share/trans/de-en")
SENTENCE, PHRASE = "sentence", "phrase"
MAX_CHARS = 200
MIN_SENTENCE_WORDS = 3

# /ABBR/ after whitespace, possibly a comma-separated list ("/CRC/, /CROC/"), e.g. "/UN/", "/z. B./".
# Requiring whitespace before and a boundary after keeps "in/under" and " / " alternatives out of it.
_ABBR_ONE = r"/[^\s/|](?:[^/|]{0,40}[^\s/|])?/"
_ABBR = re.compile(rf"(?<!\S){_ABBR_ONE}(?:\s*,\s*{_ABBR_ONE})*(?=$|[\s,;.:!?)])")
_BRACKETS = [re.compile(p) for p in (r"\{[^{}]*\}", r"\[[^\[\]]*\]", r"<[^<>]*>")]
_PARENS = re.compile(r"\([^()]*\)")
_PLACEHOLDER = re.compile(r"\b(?:sth|sb|etw|jdn|jdm|jds|jd)\.")
_SLASH = re.compile(r"(?<!\d)/|/(?!\d)")  # any slash that is not digit/digit
_LEFTOVER = re.compile(r"[{}\[\]<>|\u0080-\u009f\ufffd]|\.\.\.|…| :: ")
_OPENERS = "\"'„“‘‚«»¿¡("
_CLOSERS = "\"'“”’‘»«"  # not ")": "Mitwirkung (an etw.)" must not pass for a sentence
# Slash alternatives of grammatical words always have one-word scope and list the same order on both
# sides ("er/sie hat/hatte" :: "he/she has/had"), so taking the first is safe; other slashes are not.
_FIRST_OF = re.compile(r"\b(?:er/sie(?:/es)?|ich/er/sie(?:/es)?|he/she(?:/it)?|i/he/she(?:/it)?"
                       r"|has/had|hat/hatte|ist/war|is/was|his/her|him/her|wir/sie|we/they"
                       r"|der/die(?:/das)?|a/the|the/a|an/the)\b", re.IGNORECASE)
# A source in brackets after a complete sentence: "… gehorcht haben. (Aristoteles)".
_ATTRIBUTION = re.compile(r"(?<=[.?!])\s*\([^()]*\)\.?$")


@dataclass(frozen=True)
class DingPair:
    en: str
    de: str
    kind: str  # "sentence" | "phrase"
    line: int  # 1-based line number in the Ding file, for tracing a bad pair back


@dataclass(frozen=True)
class DingSplit:
    """(source, target) pairs; ``split_ding`` gives English→German."""

    train: list[tuple[str, str]]
    valid: list[tuple[str, str]]
    test: list[tuple[str, str]]
    stats: dict


def _strip_nested(pattern: re.Pattern, s: str) -> str:
    # Innermost first, repeated, so "(a (b) c)" goes away whole instead of leaving "c)".
    while True:
        new = pattern.sub(" ", s)
        if new == s:
            return s
        s = new


def clean_text(s: str, *, drop_parens: bool = False) -> str:
    """Strip ``/ABBR/``, ``{…}``, ``[…]``, ``<…>`` (and ``(…)`` if drop_parens); collapse whitespace."""
    s = _ABBR.sub(" ", s)
    for pattern in _BRACKETS + ([_PARENS] if drop_parens else []):
        s = _strip_nested(pattern, s)
    s = " ".join(s.split())
    # Removing "[Br.]" from "colour [Br.]." leaves "colour ." and "( x)": glue punctuation back.
    s = re.sub(r" +([,.;:!?)])", r"\1", s)
    s = re.sub(r"\( +", "(", s).replace("()", "")
    s = re.sub(r",(?=[,;.:!?]|$)", "", s)  # a comma left dangling by a removed annotation list
    return " ".join(s.split()).strip(" ,;")


def _resolve_slashes(s: str) -> str:
    return _FIRST_OF.sub(lambda m: m.group(0).split("/")[0], s)


def _split_alternatives(s: str) -> list[str]:
    # "; " inside "(Theater; Kino)" is part of a gloss, not an alternative separator.
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(s):
        depth += (ch == "(") - (ch == ")")
        if depth == 0 and s.startswith("; ", i):
            parts.append(s[start:i])
            start = i + 2
    parts.append(s[start:])
    parts = [_ATTRIBUTION.sub("", p).strip(" ,;") for p in parts]
    return [p for p in parts if p]


def _shaped(s: str) -> bool:
    """Starts like a sentence (capital or digit) and ends like one (., ? or !, maybe before a quote)."""
    core, tail = s.lstrip(_OPENERS), s.rstrip(_CLOSERS)
    return bool(core) and (core[0].isupper() or core[0].isdigit()) and tail[-1:] in (".", "?", "!")


def _is_sentence(s: str) -> bool:
    return _shaped(s) and len(s.split()) >= MIN_SENTENCE_WORDS


def _usable(s: str) -> bool:
    return (0 < len(s) <= MAX_CHARS and not _PLACEHOLDER.search(s) and not _SLASH.search(s)
            and not _LEFTOVER.search(s) and s.count("(") == s.count(")"))


def _pair_alternatives(de: list[str], en: list[str]) -> list[tuple[str, str]]:
    n = min(len(de), len(en))
    return list(zip(de[:n], en[:n])) + [(d, en[0]) for d in de[n:]] + [(de[0], e) for e in en[n:]]


def parse_line(line: str, line_no: int) -> list[DingPair]:
    """Pairs from one Ding line; [] for comments, blank and malformed lines (see ``_split_line``)."""
    subs = _split_line(line)
    return [] if not subs else [p for de, en in subs for p in _parse_sub_entry(de, en, line_no)]


def _split_line(line: str) -> list[tuple[str, str]] | None:
    """Aligned (German, English) sub-entries, [] for comments/blank lines, None when malformed."""
    line = line.rstrip("\r\n")
    if not line.strip() or line.startswith("#"):
        return []
    sides = line.split(" :: ")
    if len(sides) != 2:
        return None
    de, en = (side.split(" | ") for side in sides)
    return list(zip(de, en)) if len(de) == len(en) else None


def _parse_sub_entry(de_raw: str, en_raw: str, line_no: int) -> list[DingPair]:
    de_alts = _split_alternatives(_resolve_slashes(clean_text(de_raw)))
    en_alts = _split_alternatives(_resolve_slashes(clean_text(en_raw)))
    de_sent = [s for s in de_alts if _is_sentence(s) and _usable(s)]
    en_sent = [s for s in en_alts if _is_sentence(s) and _usable(s)]
    if de_sent and en_sent:
        return [DingPair(en, de, SENTENCE, line_no) for de, en in _pair_alternatives(de_sent, en_sent)]
    if any(map(_shaped, de_alts)) != any(map(_shaped, en_alts)):
        return []  # a sentence facing a fragment ("Der Kredit ist zurückzuzahlen." :: "The loan is repaid")
    # Short exclamations ("Das nervt!" :: "That's a real pain!") are natural text: keep them as phrases.
    de_ok = [p for p in (clean_text(a, drop_parens=True) for a in de_alts) if _usable(p)]
    en_ok = [p for p in (clean_text(a, drop_parens=True) for a in en_alts) if _usable(p)]
    return [DingPair(en_ok[0], de_ok[0], PHRASE, line_no)] if de_ok and en_ok else []


def read_ding(path: Path = DING_PATH) -> tuple[list[DingPair], int]:
    """Usable pairs of a Ding file (first occurrence of each (en, de) kept) and its malformed-line count."""
    path = Path(path)
    if not path.is_file():
        raise CorpusError(f"Ding dictionary not found at {path}. "
                          "Install it with `sudo apt-get install trans-de-en`, or pass --ding FILE.")
    pairs: list[DingPair] = []
    seen: set[tuple[str, str]] = set()
    malformed = 0
    try:
        with path.open("rb") as f:
            for line_no, raw in enumerate(f, start=1):
                try:
                    subs = _split_line(raw.decode("utf-8"))
                except UnicodeDecodeError:
                    subs = None  # one bad line should not cost the whole dictionary
                if subs is None:
                    malformed += 1
                    continue
                for p in (p for de, en in subs for p in _parse_sub_entry(de, en, line_no)):
                    if (p.en, p.de) not in seen:
                        seen.add((p.en, p.de))
                        pairs.append(p)
    except OSError as e:
        raise CorpusError(f"cannot read the Ding dictionary {path}: {e}") from e
    if not pairs:
        raise CorpusError(f"{path} holds no usable Ding pairs ({malformed} malformed lines)")
    return pairs, malformed


def _norm(s: str) -> str:
    return " ".join(s.casefold().split())


_WORD = re.compile(r"\w+")  # apostrophes split words on both sides alike ("don’t" -> don, t)


def _everyday(phrases: list[tuple[str, str]], sentences: list[tuple[str, str]]) -> list[bool]:
    """Per phrase: an exclamation, or every word on both sides occurs >= 2 times in ``sentences``."""
    en_c = Counter(w for en, _ in sentences for w in _WORD.findall(en.lower()))
    de_c = Counter(w for _, de in sentences for w in _WORD.findall(de.lower()))

    def known(text: str, c: Counter) -> bool:
        ws = _WORD.findall(text.lower())
        return bool(ws) and all(c[w] >= 2 for w in ws)

    return [_shaped(en) or (known(en, en_c) and known(de, de_c)) for en, de in phrases]


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
        if _norm(en) in held_en or _norm(de) in held_de:
            continue
        (valid if len(valid) < n_valid else test).append((en, de))
        held_en.add(_norm(en))
        held_de.add(_norm(de))
    if len(valid) < n_valid or len(test) < n_test:
        raise CorpusError(f"only {len(valid) + len(test)} distinct sentence pairs could be held out; "
                          f"asked for {n_valid} valid + {n_test} test")
    held = set(valid) | set(test)

    def clear(pair: tuple[str, str]) -> bool:
        return pair not in held and _norm(pair[0]) not in held_en and _norm(pair[1]) not in held_de

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


def _write_atomic(path: Path, data: bytes) -> None:
    # A crash mid-write must not leave a truncated train.de beside a complete train.en. os.open with
    # 0o666 (not mkstemp's 0o600) so the file gets the same permissions as any other file we write.
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        with os.fdopen(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _lines(texts: Iterable[str]) -> bytes:
    out = []
    for t in texts:
        if "\n" in t or "\r" in t or "\t" in t or not t:
            raise CorpusError(f"refusing to write a line that would break alignment: {t!r}")
        out.append(t + "\n")
    return "".join(out).encode("utf-8")


def build_ding_corpus(out_dir: Path, path: Path = DING_PATH, n_valid: int = 1000, n_test: int = 1000,
                      seed: int = 1, sentence_repeat: int = 1, max_phrases: int | None = None,
                      reverse: bool = False, augment: int = 0, everyday_phrases: bool = False) -> DingSplit:
    """Read, split, write ``{train,valid,test}.{en,de}`` and ``stats.json``; return (source, target) pairs.

    With ``reverse`` the direction is German→English: the returned tuples are (de, en) and stats say so,
    but the files are named by language, and thanks to the two-sided hold-out they are the same as forward.
    ``augment`` adds that many synthetic pairs (``model.augment``) to train only; valid/test do not change.
    """
    path, out_dir = Path(path), Path(out_dir)
    pairs, malformed = read_ding(path)
    split = split_ding(pairs, n_valid, n_test, seed, sentence_repeat, max_phrases, everyday_phrases)
    extra: list[tuple[str, str]] = []
    if augment:
        from model.augment import generate  # noqa: PLC0415 (loaded only when asked for)
        # Both sides of every held-out pair are excluded, so the hold-out stays clean in either direction.
        held = {_norm(s) for rows in (split.valid, split.test) for pair in rows for s in pair}
        extra = generate(augment, seed=seed, ding_path=path, exclude=held)
        train = split.train + extra
        random.Random(seed).shuffle(train)
        split = DingSplit(train, split.valid, split.test,
                          dict(split.stats, train=dict(split.stats["train"], lines=len(train))))
    out_dir.mkdir(parents=True, exist_ok=True)
    for name in ("train", "valid", "test"):
        rows = getattr(split, name)
        _write_atomic(out_dir / f"{name}.en", _lines(en for en, _ in rows))
        _write_atomic(out_dir / f"{name}.de", _lines(de for _, de in rows))
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
    _write_atomic(out_dir / "stats.json", text.encode("utf-8"))
    return split


def _count(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError("must be >= 0")
    return value


def add_cli(subparsers) -> None:
    """Register ``data ding --out DIR …`` on an argparse sub-parser collection."""
    data = subparsers.add_parser("data", help="prepare a training corpus")
    data.set_defaults(func=lambda args: (data.print_help(), 2)[1])
    sources = data.add_subparsers(dest="data_source", metavar="SOURCE", parser_class=_LazyParser)
    ding = sources.add_parser("ding", help="English–German pairs from the Ding dictionary (trans-de-en)")
    ding.add_argument("--out", type=Path, required=True, help="folder for train/valid/test.{en,de}")
    ding.add_argument("--ding", type=Path, default=DING_PATH, help=f"Ding file (default {DING_PATH})")
    ding.add_argument("--valid", type=_count, default=1000, help="held-out validation sentences")
    ding.add_argument("--test", type=_count, default=1000, help="held-out test sentences")
    ding.add_argument("--seed", type=int, default=1)
    ding.add_argument("--sentence-repeat", type=int, default=1, help="copies of each train sentence")
    ding.add_argument("--max-phrases", type=_count, default=None, help="subsample word/term pairs")
    ding.add_argument("--everyday-phrases", action="store_true",
                      help="with --max-phrases: keep exclamations and phrases made of words the train "
                           "sentences use first, then sample the rest")
    ding.add_argument("--reverse", action="store_true", help="German→English instead of English→German")
    ding.add_argument("--augment", type=_count, default=0, metavar="N",
                      help="add N synthetic everyday pairs (model.augment) to train")
    ding.set_defaults(func=_run_ding)
    sources.add_parser("augment", help="synthetic everyday English–German pairs from a grammar and lexicon",
                       setup=_augment_options)
    sources.add_parser("tatoeba", help="English–German sentence pairs from Tatoeba (manythings.org/anki deu.txt)",
                       setup=_tatoeba_options)


class _LazyParser(argparse.ArgumentParser):
    """A sub-parser whose options are added when it first parses (``--help`` included), so that ``data ding``
    and every other command do not import ``model.augment`` just to build the command line."""

    def __init__(self, *args, setup=None, **kwargs):
        super().__init__(*args, **kwargs)
        self._setup = setup

    def parse_known_args(self, args=None, namespace=None):
        setup, self._setup = self._setup, None
        if setup:
            setup(self)
        return super().parse_known_args(args, namespace)


def _augment_options(parser: argparse.ArgumentParser) -> None:
    from model.augment import add_arguments, run  # noqa: PLC0415 (lazy, see _LazyParser)
    add_arguments(parser)
    parser.set_defaults(func=run)


def _tatoeba_options(parser: argparse.ArgumentParser) -> None:
    from model.corpus.tatoeba import add_arguments  # noqa: PLC0415 (lazy, see _LazyParser)
    add_arguments(parser)


def _run_ding(args: argparse.Namespace) -> int:
    try:
        split = build_ding_corpus(args.out, args.ding, args.valid, args.test, args.seed,
                                  args.sentence_repeat, args.max_phrases, args.reverse, args.augment,
                                  args.everyday_phrases)
    except UserError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    s = split.stats
    print(f"Ding {s['source']}→{s['target']}: {s['pairs'][SENTENCE]} sentence and {s['pairs'][PHRASE]} "
          f"phrase pairs, {s['malformed_lines']} malformed lines")
    print(f"wrote {s['train']['lines']} train ({s['train'][SENTENCE]} sentences x{s['sentence_repeat']}, "
          f"{s['train'][PHRASE]} phrases, {s['augment']} synthetic), {s['valid']} valid, {s['test']} test → {args.out}")
    return 0
