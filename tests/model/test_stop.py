"""Stop and pause reach the phases before the first step: nothing is written and nobody waits for them."""

from __future__ import annotations

import threading

import pytest
import torch

import model.training.prepare as prepare
from model.config import TrainConfig, preset
from model.corpus.ding_corpus import build_ding_corpus
from model.training.control import Stopped, TrainControl
from model.training.data import load_corpora
from model.training.run import run_training
from model.training.validate import validate
from model.transformer import Transformer
from tests.model.test_ding import SAMPLE


def tiny_cfg(out, **kw) -> TrainConfig:
    return TrainConfig(out_dir=str(out), model=preset("tiny"), task="reverse", task_size=300, n_valid=20,
                       max_steps=5, valid_every=0, checkpoint_every=0, threads=1, **kw)


def test_stop_during_tokenizer_training_returns_at_once_and_writes_nothing(tmp_path, monkeypatch):
    real_train, started, release = prepare.Tokenizer.train, threading.Event(), threading.Event()

    def slow_train(texts, vocab_size):  # SentencePiece, held until the test has seen the run return
        started.set()
        release.wait(30)
        return real_train(texts, vocab_size)

    monkeypatch.setattr(prepare.Tokenizer, "train", staticmethod(slow_train))
    control, out = TrainControl(), tmp_path / "run"
    records: list = []
    runner = threading.Thread(target=lambda: records.extend(run_training(tiny_cfg(out), control)))
    runner.start()
    assert started.wait(30), "the run never reached the tokenizer"
    control.stop()
    runner.join(10)
    try:
        # The run ended while SentencePiece was still busy: it did not wait for the tokenizer.
        assert not runner.is_alive() and not release.is_set()
    finally:
        release.set()
        runner.join(30)
    assert [r.event for r in records] == ["stopped"]
    assert records[0].checkpoint is None and "nothing was written" in records[0].message
    assert not out.exists()


def test_stopped_before_start_creates_no_run_folder(tmp_path):
    control, out = TrainControl(), tmp_path / "run"
    control.stop()
    records = list(run_training(tiny_cfg(out), control))
    assert [(r.event, r.step, r.checkpoint) for r in records] == [("stopped", 0, None)]
    assert not out.exists()


def test_stop_between_corpus_and_first_step_leaves_an_existing_folder_empty(tmp_path, monkeypatch):
    out = tmp_path / "run"
    out.mkdir()
    control = TrainControl()
    real = prepare.encode_pairs

    def encode_then_stop(*args, **kw):  # the stop arrives while the valid set is encoded
        result = real(*args, **kw)
        control.stop()
        return result

    monkeypatch.setattr(prepare, "encode_pairs", encode_then_stop)
    records = list(run_training(tiny_cfg(out), control))
    assert [r.event for r in records] == ["stopped"]
    assert out.is_dir() and list(out.iterdir()) == []  # no step-00000000, no log.jsonl


def test_a_paused_phase_waits_and_a_stop_ends_it():
    control = TrainControl()
    control.pause()
    done = threading.Event()

    def phase():
        with pytest.raises(Stopped):
            control.checkpoint()
        done.set()

    t = threading.Thread(target=phase)
    t.start()
    assert not done.wait(0.3)  # held by the pause
    control.stop()  # a stop wakes a paused phase and ends it
    t.join(10)
    assert done.is_set()


def test_validation_is_abandoned_when_stopped(tmp_path):
    cfg = tiny_cfg(tmp_path / "run", valid_bleu_sentences=0)
    train_pairs, valid_pairs, _ = load_corpora(cfg)
    data = prepare.prepare_data(cfg, train_pairs, valid_pairs)
    model = Transformer(cfg.model.replace(vocab_size=data.tokenizer.vocab_size))
    loss, bleu = validate(model, data, cfg, torch.device("cpu"), TrainControl())
    assert loss > 0 and bleu is None
    control = TrainControl()
    control.stop()
    assert validate(model, data, cfg, torch.device("cpu"), control) is None
    assert model.training  # back in training mode either way


def test_ding_corpus_build_stops_before_writing(tmp_path):
    ding = tmp_path / "de-en"
    ding.write_text(SAMPLE, encoding="utf-8")
    calls = []

    def check():
        calls.append(1)
        raise Stopped

    with pytest.raises(Stopped):
        build_ding_corpus(tmp_path / "data", ding, n_valid=1, n_test=1, check=check)
    assert calls and not (tmp_path / "data").exists()
