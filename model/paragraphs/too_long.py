"""A sentence longer than the model takes, cut into parts it does take, so none of it goes untranslated.

The splitter's "sentence" can be anything up to a whole line: a list of 80 clauses joined by commas, or a
file with no full stop at all. The model reads at most ``MAX_SOURCE_PIECES`` pieces; the batches used to keep
the first 400 and drop the rest without a word. Here such a sentence is cut into parts of at most that many
pieces at the best place there is: after a clause's punctuation (", " "; " ": " "，"), else between words,
else anywhere (a text without spaces). Each part is translated on its own and the translations joined in
order; ``translate_text`` flags the sentence so the reader knows it was translated in parts.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

# Characters of the first window looked at per allowed piece: a piece is rarely longer than 8 characters
# (the window doubles when it is), so a 1,000,000-character line is never tokenized whole once per part.
_CHARS_PER_PIECE = 8
_OPENING = {"Ps", "Pi"}  # "(" or "“" begin what follows: a cut after them would split it from its words
_MARKS = {"Mn", "Mc", "Me"}  # combining marks belong to the character before them


def _after_punctuation(text: str, i: int) -> bool:
    """A cut before ``text[i]`` ends a clause: punctuation then a space, or a full-width mark ("，" "、")
    that Chinese and Japanese write without one. "3.5" and "U.S." are not cut (no space after)."""
    prev, cat = text[i - 1], unicodedata.category(text[i - 1])
    if not cat.startswith("P") or cat in _OPENING:
        return False
    return text[i].isspace() or unicodedata.east_asian_width(prev) in ("W", "F")


def _between_words(text: str, i: int) -> bool:
    return text[i].isspace() and not text[i - 1].isspace()


def _anywhere(text: str, i: int) -> bool:
    return unicodedata.category(text[i]) not in _MARKS


_BOUNDARIES = (_after_punctuation, _between_words, _anywhere)  # best first


def _last_fitting(cuts: list[int], fits: Callable[[int], bool]) -> int | None:
    """The last cut that ``fits`` (the pieces of a prefix grow with its length), None if not even the first."""
    if not cuts or not fits(cuts[0]):
        return None
    lo, hi = 0, len(cuts) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fits(cuts[mid]):
            lo = mid
        else:
            hi = mid - 1
    return cuts[lo]


def cut_to_fit(text: str, count: Callable[[str], int], limit: int) -> list[str]:
    """``[text]`` when ``count(text)`` (its pieces) is at most ``limit``; else its parts in order, each of at
    most ``limit`` pieces, that hold all of it (only the spaces at the cuts are left out)."""
    if count(text) <= limit:
        return [text]
    parts: list[str] = []
    rest = text.strip()
    while rest:
        size = max(1, limit * _CHARS_PER_PIECE)
        while size < len(rest) and count(rest[:size]) <= limit:
            size *= 2  # long pieces: look further
        window = rest[:size]
        if size >= len(rest) and count(window) <= limit:
            parts.append(rest)
            break

        def fits(i: int) -> bool:
            return count(window[:i].rstrip()) <= limit
        cut = None
        for boundary in _BOUNDARIES:
            cuts = [i for i in range(1, len(window)) if boundary(window, i)]
            if (cut := _last_fitting(cuts, fits)) is not None:
                break
        cut = cut or 1  # no cut fits: one character more than the model takes; never loop without progress
        parts.append(window[:cut].rstrip())
        rest = rest[cut:].lstrip()
    return [p for p in parts if p]
