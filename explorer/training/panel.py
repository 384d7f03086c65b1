"""The Train tab: set up a run, start / pause / stop it, and watch it learn.

Top left: the settings form and a log of events (tabs), and the run buttons. Top right: the numbers
and curves of the run. Below, full width: the probe sentence's attention in the same panel the
explorer uses, with a slider that scrubs back through every probe snapshot so a class can replay
how a head formed (``explorer.training.probe_replay``; the log is ``explorer.training.log``).

The panel is a binder: the form builds the request, :class:`TrainRunner` runs it on its own thread,
and every record that comes back is handed to the views (explorer/training/panel_responses.py).
Nothing here blocks: pause and stop only set flags that the training loop reads between steps, and the
buttons change at once.
"""

from __future__ import annotations

from pathlib import Path

from PySide6 import QtCore, QtWidgets
from PySide6.QtCore import Signal

from explorer.training.curves import StatsStrip, TrainingCurves
from explorer.training.form import TrainForm
from explorer.training.log import TrainLog
from explorer.training.panel_responses import TrainResponses
from explorer.training.probe_replay import ProbeReplay
from explorer.training.worker import TrainRunner
from explorer.ui import style
from explorer.ui.i18n import N_, again, tr
from explorer.ui.scroll import ColumnScrollArea
from model.choices import UserError, corpus_options
from model.records import TrainProgress, Translation

STATE_TEXT = {"idle": N_("Ready"), "preparing": N_("Preparing the data…"), "training": N_("Training"),
              "paused": N_("Paused"), "stopping": N_("Stopping — saving a checkpoint…")}


class TrainPanel(TrainResponses, QtWidgets.QWidget):
    """The whole Train tab. ``open_requested(checkpoint, probe sentence)`` asks the window to load."""

    open_requested = Signal(str, str)
    state_changed = Signal(str)
    record_received = Signal(object)  # every TrainProgress, after the panel has shown it

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._state = "idle"
        self._out_dir = ""
        self._checkpoint = ""
        self._probe_sentence = ""
        self._outcome = ""
        self._pending: tuple[str, str] | None = None  # (out dir, probe sentence) of a run not heard from yet
        self._devices_asked = False
        self.last_record: TrainProgress | None = None

        tasks, ding = corpus_options()
        self.form = TrainForm(tasks, ding)
        self.runner = TrainRunner(self)
        self.stats = StatsStrip()
        self.curves = TrainingCurves()
        self.replay = ProbeReplay()
        # The replay's parts under the names the window and the tests have always used (``attention``,
        # built on first use, is a property).
        self.snapshot_slider, self.snapshot_label = self.replay.slider, self.replay.label
        self._build()

        self.runner.progress.connect(self._on_record)
        self.runner.note.connect(self._on_note)
        self.runner.devices_found.connect(self.form.set_devices)
        self.runner.finished.connect(self._on_finished)
        self.form.validity_changed.connect(self._on_validity)
        self._set_state("idle")

    def _build(self) -> None:
        # Top: settings and log (tabs) beside the numbers and curves; bottom, full width: the probe's
        # attention. The attention panel is the widest thing in the app, so it gets a row of its own
        # and the tab still fits a 1280-px projector next to the window's sentence column.
        # The settings column is as wide as the form needs at the current font (a minimum taken
        # once, at the default font, left combo boxes and Browse buttons clipped after a zoom).
        scroll = ColumnScrollArea(self.form)
        self.log_list = TrainLog()
        self.side_tabs = QtWidgets.QTabWidget()
        self.side_tabs.addTab(scroll, "Settings")
        self.side_tabs.addTab(self.log_list, "Log")
        self.side_tabs.currentChanged.connect(self._on_side_tab)
        self.start_button = style.make_primary(QtWidgets.QPushButton("Start"))
        self.pause_button = QtWidgets.QPushButton("Pause")
        self.stop_button = QtWidgets.QPushButton("Stop")
        self.open_button = QtWidgets.QPushButton("Open in explorer")
        self.open_button.setToolTip("Load the newest checkpoint of this run into the Attention tab")
        self.start_button.clicked.connect(self.start)
        self.pause_button.clicked.connect(self.toggle_pause)
        self.stop_button.clicked.connect(self.stop)
        self.open_button.clicked.connect(self.open_in_explorer)
        buttons = QtWidgets.QHBoxLayout()
        for button in (self.start_button, self.pause_button, self.stop_button, self.open_button):
            buttons.addWidget(button)
        left = QtWidgets.QWidget()
        left_layout = QtWidgets.QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.addWidget(self.side_tabs, 1)
        left_layout.addLayout(buttons)

        self.state_label = QtWidgets.QLabel()
        self.state_label.setFont(style.bold_font())
        self.error_label = style.make_error(QtWidgets.QLabel(""))
        self.error_label.setWordWrap(True)
        self.error_label.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        self.error_label.hide()
        right = QtWidgets.QWidget()
        right_layout = QtWidgets.QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.addWidget(self.state_label)
        right_layout.addWidget(self.error_label)
        right_layout.addWidget(self.stats)
        right_layout.addWidget(self.curves, 1)
        # The numbers and curves scroll rather than shrink: the curves keep a readable minimum height
        # (curves.MIN_PLOT_PX) when a started run hands most of the tab's height to the probe's maps.
        self.curves_scroll = ColumnScrollArea(right)
        top = QtWidgets.QSplitter(QtCore.Qt.Orientation.Horizontal)
        top.addWidget(left)
        top.addWidget(self.curves_scroll)
        top.setStretchFactor(0, 0)
        top.setStretchFactor(1, 1)

        # Before the first probe the form needs the room; _add_snapshot hands it to the maps.
        self.split = QtWidgets.QSplitter(QtCore.Qt.Orientation.Vertical)
        self.split.addWidget(top)
        self.split.addWidget(self.replay)
        self.split.setSizes([10_000, 1])  # the bottom holds only the replay row until a probe
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.split)
        self._scroll = scroll

    # ----------------------------------------------------------------------------------- public API
    def state(self) -> str:
        """'idle', 'preparing', 'training', 'paused' or 'stopping'."""
        return self._state

    def is_idle(self) -> bool:
        return self._state == "idle"

    def is_training(self) -> bool:
        return not self.is_idle()

    def start(self) -> bool:
        """Start the run the form describes; False (with the reason shown) if it cannot start."""
        if not self.is_idle():
            return False
        if not self.form.validate_model():
            if not self.form.corpus_error.isHidden():  # the form may be scrolled: show why
                self.side_tabs.setCurrentWidget(self._scroll)
                self._scroll.ensureWidgetVisible(self.form.corpus_error)
            return False
        try:
            request = self.form.request()
        except UserError as exc:
            self.show_error(str(exc))
            return False
        self.show_error("")
        # The previous run's curves, replay and checkpoint stay until this run reports: a start the
        # worker refuses (the folder holds a run, a corpus is missing) must not wipe them.
        self._pending = (request.config.out_dir, request.config.probe_sentence)
        out = request.config.out_dir  # not self._out_dir: that is still the previous run's until this one reports
        self.log(tr("Starting a run in {out}, resuming {run}", out=str(out), run=str(request.resume))
                 if request.resume else tr("Starting a run in {out}", out=str(out)))
        self.runner.start(request)
        self._set_state("preparing")
        self.side_tabs.setCurrentWidget(self.log_list)  # the form is locked while it runs; show events
        return True

    def toggle_pause(self) -> None:
        if self._state == "paused":
            self.resume()
        else:
            self.pause()

    def pause(self) -> None:
        if self._state in ("preparing", "training"):
            self.runner.pause()
            self._set_state("paused")
            self.log(tr("Paused"))

    def resume(self) -> None:
        if self._state == "paused":
            self.runner.resume()
            self._set_state("training")
            self.log(tr("Resumed"))

    def stop(self) -> None:
        if self._state in ("preparing", "training", "paused"):
            self.runner.stop()
            self._set_state("stopping")

    def shutdown(self) -> None:
        """Stop any run, wait for its final checkpoint and join the worker thread."""
        self.runner.shutdown()
        if not self.is_idle():
            self._set_state("idle")

    def latest_checkpoint(self) -> str:
        """The newest checkpoint folder of the current (or last) run, or '' if there is none yet."""
        if self._checkpoint and Path(self._checkpoint).is_dir():
            return self._checkpoint
        latest = Path(self._out_dir) / "LATEST" if self._out_dir else None
        if latest is not None and latest.is_file():
            folder = Path(self._out_dir) / latest.read_text(encoding="utf-8").strip()
            if folder.is_dir():
                return str(folder)
        return ""

    def open_in_explorer(self) -> None:
        path = self.latest_checkpoint()
        if not path:
            self.show_error(tr("No checkpoint has been written yet; wait for one or stop the run."))
            return
        self.log(tr("Opening {path} in the explorer", path=str(path)))
        self.open_requested.emit(path, self._probe_sentence)

    def snapshots(self) -> list[tuple[int, Translation]]:
        """(step, probe Translation) of every kept snapshot, oldest first."""
        return self.replay.snapshots()

    def show_snapshot(self, index: int) -> None:
        """Show probe snapshot ``index``; the attention panel keeps its kind, layer and head."""
        self.replay.show_snapshot(index)

    def show_error(self, message: str) -> None:
        self.error_label.setText(message)
        self.error_label.setVisible(bool(message))

    def error_text(self) -> str:
        return self.error_label.text()

    def log(self, text: str, error: bool = False) -> None:
        self.log_list.add(text, error)

    def log_lines(self) -> list[str]:
        return self.log_list.lines()

    @property
    def attention(self):
        """The probe's attention panel (explorer/training/probe_replay.py builds it on first use)."""
        return self.replay.attention

    def set_font_scale(self, f: float) -> None:
        self.replay.set_font_scale(f)
        self.curves.set_font_scale(f)

    # ------------------------------------------------------------------------------------ internals
    def showEvent(self, event) -> None:  # Qt override
        super().showEvent(event)
        if not self._devices_asked:
            # Listing GPUs imports torch; ask only once the tab is actually looked at, on the worker.
            self._devices_asked = True
            self.runner.find_devices()

    def closeEvent(self, event) -> None:  # Qt override; only reached when the panel is a window
        self.shutdown()
        super().closeEvent(event)

    def _set_state(self, state: str) -> None:
        self._state = state
        idle, step = state == "idle", self.last_record.step if self.last_record else 0
        text = tr(STATE_TEXT[state])
        if state == "paused":
            text = tr("Paused at step {step}", step=step)
        elif idle and self._outcome:
            text = again(self._outcome)
        self.state_label.setText(text)
        self.start_button.setEnabled(idle and not self.form.model_error.text())
        self.pause_button.setEnabled(state in ("preparing", "training", "paused"))
        self.pause_button.setText(tr("Resume") if state == "paused" else tr("Pause"))
        self.stop_button.setEnabled(state in ("preparing", "training", "paused"))
        self.form.setEnabled(idle)
        self.open_button.setEnabled(bool(self.latest_checkpoint()))
        self.state_changed.emit(state)

    def _on_side_tab(self, index: int) -> None:
        # Back on the settings after a run: give the form its room again (the probe's maps took
        # it), so it shows its rows rather than four of them behind a scroll bar.
        if self.side_tabs.widget(index) is self._scroll and self.replay.maps_shown():
            top, bottom = self.split.sizes()
            if top < bottom:
                self.split.setSizes([10_000, 1])  # the maps keep their minimum height

    def _on_validity(self, ok: bool) -> None:
        self.start_button.setEnabled(ok and self.is_idle())
        if not ok:  # the form may be scrolled: bring the reason Start is disabled into view
            corpus = not self.form.corpus_error.isHidden()
            self._scroll.ensureWidgetVisible(self.form.corpus_error if corpus else self.form.model_error)

