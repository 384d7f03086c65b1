"""Each target piece's probability, as the translation shows it (#30): softmax of the decoder's logits."""

from __future__ import annotations

import numpy as np
import pytest


@pytest.mark.parametrize("beam", [1, 4])
def test_piece_probabilities_equal_the_searchs_own_softmax(tiny_model_dir, beam):
    from model.checkpoint import load_model
    from model.decoding.decode import translate
    loaded = load_model(tiny_model_dir)
    plain = translate(loaded, "3 1 4 1 5 9 2 6", beam_size=beam)  # the step view closed: its own pass
    t = translate(loaded, "3 1 4 1 5 9 2 6", beam_size=beam, capture_steps=True)
    assert plain.target_pieces == t.target_pieces and len(t.piece_probs) == len(t.target_pieces) > 0
    # DecodeSteps.chosen_probs: the probability of each chosen piece at its step (</s> too, when generated)
    steps = np.asarray(t.steps.chosen_probs, dtype=np.float64)[: len(t.target_pieces)]
    np.testing.assert_allclose(np.asarray(plain.piece_probs), steps, rtol=1e-5, atol=1e-6)
    logits_check = _softmax_of_logits(loaded, "3 1 4 1 5 9 2 6", t)
    np.testing.assert_allclose(np.asarray(plain.piece_probs), logits_check, rtol=1e-4, atol=1e-6)
    assert all(0.0 < p <= 1.0 for p in plain.piece_probs)
    assert plain.mean_logprob == pytest.approx(float(np.mean(np.log(steps))), abs=1e-5)


def _softmax_of_logits(loaded, text, t):
    """The reference: the full forward pass's logits, softmax over every piece the model can write (the pad
    id, which it can never write, left out), at the chosen pieces."""
    import torch

    from model.decoding.decode import encode_source
    cfg = loaded.config
    src = torch.tensor([encode_source(loaded, text)])
    gen = [loaded.tokenizer.sp.piece_to_id(p) for p in t.target_pieces]
    with torch.no_grad():
        logits, _ = loaded.model(src, torch.tensor([[cfg.bos_id] + gen[:-1]]))
    logits = logits[0].double()
    logits[:, cfg.pad_id] = float("-inf")
    probs = torch.softmax(logits, -1)
    return probs[torch.arange(len(gen)), torch.tensor(gen)].numpy()
