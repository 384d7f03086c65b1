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
        # By pixel, so that the end of the list is the newest line's last row, not its first: the run's
        # data report wraps to three lines.
        self.setVerticalScrollMode(QtWidgets.QAbstractItemView.ScrollMode.ScrollPerPixel)
        # A log at its end stays at its end when it gets shorter: the run's first probe hands most of the
        # tab's height to the maps right after the data report came in, which slid below the bottom edge.
        # One the user has scrolled back through stays where it is.
        self._at_end = True
        self.verticalScrollBar().valueChanged.connect(self._on_scrolled)
        self.verticalScrollBar().rangeChanged.connect(self._on_range)

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

    def _on_scrolled(self, value: int) -> None:
        self._at_end = value >= self.verticalScrollBar().maximum()

    def _on_range(self, _low: int, high: int) -> None:
        if self._at_end:
            self.verticalScrollBar().setValue(high)
