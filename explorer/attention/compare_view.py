"""Compare: model A's map, model B's map of the same head on the same sentence, and B − A.

B is force-decoded on A's output (model/decoding/workbench.py), so both maps have the same query and key
pieces and the difference is cell by cell; the title says so. When the two tokenizers split the
sentence differently there are no common cells, and the view says that instead of drawing.
"""

from __future__ import annotations

import numpy as np
from PySide6 import QtCore, QtWidgets

from explorer.attention.difference_map import DifferenceMapView
from explorer.attention.heatmap import HeatmapView
from explorer.ui.i18n import tr
from model.records import KIND_TITLES

HINT = "File › Compare with model… opens a second model (another checkpoint of the run) to compare with."


class CompareView(QtWidgets.QWidget):
    """Three heatmaps side by side: A, B (same colour map, 0–1) and B − A (diverging, symmetric)."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._comparison = None
        self._state = ("encoder", 0, 0, False)
        self.header = QtWidgets.QLabel(HINT)
        self.header.setTextFormat(QtCore.Qt.TextFormat.PlainText)
        self.header.setWordWrap(True)
        self.header.setContentsMargins(8, 4, 8, 4)
        self.map_a, self.map_b, self.diff = HeatmapView(), HeatmapView(), DifferenceMapView()
        self.plots = QtWidgets.QSplitter(QtCore.Qt.Orientation.Horizontal)
        for view in (self.map_a, self.map_b, self.diff):
            self.plots.addWidget(view)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.header)
        layout.addWidget(self.plots, 1)
        self.plots.hide()

    def set_comparison(self, comparison) -> None:
        """A model.records.workbench.Comparison, or None (nothing to compare yet)."""
        self._comparison = comparison
        self._refresh()

    def comparison(self):
        return self._comparison

    def set_state(self, kind: str, layer: int, head: int, mean: bool = False) -> None:
        """Follow the attention panel's choice of map."""
        self._state = (kind, int(layer), int(head), bool(mean))
        self._refresh()

    def set_colormap(self, name: str) -> None:
        self.map_a.set_colormap(name)
        self.map_b.set_colormap(name)

    def set_font_scale(self, f: float) -> None:
        for view in (self.map_a, self.map_b, self.diff):
            view.set_font_scale(f)

    def difference(self) -> np.ndarray:
        """What the difference map shows: B − A for the chosen head (float32)."""
        kind, layer, head, mean = self._state
        return self._comparison.difference(kind, layer, None if mean else head)

    def _refresh(self) -> None:
        c = self._comparison
        if c is None:
            self.header.setText(HINT)
            self.plots.hide()
            return
        if not c.comparable:
            self.header.setText(tr("A: {a}   B: {b}\n{note}\nB translates it: {text}", a=c.name_a, b=c.name_b,
                                   note=c.note, text=c.text_b))
            self.plots.hide()
            return
        kind, layer, head, mean = self._state
        layer = min(layer, c.maps_a.n_layers - 1)
        head = min(head, c.maps_a.n_heads - 1)
        self._state = (kind, layer, head, mean)
        which = tr("mean of {n} heads", n=c.maps_a.n_heads) if mean else tr("head {h}", h=head + 1)
        rows, cols = c.maps_a.labels(kind)
        masked = c.maps_a.masked(kind)
        masked = masked if masked.any() else None
        self.header.setText(tr("{kind} — layer {layer}, {which}.   A: {a}   B: {b} ({note}).   "
                               "B's own translation: {text}", kind=tr(KIND_TITLES[kind]), layer=layer + 1,
                               which=which, a=c.name_a, b=c.name_b, note=c.note, text=c.text_b))

        def pick(maps):
            arr = maps.of_kind(kind)[layer]
            return arr.mean(axis=0, dtype=np.float32) if mean else arr[head]

        titles = (f"A: {c.name_a}", f"B: {c.name_b}", "B − A")  # the header says B is forced on A's output
        for view, values, title in ((self.map_a, pick(c.maps_a), titles[0]), (self.map_b, pick(c.maps_b), titles[1]),
                                    (self.diff, self.difference(), titles[2])):
            view.set_matrix(values, rows, cols, masked=masked, title=title, row_title="Query", col_title="Key")
        self.plots.show()
