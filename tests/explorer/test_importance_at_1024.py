"""Head importance in a 1024-pixel window: the cells of the three grids are ~20 px wide, and showed
colours with neither numbers nor a scale to read them by (issue 31 item 15)."""

from __future__ import annotations

import numpy as np
from PySide6.QtGui import QColor, QFont, QFontMetricsF

from explorer.workbench.importance_view import ImportanceView
from explorer.workbench.value_grid import ValueGrid


def test_narrow_cells_still_carry_their_numbers(qtbot):
    grid = ValueGrid("Encoder self")
    qtbot.addWidget(grid)
    grid.resize(200, 170)  # a third of the Workbench's width at 1024 × 768: cells of 21 px for 8 heads
    values = np.linspace(0.0, 7.5, 48).reshape(6, 8)
    grid.set_values(values, levels=(0.0, 7.5), fmt="{:.1f}")
    grid.show()
    qtbot.waitExposed(grid)
    cell = grid.cell_rect(5, 7)
    # Pixels: the cell holds text in a colour other than its fill, not only the fill.
    image = grid.grab().toImage()
    fill = QColor(*map(int, grid.colors()[5, 7][:3]))
    inner = cell.adjusted(2, 2, -2, -2).toRect()
    others = sum(1 for x in range(inner.left(), inner.right()) for y in range(inner.top(), inner.bottom())
                 if abs(image.pixelColor(x, y).lightness() - fill.lightness()) > 60)
    assert others > 5
    font = grid.number_font()
    assert font is not None and QFontMetricsF(font).horizontalAdvance("7.5") + 2 <= cell.width()


def test_the_grids_share_a_named_colour_scale(qtbot):
    from model.records.research import HeadScore, Importance  # noqa: PLC0415

    view = ImportanceView()
    qtbot.addWidget(view)
    view.resize(1000, 600)
    view.show()
    assert view.scale_bar.end_labels() == ("", "")  # nothing to scale yet
    heads = tuple(HeadScore(f"{kind}:{layer + 1}.{head + 1}", bleu=30.0 - (layer + head) * 0.4, chrf=50.0)
                  for kind in ("encoder", "decoder", "cross") for layer in range(2) for head in range(4))
    result = Importance(bleu=30.0, chrf=50.0, sentences=10, heads=heads, curve=heads[:3], cached=False)
    view.set_result(result, 2, 4)
    low, high = view.scale_bar.end_labels()
    assert low == "0.0" and high == "1.6 BLEU lost"  # layer 2, head 4: 4 × 0.4
    assert view.scale_bar.isVisible() and view.scale_bar.height() > 10
    view.clear()
    assert view.scale_bar.end_labels() == ("", "")


def test_head_labels_drop_their_h_where_the_cells_are_narrow(qtbot, qapp, restore_app_look):
    from explorer.ui import style

    style.set_font_scale(qapp, 1.0)  # the window's base font, as at 1024 × 768 with fonts ×1
    grid = ValueGrid("Cross")
    qtbot.addWidget(grid)
    grid.set_values(np.zeros((4, 8)), levels=(0.0, 1.0))
    grid.resize(600, 170)
    assert grid.head_labels() == [f"H{h}" for h in range(1, 9)]
    grid.resize(190, 170)  # a third of the Workbench at 1024 × 768: 'H1H2H3…' ran together
    metrics = grid.fontMetrics()
    assert grid.head_labels() == [str(h) for h in range(1, 9)]
    assert all(metrics.horizontalAdvance(label) + 2 <= grid.cell_rect(0, 0).width() for label in grid.head_labels())


def test_a_drop_that_rounds_to_zero_is_written_without_a_sign(qtbot):
    grid = ValueGrid("Decoder self")
    qtbot.addWidget(grid)
    grid.set_values(np.array([[-0.04, 0.0, -1.5, -0.0]]), levels=(0.0, 1.0), fmt="{:.1f}")
    assert [grid.cell_text(0, h) for h in range(4)] == ["0.0", "0.0", "-1.5", "0.0"]


def test_numbers_too_wide_for_a_small_cell_are_rounded_not_dropped(qtbot):
    grid = ValueGrid("Cross")
    qtbot.addWidget(grid)
    font = QFont(grid.font())
    font.setPointSizeF(9.0)  # the window's font at zoom ×1, whatever an earlier test left the application's at
    grid.setFont(font)
    values = np.array([[-10.3, 11.7, 0.4, -2.26, 1.0, 2.0, 3.0, 4.0]] * 4)  # 8 heads, as the built-in model
    grid.set_values(values, fmt="{:.1f}")
    grid.resize(900, 300)
    grid.show()
    qtbot.waitExposed(grid)
    assert grid.cell_text(0, 0) == "-10.3"  # room: the asked precision
    grid.resize(140, 300)  # the smallest a grid gets (three side by side at 1024 px): ~14-px cells
    qtbot.wait(10)
    assert grid.number_font() is not None
    assert [grid.cell_text(0, h) for h in range(4)] == ["-10", "12", "0", "-2"]
    metrics = QFontMetricsF(grid.number_font())
    assert metrics.horizontalAdvance("-10") + 2 <= grid.cell_rect(0, 0).width()


def test_an_empty_grids_dash_stands_under_its_two_line_title(qapp):
    """Before a run, each grid shows "—": drawn at the grid's centre, it crossed the second line of a
    wrapped title ("Decoder self" / "(ma—sked)") in the zoomed window."""
    grid = ValueGrid("Decoder self (masked)")
    font = QFont(grid.font())
    font.setPixelSize(26)  # the type zoomed ×1.52: two title lines are most of the grid's least height
    grid.setFont(font)
    grid.resize(200, grid.minimumSizeHint().height())
    assert len(grid.title_lines()) == 2
    image = grid.grab().toImage()
    top = grid.title_height()
    dark_rows = {y for y in range(image.height()) for x in range(image.width())
                 if QColor(image.pixel(x, y)).lightness() < 100}
    dash = {y for y in dark_rows if y >= top}
    assert dash, (top, sorted(dark_rows))  # the dash is drawn, below the title
    assert max(dash) < grid.height()


def test_the_layer_labels_column_holds_its_labels_in_zoomed_type(qapp):
    """A fixed 28-px column crushed "L1" and "L2" into slivers at ×1.52."""
    grid = ValueGrid("Encoder self")
    font = QFont(grid.font())
    font.setPixelSize(26)
    grid.setFont(font)
    grid.resize(300, 200)
    grid.set_values(np.linspace(0.0, 1.0, 16).reshape(2, 8))
    assert grid.label_width() >= grid.fontMetrics().horizontalAdvance("L2") + 4
    assert grid.cell_rect(0, 0).left() >= grid.fontMetrics().horizontalAdvance("L2")  # the cells start after it
