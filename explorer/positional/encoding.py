"""The sinusoidal positional encoding of "Attention Is All You Need" (section 3.5), in NumPy.

    PE[pos, 2i]   = sin(pos / 10000^(2i / d_model))
    PE[pos, 2i+1] = cos(pos / 10000^(2i / d_model))

Marian (OPUS-MT) models use the same values laid out in two halves: all the sines first, then all the
cosines (``layout="halves"``). The model package computes the same table in torch; the views keep their
own NumPy copy so that they never import torch (a cross-check test compares the two).
"""

from __future__ import annotations

import math

import numpy as np

LAYOUTS = ("interleaved", "halves")


def frequency(dimension: int, d_model: int, layout: str = "interleaved") -> tuple[int, bool]:
    """(i of the frequency 1/10000^(2i/d_model), True for a sine) that a dimension holds."""
    if layout == "halves":
        half = (d_model + 1) // 2
        return (dimension, True) if dimension < half else (dimension - half, False)
    return dimension // 2, dimension % 2 == 0


def sinusoidal_pe(n_positions: int, d_model: int, layout: str = "interleaved") -> np.ndarray:
    """The (n_positions, d_model) float32 encoding table; an odd d_model drops the last cosine."""
    if n_positions < 0 or d_model < 1:
        raise ValueError("need n_positions >= 0 and d_model >= 1")
    position = np.arange(n_positions, dtype=np.float64)[:, None]
    two_i = np.arange(0, d_model, 2, dtype=np.float64)
    # Computed in float64 so that the far positions do not lose the phase before the cast.
    angle = position / np.power(10000.0, two_i / d_model)
    if layout == "halves":
        return np.concatenate([np.sin(angle), np.cos(angle[:, : d_model // 2])], axis=1).astype(np.float32)
    pe = np.empty((n_positions, d_model), dtype=np.float64)
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle[:, : d_model // 2])
    return pe.astype(np.float32)


def sinusoidal_pe_at(positions, d_model: int, dimensions, layout: str = "interleaved") -> np.ndarray:
    """PE at real-valued positions for a few dimensions: (len(positions), len(dimensions)) float64."""
    positions = np.asarray(positions, dtype=np.float64)[:, None]
    i, is_sin = np.array([frequency(int(d), d_model, layout) for d in dimensions], dtype=np.int64).reshape(-1, 2).T
    angle = positions / np.power(10000.0, 2 * i / d_model)
    return np.where(is_sin.astype(bool), np.sin(angle), np.cos(angle))


def pe_similarity(pe: np.ndarray) -> np.ndarray:
    """PE·PEᵀ: the dot product of every pair of position vectors (depends only on their distance)."""
    pe = np.asarray(pe, dtype=np.float64)
    return (pe @ pe.T).astype(np.float32)


def wavelength(dimension: int, d_model: int, layout: str = "interleaved") -> float:
    """The period, in positions, of encoding dimension ``dimension`` (2π at dimension 0)."""
    i, _ = frequency(dimension, d_model, layout)
    return 2.0 * math.pi * 10000.0 ** (2 * i / d_model)


def default_dimensions(d_model: int) -> list[int]:
    """A few dimensions whose wavelengths span the range: fast, medium and slow waves."""
    picks = [0, 1, d_model // 8, d_model // 4, d_model // 2]
    return sorted({p - p % 2 if i > 1 else p for i, p in enumerate(picks) if p < d_model})
