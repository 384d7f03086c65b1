"""The search step by step (model/decoding/steps.py): probabilities recomputed with the model, greedy's
choices, and the beam's live hypotheses against the final beam result."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from model.checkpoint import load_model
from model.decoding.beam import length_penalty
from model.decoding.decode import encode_source, translate

SENTENCE = "1 2 3"


@pytest.fixture(scope="module")
def loaded(tiny_model_dir):
    return load_model(tiny_model_dir)


def next_probs(loaded, prefix_ids: list[int], src_ids: list[int]) -> np.ndarray:
    """softmax of the model's logits after <s> + prefix, computed afresh without any cache: (V,)."""
    model = loaded.model
    with torch.inference_mode():
        src = torch.tensor([src_ids])
        memory, _ = model.encode(src)
        tgt = torch.tensor([[model.cfg.bos_id] + prefix_ids])
        hidden, _, _ = model.decode(tgt, memory, src)
        return model.next_logits(hidden[:, -1]).float().softmax(-1)[0].numpy()


def ids_of(loaded, pieces) -> list[int]:
    return [loaded.tokenizer.sp.piece_to_id(p) for p in pieces]


def test_steps_only_when_asked_and_translation_unchanged(loaded):
    plain = translate(loaded, SENTENCE, beam_size=1)
    traced = translate(loaded, SENTENCE, beam_size=1, capture_steps=True)
    assert plain.steps is None and traced.steps is not None
    assert traced.text == plain.text and traced.target_pieces == plain.target_pieces
    np.testing.assert_array_equal(traced.attention.decoder_self, plain.attention.decoder_self)
    beam_plain = translate(loaded, SENTENCE, beam_size=4)
    beam_traced = translate(loaded, SENTENCE, beam_size=4, capture_steps=True)
    assert beam_traced.text == beam_plain.text and beam_traced.score == pytest.approx(beam_plain.score)


@pytest.mark.parametrize("beam_size", [1, 3])
def test_probabilities_are_softmax_of_the_logits(loaded, beam_size):
    result = translate(loaded, SENTENCE, beam_size=beam_size, capture_steps=True)
    steps, maps = result.steps, result.attention
    assert steps.n_steps == len(maps.target_tokens) == len(maps.predicted_tokens) >= 3
    assert steps.chosen == maps.predicted_tokens
    src_ids = encode_source(loaded, SENTENCE)
    chosen_ids = ids_of(loaded, steps.chosen)
    for t in range(steps.n_steps):
        probs = next_probs(loaded, chosen_ids[:t], src_ids)
        assert probs.sum() == pytest.approx(1.0, abs=1e-5)
        order = np.argsort(-probs)[: steps.top_probs.shape[1]]
        np.testing.assert_allclose(steps.top_probs[t], probs[order], atol=1e-5)
        assert ids_of(loaded, steps.top_pieces[t]) == order.tolist() or np.allclose(
            probs[ids_of(loaded, steps.top_pieces[t])], probs[order], atol=1e-6)  # ties may swap
        assert steps.chosen_probs[t] == pytest.approx(probs[chosen_ids[t]], abs=1e-5)
        assert steps.chosen_ranks[t] == int((probs > probs[chosen_ids[t]]).sum())
        # The bars plus "all others" are the whole distribution.
        assert float(steps.top_probs[t].sum()) + steps.other_prob(t) == pytest.approx(1.0, abs=1e-5)
        if beam_size == 1:  # greedy takes the most probable piece at every step
            assert steps.chosen_ranks[t] == 0 and steps.top_pieces[t][0] == steps.chosen[t]


def test_greedy_hypothesis_is_the_prefix_with_its_log_probability(loaded):
    steps = translate(loaded, SENTENCE, beam_size=1, capture_steps=True).steps
    total = 0.0
    for t, hyps in enumerate(steps.hypotheses):
        total += float(np.log(steps.chosen_probs[t]))
        assert len(hyps) == 1 and hyps[0].pieces == steps.chosen[: t + 1]
        assert hyps[0].score == pytest.approx(total, abs=1e-4)


def test_beam_steps_list_live_hypotheses_consistent_with_the_result(loaded):
    k = 4
    result = translate(loaded, SENTENCE, beam_size=k, capture_steps=True)
    steps = result.steps
    assert steps.beam_size == k and steps.search_steps >= steps.n_steps
    src_ids = encode_source(loaded, SENTENCE)
    for t, hyps in enumerate(steps.hypotheses):
        live = [h for h in hyps if not h.finished]
        assert 0 < len(live) <= k or t == steps.search_steps - 1
        assert [h.score for h in live] == sorted((h.score for h in live), reverse=True)
        for h in live[:2]:  # each live score is the sum of its pieces' log-probabilities
            ids = ids_of(loaded, h.pieces)
            recomputed = sum(np.log(next_probs(loaded, ids[:i], src_ids)[ids[i]]) for i in range(len(ids)))
            assert len(h.pieces) == t + 1 and h.score == pytest.approx(recomputed, abs=1e-3)
        if t < steps.n_steps - 1:  # every prefix of the final output was alive at its step
            assert steps.chosen[: t + 1] in [h.pieces for h in live]
    # The result is the best finished hypothesis at the step it finished, with its penalised score; a
    # search stopped by the length limit returns its best live row, penalised by the same rule.
    last = steps.hypotheses[-1]
    finished = [h for h in last if h.finished]
    lp = sum(np.log(steps.chosen_probs.astype(np.float64))) / length_penalty(steps.n_steps, 0.6)
    assert result.score == pytest.approx(lp, abs=1e-3)
    if steps.chosen[-1] == "</s>":
        assert finished and finished[0].pieces == steps.chosen
        assert finished[0].score == pytest.approx(result.score, abs=1e-5)
    else:
        best = max((h for h in last if not h.finished), key=lambda h: h.score)
        assert best.pieces == steps.chosen and best.score / length_penalty(steps.n_steps, 0.6) == pytest.approx(
            result.score, abs=1e-5)
