"""The int8 evaluation copy's small per-step operations through step_ops.c (the C file says why): greedy's
pick of each row's next piece, and a sub-layer's residual with its layer norm. Used by ``StepRunner`` for
that copy only (model/decoding/fast_step.py); every other model keeps PyTorch's operations, which the
modules' passes share bit for bit."""

from __future__ import annotations

import torch
from torch import Tensor, nn

from model.native import build


def argmax_rows(logits: Tensor, skip: int, lib=None) -> Tensor | None:
    """logits (B, V) → (B,) int64 index of the largest logit of each row other than column ``skip``
    (first on ties, as ``Tensor.argmax``); None where the library is not there or the layout is another.
    lib: ``build.library()`` where the caller holds it (a step asks it once per search, not per call)."""
    lib = lib or build.library(wait=False)
    if lib is None or logits.dim() != 2 or not _plain(logits) or not logits.is_contiguous():
        return None
    b, n = logits.shape
    out = torch.empty(b, dtype=torch.long)
    lib.ae_argmax_rows(logits.data_ptr(), b, n, n, skip, out.data_ptr())
    return out


def norm_of(norm: nn.LayerNorm | tuple) -> tuple | None:
    """(weight, bias, eps) of a layer norm over the last dimension that ``add_norm_rows`` can apply, or
    None (no affine parameters, another dtype or device). Checked once per search, not per step."""
    shape, weight, bias, eps = ((norm.normalized_shape, norm.weight, norm.bias, norm.eps)
                                if isinstance(norm, nn.LayerNorm) else norm)
    if weight is None or bias is None or len(shape) != 1 or not (_plain(weight) and _plain(bias)):
        return None
    return weight, bias, float(eps)


def add_norm_rows(x: Tensor, y: Tensor, norm: tuple, lib) -> Tensor | None:
    """x ← LayerNorm(x + y) in place, x and y (B, 1, D) fp32 as a step's products give them, ``norm``
    from ``norm_of``; returns x, or None (x untouched) where a tensor is not laid out as one block."""
    if not (x.is_contiguous() and y.is_contiguous()) or y.shape != x.shape:
        return None
    weight, bias, eps = norm
    lib.ae_add_norm_rows(x.data_ptr(), y.data_ptr(), weight.data_ptr(), bias.data_ptr(), x.numel() // x.size(-1),
                         x.size(-1), x.size(-1), eps)
    return x


def _plain(t: Tensor) -> bool:
    """fp32 on the CPU, rows of contiguous numbers: what the C code reads."""
    return t.dtype == torch.float32 and t.device.type == "cpu" and t.stride(-1) == 1
