"""The numbers written in a heatmap's cells, as one graphics item that draws them all.

One pyqtgraph ``TextItem`` a cell cost a head switch over an 11-piece sentence ~90 ms, and ~34 ms even
with the items reused: Qt laid out a text document for each of the 121 numbers and pyqtgraph placed
each again on every change. Here a redraw is a list of strings and one paint pass of ``drawText`` calls.

The numbers are drawn in screen pixels at each cell's centre, whatever the view's scale (as a
``TextItem`` is), so a number keeps its point size when the map is stretched or zoomed.
"""

from __future__ import annotations

import math

from PySide6 import QtCore, QtGui, QtWidgets

# Room around a number's centre for drawText to centre it in; wider than any cell number ("0.00").
_HALF_BOX = 200.0


class CellNumbers(QtWidgets.QGraphicsObject):
    """Cell numbers of a rows × cols map whose cell (row, col) is centred on (col, row), as the heatmap's
    image is laid out."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._cells: list[tuple[int, int, str, QtGui.QColor]] = []
        self._font = QtGui.QFont()
        self._rect = QtCore.QRectF()
        self.setAcceptedMouseButtons(QtCore.Qt.MouseButton.NoButton)  # clicks and hovers are the map's
        self.setAcceptHoverEvents(False)

    def set_cells(self, cells: list[tuple[int, int, str, QtGui.QColor]], font: QtGui.QFont,
                  rows: int, cols: int) -> None:
        """Draw ``cells`` as (row, col, text, colour) in ``font``, over a rows × cols map."""
        self.prepareGeometryChange()
        self._cells = list(cells)
        self._font = QtGui.QFont(font)
        self._rect = QtCore.QRectF(-0.5, -0.5, cols, rows)
        self.update()

    def clear(self) -> None:
        if self._cells:
            self.set_cells([], self._font, 0, 0)

    def cells(self) -> list[tuple[int, int, str, QtGui.QColor]]:
        return list(self._cells)

    def texts(self) -> list[str]:
        return [text for _r, _c, text, _color in self._cells]

    def font(self) -> QtGui.QFont:
        return QtGui.QFont(self._font)

    # --------------------------------------------------------------------------- QGraphicsItem
    def boundingRect(self) -> QtCore.QRectF:
        return QtCore.QRectF(self._rect)

    def dataBounds(self, axis, frac=1.0, orthoRange=None):
        """None: the numbers never widen the view's auto range (the image sets it)."""
        return None

    def paint(self, painter: QtGui.QPainter, option, widget=None) -> None:
        if not self._cells:
            return
        to_device = painter.transform()
        scale = self._export_scale(to_device)
        painter.save()
        painter.resetTransform()  # text in pixels, not stretched with the cells ...
        painter.scale(scale, scale)  # ... but enlarged with the rest of an export drawn larger
        painter.setFont(self._font)
        painter.setRenderHint(QtGui.QPainter.RenderHint.TextAntialiasing, True)
        centre = QtCore.Qt.AlignmentFlag.AlignCenter
        pen_color = None
        for row, col, text, color in self._cells:
            if color != pen_color:
                painter.setPen(color)
                pen_color = color
            at = to_device.map(QtCore.QPointF(col, row)) / scale
            painter.drawText(QtCore.QRectF(at.x() - _HALF_BOX, at.y() - _HALF_BOX, 2 * _HALF_BOX, 2 * _HALF_BOX),
                             centre, text)
        painter.restore()

    def _export_scale(self, to_device: QtGui.QTransform) -> float:
        """How much larger than on screen the painter draws: 1 in the view, the exporter's factor when
        pyqtgraph renders the scene into a larger image (the axes' text grows with it; so do these)."""
        views = self.scene().views() if self.scene() is not None else []
        if not views:
            return 1.0
        on_screen, ok = self.deviceTransform(views[0].viewportTransform()).inverted()
        if not ok:
            return 1.0
        extra = on_screen * to_device  # screen pixels → the painter's pixels
        return math.hypot(extra.m11(), extra.m12()) or 1.0
