"""The workbench in the window, with the real tiny Transformer: live head ablation from the All heads
grid, Restore all, the beam explorer and Compare (model B force-decoded, B − A drawn)."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from PySide6 import QtCore

from explorer.attention.mask_overlay import MASK_FILL, MASK_HATCH

from .conftest import REAL_TIMEOUT as TIMEOUT
from .conftest import open_real_window

SENTENCE = "3 1 4 1 5 9"


@pytest.fixture
def window(qtbot, tiny_model_dir, restore_app_look):
    return open_real_window(qtbot, tiny_model_dir, SENTENCE, (1400, 900), show_dialogs=False)


@pytest.fixture(scope="module")
def model_b(tiny_model_dir, tmp_path_factory):
    """A second checkpoint: the tiny model's weights moved by seeded noise, the same tokenizer."""
    from model.checkpoint import load_model, save_model
    b = load_model(tiny_model_dir)
    gen = torch.Generator().manual_seed(2)
    with torch.no_grad():
        for p in b.model.parameters():
            p.add_(0.05 * torch.randn(p.shape, generator=gen))
    return save_model(tmp_path_factory.mktemp("cmp") / "model-b", b.model, b.tokenizer)


def _right_click_tile(qtbot, grid, layer, head):
    point = grid.canvas.mapFromScene(grid.scene_pos_of_tile(layer, head))
    with qtbot.waitSignal(grid.head_menu_requested, timeout=2000) as blocker:
        qtbot.mouseClick(grid.canvas.viewport(), QtCore.Qt.MouseButton.RightButton, pos=point)
    assert blocker.args[:2] == [layer, head]


def _translated(qtbot, win, action):
    with qtbot.waitSignal(win.controller.translation_ready, timeout=TIMEOUT):
        action()
    return win.controller.translation


def test_right_click_removes_the_head_retranslates_and_restore_all_gives_back_the_original(qtbot, window):
    win, panel = window, window.attention_panel
    original = win.controller.translation
    panel.set_state("cross", 1, 2)
    panel.set_view("grid")
    qtbot.wait(50)
    grid, ablation = panel.grid, win.live_tools.ablation

    _right_click_tile(qtbot, grid, 1, 2)
    remove = ablation.menu.actions()[0]
    assert remove.text().startswith("Remove head 2.3")
    ablated = _translated(qtbot, win, remove.trigger)
    assert win.controller.removed_heads == (("cross", 1, 2),)
    assert ablated.attention.removed == (("cross", 1, 2),) and ablated.source == SENTENCE
    assert ablated.unablated.text == original.text
    # The tile is drawn as removed: only the hatched grey, never a colour of the map.
    assert grid.removed() == {(1, 2)} and grid._removed_marks.labels() == ["removed"]
    _, _, q, k = ablated.attention.cross.shape
    gq, gk = grid._gap
    r0, c0 = (q + gq) + gq // 2, 2 * (k + gk) + gk // 2
    tile = grid.mosaic_rgba()[r0:r0 + q, c0:c0 + k, :3].reshape(-1, 3)
    allowed = {(MASK_FILL.red(), MASK_FILL.green(), MASK_FILL.blue()), (MASK_HATCH.red(), MASK_HATCH.green(),
                                                                        MASK_HATCH.blue())}
    assert {tuple(int(v) for v in px) for px in tile} == allowed
    # The translation panel shows both outputs; the Head view of the removed head says it is removed.
    box = ablation.box
    assert box.isVisible() and "1 head removed" in box.heading.text() and "cross 2.3" in box.heads_label.text()
    assert original.text.split()[0] in box.before_label.text()
    panel.set_view("head")
    panel.set_state("cross", 1, 2)
    assert "REMOVED" in panel.title() and panel.heatmap.masked_array().all()
    panel.set_state("cross", 1, 1)
    assert "REMOVED" not in panel.title()

    # A second head, then right-click the first again: it is restored, the other stays removed.
    panel.set_view("grid")
    _translated(qtbot, win, lambda: ablation.toggle("encoder", 0, 1))
    _right_click_tile(qtbot, grid, 1, 2)
    assert ablation.menu.actions()[0].text().startswith("Restore head 2.3")
    again = _translated(qtbot, win, ablation.menu.actions()[0].trigger)
    assert again.attention.removed == (("encoder", 0, 1),) and grid.removed() == set()

    restored = _translated(qtbot, win, box.restore_button.click)
    assert win.controller.removed_heads == () and restored.attention.removed == () and restored.unablated is None
    assert restored.text == original.text and not box.isVisible()
    for kind in ("encoder", "decoder", "cross"):  # bit-identical to the translation before any ablation
        np.testing.assert_array_equal(restored.attention.of_kind(kind), original.attention.of_kind(kind))


def test_beam_explorer_lists_the_final_beam_and_shows_a_hypothesis_maps(qtbot, window):
    win = window
    win.translate_panel.beam_spin.setValue(4)
    dock = win.live_tools.beam_dock
    tr = _translated(qtbot, win, win.live_tools.beam_action.trigger)  # opening the dock re-translates
    assert dock.isVisible() and win.controller.capture_beam
    beam = tr.beam
    table = dock.table
    hyps = beam.hypotheses
    assert table.table.rowCount() == len(hyps) >= 4
    # The best hypothesis is the translation the decoder returned, with the decoder's score.
    assert hyps[0].text == tr.text and hyps[0].score == pytest.approx(tr.score, abs=1e-4)
    for row, h in enumerate(hyps):
        assert table.cell_text(row, 5) == f"{h.score:.3f}" and table.cell_text(row, 3) == str(h.length)
        assert h.penalty == pytest.approx(((5 + h.length) / 6) ** 0.6)
        assert h.score == pytest.approx(h.log_prob / h.penalty)
    table.select(2)
    maps = win.attention_panel.maps()
    assert maps is hyps[2].attention
    assert maps.predicted_tokens[:len(hyps[2].pieces)] == hyps[2].pieces
    table.select(0)
    assert win.attention_panel.maps() is hyps[0].attention

    win.translate_panel.beam_spin.setValue(1)
    tr = _translated(qtbot, win, win.translate_panel.request_translation)
    assert tr.beam is None and table.table.rowCount() == 0 and "greedy" in table.note.text()


def test_compare_draws_b_minus_a_on_the_same_pieces(qtbot, window, model_b):
    win = window
    with qtbot.waitSignal(win.controller.compare_loaded, timeout=TIMEOUT):
        with qtbot.waitSignal(win.controller.translation_ready, timeout=TIMEOUT):
            win.live_tools.compare_with(str(model_b))
    view = win.live_tools.compare_view
    assert win.tabs.currentWidget() is view and win.tabs.tabText(win.tabs.currentIndex()) == "Compare"
    tr = win.controller.translation
    comp = tr.comparison
    assert comp.comparable and "force-decoded" in comp.note and "model-b" in view.header.text()
    win.attention_panel.set_state("cross", 1, 3)
    expected = comp.maps_b.cross[1, 3] - tr.attention.cross[1, 3]
    np.testing.assert_array_equal(view.diff.displayed_array(), expected)
    np.testing.assert_array_equal(view.map_a.displayed_array(), tr.attention.cross[1, 3])
    m = float(np.abs(expected).max())
    assert m > 0 and view.diff.levels() == (-m, m)
    with qtbot.waitSignal(win.controller.compare_loaded, timeout=TIMEOUT):
        win.live_tools.stop_compare_action.trigger()
    assert win.tabs.indexOf(view) == -1


def test_the_compare_view_is_built_when_comparing_starts_as_if_it_had_been_there(qtbot, window, model_b):
    """A window that never compares never builds the three maps; one built late takes the panel's head,
    the colour map and the zoom chosen before, and the language: as a view built with the window."""
    from explorer.window.language_menu import set_language

    win = window
    win.attention_panel.set_state("cross", 1, 2)
    win.set_colormap("magma")
    win.zoom_in()
    assert set_language(win, "zh_CN", remember=False) == ""
    assert win.live_tools._compare_view is None  # a translation, a zoom, a language: still not built
    try:
        with qtbot.waitSignal(win.controller.compare_loaded, timeout=TIMEOUT):
            with qtbot.waitSignal(win.controller.translation_ready, timeout=TIMEOUT):
                win.live_tools.compare_with(str(model_b))
        view = win.live_tools.compare_view
        tr = win.controller.translation
        assert win.tabs.currentWidget() is view and view._state[:3] == ("cross", 1, 2)
        np.testing.assert_array_equal(view.map_a.displayed_array(), tr.attention.cross[1, 2])
        assert view.map_a.colormap_name() == view.map_b.colormap_name() == "magma"
        assert view.map_a._font_scale == view.diff._font_scale == win.font_scale() > 1
        assert "层" in view.header.text()  # "… — layer 2, head 3": the header in the window's language
        win.zoom_in()  # and it follows the zoom from then on
        assert view.map_b._font_scale == win.font_scale()
    finally:
        set_language(win, "en", remember=False)


def test_loading_another_model_restores_every_head(qtbot, window, tiny_model_dir):
    win = window
    ablated = _translated(qtbot, win, lambda: win.live_tools.ablation.toggle("decoder", 1, 3))
    assert ablated.attention.removed == (("decoder", 1, 3),) and win.live_tools.ablation.restore_all_action.isEnabled()
    fresh = _translated(qtbot, win, lambda: win.open_model(tiny_model_dir))  # its heads are not those heads
    assert fresh.attention.removed == () and win.controller.removed_heads == ()
    assert not win.live_tools.ablation.box.isVisible()
