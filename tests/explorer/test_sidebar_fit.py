"""The sentence column on a 1024 × 768 screen: boxes as tall as what they hold, no blank gap after the
unknown-piece warning, and the model's facts on screen without scrolling (issue 31, item 7)."""

from __future__ import annotations

import dataclasses

from PySide6.QtCore import QPoint, QSize

from .conftest import make_translation

SCREEN_CLIENT = QSize(1008, 728)  # what fit_to_screen gives on a 1024 × 768 screen


def _settle(qtbot, win) -> None:
    qtbot.wait(30)  # the relayouts the new texts queue


def _text_height(label) -> int:
    """The height a word-wrapped label's text needs at the label's width (measured afresh)."""
    from PySide6.QtCore import QRect, Qt  # noqa: PLC0415

    rect = label.fontMetrics().boundingRect(QRect(0, 0, label.width(), 10_000), Qt.TextFlag.TextWordWrap,
                                            label.text())
    return rect.height()


def test_unknown_warning_leaves_no_gap_and_boxes_fit_their_text(qtbot, loaded):
    win = loaded
    win.resize(SCREEN_CLIENT)
    qtbot.waitUntil(lambda: win.size() == SCREEN_CLIENT)
    tp = win.translate_panel
    unknown = dataclasses.replace(make_translation("Hallo 😀 你 好 world again"), unknown_pieces=3)
    for translation in (make_translation("The weather is nice today ."), unknown,
                        make_translation("Another plain sentence"), unknown):
        win._on_translation(translation)
        _settle(qtbot, win)
        if translation.unknown_pieces:
            label = tp.unknown_label
            assert label.isVisible()
            # The label was once fitted to a 1-px width and stood 380 px tall, its text in the middle.
            assert label.height() <= _text_height(label) + 6
            assert label.geometry().top() - tp.detail_label.geometry().bottom() <= 12
        # Two lines of translation take a box of two lines, not five with three blank.
        view = tp.translation_view
        assert view.height() <= 3 * view.fontMetrics().lineSpacing() + 2 * view.frameWidth() + 12
    history = tp.history_list
    assert history.count() == 4  # with the default sentence the fixture translated
    assert history.height() <= 4 * history.sizeHintForRow(0) + 2 * history.frameWidth() + 6


def test_a_long_translation_still_gets_five_lines(qtbot, loaded):
    from explorer.translate.panel_fit import TRANSLATION_LINES  # noqa: PLC0415

    tp = loaded.translate_panel
    loaded._on_translation(make_translation(" ".join(["word"] * 80)))
    _settle(qtbot, loaded)
    view = tp.translation_view
    assert view.height() >= TRANSLATION_LINES * view.fontMetrics().lineSpacing()


def test_model_facts_are_on_a_1024_by_768_screen_without_scrolling(qtbot, loaded):
    win = loaded
    win.resize(SCREEN_CLIENT)
    qtbot.waitUntil(lambda: win.size() == SCREEN_CLIENT)
    win._on_translation(make_translation("The weather is nice today ."))
    _settle(qtbot, win)
    viewport = win.sidebar.viewport()
    assert win.sidebar.verticalScrollBar().value() == 0
    device = win.info_panel._values["Device"]
    bottom = device.mapTo(viewport, QPoint(0, device.height())).y()
    assert device.isVisible() and bottom <= viewport.height()  # the last headline fact, above the fold


def test_an_empty_wrapped_label_is_not_given_a_negative_height(qtbot, loaded, qtlog):
    # An empty word-wrapped QLabel has no height for a width (-1); fixing that as its height printed
    # "QWidget::setMinimumSize: (/QLabel) Negative sizes (0,-1)" on every relayout of the column.
    win = loaded
    tp = win.translate_panel
    tp.detail_label.setText("")
    tp.detail_label.show()
    win.resize(SCREEN_CLIENT)
    qtbot.waitUntil(lambda: win.size() == SCREEN_CLIENT)
    win.resize(1100, 760)
    qtbot.waitUntil(lambda: win.width() == 1100)
    _settle(qtbot, win)
    assert not [r.message for r in qtlog.records if "Negative sizes" in r.message]
    assert tp.detail_label.height() >= 0
