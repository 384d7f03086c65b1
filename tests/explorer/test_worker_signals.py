"""Answers from a worker's thread reach the window on the GUI thread (#30's flaky Cancel): a signal of an
object living on another thread, connected to a lambda, runs the lambda on *that* thread, at once, ahead
of the reports still queued for the GUI thread. So worker signals connect to bound methods (or signals) of
objects on the GUI thread, never to lambdas or partials."""

from __future__ import annotations

import re
import threading
from pathlib import Path

from PySide6.QtCore import QMetaObject, QObject, Qt, QThread, Signal, Slot

EXPLORER = Path(__file__).resolve().parents[2] / "explorer"
LAMBDA_ON_WORKER = re.compile(r"worker\w*\.\w+\.connect\(\s*(lambda|partial|functools\.partial)")


class _Worker(QObject):
    said = Signal()

    @Slot()
    def say(self) -> None:
        self.said.emit()


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
        with qtbot.waitSignal(worker.said, timeout=5000):  # the GUI thread asks the worker, as the window does
            QMetaObject.invokeMethod(worker, "say", Qt.ConnectionType.QueuedConnection)
        qtbot.waitUntil(lambda: bool(receiver.threads), timeout=5000)
    finally:
        thread.quit()
        thread.wait()
    assert receiver.threads == [threading.main_thread().name]
    assert lambda_threads and lambda_threads != [threading.main_thread().name]  # the trap this file guards


def test_no_worker_signal_is_connected_to_a_lambda():
    found = [f"{p.relative_to(EXPLORER)}:{n}" for p in EXPLORER.rglob("*.py")
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if LAMBDA_ON_WORKER.search(line)]
    assert not found, found
