"""A loaded model's products of a few rows through the native kernel (``packed_linear.use_native``): the
same numbers as F.linear to float rounding, a row's bits whatever rows carry it, oneDNN past
``NATIVE_MAX_ROWS``, chosen once at load and never without the compiled library."""

from __future__ import annotations

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from model import packed_linear
from model.checkpoint import load_model
from model.decoding import decode
from model.native import build
from model.packed_linear import NATIVE_MAX_ROWS, linear

pytestmark = pytest.mark.skipif(build.compiler() is None or not packed_linear.packing_works(),
                                reason="no C compiler, or no oneDNN linear, on this machine")


@pytest.fixture(scope="module")
def loaded(tiny_model_dir):
    assert build.library(wait=True) is not None  # compiled now: the load below takes the kernel
    return load_model(tiny_model_dir)


def test_a_loaded_models_few_row_products_take_the_kernel_with_each_rows_bits_fixed(loaded):
    layer = loaded.model.decoder[0].feed_forward.w_1
    w, b = layer.weight, layer.bias
    assert w in packed_linear._NATIVE
    x = torch.randn(NATIVE_MAX_ROWS, w.size(1), generator=torch.Generator().manual_seed(1))
    with torch.inference_mode():
        y = linear(x, w, b)
        assert w not in packed_linear._PACKED  # no oneDNN copy was needed
        err = float((y - F.linear(x, w, b)).abs().max() / F.linear(x, w, b).abs().max())
        assert 0 < err < 1e-6  # the same products, summed in another order than PyTorch's
        for rows in (1, 3, 5):  # a row alone (a search's step) or in any pass: the same bits
            assert torch.equal(linear(x[:rows], w, b), y[:rows])
        assert torch.equal(linear(x.view(4, -1, w.size(1)), w, b).view_as(y), y)
        # Rows of a fused weight (cross-attention's W^Q; W^K;W^V) through the kernel too.
        fused = loaded.model.decoder[0].cross_attn.w_qkv
        d = fused.weight.size(1)
        assert torch.allclose(linear(x, fused.weight, fused.bias, slice(d, 3 * d)),
                              F.linear(x, fused.weight[d:], fused.bias[d:]), rtol=1e-5, atol=1e-6)
        many = torch.randn(NATIVE_MAX_ROWS + 1, w.size(1))  # past the limit: oneDNN's packed copy
        assert torch.allclose(linear(many, w, b), F.linear(many, w, b), rtol=1e-5, atol=1e-5)
        assert w in packed_linear._PACKED
        with pytest.raises(RuntimeError):  # a mismatched input is PyTorch's to refuse, never read past
            linear(torch.randn(2, w.size(1) + 8), w, b)
    # Training (autograd on) keeps PyTorch's own product, whose backward it needs.
    x.requires_grad_(True)
    assert torch.equal(linear(x, w, b), F.linear(x, w, b))


def test_translations_through_the_kernel_are_the_same_from_one_call_to_the_next(loaded):
    for beam in (1, 3):
        a, b = decode.translate(loaded, "zyx wvu", beam_size=beam), decode.translate(loaded, "zyx wvu", beam_size=beam)
        assert a.target_pieces == b.target_pieces and a.score == b.score
        np.testing.assert_array_equal(a.attention.cross, b.attention.cross)


def test_without_the_library_a_model_keeps_onednn(tiny_model_dir, monkeypatch):
    monkeypatch.setenv("ATTENTION_EXPLORER_NATIVE", "0")
    model = load_model(tiny_model_dir).model
    assert not packed_linear.use_native(model)
    assert not any(p in packed_linear._NATIVE for p in model.parameters())
