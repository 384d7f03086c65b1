"""Persistent settings: where they live, and the "Open recent" list of model folders.

Settings go through QSettings under the organisation/application name "AttentionExplorer". Setting
the environment variable ``ATTENTION_EXPLORER_SETTINGS`` to a file path stores them in that INI file
instead; tests use it so they never read or change a user's real settings.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QSettings

SETTINGS_ENV = "ATTENTION_EXPLORER_SETTINGS"
ORGANIZATION = "AttentionExplorer"
APPLICATION = "AttentionExplorer"
MAX_RECENT = 8
_RECENT_KEY = "recent_models"


def open_settings() -> QSettings:
    """The app's QSettings: the file named by $ATTENTION_EXPLORER_SETTINGS if set, else the user's."""
    override = os.environ.get(SETTINGS_ENV)
    if override:
        return QSettings(override, QSettings.Format.IniFormat)
    return QSettings(ORGANIZATION, APPLICATION)


class RecentModels:
    """The most recently opened model folders, newest first, at most MAX_RECENT of them."""

    def __init__(self, settings: QSettings | None = None) -> None:
        self._settings = settings if settings is not None else open_settings()

    def paths(self) -> list[str]:
        """The stored folders that still exist. Missing ones are pruned from the settings too, so a
        deleted or unmounted folder does not linger in the menu forever."""
        stored = self._read()
        alive = [p for p in stored if Path(p).is_dir()]
        if alive != stored:
            self._write(alive)
        return alive

    def add(self, path: str | os.PathLike) -> None:
        """Move ``path`` to the front of the list (adding it if new)."""
        path = str(Path(path).resolve())
        items = [path] + [p for p in self._read() if p != path]
        self._write(items[:MAX_RECENT])

    def remove(self, path: str) -> None:
        self._write([p for p in self._read() if p != path])

    def clear(self) -> None:
        self._write([])

    def _read(self) -> list[str]:
        value = self._settings.value(_RECENT_KEY, [])
        # QSettings hands back a bare string for a one-item list in INI files, None for empty ones.
        if value is None:
            return []
        if isinstance(value, str):
            return [value] if value else []
        return [str(v) for v in value]

    def _write(self, items: list[str]) -> None:
        self._settings.setValue(_RECENT_KEY, list(items))
        self._settings.sync()
