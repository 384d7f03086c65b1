"""An axis that labels every matrix row or column with a token, and keeps the labels readable.

pyqtgraph's AxisItem drops tick labels when they crowd and cannot rotate them, which is exactly wrong
for a token axis: a researcher needs *every* label, and sub-word pieces are wider than a matrix
cell. This axis draws its own labels: horizontal while they fit in a cell, slanted at 45° when they do
not, vertical when even that is too tight, in smaller type (down to half size) when a cell is
thinner than a line of text, and only every n-th label when even the smallest type does not fit. It
also emphasises the label of the hovered row or column.
"""

from __future__ import annotations

import math

import pyqtgraph as pg
from PySide6 import QtCore, QtGui

from explorer.attention.text_fit import stacked_pitch
from explorer.attention.token_axis_fit import SIN45, TokenAxisFit

_AlignRight = QtCore.Qt.AlignmentFlag.AlignRight | QtCore.Qt.AlignmentFlag.AlignVCenter
_AlignLeft = QtCore.Qt.AlignmentFlag.AlignLeft | QtCore.Qt.AlignmentFlag.AlignVCenter
_AlignTop = QtCore.Qt.AlignmentFlag.AlignHCenter | QtCore.Qt.AlignmentFlag.AlignTop
_AlignBottom = QtCore.Qt.AlignmentFlag.AlignHCenter | QtCore.Qt.AlignmentFlag.AlignBottom


class TokenAxis(TokenAxisFit, pg.AxisItem):
    """An AxisItem whose ticks sit on integers 0..n-1, one label per tick."""

    def __init__(self, orientation: str, **kwargs) -> None:
        super().__init__(orientation, **kwargs)
        self._labels: list[str] = []
        self._highlight: int | None = None
        self._font = QtGui.QFont()
        self._draw_font = self._font  # the font of the last layout: _font, or smaller when crowded
        self._accent = QtGui.QColor("#d62728")
        self._reach = (0.0, 0.0)  # (longest label, line height) the labels can paint: see _update_reach
        self._pitch = 0.0  # stacked_pitch of the labels, in lines of the axis font
        self.last_angle = 0  # the label angle chosen at the last paint (read by tests)
        self.last_stride = 1
        self._kept_upright = False  # these labels were last drawn upright (see _fits_upright)

    # ----------------------------------------------------------------------------------- public API
    def set_labels(self, labels) -> None:
        """Label tick i with labels[i]."""
        labels = [str(s) for s in labels]
        if labels == self._labels:
            return  # keep the cached picture: a head or layer switch keeps the tokens
        self._labels = labels
        self._kept_upright = False  # a new sentence's keys earn it afresh
        self.setTicks([[(i, s) for i, s in enumerate(self._labels)]])  # keeps tickValues() honest
        self._update_reach()

    def labels(self) -> list[str]:
        return list(self._labels)

    def set_font(self, font: QtGui.QFont) -> None:
        """Font of the tick labels (the axis title is styled separately, through setLabel)."""
        self._font = QtGui.QFont(font)
        self.setStyle(tickFont=self._font)
        self._update_reach()

    def set_accent(self, color) -> None:
        self._accent = QtGui.QColor(color)

    def set_highlight(self, index: int | None) -> None:
        """Draw label ``index`` bold in the accent colour (None: no emphasis)."""
        if index != self._highlight:
            self._highlight = index
            self.picture = None
            self.update()

    # ------------------------------------------------------------------------------ drawing details
    def _update_reach(self) -> None:
        # QGraphicsView repaints an item's boundingRect() and nothing else, and this axis learns the room
        # its labels need only while painting them (pyqtgraph's _updateMaxTextSize): the first picture
        # after new labels is drawn into the old, smaller geometry. Ink past the rectangle (slanted keys
        # below the axis, a longer row label left of it) stayed on a real screen as glyph fragments once
        # the layout had moved on. So the rectangle holds whatever the labels can paint, at any angle:
        # measured in the unshrunk font (crowding only shrinks it) and bold and 15 % wider, as drawn
        # when emphasised.
        bold = QtGui.QFont(self._font)
        bold.setBold(True)
        plain, heavy = QtGui.QFontMetricsF(self._font), QtGui.QFontMetricsF(bold)
        longest = max((max(plain.horizontalAdvance(s) * 1.15, heavy.horizontalAdvance(s)) + 2
                       for s in self._labels), default=0.0)
        self.prepareGeometryChange()
        self._reach = (longest, max(plain.height(), heavy.height()))
        self._pitch = stacked_pitch(self._labels, self._font) / plain.height()
        self.picture = None
        self.update()

    def boundingRect(self) -> QtCore.QRectF:  # Qt override
        rect = super().boundingRect()
        longest, line = self._reach
        if not longest:
            return rect
        own = self.mapRectFromParent(self.geometry())
        vertical = self.orientation in ("left", "right")
        gap = max(0, self.style["tickLength"]) + self.style["tickTextOffset"][0 if vertical else 1]
        if self.orientation == "left":  # right-aligned to the ticks, half a line past the end rows
            ink = QtCore.QRectF(own.right() - gap - longest, own.top() - line / 2, longest, own.height() + line)
        elif self.orientation == "right":
            ink = QtCore.QRectF(own.left() + gap, own.top() - line / 2, longest, own.height() + line)
        elif self.orientation == "top":  # centred over the ticks
            ink = QtCore.QRectF(own.left() - longest / 2, own.bottom() - gap - line, own.width() + longest, line)
        else:
            # Horizontal: centred under the tick. Slanted: down-left from the tick, its top corner half a
            # line's diagonal above it. Upright: straight down, half a line to either side.
            down = max(line, longest, (longest + line / 2) * SIN45)
            top = own.top() + gap - line / 2 * SIN45
            left = (longest + line) * SIN45
            ink = QtCore.QRectF(own.left() - left, top, own.width() + left + line, own.top() + gap + down - top)
        return rect | ink.adjusted(-2, -2, 2, 2)  # antialiased glyph edges

    def generateDrawSpecs(self, p):  # pyqtgraph override
        """Axis line, one tick per label, and label placements ``(anchor, angle, text, index)``."""
        bounds = self.mapRectFromParent(self.geometry())
        lo, hi = self.range
        span = hi - lo
        vertical = self.orientation in ("left", "right")
        if vertical:
            length = bounds.height()
            scale = -length / span if span else 0.0
            offset = lo * scale - length
        else:
            length = bounds.width()
            scale = length / span if span else 0.0
            offset = lo * scale
        if vertical:
            edge = bounds.right() if self.orientation == "left" else bounds.left()
            line = (QtCore.QPointF(edge, bounds.top()), QtCore.QPointF(edge, bounds.bottom()))
        else:
            edge = bounds.top() if self.orientation == "bottom" else bounds.bottom()
            line = (QtCore.QPointF(bounds.left(), edge), QtCore.QPointF(bounds.right(), edge))
        axis_spec = (self.pen(), line[0], line[1])
        if not self._labels or scale == 0.0:
            return axis_spec, [], []

        cell = abs(scale)
        font = self._fitting_font(cell)
        upright = self._upright_font(cell, font) if self.orientation == "bottom" else None
        font = upright or font
        metrics = QtGui.QFontMetricsF(font)
        line_h = metrics.height()
        widest = max(metrics.horizontalAdvance(s) for s in self._labels)
        self._draw_font = font
        angle, stride, needed = self._layout(cell, line_h, widest, vertical, upright is not None,
                                             self._across(font))
        self.last_angle, self.last_stride = angle, stride
        self._kept_upright = upright is not None

        tick_len = max(0, self.style["tickLength"])
        direction = -1 if self.orientation in ("left", "top") else 1
        tick_specs, text_specs = [], []
        pen = self.pen()
        low, high = min(0.0, length), max(0.0, length)
        for i, text in enumerate(self._labels):
            pos = i * scale - offset
            if pos < low - 0.5 or pos > high + 0.5:
                continue  # scrolled out of view
            if vertical:
                a, b = QtCore.QPointF(edge, pos), QtCore.QPointF(edge + direction * tick_len, pos)
            else:
                a, b = QtCore.QPointF(pos, edge), QtCore.QPointF(pos, edge + direction * tick_len)
            tick_specs.append((pen, a, b))
            if i % stride == 0 or i == self._highlight:
                gap = tick_len + self.style["tickTextOffset"][0 if vertical else 1]
                if vertical:
                    anchor = QtCore.QPointF(edge + direction * gap, pos)
                else:
                    anchor = QtCore.QPointF(pos, edge + direction * gap)
                text_specs.append((anchor, angle, text, i))
        self._updateMaxTextSize(int(math.ceil(needed)))
        return axis_spec, tick_specs, text_specs

    def label_font(self) -> QtGui.QFont:
        """The font the labels were last drawn in."""
        return QtGui.QFont(self._draw_font)

    def drawPicture(self, p, axisSpec, tickSpecs, textSpecs):  # pyqtgraph override
        p.setRenderHint(p.RenderHint.Antialiasing, False)
        p.setRenderHint(p.RenderHint.TextAntialiasing, True)
        pen, a, b = axisSpec
        p.setPen(pen)
        p.drawLine(a, b)
        for pen, a, b in tickSpecs:
            p.setPen(pen)
            p.drawLine(a, b)
        font = self._draw_font
        metrics = QtGui.QFontMetricsF(font)
        bold = QtGui.QFont(font)
        bold.setBold(True)
        for anchor, angle, text, index in textSpecs:
            emphasised = index == self._highlight
            p.setFont(bold if emphasised else font)
            p.setPen(QtGui.QPen(self._accent) if emphasised else self.textPen())
            width = metrics.horizontalAdvance(text) * (1.15 if emphasised else 1.0) + 2
            height = metrics.height()
            p.save()
            p.translate(anchor)
            if self.orientation == "left":
                rect, flags = QtCore.QRectF(-width, -height / 2, width, height), _AlignRight
            elif self.orientation == "right":
                rect, flags = QtCore.QRectF(0, -height / 2, width, height), _AlignLeft
            elif self.orientation == "top":
                rect, flags = QtCore.QRectF(-width / 2, -height, width, height), _AlignBottom
            elif angle == 0:
                rect, flags = QtCore.QRectF(-width / 2, 0, width, height), _AlignTop
            else:
                # Slanted or vertical: the label *ends* at its tick and runs down-left from it.
                text, width = self._fit_left(text, width, anchor, angle, QtGui.QFontMetricsF(p.font()))
                p.rotate(-angle)
                rect, flags = QtCore.QRectF(-width, -height / 2, width, height), _AlignRight
            p.drawText(rect, int(flags), text)
            p.restore()

    def _fit_left(self, text: str, width: float, anchor: QtCore.QPointF, angle: int,
                  metrics: QtGui.QFontMetricsF) -> tuple[str, float]:
        """A slanted label shortened ("Unfortun…") where it would run past the canvas' left edge.

        Only the first labels can: they hang left of the plot, where only the row labels' axis makes
        room, and under a map with short row labels (the Step tab's cross map: "<s>", "Leid") a long
        first word was cut at the edge ("nfortunately", 24 px lost in presentation mode). Shortened,
        it reads as a word with the rest in the hover read-out. Making the room instead narrowed the
        cells until the labels stood vertical, and giving it back slanted them again."""
        a = math.radians(angle)
        if angle >= 90 or self.scene() is None:
            return text, width  # vertical: it hangs half a line left, which the tick's cell covers
        room = self.mapToScene(anchor).x() - 1  # px from the tick to the canvas' left edge
        fits = (room - metrics.height() / 2 * math.sin(a)) / math.cos(a)  # the longest label that ends inside
        if width <= fits:
            return text, width
        short = metrics.elidedText(text, QtCore.Qt.TextElideMode.ElideRight, max(0.0, fits - 2))
        return short, metrics.horizontalAdvance(short) + 2
