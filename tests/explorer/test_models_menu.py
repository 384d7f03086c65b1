"""Models › one entry per built-in pair; the Chinese window starts on English→Chinese; the pick is kept."""

from __future__ import annotations

import argparse

import pytest

from explorer.ui import i18n
from explorer.window.models_menu import SETTINGS_KEY, pair_label, start_model
from model.builtin import builtin_model, builtin_models

TIMEOUT = 10_000


class Settings(dict):
    def value(self, key, default=None):
        return self.get(key, default)

    def setValue(self, key, value):  # noqa: N802 - QSettings' name
        self[key] = value


def test_start_model_by_language_then_by_the_users_pick(monkeypatch):
    monkeypatch.delenv("ATTENTION_EXPLORER_MODEL", raising=False)
    zh = builtin_model("en-zh")
    assert start_model(Settings(), "en") is None  # the default: en-de
    assert start_model(Settings(), "zh_CN") == (zh.path if zh else None)
    assert start_model(Settings({SETTINGS_KEY: "en-de"}), "zh_CN") == builtin_model("en-de").path
    assert start_model(Settings({SETTINGS_KEY: "gone-pair"}), "en") is None  # a vanished pick is ignored


def test_first_model_honours_model_names_and_the_environment(monkeypatch, tmp_path):
    from explorer.app import first_model
    args = argparse.Namespace(model="en-de", screenshot=None)
    window = argparse.Namespace(settings=Settings())
    assert first_model(window, args, "en") == str(builtin_model("en-de").path)
    args.model = None
    monkeypatch.setenv("ATTENTION_EXPLORER_MODEL", str(tmp_path))
    assert first_model(window, args, "zh_CN") is None  # tests and benchmarks pin the model this way
    monkeypatch.delenv("ATTENTION_EXPLORER_MODEL")
    window.settings[SETTINGS_KEY] = "en-de"
    args.screenshot = "shot.png"  # a screenshot is a document of its options, not of a leftover pick
    zh = builtin_model("en-zh")
    assert first_model(window, args, "zh_CN") == (str(zh.path) if zh else None)


def test_the_menu_lists_the_pairs_opens_one_and_remembers_it(qtbot, window, fake_model):
    names = [m.name for m in builtin_models()]
    assert "en-de" in names
    assert list(window.model_actions) == names
    assert window.model_actions["en-de"].text() == "English → German"
    bar = [a.text() for a in window.menuBar().actions()]
    assert bar == ["&File", "&View", "&Models"]
    with qtbot.waitSignal(window.controller.model_loaded, timeout=TIMEOUT):
        window.model_actions["en-de"].trigger()
    assert window.settings.value(SETTINGS_KEY) == "en-de"
    assert window.model_actions["en-de"].isChecked()
    assert window.windowTitle().endswith("English → German (built-in)")
    other = fake_model.make_model_dir("mine")
    with qtbot.waitSignal(window.controller.model_loaded, timeout=TIMEOUT):
        window.open_model(other)
    assert not any(a.isChecked() for a in window.model_actions.values())  # not a built-in model
    assert window.settings.value(SETTINGS_KEY) == "en-de"  # opening a folder does not change the pick


@pytest.mark.usefixtures("restore_app_look")
def test_pair_names_follow_the_window_language(window):
    from explorer.window.language_menu import set_language
    try:
        assert set_language(window, "zh_CN") == ""
        assert window.model_actions["en-de"].text() == "英语 → 德语"
        assert pair_label(builtin_model("en-de")) == "英语 → 德语"
        assert window.models_menu.title() == "模型(&M)"
    finally:
        set_language(window, "en")
    assert window.model_actions["en-de"].text() == "English → German"
    assert i18n.current_language() == "en"
