"""Corpus files hold one sentence per line, and line i of ``train.en`` translates line i of ``train.de``.

Reading and writing live together because alignment is the one property both must keep. A line ends at
``\\n`` only (a ``\\r`` before it is dropped, for files saved on Windows). Python's ``str.splitlines`` also
breaks at U+0085, U+2028, U+2029, \\v, \\f and \\x1c–\\x1e, which occur inside real sentences; ``wc -l``,
editors and the other side's file do not break there, so every later pair would shift by one, silently.
Every corpus, test set, reference and stdin reader of the app goes through ``split_lines``.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from model.errors import CorpusError


def split_lines(text: str) -> list[str]:
    """The lines of ``text`` as ``wc -l`` counts them: split on ``\\n``, a trailing ``\\r`` dropped, the
    final newline ending the last line rather than starting an empty one."""
    rows = text.split("\n")
    if rows and rows[-1] == "":
        rows.pop()
    return [r[:-1] if r.endswith("\r") else r for r in rows]


def decode_text(data: bytes, where: str, error: type[Exception] = CorpusError) -> str:
    """UTF-8 (a BOM allowed) or one line naming the first bad line; NUL bytes mean a binary file."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise error(f"{where} is not UTF-8 text (bad byte at line {line}); convert it with iconv") from None
    if "\x00" in text:
        raise error(f"{where} looks like a binary file, not text")
    return text


def read_text(path: Path | str, what: str = "corpus", error: type[Exception] = CorpusError) -> str:
    """The UTF-8 text of the file ``path``; a one-line ``error`` naming ``what`` if it cannot be read."""
    path = Path(path)
    if not path.exists():
        raise error(f"{what} file not found: {path}")
    if path.is_dir():
        raise error(f"the {what} path is a folder, not a file: {path}")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise error(f"cannot read the {what} file {path}: {exc.strerror or exc}") from None
    return decode_text(data, str(path), error)


def read_lines(path: Path | str, what: str = "corpus", error: type[Exception] = CorpusError) -> list[str]:
    """The lines of the UTF-8 text file ``path`` (``read_text``, split by ``split_lines``)."""
    return split_lines(read_text(path, what, error))


def aligned_lines(texts: Iterable[str]) -> bytes:
    """The texts as UTF-8 lines; a text that is empty or holds a line break or tab is refused, since it
    would shift every later line against its translation."""
    out = []
    for t in texts:
        if "\n" in t or "\r" in t or "\t" in t or not t:
            raise CorpusError(f"refusing to write a line that would break alignment: {t!r}")
        out.append(t + "\n")
    return "".join(out).encode("utf-8")
