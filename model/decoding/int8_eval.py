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
- a step's attention, one query per row, in C (model/native/attend.py: SDPA spent 250-380 µs a call on
  64 rows of 8 heads, 35 % of the int8 evaluation).

fbgemm quantises each product's input with one scale for all its rows, so a sentence's int8 translation
can depend on the other sentences of its batch (the batches are fixed by length, so a test set always
gives the same translations). Captured maps never come from here: evaluation captures none, and
everything the window shows stays fp32.
"""

from __future__ import annotations

import copy

import torch
from torch import Tensor, nn

from model.decoding import int8
from model.decoding.int8 import Int8Attention, Int8Linear, Int8SearchModel
from model.layers import EncoderLayer, MultiHeadAttention, PositionwiseFeedForward
from model.transformer import Transformer


class _CrossInt8Attention(Int8Attention):
    """Cross-attention with the K/V projection of the encoder's output in int8 too (the search copy keeps
    it fp32: once per sentence there, once per batch of 64 × S rows here)."""

    def __init__(self, attn: MultiHeadAttention) -> None:
        super().__init__(attn)
        d = attn.w_o.in_features
        self.w_kv = Int8Linear(attn.w_qkv.weight[d:], attn.w_qkv.bias[d:])  # rows of [W^K; W^V]

    def _cross_products(self, x: Tensor | None, memory: Tensor) -> tuple[Tensor | None, Tensor]:
        return None if x is None else self._query(x), self.w_kv(memory)


def _int8_feed_forward(ff: PositionwiseFeedForward) -> PositionwiseFeedForward:
    out = PositionwiseFeedForward(ff.w_1.in_features, ff.w_1.out_features, ff.activation)
    out.w_1, out.w_2 = Int8Linear.of(ff.w_1), Int8Linear.of(ff.w_2)
    return out


def _int8_encoder_layer(layer: EncoderLayer) -> EncoderLayer:
    """A copy of an encoder layer whose products are int8; its layer norms are shared, not copied."""
    out = copy.copy(layer)  # shallow, then its own table of sub-modules before replacing any
    out._modules = dict(layer._modules)
    out.self_attn = Int8Attention(layer.self_attn)
    out.feed_forward = _int8_feed_forward(layer.feed_forward)
    return out


class Int8EvalModel(Int8SearchModel):
    """Every product of ``model`` in int8 (per-row weight scales, activations quantised per call), the
    embedding, layer norms and softmax fp32, a search step's attention in C where the library is built."""

    native_step_attention = True  # read by StepRunner (model/decoding/fast_step.py)

    def __init__(self, model: Transformer) -> None:
        super().__init__(model, weight_only=False)
        self.encoder = nn.ModuleList(_int8_encoder_layer(layer) for layer in model.encoder)
        for mine, theirs in zip(self.decoder, model.decoder):
            mine.cross_attn = _CrossInt8Attention(theirs.cross_attn)
        self.eval()


def evaluation_model(model: Transformer) -> Transformer | None:
    """The int8 evaluation copy of a CPU model, or None where int8 cannot run here (a GPU model, no int8
    kernel in this PyTorch build or on this CPU)."""
    if next(model.parameters()).device.type != "cpu" or not int8.available():
        return None
    with torch.inference_mode(False), torch.no_grad():
        return Int8EvalModel(model)
