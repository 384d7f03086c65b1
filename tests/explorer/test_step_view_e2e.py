"""End to end: the step-by-step tab with the real tiny Transformer, through the window's worker. What the
bars show is recomputed here from the model's logits, and the growing map from the final one."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from model.checkpoint import load_model
from model.decoding.decode import encode_source

from .conftest import REAL_TIMEOUT as TIMEOUT
from .conftest import open_real_window

SENTENCE = "1 2 3"  # the tiny model was trained (briefly) to reverse digit strings


@pytest.fixture
def window(qtbot, tiny_model_dir, restore_app_look):
    return open_real_window(qtbot, tiny_model_dir, SENTENCE, (1024, 768))


@pytest.mark.parametrize("beam_size", [1, 3])
def test_step_tab_shows_the_models_own_distributions(qtbot, window, tiny_model_dir, beam_size):
    assert window.controller.translation.steps is None  # translated before the tab was open: no steps
    window.translate_panel.beam_spin.setValue(beam_size)
    with qtbot.waitSignal(window.controller.translation_ready, timeout=TIMEOUT):
        window.tabs.setCurrentWidget(window.step_view)  # opening the tab translates again, with steps
    view, translation = window.step_view, window.controller.translation
    assert translation.steps is not None and view.n_steps() == len(translation.attention.target_tokens)

    loaded = load_model(tiny_model_dir)
    model, sp = loaded.model, loaded.tokenizer.sp
    src = torch.tensor([encode_source(loaded, SENTENCE)])
    chosen = [sp.piece_to_id(p) for p in translation.steps.chosen]
    with torch.inference_mode():
        memory, _ = model.encode(src)
    layer, head = view.layer_head()
    final = translation.attention.decoder_self[layer]
    final = final.mean(axis=0) if head is None else final[head]
    for t in range(1, view.n_steps() + 1):
        view.set_step(t)
        with torch.inference_mode():
            hidden, _, _ = model.decode(torch.tensor([[model.cfg.bos_id] + chosen[: t - 1]]), memory, src)
            probs = model.next_logits(hidden[:, -1]).float().softmax(-1)[0].numpy()
        rows = view.bars.rows()
        shown = np.array([p for _, p, _ in rows])
        assert shown.sum() == pytest.approx(1.0, abs=1e-5)
        k = translation.steps.top_probs.shape[1]
        top = np.sort(probs)[::-1][:k]  # the k most probable pieces, whatever the search took
        candidates = sorted((p for _, p, kind in rows if kind != "rest"), reverse=True)
        np.testing.assert_allclose(candidates[:k], top, atol=1e-5)
        assert [kind for _, _, kind in rows].count("chosen") == 1
        chosen_row = next(p for _, p, kind in rows if kind == "chosen")
        assert chosen_row == pytest.approx(probs[chosen[t - 1]], abs=1e-5)
        if beam_size == 1:  # greedy: the chosen piece is the argmax, first and marked
            assert rows[0][2] == "chosen" and chosen[t - 1] == int(probs.argmax())
        else:
            assert view.hypotheses.rowCount() >= 1
        np.testing.assert_allclose(view.maps.shown_decoder(), final[:t, :t], atol=1e-7)


def test_a_tab_that_translates_again_on_opening_takes_the_attention_tabs_layer_and_head(qtbot, window):
    """It showed layer 1, mean over heads, when opening it had to translate the sentence again."""
    assert window.controller.translation.steps is None
    n_layers = window.controller.translation.attention.n_layers
    window.attention_panel.set_state("cross", n_layers - 1, 1, False)
    with qtbot.waitSignal(window.controller.translation_ready, timeout=TIMEOUT):
        window.tabs.setCurrentWidget(window.step_view)
    qtbot.waitUntil(lambda: window.step_view.n_steps() > 0, timeout=TIMEOUT)
    assert window.step_view.layer_head() == (n_layers - 1, 1)
    window.step_view.head_combo.setCurrentIndex(0)  # the teacher picks the mean here: kept for the next one
    with qtbot.waitSignal(window.controller.translation_ready, timeout=TIMEOUT):
        window.translate_panel.set_text("3 2 1")
        window.translate_panel.request_translation()
    assert window.step_view.layer_head() == (n_layers - 1, None)
