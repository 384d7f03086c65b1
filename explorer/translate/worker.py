"""The object that does all model work, off the GUI thread.

The window's contract with the model: its views import only ``model.records``, its forms only
``model.choices`` (both torch-free), and two worker modules import the rest: this one for translation,
``explorer.training.worker`` for training. Both do so *inside* their slots, which run on the workers'
QThreads. Importing torch takes a second or more; doing it here means the window paints first and the
GUI never freezes while a model loads or a sentence is decoded.

The worker owns the loaded model outright: only this thread ever touches it, so no lock is needed.
Every slot ends in exactly one signal: a result, ``failed``, or nothing at all for a request that was
superseded before it started (see ``latest_request_id``).
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from dataclasses import dataclass

from PySide6.QtCore import QObject, Signal, Slot

from model.errors import UserError

log = logging.getLogger(__name__)

UNEXPECTED = "Unexpected error"  # starts the message of a failure that is not the user's (a bug)
# Values of the ``kind`` argument of ``failed``.
LOAD = "load"
TRANSLATE = "translate"
COMPARE = "compare"  # loading the second model of File › Compare with model…
NO_DEFAULT = "no_default"  # no built-in model exists: not an error, the window shows its empty state


def find_default_model() -> str | None:
    """The built-in model folder, or None. A module function so tests can patch it away."""
    from model.checkpoint import default_model_dir

    path = default_model_dir()
    return None if path is None else str(path)


def _message(exc: BaseException) -> str:
    """A message for a person: ours as written, anything else flagged as unexpected and logged."""
    if isinstance(exc, UserError):
        return str(exc)
    log.error("unexpected error in the model worker", exc_info=exc)
    return f"{UNEXPECTED}: {type(exc).__name__}: {exc}"


@dataclass(frozen=True)
class TranslateRequest:
    """Everything one translation is asked for, frozen as it left the GUI thread: what the open views
    want travels with the sentence, so a view opened meanwhile never changes a request already queued."""

    request_id: int
    text: str
    beam_size: int = 1
    removed: tuple = ()  # heads to ablate, (kind, layer, head) 0-based (model/decoding/ablation.py)
    sentence: int = 0  # of a text of several sentences, the one whose attention comes back (0-based)
    capture_vectors: bool = False  # every head's Q, K, V (the formula walkthrough is open): a second pass
    capture_steps: bool = False  # the search step by step (the step-by-step tab is shown): one more pass
    capture_beam: bool = False  # every hypothesis of the final beam (the beam explorer is open)


class Superseded(Exception):
    """The request was overtaken by a newer one while it ran."""


class ModelWorker(QObject):
    """Loads a model and translates with it; lives on a QThread (see ``explorer.translate.controller``)."""

    model_loaded = Signal(object)  # model.records.ModelInfo
    compare_loaded = Signal(object)  # ModelInfo of the second model (File › Compare with model…), None: closed
    translated = Signal(object)  # model.records.Translation, request_id set
    failed = Signal(str, str, int)  # kind (LOAD / TRANSLATE / NO_DEFAULT), message, request_id
    busy = Signal(bool)
    timed = Signal(str, int, float)  # kind, request_id, seconds the work itself took

    def __init__(self) -> None:
        super().__init__()
        self._loaded = None  # model.checkpoint.LoadedModel once a load succeeds
        # Written by the controller on the GUI thread, read here. A plain int assignment is atomic
        # under the GIL, which is all this needs: a request already older than the newest one when
        # it reaches the front of the queue is skipped, so fast typing does not queue up decodes, and a
        # paragraph being decoded stops at its next batch.
        self.latest_request_id = 0
        # Set when the window closes (WorkerThread.stop): a paragraph in flight stops at its next batch.
        self.cancel_event = threading.Event()
        # A second model to compare with (File › Compare with model…; set on this thread by load_compare_model).
        self._compare = None
        # The last text of several sentences and its Paragraph: choosing another of its sentences (or a view
        # asking for more of the same one) decodes only that sentence again, not the whole text.
        self._paragraph_cache: tuple[tuple, object] | None = None

    @property
    def has_model(self) -> bool:
        return self._loaded is not None

    @Slot()
    def load_default_model(self) -> None:
        """Load the built-in model, or report NO_DEFAULT when the app ships without one."""
        try:
            path = find_default_model()
        except Exception as exc:  # noqa: BLE001 - any failure must reach the window as a message
            self.failed.emit(LOAD, _message(exc), 0)
            return
        if path is None:
            self.failed.emit(NO_DEFAULT, "No built-in model is installed.", 0)
            return
        self.load_model(path)

    @Slot(str)
    def load_model(self, path: str) -> None:
        """Load the model folder at ``path``; on failure the previous model stays in use."""
        self.busy.emit(True)
        start = time.perf_counter()
        try:
            opened = self._open(path, LOAD)
            if opened is not None:
                # Swap only after the new model is complete, so a failed load never leaves us with none.
                self._loaded = opened[0]
                self._paragraph_cache = None
                self.timed.emit(LOAD, 0, time.perf_counter() - start)
                self.model_loaded.emit(opened[1])
        finally:
            self.busy.emit(False)

    @Slot(str)
    def load_compare_model(self, path: str) -> None:
        """Load a second model to compare with (empty path: stop comparing)."""
        if not path:
            self._compare = None
            self.compare_loaded.emit(None)
            return
        self.busy.emit(True)
        try:
            opened = self._open(path, COMPARE)
            if opened is not None:
                self._compare = opened[0]
                self.compare_loaded.emit(opened[1])
        finally:
            self.busy.emit(False)

    def _open(self, path: str, kind: str) -> tuple | None:
        """(the loaded model, its ModelInfo) of the folder at ``path`` on the CPU, or None after emitting
        ``failed`` (``kind``) with the reason."""
        try:
            from model.checkpoint import load_model

            loaded = load_model(path, device="cpu")
            return loaded, loaded.info()
        except Exception as exc:  # noqa: BLE001 - any failure must reach the window as a message
            self.failed.emit(kind, _message(exc), 0)
            return None

    @Slot(object)
    def translate(self, request: TranslateRequest) -> None:
        """Translate ``request.text``; the Translation carries ``request.request_id`` so stale results can be
        dropped. A text of several sentences is translated sentence by sentence (``Translation.paragraph``),
        and the Translation itself, with its attention, is that of sentence ``request.sentence``."""
        request_id = request.request_id
        if request_id < self.latest_request_id:
            return  # superseded while it waited in the queue; the newer request will answer
        if self._loaded is None:
            self.failed.emit(TRANSLATE, "Load a model first (File › Open model folder…).", request_id)
            return
        self.busy.emit(True)
        start = time.perf_counter()
        try:
            paragraph = self._paragraph(request)
            if paragraph is not None:
                index = max(0, min(request.sentence, len(paragraph.sentences) - 1))
                paragraph = dataclasses.replace(paragraph, selected=index)
                request = dataclasses.replace(request, text=paragraph.sentences[index].source)
            result = self._translate_one(request)
            if paragraph is not None:
                result = dataclasses.replace(result, paragraph=paragraph)
        except Superseded:
            return  # a newer request came in while the text was decoded (or the window closed)
        except Exception as exc:  # noqa: BLE001
            self.failed.emit(TRANSLATE, _message(exc), request_id)
        else:
            self.timed.emit(TRANSLATE, request_id, time.perf_counter() - start)
            self.translated.emit(result)
        finally:
            self.busy.emit(False)

    def _translate_one(self, r: TranslateRequest):
        """One sentence's Translation, with the attention and whatever the open views asked for."""
        if r.removed or r.capture_beam or self._compare is not None:
            from model.decoding.workbench import translate_more

            return translate_more(self._loaded, r.text, r.beam_size, r.request_id, tuple(r.removed), r.capture_beam,
                                  self._compare, r.capture_vectors, r.capture_steps)
        from model.decoding.decode import translate

        # Attention capture is on by default; it is what every view draws.
        return translate(self._loaded, r.text, beam_size=r.beam_size, request_id=r.request_id,
                         capture_vectors=r.capture_vectors, capture_steps=r.capture_steps)

    def _paragraph(self, r: TranslateRequest):
        """The Paragraph of a text of several sentences, None for one sentence (translated as it always was).

        Every sentence is decoded in one batched pass (model.paragraphs: loops cut and flagged, an empty
        translation kept and marked), with the heads the user removed removed from it too."""
        text, beam_size, removed = r.text, r.beam_size, tuple(r.removed)
        key = (text, beam_size, removed)
        if self._paragraph_cache is not None and self._paragraph_cache[0] == key:
            return self._paragraph_cache[1]
        from model.languages import model_target, script_language
        from model.paragraphs.split import layout

        if len(layout(text, script_language([text]) or "en").pieces) < 2:
            return None
        from model.analysis.held_out import Cancelled
        from model.decoding.ablation import head_masks
        from model.paragraphs.translate_text import translate_text
        from model.records import Paragraph, ParagraphSentence

        cfg = self._loaded.config
        masks = head_masks(removed, cfg.n_layers, cfg.n_heads) if removed else None
        try:
            done = translate_text(self._loaded, text, beam_size=beam_size, tgt_lang=model_target(self._loaded.path)
                                  or "de", head_masks=masks, should_stop=lambda: self.latest_request_id > r.request_id
                                  or self.cancel_event.is_set())
        except Cancelled:
            raise Superseded() from None
        if len(done.sentences) != len(done.spans):  # every sentence in has one out, or nothing is shown
            raise RuntimeError(f"{len(done.spans)} translations for {len(done.sentences)} sentences")
        paragraph = Paragraph(text, done.text, tuple(
            ParagraphSentence(s.source, s.text, s.line, s.note, span) for s, span in zip(done.sentences, done.spans)))
        self._paragraph_cache = (key, paragraph)
        return paragraph
