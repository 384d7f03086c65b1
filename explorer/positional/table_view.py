"""The sinusoidal positional encoding, three ways: the table, chosen dimensions as waves, PE·PEᵀ.

Each view answers a question students ask: what the table looks like (fast waves on the left, slow
on the right), why each dimension is a wave of its own wavelength, and why the encoding lets
attention see *relative* position (PE·PEᵀ depends only on the distance between two positions). The
current sentence length is marked on all three so the part the model actually used stands out.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from explorer.positional.encoding import default_dimensions
from explorer.positional.fitting import keep_ticks_thinned, span_title, wrap_title
from explorer.positional.pe_drawing import PositionalDrawing
from explorer.ui.colormaps import DEFAULT_COLORMAP, DIVERGING_COLORMAP, get_colormap
from explorer.ui.flow_layout import FlowLayout
from explorer.ui.i18n import tr
from explorer.ui.plain_axes import plain_axes
from explorer.ui.plot_titles import BASE_POINT_SIZE
from explorer.ui.premultiplied_image import PremultipliedImageItem

_MARK = "#d62728"
MIN_PLOT = 60  # px: under this the curves' plot (the shorter row of two) is too flat to read


def _marker_pen() -> QtGui.QPen:
    pen = pg.mkPen(_MARK, width=2, style=QtCore.Qt.PenStyle.DashLine)
    pen.setCosmetic(True)
    return pen


class PositionalEncodingView(PositionalDrawing, QtWidgets.QWidget):
    """PE heatmap (positions × dimensions), curves of chosen dimensions, and PE·PEᵀ."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._d_model, self._positions, self._sentence = 512, 100, 0
        self._layout = "interleaved"  # the loaded model's (ModelConfig.pe_layout)
        self._title_rooms: dict = {}  # plot → the width its title was last fitted to
        self._dims = default_dimensions(self._d_model)
        self._pe = np.zeros((0, 0), np.float32)
        self._sim = np.zeros((0, 0), np.float32)

        self._d_spin = self._spin(2, 4096, self._d_model, "d_model")
        self._n_spin = self._spin(2, 4096, self._positions, "positions shown")
        self._len_spin = self._spin(0, 4096, 0, "sentence length (0: none)")
        self._dims_edit = QtWidgets.QLineEdit(", ".join(map(str, self._dims)))
        self._dims_edit.setToolTip("Dimensions to draw as curves, comma-separated (0-based)")
        self._d_spin.valueChanged.connect(self.set_d_model)
        self._n_spin.valueChanged.connect(self.set_positions)
        self._len_spin.valueChanged.connect(self.set_sentence_length)
        self._dims_edit.editingFinished.connect(self._dims_from_text)
        # The settings wrap onto a second row when narrow: in one row they set a minimum width that
        # made the window wider than a 1024-px projector whenever this tab was shown.
        self._bar = QtWidgets.QWidget()
        bar = FlowLayout(self._bar, spacing=6)
        bar.setContentsMargins(0, 0, 0, 0)
        self._dims_edit.setMinimumWidth(120)
        for text, widget in (("d_model", self._d_spin), ("Positions", self._n_spin),
                             ("Sentence length", self._len_spin), ("Curves of dimensions", self._dims_edit)):
            pair = QtWidgets.QWidget()
            row = QtWidgets.QHBoxLayout(pair)
            row.setContentsMargins(0, 0, 8, 0)
            row.addWidget(QtWidgets.QLabel(text))
            row.addWidget(widget)
            bar.addWidget(pair)

        self.canvas = pg.GraphicsLayoutWidget()
        palette = self.palette()
        self._text = palette.color(QtGui.QPalette.ColorRole.WindowText)
        self.canvas.setBackground(palette.color(QtGui.QPalette.ColorRole.Base))
        self.pe_plot = self.canvas.addPlot(row=0, col=0, enableMenu=False)
        self.sim_plot = self.canvas.addPlot(row=0, col=1, enableMenu=False)
        self.curve_plot = self.canvas.addPlot(row=1, col=0, colspan=2, enableMenu=False)
        self._one_row = False  # the three plots side by side, when the canvas is too short for two rows
        self._stretch_rows()
        self.canvas.installEventFilter(self)
        for plot in (self.pe_plot, self.sim_plot):
            plot.invertY(True)
            plot.hideButtons()
        self.pe_image = PremultipliedImageItem(axisOrder="row-major")
        self.sim_image = PremultipliedImageItem(axisOrder="row-major")
        self.pe_plot.addItem(self.pe_image)
        self.sim_plot.addItem(self.sim_image)
        self.pe_bar = pg.ColorBarItem(values=(-1, 1), colorMap=get_colormap(DIVERGING_COLORMAP),
                                      interactive=False, colorMapMenu=False, width=14)
        self.pe_bar.setImageItem(self.pe_image, insert_in=self.pe_plot)
        self.sim_bar = pg.ColorBarItem(values=(0, 1), colorMap=get_colormap(DEFAULT_COLORMAP),
                                       interactive=False, colorMapMenu=False, width=14)
        self.sim_bar.setImageItem(self.sim_image, insert_in=self.sim_plot)
        plain_axes(*self.plots(), self.pe_bar, self.sim_bar)
        for axis in (self.pe_bar.axis, self.sim_bar.axis, *(p.getAxis("left") for p in self.plots())):
            keep_ticks_thinned(axis)
        for plot in self.plots():
            span_title(plot)
            plot.titleLabel.geometryChanged.connect(lambda plot=plot: self._fit_title(plot))
        self.curve_plot.showGrid(x=True, y=True, alpha=0.25)
        self.curve_plot.setYRange(-1.1, 1.1, padding=0)
        # The legend is a row of labels under the plots that wraps when narrow: inside the plot its
        # five long entries covered a third of the waves.
        self._legend_box = QtWidgets.QWidget()
        self._legend = FlowLayout(self._legend_box, spacing=2)
        self._legend.setContentsMargins(8, 0, 8, 2)

        # Sentence-length markers: a row boundary on the table, a square on PE·PEᵀ, a band on curves.
        self._pe_line = pg.InfiniteLine(angle=0, pen=_marker_pen())
        self._sim_h = pg.InfiniteLine(angle=0, pen=_marker_pen())
        self._sim_v = pg.InfiniteLine(angle=90, pen=_marker_pen())
        self._region = pg.LinearRegionItem(movable=False, brush=pg.mkBrush(214, 39, 40, 30),
                                           pen=_marker_pen())
        self.pe_plot.addItem(self._pe_line)
        self.sim_plot.addItem(self._sim_h)
        self.sim_plot.addItem(self._sim_v)
        self.curve_plot.addItem(self._region)
        self._dim_lines: list[pg.InfiniteLine] = []

        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self._bar)
        layout.addWidget(self.canvas, 1)
        layout.addWidget(self._legend_box)
        self.set_font_scale(1.0)
        self._recompute()

    @staticmethod
    def _spin(lo: int, hi: int, value: int, tip: str) -> QtWidgets.QSpinBox:
        spin = QtWidgets.QSpinBox()
        spin.setRange(lo, hi)
        spin.setValue(value)
        spin.setToolTip(tip)
        spin.setKeyboardTracking(False)
        return spin

    # ----------------------------------------------------------------------------------- public API
    def set_d_model(self, d: int) -> None:
        self.configure(d_model=d)

    def set_layout(self, layout: str) -> None:
        """Draw the layout the loaded model uses: "interleaved" (the paper) or "halves" (Marian)."""
        self.configure(layout=layout)

    def configure(self, d_model: int | None = None, layout: str | None = None, positions: int | None = None) -> None:
        """Any of d_model, layout and the number of positions at once, drawn once: each redraw of the table,
        the similarity map and the curves takes ~0.1 s, and a loaded model changes all three."""
        if d_model is not None:
            self._d_model = max(2, int(d_model))
            if not self._dims or max(self._dims) >= self._d_model:
                self._dims = default_dimensions(self._d_model)
        if layout is not None:
            self._layout = "halves" if layout == "halves" else "interleaved"
            self._titles[self.pe_plot] = self.pe_title()
            self._fit_title(self.pe_plot, force=True)
        if positions is not None:
            self._positions = max(2, int(positions))
        self._recompute()

    def pe_title(self) -> str:
        """The table's title; it names the layout when it is not the paper's (the title, not a label:
        the tab's bar must stay narrow enough for a 1024-px projector)."""
        if self._layout == "halves":
            return tr("Positional encoding PE[pos, i]: sines, then cosines (Marian)")
        return tr("Positional encoding PE[pos, i]")

    def pe_layout(self) -> str:
        return self._layout

    def set_positions(self, n: int) -> None:
        """How many positions (rows) to draw; 100 by default."""
        self.configure(positions=n)

    def set_sentence_length(self, n: int) -> None:
        """Mark the first ``n`` positions as the current sentence (0 hides the marks)."""
        self._sentence = max(0, int(n))
        self._update_markers()

    def set_curve_dimensions(self, dims) -> None:
        dims = sorted({int(d) for d in dims if 0 <= int(d) < self._d_model})
        self._dims = dims
        self._recompute()

    def curve_dimensions(self) -> list[int]:
        return list(self._dims)

    def d_model(self) -> int:
        return self._d_model

    def sentence_length(self) -> int:
        return self._sentence

    def pe_array(self) -> np.ndarray:
        """The (positions, d_model) table shown in the heatmap."""
        return self._pe.copy()

    def similarity_array(self) -> np.ndarray:
        """The (positions, positions) PE·PEᵀ shown in the similarity map."""
        return self._sim.copy()

    def set_colormap(self, name: str) -> None:
        """Colour map of PE·PEᵀ (the PE table keeps its diverging map: its values are signed)."""
        self.sim_bar.setColorMap(get_colormap(name))

    def plots(self) -> tuple[pg.PlotItem, pg.PlotItem, pg.PlotItem]:
        return self.pe_plot, self.sim_plot, self.curve_plot

    def one_row(self) -> bool:
        """Whether the three plots stand side by side (a short canvas: under the formula dock)."""
        return self._one_row

    def retranslate(self) -> None:
        """After a language switch: the titles and axis labels made again and fitted to their plots. The
        window's walk put the new texts into the old titles' width and row (a title is fitted only when its
        plot's width changes), so the English titles of a Chinese start wrapped into three lines, cut off,
        until a resize; and that resize fitted the Chinese titles kept in ``_titles`` again."""
        self.set_font_scale(self._scale)

    def set_font_scale(self, f: float) -> None:
        self._scale = f
        font = self._font = QtGui.QFont(self.font())
        font.setPointSizeF(BASE_POINT_SIZE * max(0.5, float(f)))
        self._title_points = BASE_POINT_SIZE * 1.1 * max(0.5, float(f))
        size = f"{self._title_points:.1f}pt"
        titles = {
            self.pe_plot: (self.pe_title(), tr("dimension i"), tr("position")),
            self.sim_plot: (tr("Similarity PE·PEᵀ"), tr("position"), tr("position")),
            self.curve_plot: (tr("Chosen dimensions over position"), tr("position"), tr("PE value")),
        }
        self._titles = {plot: texts[0] for plot, texts in titles.items()}
        for plot, (title, bottom, left) in titles.items():
            self._fit_title(plot, force=True)
            for name, text in (("bottom", bottom), ("left", left)):
                axis = plot.getAxis(name)
                axis.setStyle(tickFont=font)
                axis.setPen(self._text)
                axis.setTextPen(self._text)
                axis.setLabel(text, color=self._text.name(), **{"font-size": size})
        self._legend_box.setFont(font)
        for bar in (self.pe_bar, self.sim_bar):
            bar.axis.setStyle(tickFont=font)
            bar.axis.setWidth(None)
            bar.axis.setPen(self._text)
            bar.axis.setTextPen(self._text)
        self._arrange()

    # ------------------------------------------------------------------------------------ fitting
    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt override
        if watched is self.canvas and event.type() == QtCore.QEvent.Type.Resize:
            self._arrange()
        return super().eventFilter(watched, event)

    def _arrange(self) -> None:
        """Two rows (the table and PE·PEᵀ over the curves) or, where the curves would be flatter than
        MIN_PLOT, one: under the formula dock at 1024 × 768 the canvas has ~210 px, which two rows cut to
        a few pixels of plot each. The rows' chrome (a title, ticks and an axis label) is measured."""
        line = QtGui.QFontMetricsF(self._font).height()
        chrome = 4 * line + 10
        one_row = 0.4 * self.canvas.height() - chrome < MIN_PLOT
        # Equal shares of the width, whatever the titles' own preferred widths: left to pyqtgraph, the
        # table's long title took half of one row and left the curves 90 px.
        share = max(1.0, self.canvas.width() / (3 if one_row else 2) - 8)
        for plot in self.plots():
            plot.setPreferredWidth(share if one_row or plot is not self.curve_plot else 2 * share)
        if one_row == self._one_row:
            return
        self._one_row = one_row
        layout = self.canvas.ci
        for plot in self.plots():
            layout.removeItem(plot)
        layout.addItem(self.pe_plot, row=0, col=0)
        layout.addItem(self.sim_plot, row=0, col=1)
        if one_row:
            layout.addItem(self.curve_plot, row=0, col=2)
        else:
            layout.addItem(self.curve_plot, row=1, col=0, colspan=2)
        self._stretch_rows()

    def _stretch_rows(self) -> None:
        grid = self.canvas.ci.layout
        grid.setRowStretchFactor(0, 1 if self._one_row else 3)
        grid.setRowStretchFactor(1, 0 if self._one_row else 2)
        for col in range(3):
            grid.setColumnStretchFactor(col, 1)

    def _fit_title(self, plot: pg.PlotItem, force: bool = False) -> None:
        """The plot's title, wrapped where it is wider than the plot (its label spans it: span_title)."""
        titles = getattr(self, "_titles", None)
        if not titles:
            return
        room = max(40.0, plot.titleLabel.geometry().width() - 4)
        if not force and abs(room - self._title_rooms.get(plot, -1.0)) < 0.5:
            return
        self._title_rooms[plot] = room
        wrap_title(plot, titles[plot], self._text.name(), self._title_points, room)

    # ------------------------------------------------------------------------------------- internals
    def _dims_from_text(self) -> None:
        parts = self._dims_edit.text().replace(";", ",").split(",")
        dims = [int(p) for p in parts if p.strip().lstrip("-").isdigit()]
        self.set_curve_dimensions(dims)
