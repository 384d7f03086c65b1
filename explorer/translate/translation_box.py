"""The box the translation is shown in: read-only text that never ends a Chinese line on one character.

Chinese (and Japanese) text may break between any two characters, so a translation one character too long
for its line left that character and the full stop alone under it ("没有人知道他去了哪" / "儿。"): a
line typesetters avoid, and on a projector it reads like a second, broken sentence. A word joiner (U+2060,
invisible, no width) between the last two characters keeps them together, so at least two move down.

The joiner is in the box's document only: the text the panel reads back, Copy and a copied selection
leave it out, so the clipboard and the tests see the translation as the model wrote it.
"""

from __future__ import annotations

from PySide6.QtCore import QMimeData
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QPlainTextEdit

JOINER = "\u2060"


def _is_ideograph(ch: str) -> bool:
    """A character Chinese or Japanese lines may break on either side of (CJK ideographs and kana)."""
    code = ord(ch)
    return (0x4E00 <= code <= 0x9FFF or 0x3400 <= code <= 0x4DBF or 0xF900 <= code <= 0xFAFF
            or 0x3040 <= code <= 0x30FF or 0x20000 <= code <= 0x2FA1F)


def joiner_position(text: str) -> int | None:
    """Where a joiner keeps the last two characters of ``text`` together: before its last ideograph,
    when the character before that is an ideograph too (punctuation after it already stays with it;
    Latin words do not break inside). None for text without two such characters at its end."""
    last = next((i for i in range(len(text) - 1, -1, -1) if _is_ideograph(text[i])), None)
    if last is None or last == 0 or not _is_ideograph(text[last - 1]):
        return None
    if any(ch.isalnum() for ch in text[last + 1:]):
        return None  # Latin or digits follow: the line ends on those, not on the ideograph
    return last


class TranslationBox(QPlainTextEdit):
    """A read-only plain-text box whose last line of Chinese keeps at least two characters."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.setTabChangesFocus(True)

    def keep_last_two_together(self) -> None:
        """Put a joiner before the last ideograph of each line of the shown text, where it has one before
        it. Call after any work that counts positions in the text (the tints): the joiner shifts the
        characters after it by one."""
        block = self.document().lastBlock()
        while block.isValid():
            at = joiner_position(block.text())
            if at is not None:
                cursor = QTextCursor(block)
                # Qt counts UTF-16 units: a character past U+FFFF before ``at`` is two of them.
                cursor.setPosition(block.position() + len(block.text()[:at].encode("utf-16-le")) // 2)
                cursor.insertText(JOINER)
            block = block.previous()

    def plain_text(self) -> str:
        """The text as given, without the joiners."""
        return self.toPlainText().replace(JOINER, "")

    def createMimeDataFromSelection(self) -> QMimeData:  # noqa: N802 - Qt's name
        """A copied (or dragged) selection without the joiners: pasted elsewhere, an invisible character
        inside a word breaks searching and counting."""
        data = QMimeData()
        data.setText(self.textCursor().selection().toPlainText().replace(JOINER, ""))
        return data
