"""A layout that places widgets left to right and wraps onto further rows when the width runs out.

Qt ships no such layout. Rows of read-outs use it so that a narrow window (a 1024-px projector, or a
large font) gets two rows instead of a minimum width that pushes the window off the screen.
"""

from __future__ import annotations

from PySide6 import QtCore, QtWidgets


class FlowLayout(QtWidgets.QLayout):
    def __init__(self, parent: QtWidgets.QWidget | None = None, spacing: int = 4) -> None:
        super().__init__(parent)
        self._items: list[QtWidgets.QLayoutItem] = []
        self._gap = spacing

    # -- the QLayout protocol ---------------------------------------------------------------------
    def addItem(self, item: QtWidgets.QLayoutItem) -> None:
        self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QtWidgets.QLayoutItem | None:
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QtWidgets.QLayoutItem | None:
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self) -> QtCore.Qt.Orientation:
        return QtCore.Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self._arrange(QtCore.QRect(0, 0, width, 0), move=False)

    def setGeometry(self, rect: QtCore.QRect) -> None:
        super().setGeometry(rect)
        self._arrange(rect, move=True)

    def sizeHint(self) -> QtCore.QSize:
        """Everything on one row."""
        visible = self._visible()
        m = self.contentsMargins()
        width = sum(i.sizeHint().width() for i in visible) + self._gap * max(0, len(visible) - 1)
        height = max((i.sizeHint().height() for i in visible), default=0)
        return QtCore.QSize(width + m.left() + m.right(), height + m.top() + m.bottom())

    def minimumSize(self) -> QtCore.QSize:
        """The widest single item: anything narrower wraps."""
        m = self.contentsMargins()
        size = QtCore.QSize()
        for item in self._visible():
            size = size.expandedTo(item.minimumSize())
        return size + QtCore.QSize(m.left() + m.right(), m.top() + m.bottom())

    # -- placement ----------------------------------------------------------------------------------
    def _visible(self) -> list[QtWidgets.QLayoutItem]:
        return [i for i in self._items if not (i.widget() is not None and i.widget().isHidden())]

    def _arrange(self, rect: QtCore.QRect, move: bool) -> int:
        """Place the items in rows inside rect (when move); returns the height they need.

        Each item is centred on its row's height: a one-line label beside a taller spin box or progress
        bar reads level with it (top-aligned, "Sentences:" and the ETA sat 4 px high)."""
        m = self.contentsMargins()
        area = rect.adjusted(m.left(), m.top(), -m.right(), -m.bottom())
        x, y, row_height = area.x(), area.y(), 0
        row: list[tuple[QtWidgets.QLayoutItem, int, QtCore.QSize]] = []

        def place_row() -> None:
            for item, left, hint in row:
                item.setGeometry(QtCore.QRect(QtCore.QPoint(left, y + (row_height - hint.height()) // 2), hint))

        for item in self._visible():
            hint = item.sizeHint()
            if x > area.x() and x + hint.width() > area.right() + 1:  # no room left: start a new row
                if move:
                    place_row()
                x, y, row_height, row = area.x(), y + row_height + self._gap, 0, []
            row.append((item, x, hint))
            x += hint.width() + self._gap
            row_height = max(row_height, hint.height())
        if move:
            place_row()
        return y + row_height - rect.y() + m.bottom()
