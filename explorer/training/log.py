"""The Train tab's log: one time-stamped line per event of a run, errors in the error colour.

Its own widget so the cap on its length and the line format live in one place; the panel only
says what happened.
"""

from __future__ import annotations

import time

from PySide6 import QtGui, QtWidgets

from explorer.ui import style

MAX_LOG_LINES = 2000  # a run of days logs a line per checkpoint; older lines go first


class TrainLog(QtWidgets.QListWidget):
    """A list of ``HH:MM:SS  text`` lines that keeps the newest in view."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setWordWrap(True)
        self.setAlternatingRowColors(True)

    def add(self, text: str, error: bool = False) -> None:
        item = QtWidgets.QListWidgetItem(f"{time.strftime('%H:%M:%S')}  {text}")
        if error:
            item.setForeground(QtGui.QColor(style.ERROR))
        self.addItem(item)
        while self.count() > MAX_LOG_LINES:
            self.takeItem(0)
        self.scrollToBottom()

    def lines(self) -> list[str]:
        return [self.item(i).text() for i in range(self.count())]
