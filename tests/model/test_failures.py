"""Training failures end with a message a person can act on and never damage the last good checkpoint."""

import hashlib
import os
import re
import signal
from pathlib import Path

import pytest
import torch

import model.training.train as train_mod
from model.checkpoint import load_model
from model.config import TrainConfig, preset
from model.errors import CorpusError, UserError
from model.training.run import run_training
from model.training.torchrun import run_distributed
from tests.model.test_distributed import gone


def tiny_cfg(out: Path, **kw) -> TrainConfig:
    settings = {"model": preset("tiny"), "task": "reverse", "task_size": 400, "warmup_steps": 50, "lr_scale": 0.5,
                "batch_tokens": 512, "valid_every": 0, "checkpoint_every": 0, "n_valid": 20, "report_every": 5,
                "max_steps": 20, "threads": 1}
    settings.update(kw)
    return TrainConfig(out_dir=str(out), **settings)


def digest(folder: Path) -> dict[str, str]:
    """sha256 of every file under folder, by relative path."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def failing_loss(monkeypatch, after_calls: int, fail) -> None:
    """Let the training loss (step_loss) work for after_calls calls, then fail (raise or return a NaN loss)."""
    real, calls = train_mod.step_loss, []

    def loss(*args, **kw):
        calls.append(1)
        out = real(*args, **kw)
        return out if len(calls) <= after_calls else fail(out)
    monkeypatch.setattr(train_mod, "step_loss", loss)


def raise_oom(_):
    raise torch.cuda.OutOfMemoryError("CUDA out of memory. Tried to allocate 2.00 GiB")


def test_out_of_memory_suggests_fewer_batch_tokens(tmp_path, monkeypatch):
    failing_loss(monkeypatch, 0, raise_oom)
    events = list(run_training(tiny_cfg(tmp_path / "run", batch_tokens=1024)))
    last = events[-1]
    assert last.event == "error" and last.step == 0
    assert "out of memory at step 1" in last.message
    assert "fewer batch tokens (e.g. 512)" in last.message
    assert not list((tmp_path / "run").glob("step-*"))


def test_out_of_memory_after_a_checkpoint_names_it(tmp_path, monkeypatch):
    failing_loss(monkeypatch, 6, raise_oom)
    run = tmp_path / "run"
    last = list(run_training(tiny_cfg(run, checkpoint_every=5)))[-1]
    assert last.event == "error" and "(e.g. 256)" in last.message
    assert f"{run / 'step-00000005'} is intact" in last.message
    assert load_model(run).meta["step"] == 5


def test_nan_loss_stops_and_leaves_the_checkpoint_byte_identical(tmp_path, monkeypatch):
    failing_loss(monkeypatch, 12, lambda loss: loss * float("nan"))
    run = tmp_path / "run"
    before = None
    for rec in run_training(tiny_cfg(run, checkpoint_every=10, max_steps=30)):
        if rec.event == "checkpoint":
            before = {**digest(run / "step-00000010"), "LATEST": (run / "LATEST").read_text()}
    assert rec.event == "error" and rec.step == 12
    assert "the loss became nan at step 13" in rec.message
    assert f"the last good checkpoint {run / 'step-00000010'} is intact" in rec.message
    assert before == {**digest(run / "step-00000010"), "LATEST": (run / "LATEST").read_text()}
    assert sorted(p.name for p in run.iterdir() if p.name.startswith(("step-", ".tmp"))) == ["step-00000010"]
    assert load_model(run).meta["step"] == 10


def test_missing_corpus_file(tmp_path):
    cfg = tiny_cfg(tmp_path / "run", task="", src=str(tmp_path / "none.en"), tgt=str(tmp_path / "none.de"))
    with pytest.raises(CorpusError, match="corpus file not found: .*none.en"):
        list(run_training(cfg))


def test_corpus_that_is_not_utf8(tmp_path):
    (tmp_path / "c.en").write_bytes(b"hello\nw\xe4rld\n")
    (tmp_path / "c.de").write_text("hallo\nwelt\n", encoding="utf-8")
    cfg = tiny_cfg(tmp_path / "run", task="", src=str(tmp_path / "c.en"), tgt=str(tmp_path / "c.de"))
    with pytest.raises(CorpusError, match=r"c.en is not UTF-8 text \(bad byte at line 2\)"):
        list(run_training(cfg))


def test_unwritable_output_folder(tmp_path):
    # chmod does not stop root, so the folder is asked for under a regular file, which stops everyone.
    (tmp_path / "file").write_text("x")
    with pytest.raises(UserError, match="cannot write to the output folder .*file/run"):
        list(run_training(tiny_cfg(tmp_path / "file" / "run")))
    with pytest.raises(UserError, match="cannot write to the output folder .*file/run"):
        list(run_distributed(tiny_cfg(tmp_path / "file" / "run"), 2, backend="gloo"))


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the message on machines without CUDA")
def test_gpus_without_cuda_point_to_gloo(tmp_path):
    with pytest.raises(UserError, match="no(ne)? .*available; use the gloo backend"):
        list(run_distributed(tiny_cfg(tmp_path / "run"), 2))



@pytest.mark.slow
def test_killed_worker_gives_an_error_record_and_keeps_the_checkpoint(tmp_path, monkeypatch):
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    run = tmp_path / "run"
    cfg = tiny_cfg(run, max_steps=100_000, checkpoint_every=5, report_every=1)
    saved = None
    for last in run_distributed(cfg, 2, backend="gloo"):
        if last.event == "checkpoint" and saved is None:  # a crash, as if the kernel's OOM killer struck
            saved = digest(Path(last.checkpoint))
            os.kill(last.extra["worker_pids"][1], signal.SIGKILL)
    assert last.event == "error"
    assert "the training processes failed (exit code 1)" in last.message
    assert f"the last good checkpoint {run / 'step-00000005'} is intact" in last.message
    assert digest(run / "step-00000005") == saved
    assert load_model(run).meta["step"] == 5
    assert all(gone(pid) for pid in [last.extra["launcher_pid"], *last.extra["worker_pids"].values()])


@pytest.mark.slow
def test_worker_error_reaches_the_launcher_with_its_exit_code(tmp_path, monkeypatch):
    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    cfg = tiny_cfg(tmp_path / "run", task="", tsv=str(tmp_path / "deleted.tsv"))
    last = list(run_distributed(cfg, 2, backend="gloo"))[-1]
    assert last.event == "error"
    assert "corpus file not found" in last.message
    assert re.search(r"exited with code [1-9]", last.message), last.message
