"""What the views say and export: plain-text read-outs, one token notation, unbroken statistics,
hover that ends with the pointer, every token labelled, vector SVG cells, titled exports."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from explorer.attention import export
from explorer.attention.heatmap import HeatmapView
from explorer.attention.panel import AttentionPanel
from explorer.attention.tokens import CONTINUATION_MARK, LONE_SPACE, WORD_START
from explorer.positional.table_view import PositionalEncodingView

from .conftest import make_synthetic_maps

ROWS = ["<s>", "▁Das", "▁Ha", "us"]
COLS = ["▁The", "▁house", "▁", "big", "</s>"]
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def view(qtbot):
    w = HeatmapView()
    qtbot.addWidget(w)
    w.resize(700, 500)
    w.show()
    qtbot.waitExposed(w)
    return w


@pytest.fixture
def panel(qtbot):
    p = AttentionPanel()
    qtbot.addWidget(p)
    p.resize(1000, 700)
    p.show()
    qtbot.waitExposed(p)
    p.set_maps(make_synthetic_maps())
    return p


def _values(rows: int, cols: int) -> np.ndarray:
    """Distinct weights, so that no two cells share a colour."""
    return (np.arange(rows * cols, dtype=np.float32).reshape(rows, cols) + 1) / (rows * cols + 1)


def test_readout_is_plain_text_and_keeps_special_pieces(view):
    view.set_matrix(_values(4, 5), ROWS, COLS)
    view._set_hover((0, 4))
    text = view.readout.text()
    assert text.startswith("query '<s>' (row 1) → key '</s>' (col 5): ")
    # As rich text Qt would take "<s>" for a strike-through tag and hide it; the label must not.
    assert QtGui.Qt.mightBeRichText(text)
    assert view.readout.textFormat() == QtCore.Qt.TextFormat.PlainText


def test_one_token_notation_on_axes_and_readout(view, panel):
    view.set_matrix(_values(4, 5), ROWS, COLS)
    assert view.col_labels() == ["The", "house", LONE_SPACE, CONTINUATION_MARK + "big", "</s>"]
    view._set_hover((3, 3))
    text = view.readout.text()
    assert WORD_START not in text
    assert f"query '{CONTINUATION_MARK}us' (row 4) → key '{CONTINUATION_MARK}big' (col 4)" in text
    legend = panel.legend_label
    assert legend.isVisible() and CONTINUATION_MARK in legend.text() and LONE_SPACE in legend.text()


def _line_breaks(text: str) -> list[int]:
    finder = QtCore.QTextBoundaryFinder(QtCore.QTextBoundaryFinder.BoundaryType.Line, text)
    breaks, position = [], finder.toNextBoundary()
    while position != -1:
        breaks.append(position)
        position = finder.toNextBoundary()
    return breaks


def test_statistics_line_never_breaks_inside_a_token_or_number(panel):
    panel.set_state("encoder", 0, 1)
    assert "on </s>" in panel.statistics_text()  # copy-friendly plain text
    shown = panel.stats_label.text()
    breaks = _line_breaks(shown)
    eos = shown.index("<")
    assert not [b for b in breaks if eos < b < eos + 8]  # not between "</" and "s>"
    # Breaks only where the statistics are separated ("   ·   "), never inside "max weight 0.5".
    for b in breaks[:-1]:
        assert shown[b - 1] == " " and shown[b - 2] in " ·:", shown[b - 8:b + 4]


def test_hover_is_cleared_when_the_pointer_leaves(view):
    view.set_matrix(_values(4, 5), ROWS, COLS)
    view.on_mouse_moved(view.scene_pos_of_cell(2, 1))
    assert view.readout.text().startswith("query 'Ha' (row 3)")
    assert view._hover_box.isVisible()
    QtWidgets.QApplication.sendEvent(view.canvas, QtCore.QEvent(QtCore.QEvent.Type.Leave))
    assert view.readout.text().strip() == ""
    assert not view._hover_box.isVisible()


def test_long_sentence_labels_every_source_token(view, qtbot):
    n = 44
    cols = [f"▁w{i}" for i in range(n)]
    view.resize(760, 500)
    view.set_matrix(np.full((3, n), 1.0 / n, np.float32), ["<s>", "▁a", "▁b"], cols)
    view.grab()  # paint, which lays the labels out
    axis = view.plot.getAxis("bottom")
    cell = axis.geometry().width() / n
    full_line = QtGui.QFontMetricsF(axis._font).height()
    assert cell < full_line  # the case that dropped every other label
    assert axis.last_stride == 1
    assert axis.label_font().pointSizeF() < axis._font.pointSizeF()


def _svg(path) -> ET.Element:
    return ET.parse(path).getroot()


def test_svg_export_draws_cells_as_vector_rects_with_known_fonts(view, tmp_path):
    rows, cols = 4, 5
    view.set_matrix(_values(rows, cols), ROWS, COLS, title="Test map")
    path = tmp_path / "map.svg"
    export.export_graphics_item(view.canvas.ci, str(path))
    root = _svg(path)
    assert not list(root.iter(SVG + "image"))  # no embedded bitmap
    unit_rects = [r for r in root.iter(SVG + "rect") if r.get("width") == "1" and r.get("height") == "1"]
    assert len(unit_rects) >= rows * cols  # one per cell (the colour bar adds its own)
    text = path.read_text(encoding="utf-8")
    families = set(re.findall(r'font-family="([^"]*)"', text))
    assert families and all(f.endswith("sans-serif") for f in families)
    assert "Sans Serif" not in text


def _texts(path) -> str:
    return " ".join("".join(t.itertext()) for t in _svg(path).iter(SVG + "text"))


def test_lines_and_grid_exports_say_what_they_show(panel, tmp_path):
    panel.set_state("cross", 1, 2)
    panel.set_view("lines")
    lines = tmp_path / "lines.svg"
    panel.export_image(str(lines))
    assert "Encoder–decoder cross-attention — layer 2, head 3" in _texts(lines)
    panel.set_view("grid")
    grid = tmp_path / "grid.svg"
    panel.export_image(str(grid))
    assert "layer 2 head 3 outlined" in _texts(grid)
    assert "cross-attention" in _texts(grid)


def test_export_dialog_suggests_a_named_file_in_a_real_folder(panel, monkeypatch, tmp_path):
    asked = []

    def fake_dialog(parent, title, start, filters):
        asked.append(start)
        return str(tmp_path / "mine.csv"), filters

    monkeypatch.setattr(QtWidgets.QFileDialog, "getSaveFileName", fake_dialog)
    panel.set_state("decoder", 1, 3)
    panel.export_dialog("csv")
    start = asked[0]
    assert start.endswith("attention_decoder_L2_H4.csv")
    assert QtCore.QFileInfo(start).dir().exists()
    assert (tmp_path / "mine.csv").is_file()
    panel.export_dialog("npz")  # the next dialog opens where the last file went
    assert asked[1] == str(tmp_path / "attention_maps.npz")


def test_positional_encoding_legend_leaves_the_plot_free(qtbot):
    view = PositionalEncodingView()
    qtbot.addWidget(view)
    view.resize(720, 620)
    view.show()
    qtbot.waitExposed(view)
    assert len(view.legend_entries()) == len(view.curve_dimensions())
    legend = view._legend_box.geometry()
    assert not legend.intersects(view.canvas.geometry())
    assert legend.height() < 0.15 * view.height()
    # The plots fit the canvas: nothing is pushed past its right edge.
    assert view.canvas.ci.geometry().width() <= view.canvas.viewport().width() + 1


def test_the_panels_csv_dialog_offers_the_pieces_as_shown(panel, monkeypatch, tmp_path):
    offered = []

    def fake_dialog(parent, title, start, filters):
        offered.append(filters.split(";;"))
        return str(tmp_path / "shown.csv"), offered[-1][1]

    monkeypatch.setattr(QtWidgets.QFileDialog, "getSaveFileName", fake_dialog)
    panel.export_dialog("csv")
    assert offered[0] == ["CSV table, raw pieces (*.csv)", "CSV table, pieces as shown (*.csv)"]
    header = (tmp_path / "shown.csv").read_text(encoding="utf-8").splitlines()[0]
    assert header.startswith("query\\key (pieces as the window shows them")
