"""A heatmap of signed differences (model B's weights minus model A's) in a diverging colour map.

The range is symmetric around 0, ±the largest |difference|, so white means "no change" in every map
and the two signs are equally strong at equal magnitudes; the colour bar says which colour is B > A.
"""

from __future__ import annotations

import numpy as np

from explorer.attention.heatmap import HeatmapView
from explorer.ui.colormaps import DIVERGING_COLORMAP, get_colormap

MIN_RANGE = 1e-3  # two equal maps still get a readable, non-degenerate colour bar


class DifferenceMapView(HeatmapView):
    """A HeatmapView for B − A: diverging colours, symmetric levels, a colour bar titled 'B − A'."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._range = 1.0
        self.color_bar.setColorMap(get_colormap(DIVERGING_COLORMAP))

    def set_matrix(self, values, row_labels, col_labels, masked=None, title: str = "",
                   row_title: str = "Query", col_title: str = "Key") -> None:
        super().set_matrix(values, row_labels, col_labels, masked, title, row_title, col_title)
        finite = np.abs(self._displayed[np.isfinite(self._displayed)])
        self._range = max(MIN_RANGE, float(finite.max()) if finite.size else 0.0)
        self.image.setLevels((-self._range, self._range))
        self.color_bar.setLevels(low=-self._range, high=self._range)

    def _apply_titles(self) -> None:
        super()._apply_titles()
        self.color_bar.axis.setLabel("B − A (weight)", color=self._text_color.name())

    def levels(self) -> tuple[float, float]:
        return (-self._range, self._range)

    def set_colormap(self, name: str) -> None:
        del name  # a signed difference keeps its diverging map whatever the attention views use
        self.color_bar.setColorMap(get_colormap(DIVERGING_COLORMAP))

    def _rebuild_cell_numbers(self) -> None:
        # Cell numbers are drawn for weights in [0, 1]; a signed map reads from the colour bar instead.
        self.cell_numbers.clear()
