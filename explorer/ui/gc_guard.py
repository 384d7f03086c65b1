"""Python's cyclic garbage collector, run on the GUI thread only.

The collector runs in whichever thread happens to allocate when a generation fills up. If that is a worker
thread (translating, training) and the garbage holds Qt objects of the GUI thread — a closed dialog, a
replaced plot item in a reference cycle — Qt deletes widgets off their thread and the process dies with a
segmentation fault ("Garbage-collecting" in the worker's traceback; seen in the test suite while a training
worker built its corpus). So automatic collection is switched off and a timer on the GUI thread collects
instead, with the same generation thresholds Python would use, so memory behaves as before.

A pass over the oldest generation walks every object the process holds: with the built-in model loaded
~240,000 (torch, Qt, pyqtgraph, the model), ~150 ms on the GUI thread (measured), a visible stall every
minute or so while a training run streams events. ``settle()``, called after each model load, freezes
what survives then (``gc.freeze``), so later passes walk only what came after: microseconds.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer

INTERVAL_MS = 500  # often enough that cycles never pile up; a young-generation pass takes microseconds


class MainThreadGC(QObject):
    """Owns the timer; create it on the GUI thread (after QApplication) and keep a reference."""

    def __init__(self, parent: QObject | None = None, interval_ms: int = INTERVAL_MS) -> None:
        super().__init__(parent)
        self._thresholds = gc.get_threshold()
        self._was_enabled = gc.isenabled()
        gc.disable()
        self._timer = QTimer(self)
        self._timer.timeout.connect(self.check)
        self._timer.start(interval_ms)

    def check(self) -> int:
        """Collect the oldest generation whose count passed its threshold (what Python would have
        collected by now); returns the generation collected, or -1 when none was due."""
        counts = gc.get_count()
        for generation in (2, 1, 0):
            if self._thresholds[generation] and counts[generation] > self._thresholds[generation]:
                gc.collect(generation)
                return generation
        return -1

    def settle(self) -> None:
        """After a model load: one full pass, then the survivors are kept out of later passes.

        The previous freeze is undone first, so what a model switch left behind (the old model's cycles,
        a closed dialog's) is still collected rather than kept forever.
        """
        gc.unfreeze()
        gc.collect()
        gc.freeze()

    def stop(self) -> None:
        """Give collection back to Python (tests, and a window that closes before the app ends)."""
        self._timer.stop()
        if self._was_enabled:
            gc.enable()
