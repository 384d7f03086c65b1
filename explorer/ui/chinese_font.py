"""Chinese glyphs on a machine that has none: the bundled font, registered only where it is needed.

A fresh Linux install, a lecture-hall PC or a container often has no font that covers Chinese. Qt then
draws every character of the Chinese window and of the English→Chinese model's output as an empty box,
and each layout that fits text to its room measures those boxes. Where no installed family covers
Simplified Chinese, the app registers ``assets/fonts/chinese.ttf`` (WenQuanYi Micro Hei, cut to GB 2312
and the app's own characters by ``tools/make_cjk_font.py``); Qt's font fallback then finds it for every
Chinese character, in any widget, whatever family the widget asked for. Where a system font exists it is
left in charge: it matches the desktop, and it covers more than GB 2312.

Registering costs ~1 ms; asking which families cover Chinese loads Qt's font database, which the first
painted text would load anyway.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QFontDatabase

FONT_FILE = Path(__file__).resolve().parents[2] / "assets" / "fonts" / "chinese.ttf"  # checkout or wheel
_registered: list[str] = []  # the families added by this process, so a second call adds nothing


def installed_chinese_families() -> list[str]:
    return [f for f in QFontDatabase.families(QFontDatabase.WritingSystem.SimplifiedChinese)
            if f not in _registered]


def ensure_chinese_glyphs() -> str | None:
    """Registers the bundled font if no installed font covers Simplified Chinese. Returns the family
    that now draws Chinese where this call (or an earlier one) registered it, else None. Needs a
    QGuiApplication."""
    if _registered:
        return _registered[0]
    if installed_chinese_families():
        return None
    font_id = QFontDatabase.addApplicationFont(str(FONT_FILE))  # -1 if the file is missing or unreadable
    families = QFontDatabase.applicationFontFamilies(font_id) if font_id >= 0 else []
    _registered.extend(families)
    return families[0] if families else None
