"""The clock view's table: for each shown (sin, cos) pair, the turn ω·k the formula predicts and the turn
measured on the encoding table from PE(pos) to PE(pos + k) at several pos, in degrees. Numbers the class
can compare column by column: they are equal, which is the paper's PE(pos + k) = M_k·PE(pos)."""

from __future__ import annotations

import numpy as np
from PySide6 import QtCore, QtWidgets

from explorer.ui.i18n import tr


class TurnTable(QtWidgets.QTableWidget):
    """Rows: pairs; columns: dims, ω·k, then one column per pos ("pos → pos + k")."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.NoEditTriggers)
        self.verticalHeader().hide()
        self.horizontalHeader().setSectionResizeMode(QtWidgets.QHeaderView.ResizeMode.Stretch)

    def fill(self, dims: list[str], k: int, positions: list[int], expected: np.ndarray,
             measured: np.ndarray) -> None:
        """``expected``: (pairs,) degrees; ``measured``: (pairs, positions) degrees."""
        headers = [tr("dims"), f"ω·{k}"] + [f"{p} → {p + k}" for p in positions]
        self.setColumnCount(len(headers))
        self.setRowCount(len(dims))
        self.setHorizontalHeaderLabels(headers)
        for r, name in enumerate(dims):
            cells = [name, f"{expected[r]:.2f}°"] + [f"{v:.2f}°" for v in measured[r]]
            for col, text in enumerate(cells):
                item = self.item(r, col)
                if item is None:
                    item = QtWidgets.QTableWidgetItem()
                    item.setTextAlignment(QtCore.Qt.AlignmentFlag.AlignCenter)
                    self.setItem(r, col, item)
                item.setText(text)
