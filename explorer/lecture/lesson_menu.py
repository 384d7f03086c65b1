"""File › Save lesson slide… and File › Open lesson…: the two menu entries of lessons and their file
dialogs (lecture mode, issue 21); the player itself is lesson_player.py, the file format lesson_file.py."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog, QMenu

from explorer.lecture.lesson_player import LessonPlayer, LessonRoom
from explorer.ui.i18n import N_, tr

LESSON_FILTER = N_("Lessons (*.json);;All files (*)")


def install_lessons(room: LessonRoom, menu: QMenu, before: QAction) -> tuple[LessonPlayer, tuple[QAction, QAction]]:
    """The lesson player, its caption above the tabs and its two entries in ``menu`` (above ``before``):
    returns the player and the entries (Save lesson slide…, Open lesson…). Installed after the formula dock:
    a new translation must reach the dock (which resets its cell) before the player selects the slide's cell
    again."""
    player = LessonPlayer(room)
    room.add_caption(player.caption)

    def start_dir() -> str:
        return str(player.path) if player.path else str(Path.home() / "lesson.json")

    def save() -> None:
        path, _ = QFileDialog.getSaveFileName(room.parent, tr("Add the view as a slide to the lesson"), start_dir(),
                                              tr(LESSON_FILTER), options=QFileDialog.Option.DontConfirmOverwrite)
        if path:
            title = player.ask_title()
            if title is not None:  # cancelled: nothing is saved
                player.save_slide(path, title)

    def open_() -> None:
        path, _ = QFileDialog.getOpenFileName(room.parent, tr("Open lesson"), start_dir(), tr(LESSON_FILTER))
        if path:
            player.open_lesson(path)

    actions = []
    for text, slot in (("Save lesson &slide…", save), ("Open &lesson…", open_)):
        action = QAction(text, room.parent)
        action.triggered.connect(slot)
        menu.insertAction(before, action)
        actions.append(action)
    menu.insertSeparator(before)
    return player, (actions[0], actions[1])
