"""Plot titles that fit their room: a plot's title cut to the canvas, an axis title in smaller type before it
is cut, and the shorter forms a short plot shows. Shared by every view that draws a pyqtgraph plot (the
attention maps, the step view, the positional-encoding tab)."""

from __future__ import annotations

import re

from PySide6 import QtCore, QtGui, QtWidgets

from explorer.ui.i18n import tr

BASE_POINT_SIZE = 11.0  # plot text at font scale 1; the app's own base is a little larger


def release_title_width(plot) -> None:
    """Let a plot's title be narrower than its text. pyqtgraph makes the text's width the title's
    minimum (again after every resize), so a long title on a 1024-px screen pushed the plot past
    the canvas' right edge."""
    label = plot.titleLabel
    if not getattr(label, "_width_released", False):
        original = label.updateMin

        def update_min() -> None:
            original()
            label.setMinimumWidth(0)

        label.updateMin = update_min
        label._width_released = True
    label.setMinimumWidth(0)


def set_fitted_title(plot, title: str, color: str, point_size: float, width: int) -> str:
    """Set a plot's title, cut with an ellipsis to ``width`` pixels (the canvas' width): a title
    wider than the plot would run off both edges. Returns the text shown."""
    font = QtGui.QFont(QtWidgets.QApplication.font())
    font.setPointSizeF(point_size)
    shown = QtGui.QFontMetricsF(font).elidedText(title, QtCore.Qt.TextElideMode.ElideRight, max(60, width - 24))
    plot.setTitle(shown, color=color, size=f"{point_size:.1f}pt")
    release_title_width(plot)
    return shown


def fitted_axis_title(text: str, size: float, least: float, room: float) -> tuple[str, float]:
    """(``text``, point size) for a title along ``room`` px: at ``size`` when it fits, else in type as
    small as ``least`` points, and cut with an ellipsis only when even that is too long."""
    font = QtGui.QFont(QtWidgets.QApplication.font())
    font.setPointSizeF(size)
    advance = QtGui.QFontMetricsF(font).horizontalAdvance(text)
    if advance > room:
        size = max(least, size * room / advance)
        font.setPointSizeF(size)
        # A line's width does not scale exactly with the point size (hinting): step down to what fits.
        while size > least and QtGui.QFontMetricsF(font).horizontalAdvance(text) > room:
            size = max(least, size - 0.25)
            font.setPointSizeF(size)
    shown = QtGui.QFontMetricsF(font).elidedText(text, QtCore.Qt.TextElideMode.ElideRight, max(40.0, room))
    return shown, size


def short_axis_title(title: str) -> str:
    """An axis title without its explanation in brackets, the form a short plot shows."""
    return re.split(r" \(|（", title, maxsplit=1)[0]  # a Chinese title has "（"


def _noun(title: str) -> str:
    """'Query: source token' (or '查询：源语言词元') -> 'Query': the part before the colon."""
    return title.replace("：", ":").split(":", 1)[0].strip()


def bare_axis_title(title: str) -> str:
    """'Query: source token' -> 'Query': the word alone, for a plot too short even for the short form."""
    return _noun(title) or title


def axis_noun(title: str) -> str:
    """'Query: source token' -> 'query': the word the hover read-out uses for an axis."""
    return _noun(title).lower() or tr("row")
