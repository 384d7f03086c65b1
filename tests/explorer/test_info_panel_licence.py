"""The model info panel shows what the weights are distributed under (issue 33 item 5)."""

from __future__ import annotations

from explorer.window.info_panel import InfoPanel
from model.records import ModelInfo


def _info(licence: str) -> ModelInfo:
    return ModelInfo(path="/m/en-de", config=(("d_model", 16),), n_params=1000, vocab_size=50, device="cpu",
                     d_model=16, n_layers=1, n_heads=2, licence=licence)


def test_the_panel_shows_the_models_licence_or_says_it_is_not_stated(qtbot):
    panel = InfoPanel()
    qtbot.addWidget(panel)
    panel.set_info(_info("GPL-2.0-or-later; credit Tatoeba sentences (tatoeba.org), CC BY 2.0 FR"))
    assert panel.value("Licence") == "GPL-2.0-or-later; credit Tatoeba sentences (tatoeba.org), CC BY 2.0 FR"
    label = panel._values["Licence"]
    assert panel._form.labelForField(label).text() == "Licence:" and not label.isHidden()
    panel.set_info(_info(""))
    assert panel.value("Licence") == "not stated: a model takes the terms of its training data"
    panel.set_info(None)
    assert panel.value("Licence") == ""



def test_a_web_address_in_the_licence_wraps_inside_a_narrow_column(qtbot):
    """"www.manythings.org/anki" was one unbreakable word, wider than the column at 1024 × 768."""
    panel = InfoPanel()
    qtbot.addWidget(panel)
    panel.resize(240, 600)
    panel.show()
    qtbot.waitExposed(panel)
    text = "GPL-2.0-or-later; credit tatoeba.org and www.manythings.org/anki (CC BY 2.0 FR)"
    panel.set_info(_info(text))
    qtbot.wait(10)
    label = panel._values["Licence"]
    assert panel.value("Licence") == text  # read back as given
    widest = max(label.fontMetrics().horizontalAdvance(word) for word in label.text().replace("\u200b", " ").split())
    assert widest <= label.contentsRect().width(), (widest, label.contentsRect().width())
