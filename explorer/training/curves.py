"""The live view of a training run: a strip of numbers and the loss, learning-rate and BLEU curves.

Both widgets only bind: they take ``TrainProgress`` records and draw them, nothing else. Like every
view, this module imports ``model.records`` and nothing else from the model, so it never pulls in torch.

The three curves share the step axis (linked x), so a spike in the loss lines up with the learning
rate at that moment; the learning-rate plot is there because the warmup-then-decay shape of the
paper's schedule is itself something a class asks about.
"""

from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

from explorer.ui.flow_layout import FlowLayout
from explorer.ui.plain_axes import plain_axes
from explorer.ui.plot_titles import release_title_width
from explorer.ui.roomy_axis import RoomyAxis
from model.records import TrainProgress

TRAIN_PEN = "#1f5fbf"  # the app's accent: the curve people look at first
VALID_PEN = "#d9480f"  # orange: tells apart from blue also for the common colour blindnesses
LR_PEN = "#2b8a3e"
BLEU_PEN = "#862e9c"
STACK_BELOW_PX = 560  # narrower than this, the three plots go one above the other
# Each plot's least height: below it the title and the step axis leave no room for the curve (on a
# 1024 x 768 screen a started run squeezed the three stacked plots into ~20-px strips). The panel
# scrolls the column instead (explorer/training/panel.py).
MIN_PLOT_PX = 120
PLOT_GAP_PX = 12  # the layout's spacing and margins around each plot, so each keeps MIN_PLOT_PX
STATS = ("step", "loss", "valid", "bleu", "speed", "elapsed", "eta", "memory")
STAT_TITLES = {"step": "Step", "loss": "Train loss", "valid": "Valid loss", "bleu": "Valid BLEU",
               "speed": "Tokens/s", "elapsed": "Elapsed", "eta": "ETA", "memory": "GPU memory"}


def format_duration(seconds: float | None) -> str:
    """'0:42', '12:05' or '3:02:09'; '–' when unknown (an ETA before the first steps)."""
    if seconds is None or not math.isfinite(seconds):
        return "–"
    seconds = round(max(0.0, seconds))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def _number(value: float | None, fmt: str) -> str:
    return "–" if value is None or not math.isfinite(value) else format(value, fmt)


def _rows(widths: list[int], room: int) -> int:
    """How many rows a flow of boxes of these widths takes in ``room`` pixels."""
    rows, used = 1, 0
    for w in widths:
        if used and used + w > room:
            rows, used = rows + 1, 0
        used += w
    return rows


class StatsStrip(QtWidgets.QWidget):
    """A row of 'title / value' pairs that wraps when narrow; the GPU memory pair is hidden on CPU runs."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        row = FlowLayout(self, spacing=0)
        row.setContentsMargins(4, 2, 4, 2)
        self._values: dict[str, QtWidgets.QLabel] = {}
        self._boxes: dict[str, QtWidgets.QWidget] = {}
        self._titles: dict[str, QtWidgets.QLabel] = {}
        self._cols: list[QtWidgets.QBoxLayout] = []
        bold = QtGui.QFont()
        bold.setBold(True)  # only bold is set, so the size keeps following the app's zoom
        for key in STATS:
            box = QtWidgets.QWidget()
            col = QtWidgets.QVBoxLayout(box)
            col.setContentsMargins(6, 0, 6, 0)
            col.setSpacing(0)
            title = QtWidgets.QLabel(STAT_TITLES[key])
            title.setEnabled(False)  # the palette's quiet text colour, still readable
            value = QtWidgets.QLabel("–")
            value.setFont(bold)
            value.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
            col.addWidget(title)
            col.addWidget(value)
            row.addWidget(box)
            self._values[key], self._boxes[key], self._titles[key] = value, box, title
            self._cols.append(col)
        self.clear()

    def side_by_side(self) -> bool:
        """Whether each title stands beside its value rather than above it."""
        return self._cols[0].direction() == QtWidgets.QBoxLayout.Direction.LeftToRight

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self._fit_pairs()

    def changeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().changeEvent(event)
        if event.type() == QtCore.QEvent.Type.FontChange:  # a zoom: the pairs' widths change
            QtCore.QTimer.singleShot(0, self, self._fit_pairs)

    def _fit_pairs(self) -> None:
        """Each title above its value while the pairs fit one row (a dashboard's columns); past that, beside
        it wherever that takes fewer lines. Beside the form on a projector, zoomed, most pairs had a row of
        their own, two lines each, and pushed the curves below the fold."""
        keys = [k for k in STATS if not self._boxes[k].isHidden()]
        titles = [self._titles[k].sizeHint().width() for k in keys]
        values = [self._values[k].sizeHint().width() for k in keys]
        room = self.width() - 8  # the strip's margins
        beside_widths = [t + v + 18 for t, v in zip(titles, values)]
        above = _rows([max(t, v) + 12 for t, v in zip(titles, values)], room) * 2  # lines
        flat = above > 2 and max(beside_widths) <= room and _rows(beside_widths, room) < above
        if flat == self.side_by_side():
            return
        direction = QtWidgets.QBoxLayout.Direction
        for col in self._cols:
            col.setDirection(direction.LeftToRight if flat else direction.TopToBottom)
            col.setSpacing(6 if flat else 0)
        self.updateGeometry()

    def clear(self) -> None:
        for label in self._values.values():
            label.setText("–")
        self._boxes["memory"].hide()
        if self._cols:
            self._fit_pairs()

    def value(self, key: str) -> str:
        return self._values[key].text()

    def update_from(self, p: TrainProgress) -> None:
        """Show what a record knows; fields it does not carry keep their last value."""
        limit = f" / {p.max_steps}" if p.max_steps else ""
        self._values["step"].setText(f"{p.step}{limit}")
        if p.event == "step":
            self._values["loss"].setText(_number(p.loss, ".3f"))
            self._values["speed"].setText(_number(p.tokens_per_s, ",.0f"))
        if p.valid_loss is not None:
            self._values["valid"].setText(_number(p.valid_loss, ".3f"))
        if p.valid_bleu is not None:
            self._values["bleu"].setText(_number(p.valid_bleu, ".1f"))
        if p.event not in ("start", "error"):  # those carry no timing of their own
            self._values["elapsed"].setText(format_duration(p.elapsed_s))
            done = p.event in ("done", "stopped")
            self._values["eta"].setText("0:00" if done else format_duration(p.eta_s))
        if p.gpu_mem_mb is not None:
            self._values["memory"].setText(f"{p.gpu_mem_mb / 1024:.2f} GiB")
            self._boxes["memory"].show()
        self._fit_pairs()  # the numbers' widths changed


class TrainingCurves(QtWidgets.QWidget):
    """Train and valid loss, learning rate and valid BLEU against the step, appended live."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.canvas = pg.GraphicsLayoutWidget()
        self.loss_plot = self._plot(0, "Loss per token")
        self.lr_plot = self._plot(1, "Learning rate")
        self.bleu_plot = self._plot(2, "Valid BLEU")
        # Loss gets twice the room: it is the curve the class watches.
        self.canvas.ci.layout.setColumnStretchFactor(0, 2)
        self._stacked = False
        self._scale = 1.0  # the font scale (zoom): the plots' least height grows with their type
        for plot in (self.lr_plot, self.bleu_plot):
            plot.setXLink(self.loss_plot)
        self.loss_plot.addLegend(offset=(-8, 8))
        self._series: dict[str, tuple[list[float], list[float]]] = {}
        self._curves = {
            "train": self.loss_plot.plot(name="train", pen=pg.mkPen(TRAIN_PEN, width=2)),
            "valid": self.loss_plot.plot(name="valid", pen=pg.mkPen(VALID_PEN, width=2),
                                         symbol="o", symbolSize=6, symbolBrush=VALID_PEN),
            "lr": self.lr_plot.plot(pen=pg.mkPen(LR_PEN, width=2)),
            "bleu": self.bleu_plot.plot(pen=pg.mkPen(BLEU_PEN, width=2), symbol="o", symbolSize=6,
                                        symbolBrush=BLEU_PEN),
        }
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.canvas)
        self._apply_palette()
        self._fit_minimum()
        self.clear()

    def _plot(self, col: int, title: str) -> pg.PlotItem:
        plot = self.canvas.addPlot(row=0, col=col, title=title, enableMenu=False,
                                   axisItems={"left": RoomyAxis("left"), "bottom": RoomyAxis("bottom")})
        plot.hideButtons()
        # Zoomed ×1.52 beside the form at 1024 px, a title's width held the canvas wider than its column:
        # the plots ran under the column's right edge with their legend ("trai", "vali") and last ticks.
        release_title_width(plot)
        plain_axes(plot)
        plot.showGrid(x=True, y=True, alpha=0.25)
        plot.setLabel("bottom", "step")
        return plot

    def _apply_palette(self) -> None:
        # Follow the app palette (light, high contrast on a projector) instead of pyqtgraph's black.
        palette = self.palette()
        text = palette.color(QtGui.QPalette.ColorRole.WindowText)
        self.canvas.setBackground(palette.color(QtGui.QPalette.ColorRole.Base))
        for plot in (self.loss_plot, self.lr_plot, self.bleu_plot):
            plot.titleLabel.setAttr("color", text.name())
            plot.titleLabel.setText(plot.titleLabel.text)
            for name in ("left", "bottom"):
                axis = plot.getAxis(name)
                axis.setPen(text)
                axis.setTextPen(text)

    # ----------------------------------------------------------------------------------- public API
    def clear(self) -> None:
        self._series = {name: ([], []) for name in self._curves}
        for curve in self._curves.values():
            curve.setData([], [])

    def add(self, p: TrainProgress) -> None:
        """Append what a record carries: step records feed loss and rate, valid records the rest."""
        if p.event == "step":
            self._append("train", p.step, p.loss)
            self._append("lr", p.step, p.lr)
        if p.valid_loss is not None:
            self._append("valid", p.step, p.valid_loss)
        if p.valid_bleu is not None:
            self._append("bleu", p.step, p.valid_bleu)

    def series(self, name: str) -> tuple[np.ndarray, np.ndarray]:
        """(steps, values) of 'train', 'valid', 'lr' or 'bleu', as drawn."""
        xs, ys = self._series[name]
        return np.asarray(xs, dtype=float), np.asarray(ys, dtype=float)

    def set_font_scale(self, f: float) -> None:
        self._scale = f
        self._fit_minimum()
        size = f"{max(6.0, 11.0 * f):.0f}pt"
        for plot in (self.loss_plot, self.lr_plot, self.bleu_plot):
            plot.titleLabel.setAttr("size", size)
            plot.titleLabel.setText(plot.titleLabel.text)
            font = QtGui.QFont(QtWidgets.QApplication.font())
            font.setPointSizeF(max(6.0, 9.0 * f))
            for name in ("left", "bottom"):
                plot.getAxis(name).setStyle(tickFont=font)

    def is_stacked(self) -> bool:
        return self._stacked

    def resizeEvent(self, event) -> None:  # Qt override
        super().resizeEvent(event)
        self._arrange(event.size().width() < STACK_BELOW_PX)

    # ------------------------------------------------------------------------------------ internals
    def _arrange(self, stacked: bool) -> None:
        """Side by side, or one above the other when narrow (beside the form on a 1024-px screen
        three columns left the BLEU plot off the edge)."""
        if stacked == self._stacked:
            return
        self._stacked = stacked
        layout = self.canvas.ci
        plots = (self.loss_plot, self.lr_plot, self.bleu_plot)
        for plot in plots:
            layout.removeItem(plot)
        for i, plot in enumerate(plots):
            layout.addItem(plot, row=i if stacked else 0, col=0 if stacked else i)
        grid = layout.layout
        for i in range(3):  # the loss keeps twice the room either way; a line or column left empty, none
            grid.setRowStretchFactor(i, (2 if i == 0 else 1) if stacked else (1 if i == 0 else 0))
            # (Stacked, the two emptied columns kept a stretch of 1 each: at 1024 × 768 the curves
            # took a third of their column, ~140 px, beside ~150 px of nothing.)
            grid.setColumnStretchFactor(i, (1 if i == 0 else 0) if stacked else (2 if i == 0 else 1))
        self._fit_minimum()

    def _fit_minimum(self) -> None:
        rows = 3 if self._stacked else 1
        # Zoomed, the title and the step axis take more of a plot's height: at ×1.52 a plot of MIN_PLOT_PX
        # kept a ~45-px strip of curve under its legend. Its least height grows with the type instead.
        self.setMinimumHeight(rows * (round(MIN_PLOT_PX * max(1.0, self._scale)) + PLOT_GAP_PX))
        self.updateGeometry()

    def sizeHint(self) -> QtCore.QSize:  # noqa: N802 - Qt override
        """As tall as the minimum: the curves stretch into whatever room they are given. The scroll area
        around them sizes its word-wrapped column by preferred heights, and pyqtgraph's 480 px made the
        column taller than the room at 1600 × 1000, where the curves' x axis sat below a scroll fold."""
        return QtCore.QSize(super().sizeHint().width(), self.minimumHeight())

    def _append(self, name: str, step: int, value: float) -> None:
        if value is None or not math.isfinite(value):
            return  # a NaN point would break the line; the error record explains it instead
        xs, ys = self._series[name]
        xs.append(float(step))
        ys.append(float(value))
        self._curves[name].setData(xs, ys)
        if name == "bleu":
            # BLEU reads on its 0–100 scale: anchor the axis at 0, or one point fills the plot with noise.
            self.bleu_plot.setYRange(0.0, max(ys) * 1.15 + 1.0, padding=0)
