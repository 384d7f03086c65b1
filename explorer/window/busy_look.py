"""The window's busy look (dimmed maps, "Translating…", "Working…"), shown only when the wait is long.

Why: most translations come back in 50–150 ms. Dimming every map and swapping the labels for that long,
then back, was a flicker with each sentence typed, and the dimmed repaint ran Python paint code beside
the translating worker (both need the interpreter lock). Shown after ``DELAY_MS`` of waiting, the look
appears only where it tells the user something: a slow model, a long sentence. Another model being opened
shows it at once (``show_now``): its maps and translation are the old model's until the new one translates.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer

DELAY_MS = 250  # a wait longer than this is one a person notices; shorter ones show no busy look


class DelayedBusy(QObject):
    """Calls ``show(True)`` once the worker has been busy for ``DELAY_MS``; ``show(False)`` when it is done,
    if the look was shown."""

    def __init__(self, show: Callable[[bool], None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._show, self.shown = show, False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DELAY_MS)
        self._timer.timeout.connect(self._start_look)

    def set_busy(self, busy: bool) -> None:
        if busy:
            if not self.shown and not self._timer.isActive():
                self._timer.start()
            return
        self._timer.stop()
        if self.shown:
            self.shown = False
            self._show(False)

    def show_now(self) -> None:
        """The look at once, for a wait the user started knowingly and that is never short (another model
        loading): what is shown is stale from the first moment. The worker's end of busy takes it away."""
        self._timer.stop()
        if not self.shown:
            self._start_look()

    def _start_look(self) -> None:
        self.shown = True
        self._show(True)
