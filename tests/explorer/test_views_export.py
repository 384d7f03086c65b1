"""Exports: PNG has content, SVG parses, NPZ and CSV read back to the very same numbers."""

from __future__ import annotations

import csv
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from PySide6 import QtGui

from explorer.attention.export import CSV_CORNER, export_csv
from explorer.attention.panel import AttentionPanel


@pytest.fixture
def panel(qtbot, synthetic_maps):
    w = AttentionPanel()
    qtbot.addWidget(w)
    w.resize(900, 600)
    w.set_maps(synthetic_maps)
    w.set_state("decoder", 1, 2)
    w.show()
    qtbot.waitExposed(w)
    return w


def _png_variance(path) -> float:
    image = QtGui.QImage(str(path))
    assert not image.isNull()
    image = image.convertToFormat(QtGui.QImage.Format.Format_RGB888)
    arr = np.frombuffer(image.constBits(), np.uint8, image.sizeInBytes())
    return float(arr.astype(np.float64).var())


def _svg_elements(path) -> int:
    root = ET.parse(path).getroot()
    assert root.tag.endswith("svg")
    return sum(1 for _ in root.iter())


@pytest.mark.parametrize("view", ["head", "grid", "lines"])
def test_png_and_svg(panel, tmp_path, view):
    panel.set_view(view)
    png, svg = tmp_path / f"{view}.png", tmp_path / f"{view}.svg"
    panel.export_image(str(png))
    panel.export_image(str(svg))
    assert _png_variance(png) > 100.0  # not a blank canvas
    assert _svg_elements(svg) > 10


def test_unknown_image_format(panel, tmp_path):
    with pytest.raises(ValueError):
        panel.export_image(str(tmp_path / "x.jpg"))


def test_npz_round_trip(panel, tmp_path, synthetic_maps):
    path = tmp_path / "maps.npz"
    panel.export_npz(str(path))
    with np.load(path) as data:  # no allow_pickle: tokens are plain unicode arrays
        for name in ("encoder_self", "decoder_self", "cross"):
            np.testing.assert_array_equal(data[name], getattr(synthetic_maps, name))
        assert tuple(data["source_tokens"]) == synthetic_maps.source_tokens
        assert tuple(data["target_tokens"]) == synthetic_maps.target_tokens


def test_csv_round_trip(panel, tmp_path, synthetic_maps):
    path = tmp_path / "map.csv"
    panel.export_csv(str(path))
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    assert rows[0] == [CSV_CORNER["raw"], *synthetic_maps.target_tokens]
    assert [r[0] for r in rows[1:]] == list(synthetic_maps.target_tokens)
    values = np.array([[float(x) for x in r[1:]] for r in rows[1:]], dtype=np.float32)
    np.testing.assert_array_equal(values, synthetic_maps.decoder_self[1, 2])


def test_csv_quotes_awkward_pieces(tmp_path):
    path = tmp_path / "odd.csv"
    export_csv(np.eye(2, dtype=np.float32), ['▁"quoted"', "▁a,b"], [",", "\n"], str(path))
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["query\\key (raw SentencePiece pieces: ▁ starts a word)", ",", "\n"]
    assert [r[0] for r in rows[1:]] == ['▁"quoted"', "▁a,b"]


def test_csv_headed_by_the_pieces_the_window_shows_says_so(tmp_path):
    path = tmp_path / "shown.csv"
    export_csv(np.eye(3, dtype=np.float32), ["▁The", "▁wea", "ther"], ["<s>", "▁", "苹果"], str(path), pieces="shown")
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["query\\key (pieces as the window shows them: · continues a word)", "<s>", "␣", "苹果"]
    assert [r[0] for r in rows[1:]] == ["The", "wea", "·ther"]
    assert [float(x) for x in rows[3][1:]] == [0.0, 0.0, 1.0]
    with pytest.raises(ValueError, match="unknown pieces 'pretty'"):
        export_csv(np.eye(1), ["a"], ["b"], str(path), pieces="pretty")


def test_exports_need_maps(qtbot, tmp_path):
    w = AttentionPanel()
    qtbot.addWidget(w)
    with pytest.raises(RuntimeError):
        w.export_csv(str(tmp_path / "x.csv"))
    with pytest.raises(RuntimeError):
        w.export_npz(str(tmp_path / "x.npz"))


def test_svg_lines_keep_their_width_where_renderers_ignore_non_scaling_strokes(panel, tmp_path):
    """The mask's 1-px hatching, drawn in the map's scaled coordinates, was written as non-scaling strokes,
    which librsvg and ImageMagick ignore: each line became ~100 px wide, grey blobs over the decoder map.
    Each scaled group's stroke width is now divided by its scale, and no renderer needs the effect."""
    import re  # noqa: PLC0415
    import shutil  # noqa: PLC0415
    import subprocess  # noqa: PLC0415

    from explorer.attention.export import _INNER_GROUP  # noqa: PLC0415

    panel.set_view("head")
    panel.heatmap.set_marked_cell((2, 1))  # a cosmetic outline too
    svg = tmp_path / "decoder.svg"
    panel.export_image(str(svg))
    text = svg.read_text(encoding="utf-8")
    assert "non-scaling-stroke" not in text
    hatch = [g for g in _INNER_GROUP.finditer(text) if "polyline" in g["body"] and "matrix(" in g["attrs"]]
    assert hatch  # the mask's lines, under the map's scale
    for group in hatch:
        a, _, _, d = (float(v) for v in re.search(r"matrix\(([^)]*)\)", group["attrs"])[1].split(",")[:4])
        width = float(re.search(r'stroke-width="([^"]*)"', group["attrs"])[1])
        assert abs(width * (abs(a * d)) ** 0.5 - 1.0) < 0.01  # 1 px on the page
    # Drawn by Qt's own renderer (which knows the effect, so it cannot tell), the page has the hatching:
    image = QtGui.QImage(900, 600, QtGui.QImage.Format.Format_RGB32)
    image.fill(QtGui.QColor("white"))
    from PySide6.QtSvg import QSvgRenderer  # noqa: PLC0415

    painter = QtGui.QPainter(image)
    QSvgRenderer(str(svg)).render(painter)
    painter.end()
    assert _png_variance_image(image) > 100.0
    rsvg = shutil.which("rsvg-convert")
    if rsvg is None:
        return  # librsvg's own check needs its command (Debian: librsvg2-bin)
    png = tmp_path / "decoder.png"
    subprocess.run([rsvg, "-o", str(png), str(svg)], check=True)
    drawn = QtGui.QImage(str(png)).convertToFormat(QtGui.QImage.Format.Format_RGB888)
    pixels = np.frombuffer(drawn.constBits(), np.uint8, drawn.sizeInBytes())
    pixels = pixels[: drawn.height() * drawn.bytesPerLine()].reshape(drawn.height(), drawn.bytesPerLine())
    rgb = pixels[:, : drawn.width() * 3].reshape(drawn.height(), drawn.width(), 3).astype(int)
    hatch_grey = (np.abs(rgb - np.array([120, 120, 120])).max(axis=2) < 30).mean()
    fill_grey = (np.abs(rgb - np.array([205, 205, 205])).max(axis=2) < 12).mean()
    assert fill_grey > 2 * hatch_grey  # thin lines on the grey fill, not blobs covering it


def _png_variance_image(image: QtGui.QImage) -> float:
    image = image.convertToFormat(QtGui.QImage.Format.Format_RGB888)
    arr = np.frombuffer(image.constBits(), np.uint8, image.sizeInBytes())
    return float(arr.astype(np.float64).var())
