"""Corpus files hold one sentence per line, and line i of ``train.en`` translates line i of ``train.de``."""

from __future__ import annotations

from collections.abc import Iterable

from model.errors import CorpusError


def aligned_lines(texts: Iterable[str]) -> bytes:
    """The texts as UTF-8 lines; a text that is empty or holds a line break or tab is refused, since it
    would shift every later line against its translation."""
    out = []
    for t in texts:
        if "\n" in t or "\r" in t or "\t" in t or not t:
            raise CorpusError(f"refusing to write a line that would break alignment: {t!r}")
        out.append(t + "\n")
    return "".join(out).encode("utf-8")
