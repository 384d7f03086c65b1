"""A resumed run reads only the corpus files the user names, or those inside the run's own folder (#27).

train_config.json travels with a run folder and anyone can edit it; an attack made ``--resume`` train on
/etc/passwd. The check happens before any corpus is opened."""

from __future__ import annotations

import json
import random

import pytest

from model.checkpoint import resolve
from model.config import TrainConfig, preset
from model.errors import UserError
from model.training.run import run_training
from tests.conftest import train_tiny


def _pairs(folder, name: str) -> tuple[str, str]:
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(0)
    rows = [" ".join(rng.choice("0123456789") for _ in range(rng.randint(3, 7))) for _ in range(300)]
    (folder / f"{name}.src").write_text("\n".join(rows) + "\n", encoding="utf-8")
    (folder / f"{name}.tgt").write_text("\n".join(" ".join(r.split()[::-1]) for r in rows) + "\n", encoding="utf-8")
    return str(folder / f"{name}.src"), str(folder / f"{name}.tgt")


def _point_run_at(run, src: str, tgt: str) -> None:
    saved = resolve(run) / "train_config.json"
    data = json.loads(saved.read_text(encoding="utf-8"))
    data.update(task="", src=src, tgt=tgt)
    saved.write_text(json.dumps(data), encoding="utf-8")


def _more(run, steps: int, **named) -> TrainConfig:
    return TrainConfig(out_dir=str(run), model=preset("tiny"), max_steps=steps, valid_every=0, checkpoint_every=0,
                       report_every=5, **named)


def test_a_saved_corpus_outside_the_run_is_refused_until_named(tmp_path):
    run = train_tiny(tmp_path / "run", task="reverse", steps=10)
    src, tgt = _pairs(tmp_path / "elsewhere", "secret")
    _point_run_at(run, src, tgt)
    with pytest.raises(UserError) as caught:
        list(run_training(_more(run, 12), resume=run))
    message = str(caught.value)
    assert "\n" not in message and src in message and "--src" in message and "outside the run folder" in message
    assert resolve(run).name == "step-00000010"  # nothing trained, nothing written
    named = list(run_training(_more(run, 12, src=src, tgt=tgt), resume=run))  # the user names it: fine
    assert named[-1].event == "done" and named[-1].step == 12


def test_a_corpus_inside_the_run_folder_is_read_without_naming_it(tmp_path):
    run = train_tiny(tmp_path / "run", task="reverse", steps=10)
    src, tgt = _pairs(tmp_path / "run" / "data", "train")
    _point_run_at(run, src, tgt)
    events = list(run_training(_more(run, 12), resume=run))
    assert events[-1].event == "done" and events[-1].step == 12
    assert f"300 pairs from {src} + {tgt}" in events[0].message  # the start line says which files it read
