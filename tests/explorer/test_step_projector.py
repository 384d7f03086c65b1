"""The Step tab on a 1024 × 768 projector, fonts ×1 and Ctrl+= twice, English and Chinese, with and without
the formula dock (#31 item 11): the maps' titles keep clear of the colour bar and are whole at ×1, and the
cross-attention's key labels are set no smaller than the window's own text (fake model, no torch)."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QFontInfo, QFontMetricsF
from PySide6.QtWidgets import QApplication

from explorer.lecture.step_heatmap import fit_title
from explorer.ui.i18n import tr

TIMEOUT = 10_000
CLIENT = (1008, 728)  # what a 1024 × 768 screen leaves the window inside its frame
SENTENCE = "one two three four five six seven eight nine ten"  # eleven source pieces with </s>, as the issue's


@pytest.fixture(params=[("en", 0), ("en", 2), ("zh_CN", 0), ("zh_CN", 2)], ids=lambda p: f"{p[0]}-zoom{p[1]}")
def step_tab(request, qtbot, loaded):
    """The window at a projector's size and zoom, in a language, showing the Step tab over SENTENCE."""
    from explorer.window.language_menu import set_language  # noqa: PLC0415

    lang, zoom = request.param
    win = loaded
    if lang != "en":
        assert set_language(win, lang, remember=False) == ""
    win.resize(*CLIENT)
    qtbot.waitUntil(lambda: (win.width(), win.height()) == CLIENT)
    win.fit_sidebar()  # the width a window opened on the projector gives the sentence column
    win.reset_zoom()
    for _ in range(zoom):
        win.zoom_in()
    win.translate_panel.set_text(SENTENCE)
    with qtbot.waitSignal(win.controller.translation_ready, timeout=TIMEOUT):
        win.tabs.setCurrentWidget(win.step_view)  # the tab translates again, with the steps
    yield win, zoom
    if lang != "en":
        set_language(win, "en", remember=False)


def _set_dock(qtbot, win, shown: bool) -> None:
    if win.formula_dock.isVisible() != shown:
        with qtbot.waitSignal(win.controller.translation_ready, timeout=TIMEOUT):
            win.formula_dock.toggleViewAction().trigger()  # translates again, with q, k and v


def _title_rect(heatmap):
    return heatmap.plot.titleLabel.item.sceneBoundingRect()


def _titles_clear(win) -> bool:
    """Each map's title inside its canvas and off its colour bar (the decoder's map shares the cross-
    attention's bar and draws none)."""
    maps = win.step_view.maps
    for heatmap in (maps.decoder, maps.cross):
        rect = _title_rect(heatmap)
        if rect.left() < 0 or rect.right() > heatmap.canvas.width():
            return False
        bar = heatmap.color_bar
        if bar.scene() is not None and rect.intersects(bar.sceneBoundingRect()):
            return False
    return maps.cross.color_bar.scene() is not None


def test_the_step_titles_and_keys_read_whole_with_and_without_the_dock(qtbot, step_tab):
    # One window per language and zoom serves both checks, dock closed then open.
    win, zoom = step_tab
    for dock in (False, True):
        _set_dock(qtbot, win, dock)
        _check_titles(qtbot, win, zoom)
        _check_cross_keys(qtbot, win)


def _check_titles(qtbot, win, zoom: int) -> None:
    """The step titles keep off the colour bar, and at ×1 read whole."""
    maps = win.step_view.maps
    qtbot.waitUntil(lambda: _titles_clear(win), timeout=2000)
    titles = ((maps.decoder, "Decoder masked self-attention"), (maps.cross, "Cross-attention over the source"))
    for heatmap, title in titles:
        lines, title = heatmap.title_lines(), tr(title)
        # Wrapped or shortened, the whole title is the map's tooltip.
        assert heatmap.canvas.toolTip() == ("" if lines == [title] else title)
        if zoom == 0:  # at ×1 there is room for every title whole, on one line or two
            assert not any("…" in line for line in lines), lines
        # What is drawn is what was fitted: the title's text item holds those lines.
        assert heatmap.plot.titleLabel.item.toPlainText().split("\n") == lines


def _check_cross_keys(qtbot, win) -> None:
    """The cross-attention's keys are set in the window's type, every one shown."""
    cross = win.step_view.maps.cross
    base = QFontInfo(QApplication.font()).pixelSize()

    def readable() -> bool:
        cross._bottom.picture = None
        cross.canvas.viewport().repaint()  # the axis chooses its type as it paints
        return QFontInfo(cross._bottom.label_font()).pixelSize() >= base and cross._bottom.last_stride == 1

    qtbot.waitUntil(readable, timeout=2000)
    assert len(cross.col_labels()) == 11


def test_a_title_wraps_then_shortens_then_is_cut(qapp):
    metrics = QFontMetricsF(QApplication.font())
    title, short = "Cross-attention over the source", "Cross-attention"
    whole, two = metrics.horizontalAdvance(title), metrics.horizontalAdvance("over the source")
    assert fit_title(title, short, metrics, (whole + 1, whole + 1), True) == ([title], "center")
    assert fit_title(title, short, metrics, (10, whole + 1), True) == ([title], "right")  # pinned to the map
    assert fit_title(title, short, metrics, (two + 1, two + 1), True)[0] == ["Cross-attention", "over the source"]
    assert fit_title(title, short, metrics, (two + 1, two + 1), False)[0] == [short]  # a short map: one line
    cut = fit_title(title, short, metrics, (30, 30), False)[0]
    assert len(cut) == 1 and cut[0].endswith("…")
    # Chinese has no spaces: it breaks between characters.
    assert fit_title("对源语言的交叉注意力", "交叉注意力", metrics,
                     (metrics.horizontalAdvance("对源语言的交") + 1,) * 2, True)[0] == ["对源语言的", "交叉注意力"]
