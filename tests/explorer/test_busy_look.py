"""The busy look (dimmed maps, "Stop", "Working…") shows only once a wait is noticeable
(explorer/window/busy_look.py): a quick translation dimmed every map and swapped three labels for
~100 ms, then back, with each sentence typed."""

from __future__ import annotations

from explorer.window.busy_look import DELAY_MS

TIMEOUT = 30_000


def _looks(win) -> list[bool]:
    """Every busy look the attention panel is given from now on."""
    seen: list[bool] = []
    original = win.attention_panel.set_busy

    def recording(busy: bool) -> None:
        seen.append(busy)
        original(busy)
    win.attention_panel.set_busy = recording
    return seen


def test_a_quick_translation_shows_no_busy_look_and_a_slow_one_does(qtbot, loaded, fake_model):
    win = loaded
    seen = _looks(win)
    fake_model.translate_delay = 0.0
    with qtbot.waitSignal(win.controller.translation_ready, timeout=TIMEOUT):
        win.translate("A quick one", 1)
    qtbot.wait(DELAY_MS + 100)  # past the delay: a look started late would show now
    assert seen == [] and not win.attention_panel.is_dimmed()
    assert win.translate_panel.translate_button.text() == "Translate"
    assert win.translate_panel.translation_text() == "one quick A"
    assert win.state_label.text() != "Working…"

    fake_model.translate_delay = 2.5 * DELAY_MS / 1000
    with qtbot.waitSignal(win.controller.busy_changed, timeout=TIMEOUT):
        win.translate("A slow one", 1)
    qtbot.waitUntil(lambda: seen == [True], timeout=TIMEOUT)
    assert win.attention_panel.is_dimmed() and win.translate_panel.translate_button.text() == "Stop"
    assert win.state_label.text() == "Working…"
    with qtbot.waitSignal(win.controller.translation_ready, timeout=TIMEOUT):
        pass
    qtbot.waitUntil(lambda: seen == [True, False], timeout=TIMEOUT)
    assert not win.attention_panel.is_dimmed() and win.state_label.text() != "Working…"
    assert win.translate_panel.translation_text() == "one slow A"


def test_opening_another_model_dims_the_old_ones_maps_at_once(qtbot, loaded, fake_model, monkeypatch):
    """The old model's translation stood undimmed for ~0.5 s after another model was chosen."""
    from PySide6.QtWidgets import QMessageBox  # noqa: PLC0415

    refused = []
    monkeypatch.setattr(QMessageBox, "critical", lambda *args: refused.append(args))
    win = loaded
    seen = _looks(win)
    fake_model.translate_delay = 0.0
    win.open_model(fake_model.make_model_dir("another-model"))
    assert seen == [True]  # before any event is processed: no delay
    assert win.attention_panel.is_dimmed() and not win.translate_panel.translation_view.isEnabled()
    assert win.state_label.text().startswith("Loading ")  # what is happening, not just "Working…"
    with qtbot.waitSignal(win.controller.translation_ready, timeout=TIMEOUT):
        pass  # the new model translates the sentence again
    qtbot.waitUntil(lambda: not win.attention_panel.is_dimmed(), timeout=TIMEOUT)
    # The load's end took the look away (a slow machine may show it again for the translation, after the delay).
    assert seen[:2] == [True, False] and win.translate_panel.translation_view.isEnabled()

    seen.clear()
    win.open_model(fake_model.root / "not-a-model")  # refused: the current model and its maps stay
    assert seen == [True]
    qtbot.waitUntil(lambda: seen == [True, False], timeout=TIMEOUT)
    assert not win.attention_panel.is_dimmed() and len(refused) == 1


def test_the_button_stops_a_long_translation_and_what_was_shown_stays(qtbot, loaded, fake_model):
    """A 375-sentence paragraph took a minute, and the button said "Translating…" and did nothing."""
    win = loaded
    seen = _looks(win)
    shown = win.translate_panel.translation_text()
    button = win.translate_panel.translate_button
    fake_model.translate_delay = 4 * DELAY_MS / 1000
    answers = []
    win.controller.translation_ready.connect(answers.append)
    win.translate("A slow one", 1)
    qtbot.waitUntil(lambda: seen == [True], timeout=TIMEOUT)
    assert button.text() == "Stop" and button.isEnabled()
    button.click()
    assert seen == [True, False] and not win.attention_panel.is_dimmed()
    assert win.translate_panel.translation_view.isEnabled() and button.text() == "Translate"
    assert win.state_label.text().startswith("Translation stopped")
    qtbot.waitUntil(lambda: not win.controller.is_busy, timeout=TIMEOUT)
    qtbot.wait(50)
    assert answers == [] and win.translate_panel.translation_text() == shown  # its answer is dropped
    fake_model.translate_delay = 0.0
    win.translate_panel.set_text("A third one")
    with qtbot.waitSignal(win.controller.translation_ready, timeout=TIMEOUT):
        button.click()  # the button translates again
    assert win.translate_panel.translation_text() == "one third A"


def test_a_model_loading_shows_no_stop(qtbot, loaded, fake_model):
    """Opening another model is busy too, but there is no translation to stop."""
    win = loaded
    fake_model.translate_delay = 0.0
    win.open_model(fake_model.make_model_dir("another-model"))
    assert win.attention_panel.is_dimmed() and win.translate_panel.translate_button.text() == "Translating…"
    with qtbot.waitSignal(win.controller.translation_ready, timeout=TIMEOUT):
        pass
