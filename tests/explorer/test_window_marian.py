"""The window with Marian (OPUS-MT) models: a broken one is refused and the loaded model stays; an
imported one shows where it came from, its sizes, its own positional-encoding layout and real maps."""

from __future__ import annotations

import json

import numpy as np
import pytest
from PySide6.QtWidgets import QMessageBox

from explorer.positional.encoding import sinusoidal_pe
from explorer.window.main_window import MainWindow

TIMEOUT = 120_000  # loading imports torch on first use; the CPU may be shared with other work


@pytest.fixture
def critical(monkeypatch):
    calls = []
    monkeypatch.setattr(QMessageBox, "critical", lambda *args: calls.append(args))
    return calls


@pytest.fixture
def window(qtbot, tiny_model_dir, restore_app_look):
    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(1400, 900)
    win.translate_panel.set_text("3 1 4 1 5")
    win.show()
    with qtbot.waitSignal(win.controller.translation_ready, timeout=TIMEOUT):
        win.open_model(tiny_model_dir)
    return win


def test_broken_marian_folder_keeps_the_loaded_model(qtbot, window, critical, tmp_path):
    from tests.model.marian_tiny import build_tokenizer_files
    win = window
    good = win.controller.info
    bad = tmp_path / "opus-mt-broken"
    vocab = build_tokenizer_files(bad)
    (bad / "target.spm").unlink()
    pad = len(vocab) - 1
    (bad / "config.json").write_text(json.dumps({"model_type": "marian", "vocab_size": len(vocab), "pad_token_id": pad,
                                                 "decoder_start_token_id": pad}), encoding="utf-8")
    with qtbot.waitSignal(win.controller.error, timeout=TIMEOUT) as blocker:
        win.open_model(bad)
    message = blocker.args[1]
    assert len(critical) == 1 and "target.spm" in message and not message.startswith("Unexpected")
    assert win.controller.info is good and win.info_panel.value("Origin") == "Trained with Attention Explorer"
    assert win.pe_view.pe_layout() == "interleaved"


def test_imported_marian_model_in_every_view(qtbot, window, marian_model, tmp_path):
    from model.marian.load import import_marian
    win = window
    _, st, _ = marian_model
    imported = import_marian(st, tmp_path / "opus-mt-tiny-imported")
    win.translate_panel.set_text("The weather is nice today.")
    with qtbot.waitSignal(win.controller.translation_ready, timeout=TIMEOUT):
        win.open_model(imported)
    info, tr = win.controller.info, win.controller.translation
    assert info.origin == "marian-import"
    assert win.info_panel.value("Origin") == "Imported from a Marian (OPUS-MT) model"
    assert win.info_panel.value("Shape") == "d_model 32 · d_ff 64 · 2 + 2 layers · 4 heads"
    assert win.info_panel.config_value("activation") == "swish"
    assert win.pe_view.pe_layout() == "halves" and win.pe_view.d_model() == 32
    assert "sines, then cosines" in win.pe_view.pe_title()
    np.testing.assert_array_equal(win.pe_view.pe_array(), sinusoidal_pe(win.pe_view.pe_array().shape[0], 32, "halves"))
    maps = tr.attention
    assert maps.target_tokens[0] == "<s>" and maps.source_tokens[-1] == "</s>"  # Marian's start and end
    for kind in ("encoder", "decoder", "cross"):
        for layer in range(maps.n_layers):
            win.attention_panel.set_state(kind, layer, maps.n_heads - 1)
            np.testing.assert_array_equal(win.attention_panel.current_matrix(),
                                          maps.of_kind(kind)[layer, maps.n_heads - 1])
