"""A pasted text's sentences beside their translations: the row chosen is the sentence every view shows.

The model translates one sentence at a time (it was trained on single sentences), so a paragraph is split
and each sentence translated on its own (model.paragraphs). This table lays them side by side, source on
the left, translation on the right, so a translator checks that every sentence is there; a sentence that
produced nothing or made the model repeat itself says so in its own row. Choosing a row asks for that
sentence's attention: the maps, the Step tab and the formula dock then all show it.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QColor, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QPlainTextEdit, QTableWidget, QTableWidgetItem

from explorer.translate.confidence import show_confidence
from explorer.ui.i18n import N_, tr
from explorer.ui.message_forms import MessageForms
from model.records import Paragraph

VISIBLE_ROWS = 5  # rows shown before the table scrolls: the column below it must stay reachable
FLAG_COLOUR = QColor(180, 40, 30)


# The model's notes (model.paragraphs.translate_text.NOTES), each a form said again in the window's language.
NOTE_FORMS = MessageForms((
    N_("the model repeated itself"),
    N_("stopped at the length limit"),
    N_("no translation came out"),
    N_("too long for the model: translated in {parts} parts"),
    N_("a part of it produced no translation (marked […])"),
), numbers=("parts",))


def note_text(note: str) -> str:
    """A flagged sentence's note in the window's language (the model's notes are English, joined by "; ")."""
    return "; ".join(NOTE_FORMS.say(part) for part in note.split("; ")) if note else ""


def paragraph_counts(paragraph: Paragraph) -> str:
    """"5 sentences in, 5 translations out", and how many of them came out empty: the count is checked."""
    n, empty = len(paragraph.sentences), paragraph.empty
    said = tr("{n} sentences in, {n} translations out", n=n)
    return said + (" · " + tr("{k} came out empty (marked)", k=empty) if empty else "")


def show_paragraph_text(view: QPlainTextEdit, paragraph: Paragraph, translation) -> None:
    """The whole translation in ``view``, the chosen sentence underlined and tinted by its pieces'
    probabilities (``translation`` is that sentence's), and scrolled into sight."""
    view.setCurrentCharFormat(QTextCharFormat())  # else the text comes in with the last mark's underline
    view.setPlainText(paragraph.text)
    start, end = paragraph.sentences[paragraph.selected].span
    show_confidence(view, paragraph.text, translation.target_pieces, translation.piece_probs, start=start)
    mark = QTextCharFormat()
    mark.setFontUnderline(True)
    cursor = QTextCursor(view.document())
    cursor.setPosition(start)
    cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
    cursor.mergeCharFormat(mark)
    _bring_into_sight(view, start, end)
    # Again once the panel has laid itself out: the box may change height with the lines under it.
    QTimer.singleShot(0, view, lambda: _bring_into_sight(view, start, end))


def _bring_into_sight(view: QPlainTextEdit, start: int, end: int) -> None:
    """Scroll so that the sentence from ``start`` to ``end`` is seen whole (its start, if it is taller than
    the box), the cursor left at its start. Its start alone was scrolled to: a sentence of two lines at
    the box's bottom edge showed only its first."""
    if start > len(view.toPlainText()):
        return  # another text came meanwhile
    cursor = QTextCursor(view.document())
    cursor.setPosition(min(end, len(view.toPlainText())))
    view.setTextCursor(cursor)
    view.ensureCursorVisible()
    cursor.setPosition(start)
    view.setTextCursor(cursor)
    view.ensureCursorVisible()


class SentenceTable(QTableWidget):
    """Two columns, Source and Translation, one row per sentence of the text."""

    sentence_chosen = Signal(int)  # the row the user chose, 0-based

    def __init__(self, parent=None) -> None:
        super().__init__(0, 2, parent)
        self.setObjectName("sentence_table")
        self.setHorizontalHeaderLabels([tr("Source"), tr("Translation")])
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setWordWrap(True)
        self.setTabKeyNavigation(False)  # Tab moves on through the column, as everywhere in the panel
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        # In the 1024-px window's sidebar a column is ~100 px, and "Translation" in the header's bold type
        # needs ~105: it was cut mid-letter by the scroll bar ("Translatio"). Cut, it ends in "…".
        header.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.setToolTip(tr("Choose a sentence to see its attention"))
        self._filling = False
        self.itemSelectionChanged.connect(self._on_selection)

    def set_paragraph(self, paragraph: Paragraph | None) -> None:
        """Show ``paragraph``'s sentences with its selected one chosen; None empties the table."""
        self._filling = True  # choosing the row below is ours, not the user's
        try:
            sentences = paragraph.sentences if paragraph is not None else ()
            self.setRowCount(len(sentences))
            for row, s in enumerate(sentences):
                self.setItem(row, 0, QTableWidgetItem(s.source))
                if s.note or not s.text.strip():
                    note = note_text(s.note) or tr("no translation came out")
                    item = QTableWidgetItem(f"{s.text}  [{note}]" if s.text.strip() else f"[{note}]")
                    item.setForeground(FLAG_COLOUR)
                    item.setToolTip(note)
                else:
                    item = QTableWidgetItem(s.text)
                self.setItem(row, 1, item)
            if paragraph is not None and sentences:
                self.selectRow(paragraph.selected)
                self.scrollToItem(self.item(paragraph.selected, 0))
        finally:
            self._filling = False
        self.fit_height()

    def rows(self) -> list[tuple[str, str]]:
        """(source, translation) of every row, as shown."""
        return [(self.item(r, 0).text(), self.item(r, 1).text()) for r in range(self.rowCount())]

    def chosen(self) -> int:
        rows = self.selectionModel().selectedRows()
        return rows[0].row() if rows else -1

    def fit_height(self) -> None:
        """Room for up to VISIBLE_ROWS rows; more scroll inside the table."""
        self.resizeRowsToContents()
        rows = sum(self.rowHeight(r) for r in range(min(self.rowCount(), VISIBLE_ROWS)))
        self.setFixedHeight(rows + self.horizontalHeader().height() + 2 * self.frameWidth() + 2)

    def resizeEvent(self, event) -> None:  # Qt override: wrapped rows grow or shrink with the width
        super().resizeEvent(event)
        if self.rowCount():
            self.fit_height()

    def _on_selection(self) -> None:
        row = self.chosen()
        if not self._filling and row >= 0:
            self.sentence_chosen.emit(row)

    def keyPressEvent(self, event) -> None:  # Qt override: Enter on a row chooses it, like a click
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.chosen() >= 0:
            self.sentence_chosen.emit(self.chosen())
            return
        super().keyPressEvent(event)
