"""The translation box keeps a Chinese line's last two characters together, invisibly to what is copied.

A helper's walk-through of the Chinese window (2026-12-05) saw "没有人知道他去了哪儿。" end on a line of
its own holding "儿。"."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6.QtGui import QGuiApplication, QTextCursor

from explorer.translate.confidence import show_confidence, tint
from explorer.translate.panel import TranslatePanel
from explorer.translate.translation_box import JOINER, TranslationBox, joiner_position
from tests.explorer.conftest import make_translation

WHERE = "没有人知道他去了哪儿。"
PIECES = ("▁没有", "人", "知道", "他", "去了", "哪", "儿", "。")
PROBS = (0.99, 0.97, 0.95, 0.99, 0.5, 0.4, 0.3, 0.99)


def _ideographs(text: str) -> int:
    return sum("\u4e00" <= ch <= "\u9fff" for ch in text)


def _lines(box: TranslationBox) -> list[str]:
    lines, block = [], box.document().begin()
    while block.isValid():
        layout = block.layout()
        for i in range(layout.lineCount()):
            line = layout.lineAt(i)
            lines.append(block.text()[line.textStart():line.textStart() + line.textLength()])
        block = block.next()
    return lines


@pytest.mark.parametrize(("text", "at"), [
    (WHERE, WHERE.index("儿")),  # before the last character; the full stop stays with it anyway
    ("我爱苹果", 3),
    ("“你好吗？”", 3),  # closing punctuation after the last character
    ("我。", None),  # one character: nothing to keep it with
    ("价格是5元", None),  # a digit before the last character: lines may not break there anyway
    ("他用Python", None),  # ends in a Latin word, which never breaks inside
    ("Der Zug war voll.", None),
    ("", None),
])
def test_the_joiner_goes_before_the_last_of_two_ideographs(text, at):
    assert joiner_position(text) == at


def test_at_no_width_does_the_last_line_hold_one_character_alone(qtbot):
    box = TranslationBox()
    qtbot.addWidget(box)
    font = box.font()
    font.setPointSizeF(15)  # the app's translation font is 1.5 × the base size
    box.setFont(font)
    box.setPlainText(WHERE)
    box.keep_last_two_together()
    box.show()
    qtbot.waitExposed(box)
    wrapped = 0
    for width in range(100, 420, 4):
        box.resize(width, 300)
        QGuiApplication.processEvents()
        lines = _lines(box)
        if len(lines) > 1:
            wrapped += 1
            assert _ideographs(lines[-1]) >= 2, (width, lines)
    assert wrapped > 20  # the widths did make it wrap
    assert box.plain_text() == WHERE and box.toPlainText().count(JOINER) == 1


def test_the_tints_stay_on_their_characters_and_copying_leaves_the_joiner_out(qtbot):
    box = TranslationBox()
    qtbot.addWidget(box)
    box.setPlainText(WHERE)
    show_confidence(box, WHERE, PIECES, PROBS)
    box.keep_last_two_together()
    shown = box.toPlainText()
    assert shown.replace(JOINER, "") == WHERE and shown.index(JOINER) == WHERE.index("儿")
    for ch, p in (("去", 0.5), ("哪", 0.4), ("儿", 0.3)):
        cursor = QTextCursor(box.document())
        cursor.setPosition(shown.index(ch) + 1)  # the format of the character before the cursor
        assert cursor.charFormat().background().color() == tint(p), ch
    box.selectAll()
    box.copy()
    assert QGuiApplication.clipboard().text() == WHERE
    cursor = box.textCursor()  # a selection across the joiner alone
    cursor.setPosition(shown.index("哪"))
    cursor.setPosition(shown.index("。"), QTextCursor.MoveMode.KeepAnchor)
    box.setTextCursor(cursor)
    box.copy()
    assert QGuiApplication.clipboard().text() == "哪儿"


def test_the_panel_reads_and_copies_the_translation_as_the_model_wrote_it(qtbot):
    panel = TranslatePanel()
    qtbot.addWidget(panel)
    translation = replace(make_translation("Nobody knows where he went."), text=WHERE, target_pieces=PIECES,
                          piece_probs=PROBS)
    panel.set_translation(translation)
    assert JOINER in panel.translation_view.toPlainText()
    assert panel.translation_text() == WHERE
    panel.copy_translation()
    assert QGuiApplication.clipboard().text() == WHERE


def test_copy_says_in_the_status_line_what_it_copied(loaded, qtbot):
    """The walk-through's Copy gave no sign that it had done anything; the status line still said "Ready"."""
    from PySide6.QtCore import Qt
    panel = loaded.translate_panel
    text = panel.translation_text()
    assert text and loaded.state_label.text() != ""
    qtbot.mouseClick(panel.copy_button, Qt.MouseButton.LeftButton)
    assert QGuiApplication.clipboard().text() == text
    assert loaded.state_label.text() == f"Copied the translation ({len(text)} characters)"
