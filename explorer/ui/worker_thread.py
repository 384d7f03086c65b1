"""A worker QObject on a thread of its own, started and stopped the same way by every dialog that has one.

The worker's slots run on the thread; the GUI thread talks to it through queued signals and stops a job
with the worker's ``cancel_event`` (a threading.Event, safe from any thread; a worker that stops its own
way, as training saves a last checkpoint first, passes ``cancel``). ``stop`` asks the job to end, then
joins the thread, so nothing runs on after its window is gone. Every worker of the app runs on one: the
translation controller, training, the workbench and the dialogs.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QObject, QThread


class WorkerThread:
    def __init__(self, worker: QObject, name: str, on_quit=None, cancel=None, start: bool = True) -> None:
        """Move ``worker`` to a new thread called ``name`` and start it (``start`` False: at ``start()``, on
        first use); ``on_quit`` runs when the app quits (a backstop for exits that skip the window's
        closeEvent: Qt aborts the process if a QThread is destroyed while it runs); ``cancel()`` ends the
        worker's job (default: set its ``cancel_event``)."""
        self.worker = worker
        self.thread = QThread()
        self.thread.setObjectName(name)
        self._cancel = cancel or worker.cancel_event.set
        worker.moveToThread(self.thread)
        if start:
            self.start()
        app = QCoreApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(on_quit or self.stop)

    def start(self) -> None:
        """Start the thread if it is not running (again after a ``stop``)."""
        if not self.thread.isRunning():
            self.thread.start()

    def stop(self, wait_ms: int = 5000) -> None:
        """Cancel the worker's job (it ends at its next check) and join the thread."""
        self._cancel()
        if self.thread.isRunning():
            self.thread.quit()  # handled once the running slot returns
            self.thread.wait(wait_ms)
