"""One incremental decoding step without the module tree, its fp32 products through packed weights.

Why: a greedy step of the built-in model is ~25 small products on one row each, and calling them through
``nn.Module`` (hooks, ``__getattr__`` lookups, dropout calls that do nothing in eval mode, the branches of
``MultiHeadAttention.forward`` that a step never takes) cost as much Python time as the products
themselves (profiled: ~1.2 of 2.4 ms a step). ``StepRunner`` reads every layer's weights once per search
and then runs a step as a flat list of tensor calls. For the fp32 model it multiplies through the
modules' own products: plain for one row, packed copies of the weights for several (model/packed_linear.py).

What it computes: bit for bit ``Transformer.decode`` + ``next_logits``, for the int8 search copy and the
fp32 model alike, one row or several (tests/model/test_fast_step.py). The one exception is the int8
evaluation copy (``evaluate --int8``, model/decoding/int8_eval.py): its attention, residual norms and
greedy's pick run in C, to ~1e-6 of PyTorch's (tests/model/test_int8_eval.py, test_native_step_ops.py).
Head masks act as in the modules
(a mask of ones changes no bit). The maps never come from here: greedy's are its checking pass of the
modules over the output, beam search's the native rows step's own (model/decoding/beam_maps.py) or, where
that step does not run, a teacher-forced pass of the modules. Anything else (several new
positions, training mode, hooks on the decoder's modules) goes through the modules as before:
``StepRunner.of`` returns None, or the caller feeds the modules.
"""

from __future__ import annotations

import functools

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from model import packed_linear
from model.decoding import int8
from model.native import build
from model.native.attend import attend_rows
from model.native.step_ops import add_norm_rows, argmax_rows, norm_of
from model.transformer import DecoderState, Transformer


@functools.cache
def _int8_linear(relu: bool = False):
    """The int8 kernel's C++ entry point, looked up on first use (a model without int8 never needs it).

    The op's Python ``__call__`` first asks whether the call must be dispatched in Python (fake tensors,
    tracing): ~9 µs a product here (profiled: 8% of a greedy translation). ``_op`` is a private
    attribute; where a release lacks it the public overload is used.
    """
    overload = (torch.ops.quantized.linear_relu_dynamic if relu else torch.ops.quantized.linear_dynamic).default
    return getattr(overload, "_op", overload)


def _projection(linear: nn.Module, rows: slice | None = None):
    """A callable x ↦ x Wᵀ + b for an ``nn.Linear`` (packed where it can be), or the int8 kernel of an
    ``Int8Linear``."""
    packed = getattr(linear, "_packed", None)
    if packed is not None:  # model/decoding/int8.py: rows were chosen when it was packed
        kernel, reduce_range = _int8_linear(), linear.reduce_range
        return lambda x: kernel(x.contiguous(), packed, reduce_range)
    int8_rows = getattr(linear, "_rows", None)
    if int8_rows is not None:  # the int8 copy's weight-only kernel (model/decoding/int8.py)
        return functools.partial(int8.weight_only_product, rows=int8_rows[0], scale=int8_rows[1], bias=int8_rows[2])
    fast = packed_linear.product(linear.weight, linear.bias, rows)
    if fast is not None:
        return fast
    weight, bias = linear.weight, linear.bias
    if rows is not None:
        weight, bias = weight[rows], None if bias is None else bias[rows]
    return functools.partial(F.linear, weight=weight, bias=bias)


def _activated(ff: nn.Module):
    """x ↦ act(x W1 + b1), the feed-forward's first half. For fbgemm's int8 product and ReLU, one call
    (``linear_relu_dynamic``: the same numbers, ReLU applied to the product's fp32 output; ~25 µs a step
    less, measured on 64 rows of the built-in model)."""
    packed = getattr(ff.w_1, "_packed", None)
    if packed is not None and ff.activation == "relu":
        kernel, reduce_range = _int8_linear(relu=True), ff.w_1.reduce_range
        return lambda x: kernel(x.contiguous(), packed, reduce_range)
    first, act = _projection(ff.w_1), ff._act
    return lambda x: act(first(x))


class _Layer:
    """One decoder layer's weights, as a step reads them."""

    def __init__(self, layer: nn.Module) -> None:
        sa, ca, ff = layer.self_attn, layer.cross_attn, layer.feed_forward
        d = sa.w_o.in_features
        self.heads, self.d_k, self.d_model = sa.n_heads, sa.d_k, d
        self.qkv, self.self_out = _projection(sa.w_qkv), _projection(sa.w_o)
        # Cross-attention's query: W^Q alone (the first third of the fused projection, as in ``_query``).
        cross_q = getattr(ca, "w_q", None)
        self.cross_q = _projection(cross_q) if cross_q is not None else _projection(ca.w_qkv, slice(0, d))
        self.cross_out = _projection(ca.w_o)
        self.ff_out = _projection(ff.w_2)
        self.ff_hidden = _activated(ff)
        self.norms = [(n.normalized_shape, n.weight, n.bias, n.eps) for n in (layer.norm_1, layer.norm_2,
                                                                              layer.norm_3)]


_layer_norm = torch.layer_norm  # F.layer_norm's checks for overrides, skipped: a step's tensors are plain


def hooked(model: Transformer) -> bool:
    """Whether a forward hook would run in a decoder step through the modules."""
    if nn.modules.module._global_forward_pre_hooks or nn.modules.module._global_forward_hooks:
        return True
    return any(m._forward_pre_hooks or m._forward_hooks for m in model.decoder.modules())


def _masked(out: Tensor, masks: Tensor | None, layer: int) -> Tensor:
    """Each head's output (B, H, 1, d_k) times its multiplier in layer ``layer`` of masks (L, H) or (B, L, H)."""
    if masks is None:
        return out
    m = masks[:, layer] if masks.dim() == 3 else masks[layer]
    rows = m.size(0) if m.dim() == 2 else 1
    return out * m.view(rows, -1, 1, 1).to(out.dtype)


class StepRunner:
    """Logits of the next piece after feeding one new position per row, on a ``DecoderState``."""

    def __init__(self, model: Transformer, native: bool | None = None) -> None:
        """native: whether the C step operations run (model/native/attend.py, step_ops.py); None: where the
        model asks for them (the int8 evaluation copy), False: PyTorch throughout (tests compare the two)."""
        self.model = model
        self.layers = [_Layer(layer) for layer in model.decoder]
        self.table, self.scale = model.embedding.weight, model.embed_scale
        # The int8 search copy has its own int8 output projection (model/decoding/int8.py).
        own = type(model).generator is not Transformer.generator
        packed = None if own else packed_linear.product(model.output_projection, model.final_logits_bias)
        self.generator = packed or model.generator
        # The int8 evaluation copy's attention runs in C (model/native/attend.py); every other model's
        # through SDPA, as its modules' passes run it, so their numbers agree bit for bit.
        if native is None:
            native = bool(getattr(model, "native_step_attention", False))
        # Its residuals, norms and greedy's pick too (model/native/step_ops.py), the library asked once here.
        self.lib = build.library(wait=False) if native else None
        self.native_attention = self.lib is not None
        self.native_norms = [[norm_of(n) if self.lib is not None else None for n in layer.norms]
                             for layer in self.layers]

    def _attend(self, q: Tensor, k: Tensor, v: Tensor, mask: Tensor | None = None) -> Tensor:
        """softmax(q kᵀ/√d_k) v of one new query per row, (B, H, 1, d_k)."""
        if self.native_attention:
            out = attend_rows(q, k, v, mask, self.lib)
            if out is not None:
                return out
        return F.scaled_dot_product_attention(q, k, v, attn_mask=mask)

    def _self_attend(self, qkv: Tensor, cache) -> Tensor:
        """Self-attention of a step's (B, 3, H, 1, d_k) products over its cache, the new key and value
        appended first; for the int8 evaluation copy the C attention writes them itself."""
        if self.lib is not None:
            k, v = cache.extend(qkv[:, 1])
            out = attend_rows(qkv[:, 0], k, v, None, self.lib, new=(qkv[:, 1], qkv[:, 2]))
            if out is not None:
                return out
            k[:, :, -1:], v[:, :, -1:] = qkv[:, 1], qkv[:, 2]  # the C code declined: write them here
            return self._attend(qkv[:, 0], k, v)
        k, v = cache.append(qkv[:, 1], qkv[:, 2])
        return self._attend(qkv[:, 0], k, v)

    def _add_norm(self, x: Tensor, y: Tensor, layer: int, which: int) -> Tensor:
        """LayerNorm(x + y), sub-layer ``which`` of ``layer``'s residual and norm; in C, in place on x, for the
        int8 evaluation copy (model/native/step_ops.py: one call for two; a step's x is its own)."""
        native = self.native_norms[layer][which]
        if native is not None:
            done = add_norm_rows(x, y, native, self.lib)
            if done is not None:
                return done
        return _layer_norm(x + y, *self.layers[layer].norms[which])

    @classmethod
    def of(cls, model: Transformer, head_masks=None) -> StepRunner | None:
        """A runner for ``model``, or None where a step must go through the modules: training mode (its
        dropout), or hooks on the decoder's modules, which a flat step would skip (the workbench's Cancel
        is a forward pre-hook: model/analysis/importance.py). Built per search (~0.1 ms): it holds the
        model's own tensors, which the live probe's training may change in place. ``head_masks`` is
        accepted for the callers' convenience: the masks themselves are given to each step."""
        if model.training or hooked(model):
            return None
        return cls(model)

    def hidden(self, tokens: Tensor, state: DecoderState, head_masks: dict[str, Tensor] | None = None) -> Tensor:
        """tokens: (B, 1) the pieces fed at ``state.position`` → the decoder's output (B, D); advances state.

        head_masks: {kind: (L, H), or (B, L, H) per row} as ``Transformer.decode`` takes them; a head's
        output is multiplied by its entry before W^O, as ``MultiHeadAttention.forward`` does (so a mask of
        ones changes no bit: an ablation that removes nothing equals the plain search)."""
        hm = head_masks or {}
        self_masks, cross_masks = hm.get("decoder"), hm.get("cross")
        x = F.embedding(tokens, self.table) * self.scale  # (B, 1, D)
        x = x + self.model.positional(1, state.position).to(x.dtype)
        mask, b = state.src_mask, x.size(0)
        for i, layer in enumerate(self.layers):
            h, d_k, d = layer.heads, layer.d_k, layer.d_model
            # One new position: the heads are views of the products as they come, (B, 3, H, 1, d_k) and
            # (B, H, 1, d_k), no transposes (the same numbers; ~5% of a step in Python calls, measured).
            qkv = layer.qkv(x).view(b, 3, h, 1, d_k)
            a = self._self_attend(qkv, state.self_caches[i])  # the one new query sees every key so far
            x = self._add_norm(x, layer.self_out(_masked(a, self_masks, i).reshape(b, 1, d)), i, 0)
            ck, cv = state.cross_kv[i]
            a = self._attend(layer.cross_q(x).view(b, h, 1, d_k), ck, cv, mask)
            x = self._add_norm(x, layer.cross_out(_masked(a, cross_masks, i).reshape(b, 1, d)), i, 1)
            x = self._add_norm(x, layer.ff_out(layer.ff_hidden(x)), i, 2)
        state.position += 1
        return x[:, -1]

    def logits(self, tokens: Tensor, state: DecoderState, head_masks: dict[str, Tensor] | None = None) -> Tensor:
        """Next-piece logits (B, V) after ``hidden``, as ``next_logits`` gives them."""
        logits = self.generator(self.hidden(tokens, state, head_masks))
        logits[..., self.model.cfg.pad_id] = float("-inf")  # padding is never a choice
        return logits

    def next_ids(self, tokens: Tensor, state: DecoderState, head_masks: dict[str, Tensor] | None = None) -> Tensor:
        """Greedy's next piece of each row, (B,): ``logits(…).argmax(-1)``, picked in C for the int8
        evaluation copy (model/native/step_ops.py: ~75 against ~440 µs for 64 rows with the padding
        column's -inf)."""
        logits = self.generator(self.hidden(tokens, state, head_masks))
        picked = None if self.lib is None else argmax_rows(logits, self.model.cfg.pad_id, self.lib)
        if picked is not None:
            return picked
        logits[..., self.model.cfg.pad_id] = float("-inf")
        return logits.argmax(-1)
