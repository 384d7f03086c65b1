"""The Positional-encoding tab after View › Language at run time, at the sizes the window gives the tab on a
1024 × 768 screen: the clock titles follow the language and stay in it through later fits (a zoom, the
formula dock), the plot titles are fitted again to their new text, and a Chinese clock title neither
leaves one character alone on a line ("个位" over "置") nor runs into its clock. No torch."""

from __future__ import annotations

import re

import pytest
from PySide6 import QtCore, QtWidgets

from explorer.ui import style
from explorer.ui.i18n import install_language
from explorer.window.retranslate import retranslate
from tests.explorer.test_pe_layout import DOCK, FULL, ZOOM2, _glyphs, _tab, _title_is_whole, settle

CJK = re.compile(r"[\u4e00-\u9fff]")
INVISIBLE = dict.fromkeys(map(ord, "\u2060\u2028"))  # a word joiner; Qt's line separator for <br>


@pytest.fixture
def english_after(qapp):
    yield
    install_language("en", qapp)


def switch(tab, language: str, qtbot) -> None:
    """What View › Language does to the tab (language_menu.set_language): the translator, the window's
    walk over the widgets, then the window's retranslate_extras, which calls the tab's retranslate."""
    assert install_language(language) == ""
    retranslate(tab)
    tab.retranslate()
    settle(qtbot)


def lines(label) -> list[str]:
    """A plot title's lines as laid out on screen, without invisible characters."""
    out, block = [], label.item.document().begin()
    while block.isValid():
        layout, text = block.layout(), block.text()
        for i in range(layout.lineCount()):
            line = layout.lineAt(i)
            out.append(text[line.textStart():line.textStart() + line.textLength()].translate(INVISIBLE).strip())
        block = block.next()
    return [line for line in out if line]


def clock_titles(tab) -> list[str]:
    return [" / ".join(lines(clock["plot"].titleLabel)) for clock in tab.clock.clocks]


def faces(view) -> list[QtCore.QRectF]:
    """Each clock's face (radius 1 in its view) in scene pixels."""
    out = []
    for clock in view.clocks:
        box = clock["plot"].vb
        centre = box.mapViewToScene(QtCore.QPointF(0, 0))
        radius = box.mapViewToScene(QtCore.QPointF(1, 0)).x() - centre.x()
        out.append(QtCore.QRectF(centre.x() - radius, centre.y() - radius, 2 * radius, 2 * radius))
    return out


@pytest.mark.parametrize("start,end", [("zh_CN", "en"), ("en", "zh_CN")])
def test_the_clock_titles_follow_a_language_switch_and_keep_it(qtbot, restore_app_look, english_after, start, end):
    assert install_language(start) == ""
    tab = _tab(qtbot, FULL, part="clock")
    switch(tab, end, qtbot)

    def in_new_language() -> bool:
        titles = clock_titles(tab)
        if end == "en":
            return all("one turn" in t and not CJK.search(t) for t in titles)
        return all("转一圈" in t and "turn" not in t for t in titles)

    assert in_new_language(), clock_titles(tab)
    # Every later fit kept the old language's titles: presentation mode, the formula dock, a new shift.
    tab.set_font_scale(ZOOM2)
    settle(qtbot)
    assert in_new_language(), clock_titles(tab)
    tab.resize(*DOCK[ZOOM2])
    settle(qtbot)
    assert in_new_language(), clock_titles(tab)
    tab.clock.set_shift(3)
    settle(qtbot)
    assert in_new_language(), clock_titles(tab)


@pytest.mark.parametrize("size", [FULL, DOCK[1.0]])
def test_the_plot_titles_are_fitted_again_after_a_switch(qtbot, restore_app_look, english_after, size):
    """Chinese → English left the English titles in the Chinese titles' width and row: "Positional /
    encoding PE[pos, / i]", the "i]" under the plot, until a resize. Laid out as a fresh English tab's."""
    assert install_language("zh_CN") == ""
    switched = _tab(qtbot, size)
    switch(switched, "en", qtbot)
    fresh = _tab(qtbot, size)
    for after, new in zip((switched.table.pe_plot, switched.table.sim_plot, switched.table.curve_plot),
                          (fresh.table.pe_plot, fresh.table.sim_plot, fresh.table.curve_plot)):
        assert lines(after.titleLabel) == lines(new.titleLabel)
        assert _title_is_whole(after), (lines(after.titleLabel), after.titleLabel.geometry())


@pytest.mark.parametrize("start", ["zh_CN", "en"])
def test_a_chinese_clock_title_has_no_lone_character_and_stays_off_its_clock(qtbot, restore_app_look, english_after,
                                                                             start):
    """A fresh Chinese start wrapped "转一圈：58,470 个位" over a lone "置"; after English → Chinese, six of
    the eight titles did, in the English titles' two-line row, so that "置" lay on the clock's knob. One
    tab, taken through the sizes and zooms the window gives it (a tab per case cost ~6 s of the suite)."""
    assert install_language(start) == ""
    tab = _tab(qtbot, FULL, 1.0, part="clock")
    if start != "zh_CN":
        switch(tab, "zh_CN", qtbot)
    view = tab.clock
    for size, zoom in ((FULL, 1.0), (DOCK[1.0], 1.0), (FULL, ZOOM2), (DOCK[ZOOM2], ZOOM2)):
        style.set_font_scale(QtWidgets.QApplication.instance(), zoom)  # as the window zooms: both fonts
        tab.set_font_scale(zoom)
        tab.resize(*size)
        settle(qtbot)
        for clock, face in zip(view.clocks, faces(view)):
            label = clock["plot"].titleLabel
            shown = lines(label)
            assert all(len(line.replace(" ", "")) >= 2 for line in shown), (size, zoom, shown)
            glyphs = _glyphs(label)
            assert not glyphs.intersects(face), (size, zoom, shown, glyphs, face)
            # Every line inside the title's own row, as wrapped: the row reserves the lines' height.
            row = label.mapRectToScene(label.boundingRect())
            assert glyphs.top() >= row.top() - 1 and glyphs.bottom() <= row.bottom() + 1, (size, zoom, shown)
