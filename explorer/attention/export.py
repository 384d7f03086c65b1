"""Writing what the attention panel shows to files: PNG/SVG figures, CSV of one map, NPZ of all maps.

PNGs of pyqtgraph views come from pyqtgraph's ImageExporter. SVGs do not: with Qt 6.11 pyqtgraph
0.14's SVGExporter crashes on the closed paths ("… Z") Qt now writes, so the scene is rendered
straight into a QSvgGenerator instead, which keeps text as text and lines as lines. Heatmaps are
images on screen; in an SVG each cell becomes a ``<rect>`` of its own colour, because an embedded
bitmap of one pixel per cell is smoothed into blurred blobs by every SVG renderer. Qt names the
generic font "Sans Serif", which browsers do not know (they fall back to a serif face), so the file
names the face actually used, then the CSS generic ``sans-serif``. A plain painted widget (the Lines
view) paints its own ``render_to`` into a QImage or a QSvgGenerator. Numbers are written losslessly:
CSV cells hold ``repr`` of the float, which reads back to the very same float32, and the csv module
quotes pieces like ``,`` or ``"``.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path
from typing import Callable

import numpy as np
import pyqtgraph as pg
import pyqtgraph.exporters as pg_exporters
from PySide6 import QtCore, QtGui, QtWidgets
from PySide6.QtSvg import QSvgGenerator

from explorer.attention.tokens import display_pieces
from model.records import AttentionMaps

PNG_SCALE = 2  # figures are written at twice the screen size: crisp on slides and in papers
FALLBACK_FONTS = "DejaVu Sans, Arial, Helvetica, sans-serif"
# A CSV's top-left cell says which pieces head its rows and columns: the raw SentencePiece pieces (lossless,
# what a script matches against the tokenizer) or the window's notation (what a reader compares with the
# screen). Both are offered; the header keeps a table from being read the wrong way.
CSV_CORNER = {"raw": "query\\key (raw SentencePiece pieces: \u2581 starts a word)",
              "shown": "query\\key (pieces as the window shows them: \u00b7 continues a word)"}


def default_export_dir() -> str:
    """The folder an export dialog opens in first: Pictures if the desktop has one, else home."""
    for location in (QtCore.QStandardPaths.StandardLocation.PicturesLocation,
                     QtCore.QStandardPaths.StandardLocation.DocumentsLocation):
        folder = QtCore.QStandardPaths.writableLocation(location)
        if folder and Path(folder).is_dir():
            return folder
    return str(Path.home())


class VectorImage(QtWidgets.QGraphicsItem):
    """An image drawn as one filled rectangle per run of equal pixels in a row (for SVG export)."""

    def __init__(self, image: QtGui.QImage) -> None:
        super().__init__()
        self._size = QtCore.QSizeF(image.width(), image.height())
        image = image.convertToFormat(QtGui.QImage.Format.Format_ARGB32)
        self._runs: list[tuple[QtCore.QRectF, QtGui.QColor]] = []
        for y in range(image.height()):
            x = 0
            while x < image.width():
                rgba = image.pixel(x, y)
                end = x + 1
                while end < image.width() and image.pixel(end, y) == rgba:
                    end += 1
                color = QtGui.QColor.fromRgba(rgba)
                if color.alpha() > 0:  # NaN cells are transparent: the mask overlay covers them
                    self._runs.append((QtCore.QRectF(x, y, end - x, 1.0), color))
                x = end

    def boundingRect(self) -> QtCore.QRectF:  # Qt override
        return QtCore.QRectF(QtCore.QPointF(0, 0), self._size)

    def paint(self, painter, option, widget=None) -> None:  # Qt override
        painter.setPen(QtCore.Qt.PenStyle.NoPen)
        for rect, color in self._runs:
            painter.setBrush(color)
            painter.drawRect(rect)


def _vectorise_images(scene) -> list[tuple[pg.ImageItem, VectorImage]]:
    """Hide every visible image of ``scene`` (heatmaps, colour bars) behind a VectorImage twin;
    returns the (image, twin) pairs so the caller can undo the swap."""
    pairs = []
    for item in scene.items():
        if not item.isVisible():
            continue
        if isinstance(item, pg.ImageItem) and item.image is not None:
            if item.qimage is None:
                item.render()
            image, offset = item.qimage, QtCore.QPointF(0, 0)
        elif isinstance(item, QtWidgets.QGraphicsPixmapItem):  # the ColorBarItem's bar
            image, offset = item.pixmap().toImage(), item.offset()
        else:
            continue
        if image is None or image.isNull():
            continue
        twin = VectorImage(image)
        twin.setParentItem(item.parentItem())
        twin.setTransform(QtGui.QTransform.fromTranslate(offset.x(), offset.y()) * item.transform())
        twin.setPos(item.pos())
        twin.setZValue(item.zValue())
        twin.setOpacity(item.opacity())
        item.hide()
        pairs.append((item, twin))
    return pairs


# A group of QSvgGenerator's output that holds no other group: its drawing state, then what it draws.
_INNER_GROUP = re.compile(r"<g (?P<attrs>[^>]*)>(?P<body>(?:(?!<g[ >]).)*?)</g>", re.S)
_NON_SCALING = re.compile(r'\s*vector-effect="non-scaling-stroke"')


def _scaled_strokes(text: str) -> str:
    """Lines drawn with a cosmetic pen (1 px whatever the zoom: the mask's hatching, the marked cell's box,
    the curves) in a scaled group: QSvgGenerator writes them as ``vector-effect="non-scaling-stroke"``
    under the group's ``matrix(…)``, which librsvg (GNOME's viewers, rsvg-convert) and ImageMagick ignore:
    a 1-px hatch line under a 113 × 75 scale covered the decoder map in grey blobs. The group's stroke
    width (and dashes) are divided by the scale instead, which every renderer draws at the same width."""
    def fix(m: re.Match) -> str:
        attrs, body = m["attrs"], m["body"]
        matrix = re.search(r'transform="matrix\(([^)]*)\)"', attrs)
        if "non-scaling-stroke" not in body or matrix is None:
            return m[0]
        a, b, c, d = (float(v) for v in matrix[1].split(",")[:4])
        scale = abs(a * d - b * c) ** 0.5  # a non-uniform scale (cells wider than tall): their mean
        if scale <= 0.0:
            return m[0]

        def divided(values: re.Match) -> str:
            return ",".join(f"{float(v) / scale:.6g}" for v in re.split(r"[ ,]+", values[2].strip()) if v)
        attrs = re.sub(r'(stroke-width|stroke-dasharray)="([^"]*)"',
                       lambda v: f'{v[1]}="{divided(v)}"' if v[2] != "none" else v[0], attrs)
        return f"<g {attrs}>{_NON_SCALING.sub('', body)}</g>"
    return _INNER_GROUP.sub(fix, text)


def _tidy_svg(path: str) -> None:
    """Name fonts renderers know (the face in use, then ``sans-serif``), draw cells without seams and
    cosmetic lines at their width in every renderer (``_scaled_strokes``)."""
    family = QtGui.QFontInfo(QtWidgets.QApplication.font()).family()
    families = f"{family}, {FALLBACK_FONTS}" if family and family not in FALLBACK_FONTS else FALLBACK_FONTS
    text = Path(path).read_text(encoding="utf-8")
    text = re.sub(r'font-family="[^"]*"', f'font-family="{families}"', text)
    # Antialiased edges of touching cells leave hairline seams in browsers; cells are axis-aligned.
    text = text.replace("<rect ", '<rect shape-rendering="crispEdges" ')
    Path(path).write_text(_scaled_strokes(text), encoding="utf-8")


def image_format(path: str) -> str:
    """'png' or 'svg' from a file name; anything else is an error."""
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix not in ("png", "svg"):
        raise ValueError(f"cannot export an image as {suffix or 'a file without suffix'!r}; use .png or .svg")
    return suffix


def export_graphics_item(item, path: str, title: str = "Attention") -> None:
    """Export a pyqtgraph item (a layout, a plot) and everything inside it to PNG or SVG."""
    if image_format(path) == "svg":
        scene = item.scene()
        source = item.sceneBoundingRect()
        background = scene.views()[0].backgroundBrush() if scene.views() else QtGui.QBrush()

        def render(painter: QtGui.QPainter, rect: QtCore.QRectF) -> None:
            painter.fillRect(rect, background)
            scene.render(painter, rect, source)

        pairs = _vectorise_images(scene)
        try:
            export_painted(render, source.size().toSize(), path, title=title)
        finally:
            for image, twin in pairs:
                scene.removeItem(twin)
                image.show()
        return
    exporter = pg_exporters.ImageExporter(item)
    width = int(exporter.parameters()["width"])
    exporter.parameters()["width"] = max(1, width * PNG_SCALE)
    exporter.export(str(path))


def export_widget(widget: QtWidgets.QWidget, path: str, title: str = "Attention Explorer") -> None:
    """A view with no writer of its own (the step view, the positional encoding, the workbench, Compare) as it
    is on screen, to PNG or SVG: the widget paints itself, its plots as vectors where Qt can."""
    size = widget.size()
    if size.width() < 50 or size.height() < 50:
        raise ValueError("the view is not on screen")
    export_painted(lambda painter, rect: widget.render(painter, rect.topLeft().toPoint()), size, path, title=title)


def export_painted(render: Callable[[QtGui.QPainter, QtCore.QRectF], None], size: QtCore.QSize,
                   path: str, title: str = "Attention", caption: str = "") -> None:
    """Export a view that paints itself through ``render(painter, rect)`` to PNG or SVG; a
    ``caption`` is drawn in a band above the view, for views that show no title of their own."""
    if caption:
        font = QtGui.QFont(QtWidgets.QApplication.font())
        font.setBold(True)
        band = round(QtGui.QFontMetricsF(font).height() * 2.2)
        inner = render

        def render(painter: QtGui.QPainter, rect: QtCore.QRectF) -> None:
            painter.fillRect(rect, QtGui.QColor("white"))
            painter.setFont(font)
            painter.setPen(QtGui.QColor("#111111"))
            painter.drawText(QtCore.QRectF(rect.left() + 8, rect.top(), rect.width() - 16, band),
                             int(QtCore.Qt.AlignmentFlag.AlignLeft | QtCore.Qt.AlignmentFlag.AlignVCenter),
                             caption)
            inner(painter, rect.adjusted(0, band, 0, 0))

        size = QtCore.QSize(size.width(), size.height() + band)
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
        _tidy_svg(path)
        return
    image = QtGui.QImage(size * PNG_SCALE, QtGui.QImage.Format.Format_ARGB32)
    image.setDevicePixelRatio(PNG_SCALE)
    image.fill(QtGui.QColor("white"))
    painter = QtGui.QPainter(image)
    render(painter, rect)
    painter.end()
    if not image.save(str(path)):
        raise OSError(f"could not write {path}")


def export_csv(matrix, row_labels, col_labels, path: str, pieces: str = "raw") -> None:
    """One map as CSV: a header of CSV_CORNER[pieces] + key pieces; each row starts with its query piece.
    ``pieces``: "raw" (as the tokenizer writes them) or "shown" (as the window labels them)."""
    if pieces not in CSV_CORNER:
        raise ValueError(f"unknown pieces {pieces!r}; expected one of {', '.join(CSV_CORNER)}")
    matrix = np.asarray(matrix)
    if matrix.shape != (len(row_labels), len(col_labels)):
        raise ValueError(f"matrix {matrix.shape} does not match the labels")
    if pieces == "shown":
        row_labels, col_labels = display_pieces(map(str, row_labels)), display_pieces(map(str, col_labels))
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow([CSV_CORNER[pieces], *map(str, col_labels)])
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
