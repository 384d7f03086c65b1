"""Read the Ding dictionary (Debian package ``trans-de-en``) into English–German pairs.

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
* Pairs with placeholders (``sth.``, ``sb.``, ``etw.``, ``jdn.``, ``jdm.``, ``jds.``, ``jd.``) or
  ellipses (``…``) are dropped: they are templates, not natural text.
* A sub-entry that looks like a sentence on one side only is dropped: it is a fragment on the other.

The Ding data is GPL-2.0-or-later; ``model.corpus.ding_corpus`` splits these pairs and writes a corpus
derived from it, which is not shipped.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from model.choices import DING_PATH
from model.errors import CorpusError

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


def sentence_shaped(s: str) -> bool:
    """Starts like a sentence (capital or digit) and ends like one (., ? or !, maybe before a quote)."""
    core, tail = s.lstrip(_OPENERS), s.rstrip(_CLOSERS)
    return bool(core) and (core[0].isupper() or core[0].isdigit()) and tail[-1:] in (".", "?", "!")


def _is_sentence(s: str) -> bool:
    return sentence_shaped(s) and len(s.split()) >= MIN_SENTENCE_WORDS


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
    if any(map(sentence_shaped, de_alts)) != any(map(sentence_shaped, en_alts)):
        return []  # a sentence facing a fragment ("Der Kredit ist zurückzuzahlen." :: "The loan is repaid")
    # Short exclamations ("Das nervt!" :: "That's a real pain!") are natural text: keep them as phrases.
    de_ok = [p for p in (clean_text(a, drop_parens=True) for a in de_alts) if _usable(p)]
    en_ok = [p for p in (clean_text(a, drop_parens=True) for a in en_alts) if _usable(p)]
    return [DingPair(en_ok[0], de_ok[0], PHRASE, line_no)] if de_ok and en_ok else []


def read_ding(path: Path = DING_PATH, check: Callable[[], None] | None = None) -> tuple[list[DingPair], int]:
    """Usable pairs of a Ding file (first occurrence of each (en, de) kept) and its malformed-line count.

    ``check`` is called every few thousand lines: a training run's stop or pause, which may raise.
    """
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
                if check is not None and line_no % 8192 == 0:
                    check()
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


def fold(s: str) -> str:
    """Case-folded, single-spaced: the key held-out sentences and synthetic pairs are compared by."""
    return " ".join(s.casefold().split())
