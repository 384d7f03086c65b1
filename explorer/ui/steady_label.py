"""A one-line label for a count or a time left that changes every second without re-laying out the window.

Why: a QLabel asks its parent's layout for a new layout on every ``setText`` (``updateGeometry``), and
the request climbs to the window. The workbench's "ETA 1 min 05 s" changed with every progress report,
and each change re-laid out the whole workbench and repainted its three importance grids: ~10 ms of
Python paint code each, run on the GUI thread while the analysis worker holds the interpreter lock most
of the time, so the event loop stalled 35–80 ms every second or two (``python -m
benchmarks.workbench_stall``: the stalls' stacks were all ``ValueGrid.paintEvent``; with the label
held, no grid paints during a run).

Qt skips that request for a widget whose minimum and maximum sizes are equal, so this label keeps a
fixed size: it grows when a longer text needs it (one layout), never shrinks while a run goes on
(``hold(False)`` lets it fit its text again), and follows its font (zoom).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt
from PySide6.QtWidgets import QLabel


class SteadyLabel(QLabel):
    """A QLabel of fixed size that only grows, so new texts of similar length cost no layout."""

    def __init__(self, text: str = "", parent=None) -> None:
        super().__init__(parent)
        self._held = False
        self.setText(text)

    def setText(self, text: str) -> None:  # noqa: N802 - Qt override
        super().setText(text)
        self._fit()

    def hold(self, held: bool) -> None:
        """While held, the label never shrinks; released, it fits its text again (at the run's end)."""
        self._held = bool(held)
        if not held:
            self._fit()

    def _fit(self) -> None:
        # The text's own size (QLabel's hint is no use here: it includes the fixed size set before).
        text = self.fontMetrics().size(Qt.TextFlag.TextSingleLine, self.text())
        margins = self.contentsMargins()
        width = text.width() + margins.left() + margins.right() + 2 * self.margin()
        height = max(text.height(), self.fontMetrics().height()) + margins.top() + margins.bottom() + 2 * self.margin()
        if self._held:
            width, height = max(width, self.minimumWidth()), max(height, self.minimumHeight())
        size = QSize(width, height)
        if self.minimumSize() != size or self.maximumSize() != size:
            self.setFixedSize(size)

    def changeEvent(self, event) -> None:  # noqa: N802 - Qt override: zoom changes the font
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            was, self._held = self._held, False  # a new font: the held width was in the old one's pixels
            self._fit()
            self._held = was
