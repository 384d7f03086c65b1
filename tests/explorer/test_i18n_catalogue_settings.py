"""The catalogue tool collects a window's words without the developer's own settings (issue 33 item 8):
a recent model's path in them was written into the Chinese catalogue as a string to translate."""

from __future__ import annotations

from explorer.ui.recent import SETTINGS_ENV, RecentModels, open_settings
from model.builtin import ENV
from tools.i18n_catalogue import texts_of_a_window


def test_the_window_texts_leave_out_the_users_recent_models(qapp, tmp_path, monkeypatch, tiny_model_dir):
    own = tmp_path / "dev-own-run-4242"
    own.mkdir()
    monkeypatch.setenv(SETTINGS_ENV, str(tmp_path / "developer.ini"))
    RecentModels(open_settings()).add(own)
    open_settings().sync()
    monkeypatch.setenv(ENV, str(tiny_model_dir))  # a small model loads in a second
    found = texts_of_a_window(timeout_ms=60_000)
    assert found and not [t for t in found if "dev-own-run-4242" in t]
    assert RecentModels(open_settings()).paths() == [str(own.resolve())]  # the developer's list is untouched
