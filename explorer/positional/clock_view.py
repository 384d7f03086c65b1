"""Positions as clock hands (section 3.5 of the paper), the PE tab's lecture view.

Each (sin, cos) pair of encoding dimensions is a hand whose tip is (x, y) = (sin, cos): at position 0
every hand points to 12, and as the position advances each turns clockwise at its own speed ω_i. The
dashed hand is PE(pos + k); the table under the clocks measures, from the encoding table itself, how far
each hand turns between pos and pos + k for several pos: the same angle in every column, which is why
PE(pos + k) is one fixed rotation of PE(pos). A strip above the clocks marks the positions beyond the
longest training sentence, which the model never saw (ModelInfo.max_train_length).
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from explorer.positional.clock import angular_speeds, clock_pairs, measured_turns, pair_columns
from explorer.positional.clock_arrangement import COLUMNS, STRIP_PX, ClockArrangement
from explorer.positional.clock_faces import SHIFT_COLOR, ClockFaces, cosmetic_pen
from explorer.positional.clock_table import TurnTable
from explorer.positional.encoding import sinusoidal_pe
from explorer.ui.flow_layout import FlowLayout
from explorer.ui.i18n import N_, tr
from explorer.ui.plain_axes import plain_axes
from explorer.ui.plot_titles import BASE_POINT_SIZE

UNSEEN = N_("never seen in training")  # pyqtgraph text: not walked by the language switch, see retranslate
UNSEEN_BRUSH = (214, 39, 40, 45)  # positions never seen in training (the PE tab's marker red)
TABLE_POSITIONS = (0, 25, 100)  # plus the current position: "several pos" the class can compare
PLAY_MS = 400


class ClockView(ClockFaces, ClockArrangement, QtWidgets.QWidget):
    """Clock faces for a few (sin, cos) pairs, a position slider with Play, the shift k and its table."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._d_model, self._layout, self._train_length, self._sentence = 512, "interleaved", 0, 0
        self._position, self._shift, self._last = 0, 1, 199
        self._pairs = clock_pairs(self._d_model)
        self._text = self.palette().color(QtGui.QPalette.ColorRole.WindowText)

        self.slider = QtWidgets.QSlider(QtCore.Qt.Orientation.Horizontal)
        self.slider.setMinimumWidth(160)
        self.position_spin = QtWidgets.QSpinBox()
        self.shift_spin = QtWidgets.QSpinBox()
        self.shift_spin.setRange(1, 100)
        self.shift_spin.setToolTip("k: how many positions further the dashed hand is")
        self.play_button = QtWidgets.QPushButton("Play")
        self.play_button.setCheckable(True)
        self._timer = QtCore.QTimer(self)
        self._timer.setInterval(PLAY_MS)
        self._timer.timeout.connect(self._tick)
        self.slider.valueChanged.connect(self.set_position)
        self.position_spin.valueChanged.connect(self.set_position)
        self.shift_spin.valueChanged.connect(self.set_shift)
        self.play_button.toggled.connect(self.set_playing)
        bar_widget = QtWidgets.QWidget()
        bar = FlowLayout(bar_widget, spacing=6)  # wraps at 1024 px instead of widening the window
        bar.setContentsMargins(0, 0, 0, 0)
        for label, widgets in (("Position", (self.slider, self.position_spin, self.play_button)),
                               ("Shift k", (self.shift_spin,))):
            group = QtWidgets.QWidget()
            row = QtWidgets.QHBoxLayout(group)
            row.setContentsMargins(0, 0, 8, 0)
            row.addWidget(QtWidgets.QLabel(label))
            for w in widgets:
                row.addWidget(w)
            bar.addWidget(group)
        self.note = QtWidgets.QLabel()
        self.note.setWordWrap(True)

        self.canvas = pg.GraphicsLayoutWidget()
        self.canvas.setBackground(self.palette().color(QtGui.QPalette.ColorRole.Base))
        self.strip = self.canvas.addPlot(row=0, col=0, colspan=COLUMNS, enableMenu=False)
        self.strip.hideButtons()
        plain_axes(self.strip)
        self.strip.hideAxis("left")
        self.strip.setMouseEnabled(x=False, y=False)
        self.strip.setYRange(0, 1, padding=0)
        self.strip.setMaximumHeight(STRIP_PX)  # on the plot, not its row: the rows are laid out again (fit_titles)
        self._fit_queued = False
        self.canvas.installEventFilter(self)
        self._columns = COLUMNS
        self.unseen = pg.LinearRegionItem(movable=False, brush=pg.mkBrush(*UNSEEN_BRUSH),
                                          pen=cosmetic_pen("#d62728", 2))
        self.unseen_label = pg.TextItem(tr(UNSEEN), color="#d62728", anchor=(0, 0.5))
        self.sentence_region = pg.LinearRegionItem(movable=False, brush=pg.mkBrush(31, 119, 180, 40),
                                                   pen=cosmetic_pen("#1f77b4"))
        self.now_line = pg.InfiniteLine(angle=90, pen=cosmetic_pen(self._text, 3))
        self.shift_line = pg.InfiniteLine(angle=90, pen=cosmetic_pen(SHIFT_COLOR, 2, dash=True))
        for item in (self.sentence_region, self.unseen, self.unseen_label, self.now_line, self.shift_line):
            self.strip.addItem(item)
        self.unseen_label.setPos(0, 0.5)
        self.clocks: list[dict] = []

        self.table = TurnTable()
        self.table_title = QtWidgets.QLabel()
        self.table_title.setWordWrap(True)
        below = QtWidgets.QWidget()
        below_layout = QtWidgets.QVBoxLayout(below)
        below_layout.setContentsMargins(0, 0, 0, 0)
        below_layout.addWidget(self.table_title)
        below_layout.addWidget(self.table, 1)
        split = QtWidgets.QSplitter(QtCore.Qt.Orientation.Vertical)
        split.addWidget(self.canvas)
        split.addWidget(below)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(bar_widget)
        layout.addWidget(self.note)
        layout.addWidget(split, 1)
        self._font_size = f"{BASE_POINT_SIZE:.1f}pt"
        self._point_size = BASE_POINT_SIZE
        self._build_clocks()
        self._update_range()

    # ----------------------------------------------------------------------------------- public API
    def set_model(self, d_model: int, layout: str = "interleaved", train_length: int = 0) -> None:
        """The loaded model's d_model, PE layout and longest training sequence (0: unknown)."""
        self._d_model = max(2, int(d_model))
        self._layout = "halves" if layout == "halves" else "interleaved"
        self._train_length = max(0, int(train_length))
        self._pairs = clock_pairs(self._d_model)
        self._build_clocks()
        self.fit_titles()
        self._update_range()

    def set_sentence_length(self, n: int) -> None:
        self._sentence = max(0, int(n))
        self._update_range()

    def set_position(self, pos: int) -> None:
        self._position = min(max(0, int(pos)), self._last)
        self._redraw()

    def position(self) -> int:
        return self._position

    def set_shift(self, k: int) -> None:
        self._shift = min(max(1, int(k)), self.shift_spin.maximum())
        self._redraw()

    def shift(self) -> int:
        return self._shift

    def last_position(self) -> int:
        return self._last

    def set_playing(self, on: bool) -> None:
        """Play advances the position one step every PLAY_MS, starting over after the last one."""
        self._timer.start() if on else self._timer.stop()
        self.play_button.blockSignals(True)
        self.play_button.setChecked(on)
        self.play_button.setText(tr("Pause") if on else tr("Play"))
        self.play_button.blockSignals(False)

    def is_playing(self) -> bool:
        return self._timer.isActive()

    def shown_pairs(self) -> list[int]:
        return list(self._pairs)

    def rotation_table(self) -> tuple[list[int], list[int], np.ndarray]:
        """(pairs, positions, degrees): the turn from PE(pos) to PE(pos + k) that the table shows."""
        return list(self._pairs), list(self._table_positions), self._turns.copy()

    def unseen_start(self) -> float | None:
        """Where the 'never seen in training' band starts on the position strip; None when hidden."""
        # Visible to the strip: under the formula dock the strip itself is hidden (fit_titles).
        return self.unseen.getRegion()[0] if self.unseen.isVisibleTo(self.strip) else None

    def set_font_scale(self, f: float) -> None:
        f = max(0.5, float(f))
        self._font_size = f"{BASE_POINT_SIZE * f:.1f}pt"
        font = QtGui.QFont(self.font())
        font.setPointSizeF(BASE_POINT_SIZE * f)
        self.strip.getAxis("bottom").setStyle(tickFont=font)
        self.unseen_label.setFont(font)
        self._point_size = BASE_POINT_SIZE * f
        self.fit_titles()

    # ------------------------------------------------------------------------------------- internals
    def retranslate(self) -> None:
        """After a language switch: the titles made again in the new language and fitted again (now, or
        when the view is next shown). The window's walk put the new text into each title's label, but in
        the width and row height fitted to the old text, so English wrapped in the narrower Chinese lines
        and Chinese overflowed the English row into the clock; and the next fit (a resize, a zoom) set
        the old language's titles back from ``self.clocks``: a Chinese clock in an English window."""
        self._make_titles()
        self.fit_titles()

    def _update_range(self) -> None:
        """Positions up to 200, or 1.5 × the training length and the sentence when those are longer."""
        self._last = max(199, math.ceil(1.5 * self._train_length), self._sentence)
        for w in (self.slider, self.position_spin):
            w.blockSignals(True)
            w.setRange(0, self._last)
            w.blockSignals(False)
        self.strip.setXRange(-0.5, self._last + 0.5, padding=0)
        self.unseen.setVisible(self._train_length > 0)
        self.unseen_label.setVisible(self._train_length > 0)
        if self._train_length > 0:  # position p is unseen when no training sequence had p + 1 pieces
            self.unseen.setRegion((self._train_length - 0.5, self._last + 0.5))
            self.unseen_label.setPos(self._train_length, 0.5)
        self.sentence_region.setVisible(self._sentence > 0)
        self.sentence_region.setRegion((-0.5, self._sentence - 0.5))
        self._table_positions = sorted(set(TABLE_POSITIONS) | {self._position})
        self.set_position(min(self._position, self._last))
        self._redraw()

    def _pe(self) -> np.ndarray:
        """The encoding table over every position the view can ask for (pos + k included)."""
        need = self._last + self.shift_spin.maximum() + max(TABLE_POSITIONS) + 1
        if self._pe_rows.shape[0] < need or self._pe_rows.shape[1] != self._d_model:
            self._pe_rows = sinusoidal_pe(need, self._d_model, self._layout)
        return self._pe_rows

    def _redraw(self) -> None:
        pe, pos, k = self._pe(), self._position, self._shift
        for w, value in ((self.slider, pos), (self.position_spin, pos), (self.shift_spin, k)):
            w.blockSignals(True)
            w.setValue(value)
            w.blockSignals(False)
        unseen = 0 < self._train_length <= pos
        self._draw_hands(pe, pos, k, unseen)
        self.now_line.setValue(pos)
        self.shift_line.setValue(pos + k)
        self._fill_table(pe)
        where = (tr("Position {pos} is beyond the longest training sentence ({n} pieces): the model never saw it.",
                    pos=pos, n=self._train_length) if unseen else tr("Position {pos}.", pos=pos))
        self.note.setText(tr("{where} Solid hand: PE({pos}); dashed: PE({pos} + {k}) = PE({end}).",
                             where=where, pos=pos, k=k, end=pos + k))

    def _fill_table(self, pe: np.ndarray) -> None:
        self._table_positions = sorted(set(TABLE_POSITIONS) | {self._position})
        k, positions = self._shift, self._table_positions
        self._turns = np.degrees(measured_turns(pe, self._pairs, positions, k, self._d_model, self._layout))
        expected = np.degrees(np.mod(angular_speeds(self._d_model)[self._pairs] * k, 2.0 * np.pi))
        self.table_title.setText(tr("How far each hand turns from PE(pos) to PE(pos + {k}), measured on the table, "
                                    "for several pos: the same in every column, so one rotation takes every "
                                    "PE(pos) to PE(pos + {k}).", k=k))
        dims = [", ".join(map(str, pair_columns(p, self._d_model, self._layout))) for p in self._pairs]
        self.table.fill(dims, k, positions, expected, self._turns)

    def _tick(self) -> None:
        self.set_position(0 if self._position >= self._last else self._position + 1)

    def showEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        if not self._fit_queued:  # the font or the model may have changed while the tab was hidden
            self._fit_queued = True
            QtCore.QTimer.singleShot(0, self, self._queued_fit)

    def hideEvent(self, event) -> None:  # noqa: N802 - Qt override
        self.set_playing(False)  # a hidden clock must not keep the CPU busy
        super().hideEvent(event)
