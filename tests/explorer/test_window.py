"""The main window with a fake, torch-free model: loading, translating, errors, zoom, shutdown.

The worker still runs on its real QThread; only ``model.checkpoint`` / ``model.decoding.decode`` are swapped
for the synthetic stand-ins of the ``fake_model`` fixture (see conftest.py). The same behaviour with the
real tiny Transformer is checked in test_window_e2e.py.
"""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox

from explorer.ui.recent import MAX_RECENT, RecentModels

TIMEOUT = 10_000


@pytest.fixture
def critical(monkeypatch):
    calls = []
    monkeypatch.setattr(QMessageBox, "critical", lambda *args: calls.append(args))
    return calls


def test_loading_a_model_fills_every_panel(loaded, fake_model):
    win = loaded
    tr = win.controller.translation
    assert not win.is_empty_state()
    assert win.translate_panel.translation_text() == tr.text == "today. nice is weather The"
    for kind in ("encoder", "decoder", "cross"):
        win.attention_panel.set_state(kind, 1, 3)
        np.testing.assert_array_equal(win.attention_panel.current_matrix(), tr.attention.of_kind(kind)[1, 3])
    assert "d_model 32" in win.info_panel.value("Shape")
    assert win.info_panel.value("Parameters") == "123.5 k"
    assert win.info_panel.config_value("d_ff") == "64"
    assert win.device_label.text() == "Device: cpu"
    assert win.timing_label.text().startswith("translated in ")
    assert win.windowTitle().endswith("fake-model")
    assert win.translate_panel.history()[0] == "The weather is nice today."
    assert win.export_view_action.isEnabled()


def test_work_runs_off_the_gui_thread(loaded, fake_model):
    assert fake_model.translate_threads and "MainThread" not in fake_model.translate_threads


def test_ctrl_enter_translates_the_source(qtbot, loaded, fake_model):
    win = loaded
    win.translate_panel.set_text("a b c")
    win.activateWindow()
    win.translate_panel.source_edit.setFocus()
    with qtbot.waitSignal(win.controller.translation_ready, timeout=TIMEOUT) as blocker:
        qtbot.keyClick(win.translate_panel.source_edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert blocker.args[0].text == "c b a"
    assert fake_model.beam_sizes[-1] == 4  # the paper's beam, as on the command line, unless changed
    win.translate_panel.beam_spin.setValue(1)
    with qtbot.waitSignal(win.controller.translation_ready, timeout=TIMEOUT):
        qtbot.keyClick(win.translate_panel.source_edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert fake_model.beam_sizes[-1] == 1


def test_enter_translates_and_shift_enter_starts_a_new_line(qtbot, loaded, fake_model):
    win = loaded
    edit = win.translate_panel.source_edit
    win.translate_panel.set_text("a b c")
    win.activateWindow()
    edit.setFocus()
    edit.moveCursor(edit.textCursor().MoveOperation.End)
    with qtbot.waitSignal(win.controller.translation_ready, timeout=TIMEOUT) as blocker:
        qtbot.keyClick(edit, Qt.Key.Key_Return)
    assert blocker.args[0].text == "c b a"
    assert edit.toPlainText() == "a b c"  # Enter asked for the translation and added no line
    with qtbot.waitSignal(win.controller.translation_ready, timeout=TIMEOUT):
        qtbot.keyClick(edit, Qt.Key.Key_Enter, Qt.KeyboardModifier.KeypadModifier)  # the keypad's Enter
    qtbot.waitUntil(lambda: not win.controller.is_busy, timeout=TIMEOUT)
    asked = len(fake_model.beam_sizes)
    qtbot.keyClick(edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClicks(edit, "d e")
    assert edit.toPlainText() == "a b c\nd e"  # a plain newline, not Qt's line separator U+2028
    qtbot.wait(100)
    assert len(fake_model.beam_sizes) == asked  # Shift+Enter translated nothing


def test_overlapping_requests_show_only_the_newest(qtbot, loaded, fake_model):
    win = loaded
    fake_model.translate_delay = 0.3
    shown = []
    win.controller.translation_ready.connect(shown.append)
    first = win.translate("one two", 1)
    qtbot.wait(50)  # let the worker start on the first request, so its result really comes back late
    second = win.translate("three four five", 2)
    qtbot.waitUntil(lambda: win.controller.translation.request_id == second, timeout=TIMEOUT)
    qtbot.waitUntil(lambda: not win.controller.is_busy, timeout=TIMEOUT)
    assert first in fake_model.translated_ids  # the stale answer did arrive, and was dropped
    assert [t.request_id for t in shown] == [second]
    assert win.translate_panel.translation_text() == "five four three"


@pytest.mark.parametrize("content", [None, b"not a safetensors file"])
def test_bad_model_folder_shows_error_and_keeps_the_model(qtbot, loaded, fake_model, critical, tmp_path, content):
    win = loaded
    good = win.controller.info
    bad = tmp_path / "bad"
    bad.mkdir()
    if content is not None:
        (bad / "model.safetensors").write_bytes(content)
    with qtbot.waitSignal(win.controller.error, timeout=TIMEOUT):
        win.open_model(bad)
    assert len(critical) == 1 and "config.json is missing" in critical[0][2]
    assert win.controller.info is good and win.info_panel.value("Model") == "fake-model"
    with qtbot.waitSignal(win.controller.translation_ready, timeout=TIMEOUT) as blocker:
        win.translate("still works", 1)
    assert blocker.args[0].text == "works still"
    assert str(bad) not in win.recent.paths()


def test_translate_errors_are_shown_inline_not_in_a_dialog(qtbot, loaded, critical):
    win = loaded
    assert win.timing_label.text().startswith("translated in")
    with qtbot.waitSignal(win.controller.error, timeout=TIMEOUT):
        win.translate("boom", 1)
    assert win.translate_panel.error_label.text() == "Unexpected error: RuntimeError: kaboom"
    assert critical == []
    assert win.translate_panel.translation_text() == ""  # the old one no longer matches the sentence
    assert win.timing_label.text() == ""  # nor does its time
    win.controller.error.emit("translate", "the sentence is too long (9000 characters; at most 2000); split it")
    assert win.translate_panel.error_label.text().startswith("The sentence is too long (9000")
    assert win.state_label.text().startswith("The sentence is too long")


def test_empty_input_keeps_the_translation_and_views_on_screen(qtbot, loaded):
    win = loaded
    translation, text = win.controller.translation, win.translate_panel.translation_text()
    timing = win.timing_label.text()
    assert text and timing.startswith("translated in") and win.attention_panel.heatmap.row_labels()
    rows = win.attention_panel.heatmap.row_labels()
    with qtbot.assertNotEmitted(win.controller.error, wait=300):
        with qtbot.assertNotEmitted(win.controller.translation_ready, wait=300):
            win.translate_panel.set_text("  \n ")
            win.translate_panel.request_translation()
    assert win.translate_panel.error_label.text() == "Type a sentence to translate: the text is empty"
    assert win.translate_panel.error_label.isVisibleTo(win.translate_panel)
    assert win.translate_panel.translation_text() == text and win.controller.translation is translation
    assert win.attention_panel.heatmap.row_labels() == rows and win.timing_label.text() == timing
    assert win.state_label.text() == "Type a sentence to translate: the text is empty"


def test_zoom_shortcuts_scale_the_application_font(qtbot, window):
    win = window
    win.activateWindow()
    qtbot.waitUntil(win.isActiveWindow, timeout=TIMEOUT)
    base = QApplication.font().pointSizeF()
    qtbot.keyClick(win, Qt.Key.Key_Equal, Qt.KeyboardModifier.ControlModifier)
    bigger = QApplication.font().pointSizeF()
    assert bigger > base and win.font_scale() > 1.0
    assert win.translate_panel.translation_view.font().pointSizeF() == pytest.approx(1.5 * bigger)
    # Other widgets inherit the application font, through events Qt delivers on the next loop.
    qtbot.waitUntil(lambda: win.info_panel.config_table.font().pointSizeF() == pytest.approx(bigger))
    assert win.menuBar().font().pointSizeF() == pytest.approx(bigger)
    qtbot.keyClick(win, Qt.Key.Key_Minus, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(win, Qt.Key.Key_Minus, Qt.KeyboardModifier.ControlModifier)
    assert QApplication.font().pointSizeF() < base
    qtbot.keyClick(win, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    assert QApplication.font().pointSizeF() == pytest.approx(base)
    assert win.font_scale() == 1.0


def test_f11_toggles_full_screen(qtbot, window):
    win = window
    win.activateWindow()
    qtbot.waitUntil(win.isActiveWindow, timeout=TIMEOUT)
    qtbot.keyClick(win, Qt.Key.Key_F11)
    qtbot.waitUntil(win.isFullScreen, timeout=TIMEOUT)
    assert win.full_screen_action.isChecked()
    qtbot.keyClick(win, Qt.Key.Key_F11)
    qtbot.waitUntil(lambda: not win.isFullScreen(), timeout=TIMEOUT)
    assert not win.full_screen_action.isChecked()


def test_no_thread_runs_after_the_window_closes(qtbot, loaded):
    thread = loaded.controller.thread
    assert thread.isRunning()
    loaded.close()
    assert not thread.isRunning()


def test_without_a_built_in_model_the_empty_state_offers_open_and_train(qtbot, window, fake_model):
    fake_model.default_dir = None
    with qtbot.waitSignal(window.controller.no_default_model, timeout=TIMEOUT):
        window.load_default_model()
    empty = window.empty_state
    assert window.is_empty_state()
    assert empty.message() == "No model loaded"
    assert empty.open_button.isVisible() and empty.open_button.text() == "Open model…"
    assert empty.train_button.isVisible() and empty.train_button.text() == "Train…"
    assert not window.translate_panel.translate_button.isEnabled()


def test_train_button_goes_to_the_train_tab(qtbot, window, monkeypatch):
    infos = []
    monkeypatch.setattr(QMessageBox, "information", lambda *args: infos.append(args))
    window.tabs.setCurrentIndex(0)
    window.empty_state.train_button.click()
    assert window.tabs.currentWidget() is window.train_panel and not infos


def test_recent_models_are_remembered_pruned_and_capped(qtbot, loaded, fake_model, tmp_path):
    recent = RecentModels()  # a fresh reader of the same (isolated) settings
    first = recent.paths()[0]
    assert first.endswith("fake-model")
    folders = [fake_model.make_model_dir(f"m{i}") for i in range(MAX_RECENT + 2)]
    for folder in folders:
        recent.add(folder)
    assert len(recent.paths()) == MAX_RECENT and recent.paths()[0] == str(folders[-1].resolve())
    folders[-1].joinpath("config.json").unlink()
    folders[-1].rmdir()
    assert str(folders[-1].resolve()) not in recent.paths()
    loaded.fill_recent_menu()
    texts = [a.text() for a in loaded.recent_menu.actions()]
    assert texts[0] == str(folders[-2].resolve()) and texts[-1] == "Clear list"


def test_colour_map_menu_drives_the_panel(qtbot, window, monkeypatch):
    chosen = []
    monkeypatch.setattr(window.attention_panel, "set_colormap", chosen.append)
    action = next(a for a in window.colormap_group.actions() if a.text() == "magma")
    action.trigger()
    assert chosen == ["magma"] and action.isChecked()
    window.attention_panel.controls.colormap_changed.emit("cividis")  # the panel's own combo box
    checked = [a.text() for a in window.colormap_group.actions() if a.isChecked()]
    assert checked == ["cividis"]


def test_export_menu_writes_the_chosen_formats(qtbot, loaded, monkeypatch, tmp_path):
    answers = iter([
        (str(tmp_path / "view"), "SVG image (*.svg)"),  # a bare name takes the chosen filter's suffix
        (str(tmp_path / "maps.npz"), "NumPy archive (*.npz)"),
        (str(tmp_path / "head.csv"), "NumPy archive (*.npz)"),  # a typed suffix wins over the filter
        (str(tmp_path / "shown"), "CSV of the shown matrix, pieces as shown (*.csv)"),
    ])
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *args, **kw: next(answers))
    loaded.export_view_action.trigger()
    loaded.export_data_action.trigger()
    loaded.export_data_action.trigger()
    assert (tmp_path / "view.svg").read_text().lstrip().startswith("<")
    assert np.load(tmp_path / "maps.npz").files
    assert loaded.state_label.text() == f"Saved {tmp_path / 'head.csv'}"
    raw = (tmp_path / "head.csv").read_text(encoding="utf-8").splitlines()[0]
    assert raw.startswith("query\\key (raw SentencePiece pieces")  # a filter not for CSV: the raw pieces
    loaded.export_data_action.trigger()
    header = (tmp_path / "shown.csv").read_text(encoding="utf-8").splitlines()[0].split(",")
    assert header[0] == "query\\key (pieces as the window shows them: · continues a word)"
    assert header[1:] == loaded.attention_panel.heatmap.col_labels()  # the pieces on the map's axis


def test_window_has_the_app_icon(window):
    assert not window.windowIcon().isNull()


def test_window_fits_a_1024_px_projector_and_labels_adapt(qtbot, loaded):
    """At 1024 × 768 nothing forces the window wider: long labels shorten, the stats strip wraps."""
    from explorer.attention.controls import KIND_LABELS, SHORT_LABELS
    window = loaded
    assert window.minimumSizeHint().width() <= 1024
    buttons = {kind: window.attention_panel.controls.kind_button(kind) for kind in KIND_LABELS}
    window.resize(1600, 900)
    qtbot.waitUntil(lambda: window.width() == 1600)
    qtbot.waitUntil(lambda: all(b.text() == KIND_LABELS[k] for k, b in buttons.items()))
    window.resize(1024, 768)
    qtbot.waitUntil(lambda: window.width() == 1024)
    qtbot.waitUntil(lambda: buttons["cross"].text() == SHORT_LABELS["cross"])
    for button in buttons.values():  # whatever it says, it is fully visible in its own width
        assert button.fontMetrics().horizontalAdvance(button.text()) < button.width()

    stats = window.train_panel.stats
    boxes = [b for b in stats._boxes.values() if not b.isHidden()]
    one_row, narrow = stats.layout().heightForWidth(2000), stats.layout().heightForWidth(300)
    assert narrow > one_row  # wraps onto more rows instead of demanding width
    stats.resize(300, narrow)
    stats.layout().setGeometry(stats.rect())
    rects = [b.geometry() for b in boxes]
    assert all(stats.rect().contains(r) for r in rects)
    assert not any(a.intersects(b) for i, a in enumerate(rects) for b in rects[i + 1:])


def test_a_long_status_message_is_cut_before_the_device_and_time_not_run_under_them(qtbot, loaded):
    """"…spm.mo Device: cpu": a model folder's long path ran under the permanent labels at 1024 × 768."""
    win = loaded
    win.resize(1024, 768)
    message = "Loaded " + "/very/long/folder/name" * 12 + "/spm.model"
    win.show_status(message)
    qtbot.wait(20)
    label = win.state_label
    assert label.text() == message  # kept whole
    assert label.shown_text().endswith("…") and label.toolTip() == message
    right = label.mapTo(win, label.contentsRect().topRight()).x()
    assert right < win.device_label.mapTo(win, win.device_label.rect().topLeft()).x()
    win.show_status("Ready")
    assert label.shown_text() == "Ready" and label.toolTip() == ""
