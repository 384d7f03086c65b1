"""A pyqtgraph axis whose numbers never stand on each other, up and down or side by side.

Why: pyqtgraph spaces ticks by the axis' length alone (at least 2.25 intervals whatever the font), and
draws the top level's numbers however crowded they are. Zoomed twice on a 1024 × 768 projector the Train
tab's learning-rate and BLEU axes were ~64 px tall with 0.2, 0.4, 0.6 and 0.8 in 20 px type, piled on top
of each other (a walk-through, 2026-12-05). Here the spacing grows along 1, 2, 5, 10, … until each number
has a line and a half of its own, down to two intervals (one number inside the axis).
"""

from __future__ import annotations

import math

import pyqtgraph as pg
from PySide6.QtGui import QFontMetricsF

ROOM = 1.6  # lines of tick text per tick, at the least


def _next_nice(spacing: float) -> float:
    """The next spacing of the 1, 2, 5 series above ``spacing``."""
    power = 10.0 ** math.floor(math.log10(spacing))
    mantissa = spacing / power
    return (2.0 if mantissa < 1.5 else 5.0 if mantissa < 3.5 else 10.0) * power


class RoomyAxis(pg.AxisItem):
    """``pg.AxisItem`` whose major spacing is widened to fit its tick font: a line and a half of height a
    number on a left or right axis, the widest number and a gap on a bottom or top one (zoomed ×1.52 in a
    narrow column the Train tab's steps read "0.20.40.60.8")."""

    def tickSpacing(self, minVal: float, maxVal: float, size: float):  # noqa: N802 - pyqtgraph's name
        levels = super().tickSpacing(minVal, maxVal, size)
        if not levels or size <= 0:
            return levels
        span = abs(maxVal - minVal)
        metrics = QFontMetricsF(self.style.get("tickFont") or self.font())
        major = levels[0][0]

        def room(spacing: float) -> float:  # what one number needs along the axis
            if self.orientation in ("left", "right"):
                return metrics.height() * ROOM
            lo, hi = (spacing * math.floor(minVal / spacing), spacing * math.ceil(maxVal / spacing))
            texts = self.tickStrings([lo, hi, lo + spacing], 1.0, spacing)
            return max(metrics.horizontalAdvance(t) for t in texts) + metrics.height()  # and a gap
        while span / major > 2 and span / major * room(major) > size:  # two intervals: a number inside
            major = _next_nice(major)
        if major == levels[0][0]:
            return levels
        # One level: pyqtgraph labels a finer level too where its own crowding test lets it, and with the
        # old spacing as the finer level, 0.5 was drawn over 0.4 and 0.6 (measured on a 131 px axis).
        return [(major, 0.0)]
