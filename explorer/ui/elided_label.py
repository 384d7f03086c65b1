"""A one-line label that ends in "…" where its column is too narrow, and says whether it did.

The Train tab's replay row ("Step 220 (22 of 22): 3 1 4 1 5 9 2 6 → 6 2 9 5 1 4 1 3") shares a line with
its heading and slider; zoomed twice on a 1024 × 768 projector the sentence ran past the window's edge,
cut mid-word with no sign that more followed. Here the text is cut to the label's width with "…", and the
owner can put the whole text in a tooltip (``is_elided``, ``full_text``).
"""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets

MIN_WIDTH = 10  # a long text must never set the column's width


class ElidedLabel(QtWidgets.QLabel):
    """A QLabel that shows as much of one line as fits, "…" last; ``elided`` is sent when that changes."""

    elided = QtCore.Signal(bool)

    def __init__(self, text: str = "", parent: QtWidgets.QWidget | None = None) -> None:
        super().__init__(parent)
        self._full, self._cut = "", False
        self.setTextFormat(QtCore.Qt.TextFormat.PlainText)
        self.setMinimumWidth(MIN_WIDTH)
        self.setText(text)

    def setText(self, text: str) -> None:  # noqa: N802 - Qt's name
        self._full = text
        self._fit()

    def full_text(self) -> str:
        return self._full

    def is_elided(self) -> bool:
        return self._cut

    def sizeHint(self) -> QtCore.QSize:  # noqa: N802 - Qt override: the width the whole text wants
        hint = super().sizeHint()
        return QtCore.QSize(self.fontMetrics().horizontalAdvance(self._full) + 8, hint.height())

    def minimumSizeHint(self) -> QtCore.QSize:  # noqa: N802 - Qt override
        return QtCore.QSize(MIN_WIDTH, super().minimumSizeHint().height())

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self._fit()

    def changeEvent(self, event) -> None:  # noqa: N802 - Qt override: a zoom changes the text's width
        super().changeEvent(event)
        if event.type() == QtCore.QEvent.Type.FontChange:
            self._fit()

    def _fit(self) -> None:
        width = self.contentsRect().width()
        shown = self.fontMetrics().elidedText(self._full, QtCore.Qt.TextElideMode.ElideRight, max(MIN_WIDTH, width))
        if shown != super().text():
            super().setText(shown)
        cut = shown != self._full
        if cut != self._cut:
            self._cut = cut
            self.elided.emit(cut)
