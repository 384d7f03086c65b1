"""Attention through attend_rows.c, every row, query and head in one call (the C file says why): a batched
search step's (one new query per row) and an encoder batch's (a sentence's T queries share its keys).
Used only by the int8 evaluation copy (model/decoding/int8_eval.py: ``StepRunner`` and its encoder),
whose results are the int8 model's anyway; the fp32 model keeps PyTorch's SDPA, which the modules'
checking passes share bit for bit.
"""

from __future__ import annotations

import torch
from torch import Tensor

from model.native import build


def _readable(lib, q: Tensor, k: Tensor, v: Tensor) -> bool:
    """Whether the C code reads these as they lie: fp32 on the CPU, each head's d_k numbers contiguous,
    keys and values laid out alike."""
    d_k = q.size(-1)
    return (lib is not None and q.dtype == k.dtype == v.dtype == torch.float32 and q.device.type == "cpu"
            and k.shape == v.shape and k.stride() == v.stride() and q.stride(-1) == 1 and k.stride(-1) == 1
            and q.stride(1) == d_k)


def _mask_rows(mask: Tensor | None, b: int, n: int) -> tuple[Tensor | None, int] | None:
    """(mask as (B, n) bytes or None, its row stride), or None where the C code cannot read it."""
    if mask is None:
        return None, 0
    mask = mask.expand(b, 1, 1, n).reshape(b, n) if mask.dim() == 4 else mask
    if mask.dtype != torch.bool or mask.stride(-1) != 1:
        return None
    return mask, mask.stride(0)


def _call(lib, q, k, v, mask, mask_row, rows, group, q_row, out, new=None) -> Tensor:
    h, n, d_k = k.size(1), k.size(2), k.size(3)
    new_k, new_v, new_row = (None, None, 0) if new is None else (new[0].data_ptr(), new[1].data_ptr(),
                                                                 new[0].stride(0))
    lib.ae_attend_rows(q.data_ptr(), k.data_ptr(), v.data_ptr(), None if mask is None else mask.data_ptr(),
                       rows, h, d_k, n, group, q_row, k.stride(0), k.stride(1), k.stride(2), mask_row,
                       new_k, new_v, new_row, out.data_ptr())
    return out


def attend_rows(q: Tensor, k: Tensor, v: Tensor, mask: Tensor | None = None, lib=None,
                new: tuple[Tensor, Tensor] | None = None) -> Tensor | None:
    """softmax(q kᵀ/√d_k) v for q (B, H, 1, d_k), k and v (B, H, n, d_k), mask None or bool broadcastable
    as (B, 1, 1, n) (True = may attend) → (B, H, 1, d_k); None where the native library is not there or
    a tensor's layout is not one the C code reads. lib: ``build.library()`` where the caller holds it.
    new: the step's own key and value, (B, H, 1, d_k) each laid out as q, written into position n − 1 of
    k and v first (a cache's ``extend`` left it unwritten); where None is returned, nothing was written."""
    lib = lib or build.library(wait=False)
    b, h, t, d_k = q.shape
    masked = _mask_rows(mask, b, k.size(2))
    if t != 1 or masked is None or not _readable(lib, q, k, v):
        return None
    if new is not None and not (new[0].shape == new[1].shape == q.shape and new[0].stride() == new[1].stride()
                                and new[0].stride(-1) == 1 and new[0].stride(1) == d_k
                                and new[0].dtype == new[1].dtype == torch.float32):
        return None
    return _call(lib, q, k, v, *masked, b, 1, q.stride(0), torch.empty(b, h, 1, d_k), new)


def attend_positions(q: Tensor, k: Tensor, v: Tensor, mask: Tensor | None = None) -> Tensor | None:
    """An encoder batch's self-attention: q (B, H, T, d_k), k and v (B, H, n, d_k), mask as for
    ``attend_rows`` → the heads concatenated, (B, T, H·d_k); None where ``attend_rows`` would be.

    The T queries of a row must be evenly spaced, the next row's following on (a view of one (B, T, ·)
    projection is), so all B·T queries are one strided run of rows, each reading its row's keys."""
    lib = build.library(wait=False)
    b, h, t, d_k = q.shape
    masked = _mask_rows(mask, b, k.size(2))
    if masked is None or not _readable(lib, q, k, v) or (b > 1 and q.stride(0) != t * q.stride(2)):
        return None
    return _call(lib, q, k, v, *masked, b * t, t, q.stride(2), torch.empty(b, t, h * d_k))
