"""A plain item of a menu that also holds checkable ones is drawn whole (explorer/ui/menu_room.py): the
Chinese window's Models menu read "打开模型文…(O)…  Ctrl+O" from 11 pt on, with room to spare."""

from __future__ import annotations

from PySide6.QtCore import QPoint
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication

TEXT_INK = 110  # a text pixel is darker than this (the menu's background is light, its text near black)


def _first_ink_run(image, top: int, bottom: int, gap: int) -> int:
    """The width of the first run of dark columns between rows top and bottom: the item's text, which a
    gap wider than ``gap`` parts from its shortcut."""
    columns = [x for x in range(image.width()) if any(QColor(image.pixel(x, y)).value() < TEXT_INK
                                                       for y in range(top, bottom))]
    end = next((a for a, b in zip(columns, columns[1:]) if b - a > gap), columns[-1])
    return end - columns[0]


def test_the_models_menu_shows_open_model_folder_whole_in_chinese(qtbot, window, qapp):
    from explorer.window.language_menu import set_language  # noqa: PLC0415

    win = window
    assert set_language(win, "zh_CN", remember=False) == ""
    try:
        win.zoom_in()
        win.zoom_in()
        assert QApplication.font().pointSizeF() >= 11  # where the check column outgrew the room
        menu, action = win.models_menu, win.open_action
        assert any(a.isCheckable() for a in menu.actions()) and not action.isCheckable()
        menu.popup(QPoint(0, 0))
        qtbot.waitExposed(menu)
        QApplication.processEvents()
        rect = menu.actionGeometry(action)
        image = menu.grab().toImage()
        metrics = menu.fontMetrics()
        text = _first_ink_run(image, rect.top() + 2, rect.bottom() - 2, gap=2 * metrics.horizontalAdvance("0"))
        whole = metrics.horizontalAdvance(action.text().replace("&", ""))
        assert text >= 0.95 * whole, (text, whole, action.text())  # elided, it was ~0.8 of it
    finally:
        menu.hide()
        set_language(win, "en", remember=False)
