"""``evaluate --int8``: the whole model in int8 for batched evaluation, as CTranslate2's int8 runs it.

Why a second int8 copy: the search copy (model/decoding/int8.py) only drafts a single sentence's greedy
search, whose every piece the fp32 model then checks, so it quantises what is bound by memory bandwidth
(the decoder's products for one row) and keeps the rest fp32. Evaluation over many sentences is bound by
arithmetic instead (64-row products), where checking in fp32 costs as much as searching in fp32 (measured
for 300 held-out sentences: no faster than fp32 search). So this copy is not checked: its translations are
the int8 model's, reported as such (``Score.precision``), with how many agree with fp32 measured in
benchmarks/ct2_compare.py. What it quantises on top of the search copy, each measured on 300 held-out
sentences of the built-in model, one thread (benchmarks/ct2_compare.py, 2026-12-06):

- the encoder's products and cross-attention's K/V projection (a batch's 64 × S rows: about a third of
  an evaluation in fp32; fbgemm's int8 product is ~3× faster at 64 rows and more);
- the encoder's attention in C (model/native/attend.py; SDPA: ~1.7 ms a layer for 64 sentences of ~12
  pieces).

Greedy decoding, where the library has AVX-512 VNNI (``EvalWeights``, model/native/eval_engine.py), is one
C call a step for the whole batch (eval_step.c: its own int8 product, 170-200 G multiply-adds/s against
fbgemm's ~85 G at ~40 rows, and no per-call costs, ~1.1 ms a step through PyTorch), and the encoder's and
cross K/V's products go through the same kernel. 1,000 held-out sentences, one thread: 1.60 s (PyTorch,
fbgemm), 1.32 s (PyTorch with the C attention, norms and pick: the fallback below), 0.96 s (the C step),
against CTranslate2 int8's 1.14-1.22 s on the same length-sorted batches (2026-12-06).

Each product there quantises each input row on its own, as CTranslate2 does, and attention sums each key
the same way whatever the padding: a sentence's int8 translation is the same alone and in any batch
(tests/model/test_native_eval_step.py). Without VNNI (or with head masks, or beam search) the copy runs
through PyTorch: fbgemm quantises each product's input with one scale for all its rows, so a sentence's
translation can depend on its batch there (the batches are fixed by length, so a test set always gives
the same translations); its steps' attention, residual norms and greedy pick run in C (StepRunner,
model/decoding/fast_step.py). Captured maps never come from here: evaluation captures none, and
everything the window shows stays fp32.
"""

from __future__ import annotations

import copy
import functools

import torch
from torch import Tensor, nn

from model.decoding import int8
from model.decoding.int8 import Int8Attention, Int8Linear, Int8SearchModel
from model.layers import EncoderLayer, MultiHeadAttention, PositionwiseFeedForward
from model.native import build
from model.native.attend import attend_positions
from model.native.eval_engine import EvalWeights, pack_int8
from model.transformer import Transformer


class _EncoderInt8Attention(Int8Attention):
    """The encoder's self-attention with int8 products and its attention in C (model/native/attend.py:
    SDPA took ~1.7 ms a layer for 64 sentences of ~12 pieces, one thread). Anything but plain
    self-attention (weights asked for, head masks, packing) goes through the modules' path."""

    def __init__(self, attn: MultiHeadAttention, product) -> None:
        super().__init__(attn, own_query=False, product=product)  # the encoder never projects a query alone

    def forward(self, x: Tensor, memory: Tensor | None = None, mask: Tensor | None = None, **kwargs):
        if memory is None and all(v is None or v is False for v in kwargs.values()):
            q, k, v = (self._split(a) for a in self.w_qkv(x).chunk(3, dim=-1))  # (B, H, T, d_k) views
            out = attend_positions(q, k, v, mask)  # (B, T, D), the heads concatenated
            if out is not None:
                return self.w_o(out), None
        return super().forward(x, memory, mask, **kwargs)


class _CrossInt8Attention(Int8Attention):
    """Cross-attention with the K/V projection of the encoder's output in int8 too (the search copy keeps
    it fp32: once per sentence there, once per batch of 64 × S rows here)."""

    def __init__(self, attn: MultiHeadAttention, product) -> None:
        super().__init__(attn)  # the step's products: fbgemm (the PyTorch path's)
        d = attn.w_o.in_features
        self.w_kv = product(attn.w_qkv.weight[d:], attn.w_qkv.bias[d:])  # rows of [W^K; W^V]

    def _cross_products(self, x: Tensor | None, memory: Tensor) -> tuple[Tensor | None, Tensor]:
        return None if x is None else self._query(x), self.w_kv(memory)


class _RowInt8Linear(nn.Module):
    """y = x Wᵀ + b through eval_step.c's int8 product, each row of x quantised on its own (fbgemm's
    dynamic product quantises all rows of a call with one scale, so a sentence's numbers would depend on
    the other sentences of its batch). Same int8 weights as ``Int8Linear``."""

    def __init__(self, weight: Tensor, bias: Tensor | None, engine: EvalWeights) -> None:
        super().__init__()
        self.in_features, self.out_features = weight.size(1), weight.size(0)
        self.packed, self.engine = pack_int8(weight, bias), engine

    def forward(self, x: Tensor, relu: bool = False) -> Tensor:
        flat = x.detach().float().reshape(-1, self.in_features).contiguous()
        y = self.engine.product(self.packed, flat.numpy(), relu)[:, : self.out_features]
        return torch.from_numpy(y).reshape(*x.shape[:-1], self.out_features)


class _Int8FeedForward(PositionwiseFeedForward):
    """FFN with int8 products; with ReLU, the first product and ReLU are one fbgemm call
    (``linear_relu_dynamic``: the same numbers, one pass over the hidden layer fewer)."""

    def __init__(self, ff: PositionwiseFeedForward, product) -> None:
        super().__init__(ff.w_1.in_features, ff.w_1.out_features, ff.activation)
        self.w_1, self.w_2 = product(ff.w_1.weight, ff.w_1.bias), product(ff.w_2.weight, ff.w_2.bias)

    def forward(self, x: Tensor) -> Tensor:
        w_1 = self.w_1
        if self.activation == "relu" and isinstance(w_1, _RowInt8Linear):
            return self.w_2(w_1(x, relu=True))
        if self.activation == "relu" and w_1._packed is not None:
            hidden = torch.ops.quantized.linear_relu_dynamic(x.float().contiguous(), w_1._packed, w_1.reduce_range)
            return self.w_2(hidden)
        return super().forward(x)


def _int8_encoder_layer(layer: EncoderLayer, product) -> EncoderLayer:
    """A copy of an encoder layer whose products are int8; its layer norms are shared, not copied."""
    out = copy.copy(layer)  # shallow, then its own table of sub-modules before replacing any
    out._modules = dict(layer._modules)
    out.self_attn = _EncoderInt8Attention(layer.self_attn, product)
    out.feed_forward = _Int8FeedForward(layer.feed_forward, product)
    return out


class Int8EvalModel(Int8SearchModel):
    """Every product of ``model`` in int8 (per-row weight scales; activations quantised per row where the
    C kernel runs, per call through fbgemm otherwise), the embedding, layer norms and softmax fp32, a
    search step's attention in C where the library is built."""

    native_step_attention = True  # read by StepRunner (model/decoding/fast_step.py)

    def __init__(self, model: Transformer) -> None:
        super().__init__(model, weight_only=False)
        # Greedy decoding's steps in one C call each where this CPU has AVX-512 VNNI (model/native/
        # eval_engine.py), and the encoder's and cross-attention's K/V products through the same kernel,
        # each row quantised alone: a sentence then translates the same in any batch. None: through
        # PyTorch, fbgemm and StepRunner (a call's rows share one activation scale there).
        self.eval_weights = w = EvalWeights.of(model)
        product = Int8Linear if w is None else functools.partial(_RowInt8Linear, engine=w)
        self.encoder = nn.ModuleList(_int8_encoder_layer(layer, product) for layer in model.encoder)
        for mine, theirs in zip(self.decoder, model.decoder):
            mine.cross_attn = _CrossInt8Attention(theirs.cross_attn, product)
        self.eval()


def evaluation_model(model: Transformer) -> Transformer | None:
    """The int8 evaluation copy of a CPU model, or None where int8 cannot run here (a GPU model, no int8
    kernel in this PyTorch build or on this CPU)."""
    if next(model.parameters()).device.type != "cpu" or not int8.available():
        return None
    # The C step operations change the last bits of a sum (never a product): built before the first batch,
    # an int8 score does not depend on whether the compiler had finished (seconds, once per machine).
    build.library(wait=True)
    with torch.inference_mode(False), torch.no_grad():
        return Int8EvalModel(model)
