"""The run's log.jsonl is strict JSON (model/training/log_line.py, issue 31 item 14): a NaN loss or an
infinite ETA is written as null, never as the bare NaN / Infinity that strict readers refuse."""

from __future__ import annotations

import json
import math

import pytest

from model.records import TrainProgress
from model.training.log_line import log_line


def _strict(line: str) -> dict:
    def refuse(word):
        raise ValueError(f"not JSON: {word}")
    return json.loads(line, parse_constant=refuse)


def test_non_finite_numbers_are_written_as_null():
    rec = TrainProgress(step=3, max_steps=10, epoch=0, loss=math.nan, lr=1e-4, tokens_per_s=math.inf,
                        elapsed_s=2.5, eta_s=-math.inf, valid_loss=1.25, event="step")
    line = log_line(rec)
    assert line.endswith("\n") and line.count("\n") == 1
    fields = _strict(line)
    assert fields["loss"] is None and fields["tokens_per_s"] is None and fields["eta_s"] is None
    assert (fields["step"], fields["lr"], fields["elapsed_s"], fields["valid_loss"]) == (3, 1e-4, 2.5, 1.25)
    assert "probe" not in fields and "extra" not in fields


def test_the_old_way_was_not_strict_json():
    # What train.py wrote before: the same record through plain json.dumps. Guards the test above.
    rec = TrainProgress(step=0, max_steps=None, epoch=0, loss=math.nan, lr=0.0, tokens_per_s=0.0, elapsed_s=0.0)
    with pytest.raises(ValueError, match="not JSON: NaN"):
        _strict(json.dumps({k: v for k, v in rec.__dict__.items() if k not in ("probe", "extra")}))
    assert _strict(log_line(rec))["loss"] is None

