"""argparse types for option values: a value out of range is refused by the parser, in its one line
(``attention-explorer train: error: argument --keep: must be at least 1, got 0``), before any work starts.

Each bound is where the code behind the option stops making sense, not a taste: ``--keep 0`` would remove
the checkpoint just written, ``--beam 0`` has no hypothesis to keep, a seed must fit NumPy's 32 bits.
"""

from __future__ import annotations

import argparse
import math


def _integer(text: str) -> int:
    text = text.strip()
    # int() of a 5,000-digit string is refused by Python with a ValueError deep in a traceback elsewhere;
    # no option here needs more than 12 digits.
    if len(text.lstrip("+-")) > 12:
        raise argparse.ArgumentTypeError(f"{text[:16]}… is too large")
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None


def at_least(low: int, high: int | None = None):
    """An int type with bounds; its name shows in argparse's messages."""
    def parse(text: str) -> int:
        value = _integer(text)
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, got {value}")
        if high is not None and value > high:
            raise argparse.ArgumentTypeError(f"must be at most {high}, got {value}")
        return value
    parse.__name__ = f"int >= {low}"
    return parse


positive_int = at_least(1)
count = at_least(0)
seed = at_least(0, 2**32 - 1)


def fraction(text: str) -> float:
    """A probability in [0, 1): dropout, label smoothing."""
    value = finite(text)
    if not 0.0 <= value < 1.0:
        raise argparse.ArgumentTypeError(f"must be in [0, 1), got {value}")
    return value


def finite(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"must be a finite number, got {text}")
    return value


def length_penalty_alpha(text: str) -> float:
    """GNMT's α, in [0, 10]: ((5 + |Y|) / 6)^α overflowed a float at α = 1000 (the paper's is 0.6)."""
    value = finite(text)
    if not 0.0 <= value <= 10.0:
        raise argparse.ArgumentTypeError(f"must be between 0 and 10, got {value}")
    return value


def positive_float(text: str) -> float:
    value = finite(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be greater than 0, got {value}")
    return value


class OneLineParser(argparse.ArgumentParser):
    """argparse's parser with its error as one line (argparse prints the whole usage block first, which
    pushes the one line that matters off a small terminal), exit code 2 as before."""

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")
