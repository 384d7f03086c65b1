"""One colour bar per map, whatever models came before (issue 31 item 12).

The report: after switching models the colour bar was drawn twice (doubled ticks, a ghosted title), once
still so after translating again with a Marian model. It did not reproduce under a real X server
(Xvfb + openbox, model switches typed with xdotool: built-in en-de → en-zh → a Marian folder → translate
again → en-de, with and without Ctrl+= twice, the screen compared with the window's own rendering while
busy and after), so this test pins the two ways it could happen: a second ColorBarItem added to a map's
scene on a switch, or a second axis drawn over a bar. It walks every map view after every switch.
"""

from __future__ import annotations

from pathlib import Path

import pyqtgraph as pg
import pytest

from explorer.attention.difference_map import DifferenceMapView
from explorer.attention.head_grid import HeadGridView
from explorer.attention.heatmap import HeatmapView
from explorer.lecture.step_heatmap import StepHeatmap
from explorer.positional.table_view import PositionalEncodingView
from model.records.workbench import Comparison

from .conftest import WINDOW_TIMEOUT as TIMEOUT
from .conftest import make_synthetic_maps

# Colour bars each kind of map view draws; the All heads grid has none of its own, and the Step tab's two
# maps share the cross-attention's (see expected_bars).
EXPECTED_BARS = {HeatmapView: 1, DifferenceMapView: 1, PositionalEncodingView: 2, HeadGridView: 0, StepHeatmap: 1}
# What a classroom switches through: the folder names stand for the built-in pairs and a Marian folder.
SWITCHES = (("en-de", "The cat sat on the mat."), ("en-zh", "Good morning, class."),
            ("opus-mt-en-de", "The weather is nice today."), ("opus-mt-en-de", "Translate it again, please."),
            ("en-de", "The cat sat on the mat."))


def map_views(win):
    """Every view of the window that draws maps: the Head, the Step tab's two, Compare's three, PE's."""
    kinds = tuple(EXPECTED_BARS)
    return [view for view in win.findChildren(pg.QtWidgets.QWidget) if type(view) in kinds]


def expected_bars(win, view) -> int:
    return 0 if view is win.step_view.maps.decoder else EXPECTED_BARS[type(view)]


def bars_and_axes(view) -> list[tuple[int, int]]:
    """For each colour bar in the view's scene: (colour bars in that scene, visible axes drawn on this bar:
    its tick labels and title; a second one is the doubled ticks and the ghosted title)."""
    items = view.canvas.scene().items()
    bars = [item for item in items if isinstance(item, pg.ColorBarItem)]
    # A bar's plot keeps its other three axes as bare 5-px edges: only axes that write something count.
    axes = [item for item in items if isinstance(item, pg.AxisItem) and item.isVisible()
            and (item.style["showValues"] or item.label.isVisible())]
    return [(len(bars), sum(bar.sceneBoundingRect().contains(axis.sceneBoundingRect().center()) for axis in axes))
            for bar in bars] or [(0, 0)]


def show_every_map_view(qtbot, win) -> None:
    """Head, All heads, Compare, Step tab, PE: each shown and laid out once, as the user would."""
    live = win.live_tools
    if win.tabs.indexOf(live.compare_view) < 0:
        win.tabs.insertTab(1, live.compare_view, "Compare")
    maps = win.attention_panel.maps()
    live.compare_view.set_comparison(Comparison("a", "b", maps, make_synthetic_maps(
        n_layers=maps.n_layers, n_heads=maps.n_heads, source=maps.source_tokens, target=maps.target_tokens, seed=3),
        "translation", "forced"))
    for show in (lambda: win.show_view("head"), lambda: win.show_view("grid"),
                 lambda: win.tabs.setCurrentWidget(live.compare_view), lambda: win.show_view("pe")):
        show()
        qtbot.wait(20)
    if win.controller.translation.steps is None:
        with qtbot.waitSignal(win.controller.translation_ready, timeout=TIMEOUT):
            win.show_view("steps")  # the tab translates the sentence again, with its steps
    else:  # translated while the tab was shown: it has them
        win.show_view("steps")
    qtbot.wait(20)


@pytest.mark.parametrize("font_scale", [1.0, 1.44])
def test_every_map_keeps_one_colour_bar_over_model_switches(qtbot, window, fake_model, font_scale):
    win = window
    win.set_font_scale(font_scale)
    fake_model.translate_delay = 0.05  # long enough for the maps to be dimmed as busy each time
    for name, sentence in SWITCHES:
        win.translate_panel.set_text(sentence)
        with qtbot.waitSignal(win.controller.translation_ready, timeout=TIMEOUT):
            if win.controller.info is not None and Path(win.controller.info.path).name == name:
                win.translate_panel.request_translation()
            else:
                win.open_model(fake_model.make_model_dir(name))
        show_every_map_view(qtbot, win)
        seen = {}
        for view in map_views(win):
            expected = expected_bars(win, view)
            found = bars_and_axes(view)
            assert all(bars == expected for bars, _ in found), (name, type(view).__name__, found)
            if expected:  # exactly one axis (one set of ticks, one title) over each bar
                assert all(axes == 1 for _, axes in found), (name, type(view).__name__, found)
            seen[type(view)] = seen.get(type(view), 0) + 1
        # Head + Compare's A and B; the Step tab's decoder and cross; Compare's B − A; PE; the All heads grid.
        assert seen[HeatmapView] >= 3 and seen[StepHeatmap] == 2
        assert seen[DifferenceMapView] == 1 and seen[PositionalEncodingView] == 1
        assert not win.attention_panel.is_dimmed()
        assert Path(win.controller.info.path).name == name
