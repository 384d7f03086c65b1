"""The formula dock on a 1024 × 768 projector (#31 items 2 and 9): the worked cell is marked on the map,
the caption counts and writes pieces as the map does, no mask step where there is no mask, all the
steps visible without scrolling, numbers that grow with zoom (fake model, no torch)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF
from PySide6.QtWidgets import QScrollArea

from explorer.lecture.formula_view import FormulaView, format_numbers
from explorer.ui import style
from tests.explorer.conftest import make_synthetic_maps, make_synthetic_vectors

TIMEOUT = 10_000
CLIENT = (1008, 728)  # what a 1024 × 768 screen leaves the window inside its frame
SENTENCE = "The weather is nice today and I like apples ."  # eleven pieces with </s>, as in the issue


@pytest.fixture
def projector(qtbot, loaded):
    """The window at a projector's size with the dock open over an eleven-piece sentence."""
    win = loaded
    win.resize(*CLIENT)
    qtbot.waitUntil(lambda: (win.width(), win.height()) == CLIENT)
    win.translate_panel.set_text(SENTENCE)
    with qtbot.waitSignal(win.controller.translation_ready, timeout=TIMEOUT):
        win.translate_panel.request_translation()
    with qtbot.waitSignal(win.controller.translation_ready, timeout=TIMEOUT):
        win.formula_dock.toggleViewAction().trigger()  # translates again, with q, k and v
    return win


def _pixel_at(heatmap, view_point: QPointF) -> QColor:
    image = heatmap.canvas.grab().toImage()
    pos = heatmap.canvas.mapFromScene(heatmap.plot.vb.mapViewToScene(view_point))
    return image.pixelColor(pos.x(), pos.y())


def test_the_worked_cell_is_outlined_on_the_map_while_the_dock_is_open(qtbot, projector):
    win = projector
    view, heatmap = win.formula_dock.widget(), win.attention_panel.heatmap
    assert heatmap.marked_cell() is None  # the hand example works no cell of the map
    view.select_cell(3, 2)
    assert heatmap.marked_cell() == (3, 2)
    qtbot.wait(50)
    # The outline runs along the cell's edge: the left edge's middle is drawn white (inside black)
    # where the map alone has the cells' colours.
    edge = _pixel_at(heatmap, QPointF(2 - 0.5, 3))
    assert edge.lightness() > 230 or edge.lightness() < 25, edge.name()
    heatmap.set_marked_cell(None)
    qtbot.wait(20)
    assert _pixel_at(heatmap, QPointF(2 - 0.5, 3)) != edge
    view.select_cell(3, 2)
    # The same sentence translated again (for the Step tab, a beam size) keeps its cell and its mark.
    with qtbot.waitSignal(win.controller.translation_ready, timeout=TIMEOUT):
        win.translate_panel.request_translation()
    assert view.cell() == (3, 2) and heatmap.marked_cell() == (3, 2)
    view.show_page("hand")
    assert heatmap.marked_cell() is None
    view.show_page("sentence")
    assert heatmap.marked_cell() == (3, 2)
    win.formula_dock.toggleViewAction().trigger()  # closed: no mark left on the map
    assert heatmap.marked_cell() is None


def test_the_caption_counts_from_1_and_writes_pieces_as_the_axes_do(qtbot):
    maps, vectors = make_synthetic_vectors(make_synthetic_maps(), d_k=8)
    view = FormulaView()
    qtbot.addWidget(view)
    view.set_translation(maps, vectors)
    view.set_state("decoder", 1, 2)
    view.select_cell(2, 1)  # the third query "▁Haus", the second key "▁Das"
    title = view.title.text()
    assert "layer 2, head 3" in title
    assert "query 3 “Haus”" in title and "key 2 “Das”" in title and "▁" not in title
    # The key's number is the caption's; the product is one unbreakable run, so it never wraps inside.
    assert "q\u00a0·\u00a0k_2\u00a0=\u00a0" in view.numbers["dots"].text()


def _shown_entries(text: str) -> list[str]:
    """The numbers a vector's row shows: "[1.2, −0.3, … (32 in all)]" → ["1.2", "−0.3"]."""
    return [x for x in text.split("…")[0].strip("[]").split(", ") if x.strip()]


def test_a_narrow_column_cuts_the_vectors_to_one_line_each_and_a_wide_one_shows_eight(qtbot):
    """Zoomed twice on a projector, q, k and the output each wrapped to a second line for a few
    characters, and the dock showed two steps instead of three (#32's rough edges)."""
    maps, vectors = make_synthetic_vectors(make_synthetic_maps(), d_k=32)
    view = FormulaView()
    qtbot.addWidget(view)
    view.set_columns(2)
    view.resize(1000, 900)
    view.show()
    view.set_translation(maps, vectors)
    view.set_state("encoder", 0, 0)
    view.select_cell(1, 1)
    vector_rows = [view.numbers[step] for step in ("q", "k", "output")]

    def counts():
        return [len(_shown_entries(label.text())) for label in vector_rows]

    qtbot.waitUntil(lambda: view.numbers["q"].width() > 400)
    assert counts() == [8, 8, 8]
    # Widths for the q row's column where 8 entries do not fit and 3 do, whatever the type's size (the
    # suite's earlier tests may leave the app font larger): the column follows the view's width.
    metrics, row = view.numbers["q"].fontMetrics(), view.row()
    vectors = (row.q, row.keys[1], row.weights @ row.values)  # q, the clicked key's k, the output
    need = {n: max(metrics.horizontalAdvance(format_numbers(v, 3, n)) for v in vectors) for n in (3, 8)}
    column = view.numbers["q"].contentsRect().width()
    assert need[8] <= column  # eight fit at 1000 px
    beside = view.width() - column  # the formulas' column, margins and spacing: the same at any width
    # (900 px tall: every step in view, so no scroll bar comes to narrow the column)
    for room in ((need[3] + need[8]) // 2, need[3] + 4):
        width = room + beside
        view.resize(width, 900)
        qtbot.waitUntil(lambda room=room: abs(view.numbers["q"].contentsRect().width() - room) <= 1)
        qtbot.waitUntil(lambda: max(counts()) < 8)
        for label in vector_rows:
            text, line = label.text(), label.contentsRect().width()
            assert 3 <= len(_shown_entries(text)) < 8 and "(32 in all)" in text
            assert label.fontMetrics().horizontalAdvance(text) <= line, (width, text)  # one line, not wrapped
        # The numbers shown are the vector's own first ones, rounded as the full row rounds them.
        view.show_all_box.setChecked(True)
        whole = _shown_entries(view.numbers["q"].text())
        assert len(whole) == 32
        view.show_all_box.setChecked(False)
        shown = _shown_entries(view.numbers["q"].text())
        assert shown == whole[:len(shown)]
    view.resize(1000, 900)  # wide again: eight each
    qtbot.waitUntil(lambda: counts() == [8, 8, 8])


def test_only_the_decoders_self_attention_shows_a_mask_step(qtbot):
    maps, vectors = make_synthetic_vectors(make_synthetic_maps(), d_k=8)
    view = FormulaView()
    qtbot.addWidget(view)
    view.show()
    view.set_translation(maps, vectors)
    view.select_cell(1, 1)
    shown = {}
    for kind in ("encoder", "decoder", "cross"):
        view.set_state(kind, 0, 0)
        shown[kind] = view.formulas["mask"].isVisible() and view.numbers["mask"].isVisible()
    assert shown == {"encoder": False, "decoder": True, "cross": False}
    view.show_page("hand")  # three keys, none in the future
    assert view.formulas["mask"].isHidden()


@pytest.mark.parametrize("kind", ["encoder", "decoder"])
def test_at_1024_by_768_every_step_is_visible_without_scrolling(qtbot, projector, kind):
    win = projector
    view = win.formula_dock.widget()
    win.attention_panel.set_state(kind, 0, 0)
    view.select_cell(3, 2)
    qtbot.waitUntil(lambda: view.row() is not None)
    qtbot.wait(50)  # the dock's layout settles
    bar = view.findChild(QScrollArea).verticalScrollBar()
    assert bar.maximum() == 0, (bar.maximum(), win.formula_dock.height())
    for step, label in view.numbers.items():
        if not label.isHidden():
            assert label.text(), step
            assert label.visibleRegion().boundingRect().height() == label.height(), step  # not cut off


def test_the_numbers_grow_with_zoom_as_the_headings_do(qtbot, projector):
    win, view = projector, projector.formula_dock.widget()
    before = view.numbers["q"].font().pointSizeF(), view.formulas["q"].font().pointSizeF()
    win.zoom_in()
    win.zoom_in()
    qtbot.wait(10)  # Qt hands the new application font to the widgets on the next turn of the loop
    after = view.numbers["q"].font().pointSizeF(), view.formulas["q"].font().pointSizeF()
    growth = style.ZOOM_STEP ** 2
    assert after[1] == pytest.approx(before[1] * growth, rel=0.02)
    assert after[0] == pytest.approx(before[0] * growth, rel=0.02)


def test_a_squeezed_map_drops_its_cell_numbers_rather_than_overprint(qtbot, synthetic_maps):
    from explorer.attention.heatmap import HeatmapView  # noqa: PLC0415

    view = HeatmapView()
    qtbot.addWidget(view)
    view.resize(600, 500)
    view.show()
    qtbot.waitExposed(view)
    view.set_matrix(synthetic_maps.encoder_self[0, 0], list("abcde"), list("abcde"))
    qtbot.waitUntil(view.cell_numbers_shown)
    view.resize(600, 150)  # what the issue saw under the dock at zoom +2: rows thinner than a line
    qtbot.waitUntil(lambda: not view.cell_numbers_shown())
    line = QFontMetricsF(view.font()).height() * 0.7  # the smallest size the numbers may take
    assert view.plot.vb.sceneBoundingRect().height() / 5 < line  # rows thinner than a line of numbers
    view.resize(600, 500)
    qtbot.waitUntil(view.cell_numbers_shown)


def test_the_step_bars_keep_the_app_font_when_short_of_room(qtbot):
    from explorer.lecture.step_bars import ProbabilityBars  # noqa: PLC0415

    bars = ProbabilityBars()
    qtbot.addWidget(bars)
    font = bars.font()
    font.setPointSizeF(16.0)  # zoom +2 of the 12-pt base
    bars.setFont(font)
    pieces = ("▁Das", "▁He", "▁Ich", "▁heute", "▁Es", "▁Bei")
    bars.set_step(pieces, [0.596, 0.341, 0.004, 0.002, 0.001, 0.001], "▁Das", 0.596, 0)
    bars.resize(300, 110)  # the room the Step tab left them with the dock open
    rows, shown_font = bars.shown_rows()
    assert shown_font.pointSizeF() == pytest.approx(16.0)  # it used to shrink to fit all seven rows
    assert len(rows) * QFontMetricsF(shown_font).height() <= 110
    assert rows[0][2] == "chosen" and rows[-1][2] == "rest"
    assert sum(p for _, p, _ in rows) == pytest.approx(1.0, abs=1e-6)  # still the whole softmax
    bars.resize(300, 400)
    assert bars.shown_rows()[0] == bars.rows()  # room for all: every candidate


def test_at_zoom_2_the_axis_titles_stay_within_a_short_plot(qtbot, synthetic_maps):
    from explorer.attention.heatmap import HeatmapView  # noqa: PLC0415
    from explorer.ui.plot_titles import BASE_POINT_SIZE  # noqa: PLC0415

    view = HeatmapView()
    qtbot.addWidget(view)
    view.set_font_scale(style.ZOOM_STEP ** 2)
    view.resize(500, 260)  # the Head view's room at 1024 × 768, zoom +2
    view.show()
    qtbot.waitExposed(view)
    view.set_matrix(synthetic_maps.encoder_self[0, 0], list("abcde"), list("abcde"),
                    row_title="Query: source token", col_title="Key: source token")
    qtbot.wait(20)
    view.fit_titles()
    room = view.plot.vb.height()
    for axis in (view._left, view.color_bar.axis):  # the query title and the colour bar's
        # In the size the axis draws it: a title too long for the plot is set smaller before it is cut.
        size = float(axis.labelStyle["font-size"].removesuffix("pt"))
        # (Sizes are kept to 0.1 pt, rounded down.)
        assert BASE_POINT_SIZE * 1.15 - 0.1 <= size <= BASE_POINT_SIZE * 1.15 * style.ZOOM_STEP ** 2
        title_font = QFont(view.font())
        title_font.setPointSizeF(size)
        assert QFontMetricsF(title_font).horizontalAdvance(axis.labelText) <= room + 1, axis.labelText


def test_a_plot_too_short_for_its_titles_shows_their_words_whole_not_cut(qtbot, synthetic_maps):
    """1008 × 728 with the dock open: the map's 170 px read "Query: source to…"; 1024 × 768 at fonts ×1, a
    ~130-px map "attention wei…" beside its colour bar. The word alone is whole, and the full titles come
    back with the room."""
    from explorer.attention.heatmap import HeatmapView  # noqa: PLC0415

    view = HeatmapView()
    qtbot.addWidget(view)
    view.show()
    qtbot.waitExposed(view)
    view.set_matrix(synthetic_maps.encoder_self[0, 0], list("abcde"), list("abcde"),
                    row_title="Query: source token", col_title="Key: source token")
    for height, query, bar in ((600, "Query: source token", "attention weight"), (190, "Query", "weight"),
                               (600, "Query: source token", "attention weight")):
        view.resize(500, height)
        qtbot.waitUntil(lambda h=height: view.height() == h)
        view.fit_titles()
        titles = (view._left.labelText, view.color_bar.axis.labelText)
        assert titles == (query, bar), (height, view.plot.vb.height(), titles)


def test_at_zoom_2_neighbouring_clock_titles_do_not_overlap(qtbot):
    from explorer.positional.clock_view import ClockView  # noqa: PLC0415

    view = ClockView()
    qtbot.addWidget(view)
    view.resize(500, 480)  # the PE tab's width at 1024 × 768 with the font zoomed twice
    view.show()
    qtbot.waitExposed(view)
    view.set_model(256)
    view.set_font_scale(style.ZOOM_STEP ** 2)
    qtbot.wait(20)
    titles = [c["plot"].titleLabel.item.sceneBoundingRect() for c in view.clocks]
    for n in range(len(titles) - 1):
        if (n + 1) % view.columns():  # the same row (as many to a row as the canvas has room for)
            assert titles[n].right() <= titles[n + 1].left(), n


def test_the_step_tab_takes_the_docks_height_and_gives_it_back(qtbot, projector):
    """With the dock under the maps at 1024 × 768, the Step tab's cross map was a 54 px strip and 3 of its
    6 next-piece bars showed (a walk-through, 2026-12-05; here, before the fix: a 2 px plot, 3 of 5 bars).
    The Step tab now gets the dock's height while it shows, and the Attention tab gets back the height
    the dock had there, a moved separator included."""
    win, dock = projector, projector.formula_dock
    qtbot.wait(50)
    win.resizeDocks([dock], [dock.height() + 40], Qt.Orientation.Vertical)  # the teacher drags it higher
    qtbot.wait(50)
    chosen = dock.height()
    with qtbot.waitSignal(win.controller.translation_ready, timeout=TIMEOUT):
        win.tabs.setCurrentWidget(win.step_view)  # asks for the search step by step
    qtbot.wait(50)
    steps = win.step_view
    steps.set_step(steps.n_steps() - 1)
    qtbot.wait(50)
    assert dock.isVisible() and dock.height() < chosen - 60
    assert steps.maps.cross.plot.vb.height() >= 70, steps.maps.cross.plot.vb.height()
    shown, _ = steps.bars.shown_rows()
    assert len(shown) >= min(5, len(steps.bars.rows())), (len(shown), len(steps.bars.rows()))
    win.show_tab("Attention")
    qtbot.wait(50)
    assert abs(dock.height() - chosen) <= 2, (dock.height(), chosen)
