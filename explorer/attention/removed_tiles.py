"""How the All heads grid draws a removed (ablated) head: grey with hatching, a cross and "removed".

A removed head contributes nothing to the translation, and its map holds zeros rather than weights.
Drawn in the colour map, those zeros would read as "this head attends nowhere"; the hatched grey is
the same neutral the causal mask uses for "not attention at all", and the cross and word say why.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from explorer.attention.mask_overlay import MASK_FILL, MASK_HATCH
from explorer.ui.i18n import N_, tr

CROSS_COLOR = QtGui.QColor(200, 40, 40)
REMOVED_WORD = N_("removed")  # said in the window's language when the tiles are drawn


def paint_removed(rgba: np.ndarray, removed, tile: tuple[int, int], pad: tuple[int, int],
                  size: tuple[int, int]) -> None:
    """Overwrite each removed tile of the grid's RGBA mosaic, in place, with hatched grey.

    tile: pixels per tile including its gap (rows, cols); pad: the gap before the cells; size: cells.
    """
    (th, tw), (pq, pk), (q, k) = tile, pad, size
    yy, xx = np.mgrid[0:q, 0:k]
    # A diagonal stripe every 4 cells (at least one line per tile even for tiny maps).
    step = max(2, min(q, k) // 3)
    hatch = (yy + xx) % step == 0
    fill = np.array([MASK_FILL.red(), MASK_FILL.green(), MASK_FILL.blue(), 255], np.uint8)
    line = np.array([MASK_HATCH.red(), MASK_HATCH.green(), MASK_HATCH.blue(), 255], np.uint8)
    for layer, head in removed:
        y0, x0 = layer * th + pq, head * tw + pk
        block = rgba[y0:y0 + q, x0:x0 + k]
        block[...] = fill
        block[hatch] = line


class RemovedMarks(QtWidgets.QGraphicsItem):
    """A red cross over each removed tile (view coordinates: tile (layer, head) centred on (head, layer))
    and the word "removed" under it, at a fixed screen size."""

    def __init__(self, plot: pg.PlotItem) -> None:
        super().__init__()
        self._plot = plot
        self._tiles: list[tuple[int, int]] = []
        self._half = (0.4, 0.4)
        self._labels: list[pg.TextItem] = []
        self.setZValue(5)
        plot.addItem(self)

    def set_tiles(self, tiles, half_w: float, half_h: float) -> None:
        """Mark ``tiles`` [(layer, head)]; half_w/half_h: half a tile's cells in view units."""
        self.prepareGeometryChange()
        self._tiles, self._half = sorted(tiles), (half_w, half_h)
        for label in self._labels:
            self._plot.removeItem(label)
        self._labels = []
        for layer, head in self._tiles:
            label = pg.TextItem(tr(REMOVED_WORD), color=CROSS_COLOR, anchor=(0.5, 0.5),
                                fill=pg.mkBrush(255, 255, 255, 210))
            label.setPos(head, layer)
            label.setZValue(6)
            self._plot.addItem(label)
            self._labels.append(label)
        self.update()

    def tiles(self) -> list[tuple[int, int]]:
        return list(self._tiles)

    def labels(self) -> list[str]:
        return [label.textItem.toPlainText() for label in self._labels]

    def boundingRect(self) -> QtCore.QRectF:  # Qt override
        if not self._tiles:
            return QtCore.QRectF()
        heads = [h for _, h in self._tiles]
        layers = [layer for layer, _ in self._tiles]
        return QtCore.QRectF(min(heads) - 0.5, min(layers) - 0.5, max(heads) - min(heads) + 1,
                             max(layers) - min(layers) + 1)

    def paint(self, painter: QtGui.QPainter, option, widget=None) -> None:  # Qt override
        pen = QtGui.QPen(CROSS_COLOR)
        pen.setCosmetic(True)
        pen.setWidthF(2.0)
        painter.setPen(pen)
        painter.setRenderHint(QtGui.QPainter.RenderHint.Antialiasing, True)
        w, h = self._half
        for layer, head in self._tiles:
            painter.drawLine(QtCore.QLineF(head - w, layer - h, head + w, layer + h))
            painter.drawLine(QtCore.QLineF(head - w, layer + h, head + w, layer - h))
