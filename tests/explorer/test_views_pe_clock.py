"""Clock hands (explorer/positional/clock.py): PE(pos + k) is the same rotation of PE(pos) for every pos."""

from __future__ import annotations

import numpy as np
import pytest

from explorer.positional.clock import angular_speeds, apply_rotation, hand_angles, shift_rotation
from explorer.positional.encoding import sinusoidal_pe


@pytest.mark.parametrize("k", [1, 3, 17])
def test_one_rotation_shifts_every_position_by_k(k):
    d_model, n = 64, 120
    pe = sinusoidal_pe(n + k, d_model).astype(np.float64)
    rotation = shift_rotation(k, d_model)
    for pos in range(n):
        np.testing.assert_allclose(apply_rotation(rotation, pe[pos]), pe[pos + k], atol=1e-5)


def test_the_map_fitted_from_pairs_of_positions_does_not_depend_on_pos():
    """Fit the 2×2 map of one pair from positions 0..9 and from 100..109: the same matrix, a rotation."""
    d_model, k, pair = 32, 5, 3
    pe = sinusoidal_pe(200, d_model).astype(np.float64)[:, 2 * pair: 2 * pair + 2]
    fits = []
    for start in (0, 100):
        x, y = pe[start:start + 10], pe[start + k:start + k + 10]
        fits.append(np.linalg.lstsq(x, y, rcond=None)[0].T)
    np.testing.assert_allclose(fits[0], fits[1], atol=1e-4)
    np.testing.assert_allclose(fits[0], shift_rotation(k, d_model)[pair], atol=1e-4)
    np.testing.assert_allclose(fits[0] @ fits[0].T, np.eye(2), atol=1e-4)  # orthogonal: a pure turn


def test_hands_turn_at_their_own_speed():
    speeds = angular_speeds(8)
    assert speeds[0] == 1.0 and np.all(np.diff(speeds) < 0)
    np.testing.assert_allclose(hand_angles(3, 8), np.mod(3 * speeds, 2 * np.pi))
    assert hand_angles(0, 8).tolist() == [0.0] * 4
    with pytest.raises(ValueError):
        angular_speeds(1)
