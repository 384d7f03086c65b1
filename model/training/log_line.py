"""One line of a run's ``log.jsonl``: strict JSON that any reader parses (issue 31, item 14).

Python's ``json.dumps`` writes a float NaN or infinity as the bare words ``NaN`` / ``Infinity``, which
are not JSON: ``jq``, JavaScript's ``JSON.parse`` and pandas' strict mode reject the whole line. A run
reports NaN often (the loss of a record before the first window closes, a diverged step) and an infinite
ETA now and then, so a third of a real log was unreadable. Such a value is not a measurement: it is
written as ``null``, as a missing one already is. Nothing here imports torch.
"""

from __future__ import annotations

import json
import math

from model.records import TrainProgress

LEFT_OUT = ("probe", "extra")  # a translation and free-form extras: the log keeps the numbers only


def _finite(value):
    """``value`` with every non-finite float (at any depth) replaced by None."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(v) for v in value]
    return value


def log_line(record: TrainProgress) -> str:
    """``record`` as one strict JSON line (with its newline); allow_nan=False guards the rule above."""
    fields = {k: _finite(v) for k, v in record.__dict__.items() if k not in LEFT_OUT}
    return json.dumps(fields, allow_nan=False) + "\n"
