"""Lessons in the window: File › Save lesson slide… appends the view on screen to a lesson file, File ›
Open lesson… replays one, keyboard only (lecture mode, issue 21; the file format is lesson_file.py).

While a lesson plays, PageDown / PageUp go to the next / previous slide and Esc ends the lesson, wherever
the focus is: the player filters keys for the whole application. Outside a lesson PageUp / PageDown keep
switching the attention kind (panel_keys.py); during one they belong to the lesson, since a presenter
with a clicker (which sends exactly these keys) must never change the kind by accident. Esc ends the
lesson only; presentation mode (F5) stays on until a second Esc. A slide changes the view, the kind,
layer and head at once, and translates its sentence when it is not the one on screen.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QApplication, QDockWidget, QInputDialog, QLabel, QLineEdit, QMessageBox, QWidget

from explorer.attention.panel import AttentionPanel
from explorer.lecture.lesson_file import LessonError, Slide, append_slide, read_lesson, read_lesson_model
from explorer.lecture.ports import Clock, Sentence
from explorer.lecture.presentation import PresentationMode
from explorer.lecture.step_view import StepView
from explorer.ui.i18n import tr
from explorer.ui.style import bold_font
from model.builtin import model_name, named_model

KEYS = {Qt.Key.Key_PageDown: +1, Qt.Key.Key_PageUp: -1, Qt.Key.Key_Escape: 0}


@dataclass(frozen=True)
class LessonRoom:
    """The player's port: everything a slide records and sets again, and where the player reports. (Here,
    not in ports.py: it names presentation mode, which itself takes a ports.Stage.)"""

    sentence: Sentence
    attention: AttentionPanel
    clock: Clock
    steps: StepView
    formula: QDockWidget  # the formula dock; its widget is the FormulaView
    presentation: PresentationMode
    current_view: Callable[[], str]  # one of lesson_file.VIEWS, or "other" (another tab)
    show_view: Callable[[str], None]
    open_model: Callable[[Path], None]
    show_status: Callable[[str], None]
    add_caption: Callable[[QWidget], None]  # across the views, above the tab bar
    show_dialogs: bool  # False in screenshot mode: failures are said in the status line only
    parent: QWidget  # owns the dialogs and the menu entries; only handed on


class LessonPlayer(QObject):
    """Captures the view on screen as a Slide, and replays a lesson's slides (through its ``LessonRoom``)."""

    slide_shown = Signal(int)  # index of the slide now on screen
    end_reached = Signal()  # PageDown on the last slide: nothing follows
    stopped = Signal()

    def __init__(self, room: LessonRoom) -> None:
        super().__init__(room.parent)
        self._room = room
        self._slides: tuple[Slide, ...] = ()
        self._index = -1
        self.path: Path | None = None  # the lesson last opened or saved to: the dialogs start there
        self.caption = QLabel()
        self.caption.setWordWrap(True)
        self.caption.setContentsMargins(8, 4, 8, 4)
        self.caption.setFont(bold_font())  # only bold: the size follows the zoom and presentation mode
        self.caption.hide()
        # One dialog, kept: a test (or a script) fills it and accepts it like a person would.
        self.title_dialog = QInputDialog(room.parent)
        self.title_dialog.setInputMode(QInputDialog.InputMode.TextInput)
        self.title_dialog.setTextEchoMode(QLineEdit.EchoMode.Normal)
        room.sentence.translation_ready.connect(self._on_translation)

    # -- saving ------------------------------------------------------------------------------------

    def current_slide(self) -> Slide:
        """The view on screen as a slide; ValueError (one line) when it cannot be one."""
        room = self._room
        view = room.current_view()
        shown = room.sentence.translation()
        if view == "other":
            raise ValueError("only the attention, step-by-step and positional-encoding views can be slides, "
                             "not this tab")
        if shown is None or not shown.source.strip():
            raise ValueError("translate a sentence first: a slide shows a sentence's attention")
        kind, layer, head, mean = room.attention.state()
        cell = room.formula.widget().cell() if room.formula.isVisible() else None
        clock = room.clock if view == "clock" else None
        step = None
        if view == "steps":  # the tab chooses its own layer and head: the slide keeps what it shows
            layer, step_head = room.steps.layer_head()
            head, mean = (head, True) if step_head is None else (step_head, False)
            step = room.steps.step() or None
        return Slide(sentence=shown.source.strip(), view=view, kind=kind, layer=layer + 1, head=head + 1,
                     mean=mean, beam=room.sentence.beam_size(), cell=cell,
                     position=clock.position() if clock else None, shift=clock.shift() if clock else None,
                     step=step)

    def ask_title(self) -> str | None:
        """The slide's title from the title dialog ('' for none), or None when it is cancelled."""
        dialog = self.title_dialog
        dialog.setWindowTitle(tr("Save lesson slide"))
        dialog.setLabelText(tr("Title of the slide, shown above the view while the lesson plays (may be empty):"))
        dialog.setTextValue("")
        if dialog.exec() != QInputDialog.DialogCode.Accepted:
            return None
        return " ".join(dialog.textValue().split())

    def save_slide(self, path: Path | str, title: str = "") -> bool:
        """Append the view on screen, titled ``title``, to the lesson at ``path``; False (and one line said)
        on failure."""
        info = self._room.sentence.model()
        try:
            if info is None:
                raise ValueError("open a model first")
            slide = dataclasses.replace(self.current_slide(), title=title)
            count = append_slide(path, slide, info.n_layers, info.n_heads, model_name(info.path))
        except (ValueError, OSError) as exc:
            return self._fail(tr("Could not save the slide"), str(exc))
        self.path = Path(path)
        self._room.show_status(tr("Slide {n} saved to {name}", n=count, name=self.path.name))
        return True

    # -- playing -----------------------------------------------------------------------------------

    def open_lesson(self, path: Path | str) -> bool:
        """Check the whole lesson, then show its first slide; a bad file changes nothing. A lesson made with
        another model ("model": "en-zh", or a Hub model in the cache) opens that model first and plays once
        it is loaded."""
        info = self._room.sentence.model()
        try:
            wanted = read_lesson_model(path)
            model = named_model(wanted) if wanted else None
            if wanted and model is None:
                self._room.show_status(tr("This lesson was made with the model {name}, which is not on this "
                                          "machine; it plays on the model in use", name=wanted))
            if model is not None and (info is None or Path(info.path).resolve() != model.resolve()):
                self._wait_for_model(path, model)
                return True
            if info is None:
                raise LessonError("open a model first: a lesson's layers and heads are checked against it")
            slides = read_lesson(path, info.n_layers, info.n_heads)
        except LessonError as exc:
            return self._fail(tr("Could not open the lesson"), str(exc))
        self.path, self._slides = Path(path), slides
        QApplication.instance().installEventFilter(self)
        self.go(0)
        return True

    def _wait_for_model(self, path: Path | str, model_path: Path) -> None:
        """Open the lesson's model, then the lesson (once, when that model has loaded)."""
        sentence = self._room.sentence

        def loaded(info) -> None:
            sentence.model_loaded.disconnect(loaded)
            if Path(info.path).resolve() == model_path.resolve():
                self.open_lesson(path)
        sentence.model_loaded.connect(loaded)
        self._room.open_model(model_path)

    def is_playing(self) -> bool:
        return self._index >= 0

    def index(self) -> int:
        return self._index

    def slides(self) -> tuple[Slide, ...]:
        return self._slides

    def go(self, index: int) -> None:
        """Show slide ``index`` (clamped to the lesson)."""
        if not self._slides:
            return
        self._index = min(max(0, index), len(self._slides) - 1)
        self._apply(self._slides[self._index])
        self.slide_shown.emit(self._index)

    def step(self, delta: int) -> None:
        if delta > 0 and self._slides and self._index == len(self._slides) - 1:
            self._say_end()
            return
        self.go(self._index + delta)

    def _say_end(self) -> None:
        """PageDown past the last slide: say so where the class looks (the caption) and in the status line."""
        n = len(self._slides)
        self.caption.setText(tr("■ End of the lesson: slide {n} of {n} was the last   (PageUp back, Esc ends "
                                "the lesson)", n=n))
        self._room.show_status(tr("End of the lesson: no slide after slide {n}", n=n))
        self.end_reached.emit()

    def stop(self) -> None:
        if not self.is_playing():
            return
        QApplication.instance().removeEventFilter(self)
        self._index, self._slides = -1, ()
        self.caption.hide()
        self._room.show_status(tr("Lesson ended"))
        self.stopped.emit()

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt override
        kind = event.type()
        if kind not in (QEvent.Type.KeyPress, QEvent.Type.ShortcutOverride) or not self.is_playing():
            return False
        try:
            key = Qt.Key(event.key())
        except ValueError:  # a key Qt has no name for: not ours
            return False
        if key not in KEYS or event.modifiers() not in (Qt.KeyboardModifier.NoModifier,
                                                        Qt.KeyboardModifier.KeypadModifier):
            return False
        if kind == QEvent.Type.ShortcutOverride:
            event.accept()  # no shortcut (presentation mode's Esc) takes the key: the key press follows
            return True
        self.stop() if KEYS[key] == 0 else self.step(KEYS[key])
        return True

    # -- internals ---------------------------------------------------------------------------------

    def _apply(self, slide: Slide) -> None:
        room, sentence = self._room, self._room.sentence
        room.attention.set_state(slide.kind, slide.layer - 1, slide.head - 1, slide.mean)
        room.show_view(slide.view)
        if slide.view == "steps":  # the tab takes the panel's layer and head only when it is opened
            room.steps.set_layer_head(slide.layer - 1, None if slide.mean else slide.head - 1)
            if slide.step is not None:
                room.steps.set_step(slide.step)  # nothing yet when the tab translates again: see below
        if slide.position is not None:
            room.clock.set_position(slide.position)
        if slide.shift is not None:
            room.clock.set_shift(slide.shift)
        if slide.cell is not None:
            room.formula.show()  # its q, k and v are captured only while it is open
            room.formula.widget().select_cell(*slide.cell)
        elif room.formula.isVisible():
            # A slide is the whole view: the dock of an earlier slide (or its cell, marked on this map)
            # must not follow it, or a slide would look different paged to forward and back.
            room.formula.hide()
        shown = sentence.translation()
        if shown is None or shown.source.strip() != slide.sentence or sentence.beam_size() != slide.beam:
            sentence.set_text(slide.sentence)
            sentence.set_beam_size(slide.beam)
            sentence.translate()
        if room.presentation.is_active():
            room.presentation.set_sentence(slide.sentence)
        title = f" — {slide.title}" if slide.title else ""
        self.caption.setText(tr("Slide {i} of {n}{title}   (PageDown next, PageUp back, Esc ends the lesson)",
                                i=self._index + 1, n=len(self._slides), title=title))
        self.caption.show()
        self._say_slide()

    def _say_slide(self) -> None:
        if not self.is_playing():
            return
        self._room.show_status(tr("Lesson {name}: slide {i} of {n}", name=self.path.name if self.path else "",
                                  i=self._index + 1, n=len(self._slides)))

    def _on_translation(self, _translation) -> None:
        # A new sentence resets the walkthrough's cell (formula_dock connects first) and the Step tab's
        # step and combo boxes (step_tab connects first): choose them again.
        if not self.is_playing():
            return
        slide, room = self._slides[self._index], self._room
        if slide.cell is not None:
            room.formula.widget().select_cell(*slide.cell)
        if slide.view == "steps":
            room.steps.set_layer_head(slide.layer - 1, None if slide.mean else slide.head - 1)
            if slide.step is not None:
                room.steps.set_step(slide.step)
        # The window says "Ready" for a finished translation, in a handler of the same signal that may run
        # after this one: the slide is said again once they all have.
        QTimer.singleShot(0, self._say_slide)

    def _fail(self, title: str, message: str) -> bool:
        line = " ".join(message.split())
        self._room.show_status(line)
        if self._room.show_dialogs:
            QMessageBox.warning(self._room.parent, title, line)
        return False
