"""A worker QObject on a thread of its own, started and stopped the same way by every dialog that has one.

The worker's slots run on the thread; the GUI thread talks to it through queued signals and stops a job
with the worker's ``cancel_event`` (a threading.Event, safe from any thread). ``stop`` asks the job to
end, then joins the thread, so nothing runs on after its window is gone. Used by the translation
controller and the dialogs; the training and workbench stacks still wire theirs by hand (issue 26 item 2).
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QObject, QThread


class WorkerThread:
    def __init__(self, worker: QObject, name: str, on_quit=None) -> None:
        """Move ``worker`` to a new thread called ``name`` and start it; ``on_quit`` runs when the app quits."""
        self.worker = worker
        self.thread = QThread()
        self.thread.setObjectName(name)
        worker.moveToThread(self.thread)
        self.thread.start()
        app = QCoreApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(on_quit or self.stop)

    def stop(self, wait_ms: int = 5000) -> None:
        """Cancel the worker's job (it ends at its next check) and join the thread."""
        if self.thread.isRunning():
            self.worker.cancel_event.set()
            self.thread.quit()
            self.thread.wait(wait_ms)
