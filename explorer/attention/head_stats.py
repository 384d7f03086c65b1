"""Summary numbers for one attention map, the ones papers on head analysis report, as the window shows them.

The numbers are the model's own (``model.analysis.head_stats.map_statistics``, what the workbench averages
over a test set), so the attention panel and the workbench never disagree about a head: entropy tells a
focused head (near 0 bits) from one that spreads out; the mean row maximum is Voita et al.'s "confidence";
the mean distance |i − j| and the share of weight on the diagonal or on the previous position pick out
the positional heads of Voita et al. and Clark et al. (for cross-attention i is the target position and j
the source's: a monotone alignment reads as a strong diagonal); the share on ``</s>`` reveals heads that
park their attention on the end-of-sentence token. The one number of this view alone is the entropy of
uniform attention over the keys each row may see, the yardstick the entropy is read against.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from explorer.ui.i18n import tr
from model.analysis.head_stats import EOS, map_statistics
from model.records.research import STATS


@dataclass(frozen=True)
class HeadStats:
    """Statistics of one (Q, K) map; a value the map does not define (no previous key, no ``</s>``) is None."""

    entropy_bits: float  # mean over query rows of −Σ w log2 w
    max_entropy_bits: float  # mean over rows of log2(number of visible keys): uniform attention
    confidence: float  # mean over rows of the row's largest weight
    mean_distance: float | None = None  # mean over rows of Σ_j w_ij |i − j|
    diagonal_share: float | None = None  # mean over rows of w_ii
    previous_share: float | None = None  # mean over rows i ≥ 1 of w_i,i−1
    eos_share: float | None = None  # mean over rows of the weight on '</s>' keys, if any


def _defined(x: float) -> float | None:
    return None if math.isnan(x) else float(x)


def head_statistics(matrix, masked=None, col_labels=None) -> HeadStats:
    """Compute :class:`HeadStats` for a map whose rows are distributions over keys."""
    w = np.asarray(matrix, dtype=np.float64)
    rows, cols = w.shape
    if rows == 0 or cols == 0:
        return HeadStats(0.0, 0.0, 0.0)
    labels = tuple(str(x) for x in col_labels) if col_labels is not None else ("",) * cols
    v = dict(zip(STATS, map_statistics(w, labels)))
    visible = np.ones_like(w, dtype=bool) if masked is None else ~np.asarray(masked, dtype=bool)
    uniform = float(np.log2(np.maximum(visible.sum(axis=1), 1)).mean())
    return HeadStats(float(v["entropy"]), uniform, float(v["confidence"]), _defined(v["distance"]),
                     _defined(v["same"]), _defined(v["previous"]), float(v["eos"]) if EOS in labels else None)


def format_statistics(stats: HeadStats) -> str:
    """One line for the status row under the plots."""
    parts = [
        tr("entropy {bits:.2f} bits (uniform {uniform:.2f})", bits=stats.entropy_bits, uniform=stats.max_entropy_bits),
        tr("mean max weight {w:.3f}", w=stats.confidence),
    ]
    if stats.mean_distance is not None:
        parts.append(tr("mean |i−j| {d:.2f}", d=stats.mean_distance))
    if stats.diagonal_share is not None:
        parts.append(tr("diagonal {p:.0f}%", p=100 * stats.diagonal_share))
    if stats.previous_share is not None:
        parts.append(tr("previous token {p:.0f}%", p=100 * stats.previous_share))
    if stats.eos_share is not None:
        parts.append(tr("on </s> {p:.0f}%", p=100 * stats.eos_share))
    return "   ·   ".join(parts)
