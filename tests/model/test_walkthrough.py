"""Eq. (1) worked one row at a time (model/analysis/walkthrough.py), checked by hand and against softmax."""

from __future__ import annotations

import math

import numpy as np
import pytest

from model.analysis.walkthrough import entropy_bits, formula_row, hand_example, softmax


def test_hand_example_gives_the_numbers_worked_on_paper():
    row = hand_example()
    assert np.round(row.dots, 2).tolist() == [1.0, 2.0, 3.0]
    assert np.round(row.scaled, 2).tolist() == [0.71, 1.41, 2.12]
    assert np.round(row.weights, 2).tolist() == [0.14, 0.28, 0.58]
    assert np.round(row.output, 1).tolist() == [7.2, 11.4]
    assert row.d_k == 2 and row.scale == pytest.approx(math.sqrt(2))


def test_without_the_scale_the_row_is_sharper():
    row = hand_example()
    (max_s, max_u), (ent_s, ent_u) = row.sharpness()["max weight"], row.sharpness()["entropy (bits)"]
    assert max_u > max_s and ent_u < ent_s
    expected = np.exp([1.0, 2.0, 3.0]) / np.exp([1.0, 2.0, 3.0]).sum()
    np.testing.assert_allclose(row.weights_unscaled, expected)


def test_mask_gives_future_keys_zero_weight_and_renormalises_the_rest():
    rng = np.random.default_rng(0)
    q, keys, values = rng.normal(size=8), rng.normal(size=(5, 8)), rng.normal(size=(5, 3))
    mask = np.array([False, False, True, True, True])
    row = formula_row(q, keys, values, mask)
    assert row.weights[2:].tolist() == [0.0, 0.0, 0.0] and row.weights.sum() == pytest.approx(1.0)
    assert np.isneginf(row.masked_scores[2:]).all()
    first_two = softmax(keys[:2] @ q / math.sqrt(8))
    np.testing.assert_allclose(row.weights[:2], first_two)
    np.testing.assert_allclose(row.output, first_two @ values[:2])


def test_entropy_and_bad_input():
    assert entropy_bits(np.array([0.25] * 4)) == pytest.approx(2.0)
    assert entropy_bits(np.array([1.0, 0.0])) == 0.0
    with pytest.raises(ValueError, match="keys have 3"):
        formula_row(np.ones(2), np.ones((4, 3)), np.ones((4, 2)))
    with pytest.raises(ValueError, match="every key is masked"):
        formula_row(np.ones(2), np.ones((2, 2)), np.ones((2, 2)), np.array([True, True]))
