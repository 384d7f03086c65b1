"""How a token axis' labels fit their cells (a mixin of ``TokenAxis``): the type size, smaller where
neighbours would run into each other; keys upright, slanted at 45° or on their side; and every n-th label
only where even the smallest type does not fit. Kept apart from token_axis.py, which draws what this
chooses and keeps the axis' geometry honest.
"""

from __future__ import annotations

import math

from PySide6 import QtGui

from explorer.attention.text_fit import is_wide, side_by_side

SIN45 = math.sqrt(0.5)  # a slanted label's reach along and across the axis, per px of its length
MIN_FONT_FACTOR = 0.5  # smallest label type, relative to the axis font …
MIN_POINT_SIZE = 7.0  # … and in points: below this a label is a smudge on any screen
WIDE_UPRIGHT_FACTOR = 0.75  # Chinese keys may shrink this far to stand upright rather than on their side
KEY_GAP = 6.0  # px between two upright keys …
KEPT_KEY_GAP = 3.0  # … or between keys already upright, before they slant (see _fits_upright)


class TokenAxisFit:
    """Expects ``TokenAxis``'s ``_labels``, ``_font``, ``_pitch``, ``_kept_upright`` and pyqtgraph's
    ``orientation``."""

    def _across(self, font: QtGui.QFont) -> float:
        """The px two neighbouring labels in ``font`` need across the axis (stacked rows, or keys on
        their side) to keep clear of each other: see stacked_pitch; a pixel more for rounding."""
        return self._pitch * QtGui.QFontMetricsF(font).height() + 1

    def _fitting_font(self, cell: float) -> QtGui.QFont:
        """The axis font, shrunk when neighbouring labels in it would run into each other across a cell:
        a label per token in smaller type beats every other label in full size (a long sentence at
        1024 px)."""
        if self.orientation == "top" or cell >= self._across(self._font):
            return self._font
        factor = max(MIN_FONT_FACTOR, cell / self._across(self._font))
        font = QtGui.QFont(self._font)
        if font.pointSizeF() > 0:
            least = max(min(MIN_POINT_SIZE, font.pointSizeF()), font.pointSizeF() * MIN_FONT_FACTOR)
            size = max(least, font.pointSizeF() * factor)
            font.setPointSizeF(size)
            # A line's height does not scale exactly with the point size (it is rounded to the font's
            # hinted metrics): the scaled size could still be a pixel taller than the cell, and then
            # only every other row was labelled (12 rows on a 200-px plot). Step down until one fits.
            while size > least and self._across(font) > cell:
                size = max(least, size - 0.25)
                font.setPointSizeF(size)
        else:
            font.setPixelSize(max(1, int(font.pixelSize() * factor)))
        return font

    def _upright_font(self, cell: float, font: QtGui.QFont) -> QtGui.QFont | None:
        """``font``, where each key keeps clear of its neighbours written upright (a long one may reach
        into a short neighbour's cell); for Chinese keys a smaller one down to WIDE_UPRIGHT_FACTOR of
        it: a character turned on its side is much harder to read than a smaller upright one, and one or
        two are narrower than most English words. None: the keys must slant."""
        if self._fits_upright(cell, font):
            return font
        if font.pointSizeF() <= 0 or not any(is_wide(s) for s in self._labels):
            return None
        smaller = QtGui.QFont(font)
        size, least = font.pointSizeF(), max(MIN_POINT_SIZE, font.pointSizeF() * WIDE_UPRIGHT_FACTOR)
        while size > least:
            size = max(least, size - 0.25)
            smaller.setPointSizeF(size)
            if self._fits_upright(cell, smaller):
                return smaller
        return None

    def _fits_upright(self, cell: float, font: QtGui.QFont) -> bool:
        # Keys already upright keep to it a little longer than they take it: the axis' height moves
        # the plot's width. Slanted keys make the plot shorter, its row labels shrink, the plot grows
        # wider, the keys fit upright, the plot grows taller, the row labels grow back, the plot
        # narrows: at 1024 × 768 with the formula dock open the map flipped between the two a frame
        # at a time and never settled. A row label's shrink moves each of 11 cells about a pixel.
        gap = KEPT_KEY_GAP if self._kept_upright else KEY_GAP
        metrics = QtGui.QFontMetricsF(font)
        return side_by_side([metrics.horizontalAdvance(s) for s in self._labels], cell, gap)

    def _layout(self, cell: float, line_h: float, widest: float, vertical: bool, upright: bool,
                across: float):
        """Choose (angle, stride, text size across the axis) for labels spaced ``cell`` px apart;
        ``across``: what two neighbours need across the axis (see _across)."""
        # Labels are left out only where they would stand on each other (0.95 lines, as ever), not where
        # they merely lack clear space at the smallest type: a touching label beats a missing one.
        across = min(across, line_h * 0.95)
        if vertical:
            return 0, max(1, math.ceil(across / cell)), widest
        if self.orientation == "top":
            return 0, max(1, math.ceil((widest + KEY_GAP) / cell)), line_h
        if upright:
            return 0, 1, line_h
        if cell >= line_h * 1.3:
            return 45, 1, (widest + line_h * 0.5) * SIN45 + 2
        return 90, max(1, math.ceil(across / cell)), widest
