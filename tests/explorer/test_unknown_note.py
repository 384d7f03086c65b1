"""The translation panel says when the sentence had pieces the model's vocabulary lacks."""

from __future__ import annotations

from explorer.translate.panel import TranslatePanel
from model.records import Translation


def test_unknown_pieces_show_a_note_and_clear(qtbot):
    panel = TranslatePanel()
    qtbot.addWidget(panel)
    panel.show()
    pieces = ("▁Hallo", "▁", "<unk>", "<unk>")
    panel.set_translation(Translation("Hallo 😀 你", "Hello", pieces, ("▁Hello",), unknown_pieces=2))
    assert panel.unknown_label.isVisible()
    assert panel.unknown_label.text().startswith("2 of 7 characters are unknown to this model")  # 😀 and 你
    assert panel.translation_text() == "Hello"
    panel.set_translation(Translation("Hallo", "Hello", ("▁Hallo",), ("▁Hello",)))
    assert not panel.unknown_label.isVisible()
