"""The translation tinted by each piece's probability, the number on hover (#30)."""

from __future__ import annotations

import math

from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QPlainTextEdit

from explorer.translate.confidence import SURE, PieceToolTips, show_confidence, spans, tint
from tests.explorer.conftest import make_translation


def test_each_piece_is_found_in_the_decoded_text_in_order():
    text = "Der Zug war voll."
    pieces = ("▁Der", "▁Zug", "▁war", "▁vol", "l", ".")
    assert spans(text, pieces) == [(0, 3), (4, 7), (8, 11), (12, 15), (15, 16), (16, 17)]
    # a surface the decoder rewrote (，for ,) is left out, the rest still found
    assert spans("我爱，苹果", ("▁我", "爱", ",", "苹果")) == [(0, 1), (1, 2), None, (3, 5)]


def _format_at(view, position):
    cursor = QTextCursor(view.document())
    cursor.setPosition(position + 1)  # the format of the character before the cursor
    return cursor.charFormat()


def test_unsure_pieces_are_tinted_sure_ones_are_not_and_every_one_has_its_number(qtbot):
    view = QPlainTextEdit()
    qtbot.addWidget(view)
    text, pieces, probs = "Der Zug war voll.", ("▁Der", "▁Zug", "▁war", "▁voll", "."), (0.98, 0.31, 0.95, 0.6, 0.99)
    view.setPlainText(text)
    assert show_confidence(view, text, pieces, probs) == 2
    zug, der = _format_at(view, 4), _format_at(view, 0)
    assert zug.background().color() == tint(0.31) and zug.toolTip() == "P(Zug) = 0.31"
    assert der.background().style().name == "NoBrush" and der.toolTip() == "P(Der) = 0.98"
    assert tint(SURE).name() == "#ffffff" and tint(0.0).name() != "#ffffff"
    assert tint(0.1).green() < tint(0.6).green()  # deeper where less sure
    view.resize(400, 100)
    view.show()
    qtbot.waitExposed(view)
    tips = PieceToolTips(view)
    rect = view.cursorRect(_cursor(view, 5))
    assert tips.tip_at(rect.center()) == "P(Zug) = 0.31"


def _cursor(view, position):
    cursor = QTextCursor(view.document())
    cursor.setPosition(position)
    return cursor


def test_the_panel_shows_the_mean_log_probability(qtbot):
    from dataclasses import replace

    from explorer.translate.panel import TranslatePanel
    panel = TranslatePanel()
    qtbot.addWidget(panel)
    t = make_translation("I love apples.")
    t = replace(t, piece_probs=tuple(0.5 for _ in t.target_pieces))
    panel.set_translation(t)
    assert f"mean log P {math.log(0.5):.2f}" in panel.detail_label.text()
    panel.set_translation(replace(t, piece_probs=()))
    assert "log P" not in panel.detail_label.text()
