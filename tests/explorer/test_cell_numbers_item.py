"""The cell numbers, drawn by one item (explorer/attention/cell_numbers.py) rather than a text item a
cell: a map drawn over another reads as a view that drew only that map, pixel for pixel; each number
sits at its cell's centre, in the colour that reads on the cell; a masked cell has none; a map too big
for numbers has none."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF
from PySide6.QtGui import QImage

from explorer.attention.heatmap import HeatmapView

SIZE = (640, 560)


def shown(qtbot) -> HeatmapView:
    view = HeatmapView()
    qtbot.addWidget(view)
    view.resize(*SIZE)
    view.show()
    qtbot.waitExposed(view)
    return view


def pixels(view) -> np.ndarray:
    image = view.canvas.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
    return np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.width(), 4)[..., :3].copy()


def drawn(view) -> list[tuple[int, int, str, str]]:
    return [(r, c, text, color.name()) for r, c, text, color in view.cell_numbers.cells()]


def test_a_map_drawn_over_another_equals_a_fresh_drawing_pixel_for_pixel(qtbot):
    rng = np.random.default_rng(4)
    tokens = [f"▁w{i}" for i in range(9)]
    first = rng.dirichlet(np.ones(9), 9).astype(np.float32)
    masked = np.triu(np.ones((7, 7), dtype=bool), k=1)  # a decoder's causal mask: 21 cells without a number
    causal = np.where(masked, 0.0, rng.dirichlet(np.ones(7), 7)).astype(np.float32)
    reused = shown(qtbot)
    for values, mask, labels in ((first, None, tokens), (causal, masked, tokens[:7]), (first, None, tokens)):
        reused.set_matrix(values, labels, labels, masked=mask)
        fresh = shown(qtbot)
        fresh.set_matrix(values, labels, labels, masked=mask)
        n = values.size - (0 if mask is None else int(mask.sum()))
        assert reused.cell_numbers_shown() and len(drawn(reused)) == n and drawn(reused) == drawn(fresh)
        if mask is not None:  # no number on a masked cell
            assert not {(r, c) for r, c, _t, _k in drawn(reused)} & set(zip(*np.nonzero(mask)))
        np.testing.assert_array_equal(pixels(reused), pixels(fresh))
    big = rng.dirichlet(np.ones(30), 30).astype(np.float32)  # past cell_numbers_max: no numbers at all
    reused.set_matrix(big, [f"t{i}" for i in range(30)], [f"t{i}" for i in range(30)])
    assert not reused.cell_numbers_shown() and reused.cell_number_texts() == []


def test_each_number_is_drawn_at_its_cells_centre_and_nowhere_else(qtbot):
    values = np.array([[0.05, 0.95, 0.0], [0.5, 0.25, 0.25], [0.9, 0.05, 0.05]], dtype=np.float32)
    masked = np.zeros((3, 3), dtype=bool)
    masked[0, 2] = True
    view = shown(qtbot)
    labels = ["a", "b", "c"]
    view.set_matrix(values, labels, labels, masked=masked)
    with_numbers = pixels(view)
    view.cell_numbers.clear()
    view.canvas.viewport().repaint()
    without = pixels(view)
    changed = np.any(with_numbers != without, axis=2)
    assert changed.any()
    inside = 0
    for r in range(3):
        for c in range(3):
            x0, y0, x1, y1 = cell_pixels(view, r, c)
            inside += int(changed[y0:y1, x0:x1].sum())
            # 2 px in from the cell's edges: what is in there is this cell's number.
            cell = changed[y0 + 2:y1 - 2, x0 + 2:x1 - 2]
            if masked[r, c]:
                assert not cell.any(), (r, c)
                continue
            ys, xs = np.nonzero(cell)
            assert len(xs) > 10, (r, c)  # glyphs were drawn in this cell
            # ... centred on it, within a few pixels.
            assert abs((xs.min() + xs.max()) / 2 - (x1 - x0 - 4) / 2) <= 4, (r, c)
            assert abs((ys.min() + ys.max()) / 2 - (y1 - y0 - 4) / 2) <= 4, (r, c)
    assert inside == int(changed.sum())  # nothing drawn outside the cells


def cell_pixels(view, r: int, c: int) -> tuple[int, int, int, int]:
    """Cell (r, c)'s rectangle in the canvas' device pixels: x0, y0, x1, y1."""
    vb, ratio = view.plot.vb, view.canvas.devicePixelRatioF()
    top_left = view.canvas.mapFromScene(vb.mapViewToScene(QPointF(c - 0.5, r - 0.5)))
    bottom_right = view.canvas.mapFromScene(vb.mapViewToScene(QPointF(c + 0.5, r + 0.5)))
    return (int(top_left.x() * ratio), int(top_left.y() * ratio),
            int(bottom_right.x() * ratio), int(bottom_right.y() * ratio))


def _number_box(with_numbers: np.ndarray, without: np.ndarray) -> tuple[int, int]:
    """Width and height in pixels of the top-left number of a 2 × 2 map (what the numbers add to the
    image, in the top-left quarter of where they are: the four sit at the cells' centres)."""
    added = np.any(with_numbers != without, axis=2)
    ys, xs = np.nonzero(added)
    ys, xs = np.nonzero(added[:(ys.min() + ys.max()) // 2, :(xs.min() + xs.max()) // 2])
    return int(xs.max() - xs.min()), int(ys.max() - ys.min())


def _png(path) -> np.ndarray:
    image = QImage(str(path)).convertToFormat(QImage.Format.Format_RGB32)
    return np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.width(), 4)[..., :3].copy()


def test_an_export_drawn_larger_than_the_screen_enlarges_the_numbers_with_it(qtbot, tmp_path):
    """pyqtgraph's PNG export draws the scene at PNG_SCALE × its size on screen; the axes' text grows
    with it, and the numbers must too (drawn in screen pixels, they came out half as big as the rest)."""
    from explorer.attention.export import PNG_SCALE, export_graphics_item

    view = shown(qtbot)
    view.set_matrix(np.array([[0.25, 0.75], [0.6, 0.4]], dtype=np.float32), ["a", "b"], ["c", "d"])
    on_screen = pixels(view)
    export_graphics_item(view.plot, str(tmp_path / "with.png"))
    numbers = view.cell_numbers.cells()
    view.cell_numbers.clear()
    plain_screen = pixels(view)
    export_graphics_item(view.plot, str(tmp_path / "without.png"))
    screen_w, screen_h = _number_box(on_screen, plain_screen)
    export_w, export_h = _number_box(_png(tmp_path / "with.png"), _png(tmp_path / "without.png"))
    assert len(numbers) == 4 and PNG_SCALE > 1
    assert abs(export_w / screen_w - PNG_SCALE) <= 0.15 * PNG_SCALE, (export_w, screen_w)
    # A digit is ~8 px high on screen: a pixel of antialiasing either way moves the ratio by a quarter.
    assert 0.75 * PNG_SCALE <= export_h / screen_h <= 1.35 * PNG_SCALE, (export_h, screen_h)
