"""The Step tab holds still while it steps and plays (a walk-through at 1024 × 768, 2026-12-05): the
"So far" line wrapped to a second line near the end of a long sentence and pushed the maps down, and the
Play / Pause button changed width and moved Next and the slider sideways."""

from __future__ import annotations

import dataclasses

import pytest
from PySide6 import QtWidgets

from explorer.lecture.step_view import StepView
from explorer.ui import i18n

from .conftest import make_synthetic_steps, make_translation

LONG = ("Unfortunately nobody in the whole village really knows where exactly he went after the long "
        "meeting yesterday evening")


@pytest.fixture
def view(qtbot):
    v = StepView()
    qtbot.addWidget(v)
    v.resize(740, 560)
    v.show()
    qtbot.waitExposed(v)
    return v


def _settle() -> None:
    for _ in range(4):
        QtWidgets.QApplication.sendPostedEvents()
        QtWidgets.QApplication.processEvents()


def _bigger(view) -> None:
    """Projector-sized type, as a zoom gives it: at the default size both texts fit the style's least
    button width, and the old button did not change width at all."""
    font = view.font()
    font.setPointSizeF(2 * font.pointSizeF())
    view.setFont(font)


def _where(view) -> tuple[int, int, int]:
    """The maps' top, the layer box's top and the so-far line's height, in the view."""
    return (view.maps.mapTo(view, view.maps.rect().topLeft()).y(),
            view.layer_combo.mapTo(view, view.layer_combo.rect().topLeft()).y(), view.so_far.height())


def test_the_maps_stay_put_from_the_first_step_to_the_last(view):
    _bigger(view)
    tr = make_translation(LONG)
    view.set_translation(dataclasses.replace(tr, steps=make_synthetic_steps(tr.attention, 1)))
    _settle()
    first = _where(view)
    lines = {}
    for t in range(1, view.n_steps() + 1):
        view.set_step(t)
        _settle()
        assert _where(view) == first, (t, _where(view), first)
        twin = QtWidgets.QLabel(view.so_far.text())  # the text's own height, without the line's hold
        twin.setFont(view.so_far.font())
        twin.setWordWrap(True)
        lines[t] = twin.heightForWidth(view.so_far.width())
    # The case is real: the first step's text takes fewer lines than the last one's.
    assert lines[1] < lines[view.n_steps()] <= view.so_far.height()


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_play_and_pause_keep_next_and_the_slider_in_place(view, qapp, language):
    try:
        assert i18n.install_language(language, qapp) == ""
        _bigger(view)
        tr = make_translation("the house is very big today")
        view.set_translation(dataclasses.replace(tr, steps=make_synthetic_steps(tr.attention, 1)))
        view.play_button.setText(i18n.tr("▶ Play"))  # as the window's walk sets it after a switch
        _settle()
        paused = (view.play_button.width(), view.next_button.x(), view.slider.x())
        view.play()
        _settle()
        assert view.play_button.text() == i18n.tr("❚❚ Pause") != i18n.tr("▶ Play")
        assert (view.play_button.width(), view.next_button.x(), view.slider.x()) == paused
        view.pause()
        _settle()
        assert (view.play_button.width(), view.next_button.x(), view.slider.x()) == paused
        # Both texts fit the button whole.
        metrics = view.play_button.fontMetrics()
        for text in (i18n.tr("▶ Play"), i18n.tr("❚❚ Pause")):
            assert metrics.horizontalAdvance(text) < view.play_button.width()
    finally:
        i18n.install_language("en", qapp)
