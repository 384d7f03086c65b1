"""The sentence panel's "Recent sentences" on a 1024 × 768 projector zoomed twice (#31 item 11): long
sentences end in "…" within the column, with no horizontal scroll bar, and each row's tooltip holds the
whole sentence, in English and Chinese (fake model, no torch)."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QFontInfo, QFontMetrics
from PySide6.QtWidgets import QApplication

from explorer.ui.elided_list import ElidedList

TIMEOUT = 10_000
CLIENT = (1008, 728)  # what a 1024 × 768 screen leaves the window inside its frame
LONG = ("The quick brown fox jumps over the lazy dog near the river bank .",
        "My grandmother always told me that patience is the most important virtue of all .",
        "Students who read the attention maps carefully will see which words the model looks at .")


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_long_recent_sentences_fit_the_column_at_zoom_2(qtbot, loaded, lang):
    from explorer.window.language_menu import set_language  # noqa: PLC0415

    win = loaded
    if lang != "en":
        assert set_language(win, lang, remember=False) == ""
    try:
        win.resize(*CLIENT)
        qtbot.waitUntil(lambda: (win.width(), win.height()) == CLIENT)
        win.fit_sidebar()
        win.reset_zoom()
        win.zoom_in()
        win.zoom_in()
        panel = win.translate_panel
        column = panel.width()
        for sentence in LONG:
            panel.set_text(sentence)
            with qtbot.waitSignal(win.controller.translation_ready, timeout=TIMEOUT):
                panel.request_translation()
        history = panel.history_list
        assert panel.history()[:3] == list(reversed(LONG))
        QApplication.processEvents()
        bar = history.horizontalScrollBar()
        assert not bar.isVisible() and bar.maximum() == 0
        viewport = history.viewport().width()
        for row in range(3):
            item = history.item(row)
            assert history.visualItemRect(item).width() <= viewport  # cut to the row, not beyond it
            assert item.toolTip() == item.text() == LONG[2 - row]  # the whole sentence on hover
            assert history.fontMetrics().horizontalAdvance(item.text()) > viewport  # so it is cut: "…"
        assert panel.width() <= column  # the sentences did not widen the column
    finally:
        if lang != "en":
            set_language(win, "en", remember=False)


def test_rows_follow_the_lists_width(qtbot):
    view = ElidedList()
    qtbot.addWidget(view)
    view.resize(160, 100)
    view.show()
    view.addItems(["short", LONG[0]])
    view.insertItem(0, LONG[1])
    qtbot.waitUntil(lambda: view.visualItemRect(view.item(2)).width() <= view.viewport().width())
    view.resize(320, 100)
    qtbot.waitUntil(lambda: view.visualItemRect(view.item(0)).width() == view.viewport().width() > 250)
    assert view.horizontalScrollBar().maximum() == 0
    assert [view.item(i).toolTip() for i in range(3)] == [LONG[1], "short", LONG[0]]


def test_the_recent_rows_stay_whole_when_zoomed_after_them(qtbot, loaded):
    """Sentences first, Ctrl+= after: the list's height followed its rows' old height, and the third
    sentence was cut in half (its rows grow with the font only once the font has reached the list)."""
    win = loaded
    win.resize(*CLIENT)
    qtbot.waitUntil(lambda: (win.width(), win.height()) == CLIENT)
    win.fit_sidebar()
    win.reset_zoom()
    panel = win.translate_panel
    for sentence in (*LONG[:2], "The cat sat on the mat."):  # a short one last, as the screenshots' sentence
        panel.set_text(sentence)
        with qtbot.waitSignal(win.controller.translation_ready, timeout=TIMEOUT):
            panel.request_translation()
    history = panel.history_list
    assert history.count() == 4  # the window's own first sentence, then these three
    win.zoom_in()
    win.zoom_in()

    # The zoomed font reaches the list after the window's zoom has returned: wait for it, then for rows.
    qtbot.waitUntil(lambda: history.sizeHintForRow(0) >= history.fontMetrics().height()
                    and QFontInfo(history.font()).pixelSize() == QFontInfo(QApplication.font()).pixelSize())
    row = history.sizeHintForRow(0)
    assert row >= QFontMetrics(QApplication.font()).height()

    def whole() -> bool:
        last = history.visualItemRect(history.item(history.count() - 1))
        return last.height() == row and last.bottom() < history.viewport().height()

    qtbot.waitUntil(whole, timeout=2000)
    assert history.verticalScrollBar().maximum() == 0
