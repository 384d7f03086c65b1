"""Sentences of a pasted text, with its line and paragraph breaks kept.

The models were trained on single sentences, so a paragraph fed whole is out of their distribution (a
5-sentence paragraph came back with three sentences missing). The text is cut into lines at ``\\n`` (blank
lines mark paragraphs and are kept), each line into sentences by ``sentencex`` (Wikimedia's multilingual
splitter), and the translation is reassembled in the same shape.

Why sentencex: on the hand-written cases of ``tests/model/split_cases.py`` (38 English: abbreviations, "Dr.",
"U.S.", "3.5 %", "$4.99", ellipses, quotes, initials; 10 Chinese: 。！？, full-width quotes, "……") it split
36 English and all 10 Chinese right in 17 ms; pysbd 0.3.4 split 37 English and 8 Chinese right in 156 ms (it
cuts "“我累了。”" before the closing quote and "？！" in two, which breaks Chinese text; and it is no longer
maintained). sentencex's two English misses stay in the table as known ones: "No. I do not want to." and
"Nobody helped me. Dr. Smith is here." each stay one sentence ("No." and "me." read as abbreviations).
"""

from __future__ import annotations

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
        if len(translations) != len(self.pieces):
            raise ValueError(f"{len(translations)} translations for {len(self.pieces)} sentences")
        sep = "" if target in NO_SPACE else " "
        lines: list[list[str]] = [[] for _ in range(self.n_lines)]
        for piece, out in zip(self.pieces, translations):
            lines[piece.line].append(out)
        text = "\n".join(sep.join(parts) for parts in lines)
        return text + ("\n" if self.trailing_newline else "")


def split_sentences(line: str, lang: str = "en") -> list[str]:
    """The sentences of one line of text (no line breaks inside), stripped, none empty."""
    import sentencex  # imported here: only paragraph translation needs it
    return [s.strip() for s in sentencex.segment(lang, line) if s.strip()]


def layout(text: str, lang: str = "en") -> Layout:
    """Split ``text`` into lines (``\\n`` only, as every reader of this app) and each line into sentences."""
    from model.corpus.lines import split_lines
    lines = split_lines(text)
    pieces = []
    for n, line in enumerate(lines):
        for i, sentence in enumerate(split_sentences(line, lang) if line.strip() else []):
            pieces.append(Piece(sentence, n, i == 0))
    return Layout(tuple(pieces), len(lines), text.endswith("\n"))
