"""The int8 evaluation copy's C step operations (model/native/step_ops.py, attend.py) against PyTorch:
greedy's pick, a sub-layer's residual and norm, a step's attention writing its own key and value into the
cache, an encoder batch's attention; the cache's room-making and row keeping they rely on; the copy's
fused int8 product + ReLU; and the copy's encoder really taking the C path.
"""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

from model.decoding import int8
from model.decoding.fast_step import _activated
from model.decoding.int8_eval import _Int8FeedForward, evaluation_model
from model.kv_cache import KVCache
from model.native import build
from model.native.attend import attend_positions, attend_rows
from model.native.step_ops import add_norm_rows, argmax_rows, norm_of
from tests.model.native_models import config_model

needs_int8 = pytest.mark.skipif(not int8.available(), reason="this PyTorch has no int8 CPU kernels")
needs_cc = pytest.mark.skipif(build.compiler() is None, reason="no C compiler on this machine")


@pytest.fixture()
def lib():
    built = build.library(wait=True)
    if built is None:
        pytest.skip("the native library did not build here")
    return built


@needs_cc
@pytest.mark.parametrize("vocab", [8000, 61, 7])  # whole vector blocks, a tail, shorter than one block
def test_argmax_rows_is_argmax_without_the_padding_column(lib, vocab):
    gen = torch.Generator().manual_seed(vocab)
    logits = torch.randn(9, vocab, generator=gen)
    logits[1, 0] = 100.0  # the skipped column's own maximum is never picked
    logits[2, 3] = logits[2, vocab - 2] = 50.0  # a tie: the first index, as argmax
    logits[3] = 1.0  # every column ties
    logits[4, vocab - 1] = 60.0  # the last column (the tail's)
    logits[5, 1] = float("nan")  # NaN is never picked
    want = logits.clone()
    want[:, 0] = float("-inf")
    want[5, 1] = float("-inf")
    got = argmax_rows(logits, 0, lib)
    assert got.dtype == torch.long and torch.equal(got, want.argmax(-1))
    assert got[2] == 3 and got[3] == 1 and got[4] == vocab - 1
    skip_last = argmax_rows(logits[4:5], vocab - 1, lib)  # a skip inside the tail or the last block
    assert skip_last.item() == int(logits[4, : vocab - 1].argmax())
    assert argmax_rows(logits[:, ::2], 0, lib) is None  # rows not contiguous: declined
    assert argmax_rows(logits.double(), 0, lib) is None


@needs_cc
@pytest.mark.parametrize("d", [256, 20])  # AVX-512 blocks, and the scalar loop
def test_add_norm_rows_is_layer_norm_of_the_sum_in_place(lib, d):
    gen = torch.Generator().manual_seed(d)
    norm = torch.nn.LayerNorm(d)
    with torch.no_grad():
        norm.weight.uniform_(0.5, 1.5, generator=gen)
        norm.bias.uniform_(-0.5, 0.5, generator=gen)
    x, y = torch.randn(7, 1, d, generator=gen) * 3 + 1, torch.randn(7, 1, d, generator=gen)
    want = norm(x + y).detach()
    out = add_norm_rows(x, y, norm_of(norm), lib)
    assert out is x  # in place
    assert torch.allclose(x, want, atol=2e-5) and not torch.equal(x, want + 1)
    strided = torch.randn(7, 1, 2 * d)[..., ::2]  # every other number: not one block
    assert add_norm_rows(x, strided, norm_of(norm), lib) is None
    assert norm_of(torch.nn.LayerNorm(d, elementwise_affine=False)) is None  # no gain: PyTorch's norm


@needs_cc
def test_a_steps_attention_writes_its_own_key_and_value_into_the_cache(lib):
    gen = torch.Generator().manual_seed(1)
    b, h, d_k = 4, 2, 32
    plain, native = KVCache(), KVCache()
    for step in range(40):  # past the first buffer's 32 positions: the cache grows once on the way
        qkv = torch.randn(b, 3, h, 1, d_k, generator=gen)  # a step's fused product, viewed as the step does
        k, v = plain.append(qkv[:, 1], qkv[:, 2])
        want = F.scaled_dot_product_attention(qkv[:, 0], k, v)
        nk, nv = native.extend(qkv[:, 1])
        assert nk.shape == (b, h, step + 1, d_k)
        got = attend_rows(qkv[:, 0], nk, nv, None, lib, new=(qkv[:, 1], qkv[:, 2]))
        assert torch.allclose(got, want, atol=2e-6)
    assert torch.equal(native.k, plain.k) and torch.equal(native.v, plain.v)  # written exactly
    wrong = torch.randn(b, h, 1, d_k), torch.randn(b, h, 1, 16)
    k, v = native.extend(wrong[0])
    assert attend_rows(qkv[:, 0], k, v, None, lib, new=wrong) is None  # shapes disagree: declined


@needs_cc
def test_an_encoder_batchs_attention_is_sdpa_with_the_padding_mask(lib):
    gen = torch.Generator().manual_seed(2)
    b, t, h, d_k = 3, 6, 4, 16
    qkv = torch.randn(b, t, 3 * h * d_k, generator=gen)  # one fused product, split into heads as the modules do
    q, k, v = (a.view(b, t, h, d_k).transpose(1, 2) for a in qkv.chunk(3, dim=-1))
    mask = torch.ones(b, 1, 1, t, dtype=torch.bool)
    mask[1, ..., 4:] = False
    mask[2, ..., 2:] = False
    got = attend_positions(q, k, v, mask)
    want = F.scaled_dot_product_attention(q, k, v, attn_mask=mask).transpose(1, 2).reshape(b, t, h * d_k)
    assert got.shape == (b, t, h * d_k) and torch.allclose(got, want, atol=2e-6)
    assert not torch.allclose(got, attend_positions(q, k, v), atol=1e-3)  # the mask acts
    split = torch.randn(b, h, t, d_k)  # heads apart from each other: not the layout the C code reads
    assert attend_positions(split, k, v, mask) is None


def test_a_caches_rows_keep_their_positions_and_room():
    gen = torch.Generator().manual_seed(3)
    cache = KVCache()
    k, v = torch.randn(5, 2, 7, 4, generator=gen), torch.randn(5, 2, 7, 4, generator=gen)
    cache.append(k, v)
    cache.reorder(torch.tensor([4, 1, 1]))
    assert torch.equal(cache.k, k[[4, 1, 1]]) and torch.equal(cache.v, v[[4, 1, 1]])
    assert cache._k.shape == (3, 2, 32, 4)  # the buffer's room is kept
    more = torch.randn(3, 2, 1, 4, generator=gen)
    cache.append(more, more)
    assert torch.equal(cache.k[:, :, -1:], more) and cache.length == 8


@needs_int8
def test_the_copys_fused_product_and_relu_equal_the_two_calls():
    model = config_model(5)
    ff = model.encoder[0].feed_forward
    fused = _Int8FeedForward(ff, int8.Int8Linear)
    x = torch.randn(6, 32)
    with torch.inference_mode():
        want = fused.w_2(torch.relu(fused.w_1(x)))
        assert torch.equal(fused(x), want)
        assert torch.equal(_activated(fused)(x), torch.relu(fused.w_1(x)))
    swish = config_model(5, activation="swish").encoder[0].feed_forward
    assert _Int8FeedForward(swish, int8.Int8Linear)(x).shape == (6, 32)


@needs_int8
@needs_cc
def test_the_copys_encoder_attends_in_c(lib, monkeypatch):
    copy = evaluation_model(config_model(6))
    src = torch.tensor([[5, 6, 7, 8, 9, 3], [10, 11, 3, 0, 0, 0]])
    calls = []

    def counted(*args):
        out = attend_positions(*args)
        calls.append(out is not None)
        return out
    from model.decoding import int8_eval
    monkeypatch.setattr(int8_eval, "attend_positions", counted)
    with torch.inference_mode():
        native, _ = copy.encode(src)
        monkeypatch.setattr(int8_eval, "attend_positions", lambda *args: None)  # the modules' SDPA path
        plain, _ = copy.encode(src)
    assert calls == [True] * copy.cfg.n_layers
    assert torch.allclose(native, plain, atol=1e-4)
