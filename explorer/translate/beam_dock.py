"""The beam explorer: every hypothesis of the final beam, with its score and length penalty; select one
to see its own attention maps in the views.

While the dock is open every translation brings its beam (``Controller.set_capture_beam``), each
hypothesis force-decoded for its maps (model/decoding/workbench.py). Score = log P / lp with GNMT's
lp = ((5 + |Y|) / 6)^α, the ranking beam search itself uses (model/decoding/beam.py).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDockWidget,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from explorer.attention.panel import AttentionPanel
from explorer.translate.controller import Controller
from explorer.translate.panel import TranslatePanel
from explorer.ui.i18n import N_, tr
from explorer.ui.style import make_muted

COLUMNS = ("#", "Hypothesis", "log P", "|Y|", "lp", "score")
NO_BEAM = N_("Beam size 1 is greedy decoding: one hypothesis, no beam to list. Choose a beam size of 2 or more.")
WAITING = N_("Translate a sentence to list its beam.")


class BeamTable(QWidget):
    """The final beam as a table, best first; ``hypothesis_selected(index)`` when a row is chosen."""

    hypothesis_selected = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._beam = None
        self.note = make_muted(QLabel(WAITING))
        self.note.setWordWrap(True)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.verticalHeader().hide()
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        header = self.table.horizontalHeader()
        for col in range(len(COLUMNS)):
            mode = QHeaderView.ResizeMode.Stretch if col == 1 else QHeaderView.ResizeMode.ResizeToContents
            header.setSectionResizeMode(col, mode)
        self.table.itemSelectionChanged.connect(self._on_selection)
        # Room for the paper's beam of 4 and a little more; the table scrolls for a beam of 8.
        rows = self.table.verticalHeader().defaultSectionSize()
        # A fixed height: the dock must not take the maps' room (at 1024 × 768 they have little to spare).
        self.table.setFixedHeight(int(rows * 4.6) + self.table.horizontalHeader().sizeHint().height())
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.note)
        layout.addWidget(self.table, 1)
        # The note wraps to at most three lines on a narrow window; the dock never grows past that.
        self.setMaximumHeight(self.table.height() + 3 * self.note.fontMetrics().lineSpacing() + 16)

    def set_translation(self, translation) -> None:
        """List the beam a Translation carries (or say why there is none)."""
        beam = getattr(translation, "beam", None)
        self._beam = beam
        self.table.blockSignals(True)
        self.table.setRowCount(0)
        if beam is None:
            self.note.setText(tr(WAITING if translation is None else NO_BEAM))
            self.table.blockSignals(False)
            return
        n = len(beam.hypotheses)
        self.note.setText(tr("Final beam of size {size}: {n} hypotheses, best first. score = log P / lp, "
                             "lp = ((5 + |Y|) / 6)^{alpha:g} (GNMT). Select one to see its maps.",
                             size=beam.beam_size, n=n, alpha=beam.alpha))
        self.table.setRowCount(n)
        for row, h in enumerate(beam.hypotheses):
            text = h.text if h.finished else f"{h.text} … (unfinished)"
            cells = (str(row + 1), text, f"{h.log_prob:.3f}", str(h.length), f"{h.penalty:.3f}", f"{h.score:.3f}")
            for col, value in enumerate(cells):
                item = QTableWidgetItem(value)
                if col != 1:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(row, col, item)
        self.table.selectRow(0)
        self.table.blockSignals(False)

    def beam(self):
        return self._beam

    def select(self, index: int) -> None:
        self.table.selectRow(index)

    def selected(self) -> int | None:
        rows = self.table.selectionModel().selectedRows()
        return rows[0].row() if rows else None

    def cell_text(self, row: int, col: int) -> str:
        return self.table.item(row, col).text()

    def _on_selection(self) -> None:
        index = self.selected()
        if index is not None and self._beam is not None:
            self.hypothesis_selected.emit(index)


class BeamDock(QDockWidget):
    """The beam table in a dock of the main window; it shows the chosen hypothesis' maps in the panel."""

    def __init__(self, controller: Controller, sentence: TranslatePanel, attention: AttentionPanel,
                 show_status: Callable[[str], None], parent: QWidget) -> None:
        super().__init__("Beam hypotheses", parent)
        self.setObjectName("beam-dock")
        self._controller, self._sentence, self._attention, self._show_status = (controller, sentence, attention,
                                                                                show_status)
        self.table = BeamTable()
        self.setWidget(self.table)
        self.table.hypothesis_selected.connect(self.show_hypothesis)
        controller.translation_ready.connect(self.table.set_translation)
        self.visibilityChanged.connect(self._on_visible)

    def show_hypothesis(self, index: int) -> None:
        """Draw hypothesis ``index``'s own maps in the attention views (0 is the translation shown)."""
        beam = self.table.beam()
        if beam is None or not 0 <= index < len(beam.hypotheses):
            return
        h = beam.hypotheses[index]
        self._attention.set_maps(h.attention)
        which = "the best (the translation shown)" if index == 0 else f"hypothesis {index + 1}: {h.text}"
        self._show_status(f"Maps of {which}")

    def _on_visible(self, visible: bool) -> None:
        controller = self._controller
        wanted = bool(visible)
        if wanted == controller.capture_beam:
            return
        controller.set_capture_beam(wanted)
        translation = controller.translation
        if wanted and translation is not None and getattr(translation, "beam", None) is None:
            panel = self._sentence
            if panel.text() and panel.beam_size() > 1:
                panel.request_translation()  # the sentence shown, now with its beam
