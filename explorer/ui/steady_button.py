"""A push button as wide as the widest of the texts it takes turns showing.

Why: Translate reads "Translating…" while the worker runs, a third wider; sitting after a stretch, the
button grew to the left and shrank back with every translation, and each change re-laid out the
sentence column (measured: a resize and a layout pass per translation). Sized for both texts, in the
language and font of the moment, it keeps its place.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QPushButton, QStyle, QStyleOptionButton

from explorer.ui.i18n import tr


class SteadyWidthButton(QPushButton):
    """``texts``: the English sources of every text the button shows (the first is shown now)."""

    def __init__(self, *texts: str) -> None:
        super().__init__(texts[0])
        self._texts = texts

    def _hint_for(self, text: str) -> QSize:
        """What ``sizeHint`` would be with ``text`` shown: the text's size grown by the style's frame."""
        option = QStyleOptionButton()
        self.initStyleOption(option)
        option.text = text
        size = self.fontMetrics().size(Qt.TextFlag.TextShowMnemonic, text)
        return self.style().sizeFromContents(QStyle.ContentsType.CT_PushButton, option, size, self)

    def _widest(self, hint: QSize) -> QSize:
        for text in self._texts:
            hint = hint.expandedTo(self._hint_for(tr(text)))
        return hint

    def sizeHint(self) -> QSize:  # Qt override
        return self._widest(super().sizeHint())

    def minimumSizeHint(self) -> QSize:  # Qt override
        return self._widest(super().minimumSizeHint())
