"""Which controls of a window are cut: squeezed below what their text needs, or under an edge.

What a person calls clipped at a projector's zoom ("ncode" for "Encoder", a step counter cut to "Step 1 o",
a form running under the right edge of a column that never scrolls sideways), found for any widget tree:

* a control narrower or lower than its minimum size hint whose text no longer fits the room the style
  gives it (a control a little under its hint whose text still shows whole is fine);
* a word-wrapped label lower than its wrapped text;
* a tab bar whose tabs do not fit it (Qt then hides some behind scroll arrows);
* a control cut by a parent's edge or the window's, except where a scroll area lets it scroll into view.

Labels that elide on purpose (ElidedLabel, StatusLabel) count only if their height is cut. Checked against
screenshots of the window at every zoom step and four sizes (stop 52): each control reported was visibly
cut, and the allowances below are what whole ones measured.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractScrollArea,
    QAbstractSpinBox,
    QCheckBox,
    QComboBox,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QStyle,
    QStyleOptionButton,
    QStyleOptionComboBox,
    QTabBar,
    QWidget,
)

CONTROLS = (QAbstractButton, QLabel, QComboBox, QLineEdit, QAbstractSpinBox, QTabBar)
SIZE_SLACK = 1  # px a control may be under its hint
TEXT_SLACK = 3  # px a text may exceed its room: the advance counts blank space around the glyphs
EDGE_SLACK = 2  # px a control may overlap a parent's edge (the tab widget's corner overlaps by one)


def _in_window(w: QWidget, win: QWidget) -> QRect:
    return QRect(w.mapTo(win, QPoint(0, 0)), w.size())


def _elides_on_purpose(w: QWidget) -> bool:
    return bool({c.__name__ for c in type(w).__mro__} & {"ElidedLabel", "StatusLabel"})


def _text_room(w: QWidget) -> tuple[int, int] | None:
    """(px the text needs, px the style gives it) for a push button, check box or combo box; else None."""
    metrics, style = w.fontMetrics(), w.style()
    if isinstance(w, (QPushButton, QCheckBox, QRadioButton)) and w.text():
        option = QStyleOptionButton()
        w.initStyleOption(option)
        element = (QStyle.SubElement.SE_PushButtonContents if isinstance(w, QPushButton) else
                   QStyle.SubElement.SE_CheckBoxContents if isinstance(w, QCheckBox) else
                   QStyle.SubElement.SE_RadioButtonContents)
        need = metrics.size(Qt.TextFlag.TextShowMnemonic, w.text()).width()
        if isinstance(w, QPushButton) and not w.icon().isNull():
            need += w.iconSize().width() + 4
        if isinstance(w, QPushButton) and w.menu() is not None:
            need += style.pixelMetric(QStyle.PixelMetric.PM_MenuButtonIndicator, option, w)
        return need, style.subElementRect(element, option, w).width()
    if isinstance(w, QComboBox) and w.currentText():
        option = QStyleOptionComboBox()
        w.initStyleOption(option)
        room = style.subControlRect(QStyle.ComplexControl.CC_ComboBox, option,
                                    QStyle.SubControl.SC_ComboBoxEditField, w)
        return metrics.horizontalAdvance(w.currentText()), room.width()
    return None


def size_problem(w: QWidget) -> str:
    """Why ``w`` is squeezed, or ""."""
    if isinstance(w, QTabBar):
        last = w.tabRect(w.count() - 1) if w.count() else QRect()
        if w.count() and last.right() > w.width() + SIZE_SLACK:
            return f"tabs run to {last.right()} px in a bar of {w.width()}"
        return ""
    if isinstance(w, QLabel) and w.wordWrap():
        need = w.heightForWidth(w.width())
        return f"wrapped text needs {need} px, has {w.height()}" if need > w.height() + SIZE_SLACK else ""
    hint = w.minimumSizeHint()
    if _elides_on_purpose(w):
        return f"height {w.height()} < {hint.height()}" if w.height() < hint.height() - SIZE_SLACK else ""
    under = w.width() < hint.width() - SIZE_SLACK or w.height() < hint.height() - SIZE_SLACK
    if not under:
        return ""
    room = _text_room(w)
    if room is None:  # no measure of its text: under the hint is cut (a label, a spin box, a line edit)
        return "" if isinstance(w, QLineEdit) else f"{w.width()}×{w.height()} under {hint.width()}×{hint.height()}"
    return f"text {room[0]} px in {room[1]} px" if room[0] > room[1] + TEXT_SLACK else ""


def place_problem(w: QWidget, win: QWidget) -> str:
    """Which edge cuts ``w``, or "": leaving a scroll area's viewport where it scrolls is fine."""
    rect = _in_window(w, win)
    parent = w.parentWidget()
    while parent is not None and parent is not win:
        room = _in_window(parent, win).adjusted(-EDGE_SLACK, -EDGE_SLACK, EDGE_SLACK, EDGE_SLACK)
        if not room.contains(rect):
            area = parent.parentWidget()
            if not (isinstance(area, QAbstractScrollArea) and area.viewport() is parent):
                return f"cut by {type(parent).__name__}"
            off = Qt.ScrollBarPolicy.ScrollBarAlwaysOff
            sideways = rect.left() < room.left() or rect.right() > room.right()
            if sideways and area.horizontalScrollBarPolicy() == off:
                return f"under the edge of a {type(area).__name__} that never scrolls sideways"
            rect = rect.intersected(room)
            if rect.isEmpty():
                return ""  # scrolled wholly out of view
        parent = parent.parentWidget()
    if not win.rect().adjusted(-EDGE_SLACK, -EDGE_SLACK, EDGE_SLACK, EDGE_SLACK).contains(rect):
        return "outside the window"
    return ""


def clipped(root: QWidget, win: QWidget, skip: tuple[QWidget, ...] = ()) -> list[str]:
    """Every visible control under ``root`` that is cut, as "Class 'text': why"."""
    found = []
    for w in root.findChildren(QWidget):
        if (not isinstance(w, CONTROLS) or not w.isVisible()
                or isinstance(w.parentWidget(), (QAbstractSpinBox, QComboBox, QTabBar))  # their owner counts
                or (isinstance(w, QLabel) and not w.text().strip())
                or any(s is w or s.isAncestorOf(w) for s in skip)):
            continue
        why = "; ".join(p for p in (size_problem(w), place_problem(w, win)) if p)
        if why:
            text = w.text() if hasattr(w, "text") and callable(w.text) else ""
            found.append(f"{type(w).__name__} {text[:30]!r}: {why}")
    return found
