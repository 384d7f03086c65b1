"""What a command-line translation loads (issue 33 item 6): no torch._dynamo, and models built without
initialising still have the real model's names and shapes. The time itself is measured in benchmarks/."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
import torch

from model.config import ModelConfig
from model.transformer import Transformer, uninitialised

ROOT = Path(__file__).resolve().parents[2]


def test_a_cli_translation_does_not_import_torch_dynamo(tiny_model_dir):
    """The weight-header check builds the model on the meta device; initialising meta tensors (normal_,
    arange) runs Python reference kernels whose first call imports torch._dynamo: 1.4 s of a 4 s command."""
    code = ("import sys; from model.cli import main; "
            f"code = main(['translate', '--model', {str(tiny_model_dir)!r}, 'a b c']); "
            "print('dynamo' if 'torch._dynamo' in sys.modules else 'no dynamo', code)")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300,
                         env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[-1] == "no dynamo 0"


@pytest.mark.parametrize("changes", [{}, {"share_embeddings": False}, {"final_logits_bias": True},
                                     {"pe_layout": "halves", "activation": "swish"}])
def test_an_uninitialised_model_has_the_real_models_names_and_shapes(changes):
    cfg = replace(ModelConfig(vocab_size=50, n_layers=2, d_model=16, n_heads=2, d_ff=32), **changes)
    real = {k: (tuple(v.shape), v.dtype) for k, v in Transformer(cfg).state_dict().items()}
    for device in ("meta", "cpu"):
        body = uninitialised(cfg, device)
        assert {k: (tuple(v.shape), v.dtype) for k, v in body.state_dict().items()} == real
        assert body.positional.table.device.type == "cpu"  # the sinusoids are real numbers even on meta
        torch.testing.assert_close(body.positional.table, Transformer(cfg).positional.table)
