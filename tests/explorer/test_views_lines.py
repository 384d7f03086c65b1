"""LinesView: line opacity is the attention weight; heads toggle; hovering a token isolates it."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6 import QtCore

from explorer.attention.lines_view import FADE, LinesView, head_color


@pytest.fixture
def lines(qtbot, synthetic_maps):
    w = LinesView()
    qtbot.addWidget(w)
    w.resize(800, 500)
    rows, cols = synthetic_maps.labels("cross")
    w.set_layer(synthetic_maps.cross[1], rows, cols)
    w.show()
    qtbot.waitExposed(w)
    return w


def test_alphas_equal_the_weights(lines, synthetic_maps):
    np.testing.assert_array_equal(lines.line_alphas(), synthetic_maps.cross[1])
    assert lines.visible_heads() == {0, 1, 2, 3}


def test_hidden_heads_have_no_lines(lines, synthetic_maps):
    lines.set_heads({2})
    alphas = lines.line_alphas()
    np.testing.assert_array_equal(alphas[2], synthetic_maps.cross[1, 2])
    assert not alphas[[0, 1, 3]].any()
    assert [b.isChecked() for b in lines._swatches] == [False, False, True, False]


def test_swatch_toggles_heads(lines, qtbot):
    with qtbot.waitSignal(lines.heads_changed, timeout=1000):
        lines._swatches[0].click()
    assert lines.visible_heads() == {1, 2, 3}


def test_highlight_isolates_a_token(lines, synthetic_maps):
    weights = synthetic_maps.cross[1]
    lines.highlight_token("query", 2)
    alphas = lines.line_alphas()
    np.testing.assert_array_equal(alphas[:, 2, :], weights[:, 2, :])
    np.testing.assert_allclose(alphas[:, 0, :], weights[:, 0, :] * FADE)
    lines.highlight_token("key", 4)
    alphas = lines.line_alphas()
    np.testing.assert_array_equal(alphas[:, :, 4], weights[:, :, 4])
    np.testing.assert_allclose(alphas[:, :, 0], weights[:, :, 0] * FADE)
    lines.highlight_token("key", None)
    np.testing.assert_array_equal(lines.line_alphas(), weights)
    with pytest.raises(ValueError):
        lines.highlight_token("left", 0)


def test_mouse_over_a_token_highlights_it(lines, qtbot):
    queries, keys, *_ = lines.layout_tokens(QtCore.QRectF(lines.canvas.rect()))
    qtbot.mouseMove(lines.canvas, keys[3].center().toPoint())
    qtbot.waitUntil(lambda: lines.highlighted() == ("key", 3), timeout=1000)
    assert lines.token_at(queries[1].center()) == ("query", 1)


def test_lines_are_painted_in_head_colours(lines, qtbot):
    lines.set_heads({0})
    image = lines.canvas.grab().toImage()
    target = head_color(0)
    # Some pixel between the columns carries the head's hue (blue dominates).
    _, _, x_query, x_key, _ = lines.layout_tokens(QtCore.QRectF(lines.canvas.rect()))
    xs = range(int(x_query) + 20, int(x_key) - 20, 7)
    found = any(
        image.pixelColor(x, y).blue() > image.pixelColor(x, y).red() + 20
        for x in xs for y in range(0, image.height(), 3)
    )
    assert found and target.blue() > target.red()


def test_column_titles_stay_inside_a_narrow_canvas(lines, synthetic_maps):
    from PySide6 import QtGui
    lines.set_layer(synthetic_maps.cross[1], ["a"] * synthetic_maps.cross.shape[2],
                    ["b"] * synthetic_maps.cross.shape[3], "Queries (target)", "Keys (source)")
    rect = QtCore.QRectF(0, 0, 420, 400)  # a 1024-px window leaves the Lines canvas about this wide
    _, _, x_query, x_key, _ = lines.layout_tokens(rect)
    metrics = QtGui.QFontMetricsF(lines._fonts()[1])
    assert x_query - metrics.horizontalAdvance("Queries (target)") >= rect.left()  # right-aligned at x_query
    assert x_key + 6 + metrics.horizontalAdvance("Keys (source)") <= rect.right()  # left-aligned at x_key
    assert x_key - x_query >= 120  # the lines keep room to be read


def test_head_chips_take_the_zoomed_type_size(lines, qtbot):
    """Zoom and presentation mode scale the view's fonts: the H1… chips grow with the text beside them
    (their style sheets once fixed them at the unzoomed size)."""
    from explorer.ui.style import BASE_POINT_SIZE  # noqa: PLC0415

    chip = lines._swatches[1]
    small = chip.sizeHint().height()
    lines.set_font_scale(1.5)
    qtbot.waitUntil(lambda: chip.font().pointSizeF() == pytest.approx(1.5 * BASE_POINT_SIZE), timeout=1000)
    assert chip.sizeHint().height() > small * 1.25
    lines.set_heads({1})  # a toggle restyles a chip: it keeps the size
    assert lines._swatches[1].font().pointSizeF() == pytest.approx(1.5 * BASE_POINT_SIZE)
    assert lines._swatches[2].font().pointSizeF() == pytest.approx(1.5 * BASE_POINT_SIZE)
