"""Shared fixtures: a tiny trained model folder that model and GUI tests can load."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# Under pytest-xdist (the README's command runs one worker per core) each worker computes with one
# thread: two workers of two threads each on two cores waited on each other at every parallel op.
if os.environ.get("PYTEST_XDIST_WORKER"):
    os.environ.setdefault("OMP_NUM_THREADS", "1")


def train_tiny(out: Path, task: str = "reverse", steps: int = 60, **kw) -> Path:
    """Train the tiny preset briefly on a synthetic task; returns the run folder (LATEST inside)."""
    from model.config import TrainConfig, preset
    from model.training.run import run_training
    model = preset("tiny", dropout=kw.pop("dropout", 0.0))
    settings = dict(task_size=2000, warmup_steps=50, lr_scale=0.5, batch_tokens=1024, valid_every=0,
                    checkpoint_every=0, n_valid=50, report_every=10)
    settings.update(kw)
    cfg = TrainConfig(out_dir=str(out), model=model, task=task, max_steps=steps, **settings)
    events = list(run_training(cfg))
    assert events[-1].event == "done", events[-1].message
    return out


@pytest.fixture(scope="session")
def tiny_model_dir(tmp_path_factory) -> Path:
    """A loadable checkpoint folder of the tiny preset, trained for a few seconds on 'reverse'."""
    from model.checkpoint import resolve
    return resolve(train_tiny(tmp_path_factory.mktemp("tiny-model")))


@pytest.fixture(scope="session")
def reverse_model_dir(tmp_path_factory) -> Path:
    """The tiny preset trained well on 'reverse' (400 steps of the task's demo settings, one thread): its
    last-layer cross-attention is the anti-diagonal. ~10 s on an idle machine, minutes on a busy one, so
    only ``slow`` tests use it."""
    from model.checkpoint import resolve
    from model.training.tasks import DEMO_SETTINGS
    settings = dict(DEMO_SETTINGS["reverse"], probe_every=0, checkpoint_every=0, keep_checkpoints=1,
                    task_size=5000, threads=1, report_every=100)
    del settings["max_steps"]
    return resolve(train_tiny(tmp_path_factory.mktemp("reverse-model"), steps=400, **settings))


@pytest.fixture(scope="session")
def marian_model(tmp_path_factory):
    """(a tiny random transformers MarianMTModel, its save_pretrained folder with safetensors, the same
    with pytorch_model.bin); skips where the ``marian`` extra (transformers) is not installed."""
    pytest.importorskip("transformers")
    from tests.model.marian_tiny import build_model, build_tokenizer_files, make_marian_folder
    root = tmp_path_factory.mktemp("marian")
    hf = build_model(len(build_tokenizer_files(root / "tok")), seed=0)
    return (hf, make_marian_folder(root / "st", safetensors=True, model=hf),
            make_marian_folder(root / "pt", safetensors=False, model=hf))


@pytest.fixture(scope="session")
def marian_separate(tmp_path_factory):
    """(a tiny random MarianMTModel with separate source and target vocabularies, its save_pretrained folder
    with vocab.json, target_vocab.json and both SentencePiece models); built once per session."""
    pytest.importorskip("transformers")
    from tests.model.marian_tiny import make_separate_marian_folder
    return make_separate_marian_folder(tmp_path_factory.mktemp("marian-separate") / "opus-mt-tiny-separate")


@pytest.fixture
def hub(marian_model, tmp_path, monkeypatch):
    """A loopback Hub (tests/hub_server.py) serving the tiny Marian folder as ``test-org/opus-mt-en-de``,
    with HF_HOME and HF_ENDPOINT pointed at this test's own; nothing reaches the network."""
    from tests.hub_server import REPO, FakeHub
    server = FakeHub()
    server.add_folder(REPO, marian_model[1])
    server.start()
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    monkeypatch.setenv("HF_ENDPOINT", server.url)
    monkeypatch.delenv("HF_HUB_CACHE", raising=False)
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    yield server
    server.stop()
