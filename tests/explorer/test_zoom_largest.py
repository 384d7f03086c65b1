"""Zoom goes as far as the window's width shows every control whole, and no further (style.largest_scale).

A teacher zooming for the back row of a room on a 1024 × 768 projector went past ×1.52, where "Encoder"
read "ncode", the step counter and the training form were cut, and at the ×3.0 maximum every tab was
unusable. Here the window is zoomed as far as Ctrl+= takes it at a projector's size and at a large
screen's; at the projector's, every page of every tab (the formula dock open too) is checked for cut
controls with tests/explorer/clipping.py, in English and Chinese.
"""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication, QTabWidget

from explorer.ui import i18n, style
from explorer.window.language_menu import set_language
from tests.explorer.clipping import clipped

TIMEOUT = 10_000
PROJECTOR = (1008, 728)  # a 1024 × 768 screen less the window's frame


def settle(qtbot, ms: int = 30) -> None:
    for _ in range(4):
        QApplication.sendPostedEvents()
        QApplication.processEvents()
    qtbot.wait(ms)


def zoom_all_the_way(qtbot, win, size) -> float:
    win.reset_zoom()
    win.resize(*size)
    qtbot.waitUntil(lambda: (win.width(), win.height()) == size)
    win.fit_sidebar()  # as a window opened at this size shares its width
    while win.zoom_in():
        settle(qtbot, 0)
    settle(qtbot)
    return win.font_scale()


def pages(win):
    """Each main tab, and each page of a tab widget inside it, shown in turn."""
    for i in range(win.tabs.count()):
        win.tabs.setCurrentIndex(i)
        yield win.tabs.tabText(i)
        for inner in win.tabs.widget(i).findChildren(QTabWidget):
            if not inner.isVisible():
                continue
            first = inner.currentIndex()
            for j in range(inner.count()):
                if j != first:
                    inner.setCurrentIndex(j)
                    yield f"{win.tabs.tabText(i)} / {inner.tabText(j)}"
            inner.setCurrentIndex(first)
    win.tabs.setCurrentIndex(0)


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_at_a_projectors_size_zoom_stops_where_every_control_still_shows(qtbot, loaded, lang):
    win = loaded
    try:
        if lang != "en":
            assert set_language(win, lang, remember=False) == ""
        scale = zoom_all_the_way(qtbot, win, PROJECTOR)
        # The largest step at most 1008 / 625 = 1.61: three steps of 1.15.
        assert scale == pytest.approx(style.ZOOM_STEP ** 3) and scale * style.ZOOM_STEP > style.largest_scale(1008)
        said = win.state_label.text()  # the status line says why the zoom stopped, and what gives more
        assert "×1.52" in said and ("F5" in said) and (("最大缩放" in said) if lang != "en" else "Largest zoom" in said)
        problems = {}
        for page in pages(win):
            settle(qtbot)
            problems[page] = clipped(win.tabs.currentWidget(), win)
        skip = tuple(win.tabs.widget(k) for k in range(win.tabs.count())) + (win.formula_dock,)
        problems["sidebar, tab bar, status bar"] = clipped(win, win, skip)
        with qtbot.waitSignal(win.controller.translation_ready, timeout=TIMEOUT):
            win.formula_dock.toggleViewAction().trigger()  # translates again, with q, k and v
        settle(qtbot, 100)
        problems["Attention with the formula dock"] = (clipped(win.tabs.currentWidget(), win)
                                                       + clipped(win.formula_dock, win))
        win.formula_dock.toggleViewAction().trigger()
        assert {page: found for page, found in problems.items() if found} == {}
        assert len(problems) >= 8  # every tab and page was looked at
        # Every tab of the main bar can be clicked: shortened where need be, never hidden behind arrows.
        bar = win.tabs.tabBar()
        assert all(bar.rect().contains(bar.tabRect(i)) for i in range(bar.count()))
    finally:
        win.reset_zoom()
        if lang != "en":
            set_language(win, "en", remember=False)
            i18n.install_language("en")


def test_a_wide_window_zooms_to_the_largest_size(qtbot, loaded):
    win = loaded
    try:
        assert zoom_all_the_way(qtbot, win, (1904, 1040)) == pytest.approx(style.MAX_SCALE)
        win.resize(*PROJECTOR)  # made narrow again: zooming out works, zooming in waits for room
        qtbot.waitUntil(lambda: win.width() == PROJECTOR[0])
        assert not win.zoom_in() and win.font_scale() == pytest.approx(style.MAX_SCALE)
        win.zoom_out()
        assert win.font_scale() == pytest.approx(style.MAX_SCALE / style.ZOOM_STEP)
    finally:
        win.reset_zoom()


def test_the_largest_scale_follows_the_width():
    assert style.largest_scale(500) == 1.0  # the plain size is always offered
    assert style.largest_scale(1008) == pytest.approx(1.6128)
    assert style.largest_scale(1264) >= style.ZOOM_STEP ** 5  # 1280 × 800 less a frame: ×2.01, clean there
    assert style.largest_scale(4000) == style.MAX_SCALE
