"""The tied output projection and the label-smoothed cross-entropy in one pass, a few rows at a time.

Why: with the paper's 37k vocabulary the logits of a 1,000-token batch are a (1000, 37000) fp32 tensor,
150 MB, and the usual path writes and re-reads several of them (logits, log-probabilities, their
gradients). Profiled on the ``base`` preset (2 CPU cores, 1 thread), that traffic (log_softmax forward
and backward, zero-filling the gradient, first-touch page faults of fresh 150 MB buffers) cost ~1 s of a
~15 s training step, on top of the three products that are the real work.

Here the logits are formed for a chunk of rows at a time (~16-40 MB), and since the loss is the last
node of the graph the gradients are computed right away: softmax(z) − ((1−ε)·onehot(y) + ε/V) for the
chunk, times the weights for the hidden rows, and accumulated into the weight's gradient. The same three
products run (forward, d/dhidden, d/dweight), nothing of size N×V outlives a chunk, and backward only
scales the two stored gradients. The value is exactly ``F.cross_entropy(h @ Wᵀ, y, label_smoothing=ε)``
up to float rounding; tests compare the loss and both gradients with that reference.

Under CPU or CUDA autocast the products run in the autocast dtype (bf16/fp16), as ``h @ Wᵀ`` would, and
the softmax in fp32, as ``cross_entropy(logits.float())`` does.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import Tensor

TARGET_CHUNK_ELEMENTS = 1 << 22  # ~16 MB of fp32 logits per chunk
MIN_CHUNK_ROWS = 256  # fewer rows make the weight-gradient product memory-bound (it re-reads V×D each time)


def chunk_rows(vocab_size: int) -> int:
    return max(MIN_CHUNK_ROWS, TARGET_CHUNK_ELEMENTS // vocab_size)


def _compute_dtype(device: torch.device) -> torch.dtype:
    if torch.is_autocast_enabled(device.type):
        return torch.get_autocast_dtype(device.type)
    return torch.float32


class _LinearCrossEntropy(torch.autograd.Function):
    @staticmethod
    def forward(ctx, hidden: Tensor, weight: Tensor, target: Tensor, eps: float, rows: int,
                dtype: torch.dtype) -> Tensor:
        n, v = hidden.size(0), weight.size(0)
        w = weight.to(dtype)  # (V, D), one cast for all chunks
        grad_hidden = torch.empty(hidden.shape, dtype=torch.float32, device=hidden.device)
        grad_weight = torch.zeros(weight.shape, dtype=torch.float32, device=weight.device)
        total = hidden.new_zeros((), dtype=torch.float32)
        for start in range(0, n, rows):
            h, y = hidden[start:start + rows].to(dtype), target[start:start + rows]  # (r, D), (r,)
            logp = (h @ w.t()).float().log_softmax(-1)  # (r, V)
            nll = -logp.gather(1, y[:, None]).squeeze(1)
            total += ((1.0 - eps) * nll - eps * logp.mean(-1)).sum()
            g = logp.exp_()  # softmax, in place: the chunk's log-probabilities are no longer needed
            g -= eps / v
            g[torch.arange(y.numel(), device=g.device), y] -= 1.0 - eps  # d(sum of row losses)/d logits
            g = g.to(dtype)
            grad_hidden[start:start + rows] = g @ w
            if dtype == torch.float32:
                grad_weight.addmm_(g.t(), h)
            else:
                grad_weight += (g.t() @ h).float()
        ctx.save_for_backward(grad_hidden, grad_weight)
        ctx.n, ctx.dtypes = n, (hidden.dtype, weight.dtype)
        return total / n

    @staticmethod
    def backward(ctx, grad_out: Tensor):
        grad_hidden, grad_weight = ctx.saved_tensors
        scale = grad_out / ctx.n
        return ((grad_hidden * scale).to(ctx.dtypes[0]), (grad_weight * scale).to(ctx.dtypes[1]),
                None, None, None, None)


def linear_cross_entropy(hidden: Tensor, weight: Tensor, target: Tensor, label_smoothing: float = 0.0,
                         rows: int | None = None) -> Tensor:
    """Mean over rows of the label-smoothed cross-entropy of logits ``hidden @ weight.T``.

    hidden: (N, D), weight: (V, D), target: (N,) class ids (no padding: callers pass real targets only).
    rows: rows per chunk (default: ``chunk_rows(V)``).
    """
    if hidden.dim() != 2 or target.shape != hidden.shape[:1]:
        raise ValueError(f"expected hidden (N, D) and target (N,), got {tuple(hidden.shape)} and "
                         f"{tuple(target.shape)}")
    dtype = _compute_dtype(hidden.device)
    if not (torch.is_grad_enabled() and (hidden.requires_grad or weight.requires_grad)):
        # Nothing to differentiate (validation): the plain path, chunked only to bound memory.
        rows = rows or chunk_rows(weight.size(0))
        w = weight.to(dtype)
        parts = [F.cross_entropy((hidden[s:s + rows].to(dtype) @ w.t()).float(), target[s:s + rows],
                                 label_smoothing=label_smoothing, reduction="sum")
                 for s in range(0, hidden.size(0), rows)]
        return torch.stack(parts).sum() / hidden.size(0)
    with torch.autocast(hidden.device.type, enabled=False):  # the dtype is chosen explicitly above
        return _LinearCrossEntropy.apply(hidden, weight, target, float(label_smoothing),
                                         rows or chunk_rows(weight.size(0)), dtype)
