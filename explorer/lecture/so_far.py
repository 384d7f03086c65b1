"""The Step tab's "So far: <s> Die Katze [saß]" line, held at the height its last step needs.

Why held: the line grows a piece per step, and near the end of a long sentence it wrapped to a second
line, which pushed the layer and head boxes and both maps down ~10 px in the middle of a lesson (a
walk-through at 1024 × 768). The height the last step's text needs at the line's width is known once the
translation comes, so the line takes it from the first step, and only a new translation, a new width or
a new font changes it.
"""

from __future__ import annotations

import html

from PySide6 import QtCore, QtWidgets

from explorer.attention.tokens import display_piece
from explorer.ui import i18n
from explorer.ui.style import ACCENT


def so_far_html(chosen: tuple[str, ...], t: int) -> str:
    """The pieces chosen up to step ``t`` (1-based), the last one bold in the accent colour."""
    # No line break inside a piece: Qt breaks after a "/", and "[</s>]" wrapped as "[</" and "s>]".
    # A word joiner (U+2060, invisible) forbids it; Qt's rich text has no inline "nowrap".
    shown = [html.escape(display_piece(p)).replace("/", "/\u2060") for p in chosen[:t]]
    shown[-1] = f"<b><span style='color:{ACCENT}'>[{shown[-1]}]</span></b>"
    return i18n.tr("So far: ") + " ".join(shown)


class SoFarLabel(QtWidgets.QLabel):
    """A word-wrapped rich-text label for the pieces so far (the model's pieces: the window's
    retranslation walk leaves it alone; ``show_step`` makes its words in the current language)."""

    def __init__(self, text: str = "", parent=None) -> None:
        super().__init__(text, parent)
        self.setProperty("i18n_skip", True)
        self.setTextFormat(QtCore.Qt.TextFormat.RichText)
        self.setWordWrap(True)
        self._last = ""  # the last step's text, whose height the line keeps
        # Measured on a twin: the line's own text must not change (a repaint, and a test reads it).
        self._twin = QtWidgets.QLabel()
        self._twin.setTextFormat(QtCore.Qt.TextFormat.RichText)
        self._twin.setWordWrap(True)

    def show_step(self, chosen: tuple[str, ...], t: int) -> None:
        """The pieces up to step ``t`` of a translation whose steps chose ``chosen``."""
        last = so_far_html(chosen, len(chosen))
        self.setText(so_far_html(chosen, t))
        if last != self._last:
            self._last = last
            self._hold()

    def show_note(self, text: str) -> None:
        """A plain note in place of pieces (no translation to step through); the line fits it."""
        self._last = ""
        self.setText(html.escape(text))
        self._hold()

    def _hold(self) -> None:
        need = 0
        if self._last:
            self._twin.setFont(self.font())
            self._twin.setContentsMargins(self.contentsMargins())
            self._twin.setText(self._last)
            need = self._twin.heightForWidth(max(1, self.width()))
        if need != self.minimumHeight():
            self.setMinimumHeight(max(0, need))

    def resizeEvent(self, event) -> None:  # Qt override
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self._hold()

    def changeEvent(self, event) -> None:  # Qt override
        super().changeEvent(event)
        if event.type() == QtCore.QEvent.Type.FontChange:  # a zoom
            self._hold()
