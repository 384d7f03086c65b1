"""Head importance zoomed twice in a 1024 × 768 window: the three grids' titles were cut ("Decoder self
(mask…", "Cross (encoder–dec…"), the summary named the most important head in the command line's notation
("cross:1.1"), and the pruning curve's axis titles stayed at pyqtgraph's 9 pt under 16-pt numbers."""

from __future__ import annotations

import pytest
from PySide6 import QtGui

from explorer.ui import i18n, style
from explorer.workbench.importance_view import ImportanceView
from model.records.research import HeadScore, Importance

ZOOM_2 = style.ZOOM_STEP ** 2
WORKBENCH_W = 720  # the Head importance tab's width in a 1024-px window, beside the sentence column


@pytest.fixture
def language():
    yield i18n.install_language
    i18n.install_language("en")


def _result() -> Importance:
    """Every head of a 2-layer, 8-head model; removing cross-attention's layer 1, head 1 costs most."""
    heads = tuple(HeadScore(f"{kind}:{layer + 1}.{head + 1}", bleu=30.0 - (9.4 if (kind, layer, head) == ("cross", 0, 0)
                                                                            else 0.1 * head), chrf=50.0)
                  for kind in ("encoder", "decoder", "cross") for layer in range(2) for head in range(8))
    return Importance(bleu=30.0, chrf=50.0, sentences=6, heads=heads, curve=heads[:5], cached=False)


def _view(qtbot, qapp, scale: float) -> ImportanceView:
    style.set_font_scale(qapp, scale)
    view = ImportanceView()
    qtbot.addWidget(view)
    view.resize(WORKBENCH_W, 560)
    view.set_result(_result(), 2, 8)
    view.show()
    qtbot.waitExposed(view)
    return view


def _ink_rows(image: QtGui.QImage, top: int, bottom: int) -> list[int]:
    """The rows between top and bottom that hold dark (text) pixels."""
    return [y for y in range(top, bottom)
            if any(image.pixelColor(x, y).lightness() < 100 for x in range(0, image.width(), 2))]


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_zoomed_grid_titles_are_whole_on_up_to_two_lines_and_the_cells_stay_level(qtbot, qapp, restore_app_look,
                                                                                    language, lang):
    language(lang)
    view = _view(qtbot, qapp, ZOOM_2)
    grids = list(view.grids.values())
    metrics = QtGui.QFontMetricsF(grids[0].font())
    assert any(metrics.horizontalAdvance(g.shown_title()) > g.width() - 4 for g in grids)  # one line is too narrow
    for grid in grids:
        lines = grid.title_lines()
        assert 1 <= len(lines) <= 2 and not any("…" in line for line in lines), lines
        assert "".join(lines).replace(" ", "") == grid.shown_title().replace(" ", "")
        assert all(metrics.horizontalAdvance(line) <= grid.width() - 4 for line in lines)
        # Painted: text in each line's band above the head labels.
        image = grid.grab().toImage()
        line_h = grid.fontMetrics().height()
        top = (grid.title_height() - len(lines) * line_h) // 2
        for i in range(len(lines)):
            assert _ink_rows(image, top + i * line_h, top + (i + 1) * line_h), (grid.shown_title(), i)
    assert len({g.cell_rect(0, 0).top() for g in grids}) == 1  # the three grids' cells level
    assert grids[0].cell_rect(0, 0).top() >= grids[0].title_height() + grids[0].fontMetrics().height()


def test_a_title_too_long_for_two_lines_is_cut_and_whole_in_the_tooltip(qtbot, qapp, restore_app_look):
    view = _view(qtbot, qapp, ZOOM_2)
    grid = view.grids["cross"]
    grid.resize(120, 200)  # narrower than any window gives it
    lines = grid.title_lines()
    assert len(lines) == 2 and lines[-1].endswith("…")
    assert grid.toolTip() == grid.shown_title()
    grid.resize(600, 200)
    assert grid.title_lines() == [grid.shown_title()] and grid.toolTip() == ""


@pytest.mark.parametrize("lang, expected", [
    ("en", "most important: Cross (encoder–decoder) L1 H1, 9.4 lost"),
    ("zh_CN", "最重要的是 交叉注意力（编码器–解码器） 第 1 层第 1 头，损失 9.4")])
def test_the_summary_names_the_most_important_head_as_the_grids_label_it(qtbot, qapp, restore_app_look,
                                                                         language, lang, expected):
    language(lang)
    view = _view(qtbot, qapp, 1.0)
    assert expected in view.summary.text()
    assert "cross:1.1" not in view.summary.text()


def test_the_curves_axis_titles_follow_the_zoom(qtbot, qapp, restore_app_look):
    sizes = []
    for scale in (1.0, ZOOM_2):
        view = _view(qtbot, qapp, scale)
        axis = view.curve_plot.getAxis("bottom")
        assert axis.labelStyle["font-size"] == f"{view.axis_title_point_size():.1f}pt"
        assert f"font-size:{view.axis_title_point_size():.1f}pt" in axis.label.toHtml().replace(" ", "")
        sizes.append(view.axis_title_point_size())
    assert sizes[1] / sizes[0] == pytest.approx(ZOOM_2, rel=0.02)
    assert sizes[1] > 9.0 * 1.2  # larger than pyqtgraph's own 9 pt


def test_a_title_breaks_before_its_bracket_in_either_language(qapp):
    from explorer.ui.title_lines import fit_lines

    font = QtGui.QFont(qapp.font())
    font.setPointSizeF(16.0)
    metrics = QtGui.QFontMetricsF(font)
    for title, first in (("交叉注意力（编码器–解码器）", "交叉注意力"), ("解码器自注意力（带遮罩）", "解码器自注意力"),
                         ("Decoder self (masked)", "Decoder self")):
        width = max(metrics.horizontalAdvance(title[len(first):]), metrics.horizontalAdvance(first)) + 8
        assert width < metrics.horizontalAdvance(title)  # too narrow for one line
        assert fit_lines(title, metrics, width) == [first, title[len(first):].strip()]


def test_zoomed_twice_in_a_window_managers_frame_the_grids_keep_readable_rows(qtbot, qapp, restore_app_look):
    """Under a window manager the 1024 × 768 window is 1008 × 728, and at zoom 2 the four layers of the
    built-in model's grids were ~5 px stripes while the pruning curve kept its 140 px."""
    heads = tuple(HeadScore(f"{kind}:{layer + 1}.{head + 1}", bleu=38.0 - 0.1 * head, chrf=60.0)
                  for kind in ("encoder", "decoder", "cross") for layer in range(4) for head in range(8))
    style.set_font_scale(qapp, ZOOM_2)
    view = ImportanceView()
    qtbot.addWidget(view)
    view.set_result(Importance(bleu=38.0, chrf=60.0, sentences=10, heads=heads, curve=heads[:90], cached=False), 4, 8)
    view.resize(700, 575)  # what the tab gets in that frame, beside the sentence column
    view.show()
    qtbot.waitExposed(view)
    qtbot.wait(20)
    for grid in view.grids.values():
        row = grid.cell_rect(0, 0).height()
        # Its "L1" … "L4" labels and numbers need most of a line (13 px rows under a 24 px line overlapped).
        assert row >= grid.fontMetrics().height() * 3 / 4, (grid.shown_title(), row)
    assert view.curve_plot.height() >= 100  # the curve gave way, and is still there
