"""Axes that show numbers as they are: pyqtgraph's automatic SI prefix turned off.

Why: every number on our axes is a weight, a position, a step, a loss or a BLEU score, and none of
them reads better as "500 m" or under a "(×0.001)" label (the difference map's weights once did). And
while the prefix is on, pyqtgraph re-renders the axis label's HTML and resizes the axis on every range
change (``AxisItem.updateAutoSIPrefix``), whether or not the label shows: measured, ~750 times each time
the Positional-encoding tab is laid out at a new size, and 5% of its layout tests' time.
"""

from __future__ import annotations

import pyqtgraph as pg


def plain_axes(*items) -> None:
    """Turn the SI prefix off on every axis of ``items``: plot items (colour bars are), plot widgets, axes."""
    for item in items:
        if isinstance(item, pg.PlotWidget):
            item = item.getPlotItem()
        # A colour bar is a PlotItem too: its axes are in the same table.
        axes = [item] if isinstance(item, pg.AxisItem) else [entry["item"] for entry in item.axes.values()]
        for axis in axes:
            axis.enableAutoSIPrefix(False)
