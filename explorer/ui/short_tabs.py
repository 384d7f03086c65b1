"""A tab bar that shortens long titles, never short ones, when its tabs are wider than the window.

Zoomed on a 1024 × 768 projector, the main window's five tabs need ~810 px of its ~700: Qt scrolled them
and hid Workbench behind two small arrows. Told to elide instead, Qt shrank every tab towards the least
width of its own choice and "Train" read "T…". Here a title of up to ``WHOLE`` characters keeps its
width, and a longer one keeps at least its first ``WHOLE - 1`` ("Position…"), so every tab stays one click away
and still says which it is; the full title is the tab's tooltip.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize, Qt
from PySide6.QtWidgets import QTabBar, QTabWidget, QToolTip

WHOLE = 9  # "Attention", "Workbench": whole words the bar keeps


class ShortTabBar(QTabBar):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setElideMode(Qt.TextElideMode.ElideRight)
        self.setUsesScrollButtons(False)

    def minimumTabSizeHint(self, index: int) -> QSize:  # noqa: N802 - Qt override
        full = self.tabSizeHint(index)
        text = self.tabText(index).replace("&&", "&")
        if len(text) <= WHOLE:
            return full
        metrics = self.fontMetrics()
        short = text[: WHOLE - 1].rstrip() + "…"
        return QSize(full.width() - metrics.horizontalAdvance(text) + metrics.horizontalAdvance(short), full.height())

    def event(self, event) -> bool:  # Qt override
        # The full title as the tab's tooltip, read when asked: a language switch renames the tabs.
        if event.type() == QEvent.Type.ToolTip:
            index = self.tabAt(event.pos())
            if index >= 0 and not self.tabToolTip(index):
                QToolTip.showText(event.globalPos(), self.tabText(index).replace("&&", "&"), self)
                return True
        return super().event(event)


def short_tabs(tabs: QTabWidget) -> ShortTabBar:
    """Give ``tabs`` (before any tab is added) a ``ShortTabBar``; returns it."""
    bar = ShortTabBar(tabs)
    tabs.setTabBar(bar)
    return bar
