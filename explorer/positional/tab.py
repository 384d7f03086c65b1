"""The Positional encoding tab: the table and its waves (pe_view), the clock hands (pe_clock_view), and
on the table the positions beyond the longest training sentence, which the model never saw.

The mark matters in class: the encoding is defined for any position, so students ask why a model
cannot simply translate longer sentences. It can compute PE(200), but it never learned what to do with
it; the band shows where that begins.
"""

from __future__ import annotations

import math

import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from explorer.positional.clock_view import UNSEEN, ClockView
from explorer.positional.fitting import wrap_text_item
from explorer.positional.table_view import PositionalEncodingView
from explorer.ui.i18n import tr
from explorer.ui.plot_titles import BASE_POINT_SIZE

PARTS = ("pe", "clock")
VEIL = (255, 255, 255, 150)
NOTE_MARGIN = 4  # px around the note's lines (the text document's margin)
FAR = 1e6  # the band's far edge: past any number of positions the table can show


class PositionalTab(QtWidgets.QTabWidget):
    """Sub-tabs "Table and waves" and "Clock hands", fed the model's sizes together.

    Both parts are built the first time the tab is shown or a caller asks for one (``table``, ``clock``):
    they hold ~20 plots, ~40 % of the window's construction, which most sessions never open (a window
    then starts ~0.3 s sooner). Until then the tab keeps what it was told (model, sentence length, font
    scale, colour map) and hands it to the parts when it builds them; ``built`` is emitted then, so the
    window can put the new widgets' texts into the current language.
    """

    built = QtCore.Signal()

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setDocumentMode(True)
        self._table: PositionalEncodingView | None = None
        self._clock: ClockView | None = None
        self._train_length = 0
        self._info = None  # the last ModelInfo given, replayed when the parts are built
        self._sentence_length: int | None = None
        self._font_scale: float | None = None
        self._colormap: str | None = None
        self._part = "pe"

    @property
    def table(self) -> PositionalEncodingView:
        self._build()
        return self._table

    @property
    def clock(self) -> ClockView:
        self._build()
        return self._clock

    def is_built(self) -> bool:
        return self._table is not None

    def showEvent(self, event) -> None:  # noqa: N802 - Qt override
        self._build()
        super().showEvent(event)

    def _build(self) -> None:
        if self._table is not None:
            return
        self._table, self._clock = PositionalEncodingView(), ClockView()
        self.addTab(self._table, "Table and waves")
        self.addTab(self._clock, "Clock hands")
        pen = pg.mkPen("#d62728", width=2)
        pen.setCosmetic(True)
        # A band over the unseen rows of the table, and lines at the same place on PE·PEᵀ.
        # A pale veil rather than a tint: the table itself is red and blue, so a red tint disappeared.
        self._band = pg.LinearRegionItem(orientation="horizontal", movable=False,
                                         brush=pg.mkBrush(*VEIL), pen=pen)
        self._band_label = pg.TextItem(tr(UNSEEN), color="#d62728", anchor=(0, 0),
                                       fill=pg.mkBrush(255, 255, 255, 220))
        self._sim_h = pg.InfiniteLine(angle=0, pen=pen)
        self._sim_v = pg.InfiniteLine(angle=90, pen=pen)
        self._band_label.setZValue(20)  # above the chosen dimensions' column lines, drawn later
        self._table.pe_plot.addItem(self._band)
        self._table.pe_plot.addItem(self._band_label)
        self._table.sim_plot.addItem(self._sim_h)
        self._table.sim_plot.addItem(self._sim_v)
        self._table.pe_plot.vb.sigResized.connect(self._fit_band_label)
        # What the tab was told before it had parts, in the order the window tells it.
        if self._font_scale is not None:
            self.set_font_scale(self._font_scale)
        if self._colormap is not None:
            self.set_colormap(self._colormap)
        if self._info is not None:
            self.set_model(self._info)
        else:
            self.set_train_length(self._train_length)
        if self._sentence_length is not None:
            self.set_sentence_length(self._sentence_length)
        self.show_part(self._part)
        self.built.emit()

    def set_model(self, info) -> None:
        """A loaded model's ModelInfo: d_model, PE layout and the longest training sequence."""
        self._info = info
        if not self.is_built():
            self._train_length = max(0, int(info.max_train_length))
            return
        # One redraw of the table for all three changes (set_train_length then finds enough rows).
        rows = self.table.pe_array().shape[0]
        self.table.configure(d_model=info.d_model, layout=info.pe_layout,
                             positions=max(rows, self._rows_for(info.max_train_length)))
        self.clock.set_model(info.d_model, info.pe_layout, info.max_train_length)
        self.set_train_length(info.max_train_length)

    def set_train_length(self, n: int) -> None:
        """Mark positions >= ``n`` as never seen in training (0 hides the marks); the table grows to
        show a quarter more than ``n`` when it shows fewer, so the mark is on screen."""
        self._train_length = max(0, int(n))
        if not self.is_built():
            return
        shown = self._train_length > 0
        for item in (self._band, self._band_label, self._sim_h, self._sim_v):
            item.setVisible(shown)
        if not shown:
            return
        edge = self._train_length - 0.5  # between the last seen row and the first unseen one
        wanted = self._rows_for(self._train_length)
        if self.table.pe_array().shape[0] < wanted:
            self.table.set_positions(wanted)
        self._band.setRegion((edge, FAR))
        self._fit_band_label()
        self._sim_h.setValue(edge)
        self._sim_v.setValue(edge)

    @staticmethod
    def _rows_for(train_length: int) -> int:
        """Rows that show the unseen band: a quarter more than the training length (at least 8); 0: none."""
        return train_length + max(8, train_length // 4) if train_length > 0 else 0

    def train_length(self) -> int:
        return self._train_length

    def train_marks(self) -> dict[str, float | None]:
        """Where the 'never seen in training' marks start (for tests): table band and clock strip."""
        self._build()
        if not self._band.isVisible():
            return {"table": None, "similarity": None, "clock": self.clock.unseen_start()}
        return {"table": self._band.getRegion()[0], "similarity": self._sim_h.value(),
                "clock": self.clock.unseen_start()}

    def set_sentence_length(self, n: int) -> None:
        self._sentence_length = n
        if not self.is_built():
            return
        self.table.set_sentence_length(n)
        self.clock.set_sentence_length(n)

    def show_part(self, part: str) -> None:
        """'pe' (the table and waves) or 'clock'."""
        self._part = "clock" if part == "clock" else "pe"
        if self.is_built():
            self.setCurrentWidget(self.clock if part == "clock" else self.table)

    def part(self) -> str:
        if not self.is_built():
            return self._part
        return "clock" if self.currentWidget() is self.clock else "pe"

    def retranslate(self) -> None:
        """After a language switch: the pyqtgraph labels, which the window's walk does not reach."""
        if not self.is_built():
            return  # built later, with tr() in the language of that moment
        self._band_label.setText(tr(UNSEEN))
        self.clock.unseen_label.setText(tr(UNSEEN))
        self._fit_band_label()
        # The plot titles are fitted to their text's width: fitted again, in the new language.
        self.table.retranslate()
        self.clock.retranslate()

    def set_font_scale(self, f: float) -> None:
        self._font_scale = f
        if not self.is_built():
            return
        self.table.set_font_scale(f)
        self.clock.set_font_scale(f)
        self._note_points = BASE_POINT_SIZE * max(0.5, float(f))  # the table's numbers' size: it is one
        self._fit_band_label()

    def _fit_band_label(self) -> None:
        """The 'never seen in training' note whole inside the table: wrapped to the table's width (the
        plots side by side under the formula dock, or zoomed, cut it at the colour bar) and under the
        band's edge where the unseen rows have the height for it, else just above the edge."""
        if not self.is_built() or self._train_length <= 0:
            return
        box = self._table.pe_plot.vb
        if box.width() <= 0 or box.height() <= 0:
            return
        edge = self._train_length - 0.5
        view = box.sceneBoundingRect()
        left = box.mapViewToScene(QtCore.QPointF(0, edge))
        # Two lines at most, smaller (to 0.7 ×) where it needs more: under the dock at zoom +2 the table
        # is ~95 px wide, and three lines of the note hid most of it.
        points = getattr(self, "_note_points", BASE_POINT_SIZE)
        for factor in (1.0, 0.9, 0.8, 0.7):
            font = QtGui.QFont(self._band_label.textItem.font())
            font.setPointSizeF(points * factor)
            self._band_label.setFont(font)
            wrap_text_item(self._band_label, view.right() - left.x() - 2)
            tall = self._band_label.boundingRect().height()
            if tall <= 2 * math.ceil(QtGui.QFontMetricsF(font).lineSpacing()) + 2 * NOTE_MARGIN + 1:
                break
        # Its top at the edge, or as low as the table lets it be; never above the table's top.
        top = max(view.top(), min(left.y(), view.bottom() - tall))
        self._band_label.setPos(0, box.mapSceneToView(QtCore.QPointF(left.x(), top)).y())

    def set_colormap(self, name: str) -> None:
        self._colormap = name
        if self.is_built():
            self.table.set_colormap(name)
