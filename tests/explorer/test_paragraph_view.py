"""A pasted paragraph in the window: every sentence translated and listed beside its source, the chosen one
shown in every view, the whole translation copied in one action (#30)."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QGuiApplication, QTextCursor

from explorer.translate.panel import TranslatePanel
from model.records import Paragraph, ParagraphSentence
from tests.explorer.conftest import REAL_TIMEOUT, make_translation, open_real_window

PARAGRAPH = ("I arrived late. The train was full. Nobody helped me.\n\n"
             "Where is the station? My sister lives in Berlin.")
SENTENCES = ["I arrived late.", "The train was full.", "Nobody helped me.", "Where is the station?",
             "My sister lives in Berlin."]


@pytest.fixture
def builtin_dir():
    from model.checkpoint import default_model_dir
    path = default_model_dir()
    if path is None:
        pytest.skip("no built-in model")
    return path


def test_a_paragraph_comes_back_sentence_by_sentence_and_each_one_can_be_shown(qtbot, builtin_dir):
    win = open_real_window(qtbot, builtin_dir, PARAGRAPH, (1024, 768))
    panel, shown = win.translate_panel, win.controller.translation
    paragraph = shown.paragraph
    assert [s.source for s in paragraph.sentences] == SENTENCES
    table = panel.sentence_table
    assert table.isVisible() and table.rowCount() == 5
    rows = table.rows()
    assert [src for src, _ in rows] == SENTENCES
    assert all(out.strip() for _, out in rows)  # five German sentences, none lost
    # the whole translation in the box, in the text's shape: line 1 holds three sentences, then a blank line
    lines = panel.translation_text().split("\n")
    assert len(lines) == 3 and lines[1] == ""
    assert [line.count(".") + line.count("?") >= n for line, n in zip(lines[::2], (3, 2))] == [True, True]
    for s in paragraph.sentences:
        assert panel.translation_text()[s.span[0]:s.span[1]] == s.text
    # the first sentence is the one the views show
    assert shown.source == SENTENCES[0] and paragraph.selected == 0
    assert win.attention_panel.maps().source_tokens[:-1] == shown.source_pieces
    assert "5 sentences in, 5 translations out" in panel.detail_label.text()

    # choosing the fourth row translates that sentence again, with its attention, in every view
    with qtbot.waitSignal(win.controller.translation_ready, timeout=REAL_TIMEOUT) as ready:
        table.selectRow(3)
    fourth = ready.args[0]
    assert fourth.source == SENTENCES[3] and fourth.paragraph.selected == 3
    assert fourth.text == paragraph.sentences[3].text  # the list and the views say the same
    assert win.attention_panel.maps().source_tokens[:-1] == fourth.source_pieces
    assert "sentence 4 of 5" in panel.detail_label.text()
    assert table.rowCount() == 5 and table.chosen() == 3
    start, end = paragraph.sentences[3].span
    cursor = QTextCursor(panel.translation_view.document())
    cursor.setPosition(start + 1)
    assert cursor.charFormat().fontUnderline()  # the shown sentence is marked in the whole translation
    cursor.setPosition(paragraph.sentences[0].span[0] + 1)
    assert not cursor.charFormat().fontUnderline()

    # a view that asks for more of what is shown (the Step tab's steps) keeps the chosen sentence
    with qtbot.waitSignal(win.controller.translation_ready, timeout=REAL_TIMEOUT) as again:
        assert win.show_tab("Step by step")
    assert again.args[0].source == SENTENCES[3] and again.args[0].steps is not None
    assert again.args[0].paragraph.selected == 3

    panel.copy_button.click()
    assert QGuiApplication.clipboard().text() == paragraph.text

    # one sentence again: the table goes, and nothing of the paragraph's mark is left on the translation
    panel.set_text("The weather is nice today.")
    with qtbot.waitSignal(win.controller.translation_ready, timeout=REAL_TIMEOUT):
        panel.request_translation()
    assert not table.isVisible() and win.controller.translation.paragraph is None
    cursor = QTextCursor(panel.translation_view.document())
    cursor.setPosition(2)
    assert not cursor.charFormat().fontUnderline()
    win.close()


def test_a_single_sentence_shows_no_table(qtbot, builtin_dir):
    win = open_real_window(qtbot, builtin_dir, "The weather is nice today.", (1024, 768))
    assert win.controller.translation.paragraph is None
    assert not win.translate_panel.sentence_table.isVisible()
    assert win.translate_panel.translation_text() == win.controller.translation.text
    win.close()


def test_an_empty_or_looping_sentence_is_marked_in_its_row_not_dropped(qtbot):
    panel = TranslatePanel()
    qtbot.addWidget(panel)
    t = make_translation("Hello.")
    sentences = (ParagraphSentence("Hello.", "Hallo.", 0, "", (0, 6)),
                 ParagraphSentence("Hm.", "", 0, "no translation came out", (7, 10)),
                 ParagraphSentence("Go on.", "Mach weiter weiter", 0, "the model repeated itself", (11, 29)))
    from dataclasses import replace
    t = replace(t, paragraph=Paragraph("Hello. Hm. Go on.", "Hallo. […] Mach weiter weiter", sentences))
    panel.set_translation(t)
    rows = panel.sentence_table.rows()
    assert len(rows) == 3
    assert rows[1] == ("Hm.", "[no translation came out]")
    assert rows[2][1].endswith("[the model repeated itself]")
    assert "1 came out empty" in panel.detail_label.text()


def test_the_chosen_sentence_is_scrolled_whole_into_the_translation_box(qtbot):
    """Choosing row 3 of a long text left its underlined sentence cut off at the box's bottom edge."""
    from dataclasses import replace  # noqa: PLC0415

    panel = TranslatePanel()
    qtbot.addWidget(panel)
    panel.resize(320, 700)
    panel.show()
    qtbot.waitExposed(panel)
    lines = [f"Satz {i} ist ein ziemlich langer Satz, der in diesem schmalen Feld zwei Zeilen braucht."
             for i in range(1, 9)]
    text = "\n".join(lines)
    spans, start = [], 0
    for line in lines:
        spans.append((start, start + len(line)))
        start += len(line) + 1
    sentences = tuple(ParagraphSentence(f"Sentence {i}.", line, 0, "", span)
                      for i, (line, span) in enumerate(zip(lines, spans), 1))
    view = panel.translation_view
    for chosen in (2, 7, 0):
        words = lines[chosen].split()
        t = replace(make_translation(" ".join(reversed(words))),
                    paragraph=Paragraph(" ".join(s.source for s in sentences), text, sentences, chosen))
        panel.set_translation(t)
        qtbot.wait(20)
        a, b = spans[chosen]
        viewport = view.viewport().rect()
        for position in (a, b):
            cursor = QTextCursor(view.document())
            cursor.setPosition(position)
            rect = view.cursorRect(cursor)
            assert viewport.contains(rect), (chosen, position, rect, viewport)


def test_a_narrow_tables_header_ends_in_an_ellipsis_not_a_cut_letter(qtbot):
    """At 1024 × 768 the sidebar's table header read "Translatio", cut mid-letter by the scroll bar."""
    from PySide6.QtGui import QFontMetrics  # noqa: PLC0415

    from explorer.translate.sentence_table import SentenceTable  # noqa: PLC0415

    table = SentenceTable()
    qtbot.addWidget(table)
    table.set_paragraph(Paragraph("x", "y", tuple(
        ParagraphSentence("I have no time.", "Ich habe keine Zeit.", 0, "", (0, 1)) for _ in range(8))))
    header = table.horizontalHeader()
    bold = header.font()
    bold.setBold(True)
    table.resize(120 + table.verticalHeader().width(), 200)  # columns of ~55 px: "Translation" cannot fit
    table.show()
    qtbot.waitExposed(table)
    assert header.sectionSize(1) < QFontMetrics(bold).horizontalAdvance("Translation")
    image = header.grab().toImage()
    right = header.sectionViewportPosition(1) + header.sectionSize(1) - 3  # just inside the section's edge
    # The same place in "Source"'s section, whose word fits: the header's bare background, row by row.
    bare = header.sectionViewportPosition(0) + header.sectionSize(0) - 3
    ink = [abs(image.pixelColor(right, y).lightness() - image.pixelColor(bare, y).lightness())
           for y in range(image.height())]
    assert max(ink) < 40, "a letter runs into the edge"


def test_a_split_sentences_notes_in_chinese(qapp):
    """The notes of a sentence too long for the model, as the model writes them, in the Chinese table."""
    from explorer.translate.sentence_table import note_text
    from model.paragraphs.translate_text import EMPTY_PART, SPLIT, SentenceTranslation
    from tests.explorer.said_in_chinese import said_in_chinese
    sentence = SentenceTranslation("a long one", "ein langer […]", 0, flags=(SPLIT, EMPTY_PART), parts=3)
    line = said_in_chinese(note_text, sentence.note, "对模型来说太长：分成 3 段翻译", "[…]")
    assert line == "对模型来说太长：分成 3 段翻译; 其中一段没有译文（以 […] 标出）"
    repeated = SentenceTranslation("Go on.", "weiter weiter", 0, flags=("repeated",))
    assert said_in_chinese(note_text, repeated.note, "模型在重复自己") == "模型在重复自己"
