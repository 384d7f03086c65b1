"""A hatched grey overlay for masked matrix cells.

A masked cell (the causal future of decoder self-attention) holds a weight of exactly 0, but it is not
"attention of 0": the model was forbidden to look there. Drawing it in the colour map's colour for 0
would blur that difference, so masked cells get a neutral grey with diagonal hatching that no
sequential colour map can produce. The hatch is drawn as real lines at a fixed *screen* spacing, so it
stays crisp at any zoom, and it exports to SVG as plain lines (no pattern brushes, no clip paths).
"""

from __future__ import annotations

import math

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

MASK_FILL = QtGui.QColor(205, 205, 205)
MASK_HATCH = QtGui.QColor(120, 120, 120)
_HATCH_SPACING_PX = 7.0


def mask_runs(masked: np.ndarray) -> list[QtCore.QRectF]:
    """Masked cells merged into one rectangle per horizontal run, cells centred on integers."""
    rects = []
    for row in range(masked.shape[0]):
        cols = np.flatnonzero(masked[row])
        if cols.size == 0:
            continue
        # Split the row's masked columns into contiguous runs.
        breaks = np.flatnonzero(np.diff(cols) > 1)
        starts = np.concatenate(([cols[0]], cols[breaks + 1]))
        ends = np.concatenate((cols[breaks], [cols[-1]]))
        for a, b in zip(starts, ends):
            rects.append(QtCore.QRectF(a - 0.5, row - 0.5, b - a + 1.0, 1.0))
    return rects


def highlight_box(color: str, z: float) -> QtWidgets.QGraphicsRectItem:
    """A hidden 3-px outline rectangle above the image (the grid's selected head, the step view's current
    row); cosmetic, so it keeps its width at any zoom. Callers place it with ``setRect`` and show it."""
    box = QtWidgets.QGraphicsRectItem()
    pen = QtGui.QPen(QtGui.QColor(color))
    pen.setCosmetic(True)
    pen.setWidthF(3.0)
    box.setPen(pen)
    box.setZValue(z)
    box.hide()
    return box


class MaskOverlay(QtWidgets.QGraphicsItem):
    """Grey, hatched rectangles over the masked cells of a matrix shown in data coordinates."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._rects: list[QtCore.QRectF] = []
        self._bounds = QtCore.QRectF()

    def set_mask(self, masked: np.ndarray | None) -> None:
        self.prepareGeometryChange()
        self._rects = [] if masked is None else mask_runs(np.asarray(masked, dtype=bool))
        bounds = QtCore.QRectF()
        for rect in self._rects:
            bounds = bounds.united(rect)
        self._bounds = bounds
        self.update()

    def rects(self) -> list[QtCore.QRectF]:
        return list(self._rects)

    def boundingRect(self) -> QtCore.QRectF:  # Qt override
        return self._bounds

    def paint(self, painter: QtGui.QPainter, option, widget=None) -> None:  # Qt override
        if not self._rects:
            return
        painter.setPen(QtCore.Qt.PenStyle.NoPen)
        painter.setBrush(MASK_FILL)
        for rect in self._rects:
            painter.drawRect(rect)
        # Lines x + y = c in data units; pick the step in c that gives a constant pixel spacing.
        scale = math.hypot(painter.transform().m11(), painter.transform().m12())
        step = _HATCH_SPACING_PX * math.sqrt(2.0) / max(scale, 1e-6)
        pen = QtGui.QPen(MASK_HATCH)
        pen.setCosmetic(True)
        pen.setWidthF(1.0)
        painter.setPen(pen)
        painter.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing, True)
        lines = []
        for rect in self._rects:
            x0, x1, y0, y1 = rect.left(), rect.right(), rect.top(), rect.bottom()
            k = math.ceil((x0 + y0) / step)
            while k * step <= x1 + y1:
                c = k * step
                xa, xb = max(x0, c - y1), min(x1, c - y0)
                if xa < xb:
                    lines.append(QtCore.QLineF(xa, c - xa, xb, c - xb))
                k += 1
        painter.drawLines(lines)
