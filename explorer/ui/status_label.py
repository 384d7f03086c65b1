"""The status line's message: drawn elided ("…") where the bar is narrower than the message.

Why: a QLabel asks for its whole text's width. In the status bar a long message (a model folder's path,
an error) then ran under the permanent labels beside it ("…spm.mo Device: cpu", a walk-through at
1024 × 768). This one asks for little room, draws as much of its text as fits, and keeps the whole text
for ``text()`` and, when cut, for its tooltip.
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets


class StatusLabel(QtWidgets.QLabel):
    """A one-line QLabel that shrinks below its text's width and then draws it elided."""

    def minimumSizeHint(self) -> QtCore.QSize:  # noqa: N802 - Qt override
        return QtCore.QSize(self.fontMetrics().horizontalAdvance("…") * 4, super().minimumSizeHint().height())

    def setText(self, text: str) -> None:  # noqa: N802 - Qt's name
        super().setText(text)
        self._tip()

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self._tip()

    def shown_text(self) -> str:
        """The text as drawn: whole, or cut with "…" to the label's width."""
        return self.fontMetrics().elidedText(self.text(), QtCore.Qt.TextElideMode.ElideRight,
                                             max(1, self.contentsRect().width()))

    def _tip(self) -> None:
        self.setToolTip(self.text() if self.shown_text() != self.text() else "")

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt override
        painter = QtGui.QPainter(self)
        painter.setPen(self.palette().color(self.foregroundRole()))
        painter.drawText(self.contentsRect(), int(self.alignment()) | int(QtCore.Qt.AlignmentFlag.AlignVCenter),
                         self.shown_text())
