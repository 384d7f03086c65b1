"""Chinese glyphs from the bundled font on every machine: it covers every character the app shows, the theme
registers it and names it after the desktop's family, Chinese text is drawn from it (beside an installed
Chinese font too) while Latin keeps the desktop's face, and its glyphs are real."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QFontDatabase, QFontInfo, QImage, QPainter, QRawFont, QTextLayout

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


def _runs(text: str, font: QFont) -> list[tuple[str, str]]:
    """(family, characters) of each glyph run Qt lays ``text`` out in with ``font``."""
    layout = QTextLayout(text, font)
    layout.beginLayout()
    layout.createLine()
    layout.endLayout()
    out = []
    for run in layout.glyphRuns():
        raw = run.rawFont()
        chars = "".join(c for c in text if raw.supportsCharacter(ord(c)) and c != " ")
        out.append((raw.familyName().lower(), chars))
    return out


def test_the_theme_registers_the_bundled_font_once_and_chinese_is_drawn_from_it(
        qapp, fresh, restore_app_look):
    """Whatever the machine has: on one with Droid Sans Fallback (pulled in by imagemagick) a Chinese line
    was 17 px high against the bundled font's 15.2, and the 1024 × 768 layouts measured other lines."""
    plain = QFont(qapp.font())
    plain.setFamilies(qapp.font().families()[:1])  # the desktop's font alone, as before the theme
    qapp.setFont(plain)
    desktop = QFontInfo(plain).family()
    style.apply_theme(qapp)  # what the app does at start, before any window exists
    style.apply_theme(qapp)
    assert fresh == [str(chinese_font.FONT_FILE)]  # registered once
    family = chinese_font.ensure_chinese_glyphs()
    assert family == "WenQuanYi Micro Hei" and qapp.font().families() == [desktop, family]
    # The window's fonts are copies of the application's. Where a system font covers Chinese too (Droid
    # Sans Fallback on the machine this was found on), Qt would otherwise take Chinese from it.
    for font in (QFont(qapp.font()), style.scaled_font(1.7, bold=True)):
        runs = dict(_runs("注意力 Attention", font))
        assert set(runs.get(family.lower(), "")) >= set("注意力"), runs
        assert runs.get(desktop.lower(), "").startswith("Attention"), runs  # Latin keeps the desktop's face


def test_a_fixed_width_font_keeps_its_face_and_takes_chinese_from_the_bundled_font(qapp, chinese_glyphs):
    mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    face = QFontInfo(mono).family()
    both = chinese_font.with_chinese(mono)
    assert both is not mono and both.families() == [face, chinese_glyphs]
    assert QFontInfo(both).family() == face  # an alias such as "monospace" resolved first, not lost
    families = [f for f, _ in _runs("0.25 权重", both)]
    assert families[0] in (face.lower(), chinese_glyphs.lower()) and set(families) == {face.lower(),
                                                                                       chinese_glyphs.lower()}


def test_the_bundled_font_draws_real_distinct_glyphs(qapp, chinese_glyphs):
    family = chinese_glyphs
    # Real glyphs: each character's ink differs from the others' and from the box of a missing glyph.
    missing = _ink("\ue000", family)
    inks = [_ink(c, family) for c in "我爱苹果注意力"]
    assert all(ink != missing for ink in inks)
    assert len({bytes(ink.constBits()) for ink in inks}) == len(inks)
