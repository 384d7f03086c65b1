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
