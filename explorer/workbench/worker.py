"""The research workbench's worker: head importance and per-head statistics over a test set, off the GUI thread.

Like ``explorer.translate.worker`` it imports the model code inside its slots, which run on its own QThread (owned
by ``explorer.workbench.panel``), and sends back only frozen records (``model.records.research``). It keeps its
own copy of the model, loaded from the folder the window shows, so a run of many minutes never blocks
the translation of the sentence being typed.

Cancel is cooperative: the GUI thread sets ``cancel_event`` (a ``threading.Event``, safe to set from any
thread); the analysis checks it after every small batch of sentences and stops with ``cancelled``.
Every job ends in exactly one of ``importance_ready`` / ``stats_ready``, ``cancelled`` or ``failed``.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path

from PySide6.QtCore import QObject, Signal, Slot

from model.errors import UserError
from model.records.research import ProgressClock

log = logging.getLogger(__name__)

IMPORTANCE = "importance"
STATS = "stats"
LOOKUP = "lookup"


def _message(exc: BaseException) -> str:
    if isinstance(exc, UserError):
        return str(exc)
    log.error("unexpected error in the analysis worker", exc_info=exc)
    return f"Unexpected error: {type(exc).__name__}: {exc}"


class AnalysisWorker(QObject):
    """Runs one whole-test-set analysis at a time; lives on a QThread."""

    progress = Signal(object)  # AnalysisProgress
    importance_ready = Signal(int, object)  # request_id, Importance (cached=True when read from the cache)
    estimate_ready = Signal(int, object)  # request_id, GradientImportance: the first look, before the exact run
    stats_ready = Signal(int, object)  # request_id, HeadTable
    cancelled = Signal(str, int)  # job, request_id
    failed = Signal(str, str, int)  # job, message, request_id

    def __init__(self, cache_dir: str | None = None) -> None:
        super().__init__()
        self.cancel_event = threading.Event()
        self.cache_dir = cache_dir  # None: model.analysis.importance.model_cache's default folder
        self._loaded = None

    def _model(self, path: str):
        """The model at ``path``, loaded once and kept while the window shows the same folder."""
        if self._loaded is None or str(self._loaded.path) != str(Path(path)):
            from model.checkpoint import load_model
            self._loaded = None  # free the old one before loading the next
            self._loaded = load_model(path, device="cpu")
        return self._loaded

    def _cache(self, model_path: str) -> Path:
        from model.analysis.importance import model_cache
        cache = model_cache(model_path)
        return cache if self.cache_dir is None else Path(self.cache_dir) / cache.name

    def _reporter(self, job: str, request_id: int):
        clock = ProgressClock(job, request_id)

        def report(done: int, total: int) -> None:
            self.progress.emit(clock(done, total))
        return report

    @Slot(int, str, str, str, int)
    def lookup_importance(self, request_id: int, model_path: str, src: str, ref: str, limit: int) -> None:
        """Emit the cached result for this model and test set, if there is one; say nothing otherwise."""
        try:
            from model.analysis.held_out import load_pairs
            sources, refs = load_pairs(model_path, src or None, ref or None, limit)  # no test set: no torch
            from model.analysis.importance import cached_importance
            hit = cached_importance(model_path, sources, refs, self._cache(model_path))
        except Exception as exc:  # noqa: BLE001 - a missing test set just means nothing to show yet
            log.info("no cached importance for %s: %s", model_path, exc)
            return
        if hit is not None:
            self.importance_ready.emit(request_id, hit)

    @Slot(int, str, str, str, int)
    def run_importance(self, request_id: int, model_path: str, src: str, ref: str, limit: int) -> None:
        """Head importance of the model at ``model_path`` on src/ref ('' = its held-out set)."""
        self.cancel_event.clear()
        try:
            from model.analysis.held_out import Cancelled, load_pairs
            from model.analysis.importance import cached_importance, head_importance
            sources, refs = load_pairs(model_path, src or None, ref or None, limit)
            try:
                if cached_importance(model_path, sources, refs, self._cache(model_path)) is None:
                    # Seconds, where the exact run takes minutes: shown while the exact run goes on.
                    from model.analysis.gradient_importance import gradient_importance
                    estimate = gradient_importance(self._model(model_path), sources, refs,
                                                   should_stop=self.cancel_event.is_set)
                    self.estimate_ready.emit(request_id, estimate)
                result = head_importance(self._model(model_path), sources, refs,
                                         progress=self._reporter(IMPORTANCE, request_id),
                                         cache=self._cache(model_path), should_stop=self.cancel_event.is_set)
            except Cancelled:
                self.cancelled.emit(IMPORTANCE, request_id)
                return
        except Exception as exc:  # noqa: BLE001 - any failure must reach the window as a message
            self.failed.emit(IMPORTANCE, _message(exc), request_id)
            return
        self.importance_ready.emit(request_id, result)

    @Slot(int, str, str, int)
    def run_stats(self, request_id: int, model_path: str, src: str, limit: int) -> None:
        """Mean per-head statistics of the model's greedy translations of src ('' = its held-out set)."""
        self.cancel_event.clear()
        try:
            from model.analysis.held_out import Cancelled, load_pairs, statistics
            texts, _ = load_pairs(model_path, src or None, None, limit, need_ref=False)
            try:
                table = statistics(self._model(model_path), texts, progress=self._reporter(STATS, request_id),
                                   should_stop=self.cancel_event.is_set)
            except Cancelled:
                self.cancelled.emit(STATS, request_id)
                return
        except Exception as exc:  # noqa: BLE001
            self.failed.emit(STATS, _message(exc), request_id)
            return
        self.stats_ready.emit(request_id, table)
