"""The Train tab's vertical axes never draw their numbers on top of each other (explorer/ui/roomy_axis.py):
zoomed twice at 1024 × 768, 0.2, 0.4, 0.6 and 0.8 were piled up on ~64 px tall axes."""

from __future__ import annotations

import pytest
from PySide6 import QtGui, QtWidgets

from explorer.training.curves import TrainingCurves
from explorer.ui import style
from explorer.ui.roomy_axis import _next_nice


def _drawn(axis) -> list:
    """(rectangle, text) of each number the axis draws."""
    image = QtGui.QImage(8, 8, QtGui.QImage.Format.Format_ARGB32)
    painter = QtGui.QPainter(image)
    try:
        return [(rect, text) for rect, _, text in axis.generateDrawSpecs(painter)[2]]
    finally:
        painter.end()


def _labels(axis) -> list[tuple[float, float, str]]:
    """(top, bottom, text) of each number the axis draws."""
    return [(rect.top(), rect.bottom(), text) for rect, text in _drawn(axis)]


def _zoomed_curves(qtbot, qapp, zoom: float, width: int, height: int) -> TrainingCurves:
    style.set_font_scale(qapp, zoom)
    curves = TrainingCurves()
    qtbot.addWidget(curves)
    curves.set_font_scale(zoom)
    curves.resize(width, height)
    curves.show()
    qtbot.waitExposed(curves)
    for _ in range(6):
        QtWidgets.QApplication.processEvents()
    return curves


@pytest.mark.parametrize("height", [420, 520, 900])
def test_numbers_on_the_curves_axes_stand_apart_at_zoom_2(qtbot, qapp, restore_app_look, height):
    curves = _zoomed_curves(qtbot, qapp, style.ZOOM_STEP ** 2, 300, height)
    tall = 0
    for plot in (curves.loss_plot, curves.lr_plot, curves.bleu_plot):
        axis = plot.getAxis("left")
        labels = sorted(_labels(axis))
        assert labels, plot.titleLabel.text  # at least one number on every axis
        for (_, bottom, a), (top, _, b) in zip(labels, labels[1:]):
            assert bottom <= top, (height, plot.titleLabel.text, a, b, labels)
        tall = max(tall, len(labels))
    if height == 900:
        assert tall >= 4  # where there is room, as many numbers as pyqtgraph gives


def test_the_spacing_grows_along_one_two_five():
    spacings = [_next_nice(s) for s in (0.1, 0.2, 0.5, 1.0, 20.0, 0.0005)]
    assert spacings == pytest.approx([0.2, 0.5, 1.0, 2.0, 50.0, 0.001])


def test_the_pruning_curves_numbers_stand_apart_zoomed_at_1024(qtbot, qapp, restore_app_look):
    """Head importance's BLEU curve, ~60 px tall zoomed ×1.52 at 1024 px: 0 to 1.0 piled on each other."""
    from explorer.workbench.importance_view import ImportanceView  # noqa: PLC0415
    zoom = style.ZOOM_STEP ** 3
    style.set_font_scale(qapp, zoom)
    view = ImportanceView()
    qtbot.addWidget(view)
    view.resize(900, 600)
    view.curve_plot.setFixedHeight(150)  # its axis ~90 px tall, as in the window
    view.show()
    qtbot.waitExposed(view)
    for _ in range(6):
        QtWidgets.QApplication.processEvents()
    labels = sorted(_labels(view.curve_plot.getPlotItem().getAxis("left")))
    assert labels
    for (_, bottom, a), (top, _, b) in zip(labels, labels[1:]):
        assert bottom <= top, (a, b, labels)


def test_the_curves_step_numbers_stand_apart_in_a_narrow_zoomed_column(qtbot, qapp, restore_app_look):
    """Zoomed ×1.52 in the Train tab's ~190-px column, the steps under each curve read "0.20.40.60.8"."""
    curves = _zoomed_curves(qtbot, qapp, style.ZOOM_STEP ** 3, 191, 520)
    for plot in (curves.loss_plot, curves.lr_plot, curves.bleu_plot):
        spans = sorted((rect.left(), rect.right(), text) for rect, text in _drawn(plot.getAxis("bottom")))
        assert spans
        for (_, right, a), (left, _, b) in zip(spans, spans[1:]):
            assert right <= left, (a, b, spans)
