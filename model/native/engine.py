"""A greedy draft through the native step (draft_step.c): the int8 weights it reads, and one sentence's state.

``NativeWeights`` holds every decoder product of a model as int8 rows with one fp32 scale per row (the
same rounding as the PyTorch int8 copy, model/decoding/int8.py) plus the fp32 tensors the step reads as
they are (embedding, positions, layer norms). Built once per model (~30 ms for the built-in one) and kept
beside the int8 copy. ``NativeDraft`` is one sentence: its own self-attention caches and the cross keys
and values of the fp32 model, with the ``position`` / ``rewind`` that speculative.py uses on a
``DecoderState``.

It drafts only greedy search of one sentence without head masks, on the CPU, for the post-LN models this
project builds and imports; ``NativeWeights.of`` returns None for anything else, and the caller drafts
through PyTorch.
"""

from __future__ import annotations

import ctypes

import numpy as np
import torch
from torch import Tensor

from model.decoding.int8 import per_row_int8
from model.native import build
from model.transformer import Transformer

ACTIVATIONS = {"relu": 0, "swish": 1, "gelu": 2}
_HEAD, _PER_LAYER = 8, 28  # pointers before the layers, and per layer (draft_step.c)


def _int8(weight: Tensor, bias: Tensor | None) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """The int8 rows of a (N, K) weight, their fp32 scales (the int8 copy's rounding), the fp32 bias."""
    rows, scale = per_row_int8(weight)
    return rows.numpy(), scale.numpy(), None if bias is None else fp32_array(bias)


def fp32_array(t: Tensor) -> np.ndarray:
    """A contiguous fp32 NumPy copy (or view) of a tensor, for the C steps to read."""
    return np.ascontiguousarray(t.detach().float().cpu().numpy())


def pointer(a: np.ndarray | None) -> int | None:
    return None if a is None else a.ctypes.data


def supports(model: Transformer) -> bool:
    """Whether the native step computes ``model``'s decoder: on the CPU, in eval mode, an activation it
    knows, rows whose lengths are whole vector blocks (``dots`` in draft_step.c reads 16 at a time)."""
    cfg = model.cfg
    return (cfg.activation in ACTIVATIONS and cfg.d_model % cfg.n_heads == 0 and cfg.d_model % 16 == 0
            and cfg.d_ff % 16 == 0 and not model.training
            and next(model.parameters()).device.type == "cpu")


class NativeWeights:
    """The model's decoder as the native step reads it. Use ``of``."""

    def __init__(self, model: Transformer, lib: ctypes.CDLL) -> None:
        cfg = model.cfg
        self.lib, self.cfg = lib, cfg
        self.d, self.heads, self.d_k, self.d_ff = cfg.d_model, cfg.n_heads, cfg.d_model // cfg.n_heads, cfg.d_ff
        self.embedding = fp32_array(model.embedding.weight)  # the target side's table
        self.embed_scale = float(model.embed_scale)
        self.output = _int8(model.output_projection, model.final_logits_bias)
        self.layers = []
        d = self.d
        for layer in model.decoder:
            sa, ca, ff = layer.self_attn, layer.cross_attn, layer.feed_forward
            products = [
                _int8(sa.w_qkv.weight, sa.w_qkv.bias), _int8(sa.w_o.weight, sa.w_o.bias),
                _int8(ca.w_qkv.weight[:d], ca.w_qkv.bias[:d]), _int8(ca.w_o.weight, ca.w_o.bias),
                _int8(ff.w_1.weight, ff.w_1.bias), _int8(ff.w_2.weight, ff.w_2.bias)]
            norms = [fp32_array(t) for n in (layer.norm_1, layer.norm_2, layer.norm_3) for t in (n.weight, n.bias)]
            self.layers.append((products, norms))
        self.eps = float(model.decoder[0].norm_1.eps)
        self.positional = model.positional
        # Each layer's weight pointers, in draft_step.c's order, made once (per sentence: ~0.3 ms of ctypes).
        self.layer_pointers = [[pointer(a) for product in products for a in product] + [pointer(n) for n in norms]
                               for products, norms in self.layers]

    @classmethod
    def of(cls, model: Transformer, wait: bool = False) -> NativeWeights | None:
        """The native weights of ``model``, or None where the native step cannot draft for it
        (``supports``) or the library is not built (yet: ``wait=False`` never waits for the compiler)."""
        if not supports(model):
            return None
        lib = build.library(wait=wait)
        if lib is None:
            return None
        with torch.no_grad():
            return cls(model, lib)

    def positions(self, capacity: int) -> np.ndarray:
        return fp32_array(self.positional(capacity, 0))


class NativeDraft:
    """One sentence's draft state: ``step(token)`` feeds a piece at ``position`` and returns the next."""

    def __init__(self, weights: NativeWeights, cross_kv: list[tuple[Tensor, Tensor]], capacity: int) -> None:
        w = self.weights = weights
        self.capacity, self.position = capacity, 0
        src_len = cross_kv[0][0].size(2)
        self.cross = [(fp32_array(k[0]), fp32_array(v[0])) for k, v in cross_kv]  # (H, S, d_k) each
        shape = (w.heads, capacity, w.d_k)
        self.caches = [(np.empty(shape, np.float32), np.empty(shape, np.float32)) for _ in w.layers]
        self.pe = w.positions(capacity)
        vocab = w.embedding.shape[0]
        widest = max(3 * w.d, w.d_ff, vocab)
        self.scratch = np.empty(6 * w.d + w.d_ff + max(capacity, src_len), np.float32)
        self.q = np.empty(max(w.d, w.d_ff), np.int16)
        self.acc = np.empty(widest, np.int32)
        self.dims = np.array([w.d, w.heads, w.d_k, w.d_ff, vocab, len(w.layers), src_len, capacity,
                              w.cfg.pad_id, ACTIVATIONS[w.cfg.activation]], np.int64)
        self.fparams = np.array([w.eps, w.embed_scale], np.float32)
        out_w, out_s, out_b = w.output
        pointers = [pointer(w.embedding), pointer(self.pe), pointer(out_w), pointer(out_s), pointer(out_b),
                    pointer(self.scratch), pointer(self.q), pointer(self.acc)]
        for fixed, (ck, cv), (sk, sv) in zip(w.layer_pointers, self.cross, self.caches):
            pointers += fixed + [pointer(ck), pointer(cv), pointer(sk), pointer(sv)]
        assert len(pointers) == _HEAD + _PER_LAYER * len(w.layers)
        self.pointers = (ctypes.c_void_p * len(pointers))(*pointers)
        self._step = w.lib.ae_step

    def step(self, token: int, logits: np.ndarray | None = None) -> int:
        """Feed ``token`` at ``position``; the next piece's argmax (−1: no finite logit, or no room)."""
        if self.position >= self.capacity:
            return -1
        best = self._step(self.dims.ctypes.data, self.pointers, self.fparams.ctypes.data, self.position,
                          int(token), None if logits is None else logits.ctypes.data)
        self.position += 1
        return best

    def rewind(self, position: int) -> None:
        self.position = min(self.position, position)
