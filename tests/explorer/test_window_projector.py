"""The window on a projector and under stress: screen-sized, never growing, honest about stale maps,
presentation mode, and the small things a first-time user tripped over (fake model, no torch)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import QImage, QScreen
from PySide6.QtWidgets import QFileDialog

from explorer import app
from explorer.lecture.presentation import FONT_FACTOR
from explorer.window.display import fit_size
from explorer.window.main_window import MainWindow
from explorer.window.responses import TRANSLATE_FAILED

from .conftest import make_translation

TIMEOUT = 10_000
PROJECTOR = QSize(1024, 768)


def test_status_bar_says_loading_until_a_model_is_there(qtbot, fake_model, restore_app_look):
    win = MainWindow()
    qtbot.addWidget(win)
    assert win.state_label.text().startswith("Loading")  # as the empty state says, not "Ready"
    with qtbot.waitSignal(win.controller.no_default_model, timeout=TIMEOUT):
        win.load_default_model()
    assert win.state_label.text() == "No model loaded"


def test_model_info_menu_hides_and_shows_the_panel(window):
    window.info_action.trigger()
    assert not window.info_action.isChecked()
    assert window.info_panel.isHidden()
    window.info_action.trigger()
    assert window.info_action.isChecked() and not window.info_panel.isHidden()


def test_window_starts_inside_the_available_screen_with_its_title_bar(window, monkeypatch):
    projector = QRect(0, 0, 1024, 768)
    # The size set is the client area's: the window manager's title bar and borders come on top, so a
    # client as tall as the free area pushed the status bar off the bottom of the screen.
    fitted = fit_size(QSize(1600, 1000), projector)
    assert fitted.height() <= projector.height() - 30 and fitted.width() < projector.width()
    assert fit_size(QSize(1600, 1000), QRect(0, 0, 2560, 1440)) == QSize(1600, 1000)  # room to spare
    assert fit_size(QSize(1600, 1000), projector, frame=QSize(8, 34)) == QSize(1016, 734)

    monkeypatch.setattr(QScreen, "availableGeometry", lambda self: projector)
    # Offscreen the frame is thin borders only: the allowance stands in for the title bar.
    fitted = window.fit_to_screen(QSize(1600, 1000))
    assert window.size() == fitted and fitted.height() <= projector.height() - 30
    # A window manager's taller frame (4-px borders, a 60-px HiDPI title bar) is left for in full;
    # its thin sides still get the allowance's width.
    monkeypatch.setattr(MainWindow, "frameGeometry", lambda self: self.geometry().adjusted(-4, -60, 4, 4))
    assert window.fit_to_screen(QSize(1600, 1000)) == QSize(1008, 704)
    assert window.size() == QSize(1008, 704)


def test_no_growth_past_a_projector_on_zoom_or_tab_change(qtbot, loaded):
    win = loaded
    win.set_font_scale(1.3)  # the projector setting
    win.resize(PROJECTOR)
    qtbot.waitUntil(lambda: win.size() == PROJECTOR)

    def fits() -> bool:
        hint = win.centralWidget().minimumSizeHint()
        return hint.width() <= PROJECTOR.width() and hint.height() <= PROJECTOR.height()

    for view in ("head", "grid", "lines", "pe"):
        win.show_view(view)
        qtbot.waitUntil(fits, timeout=2000)  # once the new tab's layout has settled
        assert win.size() == PROJECTOR, view
    win.show_tab("Train")
    qtbot.waitUntil(fits, timeout=2000)
    assert win.size() == PROJECTOR
    for _ in range(3):
        win.zoom_in()
        qtbot.wait(20)
        assert win.size() == PROJECTOR
    win.show_view("pe")
    qtbot.wait(20)
    assert win.size() == PROJECTOR


def test_stale_maps_are_dimmed_while_busy_and_cleared_on_error(qtbot, loaded, fake_model):
    win = loaded
    panel = win.attention_panel
    fake_model.translate_delay = 0.4
    with qtbot.waitSignal(win.controller.busy_changed, timeout=TIMEOUT) as busy:
        win.translate("A new sentence", 1)
    assert busy.args == [True]
    assert not panel.is_dimmed()  # not yet: a quick answer shows no busy look (test_busy_look.py)
    qtbot.waitUntil(panel.is_dimmed, timeout=TIMEOUT)
    assert panel.stats_label.text().startswith("Translating")
    assert not win.translate_panel.translation_view.isEnabled()
    assert win.translate_panel.translate_button.text() == "Stop"  # it stops the translation
    with qtbot.waitSignal(win.controller.translation_ready, timeout=TIMEOUT):
        pass
    qtbot.waitUntil(lambda: not panel.is_dimmed())
    assert win.translate_panel.translation_text() == "sentence new A"
    assert win.translate_panel.translate_button.text() == "Translate"

    fake_model.translate_delay = 0.0
    with qtbot.waitSignal(win.controller.error, timeout=TIMEOUT):
        win.translate("boom", 1)
    assert panel.maps() is None and panel.empty_label.text() == TRANSLATE_FAILED
    assert win.translate_panel.translation_text() == ""
    assert not win.export_view_action.isEnabled()


def test_a_long_error_does_not_squeeze_the_sentence_panel(qtbot, loaded):
    win = loaded
    win.set_font_scale(1.3)
    win.resize(PROJECTOR)
    qtbot.waitUntil(lambda: win.size() == PROJECTOR)
    tp = win.translate_panel
    tp.show_error("the sentence is too long (2400 characters; at most 2000); split it into "
                  "shorter sentences and translate them one at a time")

    def stacked() -> bool:  # once the boxes refitted to the zoomed font have been laid out
        return (tp.error_label.geometry().bottom() < tp.history_list.geometry().top()
                and tp.source_edit.geometry().bottom() < tp.translate_button.geometry().top()
                and tp.translation_view.geometry().bottom() < tp.error_label.geometry().top())

    qtbot.waitUntil(stacked, timeout=2000)
    assert tp.error_label.height() >= tp.error_label.heightForWidth(tp.error_label.width())
    assert win.size() == PROJECTOR


def test_recent_sentence_highlight_follows_the_moved_row(qtbot, loaded):
    tp = loaded.translate_panel
    for text in ("one", "two", "three"):
        tp.add_history(text)
    assert tp.history() == ["three", "two", "one", "The weather is nice today."]
    tp.history_list.setCurrentRow(2)
    with qtbot.waitSignal(loaded.controller.translation_ready, timeout=TIMEOUT):
        tp.use_history(tp.history_list.item(2).text())
    assert tp.history()[0] == "one"
    assert tp.history_list.currentRow() == 0 and tp.history_list.currentItem().text() == "one"


def test_a_checkpoint_keeps_its_run_name(qtbot, window, fake_model):
    folder = fake_model.make_model_dir("runs/reverse-20261201-0950/step-00001003")
    with qtbot.waitSignal(window.controller.model_loaded, timeout=TIMEOUT):
        window.open_trained(str(folder))
    assert "reverse-20261201-0950 (step 1,003)" in window.windowTitle()
    assert window.info_panel.value("Model") == "reverse-20261201-0950 (step 1,003)"


def test_file_menu_export_suggests_a_name_and_a_folder(loaded, monkeypatch, tmp_path):
    asked = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda parent, title, start, filters: (asked.append(start), ("", ""))[1])
    loaded.attention_panel.set_state("cross", 1, 0)
    loaded.export_view()
    loaded.export_attention()
    assert asked[0].endswith("attention_cross_L2_H1.png")
    assert asked[1].endswith("attention_maps.npz")
    assert all(Path(a).parent.is_dir() for a in asked)


def test_train_settings_pane_is_as_wide_as_its_form(qtbot, loaded):
    win = loaded
    win.set_font_scale(1.3)
    win.resize(1600, 1000)
    win.show_tab("Train")
    panel = win.train_panel
    qtbot.waitUntil(lambda: win.size() == QSize(1600, 1000))
    qtbot.wait(50)
    scroll = panel._scroll
    assert scroll.width() >= panel.form.minimumSizeHint().width()
    viewport = scroll.viewport().rect()
    for widget in (panel.form.preset_combo, panel.form.device_combo, panel.form.out_field):
        corner = widget.mapTo(scroll.viewport(), widget.rect().topRight())
        assert corner.x() <= viewport.right(), widget
    # The first probe gives the maps most of the height; back on the settings the form gets it back.
    panel.side_tabs.setCurrentWidget(panel.log_list)
    panel._add_snapshot(25, make_translation("3 1 4"))
    top, bottom = panel.split.sizes()
    assert top < bottom
    panel.side_tabs.setCurrentWidget(scroll)
    top, bottom = panel.split.sizes()
    assert top > bottom
    assert not panel.attention.isHidden()  # the maps stay, at their minimum height


def test_presentation_mode_shows_only_the_view_and_the_sentence(qtbot, loaded):
    win = loaded
    scale = win.font_scale()
    win.presentation_action.trigger()  # F5
    bar = win.presentation.bar
    assert win.presentation.is_active() and win.presentation_action.isChecked()
    assert win.sidebar.isHidden() and win.statusBar().isHidden() and win.menuBar().isHidden()
    assert win.tabs.tabBar().isHidden() and bar.isVisible()
    assert win.font_scale() == pytest.approx(scale * FONT_FACTOR)
    assert bar.sentence_edit.text() == "The weather is nice today."
    assert bar.translation_label.text() == "today. nice is weather The"
    bar.sentence_edit.setText("Good morning")
    with qtbot.waitSignal(win.controller.translation_ready, timeout=TIMEOUT):
        bar.sentence_edit.returnPressed.emit()
    assert bar.translation_label.text() == "morning Good"
    assert win.translate_panel.history()[0] == "Good morning"
    win.presentation_action.trigger()
    assert not win.presentation.is_active() and bar.isHidden()
    assert not win.sidebar.isHidden() and not win.menuBar().isHidden() and not win.tabs.tabBar().isHidden()
    assert win.font_scale() == pytest.approx(scale)
    assert [a for a in win.actions() if a is win.presentation_action]  # F5 works with no menu bar


def test_presentation_mode_enlarges_only_as_far_as_the_window_takes(qtbot, loaded):
    """Zoomed as far as a projector's window allows (×1.52), presenting went on to ×1.98, where the Step
    tab's maps were a strip and their colour bar's labels one blot: it now stops at the width's largest."""
    from explorer.ui import style  # noqa: PLC0415
    win = loaded
    try:
        win.resize(1008, 728)
        qtbot.waitUntil(lambda: win.width() == 1008)
        while win.zoom_in():
            pass
        zoomed = win.font_scale()
        assert zoomed == pytest.approx(style.ZOOM_STEP ** 3)
        win.presentation_action.trigger()
        assert win.font_scale() == pytest.approx(style.largest_scale(1008)) and win.font_scale() > zoomed
        win.presentation_action.trigger()
        assert win.font_scale() == pytest.approx(zoomed)
        win.reset_zoom()
        win.presentation_action.trigger()  # unzoomed, there is room for the whole enlargement
        assert win.font_scale() == pytest.approx(FONT_FACTOR)
        win.presentation_action.trigger()
    finally:
        if win.presentation.is_active():
            win.presentation_action.trigger()
        win.reset_zoom()


def test_presentation_mode_moves_between_the_main_tabs_by_keyboard(qtbot, loaded):
    """Its tab bar hidden, Ctrl+Tab moved the tab widget that had the focus: from the Positional encoding
    tab's own two tabs no key reached Train, Workbench or Attention again (a walk-through, 2026-12-04)."""
    win = loaded
    win.show()
    win.activateWindow()
    win.tabs.setCurrentWidget(win.pe_tab)
    win.presentation.enter()
    try:
        inner = win.pe_tab.tabBar()
        inner.setFocus()
        qtbot.waitUntil(inner.hasFocus, timeout=2000)
        before = win.tabs.currentIndex()
        inner_before = win.pe_tab.currentIndex()
        qtbot.keyClick(inner, Qt.Key.Key_Tab, Qt.KeyboardModifier.ControlModifier)
        assert win.tabs.currentIndex() == (before + 1) % win.tabs.count()  # the main tabs, not the inner ones
        assert win.pe_tab.currentIndex() == inner_before
        qtbot.keyClick(win.tabs.currentWidget(), Qt.Key.Key_PageUp, Qt.KeyboardModifier.ControlModifier)
        assert win.tabs.currentIndex() == before
    finally:
        win.presentation.leave()
    assert not any(s.isEnabled() for s in win.presentation._tab_keys)  # left: the keys are the tab widgets' again


@pytest.mark.parametrize("view", ["pe", "lines"])
def test_screenshot_mode_honours_a_projector_size(view, tmp_path, fake_model, restore_app_look, capsys):
    out = tmp_path / f"{view}.png"
    rc = app.main(["--model", str(fake_model.make_model_dir()), "--screenshot", str(out),
                   "--size", "1024x768", "--font-scale", "1.3", "--view", view])
    assert rc == 0
    assert "warning" not in capsys.readouterr().err
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1024, 768)


def test_training_curves_stack_when_narrow(qtbot):
    from explorer.training.curves import STACK_BELOW_PX, TrainingCurves

    curves = TrainingCurves()
    qtbot.addWidget(curves)
    curves.resize(STACK_BELOW_PX - 160, 600)
    curves.show()
    qtbot.waitExposed(curves)
    qtbot.waitUntil(curves.is_stacked)
    width = curves.canvas.viewport().width()
    for plot in (curves.loss_plot, curves.lr_plot, curves.bleu_plot):  # none past the right edge …
        assert plot.sceneBoundingRect().right() <= width + 1
        # … and each takes the column's width (the emptied columns kept a share: ~140 of 330 px at 1024 × 768)
        assert plot.sceneBoundingRect().width() >= 0.9 * width, (plot.sceneBoundingRect().width(), width)
    curves.resize(STACK_BELOW_PX + 400, 400)
    qtbot.waitUntil(lambda: not curves.is_stacked())


def test_export_view_saves_the_tab_on_screen_not_the_hidden_head_map(qtbot, loaded, monkeypatch, tmp_path):
    """Ctrl+E on the clock hands, the workbench or Compare saved the Attention tab's head map, every time."""
    win = loaded
    win.resize(1024, 768)
    chosen = {}

    def dialog(parent, title, start, filters):
        chosen["start"] = start
        return str(tmp_path / Path(start).name), ""
    monkeypatch.setattr(QFileDialog, "getSaveFileName", dialog)
    win.export_view()  # the Attention tab: its own figure, named after the head
    head = tmp_path / "attention_encoder_L1_H1.png"
    assert chosen["start"].endswith(head.name) and head.is_file()
    assert win.show_tab("Positional encoding")
    qtbot.wait(50)
    win.export_view()
    pe = tmp_path / "positional-encoding.png"
    assert chosen["start"].endswith(pe.name) and pe.is_file()
    image = QImage(str(pe))
    assert (image.width(), image.height()) == (win.pe_tab.width() * 2, win.pe_tab.height() * 2)  # the tab, at 2×
    assert pe.read_bytes() != head.read_bytes()
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a: (str(tmp_path / "pe.svg"), ""))
    win.export_view()  # a tab as drawn is a picture: PNG (its SVG lost widgets and the curves' dots)
    assert (tmp_path / "pe.png").is_file() and not (tmp_path / "pe.svg").exists()


def test_tab_leaves_the_model_settings_table(qtbot, loaded):
    """Tab went cell by cell through the table's 16 rows and round again: a keyboard trap."""
    table = loaded.info_panel.config_table
    assert table.rowCount() > 2
    table.setFocus()
    qtbot.waitUntil(table.hasFocus)
    qtbot.keyClick(table, Qt.Key.Key_Tab)
    assert not table.hasFocus()
