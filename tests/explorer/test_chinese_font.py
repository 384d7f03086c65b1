"""Chinese glyphs on a machine without any: the bundled font covers every character the app shows, the
theme registers it only where no installed font covers Chinese, and then Chinese text draws real glyphs."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QFontDatabase, QImage, QPainter, QRawFont

from explorer.ui import chinese_font, style
from tools.make_cjk_font import app_characters, gb2312


@pytest.fixture
def fresh(monkeypatch):
    """chinese_font as in a new process: nothing registered yet; counts the files Qt is asked to add."""
    added = []
    monkeypatch.setattr(chinese_font, "_registered", [])
    real_add = QFontDatabase.addApplicationFont

    def add(path):
        added.append(path)
        return real_add(path)

    monkeypatch.setattr(chinese_font.QFontDatabase, "addApplicationFont", add)
    return added


def _ink(text: str, family: str) -> QImage:
    image = QImage(48, 48, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.setFont(QFont(family, 20))
    painter.setPen(QColor("black"))
    painter.drawText(image.rect(), Qt.AlignmentFlag.AlignCenter, text)
    painter.end()
    return image


def test_the_font_has_every_character_of_the_window_the_models_and_gb2312(qapp):
    raw = QRawFont(str(chinese_font.FONT_FILE), 16)
    assert raw.isValid()
    # What the app can put on screen in Chinese: its translated texts and the built-in models' pieces. A new
    # translation with a character the font lacks fails here until tools/make_cjk_font.py is run again.
    shown = app_characters()
    assert sum("\u4e00" <= c <= "\u9fff" for c in shown) > 1000  # the en-zh vocabulary was read
    # (by code point: PySide6 turns a str argument into a QChar that some characters do not survive)
    lacking = [c for c in shown | gb2312() if "\u4e00" <= c <= "\u9fff" and not raw.supportsCharacter(ord(c))]
    assert not lacking, "".join(lacking[:40])
    for c in "：（）、。，《》“”":  # full-width punctuation of the translation
        assert raw.supportsCharacter(ord(c)), c


def test_the_font_says_it_serves_simplified_chinese(qapp):
    """Qt learns a font's writing systems from its code-page bits (through fontconfig): a subset that
    claimed Traditional only was left out of QFontDatabase's Simplified Chinese families."""
    font_id = QFontDatabase.addApplicationFont(str(chinese_font.FONT_FILE))
    family = QFontDatabase.applicationFontFamilies(font_id)[0]
    assert QFontDatabase.WritingSystem.SimplifiedChinese in QFontDatabase.writingSystems(family)


def test_an_installed_chinese_font_is_left_in_charge(qapp, fresh, monkeypatch):
    monkeypatch.setattr(chinese_font, "installed_chinese_families", lambda: ["Noto Sans CJK SC"])
    assert chinese_font.ensure_chinese_glyphs() is None
    assert fresh == []


def test_without_one_the_theme_registers_the_bundled_font_once_and_it_draws_glyphs(
        qapp, fresh, monkeypatch, restore_app_look):
    monkeypatch.setattr(chinese_font, "installed_chinese_families", lambda: [])
    style.apply_theme(qapp)  # what the app does at start, before any window exists
    style.apply_theme(qapp)
    assert fresh == [str(chinese_font.FONT_FILE)]
    family = chinese_font._registered[0]
    assert family == "WenQuanYi Micro Hei"
    assert chinese_font.ensure_chinese_glyphs() == family
    # Real glyphs: each character's ink differs from the others' and from the box of a missing glyph.
    missing = _ink("\ue000", family)
    inks = [_ink(c, family) for c in "我爱苹果注意力"]
    assert all(ink != missing for ink in inks)
    assert len({bytes(ink.constBits()) for ink in inks}) == len(inks)
