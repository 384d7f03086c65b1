"""Reading JSON from files the app did not necessarily write (model folders, run folders, lessons, caches).

``json.loads`` alone has three ways to fail that are not one clear line: a file of gigabytes is read whole
before anything is checked; ``[[[[…` 200,000 deep raises RecursionError deep in the parser; and a 5,001-digit
integer raises a ValueError from Python's int-size guard. Here the size is checked before reading (a
config is a few kB; the largest JSON the app reads, Marian's vocab.json, is a few MB), the nesting depth is
counted before parsing (outside strings), integers longer than ``MAX_DIGITS`` are refused by the parser's
``parse_int`` hook, and the text must be UTF-8. Every failure is ``error`` (a UserError by default) with a
message naming the file, so callers pass it on as their one line.
"""

from __future__ import annotations

import json
from pathlib import Path

from model.errors import UserError

MAX_BYTES = 64 * 1024 * 1024  # vocab.json of a 60k-piece Marian model is ~1.5 MB
MAX_DEPTH = 64  # our own files nest 3 deep
MAX_DIGITS = 40


class _TooDeep(Exception):
    pass


def _check_depth(text: str, limit: int) -> None:
    """Raise _TooDeep if brackets outside strings nest deeper than ``limit`` (a linear scan, no recursion)."""
    depth, in_string, escaped = 0, False, False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                raise _TooDeep
        elif ch in "]}":
            depth -= 1


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ValueError(f"an integer of {len(text)} digits")
    return int(text)


def loads(text: str, where: str, error: type[Exception] = UserError, max_depth: int = MAX_DEPTH):
    """``json.loads`` with the depth and integer limits; ``where`` names the source in the message."""
    try:
        _check_depth(text, max_depth)
        return json.loads(text, parse_int=_parse_int)
    except _TooDeep:
        raise error(f"{where} is not a file of this app: its JSON nests deeper than {max_depth} levels") from None
    except json.JSONDecodeError as exc:
        raise error(f"{where} is not valid JSON ({exc})") from None
    except (ValueError, RecursionError) as exc:
        raise error(f"{where} is not a file of this app: {exc}") from None


def read_json(path: Path | str, error: type[Exception] = UserError, max_bytes: int = MAX_BYTES,
              max_depth: int = MAX_DEPTH):
    """The JSON value in ``path``, read only if it is at most ``max_bytes``; FileNotFoundError passes through
    so a caller can say "has no config.json" in its own words."""
    path = Path(path)
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise error(f"cannot read {path}: {exc.strerror or exc}") from None
    if path.is_dir():
        raise error(f"{path} is a folder, not a JSON file")
    if size > max_bytes:
        raise error(f"{path} is {size / 2**20:.0f} MiB: too large for a file of this app "
                    f"(at most {max_bytes / 2**20:.0f} MiB); it was not read")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise error(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise error(f"{path} is not UTF-8 text, so not a file of this app") from None
    return loads(text, str(path), error, max_depth)


def read_small_text(path: Path | str, error: type[Exception] = UserError, max_bytes: int = 4096) -> str:
    """A one-line file such as LATEST: size-capped and UTF-8, stripped."""
    path = Path(path)
    try:
        if path.stat().st_size > max_bytes:
            raise error(f"{path} is too large for a {path.name} file")
        return path.read_bytes().decode("utf-8").strip()
    except UnicodeDecodeError:
        raise error(f"{path} is not UTF-8 text") from None
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise error(f"cannot read {path}: {exc.strerror or exc}") from None
