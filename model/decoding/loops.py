"""Decoding loops: the same piece or n-gram repeated far past anything the source repeats.

A model out of its depth (long news sentences for the built-in model) often ends a translation in
"… die die die die …" until the length limit. Such output must not pass for a translation: the search
result is cut where the loop starts (its first occurrence kept) and the sentence is flagged, so the window
and the command line can say "the model repeated itself". The output length is bounded by the source's
too: at most ``RATIO`` times the source's pieces plus ``SLACK`` (and the caller's ``max_extra``).

A repetition counts as a loop when an n-gram (n ≤ ``MAX_N``) follows itself at least ``MIN_REPEATS`` times
in a row and more than ``MARGIN`` times more often in a row than any n-gram of the source does ("very very
very good" may come out as "sehr sehr sehr gut").
"""

from __future__ import annotations

from collections.abc import Sequence

MAX_N = 4
MIN_REPEATS = 4
MARGIN = 2
RATIO = 3
SLACK = 10

REPEATED = "repeated"  # the flag of a translation cut at a loop
LENGTH_LIMIT = "length_limit"  # the search stopped at the length bound without ending the sentence


def max_output_length(source_len: int, max_extra: int) -> int:
    """Pieces the search may produce for a source of ``source_len`` pieces (its </s> included)."""
    return min(source_len + max_extra, RATIO * source_len + SLACK)


def _longest_run(ids: Sequence[int], n: int) -> tuple[int, int]:
    """(repeats, start) of the longest stretch where one n-gram follows itself; (1, 0) if none."""
    best, best_start = 1, 0
    for start in range(len(ids) - n + 1):
        gram, k = ids[start:start + n], 1
        while ids[start + k * n:start + (k + 1) * n] == gram:
            k += 1
        if k > best:
            best, best_start = k, start
    return best, best_start


def find_loop(out: Sequence[int], source: Sequence[int]) -> int | None:
    """Where the output's loop starts to repeat (the index after the first copy), or None."""
    out, source = list(out), list(source)
    cut = None
    for n in range(1, MAX_N + 1):
        k, start = _longest_run(out, n)
        allowed = _longest_run(source, n)[0] + MARGIN
        if k >= MIN_REPEATS and k > allowed:
            at = start + n  # keep one copy of the repeated n-gram
            cut = at if cut is None else min(cut, at)
    return cut


def guard(generated: Sequence[int], source: Sequence[int], eos: int, max_len: int) -> tuple[list[int], tuple[str, ...]]:
    """The search result with a loop cut off (and </s> put back), and its flags."""
    body = [i for i in generated if i != eos]
    flags: tuple[str, ...] = ()
    cut = find_loop(body, [i for i in source if i != eos])
    if cut is not None:
        return body[:cut] + [eos], (REPEATED,)
    if len(generated) >= max_len and (not generated or generated[-1] != eos):
        flags = (LENGTH_LIMIT,)
    return list(generated), flags
