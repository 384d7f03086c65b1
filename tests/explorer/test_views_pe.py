"""PositionalEncodingView: arrays follow the paper's formula, written out here independently."""

from __future__ import annotations

import math

import numpy as np
import pytest

from explorer.positional.encoding import sinusoidal_pe, wavelength
from explorer.positional.table_view import PositionalEncodingView


def reference_pe(n: int, d: int) -> np.ndarray:
    """PE[pos, 2i] = sin(pos / 10000^(2i/d)), PE[pos, 2i+1] = cos(pos / 10000^(2i/d)), by loops."""
    pe = np.zeros((n, d))
    for pos in range(n):
        for i in range(0, d, 2):
            angle = pos / (10000 ** (i / d))
            pe[pos, i] = math.sin(angle)
            if i + 1 < d:
                pe[pos, i + 1] = math.cos(angle)
    return pe


@pytest.fixture
def view(qtbot):
    w = PositionalEncodingView()
    qtbot.addWidget(w)
    w.resize(900, 700)
    w.show()
    qtbot.waitExposed(w)
    return w


@pytest.mark.parametrize("n,d", [(50, 16), (7, 5), (100, 512)])
def test_formula(n, d):
    pe = sinusoidal_pe(n, d)
    assert pe.dtype == np.float32 and pe.shape == (n, d)
    np.testing.assert_allclose(pe, reference_pe(n, d), atol=1e-6)


def test_view_arrays(view):
    view.set_d_model(32)
    view.set_positions(40)
    ref = reference_pe(40, 32)
    np.testing.assert_allclose(view.pe_array(), ref, atol=1e-6)
    np.testing.assert_allclose(view.similarity_array(), ref @ ref.T, atol=1e-4)
    np.testing.assert_allclose(np.diag(view.similarity_array()), 16.0, atol=1e-4)  # d_model / 2
    np.testing.assert_array_equal(view.pe_image.image, view.pe_array())


def test_default_positions_and_curves(view):
    assert view.pe_array().shape == (100, 512)
    dims = view.curve_dimensions()
    assert dims and all(0 <= d < 512 for d in dims)
    view.set_curve_dimensions([3, 10, 999])
    assert view.curve_dimensions() == [3, 10]
    curves = [c for c in view.curve_plot.listDataItems() if c.name()]  # the dotted samples
    assert [c.name().split()[1] for c in curves] == ["3", "10"]
    x, y = curves[0].getData()
    np.testing.assert_allclose(y, view.pe_array()[:, 3])
    view.set_d_model(8)  # dims past the new d_model fall back to defaults
    assert all(d < 8 for d in view.curve_dimensions())


def test_dimensions_from_text(view):
    view._dims_edit.setText("0, 2; 5")
    view._dims_edit.editingFinished.emit()
    assert view.curve_dimensions() == [0, 2, 5]


def test_sentence_length_marked_on_all_three(view):
    assert view.marker_positions()["pe"] is None
    view.set_sentence_length(12)
    marks = view.marker_positions()
    assert marks["pe"] == marks["similarity"] == 11.5
    assert marks["curves"] == (0.0, 11.0)
    view.set_sentence_length(0)
    assert view.marker_positions()["curves"] is None


def test_wavelength():
    assert wavelength(0, 512) == pytest.approx(2 * math.pi)
    assert wavelength(257, 512) == pytest.approx(2 * math.pi * 100)
