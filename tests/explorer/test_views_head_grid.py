"""HeadGridView: one tile per layer × head, clicks select, and a 6 × 16 grid holds every tile."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6 import QtCore

from explorer.attention.head_grid import HeadGridView
from explorer.ui.colormaps import map_to_rgba


@pytest.fixture
def grid(qtbot):
    w = HeadGridView()
    qtbot.addWidget(w)
    w.resize(800, 500)
    w.show()
    qtbot.waitExposed(w)
    return w


def test_thumbnails_hold_the_maps(grid, synthetic_maps):
    masked = synthetic_maps.masked("decoder")
    grid.set_maps(synthetic_maps.decoder_self, masked)
    for layer in range(2):
        for head in range(4):
            tile = grid.thumbnail_array(layer, head)
            expected = synthetic_maps.decoder_self[layer, head]
            np.testing.assert_array_equal(tile[~masked], expected[~masked])
            assert np.isnan(tile[masked]).all()
    assert grid.plot.getAxis("left").labels() == ["L1", "L2"]
    assert grid.plot.getAxis("top").labels() == ["H1", "H2", "H3", "H4"]


def test_mosaic_pixels_are_the_coloured_weights(grid, synthetic_maps):
    grid.set_maps(synthetic_maps.encoder_self)
    mosaic = grid.mosaic_rgba()
    _, _, q, k = synthetic_maps.encoder_self.shape
    gq, gk = grid._gap
    # Tile (1, 2) starts after one layer pitch and two head pitches, plus half a gap.
    r0, c0 = (q + gq) + gq // 2, 2 * (k + gk) + gk // 2
    expected = map_to_rgba(synthetic_maps.encoder_self[1, 2], "viridis")
    np.testing.assert_array_equal(mosaic[r0:r0 + q, c0:c0 + k], expected)


def test_click_emits_and_selects(grid, qtbot, synthetic_maps):
    grid.set_maps(synthetic_maps.cross)
    qtbot.wait(20)
    scene = grid.scene_pos_of_tile(1, 3)
    assert grid.tile_at_scene_pos(scene) == (1, 3)
    point = grid.canvas.mapFromScene(scene)
    with qtbot.waitSignal(grid.head_clicked, timeout=1000) as blocker:
        qtbot.mouseClick(grid.canvas.viewport(), QtCore.Qt.MouseButton.LeftButton, pos=point)
    assert blocker.args == [1, 3]
    assert grid.selected() == (1, 3)
    outline = grid._outline.rect()
    assert outline.contains(QtCore.QPointF(3, 1)) and not outline.contains(QtCore.QPointF(2, 1))


def test_selecting_a_whole_layer(grid, synthetic_maps):
    grid.set_maps(synthetic_maps.encoder_self)
    grid.set_selected(0, None)
    rect = grid._outline.rect()
    assert rect.contains(QtCore.QPointF(0, 0)) and rect.contains(QtCore.QPointF(3, 0))
    assert not rect.contains(QtCore.QPointF(0, 1))


@pytest.mark.parametrize("n_heads", [8, 16])
def test_a_large_grid_holds_every_tile(grid, qtbot, n_heads):
    """6 layers × up to 16 heads: every tile is there and the last one's pixels are its map's colours.

    How fast this draws is measured by the benchmarks (``grid_ms_p50``), not asserted here: timings in a
    test fail on a busy machine without anything being wrong.
    """
    arr = np.random.default_rng(0).random((6, n_heads, 30, 30)).astype(np.float32)
    masked = np.triu(np.ones((30, 30), bool), k=1)
    grid.set_maps(arr, masked)
    assert grid.plot.getAxis("left").labels() == [f"L{i + 1}" for i in range(6)]
    assert grid.plot.getAxis("top").labels() == [f"H{i + 1}" for i in range(n_heads)]
    tile = grid.thumbnail_array(5, n_heads - 1)
    np.testing.assert_array_equal(tile[~masked], arr[5, n_heads - 1][~masked])
    assert not grid.canvas.grab().isNull()
