"""A scroll area for columns of controls: it scrolls up and down, never sideways.

Qt's QScrollArea reports a minimum width of a few pixels, so a splitter may squeeze it until its
combo boxes and buttons are cut off; and a fixed minimum taken once goes stale when the font is
zoomed. This one's minimum width is always its contents' current minimum plus the scroll bar.
It also guards its column's fields against the wheel (see wheel_guard.py).
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QFrame, QScrollArea, QWidget

from explorer.ui.wheel_guard import WheelGuard


class ColumnScrollArea(QScrollArea):
    """Holds ``widget`` at full width; only the vertical scroll bar ever shows."""

    def __init__(self, widget: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWidget(widget)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # Turning the wheel down the column scrolls it; a spin box or combo under the pointer on the
        # way takes the wheel only once it has focus (a column's fields, not only the Train form's).
        self.wheel_guard = WheelGuard(widget, self)

    def minimumSizeHint(self) -> QSize:  # Qt override
        inner = self.widget().minimumSizeHint().width() if self.widget() is not None else 0
        return QSize(inner + self.verticalScrollBar().sizeHint().width() + 2 * self.frameWidth(),
                     super().minimumSizeHint().height())
