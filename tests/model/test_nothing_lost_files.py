"""Hostile side files, full disks, two runs in one folder, a diverging loss: one line each, nothing lost."""

from __future__ import annotations

import errno
import json
import math
from pathlib import Path

import pytest
import torch

from model.checkpoint import LATEST, load_model, load_train_state, read_config, resolve, training_length
from model.errors import CheckpointError, UserError
from model.safe_json import read_json
from model.training.divergence import PATIENCE, DivergenceWatch
from model.training.lock import RunLock
from model.training.state import save_failure
from tests.conftest import train_tiny


@pytest.mark.parametrize("content, message", [
    ("[" * 200_000 + "]" * 200_000, "nests deeper"),
    ('{"model": {"vocab_size": ' + "9" * 5001 + "}}", "digits"),
    (b"\xff\xfe{}", "not UTF-8"),
    ("{not json", "not valid JSON"),
])
def test_hostile_json_is_one_line(tmp_path, content, message):
    path = tmp_path / "config.json"
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    with pytest.raises(UserError, match=message) as exc:
        read_json(path)
    assert "\n" not in str(exc.value)
    with pytest.raises(CheckpointError):  # the model folder reader says the same through its own error
        read_config(tmp_path)
    assert training_length(tmp_path) == 0  # a hint only: never fails


def test_a_huge_config_is_refused_before_it_is_read(tmp_path, monkeypatch):
    path = tmp_path / "config.json"
    with open(path, "wb") as f:  # sparse: 3 GiB on paper, nothing on the disk
        f.truncate(3 * 2**30)
    read = []
    monkeypatch.setattr(Path, "read_bytes", lambda self: read.append(self) or b"")
    with pytest.raises(CheckpointError, match="too large"):
        read_config(tmp_path)
    assert not read


def test_latest_with_bad_bytes_and_train_state_with_wrong_types(tmp_path, tiny_model_dir):
    run = tmp_path / "run"
    run.mkdir()
    (run / LATEST).write_bytes(b"\xff\xfe step")
    with pytest.raises(CheckpointError, match="UTF-8"):
        resolve(run)
    ckpt = train_tiny(tmp_path / "t", steps=10, checkpoint_every=10) / "step-00000010"
    state = torch.load(ckpt / "train_state.pt", weights_only=True)
    torch.save({**state, "step": "ten", "torch_rng": [1, 2]}, ckpt / "train_state.pt")
    with pytest.raises(CheckpointError, match="step, torch_rng of the wrong type"):
        load_train_state(ckpt)


def test_a_full_disk_is_named_with_the_checkpoint_that_survives(tmp_path):
    full = OSError(errno.ENOSPC, "No space left on device")
    line = save_failure(full, 180, tmp_path, tmp_path / "step-00000150")
    assert line == f"no space left on the disk of {tmp_path} while saving step 180; the previous checkpoint " \
                   "step-00000150 is intact"
    torch_style = RuntimeError("[enforce fail at inline_container.cc:595] . PytorchStreamWriter failed writing "
                               "file data/3: file write failed\nmore")
    assert save_failure(torch_style, 5, tmp_path, None).startswith("no space left")


def test_save_errors_end_the_run_in_one_line_and_keep_the_last_checkpoint(tmp_path, monkeypatch):
    from model.training import state
    run = train_tiny(tmp_path / "run", steps=20, checkpoint_every=10)
    real = state.ckpt.save_model

    def full_disk(folder, *a, **k):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(state.ckpt, "save_model", full_disk)
    from model.config import TrainConfig, preset
    from model.training.run import run_training
    cfg = TrainConfig(out_dir=str(run), model=preset("tiny"), max_steps=40, valid_every=0, checkpoint_every=10,
                      report_every=10)
    last = list(run_training(cfg, resume=run))[-1]
    assert last.event == "error" and "no space left" in last.message and "step-00000020 is intact" in last.message
    monkeypatch.setattr(state.ckpt, "save_model", real)
    assert (run / LATEST).read_text().strip() == "step-00000020" and load_model(run).meta["step"] == 20


def test_two_runs_cannot_write_one_folder(tmp_path):
    first = RunLock(tmp_path).acquire()
    with pytest.raises(UserError, match="another training run"):
        RunLock(tmp_path).acquire()
    first.release()
    RunLock(tmp_path).acquire().release()  # released: the next run may start (a killed one releases too)


def test_divergence_needs_patience_and_a_real_rise():
    watch = DivergenceWatch(vocab_size=8000)
    for loss in (9.3, 7.0, 5.0, 4.0, 30.0, 4.1):  # one bad report is not divergence
        assert watch.update(loss) is None
    reasons = [watch.update(260_000.0) for _ in range(PATIENCE)]
    assert reasons[:-1] == [None] * (PATIENCE - 1) and "worse than guessing uniformly" in reasons[-1]
    rising = DivergenceWatch(vocab_size=8000)
    for loss in (3.0, 1.0):
        rising.update(loss)
    assert [rising.update(7.0) for _ in range(PATIENCE)][-1].endswith("against 1 earlier in the run")
    assert math.log(8000) + 3 > 9.3  # an untrained model's first loss is below the ceiling


def test_a_diverging_run_stops_without_saving_diverged_weights(tmp_path):
    from model.config import TrainConfig, preset
    from model.training.run import run_training
    cfg = TrainConfig(out_dir=str(tmp_path / "run"), model=preset("tiny"), task="reverse", task_size=500,
                      max_steps=400, warmup_steps=10, lr_scale=1e6, batch_tokens=512, valid_every=0,
                      checkpoint_every=5, report_every=5, n_valid=20, clip_norm=None)
    events = list(run_training(cfg))
    assert events[-1].event == "error" and ("diverged" in events[-1].message or "became" in events[-1].message)
    steps = sorted(p.name for p in (tmp_path / "run").glob("step-*"))
    assert events[-1].step < 400
    if steps and "diverged" in events[-1].message:  # no checkpoint was written once reports went bad
        newest = json.loads((tmp_path / "run" / steps[-1] / "config.json").read_text())["meta"]["step"]
        assert newest <= events[-1].step - PATIENCE * 5


def test_weights_get_the_umask_permissions_like_every_other_file(tmp_path, tiny_model_dir):
    import os

    from model.checkpoint import save_model
    loaded = load_model(tiny_model_dir)
    old = os.umask(0o022)
    try:
        out = save_model(tmp_path / "m", loaded.model, loaded.tokenizer)
    finally:
        os.umask(old)
    modes = {p.name: p.stat().st_mode & 0o777 for p in out.iterdir()}
    assert modes["model.safetensors"] == modes["config.json"] == 0o644, modes


def test_a_model_too_large_for_the_memory_is_refused_before_allocating(monkeypatch):
    from model.config import preset
    from model.training import memory
    cfg = preset("small")
    n = memory.parameter_count(cfg)
    from model.transformer import Transformer
    assert n == sum(p.numel() for p in Transformer(cfg).parameters())  # meta-device count is exact
    monkeypatch.setattr(memory, "available_bytes", lambda device: n * 8)  # half of what training needs
    with pytest.raises(UserError, match=r"needs at least .* GiB to train") as exc:
        memory.check_fits(cfg, torch.device("cpu"))
    assert "\n" not in str(exc.value)
    monkeypatch.setattr(memory, "available_bytes", lambda device: n * 32)
    memory.check_fits(cfg, torch.device("cpu"))
