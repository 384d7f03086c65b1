"""One large, labelled attention heatmap with a colour bar and a hover read-out.

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
from explorer.attention.mask_overlay import MaskOverlay
from explorer.attention.token_axis import TokenAxis
from explorer.attention.tokens import display_piece, elide
from explorer.ui.colormaps import DEFAULT_COLORMAP, get_colormap, map_to_rgba, text_color_for
from explorer.ui.i18n import again, tr
from explorer.ui.plain_axes import plain_axes
from explorer.ui.plot_titles import (
    BASE_POINT_SIZE,
    axis_noun,
    bare_axis_title,
    fitted_axis_title,
    set_fitted_title,
    short_axis_title,
)
from explorer.ui.premultiplied_image import PremultipliedImageItem

CELL_NUMBERS_MAX = 12  # write the weight inside each cell up to this many rows and columns
NUMBER_SHRINK = (1.0, 0.85, 0.7)  # the cell numbers' font, as a fraction of theirs, tried until "0.00" fits
# The two colours text_color_for picks, made once: a redraw names one for each of up to 144 numbers.
_TEXT_COLORS = {name: QtGui.QColor(name) for name in ("#000000", "#ffffff")}
# The canvas' least height in lines of its text: the title, the slanted key labels, the axis title and
# rows still tall enough to tell apart. Without it a dock under the maps (the formula walkthrough) at a
# zoomed font squeezed the map to ~35 px, where the numbers overprinted and the colour bar's labels
# piled up; with it the dock gives the height up and scrolls. The attention panel's Head view asks
# for it; views that share a tab with others (training, compare) keep 0.
MIN_CANVAS_LINES = 10


def cell_text(value: float, compact: bool) -> str:
    """A weight as a cell writes it: "0.43", or in narrow cells ".43" (a weight is never above 1)."""
    text = f"{value:.2f}"
    return text[1:] if compact and text.startswith("0") else (text[:3] if compact else text)


class HeatmapView(QtWidgets.QWidget):
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

    def set_marked_cell(self, cell: tuple[int, int] | None) -> None:
        """Outline (row, col) until told otherwise (None: no mark); a cell outside the matrix shown
        is not drawn, but is kept for the next matrix."""
        self._marked_cell = None if cell is None else (int(cell[0]), int(cell[1]))
        self._place_mark()

    def marked_cell(self) -> tuple[int, int] | None:
        """The outlined cell, if it is drawn on the current matrix."""
        return self._marked_cell if self._mark_boxes[0].isVisible() else None

    def _place_mark(self) -> None:
        rows, cols = self._values.shape
        cell = self._marked_cell
        shown = cell is not None and 0 <= cell[0] < rows and 0 <= cell[1] < cols
        for box in self._mark_boxes:
            if shown:
                box.setRect(QtCore.QRectF(cell[1] - 0.5, cell[0] - 0.5, 1.0, 1.0))
            box.setVisible(shown)
        if self._hover_cell is None:
            self._rest_highlight()

    def _rest_highlight(self) -> None:
        """With no cell under the mouse, the labels of the marked cell (the one the formula dock works)
        stay emphasised: the mouse goes over to the dock, and the map should still say which token is
        meant (a teacher's walk-through found them gone the moment the mouse left the map)."""
        cell = self.marked_cell()
        self._left.set_highlight(None if cell is None else cell[0])
        self._bottom.set_highlight(None if cell is None else cell[1])

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

    def hover_text_at(self, row: int, col: int) -> str:
        """The read-out for cell (row, col), naming the raw pieces; '' outside the matrix."""
        rows, cols = self._values.shape
        if not (0 <= row < rows and 0 <= col < cols):
            return ""
        # The axes' notation (see tokens.py), so the read-out names a piece exactly as the tick does; rows
        # and columns counted from 1, as layers, heads and the formula panel count them (it said "query 4"
        # of the cell this called "row 3").
        head = tr("{row_noun} '{row_piece}' (row {row}) → {col_noun} '{col_piece}' (col {col}): ",
                  row_noun=self._row_noun, row_piece=display_piece(self._raw_rows[row]), row=row + 1,
                  col_noun=self._col_noun, col_piece=display_piece(self._raw_cols[col]), col=col + 1)
        if self._masked[row, col]:
            return head + tr("masked (future position)")
        return head + f"{self._values[row, col]:.4f}"

    def cell_at_scene_pos(self, scene_pos) -> tuple[int, int] | None:
        """(row, col) under a scene position, or None outside the matrix."""
        if not self.plot.vb.sceneBoundingRect().contains(scene_pos):
            return None
        point = self.plot.vb.mapSceneToView(scene_pos)
        row, col = int(np.floor(point.y() + 0.5)), int(np.floor(point.x() + 0.5))
        rows, cols = self._values.shape
        return (row, col) if 0 <= row < rows and 0 <= col < cols else None

    def _on_mouse_clicked(self, event) -> None:
        cell = self.cell_at_scene_pos(event.scenePos())
        if cell is not None:
            self.cell_clicked.emit(*cell)

    def scene_pos_of_cell(self, row: int, col: int) -> QtCore.QPointF:
        """The scene position of a cell's centre (the inverse of :meth:`cell_at_scene_pos`)."""
        return self.plot.vb.mapViewToScene(QtCore.QPointF(col, row))

    # ------------------------------------------------------------------------------------- internals
    def on_mouse_moved(self, scene_pos) -> None:
        """Scene mouse-move handler: update the read-out, the hover box and the axis emphasis."""
        self._set_hover(self.cell_at_scene_pos(scene_pos))

    def eventFilter(self, watched, event) -> bool:  # Qt override
        if watched is self.canvas and event.type() == QtCore.QEvent.Type.Leave:
            self._set_hover(None)
        elif watched is self.canvas and event.type() == QtCore.QEvent.Type.Resize:
            # After the canvas has laid its plot out: the titles are fitted to the new sizes.
            QtCore.QTimer.singleShot(0, self, self._apply_titles)
        return super().eventFilter(watched, event)

    def _set_hover(self, cell: tuple[int, int] | None) -> None:
        if cell == self._hover_cell:
            return
        self._hover_cell = cell
        if cell is None:
            self._hover_box.hide()
            self._rest_highlight()
            self.readout.setText(" ")
            return
        row, col = cell
        self._hover_box.setRect(QtCore.QRectF(col - 0.5, row - 0.5, 1.0, 1.0))
        self._hover_box.show()
        self._left.set_highlight(row)
        self._bottom.set_highlight(col)
        text = self.hover_text_at(row, col)
        self.readout.setText(text)
        self.hovered.emit(text)

    def readable_plot_height(self) -> float:
        """The plot height (px) at which this matrix reads whole at the current type: every row a line of
        the cell numbers at their middle size (so the numbers are drawn and every row is labelled), and
        the query and colour-bar titles, which run up the plot's side, uncut. A window that splits its
        height with a dock asks it (``place_formula_dock``); the canvas' hard minimum stays
        ``min_canvas_lines``, so a user may still drag the map smaller."""
        rows = self._values.shape[0]
        font = QtGui.QFont(self.font())
        font.setPointSizeF(BASE_POINT_SIZE * 0.9 * self._font_scale * NUMBER_SHRINK[1])
        # 2 px a row over the line: the axis' shrunk label font rounds to a line a little taller than
        # its linear estimate, and a row a hair short of it is labelled only every other time.
        cells = rows * (QtGui.QFontMetricsF(font).height() + 2) if 0 < rows <= self.cell_numbers_max else 0.0
        title_font = QtGui.QFont(QtWidgets.QApplication.font())
        title_font.setPointSizeF(BASE_POINT_SIZE * 1.15 * self._font_scale)
        metrics = QtGui.QFontMetricsF(title_font)
        row_title = short_axis_title(again(self._titles[1]))
        titles = max(metrics.horizontalAdvance(row_title), metrics.horizontalAdvance(tr("attention weight")))
        return float(np.ceil(max(cells, titles + 2)))

    def fit_titles(self) -> None:
        """Fit the titles to the canvas' current size now (normally done after each resize)."""
        self._apply_titles()

    def _apply_titles(self) -> None:
        # In the window's language now: a resize after a language switch re-applies the titles kept aside.
        title, row_title, col_title = (again(t) for t in self._titles)
        set_fitted_title(self.plot, title, self._text_color.name(), BASE_POINT_SIZE * 1.3 * self._font_scale,
                         self.canvas.width())
        # The query title runs up the side of the plot; on a short canvas its explanation in
        # brackets goes, rather than the title being cut off at the top.
        room = self.plot.vb.height() or 0.6 * self.canvas.height()
        full = BASE_POINT_SIZE * 1.15 * self._font_scale
        if fitted_axis_title(row_title, full, full, room)[0] != row_title:
            row_title = short_axis_title(row_title)
        # Still longer than the plot is tall (zoom +2 under the formula dock): in smaller type, down to
        # its size unzoomed (a zoomed title cut to "Query: so…" says less than a smaller whole one),
        # then cut, or it runs past the plot's top and bottom and is clipped at both ends; the colour
        # bar's title likewise.
        least = min(full, BASE_POINT_SIZE * 1.15)
        shown, row_size = fitted_axis_title(row_title, full, least, room)
        if shown != row_title:  # cut even so: "Query", whole, says more than "Query: source to…"
            shown, row_size = fitted_axis_title(bare_axis_title(row_title), full, least, room)
        row_title = shown
        bar_title, bar_size = fitted_axis_title(tr("attention weight"), full, least, room)
        if bar_title != tr("attention weight"):  # cut even in the least type ("attention wei…" at ×1
            bar_title, bar_size = fitted_axis_title(tr("weight"), full, least, room)  # under the dock)
        styles = [{"color": self._text_color.name(), "font-size": f"{np.floor(size * 10) / 10:.1f}pt"}
                  for size in (row_size, full, bar_size)]  # rounded down: a title that fits stays in
        labels = (row_title, col_title, bar_title, tuple(tuple(style.items()) for style in styles))
        if labels == self._axis_labels:
            return  # setLabel drops the axes' cached pictures; a head switch keeps these titles
        self._axis_labels = labels
        for axis, text, style in zip((self._left, self._bottom, self.color_bar.axis), (row_title, col_title, bar_title),
                                     styles, strict=True):
            axis.setLabel(text, **style)
        # pyqtgraph places an axis' title only when the axis is resized: a title cut a turn after the
        # resize stayed where the longer one had been centred, and ran off the canvas (")uery: target token").
        for axis in (self._left, self._bottom, self.color_bar.axis):
            axis.resizeEvent()

    def _rebuild_cell_numbers(self) -> None:
        # Numbers in cells are for teaching small examples; past ~12 tokens they become noise.
        rows, cols = self._values.shape
        style = None
        if 0 < rows <= self.cell_numbers_max and cols <= self.cell_numbers_max:
            style = self._number_style = self._fitting_number_style()
        if style is None:  # the read-out still gives each cell's weight on hover
            self.cell_numbers.clear()
            return
        size, compact = style
        rgba = map_to_rgba(self._displayed, self._cmap_name)
        font = QtGui.QFont(self.font())
        font.setPointSizeF(size)
        cells = [(r, c, cell_text(self._values[r, c], compact), _TEXT_COLORS[text_color_for(rgba[r, c])])
                 for r in range(rows) for c in range(cols) if not self._masked[r, c]]
        self.cell_numbers.set_cells(cells, font, rows, cols)

    def cell_numbers_shown(self) -> bool:
        """Whether the weights are written in the cells now: not when the cells are too small for them (a
        short canvas under a dock, a zoomed font), where the colours alone speak and the read-out gives
        the number on hover. Refitted on every resize and range change (``_refit_cell_numbers``)."""
        return bool(self.cell_numbers.cells())

    def _fitting_number_style(self) -> tuple[float, bool] | None:
        """The largest cell-number size at which "0.00" fits a cell as drawn now, else at which ".00"
        does (compact), as (point size, compact); None when neither fits. Before the view is first laid
        out its cells have no size: the full size then (the first resize refits)."""
        full = BASE_POINT_SIZE * 0.9 * self._font_scale
        vb = self.plot.vb
        (x0, x1), (y0, y1) = vb.viewRange()
        if vb.width() < 2 or vb.height() < 2 or x1 <= x0 or y1 <= y0:
            return full, False
        cell_w, cell_h = vb.width() / (x1 - x0), vb.height() / (y1 - y0)
        font = QtGui.QFont(self.font())
        for compact, widest in ((False, "0.00"), (True, ".00")):
            for factor in NUMBER_SHRINK:
                font.setPointSizeF(full * factor)
                metrics = QtGui.QFontMetricsF(font)
                if metrics.horizontalAdvance(widest) + 4 <= cell_w and metrics.height() <= cell_h:
                    return full * factor, compact
        return None

    def _refit_cell_numbers(self, *_args) -> None:
        rows, cols = self._values.shape
        if rows == 0 or rows > self.cell_numbers_max or cols > self.cell_numbers_max:
            return
        if self._fitting_number_style() != self._number_style:
            self._rebuild_cell_numbers()

    def cell_number_style(self) -> tuple[float, bool] | None:
        """(point size, compact) of the cell numbers, or None when they do not fit (or are not drawn)."""
        return self._number_style if self.cell_numbers.cells() else None

    def cell_number_texts(self) -> list[str]:
        return self.cell_numbers.texts()

    def _apply_palette(self) -> None:
        # Follow the application's palette so the view matches a light or a dark main window.
        palette = self.palette()
        background = palette.color(QtGui.QPalette.ColorRole.Base)
        self._text_color = palette.color(QtGui.QPalette.ColorRole.WindowText)
        self.canvas.setBackground(background)
        for axis in (self._left, self._bottom, self.color_bar.axis):
            axis.setPen(self._text_color)
            axis.setTextPen(self._text_color)
