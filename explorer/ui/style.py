"""The look of the app: a high-contrast light theme, a projector-sized font, zoom, the icon.

The app is often shown on a projector in a lit room, where dark themes wash out and thin grey text
disappears. So: Fusion (the same on every platform), near-black text on white, one saturated accent,
and a base font larger than desktop defaults. Zoom scales the *application* font, so every widget that
does not set its own font follows; widgets that do (the large translation text) re-derive theirs from
the app font in their ``set_font_scale``.

There is deliberately no style sheet: under one, Qt keeps the font each widget was polished with
and ignores later application font changes, which breaks zoom. Looks are set with palettes and with
*partial* fonts instead (a QFont with only ``bold`` set inherits its size, so it still follows zoom).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QColor, QFont, QIcon, QPalette
from PySide6.QtWidgets import QApplication, QLabel, QPushButton, QWidget

BASE_POINT_SIZE = 12.0  # 16 px at 96 dpi: readable from the back of a room, still fits a laptop
MIN_SCALE, MAX_SCALE = 0.5, 3.0
ZOOM_STEP = 1.15

ACCENT = "#1f5fbf"
TEXT = "#111111"
MUTED = "#4a4a4a"  # secondary text; still 8.9:1 on white
WINDOW = "#f4f4f4"
BASE = "#ffffff"

ICON_NAME = "attention-explorer.svg"
ERROR = "#b00020"


# How much window width each unit of zoom needs for every control to show whole. Measured with the real
# models at four client sizes, every tab and the formula dock, English and Chinese (stop 52): the largest
# zoom step at which nothing inside any tab was squeezed or cut was ×1.52 at 1008 px wide (a 1024 × 768
# projector's window), ×2.01 at 1264, ×2.31 at 1424 and ×3.0 at 1904 (Chinese ×1.75 at 1008); one step
# more cut "Encoder" to "ncode", the step counter and the training form. Width decided it at every size;
# 625 px a unit allows each of those steps but the 1424-px one (×2.01 there), and none past them.
WIDTH_PER_SCALE = 625


def clamp_scale(scale: float) -> float:
    return max(MIN_SCALE, min(MAX_SCALE, float(scale)))


def largest_scale(width: int) -> float:
    """The largest zoom at which a window ``width`` px wide still shows every control whole (never below
    1: the plain size is always offered)."""
    return clamp_scale(max(1.0, width / WIDTH_PER_SCALE))


def apply_theme(app: QApplication) -> None:
    """Fusion, a high-contrast light palette, and Chinese glyphs where the machine has none."""
    from explorer.ui.chinese_font import ensure_chinese_glyphs

    ensure_chinese_glyphs()  # before any widget measures text: boxes would fix every layout's widths
    app.setStyle("Fusion")
    pal = QPalette()
    pal.setColor(QPalette.ColorRole.Window, QColor(WINDOW))
    pal.setColor(QPalette.ColorRole.WindowText, QColor(TEXT))
    pal.setColor(QPalette.ColorRole.Base, QColor(BASE))
    pal.setColor(QPalette.ColorRole.AlternateBase, QColor("#eef2f8"))
    pal.setColor(QPalette.ColorRole.Text, QColor(TEXT))
    pal.setColor(QPalette.ColorRole.Button, QColor("#e6e6e6"))
    pal.setColor(QPalette.ColorRole.ButtonText, QColor(TEXT))
    pal.setColor(QPalette.ColorRole.Highlight, QColor(ACCENT))
    pal.setColor(QPalette.ColorRole.HighlightedText, QColor("#ffffff"))
    pal.setColor(QPalette.ColorRole.ToolTipBase, QColor("#ffffe0"))
    pal.setColor(QPalette.ColorRole.ToolTipText, QColor(TEXT))
    pal.setColor(QPalette.ColorRole.PlaceholderText, QColor("#6b6b6b"))
    pal.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text, QColor("#8a8a8a"))
    pal.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.ButtonText, QColor("#8a8a8a"))
    app.setPalette(pal)


def set_font_scale(app: QApplication, scale: float) -> float:
    """Set the application font to BASE_POINT_SIZE × scale (clamped); returns the scale used."""
    scale = clamp_scale(scale)
    font = QFont(app.font())
    font.setPointSizeF(BASE_POINT_SIZE * scale)
    app.setFont(font)
    return scale


def scaled_font(factor: float, bold: bool = False) -> QFont:
    """The current application font times ``factor``, for the few widgets that stand out."""
    font = QFont(QApplication.font())
    font.setPointSizeF(max(1.0, font.pointSizeF() * factor))
    font.setBold(bold)
    return font


def _recolor(widget: QWidget, role: QPalette.ColorRole, color: str) -> None:
    pal = widget.palette()
    pal.setColor(role, QColor(color))
    widget.setPalette(pal)


def bold_font() -> QFont:
    """Bold, and nothing else set: the size keeps following the application font."""
    font = QFont()
    font.setBold(True)
    return font


def make_heading(label: QLabel) -> QLabel:
    """A section heading: bold, in the secondary text colour."""
    label.setFont(bold_font())
    _recolor(label, QPalette.ColorRole.WindowText, MUTED)
    return label


def make_muted(label: QLabel) -> QLabel:
    _recolor(label, QPalette.ColorRole.WindowText, MUTED)
    return label


def make_error(label: QLabel) -> QLabel:
    _recolor(label, QPalette.ColorRole.WindowText, ERROR)
    return label


def make_primary(button: QPushButton) -> QPushButton:
    """The one button per area that matters most: accent-coloured and bold."""
    pal = button.palette()
    pal.setColor(QPalette.ColorRole.Button, QColor(ACCENT))
    pal.setColor(QPalette.ColorRole.ButtonText, QColor("#ffffff"))
    pal.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Button, QColor("#9aaed0"))
    pal.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.ButtonText, QColor("#eef2f8"))
    button.setPalette(pal)
    button.setFont(bold_font())
    return button


def icon_path() -> Path | None:
    """The app icon: inside the package when installed from a wheel, else in the source tree."""
    here = Path(__file__).resolve().parents[1]  # explorer/, beside which the source tree keeps assets/
    for candidate in (here / "icons" / ICON_NAME, here.parent / "assets" / "icons" / ICON_NAME):
        if candidate.is_file():
            return candidate
    return None


def app_icon() -> QIcon:
    path = icon_path()
    return QIcon(str(path)) if path is not None else QIcon()
