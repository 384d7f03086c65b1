"""End to end: the window, controller and worker with the real tiny Transformer (``tiny_model_dir``).

These are the only explorer tests that run torch; they check that what the views show is exactly
what the model computed, and that broken model folders are refused with the loader's own message.
"""

from __future__ import annotations

import shutil

import numpy as np
import pytest
from PySide6.QtWidgets import QMessageBox

from explorer.attention.tokens import display_piece, elide
from explorer.translate.worker import ModelWorker, TranslateRequest
from explorer.window.info_panel import format_count

from .conftest import REAL_TIMEOUT as TIMEOUT
from .conftest import open_real_window

SENTENCE = "3 1 4 1 5 9"  # the tiny model was trained to reverse digit strings


@pytest.fixture
def window(qtbot, tiny_model_dir, restore_app_look):
    return open_real_window(qtbot, tiny_model_dir, SENTENCE, (1400, 900))


@pytest.fixture
def critical(monkeypatch):
    calls = []
    monkeypatch.setattr(QMessageBox, "critical", lambda *args: calls.append(args))
    return calls


def test_views_show_exactly_what_the_model_computed(window, tiny_model_dir):
    win = window
    tr, info = win.controller.translation, win.controller.info
    maps = tr.attention
    assert tr.source == SENTENCE and maps is not None
    assert win.translate_panel.translation_text() == tr.text
    panel = win.attention_panel
    for kind in ("encoder", "decoder", "cross"):
        for layer in range(maps.n_layers):
            for head in (0, maps.n_heads - 1):
                panel.set_state(kind, layer, head)
                np.testing.assert_array_equal(panel.current_matrix(), maps.of_kind(kind)[layer, head])
        rows, cols = maps.labels(kind)
        assert panel.heatmap.row_labels() == [elide(display_piece(t)) for t in rows]
        assert panel.heatmap.col_labels() == [elide(display_piece(t)) for t in cols]
    # Cross-attention: decoder-input queries on rows, source keys on columns (a classic mix-up).
    assert maps.labels("cross") == (maps.target_tokens, maps.source_tokens)

    assert info.path == str(tiny_model_dir)
    assert f"d_model {info.d_model}" in win.info_panel.value("Shape")
    assert win.info_panel.config_value("d_model") == str(info.d_model)
    assert win.info_panel.value("Parameters") == format_count(info.n_params)
    assert win.info_panel.value("Device") == "cpu"
    assert win.pe_view.d_model() == info.d_model
    assert win.pe_view.sentence_length() == len(maps.source_tokens)


def test_overlapping_requests_show_only_the_newest(qtbot, window):
    win = window
    shown = []
    win.controller.translation_ready.connect(shown.append)
    first = win.translate("1 2 3 4 5 6 7 8", 4)
    second = win.translate("9 8 7", 1)
    qtbot.waitUntil(lambda: win.controller.translation.request_id == second, timeout=TIMEOUT)
    qtbot.waitUntil(lambda: not win.controller.is_busy, timeout=TIMEOUT)
    qtbot.wait(100)  # anything still in flight would have arrived by now
    assert first < second
    assert [(t.request_id, t.source) for t in shown] == [(second, "9 8 7")]
    assert win.translate_panel.translation_text() == shown[0].text


@pytest.mark.parametrize("damage", ["empty folder", "garbage weights"])
def test_bad_model_folder_is_refused_and_the_model_keeps_working(
    qtbot, window, critical, tmp_path, tiny_model_dir, damage
):
    win = window
    good = win.controller.info
    bad = tmp_path / "bad-model"
    if damage == "empty folder":
        bad.mkdir()
    else:
        shutil.copytree(tiny_model_dir, bad)
        (bad / "model.safetensors").write_bytes(b"\x00garbage, not safetensors" * 10)
    with qtbot.waitSignal(win.controller.error, timeout=TIMEOUT) as blocker:
        win.open_model(bad)
    message = blocker.args[1]
    assert len(critical) == 1 and critical[0][2] == message
    assert str(bad) in message and not message.startswith("Unexpected")
    assert win.controller.info is good and not win.is_empty_state()
    with qtbot.waitSignal(win.controller.translation_ready, timeout=TIMEOUT) as result:
        win.translate("2 7 1 8", 1)
    assert result.args[0].source == "2 7 1 8"


def test_worker_on_the_calling_thread(qtbot, tiny_model_dir, tmp_path):
    """The worker's slots, called directly (coverage cannot follow code into the QThread)."""
    worker = ModelWorker()
    with qtbot.waitSignal(worker.model_loaded, timeout=TIMEOUT) as loaded:
        worker.load_model(str(tiny_model_dir))
    assert loaded.args[0].n_layers >= 1
    with qtbot.waitSignal(worker.failed, timeout=TIMEOUT) as failed:
        worker.load_model(str(tmp_path / "missing"))
    assert failed.args[0] == "load" and worker.has_model
    with qtbot.waitSignal(worker.translated, timeout=TIMEOUT) as done:
        worker.translate(TranslateRequest(5, "1 2 3", 2))
    assert done.args[0].request_id == 5 and done.args[0].attention is not None
    with qtbot.waitSignal(worker.failed, timeout=TIMEOUT) as refused:
        worker.translate(TranslateRequest(6, "", 1))
    assert refused.args[0] == "translate" and refused.args[2] == 6
    assert not refused.args[1].startswith("Unexpected")
    worker.latest_request_id = 9
    with qtbot.assertNotEmitted(worker.translated, wait=50):
        worker.translate(TranslateRequest(8, "1 2", 1))  # superseded before it started: skipped
