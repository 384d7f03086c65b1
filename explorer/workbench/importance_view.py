"""Head importance (Michel et al. 2019) in the workbench: one layers × heads grid per attention kind
coloured by the BLEU lost when that head alone is removed, and the pruning curve (BLEU as heads are removed
in order of least importance). Binds ``model.records.research.Importance`` only; runs happen elsewhere.

The three grids share one colour scale (0 to the largest drop), so a dark cell means the same loss in every
kind; a negative drop (BLEU *rose* without the head) is drawn in the colour of zero, its number says so.
"""

from __future__ import annotations

import json

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtWidgets

from explorer.ui.colormaps import DEFAULT_COLORMAP
from explorer.ui.i18n import N_, tr, translate
from explorer.ui.plain_axes import plain_axes
from explorer.ui.roomy_axis import RoomyAxis
from explorer.ui.steady_row import SteadyRow
from explorer.workbench.export_file import export_to
from explorer.workbench.run_bar import RunBar
from explorer.workbench.value_grid import GRID_TITLES, ScaleBar, ValueGrid
from model.records import KINDS
from model.records.research import Importance, parse_head

HINT = N_("Run to score every head: each is removed alone and the test set translated again (greedy).")
# Which of the two measures the grids show: the gradient estimate comes first (seconds), the exact run after.
SHOWN_ESTIMATE = N_("Shown: gradient estimate (|∂loss/∂gate| per head, Michel et al. 2019); the exact BLEU drop "
                    "follows.")
SHOWN_EXACT = N_("Shown: exact BLEU drop (each head removed and the test set translated again).")
SHOWN_ESTIMATE_ONLY = N_("Shown: gradient estimate (|∂loss/∂gate| per head, Michel et al. 2019); the exact run "
                         "was cancelled.")

CURVE_PEN = "#1f5fbf"
AXIS_TITLE_SCALE = 0.85  # the curve's axis titles over the window's type: a little smaller than the text


def head_name(name: str) -> str:
    """'cross:1.1' (the command line's notation) as the grids label it: 'Cross (encoder–decoder) L1 H1'."""
    kind, layer, head = parse_head(name)
    return tr("{kind} L{layer} H{head}", kind=tr(GRID_TITLES[kind]), layer=layer + 1, head=head + 1)


class ImportanceView(QtWidgets.QWidget):
    """Run bar, three drop grids and the pruning curve; ``export(path)`` writes CSV or JSON."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.result: Importance | None = None
        self.shape = (0, 0)  # (layers, heads) of the model the result belongs to
        self.run_bar = RunBar(needs_reference=True)
        self.summary = QtWidgets.QLabel(HINT)
        self.summary.setWordWrap(True)
        self.estimate = None  # the GradientImportance shown until the exact result arrives
        self._kept = None  # (exact result, shape) an estimate replaced, until the run ends
        self.shown = QtWidgets.QLabel("")  # says which measure the grids show
        self.shown.setWordWrap(True)
        # Held at its tallest: the two-line estimate note and the one-line exact one had moved the grids
        # 19 px down and back within every run (walk-through, 2026-12-05).
        self.shown_row = SteadyRow(self.shown)
        self.shown_row.hold(True)
        self.export_button = QtWidgets.QPushButton("Export…")
        self.export_button.setEnabled(False)
        self.export_button.clicked.connect(self._export_dialog)
        self.grids = {k: ValueGrid(GRID_TITLES[k], DEFAULT_COLORMAP) for k in KINDS}
        for grid in self.grids.values():
            grid.peers = list(self.grids.values())  # side by side: titles of one height, cells level
        self.scale_bar = ScaleBar(DEFAULT_COLORMAP)  # the grids' shared scale: BLEU lost, 0 to the largest
        # Its numbers' spacing follows their type (RoomyAxis): zoomed at 1024 px the curve is ~60 px tall
        # and its 0, 0.2, … 1.0 stood on each other.
        self.curve_plot = pg.PlotWidget(enableMenu=False, axisItems={"left": RoomyAxis("left"),
                                                                         "bottom": RoomyAxis("bottom")})
        self.curve_plot.setBackground(None)
        plain_axes(self.curve_plot)
        self.curve_plot.setLabel("bottom", "heads removed (least important first)")
        self.curve_plot.setLabel("left", "BLEU")
        # Low enough that the grids above keep their rows at 1024 × 768 zoomed twice (the curve gives way).
        self.curve_plot.setMinimumHeight(100)
        # Room over the plot and right of it for the half of the top and last tick labels that sticks out
        # past the axes' ends: the "1.0" at the top of the BLEU axis was cut in half.
        self.curve_plot.getPlotItem().layout.setContentsMargins(2, 10, 12, 2)
        self._fit_axis_titles()
        self.curve = self.curve_plot.plot([], [], pen=pg.mkPen(CURVE_PEN, width=2), symbol="o", symbolSize=4,
                                          symbolBrush=CURVE_PEN)

        head = QtWidgets.QHBoxLayout()
        head.addWidget(self.summary, 1)
        head.addWidget(self.export_button)
        grids = QtWidgets.QHBoxLayout()
        for k in KINDS:
            grids.addWidget(self.grids[k])
        layout = QtWidgets.QVBoxLayout(self)
        layout.addWidget(self.run_bar)
        layout.addWidget(self.shown_row)
        layout.addLayout(head)
        layout.addLayout(grids, 3)
        layout.addWidget(self.scale_bar)
        layout.addWidget(self.curve_plot, 2)

    def set_result(self, result: Importance, n_layers: int, n_heads: int) -> None:
        """Fill the grids and the curve from ``result`` of a model with this many layers and heads."""
        self.result, self.shape, self.estimate, self._kept = result, (n_layers, n_heads), None, None
        self.shown.setText(translate(SHOWN_EXACT))
        drops = {k: result.drop_grid(k, n_layers, n_heads) for k in KINDS}
        top = max([float(np.nanmax(d)) for d in drops.values() if np.isfinite(d).any()] + [1e-9])
        # From the lowest drop when one is negative (a head whose removal raised BLEU): from 0 those were
        # drawn in 0's colour, and a researcher could not see the heads that hurt.
        low = min([float(np.nanmin(d)) for d in drops.values() if np.isfinite(d).any()] + [0.0])
        for k in KINDS:
            self.grids[k].set_values(drops[k], levels=(low, top), fmt="{:.1f}")
        self.scale_bar.set_levels(low, top, tr("BLEU lost"))
        x = np.arange(len(result.curve) + 1)
        self.curve_plot.enableAutoRange()  # the axes fit this result (clear() fixed them for none)
        self.curve.setData(x, [result.bleu] + [h.bleu for h in result.curve])
        worst = max(result.heads, key=lambda h: result.bleu - h.bleu)
        self.summary.setText(tr(
            "Full model: BLEU {bleu:.1f}, chrF {chrf:.1f} on {n} sentences{cached}. Cells: BLEU lost without the "
            "head; most important: {head}, {drop:.1f} lost.", bleu=result.bleu, chrf=result.chrf, n=result.sentences,
            cached=tr(" (from the cache)") if result.cached else "", head=head_name(worst.head),
            drop=result.bleu - worst.bleu))
        self.export_button.setEnabled(True)

    def set_estimate(self, estimate, n_layers: int, n_heads: int) -> None:
        """Show the gradient estimate (``GradientImportance``) while the exact run goes on: the grids
        coloured by |∂loss/∂gate|, no pruning curve (it needs the exact run). An exact result shown
        before is kept aside: a run cancelled now brings it back (``restore``)."""
        if self.result is not None:
            self._kept = (self.result, self.shape)
        self.result, self.estimate, self.shape = None, estimate, (n_layers, n_heads)
        self.shown.setText(translate(SHOWN_ESTIMATE))
        grids = {k: estimate.grid(k, n_layers, n_heads) for k in KINDS}
        top = max([float(np.nanmax(g)) for g in grids.values() if np.isfinite(g).any()] + [1e-9])
        for k in KINDS:
            self.grids[k].set_values(grids[k], levels=(0.0, top), fmt="{:.2f}")
        # The scale says what the colours are now: it still read "0.0 … 7.7 BLEU lost" of the run before.
        self.scale_bar.set_levels(0.0, top, tr("|∂loss/∂gate|"))
        self.curve.setData([], [])
        best = max(estimate.scores, key=lambda s: s[1])
        self.summary.setText(tr("Loss {loss:.3f} on {n} sentences. Cells: |∂loss/∂gate|; largest {head}, {value:.2f}.",
                                loss=estimate.loss, n=estimate.sentences, head=head_name(best[0]), value=best[1]))
        self.export_button.setEnabled(False)  # exports write the exact result

    def axis_title_point_size(self) -> float:
        """The point size the pruning curve's axis titles are written in."""
        return self._axis_point_size

    def changeEvent(self, event) -> None:  # noqa: N802 - Qt override: zoom changes the application font
        if event.type() == QtCore.QEvent.Type.FontChange:
            self._fit_axis_titles()
        super().changeEvent(event)

    def _fit_axis_titles(self) -> None:
        """The curve's axis titles at the window's type (pyqtgraph writes them at a fixed 9 pt, so zoomed
        twice they stood at half the size of the numbers under them)."""
        self._axis_point_size = AXIS_TITLE_SCALE * self.font().pointSizeF()
        for name in ("left", "bottom"):
            axis = self.curve_plot.getAxis(name)
            axis.setLabel(axis.labelText, **{"font-size": f"{self._axis_point_size:.1f}pt"})

    def restore(self) -> bool:
        """After a cancelled run: the exact result shown before its estimate, again; False when none, and
        the estimate, if one is shown, stays with a note that no exact drop follows it now."""
        kept, self._kept = self._kept, None
        if kept is None:
            if self.estimate is not None and self.result is None:
                self.shown.setText(translate(SHOWN_ESTIMATE_ONLY))
            return False
        self.set_result(kept[0], *kept[1])
        return True

    def clear(self) -> None:
        """No result (another model): the grids, the curve and the summary go back to the start."""
        self.result, self.estimate, self._kept = None, None, None
        self.shown.setText("")
        self.shown_row.hold(False)  # another model: the row fits again, from nothing
        self.shown_row.hold(True)
        self.summary.setText(translate(HINT))
        for g in self.grids.values():
            g.clear()
        self.scale_bar.clear()
        self.curve.setData([], [])
        # Without data pyqtgraph keeps the last range: the new model's empty curve read 0-90 heads and
        # BLEU 0-40, the previous model's.
        self.curve_plot.getPlotItem().setRange(xRange=(0, 1), yRange=(0, 1), padding=0)
        self.export_button.setEnabled(False)

    def curve_points(self) -> tuple[np.ndarray, np.ndarray]:
        x, y = self.curve.getData()
        return (np.zeros(0), np.zeros(0)) if x is None else (np.asarray(x), np.asarray(y))

    def export(self, path: str) -> None:
        """Write the result as JSON (a .json path) or as CSV (anything else), one row per head."""
        if self.result is None:
            raise ValueError("no importance result to export")
        text = (json.dumps(self.result.to_json(), indent=1) if path.lower().endswith(".json")
                else self.result.csv())
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)

    def _export_dialog(self) -> None:
        said = export_to(self, N_("Export head importance"), "head-importance.csv", "CSV (*.csv);;JSON (*.json)",
                         self.export)
        if said:
            self.run_bar.show_message(said)

