"""A word-wrapped label whose new text re-lays out the window only when its height changes.

Why: the Head view's statistics line gets a new text on every head switch. A QLabel in a layout
asks for a new layout on every ``setText`` (``updateGeometry``), whether or not its size changed,
and the request climbs panel by panel to the main window, each level a turn of the event loop with a
repaint of its own: five paint passes per switch instead of two, repainting the map's strip and the
whole control row again (measured on an 11-piece sentence: ~33 ms of CPU per switch against ~17 ms
with the label's size held, a 40 ms pause's polling included in both; a held arrow key's 30 switches a
second no longer fall behind).

The row holds the label without a layout of its own, so the label's requests stop here; the row
asks its parent's layout for a new height only when the label's wrapped height at the row's width
changes (``refit``, run on the label's request and on the row's resize). ``hold`` keeps it from
shrinking meanwhile: the one-line "Translating…" note in place of two lines of statistics made the
map grow 19 px and shrink back with every translation, repainted six times on the way (measured).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget


class SteadyRow(QWidget):
    """Holds ``label`` at its full width and at the height its text wraps to."""

    def __init__(self, label: QLabel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = label
        label.setParent(self)
        self._height = 0
        self._held = False
        # Any width the layout gives (the label wraps); the height is the one this row asks for.
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.refit()

    def sizeHint(self) -> QSize:  # Qt override
        return QSize(0, self._height)

    def minimumSizeHint(self) -> QSize:  # Qt override
        return QSize(0, self._height)

    def hold(self, held: bool) -> None:
        """While held, the row grows for a longer text but never shrinks; released, it fits again."""
        self._held = bool(held)
        if not held:
            self.refit()

    def refit(self) -> None:
        """Ask the layout for the label's wrapped height at the current width, if it is a new one."""
        label = self.label
        width = max(1, self.width())
        height = label.heightForWidth(width) if label.wordWrap() else label.sizeHint().height()
        if self._held:
            height = max(height, self._height)
        if height != self._height:
            self._height = height
            self.updateGeometry()

    def resizeEvent(self, event) -> None:  # Qt override
        self.label.setGeometry(self.rect())
        self.refit()
        super().resizeEvent(event)

    def event(self, event) -> bool:  # Qt override
        # The label's updateGeometry() posts this to a parent without a layout: its text, font or
        # margins changed; the label's height may not have.
        if event.type() == QEvent.Type.LayoutRequest:
            self.refit()
            return True
        return super().event(event)
