"""A live language switch remakes the texts joined from several pieces, which the window's walk cannot take
apart: the window title (its model name holds the language pair), the line under the translation, and
the Step tab's "So far:" and titles. They stayed in the old language until the next sentence, the title
until the next model (a walk-through, 2026-12-04)."""

from __future__ import annotations

from explorer.window.language_menu import set_language
from model.builtin import default_model_dir

from .conftest import REAL_TIMEOUT, open_real_window


def test_joined_texts_follow_a_language_switch_both_ways(qtbot, restore_app_look):
    win = open_real_window(qtbot, default_model_dir(), "I have no time.", (1024, 768))
    win.tabs.setCurrentWidget(win.step_view)
    qtbot.waitUntil(lambda: win.step_view.n_steps() > 0, timeout=REAL_TIMEOUT)
    detail, so_far = win.translate_panel.detail_label, win.step_view.so_far
    assert "English → German" in win.windowTitle() and "pieces" in detail.text()
    assert so_far.text().startswith("So far:")
    try:
        assert set_language(win, "zh_CN", remember=False) == ""
        assert win.windowTitle() == "Attention Explorer — 英语 → 德语（内置）"
        assert "个子词" in detail.text() and "pieces" not in detail.text()
        assert so_far.text().startswith("目前")
        assert "beam" not in win.step_view.bars_title.text()
    finally:
        set_language(win, "en", remember=False)
    assert win.windowTitle() == "Attention Explorer — English → German (built-in)"
    assert "pieces" in detail.text() and "个" not in detail.text()
    assert so_far.text().startswith("So far:") and "束" not in win.step_view.bars_title.text()
