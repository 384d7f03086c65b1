"""Each model's licence as the window's model info and `info` show it (issue 33 item 5)."""

from __future__ import annotations

from model.builtin import builtin_models
from model.licence import model_licence


def test_every_built_in_model_names_its_licence_and_whom_to_credit():
    names = [m.name for m in builtin_models()]
    assert {"en-de", "en-zh"} <= set(names)
    for m in builtin_models():
        licence = model_licence(m.path)
        assert licence.startswith("GPL-2.0-or-later; credit "), (m.name, licence)
        assert "tatoeba.org" in licence and "www.manythings.org/anki" in licence and "CC BY 2.0 FR" in licence


def test_a_hub_card_front_matter_or_the_catalogue_names_it(tmp_path):
    card = tmp_path / "card"
    card.mkdir()
    (card / "README.md").write_text("---\nlanguage:\n- en\n- de\nlicense: cc-by-4.0\ntags:\n- translation\n---\n"
                                    "# opus-mt-en-de\n\nlicense: not this one\n", encoding="utf-8")
    assert model_licence(card) == "cc-by-4.0"
    snapshot = tmp_path / "models--Helsinki-NLP--opus-mt-en-zh" / "snapshots" / "abc123"
    snapshot.mkdir(parents=True)  # a download without its card: the catalogue's licence
    assert model_licence(snapshot) == "apache-2.0"


def test_a_folder_that_does_not_say_has_no_licence(tmp_path):
    (tmp_path / "LICENSE").write_text("All rights reserved, no SPDX line here\n", encoding="utf-8")
    (tmp_path / "README.md").write_text("# A model\nlicense: mentioned in prose only\n", encoding="utf-8")
    assert model_licence(tmp_path) == ""


def test_a_loaded_models_info_carries_its_licence(tiny_model_dir):
    from model.builtin import builtin_model
    from model.checkpoint import load_model

    assert load_model(builtin_model("en-de").path).info().licence.startswith("GPL-2.0-or-later; credit tatoeba.org")
    assert load_model(tiny_model_dir).info().licence == ""  # trained here: its data's terms, unknown here
