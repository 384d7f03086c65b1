"""Chinese glyphs from the bundled font on every machine, so the Chinese window lays out the same everywhere.

A fresh Linux install, a lecture-hall PC or a container often has no font that covers Chinese. Qt then
draws every character of the Chinese window and of the English→Chinese model's output as an empty box,
and each layout that fits text to its room measures those boxes. Other machines have one, but not the
same one: Debian's Droid Sans Fallback (which imagemagick and ghostscript pull in) sets a line of Chinese
17 px high at the window's 9-point size, against 15.2 px for WenQuanYi Micro Hei; at 1024 × 768 the
formula dock's Chinese lines then took 12 px from the head map beneath it, below what it needs to read
whole (tests/explorer/test_formula_dock_zoom2.py). So the app registers ``assets/fonts/chinese.ttf``
(WenQuanYi Micro Hei cut to GB 2312 and the app's own characters by ``tools/make_cjk_font.py``) and makes
it the second family of the application's font, after the desktop's own: Latin text keeps the desktop's
face, Chinese comes from the bundled one, and a character outside GB 2312 still falls back to whatever the
system has.

Registering costs ~1 ms; Qt's font database, which it loads, the first painted text would load anyway.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QFont, QFontDatabase, QFontInfo, QGuiApplication

FONT_FILE = Path(__file__).resolve().parents[2] / "assets" / "fonts" / "chinese.ttf"  # checkout or wheel
_registered: list[str] = []  # the families added by this process, so a second call adds nothing


def with_chinese(font: QFont) -> QFont:
    """``font`` with the bundled family after its own: Qt takes each character from the first family of the
    list that has it, so Latin text keeps the font's face and Chinese comes from the bundled one (and a
    character outside both from the system's fallback). Unchanged until ``ensure_chinese_glyphs`` ran."""
    out = QFont(font)  # a copy either way: callers go on to change its size
    if _registered and _registered[0] not in font.families():
        # The family the machine resolved the font to, not the name asked for: in a list Qt no longer
        # resolves an alias such as "Sans Serif" or "monospace" through fontconfig.
        out.setFamilies([QFontInfo(font).family(), _registered[0]])
    return out


def ensure_chinese_glyphs() -> str | None:
    """Registers the bundled font (once) and puts it in the application font's family list, after the
    desktop's family; every widget's font and every copy of it inherit the list. Returns the bundled
    family, or None where the file cannot be read (Qt's own fallback then draws Chinese). Needs a
    QGuiApplication; call it before any widget measures text."""
    if not _registered:
        font_id = QFontDatabase.addApplicationFont(str(FONT_FILE))  # -1 if the file is missing or unreadable
        _registered.extend(QFontDatabase.applicationFontFamilies(font_id) if font_id >= 0 else [])
    if not _registered:
        return None
    app_font = QGuiApplication.font()
    if _registered[0] not in app_font.families():
        QGuiApplication.setFont(with_chinese(app_font))
    return _registered[0]
