"""Numbers inside heatmap cells only where they fit the cells as drawn: the narrow A and B maps of
Compare at 1600 × 1000 overprinted ("0.000.000.00", issue 31 item 16), and in presentation mode the
Step tab's cross-attention row lost its numbers though its cells had room (item 17)."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtGui import QFontMetricsF

from explorer.attention.compare_view import CompareView
from model.records.workbench import Comparison

from .conftest import WINDOW_TIMEOUT as TIMEOUT
from .conftest import make_synthetic_maps

TEN = tuple(f"▁w{i}" for i in range(9)) + ("</s>",)


def cell_width(view) -> float:
    (x0, x1), _ = view.plot.vb.viewRange()
    return view.plot.vb.width() / (x1 - x0)


def numbers_fit(view) -> bool:
    """Every number drawn is narrower than its cell, with a pixel to spare each side (the numbers ignore
    the view's scale: their glyphs are measured in pixels)."""
    metrics = QFontMetricsF(view.cell_numbers.font())
    return all(metrics.horizontalAdvance(text) + 2 <= cell_width(view) for text in view.cell_number_texts())


def test_compare_maps_at_1600_by_1000_never_overprint(qtbot):
    maps_a, maps_b = (make_synthetic_maps(source=TEN, target=("<s>",) + TEN[:9], seed=s) for s in (1, 2))
    view = CompareView()
    qtbot.addWidget(view)
    view.resize(1180, 700)  # the right side of a 1600 × 1000 window beside the sentence column
    view.show()
    qtbot.waitExposed(view)
    view.set_comparison(Comparison("run/step-1", "run/step-2", maps_a, maps_b, "Das Haus", "forced"))
    view.set_state("encoder", 0, 0)
    qtbot.wait(50)
    for heatmap in (view.map_a, view.map_b):
        assert numbers_fit(heatmap)
    view.resize(1800, 700)  # wider: the numbers come back at a size that fits
    qtbot.waitUntil(lambda: view.map_a.cell_number_texts() != [], timeout=2000)
    assert numbers_fit(view.map_a) and len(view.map_a.cell_number_texts()) == 100


def test_presentation_mode_keeps_the_step_tabs_cross_numbers(qtbot, loaded):
    win = loaded
    win.resize(QSize(1008, 728))  # a projector
    win.translate_panel.set_text("one two three four five six seven eight nine ten")  # 11 source pieces
    with qtbot.waitSignal(win.controller.translation_ready, timeout=TIMEOUT):
        win.tabs.setCurrentWidget(win.step_view)
    view = win.step_view
    view.set_step(3)
    win.presentation_action.trigger()  # F5: larger type, the sentence column and bars gone
    qtbot.wait(100)
    cross = view.maps.cross
    # The cells have room for ".43" if not for "0.43": the numbers stay, in the form and size that fit.
    assert len(cross.cell_number_texts()) == 3 * cross._values.shape[1] and numbers_fit(cross)
    assert all(text.startswith(".") or text in ("1.0",) or len(text) == 4 for text in cross.cell_number_texts())
    win.presentation_action.trigger()
