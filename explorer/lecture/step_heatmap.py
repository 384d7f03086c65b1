"""The Step tab's heatmap: its title keeps clear of the colour bar, its token labels are set in the
window's own type.

pyqtgraph centres a plot's title over the map and lets a title wider than the map spill to both sides;
on a 1024-px projector the two Step maps' titles ("Decoder masked self-attention", "Cross-attention over
the source") spilled over their colour bars and sat on the bars' "1.0" (zoomed, cut with "…" too). Here
the title is fitted to the room left of the colour bar (see ``fit_title``): whole on one line, else
wrapped onto two lines while the map is tall enough to spare a line, else its short form ("Cross-
attention"), cut with "…" only when even that does not fit. The whole title is then the map's tooltip.

The heatmap's axes use 11 pt × zoom, a little under the window's 12 pt × zoom, which suits the Head
view's long axes; the Step tab's key labels (the source words a class follows the boxed row over) came
out smaller than every other text of the window, so here they start at the window's base size.
"""

from __future__ import annotations

import html

from PySide6 import QtCore, QtGui, QtWidgets

from explorer.attention.heatmap import HeatmapView
from explorer.ui.i18n import again
from explorer.ui.plot_titles import BASE_POINT_SIZE, release_title_width
from explorer.ui.title_lines import two_line_splits

TITLE_FACTOR = 1.3  # the title's size over the axes' base, as HeatmapView writes it
GAP = 6.0  # px kept free between the title and the colour bar (and the canvas' left edge)
TWO_LINE_CANVAS_LINES = 10  # a canvas at least this many title lines tall spares one for a wrapped title


def fit_title(title: str, short: str, metrics: QtGui.QFontMetricsF, rooms: tuple[float, float],
              two_lines: bool) -> tuple[list[str], str]:
    """The title's lines and justification for ``rooms`` = (px of text centred over the map, px of text
    ending at the map's right edge): the whole title on one line or (``two_lines``) on two, else the
    short title, else the short title cut with "…". Centred over the map where it fits so, else pinned
    to the map's right edge and running left over the query axis, which has nothing above it."""
    def width(lines) -> float:
        return max(metrics.horizontalAdvance(line) for line in lines)

    candidates = [[title]]
    if two_lines:
        candidates += two_line_splits(title, metrics)
    candidates.append([short or title])
    for lines in candidates:
        for room, justify in zip(rooms, ("center", "right")):
            if width(lines) <= room:
                return lines, justify
    cut = metrics.elidedText(short or title, QtCore.Qt.TextElideMode.ElideRight, max(1.0, max(rooms)))
    return [cut], "right" if metrics.horizontalAdvance(cut) > rooms[0] else "center"


class StepHeatmap(HeatmapView):
    """A HeatmapView with the Step tab's title fitting and label size; ``short_title`` is the title's
    short form (set before ``set_matrix``, through tr())."""

    short_title = ""

    def title_font(self) -> QtGui.QFont:
        font = QtGui.QFont(QtWidgets.QApplication.font())
        font.setPointSizeF(BASE_POINT_SIZE * TITLE_FACTOR * self._font_scale)
        return font

    def title_rooms(self) -> tuple[float, float] | None:
        """The widest title text (px) that stays left of the colour bar and inside the canvas, centred
        over the map as pyqtgraph centres it, and right-justified to the map's edge; None before the
        plot is laid out."""
        vb = self.plot.vb.sceneBoundingRect()
        if vb.width() < 2:
            return None
        right = self.canvas.width() if self.color_bar.scene() is None else self.color_bar.sceneBoundingRect().left()
        right -= GAP
        margin = self.plot.titleLabel.item.document().documentMargin()
        centre = vb.center().x()
        centred = 2 * (min(right - centre, centre - GAP) - margin)
        pinned = min(right, self.plot.titleLabel.sceneBoundingRect().right()) - GAP - 2 * margin
        return max(0.0, centred), max(0.0, pinned)

    def drop_colour_bar(self) -> None:
        """Draw no colour bar of its own (a neighbour's says the same scale): the room goes to the cells.
        The bar object stays, unseen, so the colour map still reaches the image through it."""
        if self.color_bar.scene() is not None:
            self.plot.layout.removeItem(self.color_bar)
            self.canvas.scene().removeItem(self.color_bar)

    def title_lines(self) -> list[str]:
        """The title's lines as shown (plain text)."""
        return list(getattr(self, "_title_lines", []))

    def set_font_scale(self, f: float) -> None:
        super().set_font_scale(f)
        font = QtGui.QFont(self.font())
        font.setPointSizeF(max(BASE_POINT_SIZE * self._font_scale, QtWidgets.QApplication.font().pointSizeF()))
        self._key_font = font
        for axis in (self._left, self._bottom):
            axis.set_font(font)

    def key_font(self) -> QtGui.QFont:
        """The token labels' font before any shrinking to crowded cells."""
        return QtGui.QFont(self._key_font)

    def _apply_titles(self) -> None:  # HeatmapView's, then the title fitted to the colour bar
        super()._apply_titles()
        title = again(self._titles[0])
        rooms = self.title_rooms()
        if not title or rooms is None:
            return
        font = self.title_font()
        metrics = QtGui.QFontMetricsF(font)
        two_lines = self.canvas.height() >= TWO_LINE_CANVAS_LINES * metrics.height()
        lines, justify = fit_title(title, again(self.short_title), metrics, rooms, two_lines)
        self._title_lines = lines
        self.plot.setTitle("<br>".join(html.escape(line) for line in lines), color=self._text_color.name(),
                           size=f"{font.pointSizeF():.1f}pt", justify=justify)
        # Two lines are laid out left-aligned in their box; centred, they read as one title.
        document = self.plot.titleLabel.item.document()
        option = document.defaultTextOption()
        option.setAlignment(QtCore.Qt.AlignmentFlag.AlignHCenter)
        document.setDefaultTextOption(option)
        release_title_width(self.plot)
        if len(lines) > 1:  # pyqtgraph holds the title's row at 30 px, one line's height: make it two
            height = max(30, int(document.size().height() - document.documentMargin()))
            self.plot.titleLabel.setMaximumHeight(height)
            self.plot.layout.setRowFixedHeight(0, height)
        self.canvas.setToolTip(title if lines != [title] else "")
