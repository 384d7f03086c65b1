"""File › Translate a file…: a UTF-8 text file translated whole, with progress, Cancel and a review list.

The work runs on ``FileTranslationWorker``'s thread with the model the window shows; the translation is
saved beside the file (its name ends in the target language: ``letter.de.txt``), in the file's own lines
and paragraphs. Then every sentence is listed for review, least sure first, each with its line number:
those the model could not translate cleanly (a loop cut short, the length limit, an empty output) at the
top, the rest by their mean log-probability, lowest first, so a translator knows where to look.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
)

from explorer.translate.file_worker import FileTranslationWorker
from explorer.ui.i18n import tr
from explorer.ui.worker_thread import WorkerThread


def review_order(review: list) -> list:
    """Flagged sentences first (in file order), then the rest by mean log-probability, least sure first."""
    flagged = [r for r in review if r[1]]
    rest = sorted((r for r in review if not r[1]), key=lambda r: (r[4] is not None, r[4] or 0.0, r[0]))
    return flagged + rest


def review_line(line: int, note: str, source: str, text: str, logprob: float | None) -> str:
    """"line 12 · log P −1.84 · source → translation", the note first where there is one."""
    said = tr("line {line}", line=line)
    if note:
        said += " · " + "; ".join(tr(part) for part in note.split("; "))
    if logprob is not None:
        said += " · " + tr("mean log P {value:.2f}", value=logprob)
    return f"{said} · {source} → {text}"


class TranslateFileDialog(QDialog):
    _request = Signal(str, str, int)  # model folder, file, beam size: to the worker's thread

    def __init__(self, model_path_of, beam_of, parent=None) -> None:
        """``model_path_of()``: the folder of the model the window shows now (None: no model yet);
        ``beam_of()``: the beam size the sentence panel is set to."""
        super().__init__(parent)
        self.setWindowTitle(tr("Translate a file"))
        self.model_path_of, self.beam_of = model_path_of, beam_of
        self.file_label = QLabel(tr("A UTF-8 text file; its translation is saved beside it."), wordWrap=True)
        self.bar = QProgressBar()
        self.bar.hide()
        self.status = QLabel(wordWrap=True)
        self.review_label = QLabel(tr("To review, least sure first:"))
        self.review_label.hide()
        self.review = QListWidget()
        self.review.setWordWrap(True)
        self.review.hide()
        self.choose_button = QPushButton(tr("Choose a file…"))
        self.cancel_button = QPushButton(tr("Cancel"))
        self.cancel_button.hide()
        self.close_button = QPushButton(tr("Close"))
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        for b in (self.choose_button, self.cancel_button, self.close_button):
            buttons.addWidget(b)
        layout = QVBoxLayout(self)
        for w in (self.file_label, self.bar, self.status, self.review_label):
            layout.addWidget(w)
        # The list takes the spare height when it shows; without it a stretch does, so the lines stay
        # together at the top (a refused file's reason stood alone half-way down a blank dialog).
        layout.addWidget(self.review, 100)
        layout.addStretch(1)
        layout.addLayout(buttons)
        self.choose_button.clicked.connect(self.choose)
        self.cancel_button.clicked.connect(self.cancel)
        self.close_button.clicked.connect(self.close)

        self.worker = FileTranslationWorker()
        self._request.connect(self.worker.translate_file)
        self.worker.progress.connect(self._progress)
        self.worker.finished.connect(self._finished)
        # A bound method, not a lambda: a lambda has no receiver on this thread, so Qt would call it on the
        # worker's thread at once, ahead of the progress reports still queued here (which then overwrote
        # "Cancelled" with "128 of 3000 sentences").
        self.worker.cancelled.connect(self._cancelled)
        self.worker.failed.connect(self._stopped)
        self._worker_thread = WorkerThread(self.worker, "file-translation-worker", on_quit=self.shutdown)
        self.resize(640, 360)

    def choose(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, tr("Translate a file"), str(Path.home()),
                                              tr("Text files (*.txt);;All files (*)"))
        if path:
            self.start(path)

    def start(self, path: str) -> bool:
        """Translate ``path`` with the window's model; False (and a line saying why) when there is none."""
        model = self.model_path_of()
        if not model:
            self.status.setText(tr("Open a model first."))
            return False
        self.file_label.setText(path)
        self.review.clear()
        self.review.hide()
        self.review_label.hide()
        self.bar.setRange(0, 0)  # busy until the first batch says how many sentences there are
        self.bar.show()
        self.cancel_button.show()
        self.choose_button.setEnabled(False)
        self.status.setText(tr("Reading and splitting {name}…", name=Path(path).name))
        self._request.emit(str(model), path, int(self.beam_of()))
        return True

    def cancel(self) -> None:
        self.worker.cancel_event.set()
        self.status.setText(tr("Cancelling…"))

    def _progress(self, done: int, total: int) -> None:
        self.bar.setRange(0, max(total, 1))
        self.bar.setValue(done)
        self.status.setText(tr("{done} of {total} sentences", done=done, total=total))

    def _finished(self, out: str, sentences: int, review: list) -> None:
        self._stopped(tr("{sentences} sentences translated, saved to {path}", sentences=sentences, path=out))
        self.bar.setRange(0, 1)
        self.bar.setValue(1)
        self.bar.show()
        self.review.addItems([review_line(*entry) for entry in review_order(review)])
        self.review.setVisible(bool(review))
        self.review_label.setVisible(bool(review))

    def _cancelled(self) -> None:
        self._stopped(tr("Cancelled; nothing was written."))

    def _stopped(self, message: str) -> None:
        self.bar.hide()
        self.cancel_button.hide()
        self.choose_button.setEnabled(True)
        self.status.setText(message)

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        self.worker.cancel_event.set()  # a translation in flight stops at its next batch; nothing is written
        super().closeEvent(event)

    def shutdown(self) -> None:
        """Stop the worker's thread (a file in flight ends at its next batch, writing nothing)."""
        self._worker_thread.stop(wait_ms=10_000)
