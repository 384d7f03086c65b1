"""The CTranslate2 yardstick (benchmarks/ct2.py) is the same model: converted weight for weight, it gives our
greedy output piece for piece. Skipped without the ``bench`` extra."""

from __future__ import annotations

import pytest

from model.checkpoint import load_model
from model.decoding.batches import decode_batches

ctranslate2 = pytest.importorskip("ctranslate2")

SRC = ["3 1 4 1 5", "9 2 6", "2 7 1 8 2", "5 3 5 8", "1 1 2 3 5 8", "7"]


def test_converted_model_gives_our_greedy_output(tiny_model_dir, tmp_path):
    from benchmarks.ct2 import convert, greedy_ids
    loaded = load_model(tiny_model_dir)
    _, ours = decode_batches(loaded.model, loaded.tokenizer, SRC, threads=1)
    ours = [[t for t in ids if t != loaded.config.eos_id] for ids in ours]
    assert any(ours)  # the tiny model says something, so agreement means something
    folder = convert(loaded, tmp_path / "ct2")
    translator = ctranslate2.Translator(str(folder), device="cpu", inter_threads=1, intra_threads=1)
    assert greedy_ids(translator, loaded, SRC) == ours
