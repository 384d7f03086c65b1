"""One large, labelled attention heatmap with a colour bar and a hover read-out.

Its parts, one job a file: the pointer and the marked cell (heatmap_pointer.py), the titles fitted to the
plot (heatmap_titles.py), the weights written in the cells (heatmap_numbers.py).

Rows are queries and columns are keys, as in the paper's softmax(QKᵀ/√d_k): row i is the distribution
query i spreads over the keys. Cell (i, j) is centred on the integer point (j, i) so that token i's tick
sits in the middle of its row, and the y axis runs downwards like a printed matrix.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets
from PySide6.QtCore import Signal

from explorer.attention.cell_numbers import CellNumbers
from explorer.attention.heatmap_numbers import CELL_NUMBERS_MAX, HeatmapNumbers
from explorer.attention.heatmap_pointer import HeatmapPointer
from explorer.attention.heatmap_titles import HeatmapTitles
from explorer.attention.mask_overlay import MaskOverlay
from explorer.attention.token_axis import TokenAxis
from explorer.attention.tokens import display_piece, elide
from explorer.ui.colormaps import DEFAULT_COLORMAP, get_colormap
from explorer.ui.plain_axes import plain_axes
from explorer.ui.plot_titles import BASE_POINT_SIZE, axis_noun
from explorer.ui.premultiplied_image import PremultipliedImageItem

# The canvas' least height in lines of its text: the title, the slanted key labels, the axis title and
# rows still tall enough to tell apart. Without it a dock under the maps (the formula walkthrough) at a
# zoomed font squeezed the map to ~35 px, where the numbers overprinted and the colour bar's labels
# piled up; with it the dock gives the height up and scrolls. The attention panel's Head view asks
# for it; views that share a tab with others (training, compare) keep 0.
MIN_CANVAS_LINES = 10


class HeatmapView(HeatmapPointer, HeatmapTitles, HeatmapNumbers, QtWidgets.QWidget):
    """A (rows, cols) matrix of weights in [0, 1] as a heatmap with token labels on both axes.

    :meth:`displayed_array` is exactly the float32 array given to the ImageItem: the source values,
    with masked cells replaced by NaN (pyqtgraph leaves NaN transparent; a hatched grey overlay is
    drawn on top of those cells so they never look like a weight of 0).
    """

    hovered = Signal(str)
    cell_clicked = Signal(int, int)  # row (query), column (key): the formula walkthrough follows it
    # Settings a view that holds this one may change (class-level defaults, so they are part of the class):
    cell_numbers_max = CELL_NUMBERS_MAX  # a view sharing its width with others may ask for fewer
    min_canvas_lines = 0  # the canvas' least height in text lines (see MIN_CANVAS_LINES)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._values = np.zeros((0, 0), dtype=np.float32)
        self._displayed = np.zeros((0, 0), dtype=np.float32)
        self._masked = np.zeros((0, 0), dtype=bool)
        self._raw_rows: list[str] = []
        self._raw_cols: list[str] = []
        self._row_noun, self._col_noun = "query", "key"
        self._cmap_name = DEFAULT_COLORMAP
        self._font_scale = 1.0
        self._hover_cell: tuple[int, int] | None = None
        self._titles = ("", "Query", "Key")
        self._axis_labels: tuple | None = None  # what _apply_titles last gave the axes
        self._number_style: tuple[float, bool] | None = None  # (point size, compact) of the numbers; None: none fit

        self.canvas = pg.GraphicsLayoutWidget()
        self._left = TokenAxis("left")
        self._bottom = TokenAxis("bottom")
        # enableMenu=False at construction, not setMenuEnabled(False) after: pyqtgraph then never builds
        # the menus at all (a third of a plot's cost; a window has ~30 plots).
        self.plot = self.canvas.addPlot(row=0, col=0, axisItems={"left": self._left, "bottom": self._bottom},
                                       enableMenu=False)
        self.plot.invertY(True)
        self.plot.hideButtons()
        self.plot.vb.setAspectLocked(False)
        self.image = PremultipliedImageItem(axisOrder="row-major")
        self.plot.addItem(self.image)
        self.mask_overlay = MaskOverlay()
        self.mask_overlay.setZValue(5)
        self.plot.addItem(self.mask_overlay)
        self.cell_numbers = CellNumbers()  # one item draws them all (explorer/attention/cell_numbers.py)
        self.cell_numbers.setZValue(6)
        self.plot.addItem(self.cell_numbers)
        self._hover_box = QtWidgets.QGraphicsRectItem()
        self._hover_box.setZValue(10)
        pen = QtGui.QPen(QtGui.QColor("#ff3b30"))
        pen.setCosmetic(True)
        pen.setWidthF(2.0)
        self._hover_box.setPen(pen)
        self._hover_box.hide()
        self.plot.addItem(self._hover_box)
        # The cell the formula dock works on: white inside black, to be seen on every colour map and
        # not to be taken for the red hover box.
        self._marked_cell: tuple[int, int] | None = None
        self._mark_boxes = []
        for color, width in (("#000000", 5.0), ("#ffffff", 2.0)):
            box = QtWidgets.QGraphicsRectItem()
            box.setZValue(9)
            pen = QtGui.QPen(QtGui.QColor(color))
            pen.setCosmetic(True)
            pen.setWidthF(width)
            box.setPen(pen)
            box.hide()
            self.plot.addItem(box)
            self._mark_boxes.append(box)
        self.color_bar = pg.ColorBarItem(
            values=(0.0, 1.0), colorMap=get_colormap(self._cmap_name), interactive=False,
            colorMapMenu=False, width=18,
        )
        self.color_bar.setImageItem(self.image, insert_in=self.plot)
        plain_axes(self.plot, self.color_bar)
        self.canvas.scene().sigMouseMoved.connect(self.on_mouse_moved)
        # Cells change size with the window, a splitter, the presentation font or a held frame: the
        # numbers are fitted to them again (narrow Compare maps overprinted "0.000.000.00").
        self.plot.vb.sigResized.connect(self._refit_cell_numbers)
        # The titles run along the plot: fitted again when it has its size (it takes it after the canvas'
        # resize, and a split with a dock changes it without one; a zoomed title stayed cut otherwise).
        self.plot.vb.sigResized.connect(self._apply_titles)
        self.plot.vb.sigRangeChanged.connect(self._refit_cell_numbers)
        # pyqtgraph reports moves only inside the scene; leaving the plot must clear the hover too,
        # or the last cell stays boxed and read out after the pointer has gone.
        self.canvas.installEventFilter(self)
        self.canvas.scene().sigMouseClicked.connect(self._on_mouse_clicked)

        self.readout = QtWidgets.QLabel(" ")
        # Plain text: as rich text, Qt would read the piece "<s>" as a strike-through tag.
        self.readout.setTextFormat(QtCore.Qt.TextFormat.PlainText)
        self.readout.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        self.readout.setContentsMargins(8, 2, 8, 4)
        self.readout.setWordWrap(True)
        layout.addWidget(self.canvas, 1)
        layout.addWidget(self.readout)
        self._apply_palette()
        self.set_font_scale(1.0)

    # ----------------------------------------------------------------------------------- public API
    def set_matrix(self, values, row_labels, col_labels, masked=None, title: str = "",
                   row_title: str = "Query", col_title: str = "Key") -> None:
        """Show ``values`` (rows, cols); ``masked`` marks cells the model could not attend to."""
        values = np.asarray(values, dtype=np.float32)
        if values.ndim != 2 or values.shape != (len(row_labels), len(col_labels)):
            raise ValueError(f"values {values.shape} do not match {len(row_labels)}×{len(col_labels)} labels")
        masked = np.zeros(values.shape, bool) if masked is None else np.asarray(masked, dtype=bool)
        if masked.shape != values.shape:
            raise ValueError(f"mask {masked.shape} does not match values {values.shape}")
        self._values, self._masked = values.copy(), masked
        self._displayed = np.where(masked, np.float32(np.nan), values).astype(np.float32)
        self._raw_rows, self._raw_cols = [str(s) for s in row_labels], [str(s) for s in col_labels]
        self._row_noun, self._col_noun = axis_noun(row_title), axis_noun(col_title)
        rows, cols = values.shape

        self.image.setImage(self._displayed, autoLevels=False, levels=(0.0, 1.0))
        self.image.setRect(QtCore.QRectF(-0.5, -0.5, cols, rows))
        self.mask_overlay.set_mask(masked)
        self._left.set_labels([elide(display_piece(s)) for s in self._raw_rows])
        self._bottom.set_labels([elide(display_piece(s)) for s in self._raw_cols])
        self._titles = (title, row_title, col_title)
        self._apply_titles()
        self.set_frame(rows, cols)
        self._rebuild_cell_numbers()
        self._set_hover(None)
        self._place_mark()

    def add_overlay(self, item) -> None:
        """Draw a graphics item over the map, in cell coordinates (cell (r, c) is centred on x=c, y=r)."""
        self.plot.addItem(item)

    def set_frame(self, rows: int, cols: int) -> None:
        """Show exactly ``rows`` × ``cols`` cells, no panning past them; the step view keeps the finished
        translation's frame while its rows arrive."""
        self.plot.vb.setLimits(xMin=-0.5, xMax=cols - 0.5, yMin=-0.5, yMax=rows - 0.5)
        self.plot.vb.setRange(xRange=(-0.5, cols - 0.5), yRange=(-0.5, rows - 0.5), padding=0)

    def set_colormap(self, name: str) -> None:
        self._cmap_name = name
        self.color_bar.setColorMap(get_colormap(name))
        self._rebuild_cell_numbers()

    def colormap_name(self) -> str:
        return self._cmap_name

    def set_font_scale(self, f: float) -> None:
        """Scale every text (labels, titles, read-out); 1.5–2 suits a projector."""
        self._font_scale = max(0.5, float(f))
        font = QtGui.QFont(self.font())
        font.setPointSizeF(BASE_POINT_SIZE * self._font_scale)
        for axis in (self._left, self._bottom):
            axis.set_font(font)
        self.color_bar.axis.setStyle(tickFont=font)
        self.color_bar.axis.setWidth(None)  # ColorBarItem fixes 45 px, too narrow for larger text
        self.canvas.setMinimumHeight(round(self.min_canvas_lines * QtGui.QFontMetricsF(font).height()))
        readout_font = QtGui.QFont(font)
        readout_font.setPointSizeF(BASE_POINT_SIZE * 1.1 * self._font_scale)
        self.readout.setFont(readout_font)
        self._apply_titles()
        self._rebuild_cell_numbers()

    def displayed_array(self) -> np.ndarray:
        """The float32 array handed to the ImageItem (NaN where masked); a copy."""
        return self._displayed.copy()

    def masked_array(self) -> np.ndarray:
        return self._masked.copy()

    def row_labels(self) -> list[str]:
        """The tick labels on the left (query) axis, as displayed."""
        return self._left.labels()

    def col_labels(self) -> list[str]:
        """The tick labels on the bottom (key) axis, as displayed."""
        return self._bottom.labels()

    def _apply_palette(self) -> None:
        # Follow the application's palette so the view matches a light or a dark main window.
        palette = self.palette()
        background = palette.color(QtGui.QPalette.ColorRole.Base)
        self._text_color = palette.color(QtGui.QPalette.ColorRole.WindowText)
        self.canvas.setBackground(background)
        for axis in (self._left, self._bottom, self.color_bar.axis):
            axis.setPen(self._text_color)
            axis.setTextPen(self._text_color)
