"""Equation (1) of the paper, one query row at a time, with every intermediate number kept.

    Attention(Q, K, V) = softmax(Q Kᵀ / √d_k) V

This is what the lecture-mode walkthrough shows a class: the dot products q·k, their division by √d_k,
the mask (−∞ for the future in the decoder), the softmax row and the weighted sum of the values. The
same row is also computed without ÷√d_k, so the class can measure the paper's §3.2.1 argument (large
dot products push the softmax into regions where it is nearly one-hot) on a real row.

NumPy only, no torch: the Qt views import this module.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

# The small example popular explanations work by hand (issue 21); the walkthrough's first page.
HAND_QUERY = np.array([1.0, 2.0])
HAND_KEYS = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
HAND_VALUES = np.array([[10.0, 0.0], [0.0, 20.0], [10.0, 10.0]])


def softmax(scores: np.ndarray) -> np.ndarray:
    """Softmax of a 1-d row; −∞ entries get weight 0 (a fully masked row is an error, not NaNs)."""
    finite = np.isfinite(scores)
    if not finite.any():
        raise ValueError("every key is masked: softmax of an all −∞ row is undefined")
    shifted = np.where(finite, scores - scores[finite].max(), -np.inf)  # shift: exp never overflows
    e = np.exp(shifted)
    return e / e.sum()


def entropy_bits(weights: np.ndarray) -> float:
    """Shannon entropy of a weight row in bits: 0 = all on one key, log2(n) = spread evenly."""
    w = weights[weights > 0]
    # All on one key sums to −0.0 (printed "−0.00"); rounding can leave −1e-17: neither is below zero.
    return max(0.0, float(-(w * np.log2(w)).sum()))


@dataclass(frozen=True)
class FormulaRow:
    """Every step of eq. (1) for one query against n keys (float64 throughout)."""

    q: np.ndarray  # (d_k,) the query
    keys: np.ndarray  # (n, d_k)
    values: np.ndarray  # (n, d_v)
    dots: np.ndarray  # (n,) q·k_j
    scaled: np.ndarray  # (n,) q·k_j / √d_k
    masked: np.ndarray  # (n,) bool, True = this key is in the future (score set to −∞)
    weights: np.ndarray  # (n,) softmax of the scaled, masked scores
    output: np.ndarray  # (d_v,) Σ_j weights_j v_j
    weights_unscaled: np.ndarray  # (n,) softmax of the masked dot products without ÷√d_k

    @property
    def d_k(self) -> int:
        return int(self.q.shape[0])

    @property
    def scale(self) -> float:
        return math.sqrt(self.d_k)

    @property
    def masked_scores(self) -> np.ndarray:
        """The scaled scores with −∞ where the mask forbids attention: the softmax's input."""
        return np.where(self.masked, -np.inf, self.scaled)

    @property
    def masked_dots(self) -> np.ndarray:
        """The dot products with −∞ where the mask forbids attention: the softmax's input without ÷√d_k."""
        return np.where(self.masked, -np.inf, self.dots)

    def sharpness(self) -> dict[str, tuple[float, float]]:
        """{'max weight': (scaled, unscaled), 'entropy (bits)': (scaled, unscaled)} for this row."""
        return {
            "max weight": (float(self.weights.max()), float(self.weights_unscaled.max())),
            "entropy (bits)": (entropy_bits(self.weights), entropy_bits(self.weights_unscaled)),
        }


def formula_row(q: np.ndarray, keys: np.ndarray, values: np.ndarray, masked: np.ndarray | None = None) -> FormulaRow:
    """Work eq. (1) for query ``q`` (d_k,), ``keys`` (n, d_k), ``values`` (n, d_v).

    masked: (n,) bool, True where the key may not be attended (the decoder's future); None = none.
    """
    q, keys, values = (np.asarray(a, dtype=np.float64) for a in (q, keys, values))
    if q.ndim != 1 or keys.ndim != 2 or values.ndim != 2:
        raise ValueError("q must be 1-d, keys and values 2-d")
    if keys.shape[1] != q.shape[0]:
        raise ValueError(f"keys have {keys.shape[1]} numbers each, the query {q.shape[0]}")
    if values.shape[0] != keys.shape[0]:
        raise ValueError(f"{keys.shape[0]} keys but {values.shape[0]} values")
    n = keys.shape[0]
    masked = np.zeros(n, dtype=bool) if masked is None else np.asarray(masked, dtype=bool)
    if masked.shape != (n,):
        raise ValueError(f"mask must have one entry per key ({n})")
    dots = keys @ q
    scaled = dots / math.sqrt(q.shape[0])
    weights = softmax(np.where(masked, -np.inf, scaled))
    unscaled = softmax(np.where(masked, -np.inf, dots))
    return FormulaRow(q=q, keys=keys, values=values, dots=dots, scaled=scaled, masked=masked,
                      weights=weights, output=weights @ values, weights_unscaled=unscaled)


def hand_example() -> FormulaRow:
    """The worked example: q = [1, 2], three keys and values → output ≈ [7.2, 11.4]."""
    return formula_row(HAND_QUERY, HAND_KEYS, HAND_VALUES)
