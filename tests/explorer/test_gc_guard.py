"""The GUI-thread garbage collector (explorer/ui/gc_guard.py): automatic collection is off, the guard's own
pass collects what Python would have, and stopping it hands collection back."""

from __future__ import annotations

import gc
import weakref

from explorer.ui.gc_guard import MainThreadGC


class Cycle:
    def __init__(self) -> None:
        self.me = self  # only the cyclic collector can free it


def test_cycles_wait_for_the_guard_then_go(qapp, gui_thread_gc):
    assert not gc.isenabled()  # the session's guard (tests/explorer/conftest.py) is running
    gc.collect()
    refs = [weakref.ref(Cycle()) for _ in range(3 * gc.get_threshold()[0])]
    # Far more allocations than the young generation's threshold, yet nothing was collected...
    assert all(r() is not None for r in refs)
    # ...until the guard's pass (the timer's job on the GUI thread) ran.
    assert gui_thread_gc.check() >= 0
    assert all(r() is None for r in refs)
    assert gui_thread_gc.check() == -1  # nothing due right after a pass


def test_stop_gives_collection_back(qapp):
    was = gc.isenabled()
    gc.enable()
    guard = MainThreadGC()
    assert not gc.isenabled()
    guard.stop()
    assert gc.isenabled()
    if not was:
        gc.disable()


def test_settle_keeps_survivors_out_of_later_passes_and_the_next_settle_frees_what_died(qapp):
    guard = MainThreadGC()
    try:
        alive = Cycle()
        ref = weakref.ref(alive)
        guard.settle()  # what the app does after each model load
        frozen = gc.get_freeze_count()
        assert frozen > 10_000  # torch, Qt, pyqtgraph: everything alive now
        assert len(gc.get_objects(generation=2)) < frozen / 100  # a full pass walks only newer objects
        del alive
        gc.collect()
        assert ref() is not None  # frozen: passes no longer look at it ...
        guard.settle()
        assert ref() is None  # ... until the next model load's settle, which undoes the freeze first
    finally:
        guard.stop()
