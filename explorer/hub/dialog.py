"""File › Get a model…: choose an OPUS-MT model by language pair (or name any Hub repository) and download it.

The list is ``model.hub.catalogue`` (the model cards' scores and licences, shown before any network is
used); a model already in the Hugging Face cache says so and opens without a download. The download runs
on ``DownloadWorker``'s thread: a progress bar with bytes, speed and time left, Cancel answered within a
second (the partial file is kept and the next Download resumes it), every failure one line under the bar.
When the files are there the dialog emits ``model_ready`` with the folder and the window opens it.
"""

from __future__ import annotations

import time

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
)

from explorer.hub.hub_messages import hub_message, progress_message
from explorer.hub.worker import DownloadWorker
from explorer.ui.i18n import N_, tr, translate
from explorer.ui.worker_thread import WorkerThread
from model.hub.cache import cache_dir, cached_snapshot, parse_repo
from model.hub.catalogue import BASE_SIZE_MB, CATALOGUE, HubModel
from model.hub.progress import Rate, fmt_bytes
from model.languages import language_name

COLUMNS = (N_("Languages"), N_("Model"), N_("Test BLEU"), N_("Licence"), N_("Size"))


class GetModelDialog(QDialog):
    model_ready = Signal(str, str)  # repo_id, snapshot folder
    _fetch = Signal(str, str)  # repo_id, revision: to the worker's thread

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("Get a model"))
        self.rate, self._shown_at, self.repo_id = Rate(), 0.0, ""
        self.table = QTableWidget(len(CATALOGUE), len(COLUMNS))
        self.table.setHorizontalHeaderLabels([translate(c) for c in COLUMNS])
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.other = QLineEdit()
        self.other.setPlaceholderText(tr("or any other Hub model: owner/name or its URL"))
        self.about = QLabel(wordWrap=True)
        self.where = QLabel(tr("Files go to the Hugging Face cache: {folder}", folder=str(cache_dir())),
                            wordWrap=True, textInteractionFlags=Qt.TextInteractionFlag.TextSelectableByMouse)
        self.bar = QProgressBar(textVisible=False)
        self.bar.hide()
        self.status = QLabel(wordWrap=True)
        self.download_button = QPushButton(tr("Download"))
        self.cancel_button = QPushButton(tr("Cancel download"))
        self.cancel_button.hide()
        self.close_button = QPushButton(tr("Close"))
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        for b in (self.download_button, self.cancel_button, self.close_button):
            buttons.addWidget(b)
        layout = QVBoxLayout(self)
        for w in (self.table, self.other, self.about, self.where, self.bar, self.status):
            layout.addWidget(w)
        layout.addLayout(buttons)
        self._fill()
        self.table.itemSelectionChanged.connect(self._selected)
        self.other.textEdited.connect(lambda _text: self.table.clearSelection() if self.other.text() else None)
        self.download_button.clicked.connect(self.start)
        self.cancel_button.clicked.connect(self.cancel)
        self.close_button.clicked.connect(self.close)

        self.worker = DownloadWorker()
        self._fetch.connect(self.worker.fetch)
        self.worker.planned.connect(self._planned)
        self.worker.progress.connect(self._progress)
        self.worker.finished.connect(self._finished)
        self.worker.cancelled.connect(self._stopped)
        self.worker.failed.connect(self._stopped)
        self._worker_thread = WorkerThread(self.worker, "download-worker", on_quit=self.shutdown)
        self.table.selectRow(0)
        self.resize(860, 460)

    # -- the list ---------------------------------------------------------------------------------

    def _fill(self) -> None:
        for row, m in enumerate(CATALOGUE):
            here = cached_snapshot(m.repo_id) is not None
            size = tr("downloaded") if here else f"≈ {BASE_SIZE_MB} MB"
            pair = f"{translate(language_name(m.source))} → {translate(language_name(m.target))}"
            cells = (pair, m.repo_id, f"{m.bleu:.1f}", m.licence or tr("see the model card"), size)
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setData(Qt.ItemDataRole.UserRole, m.repo_id)
                self.table.setItem(row, col, item)

    def showEvent(self, event) -> None:  # noqa: N802 - Qt override
        # Each time it opens: the table in the window's language now (it is kept between openings, and
        # the pairs stayed "English → German" in a window switched to Chinese meanwhile), and what was
        # downloaded since.
        self._fill()
        super().showEvent(event)

    def _entry(self) -> HubModel | None:
        rows = self.table.selectionModel().selectedRows() if self.table.selectionModel() else []
        return CATALOGUE[rows[0].row()] if rows else None

    def _selected(self) -> None:
        m = self._entry()
        if m is None:
            return
        self.other.clear()
        about = tr("BLEU {bleu:.1f} on {test_set}, as its model card reports.", bleu=m.bleu, test_set=m.test_set)
        if m.note:
            about += " " + translate(m.note)
        self.about.setText(about)
        self.download_button.setText(tr("Open") if cached_snapshot(m.repo_id) else tr("Download"))

    def chosen(self) -> tuple[str, str]:
        """(repo id, revision) of the typed repository, else of the selected row; ValueError-free: a bad id is
        said on the status line and gives ("", "")."""
        text = self.other.text().strip()
        if not text:
            m = self._entry()
            return (m.repo_id, "") if m else ("", "")
        try:
            repo_id, revision = parse_repo(text)
        except ValueError as exc:
            self.status.setText(hub_message(str(exc)))
            return "", ""
        return repo_id, revision or ""

    # -- the download -----------------------------------------------------------------------------

    def start(self) -> None:
        repo_id, revision = self.chosen()
        if not repo_id:
            return
        self.repo_id = repo_id
        here = cached_snapshot(repo_id, revision or None)
        if here is not None:  # nothing to fetch: open it
            self.status.setText(tr("{repo} is already downloaded.", repo=repo_id))
            self.model_ready.emit(repo_id, str(here))
            return
        self.rate = Rate()
        self.status.setText(tr("Asking the Hub about {repo}…", repo=repo_id))
        self._running(True)
        self._fetch.emit(repo_id, revision)

    def cancel(self) -> None:
        self.worker.cancel_event.set()
        self.status.setText(tr("Cancelling…"))

    def _running(self, running: bool) -> None:
        self.bar.setVisible(running)
        self.cancel_button.setVisible(running)
        self.download_button.setEnabled(not running)
        self.table.setEnabled(not running)
        self.other.setEnabled(not running)
        if running:
            self.bar.setRange(0, 0)  # busy until the listing gives the total

    def _planned(self, repo_id: str, files: int, total: int) -> None:
        self.bar.setRange(0, 1000)
        self.status.setText(tr("{repo}: {files} files, {size}", repo=repo_id, files=files, size=fmt_bytes(total)))

    def _progress(self, name: str, done: int, total: int) -> None:
        self.rate.add(done)
        now = time.monotonic()
        if now - self._shown_at < 0.1 and done < total:  # a label ten times a second is enough to read
            return
        self._shown_at = now
        self.bar.setValue(int(1000 * done / max(total, 1)))
        self.status.setText(f"{name}: {progress_message(self.rate.describe(total))}")

    def _finished(self, repo_id: str, folder: str) -> None:
        self._running(False)
        self._fill()
        self.status.setText(tr("{repo} is ready; opening it.", repo=repo_id))
        self.model_ready.emit(repo_id, folder)

    def _stopped(self, message: str) -> None:
        self._running(False)
        self.status.setText(hub_message(message))

    # -- closing ----------------------------------------------------------------------------------

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        self.worker.cancel_event.set()  # a download in flight stops; its partial file stays for next time
        super().closeEvent(event)

    def shutdown(self) -> None:
        """Stop the worker's thread (the download, if any, ends at its next 64 kB)."""
        self._worker_thread.stop()
