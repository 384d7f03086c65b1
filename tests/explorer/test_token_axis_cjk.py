"""Token labels on the Step tab's maps keep clear of each other, and Chinese keys stand upright.

A walk-through at 1024 × 768 found Chinese row labels run into one vertical column ("猫在地上泡汤了"; the
glyphs fill their square, and rows were fitted to 0.95 of a line), Chinese keys of one or two characters
turned on their side, and German rows in presentation mode set smaller than their rows allow.
"""

from __future__ import annotations

import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from explorer.attention.token_axis import TokenAxis

ZH_ROWS = ["<s>", "␣", "猫", "坐在", "地", "上", "泡", "汤", "了", "。"]
ZH_KEYS = ["<s>", "␣", "猫", "坐在", "地", "上", "。"]
DE_ROWS = ["<s>", "Die", "Katze", "saß", "auf", "der", "Ma", "·t", "·te", "weil", "sie", "müde", "war", "."]


@pytest.fixture
def scene(qapp):
    return QtWidgets.QGraphicsScene()


def _axis(scene, orientation: str, labels: list[str], cell: float, points: float) -> TokenAxis:
    """An axis of ``labels`` spaced ``cell`` px apart, in ``points``-pt type."""
    axis = TokenAxis(orientation)
    scene.addItem(axis)
    length = cell * len(labels)
    size = QtCore.QSizeF(120, length) if orientation == "left" else QtCore.QSizeF(length, 120)
    axis.setGeometry(QtCore.QRectF(QtCore.QPointF(200, 100), size))
    axis.setRange(-0.5, len(labels) - 0.5)
    font = QtGui.QFont()
    font.setPointSizeF(points)
    axis.set_font(font)
    axis.set_labels(labels)
    return axis


def _drawn(axis: TokenAxis):
    """(text, ink rectangle) of each label drawn, in the axis' coordinates, as drawPicture places it."""
    _, _, texts = axis.generateDrawSpecs(None)
    metrics = QtGui.QFontMetricsF(axis.label_font())
    out = []
    for anchor, angle, text, _ in texts:
        assert angle == 0
        ink = metrics.tightBoundingRect(text)
        if axis.orientation == "left":  # right-aligned, centred in a line on the tick
            baseline = anchor.y() - metrics.height() / 2 + metrics.ascent()
            right = anchor.x() - 1
            out.append((text, QtCore.QRectF(right - ink.width(), baseline + ink.top(), ink.width(), ink.height())))
        else:  # centred under the tick, its line's top at the anchor
            baseline = anchor.y() + metrics.ascent()
            left = anchor.x() - metrics.horizontalAdvance(text) / 2 + ink.left()
            out.append((text, QtCore.QRectF(left, baseline + ink.top(), ink.width(), ink.height())))
    # In the axis' own coordinates the first row may be at the bottom (a heatmap inverts its y axis).
    return sorted(out, key=lambda item: item[1].top() if axis.orientation == "left" else item[1].left())


def test_chinese_row_labels_keep_clear_space_between_rows(scene):
    # Rows 0.95 of a 12-pt line tall: the old fit kept 12 pt, and the characters stood 1–2 px apart.
    line = QtGui.QFontMetricsF(_font(12)).height()
    axis = _axis(scene, "left", ZH_ROWS, line * 0.95, 12)
    drawn = _drawn(axis)
    assert sorted(t for t, _ in drawn) == sorted(ZH_ROWS)  # every row labelled
    for (a, upper), (b, lower) in zip(drawn, drawn[1:]):
        if upper.height() and lower.height():
            glyph = max(upper.height(), lower.height())
            assert lower.top() - upper.bottom() >= 0.25 * glyph, (a, b, lower.top() - upper.bottom(), glyph)


def test_german_rows_are_set_as_large_as_their_height_allows(scene):
    # Presentation mode at 1024 × 768: 15.6-pt labels, 13-px rows. Fitted to 0.95 of a line they came
    # out at 8.5 pt; on their ink they read larger, and still clear of each other.
    axis = _axis(scene, "left", DE_ROWS, 13.1, 15.6)
    drawn = _drawn(axis)
    assert len(drawn) == len(DE_ROWS)
    assert axis.label_font().pointSizeF() >= 9.0
    for (_, upper), (_, lower) in zip(drawn, drawn[1:]):
        assert lower.top() - upper.bottom() >= 1.0


def test_short_chinese_keys_stand_upright_where_the_columns_allow(scene):
    # 25-px columns at 12 pt (the Step tab's decoder map at 1024 × 768): "坐在" is 32 px wide, which the
    # old rule (the widest key + 6 px in every column) turned to 45°.
    axis = _axis(scene, "bottom", ZH_KEYS, 25.1, 12)
    drawn = _drawn(axis)
    assert axis.last_angle == 0 and axis.last_stride == 1
    assert axis.label_font().pointSizeF() >= 9.0  # smaller, but not a smudge
    for (a, left), (b, right) in zip(drawn, drawn[1:]):
        assert right.left() - left.right() >= 2, (a, b)


def test_long_latin_keys_still_slant(scene):
    axis = _axis(scene, "bottom", ["Unfortunately", "nobody", "knows"], 25.1, 12)
    axis.generateDrawSpecs(None)
    assert axis.last_angle in (45, 90)


def _font(points: float) -> QtGui.QFont:
    font = QtGui.QFont()
    font.setPointSizeF(points)
    return font


def test_keys_that_stood_upright_keep_to_it_a_little_longer_than_they_take_it(scene):
    # The map's height and width answer the keys' angle (see TokenAxis._fits_upright): with one
    # threshold they flipped a frame at a time at 1024 × 768 under the formula dock.
    keys = ["The", "weather", "is", "nice", "today", "and"]
    axis = _axis(scene, "bottom", keys, cell=200, points=11)
    metrics = QtGui.QFontMetricsF(axis._font)
    widths = [metrics.horizontalAdvance(s) for s in keys]
    tightest = max((a + b) / 2 for a, b in zip(widths, widths[1:]))  # the cell two keys just touch at

    def angle_at(cell: float) -> int:
        axis.setGeometry(QtCore.QRectF(QtCore.QPointF(200, 100), QtCore.QSizeF(cell * len(keys), 120)))
        axis.generateDrawSpecs(None)
        return axis.last_angle

    between = tightest + 4.5  # a gap of 4.5 px: more than KEPT_KEY_GAP, less than KEY_GAP
    assert angle_at(200) == 0
    assert angle_at(between) == 0  # upright already: it stays
    assert angle_at(tightest + 2) != 0  # under KEPT_KEY_GAP: it slants
    assert angle_at(between) != 0  # slanted: it waits for the full gap …
    assert angle_at(tightest + 6.5) == 0  # … and stands up with it
    axis.set_labels(keys[::-1])  # new keys earn it afresh
    assert angle_at(between) != 0
