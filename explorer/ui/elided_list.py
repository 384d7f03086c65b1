"""A list of one-line texts that keeps to its column: a text too long for its row ends in "…" instead of
the list scrolling sideways, and the row's tooltip holds the whole text.

The sentence panel's "Recent sentences" was a plain QListWidget, whose rows are as wide as their text:
one long sentence gave it a horizontal scroll bar, and zoomed twice on a 1024 × 768 projector that bar
covered the one row the panel sizes the list to show. Here no row is wider than the viewport, so there
is nothing to scroll to, and the delegate cuts the text to the row.

``rows_resized`` says when the rows' height has changed with the font: the font of a zoom reaches the list
after the zoom's own code has run, so a list sized by its rows then (the panel's) kept the old height,
and zoomed after three sentences the third was cut in half.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QModelIndex, QSize, Qt, Signal
from PySide6.QtWidgets import QListView, QListWidget, QStyledItemDelegate, QStyleOptionViewItem, QWidget


class _ViewportWideRows(QStyledItemDelegate):
    """Rows at most as wide as the list's viewport (their height as the style gives it)."""

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex) -> QSize:  # Qt override
        hint = super().sizeHint(option, index)
        return QSize(min(hint.width(), self.parent().viewport().width()), hint.height())


class ElidedList(QListWidget):
    """A QListWidget whose rows fit its width, each with its whole text as its tooltip."""

    rows_resized = Signal()  # the font changed, and with it the rows' height

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setItemDelegate(_ViewportWideRows(self))
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.setWordWrap(False)  # one line a row: the panel sizes the list by its rows
        # The rows are measured again whenever the viewport's width changes (the column, the zoom).
        self.setResizeMode(QListView.ResizeMode.Adjust)
        self.model().rowsInserted.connect(self._give_tooltips)

    def changeEvent(self, event: QEvent) -> None:  # Qt override
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self.rows_resized.emit()

    def _give_tooltips(self, _parent: QModelIndex, first: int, last: int) -> None:
        for row in range(first, last + 1):
            item = self.item(row)
            if item is not None and not item.toolTip():
                item.setToolTip(item.text())  # the whole sentence, however the row cuts it
