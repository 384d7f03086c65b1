"""The strip above a whole-test-set analysis: which sentences, how many, Run, Cancel, progress and ETA.

The test set is the model's own held-out set unless the user picks files; the bar only says what was
chosen and asks for a run (``run_requested``), the workbench hands the request to the analysis worker.
"""

from __future__ import annotations

from pathlib import Path

from PySide6 import QtCore, QtWidgets

from explorer.ui.flow_layout import FlowLayout
from explorer.ui.i18n import tr
from explorer.ui.steady_label import SteadyLabel
from explorer.ui.steady_row import SteadyRow
from explorer.ui.wheel_guard import WheelGuard
from model.records.research import DEFAULT_SENTENCES, AnalysisProgress

HELDOUT_TEXT = "the model's held-out set"


def eta_text(seconds: float | None) -> str:
    """'ETA 3 min 20 s', 'ETA 45 s' or 'ETA …' in the window's language (model.records.research.format_eta
    is the command line's English form of the same)."""
    if seconds is None:
        return tr("ETA …")
    s = round(seconds)
    return tr("ETA {m} min {s:02d} s", m=s // 60, s=s % 60) if s >= 60 else tr("ETA {s} s", s=s)


class RunBar(QtWidgets.QWidget):
    """N sentences, the files (or the held-out set), Run / Cancel, a progress bar and the ETA."""

    run_requested = QtCore.Signal(str, str, int)  # source file ('' = held-out), reference file, N (0 = all)
    cancel_requested = QtCore.Signal()

    def __init__(self, needs_reference: bool, parent=None) -> None:
        super().__init__(parent)
        self.needs_reference = needs_reference
        self.src, self.ref = "", ""
        self.count = QtWidgets.QSpinBox()
        self.count.setRange(0, 100_000)
        self.count.setValue(DEFAULT_SENTENCES)
        self.count.setSpecialValueText("all")
        self.count.setToolTip("How many sentences of the test set to use (0: all)")
        self.files_label = QtWidgets.QLabel(HELDOUT_TEXT)
        self.choose_button = QtWidgets.QPushButton("Files…")
        self.choose_button.setToolTip("Pick a source file" + (" and its reference translations" if needs_reference
                                                               else "") + ", one sentence a line")
        self.heldout_button = QtWidgets.QPushButton("Held-out")
        self.heldout_button.setToolTip("Use the sentences the model folder ships in heldout/")
        self.run_button = QtWidgets.QPushButton("Run")
        self.cancel_button = QtWidgets.QPushButton("Cancel")
        self.cancel_button.setEnabled(False)
        self.progress = QtWidgets.QProgressBar()
        self.progress.setMinimumWidth(120)
        self.progress.setFormat("%v / %m")
        # Hidden until a first run: an empty bar on a row of its own read as a text box to type into.
        self.progress.hide()
        # Its text changes with every report: held at its widest, so the workbench is not re-laid out each time.
        self.eta_label = SteadyLabel("")
        self.message = QtWidgets.QLabel("")
        self.message.setWordWrap(True)
        # Held at its tallest, like the workbench's "Shown:" line: "Cancelled; …" and the next Run's empty
        # message moved everything under the bar by a line.
        self.message_row = SteadyRow(self.message)
        self.message_row.hold(True)

        flow = FlowLayout()
        for w in (QtWidgets.QLabel("Sentences:"), self.count, self.files_label, self.choose_button,
                  self.heldout_button, self.run_button, self.cancel_button, self.progress, self.eta_label):
            flow.addWidget(w)
        top = QtWidgets.QWidget()
        top.setLayout(flow)
        layout = QtWidgets.QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(top)
        layout.addWidget(self.message_row)
        # Scrolling the workbench past the bar must not change how many sentences it runs on.
        self._wheel_guard = WheelGuard(self)

        self.run_button.clicked.connect(self._run)
        self.cancel_button.clicked.connect(self.cancel_requested)
        self.choose_button.clicked.connect(self._choose)
        self.heldout_button.clicked.connect(lambda: self.set_files("", ""))

    def set_files(self, src: str, ref: str = "") -> None:
        """Use these files ('' = the model's held-out set)."""
        self.src, self.ref = src, ref
        self.files_label.setText(Path(src).name + (f" / {Path(ref).name}" if ref else "") if src else HELDOUT_TEXT)

    def _choose(self) -> None:
        src, _ = QtWidgets.QFileDialog.getOpenFileName(self, "Source sentences, one a line")
        if not src:
            return
        ref = ""
        if self.needs_reference:
            ref, _ = QtWidgets.QFileDialog.getOpenFileName(self, "Reference translations, one a line",
                                                           str(Path(src).parent))
            if not ref:
                return
        self.set_files(src, ref)

    def _run(self) -> None:
        self.run_requested.emit(self.src, self.ref, self.count.value())

    def set_running(self, running: bool) -> None:
        self.run_button.setEnabled(not running)
        self.cancel_button.setEnabled(running)
        for w in (self.count, self.choose_button, self.heldout_button):
            w.setEnabled(not running)
        if running:
            self.progress.show()  # and kept after the run, with how far it got
            self.progress.setRange(0, 0)  # busy until the first report says how many steps
            self.eta_label.hold(True)
            self.eta_label.setText(eta_text(None))
            self.message.setText("")
        else:
            self.eta_label.setText("")
            self.eta_label.hold(False)
            if self.progress.maximum() == 0:
                # Still "busy": no report came (a result from the cache, a run cancelled at once). A bar
                # left striped read as work still going on beside an enabled Run.
                self.progress.hide()

    def reset(self) -> None:
        """Another model: idle, no bar ("193 / 193" stood beside the new model's empty grids), no message."""
        self.set_running(False)
        self.progress.hide()
        self.progress.reset()
        self.message.setText("")

    def cancelled(self) -> None:
        """A run was cancelled: idle again, and no bar left saying "185 / 193" beside the previous result."""
        self.set_running(False)
        self.progress.hide()

    def set_progress(self, p: AnalysisProgress) -> None:
        self.progress.setRange(0, p.total)
        self.progress.setValue(p.done)
        self.eta_label.setText(eta_text(p.eta_s))

    def show_message(self, text: str) -> None:
        self.message.setText(text)
