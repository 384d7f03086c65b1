"""The walkthrough's per-head Q, K, V (model/analysis/vectors.py) reproduce the model's real attention."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from model.analysis.walkthrough import formula_row
from model.checkpoint import load_model
from model.decoding.decode import translate
from model.records import KINDS
from model.transformer import padding_mask


@pytest.fixture(scope="module")
def loaded(tiny_model_dir):
    return load_model(tiny_model_dir)


@pytest.fixture(scope="module")
def result(loaded):
    return translate(loaded, "3 1 4 1 5 9", capture_vectors=True)


def test_vectors_only_when_asked(loaded, result):
    assert translate(loaded, "3 1 4 1 5 9").vectors is None
    maps, vectors = result.attention, result.vectors
    d_k = loaded.model.cfg.d_model // loaded.model.cfg.n_heads
    for kind in KINDS:
        hv, rows_cols = vectors.of_kind(kind), maps.of_kind(kind).shape
        assert hv.q.shape == rows_cols[:3] + (d_k,) and hv.k.shape == rows_cols[:2] + (rows_cols[3], d_k)


@pytest.mark.parametrize("kind", KINDS)
def test_recomputed_row_equals_captured_attention_and_head_output(result, kind):
    maps, hv = result.attention, result.vectors.of_kind(kind)
    weights = maps.of_kind(kind)
    n_layers, n_heads, rows, _ = weights.shape
    mask = maps.masked(kind)
    checked = 0
    for layer in range(n_layers):
        for head in range(n_heads):
            for i in {0, rows // 2, rows - 1}:
                row = formula_row(hv.q[layer, head, i], hv.k[layer, head], hv.v[layer, head], mask[i])
                np.testing.assert_allclose(row.weights, weights[layer, head, i], atol=1e-5)
                np.testing.assert_allclose(row.output, hv.out[layer, head, i], atol=1e-5)
                checked += 1
    assert checked >= n_layers * n_heads * 2  # rows > 1: several distinct cells per head


def test_head_outputs_through_w_o_equal_the_real_sub_layer(loaded, result):
    """The captured heads are the model's: concatenated and projected, they give the fused path's output."""
    model = loaded.model
    src = torch.tensor([loaded.tokenizer.encode("3 1 4 1 5 9") + [3]])
    hv = result.vectors.encoder_self
    with torch.inference_mode():
        x = model.embed(src, source=True)
        real, _ = model.encoder[0].self_attn(x, mask=padding_mask(src, model.cfg.pad_id))
        heads = torch.from_numpy(hv.out[0]).transpose(0, 1).reshape(1, src.size(1), -1)  # (1, S, H·d_k)
        rebuilt = model.encoder[0].self_attn.w_o(heads)
    np.testing.assert_allclose(rebuilt.numpy(), real.numpy(), atol=1e-5)
