"""The workbench's ETA changes with every progress report without re-laying out the workbench
(explorer/ui/steady_label.py): each change had repainted the three importance grids, 35–80 ms stalls of
the GUI thread during a run (benchmarks.workbench_stall). A longer text still gets its room, and the
label fits its text again when the run ends."""

from __future__ import annotations

import numpy as np
from PySide6 import QtCore, QtWidgets

from explorer.ui.steady_label import SteadyLabel
from explorer.workbench.panel import Workbench
from model.records.research import AnalysisProgress
from tests.explorer.conftest import EventCounter


def _settle(qtbot) -> None:
    for _ in range(4):
        QtWidgets.QApplication.processEvents()
        qtbot.wait(5)


def _progress(done: int, total: int, elapsed: float) -> AnalysisProgress:
    return AnalysisProgress("importance", done, total, elapsed)


def test_a_new_eta_repaints_no_grid_and_lays_out_nothing(qtbot, tmp_path):
    wb = Workbench(cache_dir=str(tmp_path))
    qtbot.addWidget(wb)
    wb.resize(1024, 700)
    wb.show()
    qtbot.waitExposed(wb)
    view = wb.importance_view
    for i, grid in enumerate(view.grids.values()):
        grid.set_values(np.arange(48, dtype=float).reshape(6, 8) * (i + 1), fmt="{:.1f}")
    bar = view.run_bar
    bar.set_running(True)
    # 193 passes: the first reports' ETAs are the longest ("ETA 11 min 40 s"); later ones only get shorter.
    bar.set_progress(_progress(1, 193, 3.5))
    _settle(qtbot)
    paints = EventCounter(list(view.grids.values()), QtCore.QEvent.Type.Paint)
    requests = EventCounter([wb, view, bar], QtCore.QEvent.Type.LayoutRequest)
    etas = []
    for done in range(2, 60, 3):
        bar.set_progress(_progress(done, 193, 3.5 * done * (1 + (done % 7) / 50)))
        etas.append(bar.eta_label.text())
        _settle(qtbot)
    assert len(set(etas)) > 10 and len({len(t) for t in etas}) > 1  # the texts did change, and their widths
    assert paints.total() == 0, paints.counts
    assert requests.total() == 0, requests.counts
    # The shown text is whole: the held width is at least what the text needs.
    label = bar.eta_label
    assert label.width() >= label.fontMetrics().horizontalAdvance(label.text())
    bar.set_running(False)
    _settle(qtbot)
    assert label.text() == "" and label.width() < label.fontMetrics().horizontalAdvance("ETA 1 min")
    wb.shutdown()


def test_the_label_grows_for_a_longer_text_and_follows_its_font(qtbot):
    label = SteadyLabel("ETA 9 s")
    qtbot.addWidget(label)
    label.hold(True)
    short = label.width()
    label.setText("ETA 12 min 40 s")
    grown = label.width()
    assert grown > short and grown >= label.fontMetrics().horizontalAdvance("ETA 12 min 40 s")
    label.setText("ETA 5 s")
    assert label.width() == grown  # held: no shrinking mid-run
    font = label.font()
    font.setPointSizeF(font.pointSizeF() * 2)
    label.setFont(font)  # zoom: the width follows the new font's text
    assert label.width() >= label.fontMetrics().horizontalAdvance("ETA 5 s") and label.width() < 2 * grown
    label.setText("ETA 12 min 40 s")
    label.setText("ETA 5 s")
    assert label.width() >= label.fontMetrics().horizontalAdvance("ETA 12 min 40 s")
    label.hold(False)  # the run ended: the label fits its text again
    assert label.fontMetrics().horizontalAdvance("ETA 5 s") <= label.width() < label.fontMetrics().horizontalAdvance(
        "ETA 12 min")


def test_the_eta_and_the_gradient_scale_speak_the_windows_language(qapp):
    """The Chinese workbench said "ETA 23 s" and "|∂loss/∂gate|" in English (walk-through, 2026-12-05)."""
    from explorer.ui.i18n import install_language, tr  # noqa: PLC0415
    from explorer.workbench.run_bar import eta_text  # noqa: PLC0415
    from model.records.research import format_eta  # noqa: PLC0415

    assert [eta_text(s) for s in (None, 45, 125)] == [format_eta(s) for s in (None, 45, 125)]  # English as before
    try:
        assert install_language("zh_CN", qapp) == ""
        texts = [eta_text(s) for s in (None, 45, 125)] + [tr("|∂loss/∂gate|")]
        assert texts == ["预计剩余 …", "预计剩余 45 秒", "预计剩余 2 分 05 秒", "|∂损失/∂门控|"]
    finally:
        install_language("en", qapp)


def test_the_grids_stay_put_through_a_runs_notes(qtbot, tmp_path):
    """Estimate note (two lines at 1024 px), exact note (one), "Cancelled; …" under the bar and the next
    Run's empty message: the grids moved ~19 px with each (walk-through, 2026-12-05). After the first
    time a line is needed, nothing under the bar moves."""
    from explorer.ui.i18n import translate  # noqa: PLC0415
    from explorer.workbench.importance_view import SHOWN_ESTIMATE, SHOWN_EXACT  # noqa: PLC0415

    wb = Workbench(cache_dir=str(tmp_path))
    qtbot.addWidget(wb)
    wb.resize(520, 700)  # narrow enough for the estimate note to wrap (it did at the helper's 1008 px, in its font)
    wb.show()
    qtbot.waitExposed(wb)
    try:
        _grids_stay_put(qtbot, wb, translate, SHOWN_ESTIMATE, SHOWN_EXACT)
    finally:
        wb.shutdown()


def _grids_stay_put(qtbot, wb, translate, SHOWN_ESTIMATE, SHOWN_EXACT) -> None:  # noqa: N803
    view, bar = wb.importance_view, wb.importance_view.run_bar
    grid = next(iter(view.grids.values()))

    def top() -> int:
        _settle(qtbot)
        return grid.mapTo(wb, QtCore.QPoint(0, 0)).y()

    # Every note once, as the first run and its cancel show them.
    for text in (SHOWN_ESTIMATE, SHOWN_EXACT):
        view.shown.setText(translate(text))
        top()  # seconds apart in a run: each is laid out
    bar.show_message("Cancelled; the previous result is shown again.")
    first = top()
    tops = []
    for text in (SHOWN_ESTIMATE, SHOWN_EXACT, SHOWN_ESTIMATE):
        view.shown.setText(translate(text))
        tops.append(top())
    bar.set_running(True)  # clears the message
    tops.append(top())
    bar.cancelled()
    bar.show_message("Cancelled.")
    tops.append(top())
    assert assert_two_lines(view.shown, SHOWN_ESTIMATE)
    assert tops == [first] * len(tops), (first, tops)


def assert_two_lines(label, text) -> bool:
    """The estimate note really wraps at this width (else the test would not test the hold)."""
    from explorer.ui.i18n import translate  # noqa: PLC0415
    one = label.fontMetrics().height()
    label.setText(translate(text))
    return label.heightForWidth(label.width()) > 1.5 * one
