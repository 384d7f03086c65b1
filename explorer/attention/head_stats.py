"""Summary numbers for one attention map, the ones papers on head analysis report.

Entropy tells a focused head (near 0 bits) from one that spreads out (log2 of the number of keys it may
see); the mean distance |i − j| and the share of weight on the diagonal or on the previous token pick
out the positional heads of Voita et al. and Clark et al.; the share on ``</s>`` reveals heads that park
their attention on the end-of-sentence token when they have nothing to do. Only unmasked keys count
as candidates, so a decoder row that can see one token is not called "focused".
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from explorer.ui.i18n import tr

EOS = "</s>"


@dataclass(frozen=True)
class HeadStats:
    """Statistics of one (Q, K) map; the square-only fields are None for cross-attention."""

    entropy_bits: float  # mean over query rows of −Σ w log2 w
    max_entropy_bits: float  # mean over rows of log2(number of visible keys): uniform attention
    max_weight: float
    mean_distance: float | None = None  # mean over rows of Σ_j w_ij |i − j|
    diagonal_share: float | None = None  # mean over rows of w_ii
    previous_share: float | None = None  # mean over rows i ≥ 1 of w_i,i−1
    eos_share: float | None = None  # mean over rows of the weight on '</s>' keys, if any


def head_statistics(matrix, masked=None, col_labels=None) -> HeadStats:
    """Compute :class:`HeadStats` for a map whose rows are distributions over keys."""
    w = np.asarray(matrix, dtype=np.float64)
    rows, cols = w.shape
    if rows == 0 or cols == 0:
        return HeadStats(0.0, 0.0, 0.0)
    visible = np.ones_like(w, dtype=bool) if masked is None else ~np.asarray(masked, dtype=bool)
    safe = np.where(w > 0, w, 1.0)
    entropy = -(np.where(visible, w, 0.0) * np.log2(safe)).sum(axis=1)
    max_entropy = np.log2(np.maximum(visible.sum(axis=1), 1))
    stats = {
        "entropy_bits": float(entropy.mean()),
        "max_entropy_bits": float(max_entropy.mean()),
        "max_weight": float(w.max()),
    }
    if rows == cols:
        i = np.arange(rows)
        stats["mean_distance"] = float((w * np.abs(i[:, None] - i[None, :])).sum(axis=1).mean())
        stats["diagonal_share"] = float(np.diag(w).mean())
        stats["previous_share"] = float(np.diag(w, k=-1).mean()) if rows > 1 else 0.0
    if col_labels is not None:
        eos = np.array([str(s) == EOS for s in col_labels], dtype=bool)
        if eos.any():
            stats["eos_share"] = float(w[:, eos].sum(axis=1).mean())
    return HeadStats(**stats)


def format_statistics(stats: HeadStats) -> str:
    """One line for the status row under the plots."""
    parts = [
        tr("entropy {bits:.2f} bits (uniform {uniform:.2f})", bits=stats.entropy_bits, uniform=stats.max_entropy_bits),
        tr("max weight {w:.3f}", w=stats.max_weight),
    ]
    if stats.mean_distance is not None:
        parts.append(tr("mean |i−j| {d:.2f}", d=stats.mean_distance))
        parts.append(tr("diagonal {p:.0f}%", p=100 * stats.diagonal_share))
        parts.append(tr("previous token {p:.0f}%", p=100 * stats.previous_share))
    if stats.eos_share is not None:
        parts.append(tr("on </s> {p:.0f}%", p=100 * stats.eos_share))
    return "   ·   ".join(parts)
