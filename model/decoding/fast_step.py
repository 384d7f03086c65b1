"""One incremental decoding step without the module tree: the same products, in the same order.

Why: a greedy step of the built-in model is ~25 small products on one row each, and calling them through
``nn.Module`` (hooks, ``__getattr__`` lookups, dropout calls that do nothing in eval mode, the branches of
``MultiHeadAttention.forward`` that a step never takes) cost as much Python time as the products
themselves (profiled: ~1.2 of 2.4 ms a step). ``StepRunner`` reads every layer's weights once per search
and then runs a step as a flat list of tensor calls.

It computes exactly what ``Transformer.decode`` + ``next_logits`` compute for one new position on a
``DecoderState`` (tests/model/test_fast_step.py compares the logits bit for bit, fp32 and int8), so the
search results and the maps behind them do not change. Anything else (several new positions, head
masks, training mode) goes through the modules as before: ``StepRunner.of`` returns None for it.
"""

from __future__ import annotations

import functools

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from model.transformer import DecoderState, Transformer


@functools.cache
def _int8_linear():
    """The int8 kernel's C++ entry point, looked up on first use (a model without int8 never needs it).

    The op's Python ``__call__`` first asks whether the call must be dispatched in Python (fake tensors,
    tracing): ~9 µs a product here (profiled: 8% of a greedy translation). ``_op`` is a private
    attribute; where a release lacks it the public overload is used.
    """
    overload = torch.ops.quantized.linear_dynamic.default
    return getattr(overload, "_op", overload)


def _projection(linear: nn.Module, rows: slice | None = None):
    """A callable x ↦ x Wᵀ + b for an ``nn.Linear``, or the int8 kernel for ``Int8Linear``."""
    packed = getattr(linear, "_packed", None)
    if packed is not None:  # model/decoding/int8.py: rows were chosen when it was packed
        kernel, reduce_range = _int8_linear(), linear.reduce_range
        return lambda x: kernel(x.contiguous(), packed, reduce_range)
    weight, bias = linear.weight, linear.bias
    if rows is not None:
        weight, bias = weight[rows], None if bias is None else bias[rows]
    return functools.partial(F.linear, weight=weight, bias=bias)


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
        self.ff_in, self.ff_out, self.act = _projection(ff.w_1), _projection(ff.w_2), ff._act
        self.norms = [(n.normalized_shape, n.weight, n.bias, n.eps) for n in (layer.norm_1, layer.norm_2,
                                                                              layer.norm_3)]

    def split(self, x: Tensor) -> Tensor:
        b, t, _ = x.shape
        return x.view(b, t, self.heads, self.d_k).transpose(1, 2)  # (B, H, T, d_k)

    def merge(self, out: Tensor) -> Tensor:
        b, _, t, _ = out.shape
        return out.transpose(1, 2).reshape(b, t, self.d_model)  # (B, T, D)


class StepRunner:
    """Logits of the next piece after feeding one new position per row, on a ``DecoderState``."""

    def __init__(self, model: Transformer) -> None:
        self.model = model
        self.layers = [_Layer(layer) for layer in model.decoder]
        self.table, self.scale = model.embedding.weight, model.embed_scale

    @classmethod
    def of(cls, model: Transformer, head_masks=None) -> StepRunner | None:
        """A runner for ``model``, or None where a step must go through the modules (training mode, head
        masks). Built per search (~0.1 ms): it holds the model's own tensors, which the live probe's
        training may change in place, and a cache on the model would keep a closed model alive."""
        if model.training or head_masks:
            return None
        return cls(model)

    def logits(self, tokens: Tensor, state: DecoderState) -> Tensor:
        """tokens: (B, 1) the pieces fed at ``state.position`` → next-piece logits (B, V); advances state."""
        model = self.model
        x = F.embedding(tokens, self.table) * self.scale  # (B, 1, D)
        x = x + model.positional(1, state.position).to(x.dtype)
        mask = state.src_mask
        for i, layer in enumerate(self.layers):
            (n1, n2, n3) = layer.norms
            q, k, v = (layer.split(a) for a in layer.qkv(x).chunk(3, dim=-1))
            k, v = state.self_caches[i].append(k, v)
            a = F.scaled_dot_product_attention(q, k, v)  # the one new query sees every key so far
            x = F.layer_norm(x + layer.self_out(layer.merge(a)), *n1)
            ck, cv = state.cross_kv[i]
            a = F.scaled_dot_product_attention(layer.split(layer.cross_q(x)), ck, cv, attn_mask=mask)
            x = F.layer_norm(x + layer.cross_out(layer.merge(a)), *n2)
            x = F.layer_norm(x + layer.ff_out(layer.act(layer.ff_in(x))), *n3)
        state.position += 1
        return model.next_logits(x[:, -1])
