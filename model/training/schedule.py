"""The paper's learning-rate schedule and training loss (section 5.3 and 5.4), apart from the loop.

Kept on their own so that a test, a benchmark or a plot can use exactly the numbers the loop trains
with, without reading through the loop.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F


def learning_rate(step: int, d_model: int, warmup: int, scale: float = 1.0) -> float:
    """Eq. (3): lrate = d_model^-0.5 · min(step^-0.5, step · warmup^-1.5), for steps counted from 1."""
    step = max(step, 1)
    return scale * d_model ** -0.5 * min(step ** -0.5, step * warmup ** -1.5)


def label_smoothed_loss(logits: torch.Tensor, target: torch.Tensor, eps: float, pad_id: int) -> torch.Tensor:
    """Mean over non-pad targets of (1-ε)·(-log p_y) + ε·mean_v(-log p_v) (section 5.4, ε_ls = 0.1)."""
    return F.cross_entropy(logits.reshape(-1, logits.size(-1)).float(), target.reshape(-1),
                           ignore_index=pad_id, label_smoothing=eps)


def step_loss(net, src: torch.Tensor, tgt: torch.Tensor, label_smoothing: float) -> torch.Tensor:
    """One batch's training loss, equal to ``label_smoothed_loss`` of the full logits but computed on
    real tokens only (``Transformer.loss``); called through forward so a DDP wrapper sees it."""
    loss, _ = net(src, tgt[:, :-1], target=tgt[:, 1:], label_smoothing=label_smoothing)
    return loss
