"""A batched search step's attention through attend_rows.c: one new query per row, every row and head in
one call (the C file says why). Used by ``StepRunner`` for the int8 evaluation copy
(model/decoding/int8_eval.py), whose results are the int8 model's anyway; the fp32 search keeps PyTorch's
SDPA, which the modules' checking passes share bit for bit.
"""

from __future__ import annotations

import torch
from torch import Tensor

from model.native import build


def attend_rows(q: Tensor, k: Tensor, v: Tensor, mask: Tensor | None = None) -> Tensor | None:
    """softmax(q kᵀ/√d_k) v for q (B, H, 1, d_k), k and v (B, H, n, d_k), mask None or bool broadcastable
    as (B, 1, 1, n) (True = may attend) → (B, H, 1, d_k); None where the native library is not there or
    a tensor's layout is not one the C code reads (fp32 on the CPU, each head's d_k numbers contiguous)."""
    lib = build.library(wait=False)
    b, h, t, d_k = q.shape
    n = k.size(2)
    if (lib is None or t != 1 or q.dtype != torch.float32 or k.dtype != torch.float32 or v.dtype != torch.float32
            or q.device.type != "cpu" or k.stride() != v.stride() or q.stride(-1) != 1 or k.stride(-1) != 1
            or q.stride(1) != d_k or k.shape != v.shape):
        return None
    mask_row = 0
    if mask is not None:
        mask = mask.expand(b, 1, 1, n).reshape(b, n) if mask.dim() == 4 else mask
        if mask.dtype != torch.bool or mask.stride(-1) != 1:
            return None
        mask_row = mask.stride(0)
    out = torch.empty(b, h, 1, d_k)
    lib.ae_attend_rows(q.data_ptr(), k.data_ptr(), v.data_ptr(), None if mask is None else mask.data_ptr(),
                       b, h, d_k, n, q.stride(0), k.stride(0), k.stride(1), k.stride(2), mask_row, out.data_ptr())
    return out
