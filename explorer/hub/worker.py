"""The download worker: lists a Hub repository and fetches its files off the GUI thread.

It runs ``model.hub`` (huggingface_hub; no torch) on its own QThread, owned by the dialog, and sends back
plain values: the plan's file count and byte total, progress in bytes, the finished snapshot folder, or one
line of failure. Cancel is cooperative and fast: the GUI thread sets ``cancel_event``; the transfer checks it
every 64 kB (model.hub.download.CHUNK) and stops with ``cancelled``, keeping the partial file so that the
next download of the same model resumes. Every job ends in exactly one of ``finished``, ``cancelled`` or
``failed``.
"""

from __future__ import annotations

import logging
import threading

from PySide6.QtCore import QObject, Signal, Slot

from model.errors import UserError

log = logging.getLogger(__name__)


class DownloadWorker(QObject):
    planned = Signal(str, int, int)  # repo_id, number of files, total bytes
    progress = Signal(str, int, int)  # file, bytes done, total bytes
    finished = Signal(str, str)  # repo_id, snapshot folder
    cancelled = Signal(str)  # message
    failed = Signal(str)  # one line

    def __init__(self) -> None:
        super().__init__()
        self.cancel_event = threading.Event()

    @Slot(str, str)
    def fetch(self, repo_id: str, revision: str) -> None:
        from model.hub.download import download, plan_download
        from model.hub.errors import DownloadCancelled

        self.cancel_event.clear()
        try:
            plan = plan_download(repo_id, revision or None)
            self.planned.emit(repo_id, len(plan.files), plan.total)
            folder = download(plan, self.progress.emit, cancelled=self.cancel_event.is_set)
        except DownloadCancelled as exc:
            self.cancelled.emit(str(exc))
        except UserError as exc:
            self.failed.emit(str(exc))
        except Exception as exc:  # noqa: BLE001 - a bug must reach the user as a line, not kill the thread
            log.error("unexpected error in the download worker", exc_info=exc)
            self.failed.emit(f"Unexpected error: {type(exc).__name__}: {exc}")
        else:
            self.finished.emit(repo_id, str(folder))
