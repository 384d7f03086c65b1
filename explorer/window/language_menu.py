"""View › Language: switch the window between English and 简体中文 while it runs, and remember the choice.

The menu names each language in its own tongue (a reader of only one of them must find it), so those
two entries are never translated.
"""

from __future__ import annotations

import sys

from PySide6.QtGui import QAction, QActionGroup

from explorer.ui.i18n import LANGUAGES, SETTINGS_KEY, SOURCE_LANGUAGE, current_language, install_language
from explorer.window.retranslate import SKIP, retranslate


def install_language_menu(window) -> None:
    """Add View › Language to ``window`` (a MainWindow); its actions are ``window.language_actions``."""
    menu = window.view_menu.addMenu("&Language")
    group = QActionGroup(window)
    window.language_actions = {}
    for code, name in LANGUAGES.items():
        action = QAction(name, window, checkable=True)
        action.setProperty(SKIP, True)
        action.setChecked(code == current_language())
        action.triggered.connect(lambda _=False, c=code: set_language(window, c))
        group.addAction(action)
        menu.addAction(action)
        window.language_actions[code] = action


def saved_language(settings) -> str:
    value = settings.value(SETTINGS_KEY, SOURCE_LANGUAGE)
    return value if isinstance(value, str) and value else SOURCE_LANGUAGE


def set_language(window, language: str, remember: bool = True) -> str:
    """Switch ``window`` to ``language`` now; returns "" or the one-line reason it is in English.

    The reason also goes to the status line and to stderr: someone who asked for Chinese and sees
    English should learn why where they look."""
    problem = install_language(language)
    retranslate(window)
    window.retranslate_extras()
    shown = current_language()
    for code, action in getattr(window, "language_actions", {}).items():
        action.setChecked(code == shown)
    if remember and not problem:
        window.settings.setValue(SETTINGS_KEY, shown)
    if problem:
        print(f"attention-explorer: {problem}", file=sys.stderr)
        window.show_status(problem)
    return problem
