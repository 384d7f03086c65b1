"""Per-head statistics over a test set in the workbench: a sortable table (one row per head, the means of
``model.records.research.STATS``) and a layers × heads grid of one chosen statistic per attention kind.

It binds a ``HeadTable`` only. The table sorts by number, not by text (the cells carry the float), and the
CSV export writes the same text as ``attention-explorer heads stats --csv``.
"""

from __future__ import annotations

import numpy as np
from PySide6 import QtCore, QtWidgets

from explorer.attention.controls import SHORT_LABELS
from explorer.ui.colormaps import DEFAULT_COLORMAP
from explorer.ui.i18n import N_, tr, translate
from explorer.workbench.export_file import export_to
from explorer.workbench.run_bar import RunBar
from explorer.workbench.value_grid import GRID_TITLES, ValueGrid
from model.records import KINDS
from model.records.research import STATS, HeadTable

COLUMNS = ("kind", "layer", "head", *STATS)
STAT_TIPS = {
    "entropy": "mean entropy of a query row, bits (0 = all weight on one key)",
    "confidence": "mean largest weight of a row (Voita et al. 2019)",
    "distance": "mean attention distance Σ w·|i − j|",
    "previous": "mean weight on the previous token", "same": "mean weight on the same position",
    "next": "mean weight on the next token", "eos": "mean weight on </s>",
    "punctuation": "mean weight on punctuation pieces",
}


class NumberItem(QtWidgets.QTableWidgetItem):
    """A cell that sorts by its number; undefined (NaN) values sort last."""

    def __init__(self, value, text: str) -> None:
        super().__init__(text)
        self.value = value
        self.setFlags(self.flags() & ~QtCore.Qt.ItemFlag.ItemIsEditable)

    def __lt__(self, other) -> bool:
        a, b = self.value, getattr(other, "value", None)
        if isinstance(a, str) or isinstance(b, str):
            return str(a) < str(b)
        a = np.inf if a is None else a
        b = np.inf if b is None else b
        return a < b


class StatsView(QtWidgets.QWidget):
    """Run bar, the sortable table and the grid of one statistic; ``csv()`` is what Export writes."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.table_data: HeadTable | None = None
        self.run_bar = RunBar(needs_reference=False)
        self.summary = QtWidgets.QLabel("Run to translate the test set and average each head's statistics.")
        self.summary.setWordWrap(True)
        self.stat_combo = QtWidgets.QComboBox()
        self.stat_combo.addItems(STATS)
        for i, s in enumerate(STATS):
            self.stat_combo.setItemData(i, STAT_TIPS[s], QtCore.Qt.ItemDataRole.ToolTipRole)
        # By index: the items are translated in the Chinese window, and the text looked up in the English
        # STATS raised ValueError on every choice there (the grids stayed on entropy).
        self.stat_combo.currentIndexChanged.connect(lambda _: self._fill_grids())
        self.export_button = QtWidgets.QPushButton("Export CSV…")
        self.export_button.setEnabled(False)
        self.export_button.clicked.connect(self._export_dialog)
        self.table = QtWidgets.QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        for i, name in enumerate(COLUMNS):
            if name in STAT_TIPS:
                self.table.horizontalHeaderItem(i).setToolTip(STAT_TIPS[name])
        self.table.setSortingEnabled(True)
        self.table.verticalHeader().setVisible(False)
        self.grids = {k: ValueGrid(GRID_TITLES[k], DEFAULT_COLORMAP) for k in KINDS}

        bar = QtWidgets.QHBoxLayout()
        bar.addWidget(self.summary, 1)
        bar.addWidget(QtWidgets.QLabel("Grid:"))
        bar.addWidget(self.stat_combo)
        bar.addWidget(self.export_button)
        grids = QtWidgets.QHBoxLayout()
        for k in KINDS:
            grids.addWidget(self.grids[k])
        split = QtWidgets.QSplitter(QtCore.Qt.Orientation.Vertical)
        holder = QtWidgets.QWidget()
        holder.setLayout(grids)
        split.addWidget(self.table)
        split.addWidget(holder)
        layout = QtWidgets.QVBoxLayout(self)
        layout.addWidget(self.run_bar)
        layout.addLayout(bar)
        layout.addWidget(split, 1)

    def set_table(self, table: HeadTable) -> None:
        self.table_data = table
        rows = table.rows()
        self.table.setSortingEnabled(False)  # filling a sorted table moves rows under the loop
        self.table.setRowCount(len(rows))
        for r, row in enumerate(rows):
            for c, name in enumerate(COLUMNS):
                v = row[name]
                text = "–" if v is None else (f"{v:.3f}" if isinstance(v, float) else str(v))
                if name == "kind":  # in the window's language, as the attention buttons name the kinds
                    text = translate(SHORT_LABELS[v])
                self.table.setItem(r, c, NumberItem(v, text))
        self.table.setSortingEnabled(True)
        self.table.resizeColumnsToContents()
        self.summary.setText(tr("Means over {n} sentences (the model's greedy translations).", n=table.sentences))
        self.export_button.setEnabled(True)
        self._fill_grids()

    def _fill_grids(self) -> None:
        if self.table_data is None:
            return
        k = max(0, self.stat_combo.currentIndex())
        values = {kind: self.table_data.values[kind][:, :, k] for kind in KINDS}
        finite = np.concatenate([v[np.isfinite(v)] for v in values.values()])
        levels = (float(finite.min()), float(finite.max())) if finite.size else None
        for kind in KINDS:
            self.grids[kind].set_values(values[kind], levels=levels)

    def column_values(self, name: str) -> list:
        """The values of one column, top to bottom as the table shows them now (sorted or not)."""
        c = COLUMNS.index(name)
        return [self.table.item(r, c).value for r in range(self.table.rowCount())]

    def csv(self) -> str:
        if self.table_data is None:
            raise ValueError("no statistics to export")
        return self.table_data.csv()

    def export(self, path: str) -> None:
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(self.csv())

    def _export_dialog(self) -> None:
        said = export_to(self, N_("Export head statistics"), "head-stats.csv", "CSV (*.csv)", self.export)
        if said:
            self.run_bar.show_message(said)
