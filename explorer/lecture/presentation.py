"""Presentation mode (View › Presentation mode, F5): the attention view and the sentence, large.

On a 1024 × 768 projector the sentence column, the tab bar, the menus and the status bar take a third
of the screen and are unreadable from the back of the room anyway. Presentation mode hides them,
enlarges every font, drops the statistics line under the plots, and puts the sentence (editable;
Enter translates it) and its translation above the view. Everything comes back as it was when the mode
is left (F5 or Esc).
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QVBoxLayout, QWidget

from explorer.lecture.ports import Stage
from explorer.ui.style import bold_font

FONT_FACTOR = 1.3  # on top of the current zoom: the room reads the projector, not a laptop


class SentenceBar(QWidget):
    """The sentence, and under it an arrow and the translation. Hidden outside presentation mode."""

    translate_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.sentence_edit = QLineEdit()
        self.sentence_edit.setPlaceholderText("Type a sentence, then press Enter")
        self.sentence_edit.returnPressed.connect(
            lambda: self.translate_requested.emit(self.sentence_edit.text().strip()))
        self.translation_label = QLabel("")
        self.translation_label.setTextFormat(Qt.TextFormat.PlainText)
        self.translation_label.setFont(bold_font())  # only bold: the size follows the zoom
        self.translation_label.setWordWrap(True)  # a long translation wraps instead of widening
        arrow = QLabel("→")
        arrow.setAlignment(Qt.AlignmentFlag.AlignTop)
        translation = QHBoxLayout()
        translation.addWidget(arrow)
        translation.addWidget(self.translation_label, 1)
        # The sentence above its translation, each the full width: read from the back of a room.
        column = QVBoxLayout(self)
        column.setContentsMargins(8, 6, 8, 2)
        column.setSpacing(2)
        column.addWidget(self.sentence_edit)
        column.addLayout(translation)

    def set_sentence(self, text: str) -> None:
        self.sentence_edit.setText(text)
        self.sentence_edit.setCursorPosition(0)  # show the start of a long sentence, not its end

    def set_translation(self, text: str) -> None:
        self.translation_label.setText(text)
        self.translation_label.setToolTip(text)


class PresentationMode(QObject):
    """Switches the window into and out of presentation mode (through its ``Stage``) and owns the sentence
    bar, which the window puts above the views."""

    active_changed = Signal(bool)  # the View menu's check mark follows it

    def __init__(self, stage: Stage) -> None:
        super().__init__()
        self._stage = stage
        self._saved: dict | None = None
        self.bar = SentenceBar()
        self.bar.hide()
        self.bar.translate_requested.connect(self._translate)
        # Esc leaves the mode. The menu bar, and with it the F5 entry, is hidden meanwhile, so the window
        # carries its shortcuts itself (menus.py); Esc belongs to the bar, which is shown exactly while the
        # mode is on, and a window shortcut works while its widget is visible in the active window.
        self._escape = QShortcut(QKeySequence(Qt.Key.Key_Escape), self.bar)
        self._escape.setEnabled(False)
        self._escape.activated.connect(self.leave)
        # The main tabs by keyboard, their bar hidden: Ctrl+Tab / Ctrl+PageDown on, with Shift / PageUp back.
        self._tab_keys = []
        for keys, step in (("Ctrl+Tab", 1), ("Ctrl+PgDown", 1), ("Ctrl+Shift+Tab", -1), ("Ctrl+PgUp", -1)):
            shortcut = QShortcut(QKeySequence(keys), self.bar)
            shortcut.setContext(Qt.ShortcutContext.WindowShortcut)
            shortcut.setEnabled(False)
            shortcut.activated.connect(lambda step=step: self._stage.switch_tab(step))
            self._tab_keys.append(shortcut)

    def is_active(self) -> bool:
        return self._saved is not None

    def toggle(self) -> None:
        self.leave() if self.is_active() else self.enter()

    def enter(self) -> None:
        if self.is_active():
            return
        stage = self._stage
        # Visible "to the window": as it will be when shown, also before the window's first show.
        self._saved = {"scale": stage.font_scale(),
                       "chrome": [widget.isVisibleTo(widget.window()) for widget in stage.chrome]}
        for widget in stage.chrome:
            widget.hide()
        stage.attention.set_compact(True)
        self.bar.set_sentence(stage.sentence.text())
        self.bar.set_translation(stage.sentence.translation_text())
        self.bar.show()
        # Larger by FONT_FACTOR, as far as the window's width takes; never smaller than the zoom already set.
        scale = self._saved["scale"]
        stage.set_font_scale(min(scale * FONT_FACTOR, max(scale, stage.largest_scale())))
        self._escape.setEnabled(True)
        for shortcut in self._tab_keys:
            shortcut.setEnabled(True)
        self.active_changed.emit(True)

    def leave(self) -> None:
        if not self.is_active():
            return
        stage, saved = self._stage, self._saved
        self._saved = None
        self.bar.hide()
        for widget, visible in zip(stage.chrome, saved["chrome"], strict=True):
            widget.setVisible(visible)
        stage.attention.set_compact(False)
        stage.set_font_scale(saved["scale"])
        self._escape.setEnabled(False)
        for shortcut in self._tab_keys:
            shortcut.setEnabled(False)
        self.active_changed.emit(False)

    def show_translation(self, text: str) -> None:
        self.bar.set_translation(text)

    def set_sentence(self, text: str) -> None:
        """The sentence the bar shows (a lesson slide changes it while the room watches)."""
        self.bar.set_sentence(text)

    def _translate(self, text: str) -> None:
        # The sentence column stays the one source of truth (history, beam size): edit it, then ask.
        self._stage.sentence.set_text(text)
        self._stage.sentence.translate()
