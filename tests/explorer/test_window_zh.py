"""The English→Chinese model in a real window at 1024 × 768: Chinese pieces on the axes, drawn with real
glyphs, nothing cut; the Models menu switching between the two built-in models; the Chinese window's start."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor, QFont, QFontDatabase, QImage, QPainter

from model.builtin import builtin_model
from tests.explorer.conftest import REAL_TIMEOUT, open_real_window

ZH = builtin_model("en-zh")
pytestmark = pytest.mark.skipif(ZH is None, reason="no English→Chinese model shipped")


def _has_chinese_font() -> bool:
    return bool(QFontDatabase.families(QFontDatabase.WritingSystem.SimplifiedChinese))


def _ink(text: str, font: QFont) -> QImage:
    image = QImage(64, 64, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.setFont(font)
    painter.setPen(QColor("black"))
    painter.drawText(image.rect(), Qt.AlignmentFlag.AlignCenter, text)
    painter.end()
    return image


def _dark(image: QImage, x0=0, y0=0, x1=None, y1=None) -> int:
    x1, y1 = x1 or image.width(), y1 or image.height()
    return sum(QColor(image.pixel(x, y)).lightness() < 128 for x in range(x0, x1, 2) for y in range(y0, y1, 2))


def test_cross_attention_with_chinese_labels_at_1024x768(qtbot):
    if not _has_chinese_font():
        pytest.skip("no font with Chinese glyphs: none installed and assets/fonts/chinese.ttf missing")
    win = open_real_window(qtbot, ZH.path, "I love apples.", size=(1024, 768))
    assert win.controller.translation.text == "我爱苹果。"
    win.attention_panel.set_state("cross", 3, 0, True)
    heat = win.attention_panel.heatmap
    rows = heat.row_labels()
    assert any("苹果" in r for r in rows) or ("苹" in "".join(rows) and "果" in "".join(rows)), rows
    # Every Chinese character on the axis is drawn with a real glyph: its ink differs from the empty box
    # a font without it draws (a private-use code point stands for "no glyph").
    font = QFont(heat._left._draw_font)  # the font the axis painted with at the last layout
    missing = _ink("\ue000", font)
    for ch in {c for r in rows for c in r if "\u4e00" <= c <= "\u9fff"}:
        ink = _ink(ch, font)
        assert ink != missing and _dark(ink) > 3, ch
    # Nothing cut: the heatmap lies inside the window, and its plot keeps a usable height.
    top_left = heat.mapTo(win, QPoint(0, 0))
    assert top_left.x() >= 0 and top_left.y() >= 0
    assert top_left.x() + heat.width() <= win.width() and top_left.y() + heat.height() <= win.height()
    assert heat.plot.vb.height() >= 150
    # The labels are on screen: the strip left of the cells holds ink.
    shot = heat.grab().toImage()
    left = int(heat.plot.vb.mapToScene(heat.plot.vb.rect().topLeft()).x())
    assert left > 10 and _dark(shot, 0, 0, left, shot.height()) > 20


def test_the_models_menu_switches_between_the_two_built_in_models(qtbot):
    win = open_real_window(qtbot, ZH.path, "I love apples.", size=(1024, 768))
    assert win.model_actions["en-zh"].isChecked()
    with qtbot.waitSignal(win.controller.translation_ready, timeout=REAL_TIMEOUT):
        win.model_actions["en-de"].trigger()
    assert win.controller.translation.text == "Ich liebe Äpfel."
    assert win.model_actions["en-de"].isChecked() and not win.model_actions["en-zh"].isChecked()
    with qtbot.waitSignal(win.controller.translation_ready, timeout=REAL_TIMEOUT):
        win.model_actions["en-zh"].trigger()
    assert win.controller.translation.text == "我爱苹果。"
    assert win.settings.value("models/builtin") == "en-zh"


def test_the_chinese_window_starts_on_english_to_chinese(tmp_path, monkeypatch, restore_app_look):
    from explorer import app
    from explorer.ui.i18n import install_language
    monkeypatch.delenv("ATTENTION_EXPLORER_MODEL", raising=False)
    chosen = []
    real = app.first_model
    monkeypatch.setattr(app, "first_model", lambda *a: chosen.append(real(*a)) or chosen[-1])
    out = tmp_path / "zh.png"
    try:
        rc = app.main(["--lang", "zh_CN", "--screenshot", str(out), "--sentence", "I love apples.",
                       "--size", "1024x768", "--kind", "cross", "--layer", "4"])
    finally:
        install_language("en")
    assert rc == 0 and chosen == [str(ZH.path)]
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1024, 768) and _dark(image) > 200


def test_the_lines_view_labels_the_chinese_pieces(qtbot):
    win = open_real_window(qtbot, ZH.path, "I love apples.", size=(1024, 768))
    win.attention_panel.set_state("cross", 3, 0, True)
    win.show_view("lines")
    queries, keys = win.attention_panel.lines.labels()
    assert queries == ["<s>", "我", "爱", "苹果", "。"]  # the decoder's input: each step reads the last piece
    assert any("apple" in k for k in keys) and not any("\u4e00" <= c <= "\u9fff" for k in keys for c in k)


def test_the_chinese_sample_lesson_shows_the_step_that_writes_apples(qtbot, tmp_path):
    from pathlib import Path
    lesson = Path(__file__).resolve().parents[2] / "docs" / "lessons" / "我爱苹果.json"
    win = open_real_window(qtbot, ZH.path, "I love apples.", size=(1024, 768))
    with qtbot.waitSignal(win.lessons.slide_shown, timeout=REAL_TIMEOUT):
        assert win.lessons.open_lesson(lesson)
    with qtbot.waitSignal(win.controller.translation_ready, timeout=REAL_TIMEOUT):
        win.lessons.go(3)  # the Step tab translates again, with the search step by step
    view = win.step_view
    assert win.current_view() == "steps" and view.step() == 3 and view.layer_head() == (3, 2)
    assert view.translation().steps.chosen[2] == "苹果"
    assert "[苹果]" in view.so_far.text() and view.step_label.text() == "Step 3 of 5"
    win.lessons.stop()
