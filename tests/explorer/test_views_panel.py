"""AttentionPanel: the right slice for kind/layer/head/mean reaches every view, with the right labels."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6 import QtCore

from explorer.attention.panel import EMPTY_TEXT, AttentionPanel
from explorer.attention.tokens import display_pieces
from model.records import KINDS

Key = QtCore.Qt.Key


@pytest.fixture
def panel(qtbot, synthetic_maps):
    w = AttentionPanel()
    qtbot.addWidget(w)
    w.resize(1000, 700)
    w.set_maps(synthetic_maps)
    w.show()
    qtbot.waitExposed(w)
    return w


def test_empty_state(qtbot):
    w = AttentionPanel()
    qtbot.addWidget(w)
    assert w.empty_label.text() == EMPTY_TEXT
    assert w._stack.currentWidget() is w.empty_label
    assert w.current_matrix().shape == (0, 0)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("layer,head", [(0, 0), (1, 3)])
def test_heatmap_shows_the_selected_slice(panel, synthetic_maps, kind, layer, head):
    panel.set_state(kind, layer, head)
    expected = synthetic_maps.of_kind(kind)[layer, head]
    np.testing.assert_array_equal(panel.current_matrix(), expected)
    shown = panel.heatmap.displayed_array()
    masked = synthetic_maps.masked(kind)
    np.testing.assert_array_equal(shown[~masked], expected[~masked])
    assert np.isnan(shown[masked]).all()
    assert panel.controls.state() == (kind, layer, head, False)


def test_mean_over_heads(panel, synthetic_maps):
    panel.set_state("cross", 1, 2, mean=True)
    expected = synthetic_maps.cross[1].mean(axis=0)
    np.testing.assert_allclose(panel.current_matrix(), expected, rtol=1e-6)
    np.testing.assert_allclose(panel.heatmap.displayed_array(), expected, rtol=1e-6)
    assert panel.lines.visible_heads() == {0, 1, 2, 3}
    assert panel.grid.selected() == (1, None)
    assert "mean of 4 heads" in panel.statistics_text()


def test_axis_labels_per_kind(panel, synthetic_maps):
    source, target = display_pieces(synthetic_maps.source_tokens), display_pieces(synthetic_maps.target_tokens)
    expected = {"encoder": (source, source), "decoder": (target, target), "cross": (target, source)}
    for kind, (rows, cols) in expected.items():
        panel.set_state(kind, 0, 0)
        assert panel.heatmap.row_labels() == rows, kind
        assert panel.heatmap.col_labels() == cols, kind
    # Cross-attention: queries are target tokens, keys are source tokens, and the titles say so.
    assert "target" in panel.heatmap.plot.getAxis("left").labelText
    assert "source" in panel.heatmap.plot.getAxis("bottom").labelText
    assert panel.heatmap.hover_text_at(2, 1).startswith("query 'Haus' (row 3) → key 'house' (col 2)")


def test_changes_reach_every_view(panel, synthetic_maps, qtbot):
    with qtbot.waitSignal(panel.state_changed, timeout=1000):
        panel.set_state("decoder", 1, 2)
    np.testing.assert_array_equal(panel.lines.line_alphas()[2], synthetic_maps.decoder_self[1, 2])
    assert panel.lines.visible_heads() == {2}
    assert panel.grid.selected() == (1, 2)
    np.testing.assert_array_equal(np.nan_to_num(panel.grid.thumbnail_array(0, 3)),
                                  synthetic_maps.decoder_self[0, 3])


def test_controls_drive_the_state(panel, synthetic_maps):
    panel.controls.layer_spin.setValue(2)
    panel.controls.head_spin.setValue(4)
    panel.controls.kind_button("cross").click()
    assert panel.state() == ("cross", 1, 3, False)
    np.testing.assert_array_equal(panel.current_matrix(), synthetic_maps.cross[1, 3])
    panel.controls.mean_box.setChecked(True)
    assert panel.state() == ("cross", 1, 3, True)


def test_keyboard_steps_head_layer_and_kind(panel, qtbot):
    canvas = panel.heatmap.canvas
    qtbot.keyClick(canvas, Key.Key_Right)
    qtbot.keyClick(canvas, Key.Key_Right)
    assert panel.state() == ("encoder", 0, 2, False)
    qtbot.keyClick(canvas, Key.Key_Left)
    assert panel.state() == ("encoder", 0, 1, False)
    qtbot.keyClick(canvas, Key.Key_Down)
    assert panel.state() == ("encoder", 1, 1, False)
    qtbot.keyClick(canvas, Key.Key_Down)  # stops at the last layer
    assert panel.state() == ("encoder", 1, 1, False)
    qtbot.keyClick(panel, Key.Key_Up)  # also with the focus on the panel itself
    assert panel.state() == ("encoder", 0, 1, False)
    qtbot.keyClick(panel.grid.canvas, Key.Key_PageDown)
    assert panel.state()[0] == "decoder"
    qtbot.keyClick(panel.lines.canvas, Key.Key_M)
    assert panel.state() == ("decoder", 0, 1, True)


def test_grid_click_opens_the_head(panel, qtbot, synthetic_maps):
    panel.set_state("cross", 0, 0)
    panel.set_view("grid")
    qtbot.wait(20)
    point = panel.grid.canvas.mapFromScene(panel.grid.scene_pos_of_tile(1, 2))
    qtbot.mouseClick(panel.grid.canvas.viewport(), QtCore.Qt.MouseButton.LeftButton, pos=point)
    assert panel.state() == ("cross", 1, 2, False)
    assert panel.view() == "head"
    np.testing.assert_array_equal(panel.heatmap.displayed_array(), synthetic_maps.cross[1, 2])


def test_statistics_line(panel, synthetic_maps):
    panel.set_state("encoder", 0, 1)
    text = panel.statistics_text()
    w = synthetic_maps.encoder_self[0, 1].astype(np.float64)
    entropy = float(-(w * np.log2(w)).sum(axis=1).mean())
    assert f"entropy {entropy:.2f} bits" in text
    assert f"mean max weight {w.max(axis=1).mean():.3f}" in text  # Voita et al.'s confidence
    assert "diagonal" in text and "on </s>" in text
    panel.set_state("cross", 0, 1)
    c = synthetic_maps.cross[0, 1].astype(np.float64)
    i, j = np.arange(c.shape[0])[:, None], np.arange(c.shape[1])[None, :]
    assert f"mean |i−j| {(c * np.abs(i - j)).sum(1).mean():.2f}" in panel.statistics_text()  # as the workbench


def test_new_maps_keep_a_valid_state(panel, synthetic_maps):
    panel.set_state("cross", 1, 3)
    panel.set_maps(synthetic_maps)
    assert panel.state() == ("cross", 1, 3, False)
    panel.set_maps(None)
    assert panel._stack.currentWidget() is panel.empty_label
    with pytest.raises(ValueError):
        panel.set_state("sideways", 0, 0)
    panel.set_colormap("cividis")
    assert panel.heatmap.colormap_name() == "cividis"
    assert panel.controls.cmap_combo.currentText() == "cividis"


def test_the_hidden_lines_view_catches_up_when_shown_or_read(panel, synthetic_maps):
    """Kept out of head switches while hidden, the Lines view shows the panel's layer and head once shown."""
    panel.set_view("head")
    panel.set_state("decoder", 1, 2)
    panel.set_state("cross", 0, 3)
    assert panel._lines_pending is not None  # not drawn while the Head view shows
    panel.set_view("lines")
    assert panel._lines_pending is None
    np.testing.assert_array_equal(panel._lines.line_alphas()[3], synthetic_maps.cross[0, 3])
    assert panel._lines.visible_heads() == {3}
    panel.set_view("head")
    panel.set_state("encoder", 1, 1, mean=True)
    assert panel.lines.visible_heads() == set(range(synthetic_maps.n_heads))  # read: brought up to date
    np.testing.assert_array_equal(panel.lines.line_alphas()[0], synthetic_maps.encoder_self[1, 0])
