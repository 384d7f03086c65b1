"""The formula walkthrough (explorer/lecture/formula_view.py): the numbers on screen are eq. (1)'s."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt

from explorer.attention.panel import AttentionPanel
from explorer.lecture.formula_view import HAND, SENTENCE, FormulaView, format_numbers
from explorer.ui import style
from explorer.window.main_window import MainWindow
from model.analysis.walkthrough import formula_row
from tests.explorer.conftest import make_synthetic_maps, make_synthetic_vectors

TIMEOUT = 10_000


def test_format_numbers():
    assert format_numbers(np.array([1.0, 2.0, 3.0]), 2) == "[1, 2, 3]"
    assert format_numbers(np.array([-0.5, -np.inf, -0.001]), 2) == "[−0.5, −∞, 0.0]"  # never "−0"
    # one count of decimals for the whole row: it read "[0.296, 0.17, −1.57]"
    assert format_numbers(np.array([0.296, 0.17, -1.57, 0.6641]), 3) == "[0.296, 0.170, −1.570, 0.664]"
    assert format_numbers(np.array([-0.0004, 0.25]), 3) == "[0.00, 0.25]"
    assert format_numbers(np.arange(10.0), 1, limit=3) == "[0, 1, 2, … (10 in all)]"


def test_first_page_works_the_hand_example(qtbot):
    view = FormulaView()
    qtbot.addWidget(view)
    assert view.page == HAND
    shown = {step: label.text() for step, label in view.numbers.items()}
    assert shown["q"] == "[1, 2]" and shown["k"] == "[1, 1]"
    assert shown["dots"].startswith("[1, 2, 3]")
    assert shown["scaled"] == "[0.71, 1.41, 2.12]"
    assert shown["softmax"] == "[0.14, 0.28, 0.58]"
    assert shown["output"] == "[7.2, 11.4]"
    view.unscaled_box.setChecked(True)  # without ÷√2 the row is sharper: the largest weight grows
    assert view.numbers["softmax"].text() == "[0.09, 0.24, 0.67]"
    assert "0.58 → 0.67" in view.numbers["sharpness"].text()
    # The skipped scaling step shows what softmax takes then: the dot products, not the scaled scores
    # beside weights made without them (a teacher's students followed the rows and found them disagree).
    assert view.numbers["scaled"].text() == "[1, 2, 3]" and "√d_k" in view.formulas["scaled"].text()
    assert "/ √d_k" not in view.formulas["scaled"].text()
    view.unscaled_box.setChecked(False)
    assert view.numbers["scaled"].text() == "[0.71, 1.41, 2.12]"
    assert view.formulas["scaled"].text() == "q · k_j / √d_k"


@pytest.fixture
def wired(qtbot):
    """An attention panel and a walkthrough wired as the dock wires them, on synthetic Q, K, V."""
    maps, vectors = make_synthetic_vectors(make_synthetic_maps(), d_k=12)
    panel, view = AttentionPanel(), FormulaView()
    for w in (panel, view):
        qtbot.addWidget(w)
    panel.set_maps(maps)
    panel.state_changed.connect(lambda: view.set_state(*panel.state()[:3]))
    panel.heatmap.cell_clicked.connect(view.select_cell)
    view.set_translation(maps, vectors)
    panel.resize(800, 600)
    panel.show()
    qtbot.waitExposed(panel)
    return panel, view, maps, vectors


def test_clicking_a_cell_fills_the_panel_with_the_modules_numbers(qtbot, wired):
    panel, view, maps, vectors = wired
    panel.set_state("decoder", 1, 2)
    heatmap = panel.heatmap
    pos = heatmap.canvas.mapFromScene(heatmap.scene_pos_of_cell(2, 1))
    with qtbot.waitSignal(heatmap.cell_clicked, timeout=TIMEOUT) as blocker:
        qtbot.mouseClick(heatmap.canvas.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    assert blocker.args == [2, 1] and view.page == SENTENCE
    hv = vectors.decoder_self
    expected = formula_row(hv.q[1, 2, 2], hv.k[1, 2], hv.v[1, 2], maps.masked("decoder")[2])
    row = view.row()
    np.testing.assert_array_equal(row.weights, expected.weights)
    np.testing.assert_allclose(row.weights, maps.decoder_self[1, 2, 2], atol=1e-6)  # what the heatmap shows
    assert view.numbers["softmax"].text() == format_numbers(expected.weights, 3)
    assert view.numbers["mask"].text().endswith("−∞]")  # query 2 may not see key 3
    assert view.numbers["k"].text() == format_numbers(hv.k[1, 2, 1], 3, 8)
    assert "(12 in all)" in view.numbers["q"].text()
    view.show_all_box.setChecked(True)
    assert view.numbers["q"].text() == format_numbers(hv.q[1, 2, 2], 3)
    assert view.numbers["output"].text() == format_numbers(hv.out[1, 2, 2], 3)
    assert "layer 2, head 3" in view.title.text() and "“Haus”" in view.title.text()
    panel.set_state("cross", 0, 0)  # following the panel: the same cell in another kind
    np.testing.assert_allclose(view.row().weights, maps.cross[0, 0, 2], atol=1e-6)


def test_the_numbers_take_the_app_fonts_line_height_whatever_fixed_width_face_draws_them(qtbot, monkeypatch):
    """On a machine whose "monospace" is Noto Sans Mono (17 % taller lines than DejaVu Sans Mono's at one
    size) the numbers' lines took 12 px from the head map under the dock at 1024 × 768."""
    from PySide6.QtGui import QFont, QFontMetricsF  # noqa: PLC0415

    from explorer.lecture import formula_view  # noqa: PLC0415

    view = FormulaView()
    qtbot.addWidget(view)
    plain = QFont(view.font())
    plain.setPointSizeF(view.font().pointSizeF() * formula_view.MONO_FACTOR)
    line = QFontMetricsF(plain).height()
    tall = QFont(plain)  # a fixed-width face with roomy lines: the app font itself at 1.4× stands in for it
    tall.setPointSizeF(plain.pointSizeF() * 1.4)
    monkeypatch.setattr(formula_view.QFontDatabase, "systemFont", lambda which: QFont(tall))
    view._apply_number_font()
    number_font = view.numbers["q"].font()
    assert QFontMetricsF(number_font).height() <= line + 1.0  # shrunk to the app font's lines
    assert number_font.pointSizeF() < tall.pointSizeF() * 0.8
    monkeypatch.undo()
    view._apply_number_font()  # the machine's own face: never larger than the app font's lines either
    assert QFontMetricsF(view.numbers["q"].font()).height() <= line + 1.0


def test_dock_asks_for_vectors_only_while_open(qtbot, fake_model, restore_app_look, qapp):
    style.apply_theme(qapp)
    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(1024, 768)
    win.show()
    qtbot.waitExposed(win)
    with qtbot.waitSignal(win.controller.translation_ready, timeout=TIMEOUT):
        win.open_model(fake_model.make_model_dir())
    assert fake_model.vector_requests == [False] and win.formula_dock.isHidden()
    action = win.formula_dock.toggleViewAction()
    assert action in win.menuBar().actions()[1].menu().actions()
    with qtbot.waitSignal(win.controller.translation_ready, timeout=TIMEOUT) as blocker:
        action.trigger()  # opening it over a sentence without Q, K, V translates that sentence again
    assert fake_model.vector_requests == [False, True] and blocker.args[0].vectors is not None
    view = win.formula_dock.widget()
    view.select_cell(1, 0)
    assert view.row() is not None and view.numbers["softmax"].text().startswith("[")
    # At 1024 px the maps and the sentence column need the width: the dock goes under them, in two
    # columns, and nothing is squeezed below its minimum width.
    assert win.dockWidgetArea(win.formula_dock) == Qt.DockWidgetArea.BottomDockWidgetArea
    assert view.columns == 2 and win.formula_dock.width() >= 1000
    assert win.centralWidget().width() >= win.centralWidget().minimumSizeHint().width()
    action.trigger()
    win.resize(1600, 1000)
    qtbot.waitUntil(lambda: win.width() == 1600)
    action.trigger()  # reopened on a wide screen: beside the maps, one column
    assert win.dockWidgetArea(win.formula_dock) == Qt.DockWidgetArea.RightDockWidgetArea and view.columns == 1


def test_a_row_of_the_start_piece_reads_as_written_and_unscaled_masks_the_dot_products(qtbot, wired):
    """'<s>' in the title was taken for rich text's strike-through: "query 1 “”" and the rest struck out."""
    panel, view, maps, vectors = wired
    assert maps.labels("decoder")[0][0] == "<s>"
    panel.set_state("decoder", 0, 1)
    view.select_cell(0, 0)
    assert "“<s>”" in view.title.text() and "query 1" in view.title.text()
    assert view.title.textFormat() == Qt.TextFormat.PlainText
    view.select_cell(1, 0)
    view.unscaled_box.setChecked(True)
    row = view.row()
    assert view.numbers["mask"].text() == format_numbers(np.where(row.masked, -np.inf, row.dots), 3)
    assert view.numbers["mask"].text().endswith("−∞]") and view.numbers["scaled"].text() == format_numbers(row.dots, 3)
    assert "−0.00" not in view.numbers["sharpness"].text()


def test_a_row_all_on_one_key_has_no_negative_entropy():
    from model.analysis.walkthrough import entropy_bits

    assert str(entropy_bits(np.array([1.0, 0.0, 0.0]))) == "0.0"  # −0.0 printed "−0.00 bits"
    assert entropy_bits(np.array([0.5, 0.5])) == 1.0


def test_the_map_and_the_formula_panel_count_a_cell_alike(qtbot, wired):
    """The map's read-out said "row 3" of the cell the panel called "query 4": both count from 1 now."""
    panel, view, maps, vectors = wired
    panel.set_state("cross", 1, 0)
    view.select_cell(3, 2)
    readout = panel.heatmap.hover_text_at(3, 2)
    assert "(row 4)" in readout and "(col 3)" in readout, readout
    assert "query 4" in view.title.text() and "key 3" in view.title.text(), view.title.text()
