"""The heatmaps' image item keeps its rendered image premultiplied (explorer/ui/premultiplied_image.py)
and draws exactly what pyqtgraph's own ImageItem draws: the same pixels for a colour-mapped map with
transparent NaN cells, scaled up as a heatmap's cells are."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui

from explorer.ui.colormaps import get_colormap
from explorer.ui.premultiplied_image import PremultipliedImageItem


def painted(item: pg.ImageItem, size=(330, 270)) -> np.ndarray:
    target = QtGui.QImage(*size, QtGui.QImage.Format.Format_ARGB32_Premultiplied)
    target.fill(QtGui.QColor("#808080"))  # a background for the transparent cells to show
    painter = QtGui.QPainter(target)
    rows, cols = item.image.shape[:2]
    painter.scale(size[0] / cols, size[1] / rows)
    item.paint(painter)
    painter.end()
    return np.frombuffer(target.constBits(), np.uint8).reshape(size[1], size[0], 4).copy()


def test_it_draws_the_same_pixels_as_pyqtgraphs_image_item(qapp):
    rng = np.random.default_rng(7)
    values = rng.random((9, 11)).astype(np.float32)
    values[np.triu_indices(9, k=3)] = np.nan  # masked cells: transparent
    lut = get_colormap("viridis").getLookupTable(0.0, 1.0, 256, alpha=True)
    images = []
    for cls in (pg.ImageItem, PremultipliedImageItem):
        item = cls(axisOrder="row-major")
        item.setLookupTable(lut)
        item.setImage(values, autoLevels=False, levels=(0.0, 1.0))
        images.append((item, painted(item)))
    (plain, plain_pixels), (ours, our_pixels) = images
    assert ours.qimage.format() == QtGui.QImage.Format.Format_ARGB32_Premultiplied
    assert plain.qimage.format() != ours.qimage.format()  # what the item is for: pyqtgraph's is indexed
    np.testing.assert_array_equal(our_pixels, plain_pixels)
    assert len(np.unique(our_pixels.reshape(-1, 4), axis=0)) > 20  # a real map, not a blank


def test_a_new_map_is_rendered_again_in_the_same_format(qapp):
    item = PremultipliedImageItem(axisOrder="row-major")
    item.setImage(np.zeros((3, 3), dtype=np.float32), autoLevels=False, levels=(0.0, 1.0))
    painted(item)
    first = item.qimage
    item.setImage(np.eye(4, dtype=np.float32), autoLevels=False, levels=(0.0, 1.0))
    painted(item)
    assert item.qimage is not first and item.qimage.size() == QtCore.QSize(4, 4)
    assert item.qimage.format() == QtGui.QImage.Format.Format_ARGB32_Premultiplied
