"""The Positional-encoding tab on a 1024 × 768 projector (#31 item 10): under the formula dock and at
zoom +2 the colour bars' labels do not overlap, the plots keep a readable size, titles and the 'never
seen in training' note are whole, and the clocks are big enough with their labels apart. Measured on
the widgets at the sizes the window gives the tab there (1024 × 768: 744 × 360 with the dock open,
744 × 690 without), in English and Chinese; no torch."""

from __future__ import annotations

import itertools
import math

import pyqtgraph as pg
import pytest
from PySide6 import QtCore, QtGui, QtWidgets

from explorer.positional.clock_view import UNSEEN
from explorer.positional.fitting import tick_font
from explorer.positional.tab import PositionalTab
from explorer.ui import style
from explorer.ui.i18n import install_language, tr
from model.records import ModelInfo

ZOOM2 = style.ZOOM_STEP ** 2
# The PE tab's size in the window at 1024 × 768, measured there: under the formula dock (which takes
# less at zoom +2: its rows grow, the share it is given does not) and without it.
DOCK = {1.0: (744, 360), ZOOM2: (744, 401)}
FULL = (744, 690)
UNDOCKED = {1.0: (744, 689), ZOOM2: (744, 672)}  # without the dock, as measured at each zoom


def _info() -> ModelInfo:
    return ModelInfo(path="m", config=(), n_params=0, vocab_size=8000, device="cpu", d_model=256,
                     n_layers=4, n_heads=8, max_train_length=128)


@pytest.fixture(params=["en", "zh_CN"])
def language(request, qapp):
    """The app's translator in each language, put back to English after the test."""
    assert install_language(request.param, qapp) == ""
    yield request.param
    install_language("en", qapp)


def _tab(qtbot, size, zoom: float = 1.0, part: str = "pe") -> PositionalTab:
    """The tab with a model like the built-in one, at ``size``, fonts as the window sets them at ``zoom``
    (the application's and the plots' own)."""
    style.set_font_scale(QtWidgets.QApplication.instance(), zoom)
    tab = PositionalTab()
    qtbot.addWidget(tab)
    tab.set_font_scale(zoom)
    tab.set_model(_info())
    tab.set_sentence_length(9)
    tab.show_part(part)
    tab.resize(*size)
    tab.show()
    qtbot.waitExposed(tab)
    settle(qtbot)
    return tab


def PLOTS(view) -> tuple:  # noqa: N802 - a constant's look: the three plots of the table view
    return view.pe_plot, view.sim_plot, view.curve_plot


def unseen_note(plot) -> pg.TextItem:
    """The 'never seen in training' note the tab puts on the table."""
    notes = [item for item in plot.items if isinstance(item, pg.TextItem)
             and item.textItem.toPlainText() == tr(UNSEEN)]
    assert len(notes) == 1, [getattr(i, "textItem", i) for i in plot.items]
    return notes[0]


def settle(qtbot) -> None:
    # pyqtgraph lays its scenes out on queued events, a few turns deep.
    for _ in range(4):
        QtWidgets.QApplication.processEvents()
        qtbot.wait(10)


def label_rects(axis) -> list[QtCore.QRectF]:
    """The tick labels the axis draws, as tall as their font's line (pyqtgraph's own are 0.8 of it)."""
    image = QtGui.QImage(4, 4, QtGui.QImage.Format.Format_ARGB32)
    painter = QtGui.QPainter(image)
    painter.setFont(tick_font(axis))
    try:
        specs = axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    line = QtGui.QFontMetricsF(tick_font(axis)).height()
    rects = []
    for rect, _, _ in specs[2]:
        full = QtCore.QRectF(rect)
        full.setHeight(line)
        full.moveCenter(rect.center())
        rects.append(full)
    return rects


@pytest.mark.parametrize("size,zoom", [(DOCK[1.0], 1.0), (DOCK[ZOOM2], ZOOM2), (FULL, ZOOM2)])
def test_colour_bar_and_position_labels_do_not_overlap(qtbot, restore_app_look, size, zoom):
    tab = _tab(qtbot, size, zoom)
    view = tab.table
    axes = {"PE bar": view.pe_bar.axis, "PE·PEᵀ bar": view.sim_bar.axis,
            "PE rows": view.pe_plot.getAxis("left"), "PE·PEᵀ rows": view.sim_plot.getAxis("left"),
            "curve values": view.curve_plot.getAxis("left")}
    for name, axis in axes.items():
        rects = label_rects(axis)
        assert len(rects) >= 2, (name, axis.geometry().height())  # still a scale: at least two numbers
        for a, b in itertools.combinations(rects, 2):
            assert not a.intersects(b), (name, a, b, axis.geometry().height())


@pytest.mark.parametrize("zoom", [1.0, ZOOM2])
def test_under_the_dock_the_plots_stand_side_by_side_and_keep_their_size(qtbot, restore_app_look, language, zoom):
    tab = _tab(qtbot, DOCK[zoom], zoom)
    view = tab.table
    for plot in PLOTS(view):
        box = plot.vb.geometry()
        # Two rows left the curves 0 px and the table ~25 px (at zoom +2) of the ~210 px the canvas has.
        assert box.height() >= 85 and box.width() >= 100, (plot.titleLabel.item.toPlainText(), box)
    # Without the dock the table and PE·PEᵀ stay over the curves.
    # Side by side: the curves beside the table, not under it.
    assert view.curve_plot.vb.sceneBoundingRect().top() < view.pe_plot.vb.sceneBoundingRect().bottom()
    tab.resize(*UNDOCKED[zoom])  # the Chinese fonts' taller lines at zoom +2 once tipped this into one row
    settle(qtbot)
    assert view.pe_plot.vb.sceneBoundingRect().bottom() < view.curve_plot.vb.sceneBoundingRect().top()


def _title_is_whole(plot) -> bool:
    """Every line of the title inside the plot, and within the title's row (pyqtgraph fixes it at 30 px:
    a second line ran into the plot under it)."""
    label = plot.titleLabel
    margin = label.item.document().documentMargin()  # blank, around the lines
    text = label.item.mapRectToScene(label.item.boundingRect().adjusted(margin, margin, -margin, -margin))
    row = label.mapRectToScene(label.boundingRect())
    return (plot.sceneBoundingRect().adjusted(-1, -1, 1, 1).contains(text)
            and text.height() <= row.height() + 1 - 2 * margin)


@pytest.mark.parametrize("size", ["dock", "full"])
@pytest.mark.parametrize("layout", ["interleaved", "halves"])
def test_at_zoom_2_the_titles_and_the_unseen_note_are_whole(qtbot, restore_app_look, language, size, layout):
    tab = _tab(qtbot, DOCK[ZOOM2] if size == "dock" else FULL, ZOOM2)
    tab.table.set_layout(layout)  # Marian's title is the longest: '…sines, then cosines (Marian)'
    settle(qtbot)
    for plot in PLOTS(tab.table):
        label = plot.titleLabel
        assert _title_is_whole(plot), (label.item.toPlainText(), label.geometry(), plot.sceneBoundingRect())
    note = unseen_note(tab.table.pe_plot).sceneBoundingRect()
    table = tab.table.pe_plot.vb.sceneBoundingRect()
    assert table.adjusted(-1, -1, 1, 1).contains(note), (note, table)
    lines = unseen_note(tab.table.pe_plot).textItem.document().size().height()
    line = QtGui.QFontMetricsF(unseen_note(tab.table.pe_plot).textItem.font()).lineSpacing()
    assert lines <= 2 * math.ceil(line) + 8 + 1, (lines, line)  # two lines at most: it must not hide the table


def _glyphs(label) -> QtCore.QRectF:
    """A title's lines in scene pixels, without the blank margin of its text document."""
    margin = label.item.document().documentMargin()
    return label.item.mapRectToScene(label.item.boundingRect().adjusted(margin, margin, -margin, -margin))


@pytest.mark.parametrize("size,zoom", [(DOCK[1.0], 1.0), (DOCK[ZOOM2], ZOOM2), (FULL, 1.0), (FULL, ZOOM2)])
def test_the_clocks_are_big_enough_and_apart_from_their_labels(qtbot, restore_app_look, language, size, zoom):
    tab = _tab(qtbot, size, zoom, part="clock")
    view = tab.clock
    radii, faces, titles = [], [], []
    for clock in view.clocks:
        box = clock["plot"].vb
        centre = box.mapViewToScene(QtCore.QPointF(0, 0))
        radius = box.mapViewToScene(QtCore.QPointF(1, 0)).x() - centre.x()  # the face has radius 1
        radii.append(radius)
        faces.append(QtCore.QRectF(centre.x() - radius, centre.y() - radius, 2 * radius, 2 * radius))
        titles.append(_glyphs(clock["plot"].titleLabel))
    # Under the dock two rows of four left clocks of ~10 px drawn into their two-line titles.
    assert min(radii) >= 20, radii
    for title, face in zip(titles, faces):
        assert not title.intersects(face), (title, face)
        assert title.width() <= face.width() + 2 * 60, title  # not one unwrapped line across its neighbours
    for a, b in itertools.combinations(titles, 2):
        assert not a.intersects(b), (a, b)
    for face in faces:  # every clock inside the canvas
        assert view.canvas.sceneRect().adjusted(-1, -1, 1, 1).contains(face), face
