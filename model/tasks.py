"""Built-in synthetic tasks for demos and tests: they converge in about a minute on a CPU.

Digit tasks use space-separated digits 0–9 of length 3–12, so every digit is one piece and the
attention pattern is easy to read (reverse → anti-diagonal cross-attention).
"""

from __future__ import annotations

import random

from model.errors import UserError

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December")
TASKS = ("reverse", "copy", "sort", "dates")


def _digits(rng: random.Random, lo: int, hi: int) -> list[str]:
    return [str(rng.randrange(10)) for _ in range(rng.randint(lo, hi))]


def make_pair(task: str, rng: random.Random, min_len: int = 3, max_len: int = 12) -> tuple[str, str]:
    if task in ("reverse", "copy", "sort"):
        d = _digits(rng, min_len, max_len)
        out = d[::-1] if task == "reverse" else (d if task == "copy" else sorted(d))
        return " ".join(d), " ".join(out)
    if task == "dates":
        year, month = rng.randint(1900, 2099), rng.randint(1, 12)
        day = rng.randint(1, 28)
        return f"{day} {MONTHS[month - 1]} {year}", f"{year}-{month:02d}-{day:02d}"
    raise UserError(f"unknown task {task!r}; choose one of {', '.join(TASKS)}")


def make_task(task: str, n: int, seed: int = 0, min_len: int = 3, max_len: int = 12) -> list[tuple[str, str]]:
    """n distinct-seeded pairs of a synthetic task (duplicates allowed: they are random draws)."""
    rng = random.Random(f"{task}-{seed}")
    return [make_pair(task, rng, min_len, max_len) for _ in range(n)]
