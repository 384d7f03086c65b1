"""The cell numbers of a map drawn over another map's (the items are written over, not made again: a
new head or sentence redrew ~100 text items from scratch) read as on a view that drew only the new map:
the same numbers in the same cells, colours and font, none left from the map before, none on a masked
cell, and all gone when a map is too big for them."""

from __future__ import annotations

import numpy as np

from explorer.attention.heatmap import HeatmapView


def drawn(view) -> list[tuple[float, float, str, str, float]]:
    """(column, row, text, colour, point size) of every cell number, in cell order."""
    return sorted((item.pos().x(), item.pos().y(), item.textItem.toPlainText(), item.color.name(),
                   item.textItem.font().pointSizeF()) for item in view._cell_texts)


def shown(qtbot, size=(640, 560)) -> HeatmapView:
    view = HeatmapView()
    qtbot.addWidget(view)
    view.resize(*size)
    view.show()
    qtbot.waitExposed(view)
    return view


def test_numbers_drawn_over_another_maps_equal_a_fresh_drawing(qtbot):
    rng = np.random.default_rng(4)
    tokens = [f"▁w{i}" for i in range(9)]
    first = rng.dirichlet(np.ones(9), 9).astype(np.float32)
    masked = np.triu(np.ones((7, 7), dtype=bool), k=1)  # a decoder's causal mask: 21 cells without a number
    causal = np.where(masked, 0.0, rng.dirichlet(np.ones(7), 7)).astype(np.float32)
    wide = rng.dirichlet(np.ones(9), 9).astype(np.float32)
    reused = shown(qtbot)
    for values, mask, labels in ((first, None, tokens), (causal, masked, tokens[:7]), (wide, None, tokens)):
        reused.set_matrix(values, labels, labels, masked=mask)
        fresh = shown(qtbot)
        fresh.set_matrix(values, labels, labels, masked=mask)
        assert reused.cell_numbers_shown() and drawn(reused) == drawn(fresh)
        n = values.size - (0 if mask is None else int(mask.sum()))
        assert len(reused._cell_texts) == n
        # Every item is on the map, none left over in the plot from the map before.
        on_plot = [item for item in reused.plot.items if item in reused._cell_texts]
        assert len(on_plot) == n
        assert {(int(item.pos().x()), int(item.pos().y())) for item in reused._cell_texts}.isdisjoint(
            zip(*np.nonzero(mask.T))) if mask is not None else True
    big = rng.dirichlet(np.ones(30), 30).astype(np.float32)  # past cell_numbers_max: no numbers at all
    reused.set_matrix(big, [f"t{i}" for i in range(30)], [f"t{i}" for i in range(30)])
    assert not reused.cell_numbers_shown()
    assert not [item for item in reused.plot.items if type(item).__name__ == "TextItem"]
