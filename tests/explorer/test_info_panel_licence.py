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

