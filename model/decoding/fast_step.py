"""One incremental decoding step without the module tree: the same products, in the same order.

Why: a greedy step of the built-in model is ~25 small products on one row each, and calling them through
``nn.Module`` (hooks, ``__getattr__`` lookups, dropout calls that do nothing in eval mode, the branches of
``MultiHeadAttention.forward`` that a step never takes) cost as much Python time as the products
themselves (profiled: ~1.2 of 2.4 ms a step). ``StepRunner`` reads every layer's weights once per search
and then runs a step as a flat list of tensor calls.

The decoder's output is exactly ``Transformer.decode``'s for one new position on a ``DecoderState``
(tests/model/test_fast_step.py compares it bit for bit, fp32 and int8). The fp32 logits come from a
packed copy of the output projection (below), which sums in another order: the same numbers to ~1e-6
relative, as the int8-checked greedy search's passes over several positions are (speculative.py). The
maps never come from here: they are a teacher-forced pass of the modules over the chosen output, so
they stay bit for bit the fp32 model's. Anything else (several new positions, head masks, training mode)
goes through the modules as before: ``StepRunner.of`` returns None for it.
"""

from __future__ import annotations

import functools

import torch
import torch.nn.functional as F
from torch import Tensor, nn
from torch.utils.weak import WeakIdKeyDictionary

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


# The pre-softmax projection of a search step packed for oneDNN, per weight tensor, with the weight's
# version when it was packed (an in-place update, the live probe's training, makes it stale). Why: a beam's
# few rows times the (V, D) matrix is the largest product of a step, and PyTorch's plain product of a
# 4 × 256 block with the 8,000 × 256 table ran 1.8–2.9 ms against 0.2–0.7 ms packed (interleaved, one
# thread, the built-in model's table; benchmarks/ has the whole-translation figures).
_PACKED: WeakIdKeyDictionary = WeakIdKeyDictionary()


@functools.cache
def _packing_works() -> bool:
    """Whether this build's oneDNN linear runs and computes x Wᵀ + b (private ops: checked, not assumed)."""
    try:
        gen = torch.Generator().manual_seed(0)
        w, b, x = torch.randn(24, 16, generator=gen), torch.randn(24, generator=gen), torch.randn(3, 16, generator=gen)
        y = torch.ops.mkldnn._linear_pointwise(x, torch.ops.mkldnn._reorder_linear_weight(w, 4), b, "none", [], "")
    except (RuntimeError, AttributeError, NotImplementedError):
        return False
    return bool(torch.allclose(y, x @ w.t() + b, rtol=1e-4, atol=1e-5))


def _packed_generator(model: Transformer):
    """x ↦ the logits of (B, D) rows through a packed copy of the output projection, or None (GPU, int8,
    no oneDNN): then ``model.generator`` is used."""
    weight = model.output_projection
    if (weight.device.type != "cpu" or weight.dtype != torch.float32 or not torch.backends.mkldnn.is_available()
            or not _packing_works()):
        return None
    held = _PACKED.get(weight)
    if held is None or held[0] != weight._version:
        with torch.no_grad():
            held = (weight._version, torch.ops.mkldnn._reorder_linear_weight(weight.detach(), 4))
        _PACKED[weight] = held
    packed, bias = held[1], model.final_logits_bias
    return lambda x: torch.ops.mkldnn._linear_pointwise(x.contiguous(), packed, bias, "none", [], "")


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
        # The int8 search copy has its own int8 output projection (model/decoding/int8.py).
        own = type(model).generator is not Transformer.generator
        self.generator = (None if own else _packed_generator(model)) or model.generator

    @classmethod
    def of(cls, model: Transformer, head_masks=None) -> StepRunner | None:
        """A runner for ``model``, or None where a step must go through the modules (training mode, head
        masks). Built per search (~0.1 ms): it holds the model's own tensors, which the live probe's
        training may change in place, and a cache on the model would keep a closed model alive."""
        if model.training or head_masks:
            return None
        return cls(model)

    def hidden(self, tokens: Tensor, state: DecoderState) -> Tensor:
        """tokens: (B, 1) the pieces fed at ``state.position`` → the decoder's output (B, D); advances
        state. Bit for bit ``Transformer.decode``'s."""
        x = F.embedding(tokens, self.table) * self.scale  # (B, 1, D)
        x = x + self.model.positional(1, state.position).to(x.dtype)
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
        return x[:, -1]

    def logits(self, tokens: Tensor, state: DecoderState) -> Tensor:
        """Next-piece logits (B, V) after ``hidden``: ``next_logits``' numbers, through the packed
        projection where there is one (the same to ~1e-6 relative: another summation order)."""
        logits = self.generator(self.hidden(tokens, state))
        logits[..., self.model.cfg.pad_id] = float("-inf")  # padding is never a choice
        return logits
