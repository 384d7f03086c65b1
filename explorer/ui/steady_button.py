"""A push button as wide as the widest of the texts it takes turns showing ("▶ Play" / "❚❚ Pause").

Why: a button sized to its text changed width at every Play and Pause, and the Step tab's Next button
and slider moved sideways under the teacher's mouse (a walk-through at 1024 × 768).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QPushButton, QStyle, QStyleOptionButton


class SteadyButton(QPushButton):
    """``texts()`` gives every text the button may show, in the window's language at the time of asking
    (so a language switch, which sets a new text and so asks for a new size, is followed)."""

    def __init__(self, text: str, texts: Callable[[], Sequence[str]], parent=None) -> None:
        super().__init__(text, parent)
        self._texts = texts

    def sizeHint(self) -> QSize:  # Qt override
        hint = super().sizeHint()
        option = QStyleOptionButton()
        self.initStyleOption(option)
        metrics = self.fontMetrics()
        # As QPushButton measures its own text, for each text it may show: the style adds the frame.
        widest = max(metrics.size(Qt.TextFlag.TextShowMnemonic, t).width() for t in (*self._texts(), self.text()))
        size = self.style().sizeFromContents(QStyle.ContentsType.CT_PushButton, option,
                                             QSize(widest, metrics.lineSpacing()), self)
        return QSize(max(hint.width(), size.width()), hint.height())

    def minimumSizeHint(self) -> QSize:  # Qt override
        return QSize(self.sizeHint().width(), super().minimumSizeHint().height())
