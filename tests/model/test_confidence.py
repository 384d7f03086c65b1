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


def test_a_files_sentence_scores_equal_each_sentences_own(tiny_model_dir):
    """model.paragraphs scores a whole file in padded batches; each number must be the one a teacher-forced
    pass over that sentence alone gives (what Translation.mean_logprob is), whatever its neighbours' lengths."""
    import torch

    from model.checkpoint import load_model
    from model.decoding.batches import decode_batches
    from model.decoding.steps import mean_logprobs, step_probabilities
    from model.paragraphs.translate_text import translate_text
    loaded = load_model(tiny_model_dir)
    eos = loaded.config.eos_id
    lines = ["3 1 4", "1 5 9 2 6 5 3 5", "8", "9 7 9 3 2 3 8 4 6 2 6"]
    encoded, generated = decode_batches(loaded.model, loaded.tokenizer, lines, beam_size=1)
    batched = mean_logprobs(loaded.model, encoded, generated, batch_size=3)  # two batches, mixed lengths
    for src, out, score in zip(encoded, generated, batched):
        chosen = step_probabilities(loaded.model, torch.tensor([src]), out, top_k=1)[2]
        alone = np.log(np.asarray([p for i, p in zip(out, chosen) if i != eos], dtype=np.float64)).mean()
        assert score == pytest.approx(float(alone), abs=1e-4)
    assert len({round(s, 3) for s in batched}) > 1  # real numbers, not one constant
    result = translate_text(loaded, "\n".join(lines), beam_size=1)
    assert [s.source for s in result.sentences] == lines
    assert all(s.mean_logprob is not None and s.mean_logprob < 0 for s in result.sentences)


@pytest.mark.parametrize("beam", [1, 4])
def test_the_probabilities_come_from_a_pass_the_translation_makes_anyway(tiny_model_dir, beam, monkeypatch):
    # Greedy's maps come from its checking pass, beam search's from its own steps (the native rows step):
    # the probabilities come from those, not from a decoder pass of their own (~10% of a beam-4 translation).
    from model.checkpoint import load_model
    from model.decoding import decode
    loaded = load_model(tiny_model_dir)
    before = decode.translate(loaded, "3 1 4 1 5 9 2 6", beam_size=beam)

    def no_extra_pass(*args, **kwargs):
        raise AssertionError("a teacher-forced pass of its own for the probabilities")

    monkeypatch.setattr(decode, "step_probabilities", no_extra_pass)
    t = decode.translate(loaded, "3 1 4 1 5 9 2 6", beam_size=beam)
    assert t.target_pieces == before.target_pieces and t.piece_probs == before.piece_probs
