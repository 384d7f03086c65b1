"""The controller: owns the model worker and its thread, and turns its raw signals into clean ones.

The window never talks to the worker directly. It asks the controller to load or translate; the
controller numbers every translate request, forwards it across threads with a queued signal, and
passes back only the answer to the *newest* request. Results of older requests that were already
running when a newer one came in are dropped here, so whatever the user typed last is what they see.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QThread, Signal

from explorer.translate.worker import LOAD, NO_DEFAULT, TRANSLATE, ModelWorker, TranslateRequest
from explorer.ui.i18n import tr
from explorer.ui.worker_thread import WorkerThread

SHUTDOWN_WAIT_MS = 600_000  # a decode in flight is never cut off: Qt aborts if a running thread is destroyed


def format_seconds(seconds: float) -> str:
    """'23 ms' below a second, '1.4 s' above: the precision a person reads from a status bar."""
    return f"{seconds * 1000:.0f} ms" if seconds < 1.0 else f"{seconds:.1f} s"


class Controller(QObject):
    """Owns a :class:`ModelWorker` on its own QThread and keeps the latest ModelInfo / Translation."""

    model_loaded = Signal(object)  # ModelInfo of the model now in use
    compare_loaded = Signal(object)  # ModelInfo of the model compared with, None when comparing stopped
    translation_ready = Signal(object)  # Translation answering the newest request only
    error = Signal(str, str)  # kind ("load" / "translate" / "compare"), message for a person
    no_default_model = Signal()  # the app has no built-in model: show the empty state
    busy_changed = Signal(bool)
    timing = Signal(str)  # e.g. "translated in 23 ms"

    # Requests travel to the worker as queued signals: the worker lives on another thread, so Qt
    # delivers them there in order, and the GUI thread returns at once.
    _request_default = Signal()
    _request_load = Signal(str)
    _request_translate = Signal(object)  # TranslateRequest
    _request_compare = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.info = None  # ModelInfo of the loaded model
        self.translation = None  # newest Translation shown
        self._latest_id = 0
        # Heads removed from every translation until restored, (kind, layer, head) 0-based: the All heads
        # grid's ablation sets them (explorer/translate/ablation.py), and a new sentence keeps them removed.
        self.removed_heads: tuple[tuple[str, int, int], ...] = ()
        self._busy = False
        self._translating = False  # a translation was asked for and has not answered (nor been stopped)
        # What the open views want with every translation (the formula walkthrough: Q, K, V; the step tab:
        # the steps; the beam explorer: the final beam). Read when a request is made, and sent with it.
        self.capture_vectors = False
        self.capture_steps = False
        self.capture_beam = False
        self.worker = ModelWorker()

        self._request_default.connect(self.worker.load_default_model)
        self._request_load.connect(self.worker.load_model)
        self._request_translate.connect(self.worker.translate)
        self._request_compare.connect(self.worker.load_compare_model)
        self.worker.compare_loaded.connect(self.compare_loaded)
        self.worker.model_loaded.connect(self._on_model_loaded)
        self.worker.translated.connect(self._on_translated)
        self.worker.failed.connect(self._on_failed)
        self.worker.busy.connect(self._on_busy)
        self.worker.timed.connect(self._on_timed)
        # The app's quit is a backstop for exits that skip the window's closeEvent: Qt aborts the process
        # if a QThread is destroyed while it is still running.
        self._worker_thread = WorkerThread(self.worker, "model-worker", on_quit=self.shutdown)

    # -- requests ------------------------------------------------------------------------------

    @property
    def thread(self) -> QThread:
        return self._worker_thread.thread

    @property
    def is_busy(self) -> bool:
        return self._busy

    @property
    def translating(self) -> bool:
        """Whether the newest translation asked for is still under way (what Stop would stop)."""
        return self._translating

    @property
    def latest_request_id(self) -> int:
        return self._latest_id

    def load_default_model(self) -> None:
        """Load the built-in model; emits ``no_default_model`` if there is none."""
        self._request_default.emit()

    def load_model(self, path: str) -> None:
        """Load a model folder; on failure ``error('load', …)`` and the previous model stays."""
        self._request_load.emit(str(path))

    def translate(self, text: str, beam_size: int = 1, sentence: int = 0) -> int:
        """Queue a translation and return its request id; only the newest id's answer is emitted.

        ``sentence``: for a text of several sentences, which one's attention the answer carries (0-based)."""
        self._latest_id += 1
        self.worker.latest_request_id = self._latest_id
        self._translating = True
        self._request_translate.emit(TranslateRequest(
            self._latest_id, text, int(beam_size), tuple(self.removed_heads), int(sentence),
            self.capture_vectors, self.capture_steps, self.capture_beam))
        return self._latest_id

    def stop(self) -> None:
        """Drop the translation under way: its answer will not be shown, and a text of several sentences
        stops decoding at its next batch (the worker's check that a newer request came; none comes)."""
        self._latest_id += 1
        self.worker.latest_request_id = self._latest_id
        self._translating = False

    def load_compare_model(self, path: str) -> None:
        """Compare every translation with the model folder at ``path`` (empty: stop comparing)."""
        self._request_compare.emit(str(path))

    def set_capture_beam(self, on: bool) -> None:
        """Ask for every hypothesis of the final beam with each translation (the beam explorer is open)."""
        self.capture_beam = bool(on)

    def set_capture_vectors(self, on: bool) -> None:
        """Ask for every head's Q, K, V with each translation (the formula walkthrough is open)."""
        self.capture_vectors = bool(on)

    def set_capture_steps(self, on: bool) -> None:
        """Ask for the search step by step with each translation (the step-by-step tab is shown)."""
        self.capture_steps = bool(on)

    def shutdown(self) -> None:
        """Stop the worker thread and wait for it (a sentence being decoded finishes first, a paragraph
        stops at its next batch). Idempotent."""
        self._worker_thread.stop(wait_ms=SHUTDOWN_WAIT_MS)

    # -- answers from the worker (delivered on the GUI thread) ---------------------------------

    def _on_model_loaded(self, info) -> None:
        self.info = info
        self.model_loaded.emit(info)

    def _on_translated(self, translation) -> None:
        if translation.request_id != self._latest_id:
            return  # a newer request is on its way; showing this one would flash stale maps
        self._translating = False
        self.translation = translation
        self.translation_ready.emit(translation)

    def _on_failed(self, kind: str, message: str, request_id: int) -> None:
        if kind == NO_DEFAULT:
            self.no_default_model.emit()
        elif kind == TRANSLATE and request_id != self._latest_id:
            return  # the error belongs to text the user has already replaced
        else:
            self._translating = self._translating and kind != TRANSLATE
            self.error.emit(kind, message)

    def _on_busy(self, busy: bool) -> None:
        if busy != self._busy:
            self._busy = busy
            self.busy_changed.emit(busy)

    def _on_timed(self, kind: str, request_id: int, seconds: float) -> None:
        if kind == LOAD:
            self.timing.emit(tr("loaded in {time}", time=format_seconds(seconds)))
        elif request_id == self._latest_id:
            self.timing.emit(tr("translated in {time}", time=format_seconds(seconds)))
