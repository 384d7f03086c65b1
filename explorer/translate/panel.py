"""The translate panel: source sentence in, translation out, and a short history of sentences.

A text of several sentences comes back sentence by sentence: the whole translation in the box, the
sentences side by side below it (``SentenceTable``), and the one chosen there marked in the box; its
attention is what the views show.

It only binds widgets. It does not know about the model: it emits ``translate_requested`` and the
window passes that on to the controller, then hands back the Translation with ``set_translation``.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QGuiApplication, QTextCharFormat
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QSizePolicy, QSpinBox, QVBoxLayout, QWidget

from explorer.translate.confidence import PieceToolTips, show_confidence
from explorer.translate.panel_fit import PanelFit
from explorer.translate.result_lines import detail_line, unknown_note
from explorer.translate.sentence_table import SentenceTable, show_paragraph_text
from explorer.translate.source_edit import SourceEdit
from explorer.translate.translation_box import TranslationBox
from explorer.ui.elided_list import ElidedList
from explorer.ui.i18n import tr
from explorer.ui.style import make_error, make_heading, make_muted, make_primary, scaled_font

MAX_HISTORY = 10
DEFAULT_SENTENCE = "The weather is nice today."


def _heading(text: str) -> QLabel:
    return make_heading(QLabel(text))


class TranslatePanel(PanelFit, QWidget):
    """Source editor, beam size, Translate button, the translation in large type, and history."""

    translate_requested = Signal(str, int)  # text, beam size
    copied = Signal(str)  # what Copy put on the clipboard (the window says so: a click gave no sign at all)
    # The button while a translation runs long (a paragraph of hundreds of sentences takes a minute): Stop.
    stop_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.source_edit = SourceEdit()  # Enter translates, Shift+Enter a new line
        self.source_edit.setPlaceholderText("Type a sentence, then press Enter (Shift+Enter: a new line)")
        self.source_edit.setTabChangesFocus(True)  # Tab moves on; a sentence never needs a tab
        self.source_edit.setPlainText(DEFAULT_SENTENCE)
        self.source_edit.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)

        self.beam_spin = QSpinBox()
        self.beam_spin.setRange(1, 8)
        # Beam 4 with length penalty 0.6, as in the paper (section 6.1) and the command line: a better
        # translation than greedy for ~0.1 s more. 1 is greedy decoding, one best piece at a time.
        self.beam_spin.setValue(4)
        self.beam_spin.setToolTip("Beam size: 4 as in the paper; 1 is greedy decoding (one best piece at a time)")
        self.translate_button = QPushButton("Translate")
        make_primary(self.translate_button)
        self.translate_button.setToolTip("Translate the sentence (Enter)")
        self.translate_button.clicked.connect(self._on_button)
        self._busy = False
        self.source_edit.submitted.connect(self.request_translation)

        # A read-only editor rather than a word-wrapped label: a label's height depends on its width,
        # which splitters ignore, so a long translation would be clipped; this one scrolls instead.
        self.translation_view = TranslationBox()
        self.piece_tips = PieceToolTips(self.translation_view)  # each piece's probability on hover
        self.detail_label = QLabel("")
        make_muted(self.detail_label)
        # Wrapped: on one line it set the column's minimum width, and zoomed twice at 1024 px its
        # "11 → 10 pieces · score -1.82 · mean log P -0.32" made the column half the window.
        self.detail_label.setWordWrap(True)
        # Pieces the vocabulary lacks (emoji, Chinese for an English model) are said plainly: the model
        # still writes fluent German for such input, which would otherwise look like a real translation.
        self.unknown_label = QLabel("")
        make_error(self.unknown_label)
        self.unknown_label.setWordWrap(True)
        self.unknown_label.hide()
        self.error_label = QLabel("")
        make_error(self.error_label)
        self.error_label.setTextFormat(Qt.TextFormat.PlainText)
        self.error_label.setWordWrap(True)
        self.error_label.hide()

        # A text of several sentences: each beside its translation; the row chosen is the one the views show.
        self.sentence_table = SentenceTable()
        self.sentence_table.sentence_chosen.connect(self.choose_sentence)
        self.sentence_table.hide()
        self._paragraph = None  # model.records.Paragraph shown, None for a single sentence
        self._shown = None  # the Translation shown
        self.copy_button = QPushButton("Copy")
        self.copy_button.setToolTip("Copy the whole translation")
        self.copy_button.clicked.connect(self.copy_translation)
        self.copy_button.setEnabled(False)

        self.history_list = ElidedList()  # a long sentence ends in "…" (whole in its tooltip), no sideways scroll
        self.history_list.setToolTip("Click a sentence to translate it again")
        self.history_list.itemClicked.connect(lambda item: self.use_history(item.text()))
        self.history_list.itemActivated.connect(lambda item: self.use_history(item.text()))
        self.history_list.rows_resized.connect(self._fit_boxes)  # a zoom's font reaches the list late
        # Boxes sized to what they hold: a box kept at its largest (five lines for a two-line translation,
        # five rows for one sentence) left blank gaps and pushed the model facts below a 1024 × 768 screen.
        for edit in (self.source_edit, self.translation_view):
            edit.document().documentLayout().documentSizeChanged.connect(self._fit_boxes)

        row = QHBoxLayout()
        row.addWidget(QLabel("Beam"))
        row.addWidget(self.beam_spin)
        row.addStretch(1)
        row.addWidget(self.translate_button)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.addWidget(_heading("Source sentence"))
        layout.addWidget(self.source_edit)
        layout.addLayout(row)
        layout.addSpacing(6)
        heading = QHBoxLayout()
        heading.addWidget(_heading("Translation"))
        heading.addStretch(1)
        heading.addWidget(self.copy_button)
        layout.addLayout(heading)
        layout.addWidget(self.translation_view)
        layout.addWidget(self.sentence_table)
        layout.addWidget(self.detail_label)
        layout.addWidget(self.unknown_label)
        layout.addWidget(self.error_label)
        layout.addSpacing(6)
        layout.addWidget(_heading("Recent sentences"))
        layout.addWidget(self.history_list)
        self.set_font_scale(1.0)

    # -- reading and driving -----------------------------------------------------------------

    def text(self) -> str:
        return self.source_edit.toPlainText().strip()

    def set_text(self, text: str) -> None:
        self.source_edit.setPlainText(text)

    def translation_text(self) -> str:
        return self.translation_view.plain_text()

    def beam_size(self) -> int:
        return self.beam_spin.value()

    def set_beam_size(self, size: int) -> None:
        """Choose the beam size (a lesson slide replays its own); the next translation uses it."""
        self.beam_spin.setValue(size)

    def add_below_error(self, widget: QWidget) -> None:
        """Show ``widget`` under the error line (the ablation box): the panel keeps its layout to itself."""
        layout = self.layout()
        layout.insertWidget(layout.indexOf(self.error_label) + 1, widget)

    def request_translation(self) -> None:
        """Emit ``translate_requested`` for the current text (empty text too: the window refuses it with a
        message rather than a silently dead button)."""
        self.translate_requested.emit(self.text(), self.beam_size())

    def sentence_for(self, text: str) -> int:
        """Which sentence of ``text`` the views should show: the one chosen in the table while ``text`` is
        the text it lists (a view asking for more of what is shown), else the first."""
        if self._paragraph is not None and text == self._paragraph.source:
            return max(0, self.sentence_table.chosen())
        return 0

    def choose_sentence(self, index: int) -> None:
        """Show sentence ``index`` of the text in every view (it is translated again, with its attention)."""
        if self._paragraph is not None and index != self._paragraph.selected:
            self.request_translation()

    def copy_translation(self) -> None:
        """The whole translation to the clipboard, every sentence of it, in the text's lines."""
        text = self.translation_text()
        QGuiApplication.clipboard().setText(text)
        self.copied.emit(text)

    def use_history(self, text: str) -> None:
        self.set_text(text)
        self.request_translation()

    # -- showing results ---------------------------------------------------------------------

    def set_translation(self, translation) -> None:
        """Show a Translation (or clear with None) and remember its source in the history."""
        self.error_label.hide()
        note = unknown_note(translation) if translation is not None else ""
        self.unknown_label.setText(note)
        self.unknown_label.setVisible(bool(note))
        self._fit_wrapped()
        paragraph = translation.paragraph if translation is not None else None
        self._paragraph = paragraph
        self.sentence_table.set_paragraph(paragraph)
        self.sentence_table.setVisible(paragraph is not None)
        self.copy_button.setEnabled(translation is not None)
        if translation is None:
            self._shown = None
            self.translation_view.setPlainText("")
            self.detail_label.setText("")
            return
        if paragraph is None:
            self.translation_view.setCurrentCharFormat(QTextCharFormat())  # no underline left from a paragraph
            self.translation_view.setPlainText(translation.text)
            show_confidence(self.translation_view, translation.text, translation.target_pieces,
                            translation.piece_probs)
            self.translation_view.keep_last_two_together()  # after the tints, which count positions
        else:
            show_paragraph_text(self.translation_view, paragraph, translation)
        self._shown = translation
        detail = detail_line(translation)
        self.detail_label.setText(detail)
        self._fit_wrapped()
        self.add_history(paragraph.source if paragraph is not None else translation.source)

    def retranslate(self) -> None:
        """After a language switch: the line under the translation made again (it is several texts joined,
        which the window's walk cannot take apart; it stayed in the old language until the next sentence)."""
        if self._shown is not None and self.detail_label.text():
            self.detail_label.setText(detail_line(self._shown))
            self._fit_wrapped()

    def show_error(self, message: str) -> None:
        """Show why a translation failed; the previous translation goes, as it no longer matches."""
        self._paragraph = None
        self.sentence_table.set_paragraph(None)
        self.sentence_table.hide()
        self.copy_button.setEnabled(False)
        self.translation_view.setPlainText("")
        self.detail_label.setText("")
        self.unknown_label.hide()
        self.error_label.setText(message)
        self.error_label.show()
        self._fit_wrapped()

    def show_note(self, message: str) -> None:
        """Say ``message`` where errors go, leaving the translation shown (a refused empty sentence)."""
        self.error_label.setText(message)
        self.error_label.show()
        self._fit_wrapped()

    def set_busy(self, busy: bool, stoppable: bool = False) -> None:
        """Grey out the translation while a new one is computed: it belongs to the old sentence. While a
        translation runs (``stoppable``), the button stops it: it said "Translating…" and did nothing, and a
        375-sentence paragraph ran a minute with no way to stop it but typing another sentence."""
        self._busy = busy and stoppable
        self.translation_view.setEnabled(not busy)
        self.translate_button.setText(tr("Stop") if self._busy else tr("Translating…") if busy else tr("Translate"))
        self.translate_button.setToolTip(tr("Stop this translation: the one shown stays") if self._busy
                                         else tr("Translate the sentence (Enter)"))

    def _on_button(self) -> None:
        self.stop_requested.emit() if self._busy else self.request_translation()

    def add_history(self, text: str) -> None:
        """Put ``text`` at the top of the history, once, keeping the list short."""
        text = text.strip()
        if not text:
            return
        for i in range(self.history_list.count() - 1, -1, -1):
            if self.history_list.item(i).text() == text:
                self.history_list.takeItem(i)
        self.history_list.insertItem(0, text)
        while self.history_list.count() > MAX_HISTORY:
            self.history_list.takeItem(self.history_list.count() - 1)
        self.history_list.setCurrentRow(0)  # the highlight follows the sentence to the top
        self._fit_boxes()

    def history(self) -> list[str]:
        return [self.history_list.item(i).text() for i in range(self.history_list.count())]

    def set_model_ready(self, ready: bool) -> None:
        self.translate_button.setEnabled(ready)

    def set_font_scale(self, scale: float) -> None:
        """Re-derive the large translation font from the (already scaled) application font."""
        del scale  # the app font carries the scale; the translation is always 1.5× of it
        self.translation_view.setFont(scaled_font(1.5))
        self.source_edit.setFont(scaled_font(1.25))  # the sentence under discussion reads larger
        self._fit_boxes()

