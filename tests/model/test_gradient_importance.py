"""Gradient head importance (Michel et al. 2019) on the tiny model: equal to a central finite difference of
each sentence's teacher-forced loss in the head's gate, |ΔL/Δξ| averaged over the sentences."""

from __future__ import annotations

import copy
from dataclasses import replace

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from model.analysis.gradient_importance import gradient_importance
from model.checkpoint import load_model
from model.records import KINDS

SRC = ["3 1 4 1 5", "9 2 6", "2 7 1 8 2", "5 3 5 8", "1 1 2"]
REF = ["5 1 4 1 3", "6 2 9", "2 8 1 7", "8 5 3 5", "2 1 1"]  # some wrong, so no loss is near zero


@pytest.fixture(scope="module")
def loaded64(tiny_model_dir):
    """The tiny model in float64, so a finite difference is exact to many digits."""
    loaded = load_model(tiny_model_dir)
    return replace(loaded, model=copy.deepcopy(loaded.model).double())


def _loss(loaded, text, ref, kind, layer, head, gate):
    """One sentence's mean cross-entropy over its target pieces with one head's gate set to ``gate``."""
    cfg, tok = loaded.config, loaded.tokenizer
    src = torch.tensor([tok.encode(text) + [cfg.eos_id]])
    out = tok.encode(ref) + [cfg.eos_id]
    tgt_in, tgt_out = torch.tensor([[cfg.bos_id] + out[:-1]]), torch.tensor([out])
    mask = torch.ones(cfg.n_layers, cfg.n_heads, dtype=torch.float64)
    mask[layer, head] = gate
    with torch.no_grad():
        logits, _ = loaded.model(src, tgt_in, head_masks={kind: mask})
    return float(F.cross_entropy(logits[0], tgt_out[0]))


def test_gradient_importance_equals_a_finite_difference(loaded64):
    cfg = loaded64.config
    result = gradient_importance(loaded64, SRC, REF)
    assert result.sentences == len(SRC) and len(result.scores) == 3 * cfg.n_layers * cfg.n_heads
    assert result.scores[0][0] == "enc:1.1" and result.scores[-1][0] == "cross:2.4"
    eps = 1e-5
    for kind in KINDS:
        grid = result.grid(kind, cfg.n_layers, cfg.n_heads)
        for layer, head in ((0, 1), (cfg.n_layers - 1, cfg.n_heads - 1)):
            fd = np.mean([abs(_loss(loaded64, s, r, kind, layer, head, 1 + eps)
                              - _loss(loaded64, s, r, kind, layer, head, 1 - eps)) / (2 * eps)
                          for s, r in zip(SRC, REF)])
            assert grid[layer, head] == pytest.approx(fd, rel=1e-6, abs=1e-9), (kind, layer, head)
    # The full model's loss, rounded to 6 decimals.
    assert result.loss == pytest.approx(np.mean([_loss(loaded64, s, r, "encoder", 0, 0, 1.0)
                                                 for s, r in zip(SRC, REF)]), abs=1e-6)


def test_the_command_line_prints_the_estimate(tiny_model_dir, tmp_path, capsys):
    import json

    from model.cli.commands import main
    src, ref = tmp_path / "s.txt", tmp_path / "r.txt"
    src.write_text("\n".join(SRC) + "\n", encoding="utf-8")
    ref.write_text("\n".join(REF) + "\n", encoding="utf-8")
    assert main(["heads", "importance", "--model", str(tiny_model_dir), "--src", str(src), "--ref", str(ref),
                 "--gradient", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    direct = gradient_importance(load_model(tiny_model_dir), SRC, REF)
    assert out == json.loads(json.dumps(direct.to_json())) and out["sentences"] == len(SRC)
