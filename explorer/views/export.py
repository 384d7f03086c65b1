"""Writing what the attention panel shows to files: PNG/SVG figures, CSV of one map, NPZ of all maps.

PNGs of pyqtgraph views come from pyqtgraph's ImageExporter. SVGs do not: with Qt 6.11 pyqtgraph
0.14's SVGExporter crashes on the closed paths ("… Z") Qt now writes, so the scene is rendered
straight into a QSvgGenerator instead, which keeps text as text and lines as lines. A plain painted
widget (the Lines view) paints its own ``render_to`` into a QImage or a QSvgGenerator. Numbers are
written losslessly: CSV cells hold ``repr`` of the float, which reads back to the very same float32,
and the csv module quotes pieces like ``,`` or ``"``.
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Callable

import numpy as np
import pyqtgraph.exporters as pg_exporters
from PySide6 import QtCore, QtGui
from PySide6.QtSvg import QSvgGenerator

from model.records import AttentionMaps

PNG_SCALE = 2  # figures are written at twice the screen size: crisp on slides and in papers


def image_format(path: str) -> str:
    """'png' or 'svg' from a file name; anything else is an error."""
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix not in ("png", "svg"):
        raise ValueError(f"cannot export an image as {suffix or 'a file without suffix'!r}; use .png or .svg")
    return suffix


def export_graphics_item(item, path: str) -> None:
    """Export a pyqtgraph item (a layout, a plot) and everything inside it to PNG or SVG."""
    if image_format(path) == "svg":
        scene = item.scene()
        source = item.sceneBoundingRect()
        background = scene.views()[0].backgroundBrush() if scene.views() else QtGui.QBrush()

        def render(painter: QtGui.QPainter, rect: QtCore.QRectF) -> None:
            painter.fillRect(rect, background)
            scene.render(painter, rect, source)

        export_painted(render, source.size().toSize(), path)
        return
    exporter = pg_exporters.ImageExporter(item)
    width = int(exporter.parameters()["width"])
    exporter.parameters()["width"] = max(1, width * PNG_SCALE)
    exporter.export(str(path))


def export_painted(render: Callable[[QtGui.QPainter, QtCore.QRectF], None], size: QtCore.QSize,
                   path: str, title: str = "Attention") -> None:
    """Export a view that paints itself through ``render(painter, rect)`` to PNG or SVG."""
    rect = QtCore.QRectF(0, 0, size.width(), size.height())
    if image_format(path) == "svg":
        generator = QSvgGenerator()
        generator.setFileName(str(path))
        generator.setSize(size)
        generator.setViewBox(rect)
        generator.setTitle(title)
        # pyqtgraph axes replay cached QPictures, which Qt rescales by the ratio of the screen's DPI
        # to the target's; the generator's default of 72 dpi would shrink every axis by a quarter.
        screen = QtGui.QGuiApplication.primaryScreen()
        generator.setResolution(round(screen.logicalDotsPerInch()) if screen else 96)
        painter = QtGui.QPainter(generator)
        render(painter, rect)
        painter.end()
        return
    image = QtGui.QImage(size * PNG_SCALE, QtGui.QImage.Format.Format_ARGB32)
    image.setDevicePixelRatio(PNG_SCALE)
    image.fill(QtGui.QColor("white"))
    painter = QtGui.QPainter(image)
    render(painter, rect)
    painter.end()
    if not image.save(str(path)):
        raise OSError(f"could not write {path}")


def export_csv(matrix, row_labels, col_labels, path: str) -> None:
    """One map as CSV: header 'query\\key' + key pieces; each row starts with its query piece."""
    matrix = np.asarray(matrix)
    if matrix.shape != (len(row_labels), len(col_labels)):
        raise ValueError(f"matrix {matrix.shape} does not match the labels")
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(["query\\key", *map(str, col_labels)])
        for label, row in zip(row_labels, matrix):
            writer.writerow([str(label), *(repr(float(v)) for v in row)])


def export_npz(maps: AttentionMaps, path: str) -> None:
    """All maps and tokens; token arrays are unicode (no pickle needed to read them back)."""
    np.savez_compressed(
        path,
        encoder_self=maps.encoder_self,
        decoder_self=maps.decoder_self,
        cross=maps.cross,
        source_tokens=np.array(maps.source_tokens, dtype=str),
        target_tokens=np.array(maps.target_tokens, dtype=str),
        predicted_tokens=np.array(maps.predicted_tokens, dtype=str),
    )
