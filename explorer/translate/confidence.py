"""Where the model was unsure: each translated word tinted by its pieces' probability, the number on hover.

The translation's text is decoded from pieces (``▁Der ▁Zug`` → "Der Zug"), so each piece's surface is found
in order in the text and its span gets a background from white (sure) to amber (unsure), and a tooltip
with the probability; a piece whose surface the decoder rewrote (Chinese punctuation, for one) is left
plain rather than guessed. Below ``SURE`` nothing is tinted at all: a translator's eye should go only where
the model hesitated.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QColor, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QPlainTextEdit, QToolTip

from explorer.ui.i18n import tr

SURE = 0.9  # probabilities at or above this are not tinted
_WORD_START = "\u2581"


def spans(text: str, pieces: tuple[str, ...], at: int = 0) -> list[tuple[int, int] | None]:
    """(start, end) of each piece's surface in ``text`` from ``at`` on, in order; None where it cannot be found."""
    out = []
    for piece in pieces:
        surface = piece.replace(_WORD_START, "").strip()
        where = text.find(surface, at) if surface else -1
        after_rewrite = bool(out) and out[-1] is None  # the rewritten piece's own text lies in between
        if where < 0 or (text[at:where].strip() and not after_rewrite):  # not next: the decoder changed it
            out.append(None)
            continue
        out.append((where, where + len(surface)))
        at = where + len(surface)
    return out


def tint(p: float) -> QColor:
    """White at p ≥ SURE, deepening to amber at p = 0 (light enough to read black text on)."""
    x = max(0.0, min(1.0, (SURE - p) / SURE))
    return QColor(255, round(255 - 75 * x), round(255 - 200 * x))


def show_confidence(view: QPlainTextEdit, text: str, pieces: tuple[str, ...], probs: tuple[float, ...],
                    start: int = 0) -> int:
    """Tint ``view``'s text (already set to ``text``) by ``probs``, its pieces looked for from ``start`` on (a
    sentence within a paragraph's translation); returns how many pieces were tinted."""
    doc_cursor = QTextCursor(view.document())
    tinted = 0
    for span, piece, p in zip(spans(text, pieces, start), pieces, probs):
        if span is None:
            continue
        fmt = QTextCharFormat()
        fmt.setToolTip(tr("P({piece}) = {p:.2f}", piece=piece.replace(_WORD_START, ""), p=p))
        if p < SURE:
            fmt.setBackground(tint(p))
            fmt.setForeground(QColor(0, 0, 0))  # the tints are light: dark text on them in either theme
            tinted += 1
        doc_cursor.setPosition(span[0])
        doc_cursor.setPosition(span[1], QTextCursor.MoveMode.KeepAnchor)
        doc_cursor.mergeCharFormat(fmt)
    return tinted


class PieceToolTips(QObject):
    """Shows the tooltip of the character under the mouse (a plain text edit does not do this by itself)."""

    def __init__(self, view: QPlainTextEdit) -> None:
        super().__init__(view)
        self.view = view
        view.viewport().installEventFilter(self)

    def tip_at(self, pos) -> str:
        cursor = self.view.cursorForPosition(pos)
        if not cursor.atBlockEnd():
            cursor.movePosition(QTextCursor.MoveOperation.NextCharacter)  # the format of the char under pos
        return cursor.charFormat().toolTip()

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.ToolTip:
            tip = self.tip_at(event.pos())
            if tip:
                QToolTip.showText(event.globalPos(), tip, self.view)
            else:
                QToolTip.hideText()
            return True
        return False
