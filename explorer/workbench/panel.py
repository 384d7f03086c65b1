"""The research workbench tab: head importance and per-head statistics over a test set, and the word
alignment of the current sentence.

It owns the analysis worker (``explorer.workbench.worker``) on its thread (``explorer.ui.worker_thread``,
as every worker of the app), the way the controller owns the translation worker: requests go out as
queued signals numbered by ``request_id``, and an answer to anything but the newest request (the model
changed, or the user ran again) is dropped. Cancel sets the worker's event directly, because the
worker's thread is busy and would read a queued signal only after the run. The thread is joined in
``shutdown`` (the window calls it on close).
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QTabWidget, QVBoxLayout, QWidget

from explorer.ui.i18n import tr
from explorer.ui.scroll import ColumnScrollArea
from explorer.ui.worker_thread import WorkerThread
from explorer.workbench.alignment_view import AlignmentView
from explorer.workbench.importance_view import ImportanceView
from explorer.workbench.stats_view import StatsView
from explorer.workbench.worker import IMPORTANCE, STATS, AnalysisWorker

SHUTDOWN_WAIT_MS = 600_000  # a run in flight ends at its next batch; the thread is never cut off


class Workbench(QWidget):
    """Three tabs: Head importance, Statistics, Alignment."""

    _request_importance = Signal(int, str, str, str, int)
    _request_lookup = Signal(int, str, str, str, int)
    _request_stats = Signal(int, str, str, int)

    def __init__(self, parent=None, cache_dir: str | None = None) -> None:
        super().__init__(parent)
        self.model_info = None  # ModelInfo of the window's model
        self._latest = {IMPORTANCE: 0, STATS: 0}
        self._next_id = 0
        self.importance_view = ImportanceView()
        self.stats_view = StatsView()
        self.alignment_view = AlignmentView()
        self.tabs = QTabWidget()
        self.tabs.addTab(self.importance_view, "Head importance")
        self.tabs.addTab(self.stats_view, "Statistics")
        self.tabs.addTab(self.alignment_view, "Alignment")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        # Scrolls when short rather than asking for its full height: the tab area's minimum is the tallest
        # tab's, and the workbench's grids would otherwise squeeze the formula dock under every tab.
        layout.addWidget(ColumnScrollArea(self.tabs))

        self.worker = AnalysisWorker(cache_dir)
        self._request_importance.connect(self.worker.run_importance)
        self._request_lookup.connect(self.worker.lookup_importance)
        self._request_stats.connect(self.worker.run_stats)
        self.worker.progress.connect(self._on_progress)
        self.worker.importance_ready.connect(self._on_importance)
        self.worker.estimate_ready.connect(self._on_estimate)
        self.worker.stats_ready.connect(self._on_stats)
        self.worker.cancelled.connect(self._on_cancelled)
        self.worker.failed.connect(self._on_failed)
        self._worker_thread = WorkerThread(self.worker, "analysis-worker", on_quit=self.shutdown)

        self.importance_view.run_bar.run_requested.connect(self.run_importance)
        self.importance_view.run_bar.cancel_requested.connect(self.cancel)
        self.stats_view.run_bar.run_requested.connect(lambda src, _ref, n: self.run_stats(src, n))
        self.stats_view.run_bar.cancel_requested.connect(self.cancel)
        self._set_enabled(False)

    def _bar(self, job: str):
        return (self.importance_view if job == IMPORTANCE else self.stats_view).run_bar

    def _set_enabled(self, ready: bool) -> None:
        for job in (IMPORTANCE, STATS):
            self._bar(job).run_button.setEnabled(ready)

    def _new_id(self, job: str) -> int:
        self._next_id += 1
        self._latest[job] = self._next_id
        return self._next_id

    # -- from the window --------------------------------------------------------------------------

    def set_model(self, info) -> None:
        """A new model: earlier results are stale; show its cached importance at once if there is one."""
        self.model_info = info
        for job in (IMPORTANCE, STATS):
            self._new_id(job)  # answers still on their way belong to the old model
            self._bar(job).reset()  # its bar and "Cancelled." belonged to the model before
        self.worker.cancel_event.set()
        self.importance_view.clear()
        self._set_enabled(True)
        bar = self.importance_view.run_bar
        self._request_lookup.emit(self._new_id(IMPORTANCE), info.path, bar.src, bar.ref, bar.count.value())

    def set_translation(self, translation) -> None:
        self.alignment_view.set_maps(translation.attention if translation is not None else None)

    # -- runs -------------------------------------------------------------------------------------

    def run_importance(self, src: str = "", ref: str = "", n: int | None = None) -> int:
        """Start head importance on src/ref ('' = the model's held-out set); returns the request id."""
        if self.model_info is None:
            return 0
        n = self.importance_view.run_bar.count.value() if n is None else n
        rid = self._new_id(IMPORTANCE)
        self.importance_view.run_bar.set_running(True)
        self._request_importance.emit(rid, self.model_info.path, src, ref, int(n))
        return rid

    def run_stats(self, src: str = "", n: int | None = None) -> int:
        if self.model_info is None:
            return 0
        n = self.stats_view.run_bar.count.value() if n is None else n
        rid = self._new_id(STATS)
        self.stats_view.run_bar.set_running(True)
        self._request_stats.emit(rid, self.model_info.path, src, int(n))
        return rid

    def cancel(self) -> None:
        """Ask the running analysis to stop; it answers with ``cancelled`` within a batch of sentences."""
        self.worker.cancel_event.set()

    def shutdown(self) -> None:
        """Stop a run (it ends within a batch of sentences) and join the worker thread. Idempotent."""
        self._worker_thread.stop(wait_ms=SHUTDOWN_WAIT_MS)

    # -- answers (on the GUI thread) --------------------------------------------------------------

    def _on_progress(self, p) -> None:
        if p.request_id == self._latest.get(p.job):
            self._bar(p.job).set_progress(p)

    def _on_importance(self, request_id: int, result) -> None:
        if request_id != self._latest[IMPORTANCE] or self.model_info is None:
            return
        self.importance_view.run_bar.set_running(False)
        self.importance_view.set_result(result, self.model_info.n_layers, self.model_info.n_heads)

    def _on_estimate(self, request_id: int, estimate) -> None:
        """The gradient estimate: shown at once; the run bar stays busy until the exact result."""
        if request_id != self._latest[IMPORTANCE] or self.model_info is None:
            return
        self.importance_view.set_estimate(estimate, self.model_info.n_layers, self.model_info.n_heads)

    def _on_stats(self, request_id: int, table) -> None:
        if request_id != self._latest[STATS]:
            return
        self.stats_view.run_bar.set_running(False)
        self.stats_view.set_table(table)

    def _on_cancelled(self, job: str, request_id: int) -> None:
        if request_id == self._latest[job]:
            self._bar(job).cancelled()
            # A cancelled run's estimate goes; the complete result shown before it comes back (it was lost,
            # and Export with it).
            if job == IMPORTANCE and self.importance_view.restore():
                self._bar(job).show_message(tr("Cancelled; the previous result is shown again."))
            else:
                self._bar(job).show_message(tr("Cancelled."))

    def _on_failed(self, job: str, message: str, request_id: int) -> None:
        if request_id == self._latest[job]:
            self._bar(job).set_running(False)
            self._bar(job).show_message(message)
