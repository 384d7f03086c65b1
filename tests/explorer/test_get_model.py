"""File › Get a model…: the dialog and the Models menu, against the loopback Hub (tests/hub_server.py)."""

from __future__ import annotations

import time

import pytest

from explorer.hub.dialog import GetModelDialog
from model.hub.cache import cached_snapshot
from model.hub.catalogue import CATALOGUE
from tests.explorer.conftest import REAL_TIMEOUT
from tests.hub_server import REPO

TIMEOUT = 30_000


@pytest.fixture
def dialog(qtbot):
    d = GetModelDialog()
    qtbot.addWidget(d)
    d.show()
    yield d
    d.shutdown()


def test_the_list_names_each_pair_in_words_with_its_cards_score_and_licence(dialog):
    rows = {dialog.table.item(r, 1).text(): [dialog.table.item(r, c).text() for c in range(5)]
            for r in range(dialog.table.rowCount())}
    assert len(rows) == len(CATALOGUE) >= 7
    assert rows["Helsinki-NLP/opus-mt-en-zh"][:4] == ["English → Chinese", "Helsinki-NLP/opus-mt-en-zh", "31.4",
                                                     "apache-2.0"]
    pairs = {r[0] for r in rows.values()}
    assert {"English → German", "Chinese → English", "German → English", "English → French", "English → Spanish",
            "English → Japanese"} <= pairs
    assert all(r[4].endswith("MB") for r in rows.values())  # nothing downloaded in this test's cache
    dialog.table.selectRow(6)  # English → Japanese: its card's test set is the Bible, and the dialog says so
    assert "Bible" in dialog.about.text() and "bible-uedin" in dialog.about.text()


def test_download_through_the_dialog_shows_progress_and_hands_over_the_folder(qtbot, dialog, hub):
    values = []
    dialog.bar.valueChanged.connect(values.append)
    dialog.other.setText(REPO)
    with qtbot.waitSignal(dialog.model_ready, timeout=TIMEOUT) as ready:
        dialog.download_button.click()
    assert ready.args == [REPO, str(cached_snapshot(REPO))]
    assert values and values[-1] == 1000 and values == sorted(values)
    assert "ready" in dialog.status.text() and dialog.download_button.isEnabled()
    assert not dialog.cancel_button.isVisible()


def test_cancel_answers_within_a_second_and_download_resumes(qtbot, dialog, hub):
    hub.throttle = 150_000
    dialog.other.setText(REPO)
    dialog.download_button.click()
    qtbot.waitUntil(lambda: dialog.bar.value() > 50, timeout=TIMEOUT)
    assert dialog.cancel_button.isVisible() and not dialog.download_button.isEnabled()
    asked = time.monotonic()
    dialog.cancel_button.click()
    qtbot.waitUntil(lambda: dialog.download_button.isEnabled(), timeout=TIMEOUT)
    assert time.monotonic() - asked < 1.0
    assert "resume" in dialog.status.text() and dialog.download_button.isEnabled()
    assert cached_snapshot(REPO) is None
    hub.throttle, hub.requests[:] = None, []
    with qtbot.waitSignal(dialog.model_ready, timeout=TIMEOUT):
        dialog.download_button.click()
    assert any(r and r != "bytes=0-" for m, _, r in hub.requests if m == "GET")  # the rest only, by Range


def test_a_bad_id_and_offline_are_one_line_each(qtbot, dialog, hub, monkeypatch):
    dialog.other.setText("not a repo")
    hub.requests[:] = []
    dialog.download_button.click()
    assert "not a Hub repository id" in dialog.status.text() and hub.requests == []
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    dialog.other.setText(REPO)
    dialog.download_button.click()
    qtbot.waitUntil(lambda: dialog.download_button.isEnabled(), timeout=TIMEOUT)  # the answer has arrived
    assert dialog.status.text().startswith("offline") and f"get-model {REPO}" in dialog.status.text()
    assert "\n" not in dialog.status.text() and hub.requests == []


def test_a_downloaded_model_is_in_the_models_menu_opens_and_survives_a_restart(qtbot, hub, tiny_model_dir,
                                                                               restore_app_look):
    from explorer.window.hub_menu import open_get_model
    from explorer.window.main_window import MainWindow
    from explorer.window.models_menu import SETTINGS_KEY, start_model

    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    with qtbot.waitSignal(win.controller.translation_ready, timeout=REAL_TIMEOUT):
        win.open_model(tiny_model_dir)
    win.models_menu.aboutToShow.emit()  # the menu lists the cache when it opens
    assert win.hub_actions == {}
    entries = [a.text() for a in win.models_menu.actions()]
    assert "&Get a model…" in entries and "&Get a model…" in [a.text() for a in win.file_menu.actions()]
    open_get_model(win)
    win.get_model_dialog.other.setText(REPO)
    win.translate_panel.set_text("I love apples.")
    with qtbot.waitSignal(win.controller.model_loaded, timeout=REAL_TIMEOUT):
        win.get_model_dialog.download_button.click()  # downloads, then the window opens it
    folder = cached_snapshot(REPO)
    assert win.controller.info.path == str(folder)
    action = win.hub_actions[REPO]
    assert action.text() == "English → German (test-org/opus-mt-en-de)" and action.isChecked()
    assert win.windowTitle().endswith("English → German (test-org/opus-mt-en-de)")
    assert win.settings.value(SETTINGS_KEY) == f"hub:{REPO}"
    win.close()

    again = MainWindow()  # a restart: the menu is read from the cache, the pick from the settings
    qtbot.addWidget(again)
    again.models_menu.aboutToShow.emit()
    assert list(again.hub_actions) == [REPO]
    assert start_model(again.settings, "en") == folder
    again.close()


def test_a_lesson_remembers_the_hub_model_its_slides_were_made_with(qtbot, hub, tiny_model_dir, tmp_path,
                                                                    restore_app_look):
    """#28: a slide saved on a downloaded model names its repository id, and the lesson opens that model from
    the cache before it plays, even from another model; a repository not on this machine plays on the model
    in use with one line saying so."""
    import json

    from explorer.window.main_window import MainWindow
    from model.builtin import model_name, named_model
    from model.hub.download import download, plan_download

    folder = download(plan_download(REPO))
    assert model_name(folder) == REPO and named_model(REPO) == folder
    assert model_name(tiny_model_dir) == "" and named_model("nobody/not-here") is None
    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    win.translate_panel.set_text("I love apples.")
    with qtbot.waitSignal(win.controller.translation_ready, timeout=REAL_TIMEOUT):
        win.open_model(folder)
    lesson = tmp_path / "hub.json"
    assert win.lessons.save_slide(lesson, "Cross-attention")
    assert json.loads(lesson.read_text(encoding="utf-8"))["model"] == REPO
    with qtbot.waitSignal(win.controller.translation_ready, timeout=REAL_TIMEOUT):
        win.open_model(tiny_model_dir)
    with qtbot.waitSignal(win.lessons.slide_shown, timeout=REAL_TIMEOUT):
        assert win.lessons.open_lesson(lesson)
    assert win.controller.info.path == str(folder) and win.lessons.is_playing()
    win.lessons.stop()

    other = tmp_path / "other.json"
    other.write_text(lesson.read_text(encoding="utf-8").replace(REPO, "nobody/not-here"), encoding="utf-8")
    said, show = [], win.show_status
    win.show_status = lambda text: (said.append(text), show(text))
    assert win.lessons.open_lesson(other)
    assert any("nobody/not-here" in line and "not on this machine" in line for line in said)
    assert win.controller.info.path == str(folder)  # played on the model in use
    win.close()
