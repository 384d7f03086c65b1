"""A heatmap's titles fitted to the plot as drawn, and the height at which it reads whole (a mixin of
``HeatmapView``).

The query title runs up the side of the plot and the colour bar's along it: on a short canvas (a dock
under the map, a zoomed font) they lose their explanation, then shrink to their unzoomed size, then are
cut, rather than running past the plot's ends.
"""

from __future__ import annotations

import numpy as np
from PySide6 import QtGui, QtWidgets

from explorer.attention.heatmap_numbers import NUMBER_SHRINK
from explorer.ui.i18n import again, tr
from explorer.ui.plot_titles import (
    BASE_POINT_SIZE,
    bare_axis_title,
    fitted_axis_title,
    set_fitted_title,
    short_axis_title,
)


class HeatmapTitles:
    """Expects ``HeatmapView``'s ``_values``, ``_titles``, ``_axis_labels``, ``_font_scale``, ``_text_color``,
    ``_left``, ``_bottom``, ``plot``, ``canvas``, ``color_bar`` and ``cell_numbers_max``."""

    def readable_plot_height(self) -> float:
        """The plot height (px) at which this matrix reads whole at the current type: every row a line of
        the cell numbers at their middle size (so the numbers are drawn and every row is labelled), and
        the query and colour-bar titles, which run up the plot's side, uncut. A window that splits its
        height with a dock asks it (``place_formula_dock``); the canvas' hard minimum stays
        ``min_canvas_lines``, so a user may still drag the map smaller."""
        rows = self._values.shape[0]
        font = QtGui.QFont(self.font())
        font.setPointSizeF(BASE_POINT_SIZE * 0.9 * self._font_scale * NUMBER_SHRINK[1])
        # 2 px a row over the line: the axis' shrunk label font rounds to a line a little taller than
        # its linear estimate, and a row a hair short of it is labelled only every other time.
        cells = rows * (QtGui.QFontMetricsF(font).height() + 2) if 0 < rows <= self.cell_numbers_max else 0.0
        title_font = QtGui.QFont(QtWidgets.QApplication.font())
        title_font.setPointSizeF(BASE_POINT_SIZE * 1.15 * self._font_scale)
        metrics = QtGui.QFontMetricsF(title_font)
        row_title = short_axis_title(again(self._titles[1]))
        titles = max(metrics.horizontalAdvance(row_title), metrics.horizontalAdvance(tr("attention weight")))
        return float(np.ceil(max(cells, titles + 2)))

    def fit_titles(self) -> None:
        """Fit the titles to the canvas' current size now (normally done after each resize)."""
        self._apply_titles()

    def _title_points(self, title: str) -> float:
        """The title's type: zoomed, unless its end would run into the colour bar's top number ("…head 1"
        over "1.0" at ×1.52 on a projector); then smaller, down to its unzoomed size. Centred over the
        plot, the title has the plot's width and twice the gap to the colour bar's numbers."""
        full = BASE_POINT_SIZE * 1.3 * self._font_scale
        vb, numbers = self.plot.vb.sceneBoundingRect(), self.color_bar.axis.sceneBoundingRect()
        if vb.width() < 2 or numbers.left() <= vb.center().x():
            return full  # not laid out yet: the first resize fits it again
        room = 2 * (numbers.left() - vb.center().x()) - 4
        font = QtGui.QFont(QtWidgets.QApplication.font())
        size, least = full, min(full, BASE_POINT_SIZE * 1.3)
        font.setPointSizeF(size)
        while size > least and QtGui.QFontMetricsF(font).horizontalAdvance(title) > room:
            size = max(least, size - 0.5)
            font.setPointSizeF(size)
        return size

    def _apply_titles(self) -> None:
        # In the window's language now: a resize after a language switch re-applies the titles kept aside.
        title, row_title, col_title = (again(t) for t in self._titles)
        set_fitted_title(self.plot, title, self._text_color.name(), self._title_points(title), self.canvas.width())
        # The query title runs up the side of the plot; on a short canvas its explanation in
        # brackets goes, rather than the title being cut off at the top.
        room = self.plot.vb.height() or 0.6 * self.canvas.height()
        full = BASE_POINT_SIZE * 1.15 * self._font_scale
        if fitted_axis_title(row_title, full, full, room)[0] != row_title:
            row_title = short_axis_title(row_title)
        # Still longer than the plot is tall (zoom +2 under the formula dock): in smaller type, down to
        # its size unzoomed (a zoomed title cut to "Query: so…" says less than a smaller whole one),
        # then cut, or it runs past the plot's top and bottom and is clipped at both ends; the colour
        # bar's title likewise.
        least = min(full, BASE_POINT_SIZE * 1.15)
        shown, row_size = fitted_axis_title(row_title, full, least, room)
        if shown != row_title:  # cut even so: "Query", whole, says more than "Query: source to…"
            shown, row_size = fitted_axis_title(bare_axis_title(row_title), full, least, room)
        row_title = shown
        bar_title, bar_size = fitted_axis_title(tr("attention weight"), full, least, room)
        if bar_title != tr("attention weight"):  # cut even in the least type ("attention wei…" at ×1
            bar_title, bar_size = fitted_axis_title(tr("weight"), full, least, room)  # under the dock)
        # The key title runs under the plot: likewise in smaller type, then without its explanation
        # ("Key (decoder input)" read "Key (decoder inp" under the Step tab's narrow map at ×1.52).
        across = self.plot.vb.width() or 0.6 * self.canvas.width()
        for whole in (col_title, short_axis_title(col_title), bare_axis_title(short_axis_title(col_title))):
            shown, col_size = fitted_axis_title(whole, full, least, across)
            if shown == whole:
                break  # the first form that fits whole; else the barest, cut
        col_title = shown
        styles = [{"color": self._text_color.name(), "font-size": f"{np.floor(size * 10) / 10:.1f}pt"}
                  for size in (row_size, col_size, bar_size)]  # rounded down: a title that fits stays in
        labels = (row_title, col_title, bar_title, tuple(tuple(style.items()) for style in styles))
        if labels == self._axis_labels:
            return  # setLabel drops the axes' cached pictures; a head switch keeps these titles
        self._axis_labels = labels
        for axis, text, style in zip((self._left, self._bottom, self.color_bar.axis), (row_title, col_title, bar_title),
                                     styles, strict=True):
            axis.setLabel(text, **style)
        # pyqtgraph places an axis' title only when the axis is resized: a title cut a turn after the
        # resize stayed where the longer one had been centred, and ran off the canvas (")uery: target token").
        for axis in (self._left, self._bottom, self.color_bar.axis):
            axis.resizeEvent()
