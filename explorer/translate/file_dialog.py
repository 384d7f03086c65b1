"""File › Translate a file…: a UTF-8 text file translated whole, with progress, Cancel and a review list.

The work runs on ``FileTranslationWorker``'s thread with the model the window shows; the translation is
saved beside the file (its name ends in the target language: ``letter.de.txt``), in the file's own lines
and paragraphs. Sentences the model could not translate cleanly (a loop cut short, the length limit, an
empty output) are listed under the bar, each with its line number, so a translator knows where to look.
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
        self.review = QListWidget()
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
        for w in (self.file_label, self.bar, self.status, self.review):
            layout.addWidget(w)
        layout.addLayout(buttons)
        self.choose_button.clicked.connect(self.choose)
        self.cancel_button.clicked.connect(self.cancel)
        self.close_button.clicked.connect(self.close)

        self.worker = FileTranslationWorker()
        self._request.connect(self.worker.translate_file)
        self.worker.progress.connect(self._progress)
        self.worker.finished.connect(self._finished)
        self.worker.cancelled.connect(lambda: self._stopped(tr("Cancelled; nothing was written.")))
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

    def _finished(self, out: str, sentences: int, flagged: list) -> None:
        self._stopped(tr("{sentences} sentences translated, saved to {path}", sentences=sentences, path=out))
        self.bar.setRange(0, 1)
        self.bar.setValue(1)
        self.bar.show()
        if flagged:
            self.review.addItems([tr("line {line}: {note}: {source}", line=line, note=tr(note), source=source)
                                  for line, note, source in flagged])
            self.review.show()

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
