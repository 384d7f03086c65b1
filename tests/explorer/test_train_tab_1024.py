"""The Train tab on a 1024 x 768 projector, at fonts x1 and zoomed twice, in English and Chinese, once a
run has sent its first probe: the probe's map is tall enough to show its axis titles whole, and the
run buttons' texts fit them (issue 31, Train leftovers, item 1).

Before, the maps had 60 % of the tab and the statistics and legend under them: the map was ~105 px
tall and its "Query: target token" title read "Query: tar…" (in Chinese "查询：目…").
"""

from __future__ import annotations

import re

import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from explorer.ui import i18n
from explorer.ui.plot_titles import BASE_POINT_SIZE
from explorer.window.language_menu import set_language
from model.records import TrainProgress
from tests.explorer.conftest import make_translation

PROBE = "3 1 4 1 5 9 2 6"  # the reverse task's probe (training/defaults.py)


def record(event: str, step: int, **kw) -> TrainProgress:
    return TrainProgress(step=step, max_steps=2000, epoch=0, loss=2.5, lr=1e-3, tokens_per_s=5000.0, elapsed_s=12.0,
                         event=event, **kw)


def settle() -> None:
    """Deliver the layout requests a zoom and a resize have posted (each may post more, up the parents):
    measured before, a button still had its size from before the zoom."""
    for _ in range(8):
        QtWidgets.QApplication.sendPostedEvents()
        QtWidgets.QApplication.processEvents()


@pytest.fixture
def train_tab(window, qtbot, request):
    """The window at 1024 x 768 in ``lang`` zoomed ``zoom`` times, its Train tab showing a run's first probe."""
    lang, zoom = request.param
    assert set_language(window, lang) == ""
    window.reset_zoom()
    for _ in range(zoom):
        window.zoom_in()
    window.resize(1024, 768)
    qtbot.waitUntil(lambda: window.size() == QtCore.QSize(1024, 768))
    window.fit_sidebar()  # the width shared as a window opened at 1024 px shares it (the fixture's was 1200)
    assert window.show_tab("Train")
    panel = window.train_panel
    for p in (record("start", 0, message="started"), record("step", 10),
              record("probe", 10, probe=make_translation(PROBE))):
        panel.runner.worker.progress.emit(p)
    settle()
    yield window, panel
    i18n.install_language("en")


def advance(heatmap, text: str) -> float:
    """How long ``text`` is in the map's axis titles (heatmap.HeatmapView._apply_titles)."""
    font = QtGui.QFont(QtWidgets.QApplication.font())
    font.setPointSizeF(BASE_POINT_SIZE * 1.15 * heatmap._font_scale)
    return QtGui.QFontMetricsF(font).horizontalAdvance(text)


def row_title_room(heatmap) -> tuple[float, str]:
    """The query axis' title without its explanation in brackets, and how long it is."""
    title = re.split(r" \(|（", i18n.tr("Query: target token (decoder input)"), maxsplit=1)[0]
    return advance(heatmap, title), title


CASES = [("en", 0), ("en", 2), ("zh_CN", 0), ("zh_CN", 2)]


def _run_buttons_fit(window, panel) -> None:
    """Each run button's text fits it, and the button is whole on screen."""
    for button in (panel.start_button, panel.pause_button, panel.stop_button, panel.open_button):
        option = QtWidgets.QStyleOptionButton()
        button.initStyleOption(option)
        room = button.style().subElementRect(QtWidgets.QStyle.SubElement.SE_PushButtonContents, option, button)
        assert button.fontMetrics().horizontalAdvance(button.text()) <= room.width(), button.text()
        # and the button is whole on screen, not cut by the column it sits in
        corner = button.mapTo(window, QtCore.QPoint(button.width() - 1, button.height() - 1))
        assert window.rect().contains(corner) and button.visibleRegion().boundingRect() == button.rect(), \
            button.text()


@pytest.mark.parametrize("train_tab", CASES, indirect=True, ids=[f"{lang}-zoom{z}" for lang, z in CASES])
def test_the_probe_map_is_tall_enough_for_its_axis_titles_and_the_run_buttons_read_whole(train_tab, qtbot):
    window, panel = train_tab
    heatmap = panel.attention.heatmap
    need, title = row_title_room(heatmap)
    left, bar = heatmap.plot.getAxis("left"), heatmap.color_bar.axis
    # The titles are fitted a turn of the event loop after the canvas is laid out; give them that turn
    # (and say what they read if they never fit).
    try:
        qtbot.waitUntil(lambda: left.labelText.startswith(title))
    except qtbot.TimeoutError:
        pass
    assert heatmap.plot.vb.height() >= max(150.0, need), "the probe's map is too short to read"
    assert left.labelText.startswith(title), f"the query axis reads {left.labelText!r}"
    assert "…" not in left.labelText.removeprefix(title)[:1]  # the title itself whole; only "（…" may go
    assert bar.labelText == i18n.tr("attention weight")
    view = heatmap.canvas.viewport().rect()
    for label in (left.label, bar.label, heatmap.plot.getAxis("bottom").label):
        margin = round(label.document().documentMargin())  # the text item's blank border round its text
        shown = heatmap.canvas.mapFromScene(label.sceneBoundingRect()).boundingRect()
        shown = shown.adjusted(margin, margin, -margin, -margin)
        assert view.contains(shown), (label.toPlainText(), shown, view)
    _run_buttons_fit(window, panel)  # the same window: one build serves both checks


@pytest.mark.parametrize("train_tab", [("en", 0), ("zh_CN", 2)], indirect=True, ids=["en-zoom0", "zh_CN-zoom2"])
def test_the_axis_titles_stay_centred_on_the_map_when_the_window_shrinks(train_tab, qtbot):
    """From a desk's size back to the projector's: the titles are cut to the smaller map a turn after the
    resize, and a title placed for its longer text ran off the canvas' bottom (")uery: target token")."""
    window, panel = train_tab
    heatmap = panel.attention.heatmap
    left, bar = heatmap.plot.getAxis("left"), heatmap.color_bar.axis
    _, title = row_title_room(heatmap)
    for size in ((1600, 1000), (1024, 768)):
        window.resize(*size)
        qtbot.waitUntil(lambda size=size: window.size() == QtCore.QSize(*size))
        settle()
    qtbot.waitUntil(lambda: left.labelText == title)  # cut to the short map (its explanation gone)
    settle()
    for axis in (left, bar):  # both run up the side of what they label
        label = axis.label.mapRectToScene(axis.label.boundingRect()).center().y()
        middle = axis.mapRectToScene(axis.boundingRect()).center().y()
        assert abs(label - middle) <= 3, (axis.labelText, label, middle)


@pytest.mark.parametrize("train_tab", [("en", 2)], indirect=True, ids=["en-zoom2"])
def test_a_short_replay_keeps_the_statistics_in_a_tooltip_and_a_desk_shows_them(train_tab, qtbot):
    window, panel = train_tab
    stats = panel.attention.statistics_text()
    assert panel.replay.is_compact() and not panel.attention.stats_label.isVisible()
    label = panel.snapshot_label
    # The tooltip: the whole step line where the row cut it, then the statistics the maps had no room for.
    assert stats.startswith("Layer 2, head 1:") and label.toolTip().split("\n\n")[-1] == stats
    panel.attention.set_state("cross", 0, 1)  # another head: its own statistics
    assert label.toolTip().split("\n\n")[-1] == panel.attention.statistics_text() != stats
    window.reset_zoom()
    window.resize(1600, 1000)
    qtbot.waitUntil(lambda: window.size() == QtCore.QSize(1600, 1000))
    qtbot.waitUntil(lambda: not panel.replay.is_compact())
    assert panel.attention.stats_label.isVisible()
    assert panel.snapshot_label.toolTip() == (panel.snapshot_label.full_text() if panel.snapshot_label.is_elided()
                                              else "")


def test_a_chinese_query_title_drops_its_explanation_as_an_english_one_does(qtbot):
    """A short map shows "查询：目标语言词元" whole, as it shows "Query: target token": the explanation
    in brackets goes first. The Chinese title's brackets are full-width "（", which the cut did not know,
    so the title itself was cut instead ("查询：目标语言词…" at 1024 x 768 zoomed twice)."""
    import numpy as np

    from explorer.attention.heatmap import HeatmapView

    view = HeatmapView()
    qtbot.addWidget(view)
    view.resize(520, 300)
    view.show()
    qtbot.waitExposed(view)
    for lang, short in (("en", "Query: target token"), ("zh_CN", "查询：目标语言词元")):
        i18n.install_language(lang)  # the map says its titles in the window's language (heatmap: again())
        row_title = i18n.tr("Query: target token (decoder input)")
        view.set_matrix(np.eye(3, dtype=np.float32), ["a", "b", "c"], ["x", "y", "z"], title="t",
                        row_title=row_title, col_title="Key")
        qtbot.waitUntil(lambda: view.plot.vb.height() > 0)
        room = view.plot.vb.height()
        assert advance(view, short) <= room < advance(view, row_title)  # room for the title, not its explanation
        view.fit_titles()
        shown = view.plot.getAxis("left").labelText
        i18n.install_language("en")
        assert shown == short


def test_a_log_made_shorter_keeps_its_newest_line_in_view(qtbot):
    """The run's data report wraps to three lines, then the first probe hands most of the tab's height to
    the maps and the log gets short (1024 x 768): the end of that line must stay in view, not slip
    below the bottom edge; a log the user has scrolled back stays where it was."""
    from explorer.training.log import TrainLog

    log = TrainLog()
    qtbot.addWidget(log)
    line = log.fontMetrics().height()
    log.resize(300, 12 * line)
    log.show()
    qtbot.waitExposed(log)
    for text in ("Starting a run in /tmp/run", "Reading the corpus and training the tokenizer…",
                 "task reverse: 2000 generated pairs; 2000 training pairs (0 too long skipped), "
                 "500 validation pairs, vocabulary 25"):
        log.add(text)
    QtWidgets.QApplication.processEvents()  # the list lays its items out when it next can
    log.resize(300, 5 * line)
    QtWidgets.QApplication.processEvents()
    newest = log.visualItemRect(log.item(log.count() - 1))
    assert newest.height() > 2 * line  # it wraps
    assert newest.bottom() <= log.viewport().rect().bottom()
    bar = log.verticalScrollBar()
    bar.setValue(0)  # the user reads back
    log.resize(300, 4 * line)
    QtWidgets.QApplication.processEvents()
    assert bar.value() == 0


def test_a_desk_keeps_the_curves_their_room_when_the_first_probe_comes(window, qtbot):
    """Only a short tab (a 768-px projector) hands the maps 72 % of its height; at 1600 x 1000 the top
    keeps 40 % for the numbers and the curves."""
    assert set_language(window, "en") == ""
    window.reset_zoom()
    window.resize(1600, 1000)
    qtbot.waitUntil(lambda: window.size() == QtCore.QSize(1600, 1000))
    assert window.show_tab("Train")
    panel = window.train_panel
    for p in (record("start", 0, message="started"), record("probe", 10, probe=make_translation(PROBE))):
        panel.runner.worker.progress.emit(p)
    top, maps = panel.split.sizes()
    assert top + maps > 800 and abs(maps / (top + maps) - 0.6) < 0.01
    settle()
    # The numbers and the curves fit that room whole: no scroll fold (the column used to be sized by
    # pyqtgraph's preferred 480 px a plot and the curves' x axis stood below the fold).
    scroll = panel.curves_scroll
    assert scroll.widget().height() <= scroll.viewport().height()
    assert not scroll.verticalScrollBar().isVisible()
    canvas = panel.curves.canvas
    for plot in (panel.curves.loss_plot, panel.curves.lr_plot, panel.curves.bleu_plot):
        rect = plot.getAxis("bottom").sceneBoundingRect()  # the x axis, its numbers and title
        bottom = canvas.mapTo(scroll.viewport(), canvas.mapFromScene(rect.bottomLeft()))
        assert 0 < bottom.y() <= scroll.viewport().height()


@pytest.mark.parametrize("train_tab", [("en", 2), ("zh_CN", 2)], indirect=True, ids=["en-zoom2", "zh_CN-zoom2"])
def test_a_long_probe_line_ends_in_an_ellipsis_inside_the_window_and_its_tooltip_holds_it(train_tab, qtbot):
    # Zoomed twice at 1024 x 768 the step line ("Step 10 (1 of 1): … → …") ran past the window's edge, cut
    # mid-word with no sign that more followed.
    window, panel = train_tab
    label = panel.snapshot_label
    whole = label.full_text()
    assert whole.startswith(i18n.tr("Step {step}  ({i} of {n}):  {source}  →  {text}", step=10, i=1, n=1,
                                    source=PROBE, text="")[:8])
    settle()
    assert label.is_elided() and label.text().endswith("…") and len(label.text()) < len(whole)
    assert label.fontMetrics().horizontalAdvance(label.text()) <= label.contentsRect().width()
    corner = label.mapTo(window, QtCore.QPoint(label.width() - 1, 0))
    assert window.rect().contains(corner)
    assert label.toolTip().split("\n\n")[0] == whole


def test_the_curves_fit_a_narrow_column_at_a_zoomed_font(qtbot):
    """Zoomed ×1.52 beside the form at 1024 px the curves' column is ~190 px: a plot's title held the canvas
    wider, and the plots ran under the column's edge with their legend ("trai", "vali") and last ticks."""
    from explorer.training.curves import TrainingCurves
    curves = TrainingCurves()
    qtbot.addWidget(curves)
    font = QtGui.QFont(QtWidgets.QApplication.font())
    font.setPointSizeF(BASE_POINT_SIZE * 1.52)
    curves.setFont(font)
    curves.set_font_scale(1.52)
    curves.resize(191, 520)
    curves.show()
    qtbot.waitExposed(curves)
    settle()
    assert curves.is_stacked()
    width = curves.canvas.viewport().width()
    for plot in (curves.loss_plot, curves.lr_plot, curves.bleu_plot):
        assert plot.sceneBoundingRect().right() <= width + 1, (plot.sceneBoundingRect(), width)



def _drawing_heights(panel) -> list[float]:
    """Each curve's own area (the plot less its title and axes), in pixels."""
    curves = panel.curves
    return [plot.vb.sceneBoundingRect().height() for plot in (curves.loss_plot, curves.lr_plot, curves.bleu_plot)]



@pytest.mark.parametrize("train_tab", [("en", 0)], indirect=True, ids=["en"])
def test_zoom_never_leaves_the_curves_less_room_to_draw_in(train_tab, qtbot):
    """Zoomed, a plot's title and step axis take more of its least height: at ×1.52 beside the form at
    1024 px the curves kept ~45-px strips under their legend. Their own areas keep at least their unzoomed
    height (the column scrolls instead)."""
    window, panel = train_tab
    plain = _drawing_heights(panel)
    for _ in range(3):
        window.zoom_in()
    settle()
    qtbot.waitUntil(lambda: panel.curves.is_stacked(), timeout=2000)
    zoomed = _drawing_heights(panel)
    assert all(z >= p - 1 for p, z in zip(plain, zoomed)), (plain, zoomed)
    # and more than the 2 lines of the loss plot's legend in the zoomed type, with room for its curves
    line = QtGui.QFontMetricsF(QtWidgets.QApplication.font()).height()
    assert min(zoomed) >= 2.5 * line, (zoomed, line)
