"""The "model view": every layer × head of one attention kind as small thumbnails.

All thumbnails are coloured into one RGBA mosaic and shown by a single ImageItem: with 6 × 16 heads
that is one texture upload instead of 96 items to lay out, which keeps a redraw far below 100 ms.
Each tile (plus its share of the gap) spans one unit of view space, so tile (layer, head) is centred on
the integer point (head, layer) and the "L1…"/"H1…" labels are ordinary integer ticks.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets
from PySide6.QtCore import Signal

from explorer.attention.mask_overlay import MASK_FILL, highlight_box
from explorer.attention.removed_tiles import RemovedMarks, paint_removed
from explorer.attention.token_axis import TokenAxis
from explorer.ui.colormaps import DEFAULT_COLORMAP, map_to_rgba
from explorer.ui.i18n import tr
from explorer.ui.plain_axes import plain_axes
from explorer.ui.plot_titles import BASE_POINT_SIZE, set_fitted_title
from explorer.ui.premultiplied_image import PremultipliedImageItem

SELECTION_COLOR = "#ff3b30"


class HeadGridView(QtWidgets.QWidget):
    """Rows are layers, columns are heads; click a thumbnail to open it (``head_clicked``)."""

    head_clicked = Signal(int, int)  # (layer, head), 0-based
    head_menu_requested = Signal(int, int, object)  # (layer, head), the QPoint (global) of a right-click

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._maps = np.zeros((0, 0, 0, 0), dtype=np.float32)
        self._masked: np.ndarray | None = None
        self._removed: set[tuple[int, int]] = set()  # ablated heads (layer, head): drawn as removed
        self._cmap_name = DEFAULT_COLORMAP
        self._selected: tuple[int, int | None] | None = None
        self._gap = (0, 0)
        self._title, self._font_scale = "", 1.0

        self.canvas = pg.GraphicsLayoutWidget()
        self._left = TokenAxis("left")
        self._top = TokenAxis("top")
        self.plot = self.canvas.addPlot(row=0, col=0, axisItems={"left": self._left, "top": self._top},
                                       enableMenu=False)
        plain_axes(self.plot)
        self.plot.showAxis("top")
        self.plot.hideAxis("bottom")
        self.plot.invertY(True)
        self.plot.hideButtons()
        self.plot.vb.setMouseEnabled(False, False)  # thumbnails are for overview and clicking
        self.image = PremultipliedImageItem(axisOrder="row-major")
        self.plot.addItem(self.image)
        self._outline = highlight_box(SELECTION_COLOR, 10)
        self.plot.addItem(self._outline)
        self._removed_marks = RemovedMarks(self.plot)
        self.canvas.scene().sigMouseClicked.connect(self._on_mouse_clicked)
        self.canvas.scene().sigMouseMoved.connect(self._on_mouse_moved)
        self.canvas.installEventFilter(self)  # the pointer leaving the plot resets the read-out

        self.readout = QtWidgets.QLabel("Click a head to open it")
        self.readout.setTextFormat(QtCore.Qt.TextFormat.PlainText)
        self.readout.setContentsMargins(8, 2, 8, 4)
        self.readout.setWordWrap(True)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.canvas, 1)
        layout.addWidget(self.readout)
        palette = self.palette()
        text = palette.color(QtGui.QPalette.ColorRole.WindowText)
        self.canvas.setBackground(palette.color(QtGui.QPalette.ColorRole.Base))
        for axis in (self._left, self._top):
            axis.setPen(text)
            axis.setTextPen(text)
        self._text_color = text
        self.set_font_scale(1.0)

    # ----------------------------------------------------------------------------------- public API
    def set_maps(self, arr, masked=None, title: str = "") -> None:
        """Show ``arr`` (L, H, Q, K); ``masked`` (Q, K) marks the cells no head may attend to."""
        arr = np.asarray(arr, dtype=np.float32)
        if arr.ndim != 4:
            raise ValueError(f"expected (L, H, Q, K) maps, got shape {arr.shape}")
        self._maps = arr
        self._masked = None if masked is None else np.asarray(masked, dtype=bool)
        n_layers, n_heads = arr.shape[:2]
        self._left.set_labels([f"L{i + 1}" for i in range(n_layers)])
        self._top.set_labels([f"H{i + 1}" for i in range(n_heads)])
        self._title = title
        self._apply_title()
        self._render()
        self.plot.vb.setRange(xRange=(-0.5, n_heads - 0.5), yRange=(-0.5, n_layers - 0.5), padding=0.01)
        if self._selected is not None:
            self.set_selected(*self._selected)

    def set_removed(self, heads) -> None:
        """Draw these (layer, head) tiles as removed (ablated) instead of with their maps."""
        heads = {(int(a), int(b)) for a, b in heads}
        if heads != self._removed:
            self._removed = heads
            self._render()

    def removed(self) -> set[tuple[int, int]]:
        return set(self._removed)

    def set_selected(self, layer: int, head: int | None) -> None:
        """Outline one thumbnail, or the whole layer when ``head`` is None (mean over heads)."""
        self._selected = (layer, head)
        n_layers, n_heads = self._maps.shape[:2]
        if not (0 <= layer < n_layers) or (head is not None and not 0 <= head < n_heads):
            self._outline.hide()
            return
        if head is None:
            rect = QtCore.QRectF(-0.5, layer - 0.5, n_heads, 1.0)
        else:
            rect = self._tile_rect(layer, head)
        self._outline.setRect(rect)
        self._outline.show()

    def selected(self) -> tuple[int, int | None] | None:
        return self._selected

    def set_colormap(self, name: str) -> None:
        self._cmap_name = name
        self._render()

    def set_font_scale(self, f: float) -> None:
        self._font_scale = max(0.5, float(f))
        font = QtGui.QFont(self.font())
        font.setPointSizeF(BASE_POINT_SIZE * self._font_scale)
        self._apply_title()
        for axis in (self._left, self._top):
            axis.set_font(font)
        self.readout.setFont(font)

    def set_title(self, title: str) -> None:
        if title != self._title:
            self._title = title
            self._apply_title()

    def title(self) -> str:
        return self._title

    def fit_titles(self) -> None:
        """Fit the title to the canvas' current size now (normally done after each resize)."""
        self._apply_title()

    def _apply_title(self) -> None:
        set_fitted_title(self.plot, self._title, self._text_color.name(), BASE_POINT_SIZE * 1.3 * self._font_scale,
                         self.canvas.width())

    def thumbnail_array(self, layer: int, head: int) -> np.ndarray:
        """The values coloured into tile (layer, head): the weights, NaN where masked."""
        tile = self._maps[layer, head].copy()
        if self._masked is not None:
            tile[self._masked] = np.nan
        return tile

    def mosaic_rgba(self) -> np.ndarray:
        """The RGBA image the ImageItem shows (rows: layers × (Q + gap), cols: heads × (K + gap))."""
        return np.asarray(self.image.image).copy()

    def tile_at_scene_pos(self, scene_pos) -> tuple[int, int] | None:
        """(layer, head) of the thumbnail under a scene position, or None."""
        if not self.plot.vb.sceneBoundingRect().contains(scene_pos):
            return None
        point = self.plot.vb.mapSceneToView(scene_pos)
        layer, head = int(np.floor(point.y() + 0.5)), int(np.floor(point.x() + 0.5))
        n_layers, n_heads = self._maps.shape[:2]
        return (layer, head) if 0 <= layer < n_layers and 0 <= head < n_heads else None

    def scene_pos_of_tile(self, layer: int, head: int) -> QtCore.QPointF:
        return self.plot.vb.mapViewToScene(QtCore.QPointF(head, layer))

    # ------------------------------------------------------------------------------------- internals
    def _render(self) -> None:
        n_layers, n_heads, q, k = self._maps.shape
        if n_layers == 0 or q == 0 or k == 0:
            self.image.clear()
            return
        # An even gap of ~12 % of a tile, split equally on both sides, keeps tiles centred on integers.
        gq, gk = 2 * max(1, round(0.06 * q)), 2 * max(1, round(0.06 * k))
        self._gap = (gq, gk)
        tiles = np.array(self._maps, dtype=np.float32, copy=True)
        masked = np.zeros((q, k), bool) if self._masked is None else self._masked
        tiles[:, :, masked] = 2.0  # a sentinel outside [0, 1], painted grey below
        pad = ((0, 0), (0, 0), (gq // 2, gq // 2), (gk // 2, gk // 2))
        tiles = np.pad(tiles, pad, constant_values=np.nan)
        mosaic = tiles.transpose(0, 2, 1, 3).reshape(n_layers * (q + gq), n_heads * (k + gk))
        rgba = map_to_rgba(np.where(mosaic > 1.5, 0.0, mosaic), self._cmap_name)
        rgba[mosaic > 1.5] = (MASK_FILL.red(), MASK_FILL.green(), MASK_FILL.blue(), 255)
        n_removed = {(a, b) for a, b in self._removed if a < n_layers and b < n_heads}
        paint_removed(rgba, n_removed, (q + gq, k + gk), (gq // 2, gk // 2), (q, k))
        self._removed_marks.set_tiles(n_removed, 0.5 * k / (k + gk), 0.5 * q / (q + gq))
        self.image.setImage(rgba, autoLevels=False)
        self.image.setRect(QtCore.QRectF(-0.5, -0.5, n_heads, n_layers))

    def _tile_rect(self, layer: int, head: int) -> QtCore.QRectF:
        # The outline sits in the gap around the tile, so it never hides a cell.
        _, _, q, k = self._maps.shape
        gq, gk = self._gap
        w, h = k / (k + gk), q / (q + gq)
        pad_x, pad_y = 0.25 * gk / (k + gk), 0.25 * gq / (q + gq)
        return QtCore.QRectF(head - w / 2 - pad_x, layer - h / 2 - pad_y, w + 2 * pad_x, h + 2 * pad_y)

    def _on_mouse_clicked(self, event) -> None:
        tile = self.tile_at_scene_pos(event.scenePos())
        if tile is None:
            return
        if event.button() == QtCore.Qt.MouseButton.RightButton:  # the ablation menu (explorer/translate/ablation.py)
            self.head_menu_requested.emit(*tile, event.screenPos().toPoint())
            return
        self.set_selected(*tile)
        self.head_clicked.emit(*tile)

    def eventFilter(self, watched, event) -> bool:  # Qt override
        if watched is self.canvas and event.type() == QtCore.QEvent.Type.Leave:
            self.readout.setText(tr("Click a head to open it"))
        elif watched is self.canvas and event.type() == QtCore.QEvent.Type.Resize:
            # After the canvas has laid its plot out: the titles are fitted to the new sizes.
            QtCore.QTimer.singleShot(0, self, self._apply_title)
        return super().eventFilter(watched, event)

    def _on_mouse_moved(self, scene_pos) -> None:
        tile = self.tile_at_scene_pos(scene_pos)
        if tile is None:
            self.readout.setText(tr("Click a head to open it"))
            return
        layer, head = tile
        if tile in self._removed:
            self.readout.setText(tr("Layer {layer}, head {head} — removed (right-click to restore)",
                                    layer=layer + 1, head=head + 1))
            return
        tile_values = self.thumbnail_array(layer, head)
        peak = np.nanmax(tile_values) if np.isfinite(tile_values).any() else 0.0
        self.readout.setText(tr("Layer {layer}, head {head} — max weight {peak:.3f} (click to open, right-click to remove)",  # noqa: E501
                                layer=layer + 1, head=head + 1, peak=float(peak)))
