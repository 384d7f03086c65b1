"""The clock faces of the clock view (a mixin of ``ClockView``): one plot per (sin, cos) pair, its title,
and its hands drawn for a position and a shift. Kept apart from clock_view.py, which owns the controls,
the position strip and the turn table, and from clock_arrangement.py, which only measures and places.
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui

from explorer.positional.clock import angular_speeds, pair_columns
from explorer.positional.fitting import span_title, whole_words
from explorer.ui.i18n import tr
from explorer.ui.plain_axes import plain_axes
from explorer.ui.plot_titles import release_title_width

SHIFT_COLOR = "#ff7f0e"  # the dashed hand of PE(pos + k)
UNSEEN_FACE = (214, 39, 40, 25)  # a clock's face at a position never seen in training


def cosmetic_pen(color, width: float = 1.0, dash: bool = False) -> QtGui.QPen:
    """A pen whose width is in screen pixels, whatever the plot's scale (a clock's range is ±1.15)."""
    pen = pg.mkPen(color, width=width, style=QtCore.Qt.PenStyle.DashLine if dash else QtCore.Qt.PenStyle.SolidLine)
    pen.setCosmetic(True)
    return pen


class ClockFaces:
    """Expects ``ClockView``'s ``canvas``, ``clocks``, ``_pairs``, ``_d_model``, ``_layout``, ``_columns``,
    ``_text``, ``_font_size`` and ``_grid_remove()`` (ClockArrangement)."""

    def _build_clocks(self) -> None:
        # A clock's plot is made once and kept: another model changes only which pair it shows and its title
        # (making every plot again took 0.2 s of the window's answer to a loaded model, measured).
        while len(self.clocks) > len(self._pairs):
            plot = self.clocks.pop()["plot"]
            self._grid_remove(plot)  # not canvas.removeItem: its records of the cells are stale (_place)
            self.canvas.scene().removeItem(plot)
        circle = np.linspace(0.0, 2.0 * np.pi, 97)
        while len(self.clocks) < len(self._pairs):
            n = len(self.clocks)
            plot = self.canvas.addPlot(row=1 + n // self._columns, col=n % self._columns, enableMenu=False)
            plot.hideButtons()
            plain_axes(plot)
            plot.hideAxis("left")
            plot.hideAxis("bottom")
            span_title(plot)  # a wrapped title has the clock's whole cell
            plot.setMouseEnabled(x=False, y=False)
            plot.setAspectLocked(True)
            plot.setRange(xRange=(-1.15, 1.15), yRange=(-1.15, 1.15), padding=0)
            plot.plot(np.sin(circle), np.cos(circle), pen=cosmetic_pen(self._text, 1))
            plot.plot([0, 0], [0.85, 1.0], pen=cosmetic_pen(self._text, 2))  # 12 o'clock: position 0
            self.clocks.append({"plot": plot,
                                "arc": plot.plot([], [], pen=cosmetic_pen(SHIFT_COLOR, 2)),
                                "ghost": plot.plot([], [], pen=cosmetic_pen(SHIFT_COLOR, 2.5, dash=True)),
                                "hand": plot.plot([], [], pen=cosmetic_pen(self._text, 3.5), symbol="o",
                                                  symbolSize=[0, 7], symbolBrush=self._text, symbolPen=None)})
        self._placed = None  # new plots are placed by the next fit_titles
        for clock, pair in zip(self.clocks, self._pairs):
            clock["pair"] = pair
        self._make_titles()
        self._pe_rows = np.zeros((0, self._d_model), np.float32)

    def _make_titles(self) -> None:
        """Each clock's title in the current language; fit_titles wraps them to the clocks' cells."""
        speeds = angular_speeds(self._d_model)
        for clock in self.clocks:
            s, c = pair_columns(clock["pair"], self._d_model, self._layout)
            turn = 2.0 * math.pi / speeds[clock["pair"]]
            turn_text = f"{turn:,.0f}" if turn >= 100 else f"{turn:.3g}"
            # A no-break space keeps a pair of dimensions on one line ("dims 14, 15", never "14," over "15"),
            # whole_words a Chinese word ("6.28 个位" over a lone "置" ran into the clock; see also WRAPS).
            clock["title"] = whole_words(tr("dims {s},\u00a0{c}<br>one turn: {turn} pos.", s=s, c=c, turn=turn_text))
            clock["plot"].setTitle(clock["title"], color=self._text.name(), size=self._font_size)
            release_title_width(clock["plot"])  # a long title must not push the last clock off a 1024-px screen

    def _draw_hands(self, pe: np.ndarray, pos: int, k: int, unseen: bool) -> None:
        """Each clock's hand at PE(pos), its dashed hand at PE(pos + k) and the arc between them; a clock
        face tinted when pos was never seen in training."""
        speeds = angular_speeds(self._d_model)
        for clock in self.clocks:
            s, c = pair_columns(clock["pair"], self._d_model, self._layout)
            clock["hand"].setData([0, pe[pos, s]], [0, pe[pos, c]])
            clock["ghost"].setData([0, pe[pos + k, s]], [0, pe[pos + k, c]])
            start = math.atan2(pe[pos, s], pe[pos, c])
            arc = np.linspace(start, start + math.fmod(speeds[clock["pair"]] * k, 2.0 * math.pi), 40)
            clock["arc"].setData(0.3 * np.sin(arc), 0.3 * np.cos(arc))
            clock["plot"].getViewBox().setBackgroundColor(pg.mkColor(*UNSEEN_FACE) if unseen else None)

    def hand_tips(self) -> np.ndarray:
        """The drawn hands' tips, (pairs, 2, 2): [pair, 0] = PE(pos)'s (sin, cos), [pair, 1] = PE(pos + k)'s."""
        tips = []
        for clock in self.clocks:
            (_, hx), (_, hy) = (clock["hand"].getData()[i] for i in (0, 1))
            (_, gx), (_, gy) = (clock["ghost"].getData()[i] for i in (0, 1))
            tips.append([[hx, hy], [gx, gy]])
        return np.array(tips, dtype=np.float64)
