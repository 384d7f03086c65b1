"""File › Translate a file…'s worker: a whole UTF-8 text file, sentence by sentence, off the GUI thread.

Like the other workers it imports the model code inside its slot, on its own QThread (owned by
``explorer.translate.file_dialog``), keeps its own copy of the model (loaded from the folder the window
shows, so the sentence being typed still translates meanwhile), and sends back plain values only. The
text goes through ``model.paragraphs.translate_text``: split into sentences, decoded in batches, loops cut
and flagged, every sentence accounted for, lines and paragraphs kept. The translation is written
atomically beside the file (``letter.txt`` → ``letter.de.txt``); an existing one is never overwritten.
Cancel is cooperative: ``cancel_event`` is asked between batches and nothing is written then.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path

from PySide6.QtCore import QObject, Signal, Slot

from model.errors import UserError

log = logging.getLogger(__name__)


def output_path(source: Path, target_lang: str) -> Path:
    """letter.txt → letter.de.txt; letter.de.txt exists → letter.de-2.txt, and so on (nothing overwritten)."""
    stem, suffix = source.stem, source.suffix or ".txt"
    candidate = source.with_name(f"{stem}.{target_lang}{suffix}")
    n = 2
    while candidate.exists():
        candidate = source.with_name(f"{stem}.{target_lang}-{n}{suffix}")
        n += 1
    return candidate


class FileTranslationWorker(QObject):
    progress = Signal(int, int)  # sentences done, total
    # output path, sentences, [(line, note, source, translation, mean log P)] of every sentence, for the review
    finished = Signal(str, int, object)
    cancelled = Signal()
    failed = Signal(str)  # one line

    def __init__(self) -> None:
        super().__init__()
        self.cancel_event = threading.Event()
        self._loaded = None

    @Slot(str, str, int)
    def translate_file(self, model_path: str, file_path: str, beam_size: int) -> None:
        from model.analysis.held_out import Cancelled
        from model.checkpoint import load_model
        from model.cli.translate_text import read_text_file
        from model.files import write_atomic
        from model.languages import model_target
        from model.paragraphs.translate_text import translate_text

        self.cancel_event.clear()
        try:
            text = read_text_file(file_path)  # UTF-8 checked, bounded, one line for what is not text
            if self._loaded is None or str(self._loaded.path) != str(Path(model_path)):
                self._loaded = None
                self._loaded = load_model(model_path, device="cpu")
            target = model_target(self._loaded.path) or "de"
            out = output_path(Path(file_path), target)
            result = translate_text(self._loaded, text, beam_size=beam_size, tgt_lang=target,
                                    progress=self.progress.emit, should_stop=self.cancel_event.is_set)
            write_atomic(out, result.text if result.text.endswith("\n") else result.text + "\n")
        except Cancelled:
            self.cancelled.emit()
        except UserError as exc:
            self.failed.emit(str(exc))
        except OSError as exc:
            self.failed.emit(f"{exc.filename or file_path}: {exc.strerror or exc}")
        except Exception as exc:  # noqa: BLE001 - a bug reaches the user as a line, the thread lives on
            log.error("unexpected error while translating a file", exc_info=exc)
            self.failed.emit(f"Unexpected error: {type(exc).__name__}: {exc}")
        else:
            review = [(s.line + 1, s.note, s.source, s.text, s.mean_logprob) for s in result.sentences]
            self.finished.emit(str(out), len(result.sentences), review)
