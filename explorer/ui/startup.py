"""The app's start on Qt's side: quiet headless platforms, and a call once the window has first painted.

Apart from the entry point (explorer/app.py) because these need Qt, which the entry point must not
import at the top: the model's commands run through it on servers without a display.
"""

from __future__ import annotations

import sys

# What the headless platforms say each time a shown window's minimum or maximum size changes (the
# positional-encoding tab's views do, ten times at `--view pe`): true of the plugin, of no use to a user.
HEADLESS_NOISE = ("This plugin does not support propagateSizeHints()",)


def quiet_headless_warnings(app) -> None:
    """On the offscreen and minimal platforms (a screenshot, a headless start), drop HEADLESS_NOISE; every
    other message of Qt still reaches stderr, and a real display's messages are untouched."""
    if app.platformName() not in ("offscreen", "minimal"):
        return
    from PySide6.QtCore import qInstallMessageHandler

    previous = None

    def handler(mode, context, message) -> None:
        if message in HEADLESS_NOISE:
            return
        if previous is not None:
            previous(mode, context, message)
        else:
            category = context.category if context.category and context.category != "default" else ""
            print(f"{category}: {message}" if category else message, file=sys.stderr)

    previous = qInstallMessageHandler(handler)


def after_first_paint(widget, callback, fallback_ms: int = 1000) -> None:
    """Call ``callback`` once, just after ``widget`` first paints (or after ``fallback_ms`` if it
    is never exposed, e.g. started minimised)."""
    from PySide6.QtCore import QEvent, QObject, QTimer

    class _Watcher(QObject):
        def eventFilter(self, obj, event):  # noqa: N802 - Qt override
            if event.type() == QEvent.Type.Paint:
                fire()
            return False

    done = []
    watcher = _Watcher(widget)

    def fire() -> None:
        if not done:
            done.append(True)
            widget.removeEventFilter(watcher)
            QTimer.singleShot(0, callback)  # after this paint has finished

    widget.installEventFilter(watcher)
    QTimer.singleShot(fallback_ms, fire)
