"""The workbench's Export buttons: one save dialog for the three views, its folder remembered, and a line
saying where the file went.

Why: each view had its own dialog, which started in the process's working folder (the source checkout,
for a run from it) and said nothing once the file was written, where File › Export starts in the last
folder used and says "Saved …" (a researcher's walk-through, 2026-12-04).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6 import QtWidgets

from explorer.ui.i18n import tr

_FOLDER: list[str] = []  # the last folder a workbench export went to, for the next dialog


def export_to(parent: QtWidgets.QWidget, title: str, name: str, filters: str, write: Callable[[str], None]) -> str:
    """Ask where to save ``name`` (starting in the last export folder, else the home folder), run
    ``write(path)``; returns the line to show: "Saved …", why it could not be written, or "" if cancelled."""
    folder = _FOLDER[0] if _FOLDER and Path(_FOLDER[0]).is_dir() else str(Path.home())
    path, _ = QtWidgets.QFileDialog.getSaveFileName(parent, tr(title), str(Path(folder) / name), filters)
    if not path:
        return ""
    try:
        write(path)
    except OSError as exc:
        return tr("Could not write {path}:\n{error}", path=path, error=exc.strerror or exc)
    _FOLDER[:] = [str(Path(path).parent)]
    return tr("Saved {path}", path=path)
