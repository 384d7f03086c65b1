"""Positions as clock hands (section 3.5 of the paper), in NumPy for the PE tab's lecture mode.

Each pair of encoding dimensions (2i, 2i+1) holds (sin(ω_i·pos), cos(ω_i·pos)), ω_i = 1/10000^(2i/d_model):
a hand of length 1 at angle ω_i·pos, each pair turning at its own speed as the position advances.
Moving k positions on turns every hand by ω_i·k whatever the position, so PE(pos + k) is one fixed
rotation of PE(pos): the linear map the paper says lets the model "attend by relative positions".
"""

from __future__ import annotations

import numpy as np


def angular_speeds(d_model: int) -> np.ndarray:
    """ω_i for each (sin, cos) pair: (d_model // 2,) radians per position, fastest first."""
    if d_model < 2:
        raise ValueError("d_model must be at least 2 to have one (sin, cos) pair")
    return 1.0 / np.power(10000.0, np.arange(0, d_model - 1, 2, dtype=np.float64) / d_model)


def hand_angles(position: float, d_model: int) -> np.ndarray:
    """Each pair's hand angle at ``position``, in [0, 2π): (d_model // 2,)."""
    return np.mod(position * angular_speeds(d_model), 2.0 * np.pi)


def shift_rotation(k: float, d_model: int) -> np.ndarray:
    """The (d_model // 2, 2, 2) rotations that take each (sin, cos) pair of PE(pos) to PE(pos + k).

    [sin(a + b), cos(a + b)] = [[cos b, sin b], [−sin b, cos b]] · [sin a, cos a], b = ω_i·k: no pos in it.
    """
    b = k * angular_speeds(d_model)
    c, s = np.cos(b), np.sin(b)
    return np.stack([np.stack([c, s], -1), np.stack([-s, c], -1)], -2)


def apply_rotation(rotation: np.ndarray, pe_row: np.ndarray) -> np.ndarray:
    """Rotate each (sin, cos) pair of one PE row (an even d_model) by its block of ``rotation``."""
    pairs = np.asarray(pe_row, dtype=np.float64).reshape(-1, 2)  # (d/2, 2): (sin, cos)
    return np.einsum("pij,pj->pi", rotation, pairs).reshape(-1)


def pair_columns(pair: int, d_model: int, layout: str = "interleaved") -> tuple[int, int]:
    """The (sin, cos) columns of the PE table that hold pair ``pair``: (2i, 2i + 1) in the paper's
    interleaved layout, (i, d_model/2 + i) in Marian's halves (all sines first)."""
    if layout == "halves":
        return pair, (d_model + 1) // 2 + pair
    return 2 * pair, 2 * pair + 1


def hand_angle_of(sin_value: float, cos_value: float) -> float:
    """The angle of a hand whose tip is (x, y) = (sin, cos): clockwise from 12 o'clock, in [0, 2π)."""
    return float(np.mod(np.arctan2(sin_value, cos_value), 2.0 * np.pi))


def measured_turns(pe: np.ndarray, pairs, positions, k: int, d_model: int,
                   layout: str = "interleaved") -> np.ndarray:
    """How far each pair's hand turns from PE(pos) to PE(pos + k), read off the table ``pe`` itself (not
    from the formula): (len(pairs), len(positions)) radians in [0, 2π). The paper's claim is that no
    column differs from another: the turn is ω_i·k whatever pos is."""
    out = np.empty((len(pairs), len(positions)), dtype=np.float64)
    for r, pair in enumerate(pairs):
        s, c = pair_columns(int(pair), d_model, layout)
        for col, pos in enumerate(positions):
            before = hand_angle_of(pe[pos, s], pe[pos, c])
            after = hand_angle_of(pe[pos + k, s], pe[pos + k, c])
            out[r, col] = np.mod(after - before, 2.0 * np.pi)
    return out


def clock_pairs(d_model: int, count: int = 8) -> list[int]:
    """``count`` pairs from the fastest to the slowest, spaced evenly on a log scale (their speeds span
    four orders of magnitude, so evenly spaced indices would show only the slow end)."""
    n_pairs = max(1, d_model // 2)
    picks = np.round(np.geomspace(1, n_pairs, min(count, n_pairs))).astype(int) - 1
    return sorted({int(p) for p in picks})
