"""Small input widgets the Train tab's form is built from: a bounded spin box, a path with Browse….

Kept out of the form so that the form reads as the list of a run's settings, not as widget plumbing.
"""

from __future__ import annotations

from pathlib import Path

from PySide6 import QtWidgets
from PySide6.QtCore import Signal

from explorer.ui.i18n import tr


def spin_box(lo: int, hi: int, step: int = 1, special: str = "") -> QtWidgets.QSpinBox:
    """A spin box from lo to hi; ``special`` names the minimum when it means "off"."""
    spin = QtWidgets.QSpinBox()
    spin.setRange(lo, hi)
    spin.setSingleStep(step)
    if special:
        spin.setSpecialValueText(special)  # shown at the minimum, which then means "off"
    return spin


class PathField(QtWidgets.QWidget):
    """A line edit with a Browse… button; ``folder`` picks a directory instead of a file."""

    edited = Signal()  # by the user (typing or browsing), not by ``set_path``
    changed = Signal(str)  # the text, however it changed (``set_path`` too)

    def __init__(self, title: str, folder: bool = False, placeholder: str = "") -> None:
        super().__init__()
        self.edit = QtWidgets.QLineEdit()
        self.edit.setPlaceholderText(placeholder)
        self.edit.textEdited.connect(lambda _t: self.edited.emit())
        self.edit.textChanged.connect(self.changed)
        browse = QtWidgets.QPushButton("Browse…")
        browse.clicked.connect(lambda: self._browse(title, folder))
        row = QtWidgets.QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.edit, 1)
        row.addWidget(browse)

    def path(self) -> str:
        return self.edit.text().strip()

    def set_path(self, path: str) -> None:
        self.edit.setText(str(path))

    def _browse(self, title: str, folder: bool) -> None:
        start = self.path() or str(Path.home())
        if folder:
            path = QtWidgets.QFileDialog.getExistingDirectory(self, tr(title), start)
        else:
            path, _ = QtWidgets.QFileDialog.getOpenFileName(self, tr(title), start)
        if path:
            self.set_path(path)
            self.edited.emit()
