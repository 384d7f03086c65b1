"""Menus whose plain items get the room Fusion draws them in beside checkable ones.

Why: in a menu that holds checkable items (the Models menu: the models are checkable, "Open model
folder…" is not), Fusion sizes a plain item without the check column it then reserves when drawing it.
The column grows with the font, so from 11 pt on the item's text was elided although the menu had room
to spare: the Chinese window's Models menu read "打开模型文…(O)…  Ctrl+O" (its File menu, whose widest
item is plain, read it whole). Asked for a row's height more, about the column, the text fits at 9–20 pt
(looked at, offscreen).
"""

from __future__ import annotations

from PySide6.QtWidgets import QMenu, QMenuBar, QProxyStyle, QStyle, QStyleOptionMenuItem


class MenuRoomStyle(QProxyStyle):
    """The application's style, with a plain menu item beside checkable ones a row's height wider."""

    def sizeFromContents(self, kind, option, size, widget):  # noqa: N802 - Qt override
        out = super().sizeFromContents(kind, option, size, widget)
        if (kind == QStyle.ContentsType.CT_MenuItem and isinstance(option, QStyleOptionMenuItem)
                and option.menuHasCheckableItems
                and option.checkType == QStyleOptionMenuItem.CheckType.NotCheckable
                and option.menuItemType == QStyleOptionMenuItem.MenuItemType.Normal):
            out.setWidth(out.width() + out.height())
        return out


def give_menus_room(bar: QMenuBar) -> MenuRoomStyle:
    """Every menu of ``bar`` and its submenus drawn through one ``MenuRoomStyle``, kept on the bar (a
    widget does not own the style it is given)."""
    style = MenuRoomStyle()
    style.setParent(bar)
    for menu in bar.findChildren(QMenu):
        menu.setStyle(style)
    return style
