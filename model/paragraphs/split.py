"""Sentences of a pasted text, with its line and paragraph breaks kept.

The models were trained on single sentences, so a paragraph fed whole is out of their distribution (a
5-sentence paragraph came back with three sentences missing). The text is cut into lines at ``\\n`` (blank
lines mark paragraphs and are kept), each line into sentences by ``sentencex`` (Wikimedia's multilingual
splitter), and the translation is reassembled in the same shape.

Why sentencex: on the hand-written cases of ``tests/model/split_cases.py`` (38 English: abbreviations, "Dr.",
"U.S.", "3.5 %", "$4.99", ellipses, quotes, initials; 10 Chinese: 。！？, full-width quotes, "……") it split
36 English and all 10 Chinese right in 17 ms; pysbd 0.3.4 split 37 English and 8 Chinese right in 156 ms (it
cuts "“我累了。”" before the closing quote and "？！" in two, which breaks Chinese text; and it is no longer
maintained). sentencex's two English misses ("No. I do not want to.", "Nobody helped me. Dr. Smith is here.")
come from one cause, mended after it (``_recut``): it reads its abbreviations case-blind, so "me" (Maine),
"no" (number), "ok", "ill", "art" end no sentence before most capitalised words ("Nobody helped me. Tom
left." stayed whole, and Tom's sentence went untranslated inside another). With it, every case of the
table splits right (45 English, seven of them about this mend, and the 10 Chinese). A second mend keeps an
emoji after a sentence's end with that sentence (``_keep_symbols_with_their_sentence``; 7 English cases and
1 Chinese more).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

# Languages whose sentences follow each other without a space.
NO_SPACE = {"zh", "ja"}


@dataclass(frozen=True)
class Piece:
    """One sentence of the text and where it stands: ``line`` counts from 0, ``first`` is true for the
    first sentence of its line."""

    text: str
    line: int
    first: bool


@dataclass(frozen=True)
class Layout:
    """The text as lines of sentences; blank lines have none."""

    pieces: tuple[Piece, ...]
    n_lines: int
    trailing_newline: bool

    @property
    def sentences(self) -> list[str]:
        return [p.text for p in self.pieces]

    def join(self, translations: list[str], target: str = "de") -> str:
        """The translations in the text's shape: one line per source line, sentences of a line joined by a
        space (nothing for Chinese and Japanese)."""
        return self.join_with_spans(translations, target)[0]

    def join_with_spans(self, translations: list[str], target: str = "de") -> tuple[str, list[tuple[int, int]]]:
        """``join``'s text and where each translation stands in it, (start, end), in order: the window marks
        the sentence whose attention it shows."""
        if len(translations) != len(self.pieces):
            raise ValueError(f"{len(translations)} translations for {len(self.pieces)} sentences")
        sep = "" if target in NO_SPACE else " "
        text, spans, line = "", [], 0
        for piece, out in zip(self.pieces, translations):
            if piece.line > line or not spans:
                text += "\n" * (piece.line - line)  # blank lines between keep the paragraphs
                line = piece.line
            else:
                text += sep
            spans.append((len(text), len(text) + len(out)))
            text += out
        text += "\n" * (self.n_lines - 1 - line)
        return text + ("\n" if self.trailing_newline else ""), spans


# Words on sentencex's English abbreviation list that far more often end a sentence; "OK" as written too.
_ENDING_WORDS = {"me", "no", "ok", "ill", "art"}
# A word, its full stop, space, and a capital (or an opening quote) after it: where "me." may end a sentence.
_STOP = re.compile(r"(?<![\w.])(\w+)\.\s+(?=[\"“'‘(]?[A-Z])")


def _recut(sentence: str) -> list[str]:
    """Cut ``sentence`` after an ending word in lower case ("helped me. Tom"), "OK", or "No" as its first word
    ("No. I do not want to."); an abbreviation written as one ("Art. 5", "is No. 1", "Ill. Gov.") stays."""
    parts, start = [], 0
    for m in _STOP.finditer(sentence):
        word = m.group(1)
        first = not sentence[start:m.start(1)].strip()
        if word.lower() in _ENDING_WORDS and (word.islower() or word == "OK" or (word == "No" and first)):
            parts.append(sentence[start:m.end(1) + 1].strip())
            start = m.end()
    parts.append(sentence[start:].strip())
    return [p for p in parts if p]


# Emoji and other symbols, with the marks that build them (skin tones, variation selectors, joiners).
_SYMBOL = {"So", "Sk", "Mn", "Me", "Cf"}


def _has_words(text: str) -> bool:
    return any(ch.isalnum() for ch in text)  # letters of any script, and digits


def _keep_symbols_with_their_sentence(line: str, sentences: list[str]) -> list[str]:
    """``sentences`` of ``line`` with the emoji after a sentence's end kept with it: sentencex starts the
    next sentence after "!" or "。", so "naïve café! 😀" gave a sentence "😀", which the model translated
    into words of its own ("Eine Handelspause."), and "Great! 😀 See you." gave "😀 See you.". A "sentence"
    without a letter or digit ("😀", "...") joins the one before it (the one after, when first); symbols
    opening a sentence go to the one before. A dash or quote opening a sentence stays: it belongs there."""
    spans, at = [], 0
    for sentence in sentences:
        start = line.find(sentence, at)
        if start < 0:
            return sentences  # not found as written (cannot happen with sentencex): leave the split alone
        spans.append([start, start + len(sentence)])
        at = start + len(sentence)
    kept: list[list[int]] = []
    for start, end in spans:
        if kept and not _has_words(line[start:end]):
            kept[-1][1] = end
            continue
        if kept:
            cut = start
            while cut < end and (line[cut].isspace() or unicodedata.category(line[cut]) in _SYMBOL):
                cut += 1
            if cut > start:
                kept[-1][1] = len(line[:cut].rstrip())
                start = cut
        kept.append([start, end])
    if len(kept) > 1 and not _has_words(line[kept[0][0]:kept[0][1]]):
        first = kept.pop(0)
        kept[0][0] = first[0]
    return [line[start:end].strip() for start, end in kept]


def split_sentences(line: str, lang: str = "en") -> list[str]:
    """The sentences of one line of text (no line breaks inside), stripped, none empty."""
    import sentencex  # imported here: only paragraph translation needs it
    out = [s.strip() for s in sentencex.segment(lang, line) if s.strip()]
    out = [p for s in out for p in _recut(s)] if lang == "en" else out
    return _keep_symbols_with_their_sentence(line, out)


def layout(text: str, lang: str = "en") -> Layout:
    """Split ``text`` into lines (``\\n`` only, as every reader of this app) and each line into sentences."""
    from model.corpus.lines import split_lines
    lines = split_lines(text)
    pieces = []
    for n, line in enumerate(lines):
        for i, sentence in enumerate(split_sentences(line, lang) if line.strip() else []):
            pieces.append(Piece(sentence, n, i == 0))
    return Layout(tuple(pieces), len(lines), text.endswith("\n"))
