"""Answers from a worker's thread reach the window on the GUI thread (#30's flaky Cancel): a signal of an
object living on another thread, connected to a lambda, runs the lambda on *that* thread, at once, ahead
of the reports still queued for the GUI thread. So worker signals connect to bound methods (or signals) of
objects on the GUI thread, never to lambdas or partials."""

from __future__ import annotations

import re
import threading
from pathlib import Path

from PySide6.QtCore import QMetaObject, QObject, Qt, QThread, Signal, Slot

from tests.explorer.conftest import Heard

EXPLORER = Path(__file__).resolve().parents[2] / "explorer"
LAMBDA_ON_WORKER = re.compile(r"worker\w*\.\w+\.connect\(\s*(lambda|partial|functools\.partial)")


class _Worker(QObject):
    said = Signal()

    @Slot()
    def say(self) -> None:
        self.said.emit()


class _Talker(QObject):
    said = Signal(int, str)

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    @Slot()
    def say(self) -> None:
        self.count += 1
        self.said.emit(self.count, "said")


class _Receiver(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.threads: list[str] = []

    @Slot()
    def heard(self) -> None:
        self.threads.append(threading.current_thread().name)


def test_a_lambda_on_a_workers_signal_runs_on_the_workers_thread_a_bound_method_does_not(qtbot):
    worker, receiver, lambda_threads = _Worker(), _Receiver(), []
    thread = QThread()
    worker.moveToThread(thread)
    worker.said.connect(lambda: lambda_threads.append(threading.current_thread().name))
    worker.said.connect(receiver.heard)
    thread.start()
    try:
        # The GUI thread asks the worker, as the window does. Not ``qtbot.waitSignal(worker.said)``: its
        # slot is a plain callable too, so it ran on the worker's thread, where it stopped the blocker's
        # timeout timer and quit its event loop from the wrong thread; once in a full run the quit came
        # before the loop started and the test hung until pytest-timeout (10 min). Polling on this thread
        # cannot race.
        QMetaObject.invokeMethod(worker, "say", Qt.ConnectionType.QueuedConnection)
        qtbot.waitUntil(lambda: bool(receiver.threads) and bool(lambda_threads), timeout=5000)
    finally:
        thread.quit()
        thread.wait()
    assert receiver.threads == [threading.main_thread().name]
    assert lambda_threads and lambda_threads != [threading.main_thread().name]  # the trap this file guards


def test_heard_waits_for_a_workers_signal_on_the_gui_thread(qtbot):
    """The tests' way to wait for a worker's signal (conftest.Heard) hears it on this thread, with its
    arguments, as often as the worker says it."""
    worker, threads = _Talker(), []
    thread = QThread()
    worker.moveToThread(thread)
    relay = Heard(worker.said)
    relay.heard.connect(lambda args: threads.append(threading.current_thread().name))
    thread.start()
    try:
        for n in (1, 2):
            with qtbot.waitSignal(relay.heard, timeout=5000) as blocker:
                QMetaObject.invokeMethod(worker, "say", Qt.ConnectionType.QueuedConnection)
            assert blocker.args == [(n, "said")]
    finally:
        thread.quit()
        thread.wait()
    assert threads == [threading.main_thread().name] * 2


def test_no_worker_signal_is_connected_to_a_lambda():
    found = [f"{p.relative_to(EXPLORER)}:{n}" for p in EXPLORER.rglob("*.py")
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if LAMBDA_ON_WORKER.search(line)]
    assert not found, found
