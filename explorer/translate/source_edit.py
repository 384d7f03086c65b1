"""The sentence box: Enter translates, Shift+Enter starts a new line.

Why: people type one sentence and press Enter, as in a search box; in a plain text editor that only
added a line, and the translation waited for Ctrl+Enter, which a teacher at the lectern (a helper's
walk-through, 2026-12-03) did not know. A paragraph still gets its lines: pasted text keeps them, and
Shift+Enter types one. Ctrl+Enter translates too, as before. An input method's Enter (choosing pinyin
candidates) reaches the box as an input-method event, never as this key press, so typing Chinese is
unchanged.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QPlainTextEdit

_ENTER_KEYS = (Qt.Key.Key_Return, Qt.Key.Key_Enter)  # the main block's Return and the keypad's Enter
# The keypad's Enter carries KeypadModifier; it is still a plain Enter.
_PLAIN = (Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.KeypadModifier)
_TRANSLATE = _PLAIN + (Qt.KeyboardModifier.ControlModifier,
                       Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.KeypadModifier)


class SourceEdit(QPlainTextEdit):
    """A plain text editor whose Enter asks for a translation (``submitted``) instead of a new line."""

    submitted = Signal()

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt's name)
        if event.key() in _ENTER_KEYS:
            modifiers = event.modifiers()
            if modifiers in _TRANSLATE:
                event.accept()
                self.submitted.emit()
                return
            if modifiers & Qt.KeyboardModifier.ShiftModifier:
                # A plain newline, not the editor's Shift+Enter line separator (U+2028), which would
                # reach the sentence splitter as an unknown character.
                self.insertPlainText("\n")
                event.accept()
                return
        super().keyPressEvent(event)
