"""The model info panel shows what the weights are distributed under (issue 33 item 5)."""

from __future__ import annotations

import pytest

from explorer.window.info_panel import InfoPanel, breakable_addresses
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


def test_only_web_addresses_get_break_marks():
    """Version numbers never break ("GPL-2.0"), nor does a scheme's "//"; a domain and a path do."""
    assert breakable_addresses("GPL-2.0-or-later; CC BY 2.0 FR") == "GPL-2.0-or-later; CC BY 2.0 FR"
    assert breakable_addresses("see https://opus.nlpl.eu/ now.") == "see https://\u200bopus.\u200bnlpl.\u200beu/ now."
    assert breakable_addresses("www.manythings.org/anki") == "www.\u200bmanythings.\u200borg/\u200banki"


@pytest.mark.parametrize("width", [240, 210])
def test_a_web_address_in_the_licence_wraps_inside_a_narrow_column(qtbot, width):
    """"www.manythings.org/anki" was one unbreakable word, wider than the column at 1024 × 768. (With
    breaks at its slashes only, "www.manythings.org/" was still cut at the Chinese window's edge on a
    real screen; offscreen it fits, so the break marks themselves are tested above.)"""
    panel = InfoPanel()
    qtbot.addWidget(panel)
    panel.resize(width, 600)
    panel.show()
    qtbot.waitExposed(panel)
    text = "GPL-2.0-or-later; credit tatoeba.org and www.manythings.org/anki (CC BY 2.0 FR)"
    panel.set_info(_info(text))
    qtbot.wait(10)
    label = panel._values["Licence"]
    assert panel.value("Licence") == text  # read back as given
    widest = max(label.fontMetrics().horizontalAdvance(word) for word in label.text().replace("\u200b", " ").split())
    assert widest <= label.contentsRect().width(), (widest, label.contentsRect().width())
    # A label whose longest run is too wide grows past the panel instead, and the panel cuts it off.
    right = label.mapTo(panel, label.contentsRect().topRight()).x()
    assert right < panel.contentsRect().right(), (right, panel.contentsRect().right())
