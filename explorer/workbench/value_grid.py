"""A layers × heads grid of one number per head, coloured and labelled: the workbench's summary picture.

Painted with QPainter rather than a plot: a handful of cells with their values written in them reads at a
glance on a projector, and the colour of a cell can be checked by a test (``cell_rect``). Rows are layers
(1 at the top, as in the All heads grid), columns heads. NaN cells (a removed head) are left blank.
"""

from __future__ import annotations

import math

import numpy as np
from PySide6 import QtCore, QtGui, QtWidgets

from explorer.ui.colormaps import map_to_rgba, text_color_for
from explorer.ui.i18n import N_, again, tr
from explorer.ui.title_lines import fit_lines

LABEL_W, LABEL_H, TITLE_H = 28, 18, 20  # px at the least; the rows grow with the font (zoom)
WHOLE_NUMBERS_SPAN = 10.0  # the least spread of values worth writing rounded to whole numbers
NUMBER_SHRINK = (1.0, 0.85, 0.72, 0.6)  # the cell numbers' font, as a fraction of the widget's, tried until they fit
# Short enough for three grids side by side in a 1024-pixel window (the full titles are clipped there).
GRID_TITLES = {"encoder": N_("Encoder self"), "decoder": N_("Decoder self (masked)"),
               "cross": N_("Cross (encoder–decoder)")}


class ValueGrid(QtWidgets.QWidget):
    """(L, H) values drawn as cells coloured on ``levels``, with the value in each cell."""

    def __init__(self, title: str = "", colormap: str = "viridis", parent=None) -> None:
        super().__init__(parent)
        self.title = title  # English; painted in the window's language (shown_title), so a switch follows
        self.colormap = colormap
        self.values = np.zeros((0, 0))
        self.levels = (0.0, 1.0)
        self.fmt = "{:.2f}"
        # Grids shown side by side: their titles take as many lines as the one that needs most, so their
        # cells stay level (set by the view that holds them; alone, a grid is its own peer).
        self.peers: list[ValueGrid] = [self]
        self._lines_key: tuple | None = None  # (title, font, width) that title_lines last fitted
        self._lines: list[str] = []
        self.setMinimumSize(120, 90)
        self.setSizePolicy(QtWidgets.QSizePolicy.Policy.Expanding, QtWidgets.QSizePolicy.Policy.Expanding)

    def shown_title(self) -> str:
        """The title in the window's language."""
        return tr(self.title) if self.title else ""

    def title_lines(self) -> list[str]:
        """The title as painted: one line where it fits the grid's width, else two (three zoomed grids side
        by side at 1024 px cut "Decoder self (masked)" to "Decoder self (mask…"), else cut with "…"."""
        # Asked for every cell's rectangle, by each peer: fitted again only when the title, type or width changed.
        key = (self.shown_title(), self.font().key(), self.width())
        if self._lines_key != key:
            self._lines_key, self._lines = key, fit_lines(key[0], QtGui.QFontMetricsF(self.font()), self.width() - 4)
        return self._lines

    def title_height(self) -> int:
        """Pixels above the head labels: as many title lines as the peer that needs most."""
        lines = max(len(peer.title_lines()) for peer in self.peers)
        return max(TITLE_H, lines * self.fontMetrics().height() + 2)

    def label_width(self) -> float:
        """The layer labels' column: "L12" whole in the grid's type (a fixed 28 px crushed "L1" zoomed)."""
        rows = max(1, self.values.shape[0])
        return max(LABEL_W, self.fontMetrics().horizontalAdvance(f"L{rows}") + 6)

    def label_height(self) -> int:
        return max(LABEL_H, self.fontMetrics().height())

    def minimumSizeHint(self) -> QtCore.QSize:  # noqa: N802 - Qt override
        """Room for the title, the head labels and every layer's row at two thirds of a line: at 1024 × 768
        zoomed twice, a fixed 90 px left the four layers 12-13 px under a 24 px line (their labels overlapped,
        no numbers) while the pruning curve below kept its own 140 px minimum."""
        rows = self.values.shape[0]
        cells = math.ceil(rows * self.fontMetrics().height() * 2 / 3) if rows else 0
        return QtCore.QSize(120, max(90, self.title_height() + self.label_height() + cells))

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self._refresh_tooltip()

    def changeEvent(self, event) -> None:  # noqa: N802 - Qt override: zoom changes the font, a switch the words
        if event.type() in (QtCore.QEvent.Type.FontChange, QtCore.QEvent.Type.LanguageChange):
            self._refresh_tooltip()
            self.updateGeometry()
        super().changeEvent(event)

    def _refresh_tooltip(self) -> None:
        """The whole title on hover where the painted one had to be cut."""
        whole = self.shown_title()
        cut = "".join(self.title_lines()).replace(" ", "") != whole.replace(" ", "")
        self.setToolTip(whole if cut else "")

    def set_values(self, values: np.ndarray, levels: tuple[float, float] | None = None, fmt: str = "{:.2f}") -> None:
        """Show ``values`` (L, H); ``levels`` (low, high) map to the ends of the colour map (default: its range)."""
        self.values = np.asarray(values, dtype=np.float64)
        finite = self.values[np.isfinite(self.values)]
        if levels is None:
            levels = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
        self.levels = levels
        self.fmt = fmt
        self.updateGeometry()  # the rows' room (minimumSizeHint) follows the model's layers
        self.update()

    def clear(self) -> None:
        self.set_values(np.zeros((0, 0)))

    def colors(self) -> np.ndarray:
        """(L, H, 4) RGBA of the cells; alpha 0 for blank ones."""
        lo, hi = self.levels
        span = hi - lo if hi > lo else 1.0
        return map_to_rgba((self.values - lo) / span, self.colormap)

    def cell_rect(self, layer: int, head: int) -> QtCore.QRectF:
        """Where the cell of (0-based) ``layer``, ``head`` is painted, in widget pixels."""
        top, w, h = self._cells()
        return QtCore.QRectF(self.label_width() + head * w, top + layer * h, w, h)

    def _cells(self) -> tuple[float, float, float]:
        """(top of the first row, cell width, cell height): measured once per paint, not once per cell
        (each measure asks every peer for its title lines: ~10 ms of a paint's Python, which runs while
        a workbench run's worker holds the interpreter lock most of the time)."""
        rows, cols = self.values.shape
        top = self.title_height() + self.label_height()
        return (top, max(1.0, (self.width() - self.label_width()) / max(cols, 1)),
                max(1.0, (self.height() - top) / max(rows, 1)))

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt override
        p = QtGui.QPainter(self)
        pal = self.palette()
        p.setPen(pal.color(QtGui.QPalette.ColorRole.WindowText))
        lines = self.title_lines()
        line_h = self.fontMetrics().height()
        top = (self.title_height() - len(lines) * line_h) / 2  # a one-line title beside a peer's two: centred
        for i, line in enumerate(lines):
            p.drawText(QtCore.QRectF(0, top + i * line_h, self.width(), line_h), QtCore.Qt.AlignmentFlag.AlignCenter,
                       line)
        rows, cols = self.values.shape
        if rows == 0 or cols == 0:  # under the title: centred in the whole grid it crossed a two-line title
            top = self.title_height()
            below = QtCore.QRectF(0, top, self.width(), max(line_h, self.height() - top))
            p.drawText(below, QtCore.Qt.AlignmentFlag.AlignCenter, "—")
            return
        rgba = self.colors()
        center = QtCore.Qt.AlignmentFlag.AlignCenter
        number_font, number_fmt = self._numbers()
        label_top, label_h = self.title_height(), self.label_height()
        top, w, h = self._cells()
        label_w = self.label_width()
        for c, label in enumerate(self.head_labels()):
            p.drawText(QtCore.QRectF(label_w + c * w, label_top, w, label_h), center, label)
        for r in range(rows):
            p.drawText(QtCore.QRectF(0, top + r * h, label_w, h), center, f"L{r + 1}")
        # Colours first, then every number in one font: fewer state changes of the painter.
        for r in range(rows):
            for c in range(cols):
                if rgba[r, c, 3]:
                    p.fillRect(QtCore.QRectF(label_w + c * w + 1, top + r * h + 1, w - 2, h - 2),
                               QtGui.QColor(*map(int, rgba[r, c])))
        if number_font is not None:
            p.setFont(number_font)
            for r in range(rows):
                for c in range(cols):
                    if rgba[r, c, 3]:
                        p.setPen(QtGui.QColor(text_color_for(rgba[r, c])))
                        p.drawText(QtCore.QRectF(label_w + c * w, top + r * h, w, h), center,
                                   self._text(self.values[r, c], number_fmt))
        p.end()

    def cell_text(self, layer: int, head: int) -> str:
        """The number written in a cell (rounded to a whole number where the asked precision does not fit)."""
        return self._text(self.values[layer, head], self._numbers()[1])

    def _text(self, value: float, fmt: str | None = None) -> str:
        text = (fmt or self.fmt).format(value)
        # A drop of -0.04 rounds to "-0.0", which reads as a loss of its own beside "0.0": zero is unsigned.
        return text[1:] if text.startswith("-") and not any(ch in "123456789" for ch in text) else text

    def head_labels(self) -> list[str]:
        """The column labels as painted: 'H1'… where they fit a cell, else the bare numbers (at 1024 × 768
        the 21-px cells ran 'H1H2H3…' into one another, and zoomed they overprinted)."""
        cols = self.values.shape[1]
        widest = self.fontMetrics().horizontalAdvance(f"H{cols}")
        prefix = "H" if widest + 2 <= self.cell_rect(0, 0).width() else ""
        return [f"{prefix}{c + 1}" for c in range(cols)]

    def number_font(self) -> QtGui.QFont | None:
        """The font the cells' numbers are written in: the widget's, made smaller until the widest number
        fits a cell (a 1024-pixel window's three grids have cells of ~20 px, which showed colours alone);
        None when even the smallest does not fit."""
        return self._numbers()[0]

    def _numbers(self) -> tuple[QtGui.QFont | None, str]:
        """(font, format) of the cell numbers: the asked precision in the largest font that fits, else
        whole numbers (BLEU drops of "-10.3" did not fit the 21-px cells of a 1024-pixel window even at
        60 %, and the grids showed colours alone); (None, format) when not even those fit. Grids side by
        side (``peers``) round alike: one grid in whole numbers beside two in tenths read as if its heads
        were measured more coarsely."""
        if any(peer is not self and peer._fitted_numbers()[1] != peer.fmt for peer in self.peers):
            return self._fitted_numbers(("{:.0f}",))
        return self._fitted_numbers()

    def _fitted_numbers(self, formats: tuple[str, ...] | None = None) -> tuple[QtGui.QFont | None, str]:
        finite = self.values[np.isfinite(self.values)]
        if finite.size == 0:
            return None, self.fmt
        cell = self.cell_rect(0, 0)
        # Whole numbers only where they still tell cells apart: BLEU drops of 0 to 20 round to a point of
        # 20, but importances of 0.1 to 0.7 read "0" and "1" (a zoomed Chinese window showed just that).
        whole_ok = float(finite.max() - finite.min()) >= WHOLE_NUMBERS_SPAN
        for fmt in formats or dict.fromkeys((self.fmt, "{:.0f}")):
            if fmt == "{:.0f}" != self.fmt and not whole_ok:
                continue  # rounded, these values would all read alike
            texts = [self._text(v, fmt) for v in (finite.min(), finite.max())]
            font = QtGui.QFont(self.font())
            base = self.font().pointSizeF()
            for factor in NUMBER_SHRINK:
                font.setPointSizeF(base * factor)
                metrics = QtGui.QFontMetricsF(font)
                widest = max(metrics.horizontalAdvance(t) for t in texts)
                if widest + 2 <= cell.width() and metrics.height() <= cell.height():
                    return font, fmt
        return None, self.fmt


class ScaleBar(QtWidgets.QWidget):
    """The grids' colour scale as a strip: the colour map from ``low`` to ``high`` with both ends named,
    so a colour reads as a number where a cell is too small to write it."""

    def __init__(self, colormap: str = "viridis", parent=None) -> None:
        super().__init__(parent)
        self.colormap = colormap
        self.levels: tuple[float, float] | None = None
        self.unit = ""
        self.setFixedHeight(self.fontMetrics().height() + 14)
        self.setMinimumWidth(160)

    def set_levels(self, low: float, high: float, unit: str = "") -> None:
        self.levels, self.unit = (float(low), float(high)), unit
        self.update()

    def clear(self) -> None:
        self.levels = None
        self.update()

    def end_labels(self) -> tuple[str, str]:
        """The texts at the strip's two ends ('' when there is no scale)."""
        if self.levels is None:
            return "", ""
        low, high = self.levels
        return f"{low:.1f}", f"{high:.1f} {again(self.unit)}".strip()  # the unit in the language shown now

    def changeEvent(self, event) -> None:  # noqa: N802 - Qt override: zoom changes the font
        if event.type() == QtCore.QEvent.Type.FontChange:
            self.setFixedHeight(self.fontMetrics().height() + 14)
        super().changeEvent(event)

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt override
        if self.levels is None:
            return
        p = QtGui.QPainter(self)
        left, right = self.end_labels()
        metrics = self.fontMetrics()
        x0 = metrics.horizontalAdvance(left) + 8
        x1 = self.width() - metrics.horizontalAdvance(right) - 8
        strip = QtCore.QRectF(x0, 4, max(1.0, x1 - x0), self.height() - 8)
        rgba = map_to_rgba(np.linspace(0.0, 1.0, 64), self.colormap)
        step = strip.width() / len(rgba)
        for i, color in enumerate(rgba):
            p.fillRect(QtCore.QRectF(strip.x() + i * step, strip.y(), step + 1, strip.height()),
                       QtGui.QColor(*map(int, color)))
        p.setPen(self.palette().color(QtGui.QPalette.ColorRole.WindowText))
        vcenter = QtCore.Qt.AlignmentFlag.AlignVCenter
        p.drawText(QtCore.QRectF(0, 0, x0 - 4, self.height()), vcenter | QtCore.Qt.AlignmentFlag.AlignRight, left)
        p.drawText(QtCore.QRectF(x1 + 4, 0, self.width() - x1, self.height()), vcenter, right)
        p.end()
