"""TokenAxis paints nothing outside its boundingRect().

QGraphicsView repaints only an item's bounding rectangle when the item changes or moves. The axis asks
for the room its labels need while it paints them (pyqtgraph's way), so the first picture after new
labels is drawn into the old, smaller geometry: slanted or upright keys ran below the axis, long row
labels left of it, a bold (emphasised) label past both. On a real screen that ink stayed behind as
glyph fragments after the layout had moved on; ``grab()`` repaints everything and never showed them.
"""

from __future__ import annotations

import numpy as np
import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from explorer.attention.token_axis import TokenAxis

KEYS = ["Unfortunately", "nobody", "knows", "where", "he", "went", ".", "</s>"]
PAD = 400  # px of canvas around the axis' bounding rectangle, to catch ink outside it


def _ink(axis: TokenAxis) -> tuple[QtCore.QRectF, QtCore.QRectF]:
    """(boundingRect, bounds of the pixels the axis paints), in the axis' coordinates."""
    bounds = axis.boundingRect()
    image = QtGui.QImage(int(bounds.width()) + 2 * PAD, int(bounds.height()) + 2 * PAD,
                         QtGui.QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(0)
    painter = QtGui.QPainter(image)
    painter.translate(PAD - bounds.left(), PAD - bounds.top())
    axis.paint(painter, QtWidgets.QStyleOptionGraphicsItem(), None)
    painter.end()
    alpha = np.frombuffer(image.constBits(), np.uint32).reshape(image.height(), image.width()) >> 24
    ys, xs = np.nonzero(alpha)
    assert xs.size, "the axis painted nothing"
    ink = QtCore.QRectF(xs.min() - PAD + bounds.left(), ys.min() - PAD + bounds.top(),
                        xs.max() - xs.min() + 1, ys.max() - ys.min() + 1)
    return bounds, ink


@pytest.fixture
def scene(qapp):
    return QtWidgets.QGraphicsScene()  # the axis' owner: it lives as long as the test


def _axis(scene, orientation: str, size: QtCore.QSizeF, labels: list[str]) -> TokenAxis:
    """An axis with the geometry it had before ``labels`` arrived: it has not been laid out again yet."""
    axis = TokenAxis(orientation)
    scene.addItem(axis)
    axis.setGeometry(QtCore.QRectF(QtCore.QPointF(300, 100), size))
    axis.setRange(-0.5, len(labels) - 0.5)
    font = QtGui.QFont()
    font.setPointSizeF(12)
    axis.set_font(font)
    axis.set_labels(labels)
    return axis


@pytest.mark.parametrize("width, angle", [(220, 45), (90, 90)])
def test_slanted_and_upright_keys_stay_inside_the_bounding_rect(scene, width, angle):
    # Laid out for short labels (the height horizontal ones need), then given long keys: 45° at 220 px,
    # upright at 90 px. The first picture is drawn before the axis has grown to their length.
    axis = _axis(scene, "bottom", QtCore.QSizeF(width, 30), KEYS)
    bounds, ink = _ink(axis)
    assert axis.last_angle == angle
    assert bounds.contains(ink), (bounds, ink)


@pytest.mark.parametrize("highlight", [None, 1])
def test_row_labels_stay_inside_the_bounding_rect(scene, highlight):
    # A row label longer than the axis is wide (a longer piece arrived at this step), plain and emphasised.
    axis = _axis(scene, "left", QtCore.QSizeF(40, 200), ["<s>", "Unfortunately", "he"])
    axis.set_highlight(highlight)  # 1: "Unfortunately"
    bounds, ink = _ink(axis)
    assert bounds.contains(ink), (bounds, ink)


def test_an_emphasised_slanted_key_stays_inside_the_bounding_rect(scene):
    # Bold and 15 % wider: the hovered (or formula-marked) key hangs further left and down than plain.
    axis = _axis(scene, "bottom", QtCore.QSizeF(220, 30), KEYS)
    axis.set_highlight(0)
    bounds, ink = _ink(axis)
    assert axis.last_angle == 45
    assert bounds.contains(ink), (bounds, ink)


def test_new_labels_announce_the_larger_bounding_rect(scene, monkeypatch):
    # Qt must learn of the larger rectangle before it changes, or it repaints only the old one.
    axis = _axis(scene, "bottom", QtCore.QSizeF(220, 30), ["a", "b"])
    before = axis.boundingRect()
    calls = []
    original = axis.prepareGeometryChange
    monkeypatch.setattr(axis, "prepareGeometryChange", lambda: (calls.append(axis.boundingRect()), original()))
    axis.set_labels(KEYS)
    assert calls and calls[0] == before
    assert axis.boundingRect().height() > before.height()
