"""The weights written in a heatmap's cells, fitted to the cells as drawn (a mixin of ``HeatmapView``).

Numbers in cells are for teaching small examples: up to ``CELL_NUMBERS_MAX`` rows and columns, in the
largest type at which "0.00" (else ".00") fits a cell; where none fits, the colours alone speak and the
read-out gives the number on hover. One graphics item draws them all (explorer/attention/cell_numbers.py).
"""

from __future__ import annotations

from PySide6 import QtGui

from explorer.ui.colormaps import map_to_rgba, text_color_for
from explorer.ui.plot_titles import BASE_POINT_SIZE

CELL_NUMBERS_MAX = 12  # write the weight inside each cell up to this many rows and columns
NUMBER_SHRINK = (1.0, 0.85, 0.7)  # the cell numbers' font, as a fraction of theirs, tried until "0.00" fits
# The two colours text_color_for picks, made once: a redraw names one for each of up to 144 numbers.
_TEXT_COLORS = {name: QtGui.QColor(name) for name in ("#000000", "#ffffff")}


def cell_text(value: float, compact: bool) -> str:
    """A weight as a cell writes it: "0.43", or in narrow cells ".43" (a weight is never above 1)."""
    text = f"{value:.2f}"
    return text[1:] if compact and text.startswith("0") else (text[:3] if compact else text)


class HeatmapNumbers:
    """Expects ``HeatmapView``'s ``_values``, ``_displayed``, ``_masked``, ``_cmap_name``, ``_font_scale``,
    ``_number_style``, ``plot``, ``cell_numbers`` and ``cell_numbers_max``."""

    def _rebuild_cell_numbers(self) -> None:
        # Numbers in cells are for teaching small examples; past ~12 tokens they become noise.
        rows, cols = self._values.shape
        style = None
        if 0 < rows <= self.cell_numbers_max and cols <= self.cell_numbers_max:
            style = self._number_style = self._fitting_number_style()
        if style is None:  # the read-out still gives each cell's weight on hover
            self.cell_numbers.clear()
            return
        size, compact = style
        rgba = map_to_rgba(self._displayed, self._cmap_name)
        font = QtGui.QFont(self.font())
        font.setPointSizeF(size)
        cells = [(r, c, cell_text(self._values[r, c], compact), _TEXT_COLORS[text_color_for(rgba[r, c])])
                 for r in range(rows) for c in range(cols) if not self._masked[r, c]]
        self.cell_numbers.set_cells(cells, font, rows, cols)

    def cell_numbers_shown(self) -> bool:
        """Whether the weights are written in the cells now: not when the cells are too small for them (a
        short canvas under a dock, a zoomed font), where the colours alone speak and the read-out gives
        the number on hover. Refitted on every resize and range change (``_refit_cell_numbers``)."""
        return bool(self.cell_numbers.cells())

    def _fitting_number_style(self) -> tuple[float, bool] | None:
        """The largest cell-number size at which "0.00" fits a cell as drawn now, else at which ".00"
        does (compact), as (point size, compact); None when neither fits. Before the view is first laid
        out its cells have no size: the full size then (the first resize refits)."""
        full = BASE_POINT_SIZE * 0.9 * self._font_scale
        vb = self.plot.vb
        (x0, x1), (y0, y1) = vb.viewRange()
        if vb.width() < 2 or vb.height() < 2 or x1 <= x0 or y1 <= y0:
            return full, False
        cell_w, cell_h = vb.width() / (x1 - x0), vb.height() / (y1 - y0)
        font = QtGui.QFont(self.font())
        for compact, widest in ((False, "0.00"), (True, ".00")):
            for factor in NUMBER_SHRINK:
                font.setPointSizeF(full * factor)
                metrics = QtGui.QFontMetricsF(font)
                if metrics.horizontalAdvance(widest) + 4 <= cell_w and metrics.height() <= cell_h:
                    return full * factor, compact
        return None

    def _refit_cell_numbers(self, *_args) -> None:
        rows, cols = self._values.shape
        if rows == 0 or rows > self.cell_numbers_max or cols > self.cell_numbers_max:
            return
        if self._fitting_number_style() != self._number_style:
            self._rebuild_cell_numbers()

    def cell_number_style(self) -> tuple[float, bool] | None:
        """(point size, compact) of the cell numbers, or None when they do not fit (or are not drawn)."""
        return self._number_style if self.cell_numbers.cells() else None

    def cell_number_texts(self) -> list[str]:
        return self.cell_numbers.texts()
