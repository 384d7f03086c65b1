"""HeatmapView: the image equals the data, labels equal the tokens, hover names the right cell."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6 import QtCore

from explorer.attention.heatmap import HeatmapView
from explorer.attention.mask_overlay import MASK_FILL
from explorer.attention.tokens import display_piece
from explorer.ui.colormaps import get_colormap

ROWS = ["<s>", "▁Das", "▁Haus", "▁ist"]
COLS = ["▁The", "▁house", "▁is", "▁big", "</s>"]


@pytest.fixture
def view(qtbot):
    w = HeatmapView()
    qtbot.addWidget(w)
    w.resize(700, 500)
    w.show()
    qtbot.waitExposed(w)
    return w


def _causal(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    masked = np.triu(np.ones(values.shape, bool), k=1)
    return np.where(masked, 0.0, values).astype(np.float32), masked


def test_displayed_array_is_the_matrix(view):
    values = np.random.default_rng(1).random((4, 5)).astype(np.float32)
    view.set_matrix(values, ROWS, COLS, title="t")
    np.testing.assert_array_equal(view.displayed_array(), values)
    np.testing.assert_array_equal(view.image.image, values)  # exactly what the ImageItem holds
    assert view.image.axisOrder == "row-major"
    assert view.plot.vb.yInverted()


def test_cells_are_centred_on_integer_ticks(view):
    view.set_matrix(np.zeros((4, 5)), ROWS, COLS)
    rect = view.image.mapRectToView(view.image.boundingRect())
    assert (rect.left(), rect.top(), rect.width(), rect.height()) == (-0.5, -0.5, 5.0, 4.0)


def test_tick_labels_are_the_tokens(view):
    view.set_matrix(np.zeros((4, 5)), ROWS, COLS, row_title="Query: target", col_title="Key: source")
    assert view.row_labels() == [display_piece(p) for p in ROWS]
    assert view.col_labels() == [display_piece(p) for p in COLS]
    ticks = view.plot.getAxis("bottom")._tickLevels[0]
    assert [v for v, _ in ticks] == list(range(5))
    assert "Query: target" in view.plot.getAxis("left").labelText
    assert "Key: source" in view.plot.getAxis("bottom").labelText


def test_hover_text_names_tokens_and_value(view):
    values = np.arange(20, dtype=np.float32).reshape(4, 5) / 20
    view.set_matrix(values, ROWS, COLS)
    assert view.hover_text_at(2, 1) == "query 'Haus' (row 3) → key 'house' (col 2): 0.5500"  # notation, from 1
    assert view.hover_text_at(9, 9) == ""


def test_mouse_handler_maps_scene_position_to_cell(view, qtbot):
    values = np.random.default_rng(2).random((4, 5)).astype(np.float32)
    view.set_matrix(values, ROWS, COLS)
    qtbot.wait(10)
    texts = []
    view.hovered.connect(texts.append)
    # A point a quarter-cell off the centre still belongs to the cell.
    scene = view.plot.vb.mapViewToScene(QtCore.QPointF(3.2, 1.2))
    view.on_mouse_moved(scene)
    assert texts == [view.hover_text_at(1, 3)]
    assert view.readout.text() == texts[0]
    assert f"{values[1, 3]:.4f}" in texts[0]
    view.on_mouse_moved(QtCore.QPointF(-1000, -1000))  # outside: read-out cleared
    assert view.readout.text().strip() == ""


def test_masked_cells_are_nan_and_say_so(view):
    values, masked = _causal(np.random.default_rng(3).random((4, 4)))
    view.set_matrix(values, ROWS, ROWS, masked=masked)
    shown = view.displayed_array()
    assert np.isnan(shown[masked]).all()
    np.testing.assert_array_equal(shown[~masked], values[~masked])
    assert view.hover_text_at(0, 3).endswith("masked (future position)")
    assert len(view.mask_overlay.rects()) == 3  # one run per row that has masked cells


def test_masked_pixels_differ_from_colour_of_zero(view, qtbot):
    values, masked = _causal(np.full((4, 4), 0.0))
    values[~masked] = 0.0  # visible cells hold exactly 0 too: only the mask tells them apart
    view.set_matrix(values, ROWS, ROWS, masked=masked)
    qtbot.wait(20)
    image = view.canvas.grab().toImage()

    def pixel(row, col):
        # Near a corner of the cell, away from the number written in its centre.
        scene = view.plot.vb.mapViewToScene(QtCore.QPointF(col - 0.35, row + 0.35))
        point = view.canvas.mapFromScene(scene)
        return image.pixelColor(point.x(), point.y())

    zero = get_colormap("viridis").map(0.0, mode="qcolor")
    visible, hidden = pixel(3, 0), pixel(0, 3)
    assert abs(visible.red() - zero.red()) < 8 and abs(visible.blue() - zero.blue()) < 8
    assert abs(hidden.red() - zero.red()) > 40  # grey fill or hatch line, both far from dark purple
    assert abs(hidden.red() - hidden.blue()) < 10  # neutral grey
    assert MASK_FILL.red() > 150


def test_cell_numbers_only_for_small_matrices(view):
    view.set_matrix(np.full((4, 5), 0.25), ROWS, COLS)
    assert view.cell_number_texts() == ["0.25"] * 20
    n = 20
    view.set_matrix(np.zeros((n, n)), [f"t{i}" for i in range(n)], [f"t{i}" for i in range(n)])
    assert view.cell_number_texts() == []


def test_colormap_and_font_scale(view):
    view.set_matrix(np.eye(4), ROWS, ROWS)
    view.set_colormap("magma")
    assert view.color_bar.colorMap().name == get_colormap("magma").name
    view.set_font_scale(2.0)
    assert view.plot.getAxis("left")._font.pointSizeF() == pytest.approx(22.0)


def test_shape_mismatch_is_an_error(view):
    with pytest.raises(ValueError):
        view.set_matrix(np.zeros((3, 5)), ROWS, COLS)
    with pytest.raises(ValueError):
        view.set_matrix(np.zeros((4, 5)), ROWS, COLS, masked=np.zeros((5, 4), bool))


def test_long_keys_are_slanted_or_vertical(view, qtbot):
    keys = [f"▁extraordinarily{i}" for i in range(30)]
    view.set_matrix(np.zeros((4, 30)), ROWS, keys)
    qtbot.wait(20)
    view.canvas.grab()
    assert view.plot.getAxis("bottom").last_angle in (45, 90)


def test_real_mouse_move_updates_the_readout(view, qtbot):
    values = np.random.default_rng(4).random((4, 5)).astype(np.float32)
    view.set_matrix(values, ROWS, COLS)
    qtbot.wait(10)
    point = view.canvas.mapFromScene(view.scene_pos_of_cell(3, 4))
    qtbot.mouseMove(view.canvas.viewport(), point)
    qtbot.waitUntil(lambda: view.readout.text() == view.hover_text_at(3, 4), timeout=1000)


def test_the_marked_cells_labels_stay_emphasised_when_the_mouse_leaves(view, qtbot):
    """The formula dock's cell: its row and column labels stay red while the mouse is over the dock."""
    view.set_matrix(np.random.default_rng(5).random((4, 5)).astype(np.float32), ROWS, COLS)
    qtbot.wait(10)
    left, bottom = view.plot.getAxis("left"), view.plot.getAxis("bottom")
    view.set_marked_cell((2, 3))
    assert (left._highlight, bottom._highlight) == (2, 3)
    view.on_mouse_moved(view.scene_pos_of_cell(1, 0))
    assert (left._highlight, bottom._highlight) == (1, 0)  # the hovered cell's, while hovering
    QtCore.QCoreApplication.sendEvent(view.canvas, QtCore.QEvent(QtCore.QEvent.Type.Leave))
    assert (left._highlight, bottom._highlight) == (2, 3)  # back to the marked cell's, not none
    view.set_marked_cell(None)
    assert (left._highlight, bottom._highlight) == (None, None)


@pytest.mark.parametrize("width", [300, 400, 500])
def test_the_first_slanted_key_label_ends_inside_the_canvas(view, qtbot, width):
    """A slanted label runs down-left from its tick; under short row labels and no axis titles (the Step
    tab's cross map) the first one ran past the canvas' left edge, cut to "nfortunately". It is now
    shortened to what fits ("Unfortu…"): no text pixel in the canvas' first two columns."""
    keys = ["▁Unfortunately", "▁nobody", "▁knows", "▁where", "▁he", "▁went", "."]
    view.resize(width, 330)
    view.set_matrix(np.full((2, len(keys)), 0.1), ["<s>", "▁Leid"], keys, row_title="", col_title="")
    qtbot.wait(30)
    image = view.canvas.grab().toImage()
    bottom = view.plot.getAxis("bottom")
    assert bottom.last_angle in (45, 90)  # 45 at every width here; another machine's font may stand them up
    top = int(bottom.mapToScene(QtCore.QPointF(0, 0)).y())  # the labels' band, down to the canvas' end
    edge = [(x, y) for y in range(top, image.height()) for x in (0, 1) if image.pixelColor(x, y).lightness() < 140]
    assert edge == [], edge[:5]
    assert view.col_labels()[0] == "Unfortunately"  # the axis keeps the whole token (the read-out names it)


def test_a_narrow_maps_key_title_loses_its_explanation_rather_than_its_end(qtbot):
    """Under the Step tab's narrow map at ×1.52 the key title read "Key (decoder inp": it now shrinks to the
    unzoomed size, then drops its explanation in brackets, as the query title up the side does."""
    from PySide6 import QtGui

    from explorer.attention.heatmap import HeatmapView
    view = HeatmapView()
    qtbot.addWidget(view)
    view.set_font_scale(1.52)
    view.resize(230, 320)
    labels = ["<s>", "Das", "Wetter"]
    view.set_matrix(np.tril(np.full((3, 3), 0.3)), labels, labels, row_title="Query (decoder input)",
                    col_title="Key (decoder input)")
    view.show()
    qtbot.waitExposed(view)
    qtbot.wait(50)
    view.fit_titles()
    shown = view._bottom.labelText
    assert shown == "Key", shown
    wide = HeatmapView()
    qtbot.addWidget(wide)
    wide.resize(900, 500)
    wide.set_matrix(np.tril(np.full((3, 3), 0.3)), labels, labels, col_title="Key (decoder input)")
    wide.show()
    qtbot.waitExposed(wide)
    qtbot.wait(50)
    wide.fit_titles()
    assert wide._bottom.labelText == "Key (decoder input)"  # with room, the whole title
    assert QtGui.QFontMetricsF(wide.font()).horizontalAdvance("Key (decoder input)") < wide.plot.vb.width()


def test_a_zoomed_title_ends_before_the_colour_bars_top_number(qtbot):
    """At ×1.52 on a projector "Encoder self-attention — layer 1, head 1" ran into the colour bar's "1.0":
    the title now takes smaller type (down to its unzoomed size) where it would, and keeps its own elsewhere."""
    from explorer.attention.heatmap import HeatmapView
    from explorer.ui.plot_titles import BASE_POINT_SIZE
    labels = ["The", "old", "man", "reads", "a", "long", "book", "in", "the", "garden", ".", "</s>"]
    title = "Encoder self-attention — layer 1, head 1"

    def shown(width: int) -> HeatmapView:
        view = HeatmapView()
        qtbot.addWidget(view)
        view.set_font_scale(1.52)
        view.resize(width, 500)
        view.set_matrix(np.full((12, 12), 1 / 12), labels, labels, title=title)
        view.show()
        qtbot.waitExposed(view)
        qtbot.wait(50)
        view.fit_titles()
        qtbot.wait(20)
        return view

    narrow = shown(700)
    text = narrow.plot.titleLabel.item.sceneBoundingRect()
    assert narrow.plot.titleLabel.text.endswith("head 1")  # whole, not cut
    assert text.right() <= narrow.color_bar.axis.sceneBoundingRect().left() + 2
    wide = shown(1400)
    assert f"{BASE_POINT_SIZE * 1.3 * 1.52:.1f}pt" in str(wide.plot.titleLabel.opts.get("size"))  # its own type
