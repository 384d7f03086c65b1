"""The text under the attention maps (the statistics line, the notation legend) fitted to the room left.

Zoomed twice on a 1024-px projector the statistics wrapped to three lines and the legend to two more,
and with the formula dock open the map kept an 80-px strip. The map comes first: the statistics take
at most ``MAX_STATS_LINES`` (first without the head's name, which the map's title says already, then
without their last parts, ending in "…"), and the legend shows only while both fit in ``TEXT_SHARE`` of
the panel's height. What is left out is in the statistics' tooltip.

Texts come in parts separated by three spaces, as ``panel.unbreakable`` makes them: lines break only
between parts, so a part is never cut, only left out whole.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QFont, QFontMetrics, QFontMetricsF

GAP = "   "  # between the parts of a line; the only place it may break
SEPARATOR = "·"  # a part of its own between two statistics
ELLIPSIS = "…"
MAX_STATS_LINES = 2
# Clear space between the ink of two token labels stacked one above the other, as a share of their ink:
# Chinese glyphs fill their whole square, and at Latin spacing a column of one-character row labels read
# as one vertical word ("猫在地上泡汤了") on a projector.
LEADING = 0.12
WIDE_LEADING = 0.35
TEXT_SHARE = 0.25  # of the panel's content height, for the statistics and the legend together


def wrapped_height(text: str, metrics: QFontMetrics, width: int) -> int:
    """The height ``text`` takes word-wrapped at ``width`` px (as a word-wrapped QLabel lays it out)."""
    if width <= 0:
        return 0
    rect = metrics.boundingRect(QRect(0, 0, width, 1 << 20), Qt.TextFlag.TextWordWrap, text)
    return rect.height()


def is_wide(text: str) -> bool:
    """Whether ``text`` holds a full-width (Chinese, Japanese, Korean) character."""
    return any(unicodedata.east_asian_width(ch) in "WF" for ch in text)


def stacked_pitch(labels: list[str], font: QFont) -> float:
    """The least distance (px, in ``font``) between the centres of two neighbouring labels, each centred
    in its line, at which their ink keeps clear space between them (LEADING).

    Measured on the labels' ink, not the font's line height: a line holds room for accents above capitals
    and for descenders, which most pieces lack, and rows fitted to 0.95 lines set German rows in 8.5 pt
    where 10 pt read clear of each other (presentation mode, 13-px rows). One label counts its own ink."""
    metrics = QFontMetricsF(font)
    inks = [metrics.tightBoundingRect(s) for s in labels]
    pairs = list(zip(range(len(labels)), range(1, len(labels)))) or [(0, 0)] * bool(labels)
    need = 0.0
    for a, b in pairs:  # the upper label's lowest ink against the lower one's highest
        ink = max(0.0, inks[a].bottom() - inks[b].top())
        leading = WIDE_LEADING if is_wide(labels[a]) or is_wide(labels[b]) else LEADING
        need = max(need, ink * (1 + leading))
    return need


def side_by_side(advances: list[float], cell: float, gap: float) -> bool:
    """Whether labels ``advances`` px wide, centred ``cell`` px apart, keep ``gap`` px between neighbours."""
    if len(advances) == 1:
        return advances[0] + gap <= cell
    return all((a + b) / 2 + gap <= cell for a, b in zip(advances, advances[1:]))


def fit_parts(text: str, metrics: QFontMetrics, width: int, max_lines: int) -> str:
    """``text`` itself when it wraps to at most ``max_lines`` at ``width``; else without its first part
    (a heading such as "Layer 1, head 1:"), then also without trailing parts, ending in "…". One part
    at least is kept, even if it alone is longer."""
    # Measured, not max_lines × lineSpacing(): laid out, a line stands its fractional height rounded up
    # (25 px for a 24-px line spacing at 15.9 pt), and two lines would never have fitted.
    room = wrapped_height("\n".join("X" * max_lines), metrics, width)
    if wrapped_height(text, metrics, width) <= room:
        return text
    parts = text.split(GAP)
    body = parts[1:] if len(parts) > 1 else parts

    def candidate(end: int) -> str:  # the first ``end`` parts, "…" after them unless they are all
        kept = body[:end]
        while len(kept) > 1 and kept[-1] == SEPARATOR:
            kept = kept[:-1]
        return GAP.join(kept + ([ELLIPSIS] if end < len(body) else []))

    whole = candidate(len(body))
    if wrapped_height(whole, metrics, width) <= room:
        return whole
    # The longest first parts + "…" that fit, found by halving: fewer parts never wrap to more lines
    # (only the whole, which has no "…", can be shorter than fewer parts and "…": tried first, above).
    # Each try lays the text out (~60 µs); tried from the longest down, a head switch at 1024 × 768
    # with the formula dock open cost ~30 of them (1.8 ms of its ~17).
    best, low, high = GAP.join(body[:1] + [ELLIPSIS]), 1, len(body) - 1
    while low <= high:
        middle = (low + high) // 2
        shown = candidate(middle)
        if wrapped_height(shown, metrics, width) <= room:
            best, low = shown, middle + 1
        else:
            high = middle - 1
    return best


@dataclass(frozen=True)
class BelowMap:
    """What the labels under the map show: the statistics' text, whether the legend shows, the tooltip."""

    stats: str
    legend_shown: bool
    tooltip: str


def fit_below_map(stats: str, legend: str, metrics: QFontMetrics, width: int, height: int,
                  plain_stats: str, plain_legend: str, extra: int = 0, map_spare: float | None = None) -> BelowMap:
    """Fit the statistics (``stats``, in parts) and the legend to ``width`` px of text and ``height`` px
    of panel. ``extra`` is what the two labels add around their text (margins); ``plain_*`` are the
    copy-friendly texts the tooltip quotes. ``map_spare``, when known, is what the map's plot has over
    its readable height were the legend hidden and the statistics on one line: their second line, then
    the legend, show only if they fit in that too (under the formula dock a share of the panel was still
    room the map needed)."""
    shown = fit_parts(stats, metrics, width, MAX_STATS_LINES)
    if map_spare is not None:  # the statistics' second line before the legend, and each only if it fits
        one = fit_parts(stats, metrics, width, 1)
        second = wrapped_height(shown, metrics, width) - wrapped_height(one, metrics, width)
        if second > map_spare:
            shown = one
        else:
            map_spare -= second
    legend_height = wrapped_height(legend, metrics, width)
    used = wrapped_height(shown, metrics, width) + legend_height + extra
    legend_shown = used <= TEXT_SHARE * height and (map_spare is None or legend_height <= map_spare)
    left_out = []
    if shown != stats:
        left_out.append(plain_stats)
    if not legend_shown:
        left_out.append(plain_legend)
    return BelowMap(shown, legend_shown, "\n\n".join(left_out))
