"""The workbench's model side: the final beam's hypotheses score as the search scored them, each with its
own maps; a second model force-decoded on the first one's output; the unablated translation beside an
ablated one."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from model.checkpoint import load_model, save_model
from model.decoding.beam import length_penalty
from model.decoding.decode import translate
from model.decoding.workbench import final_beam, force_decode, translate_more

SENTENCE = "3 1 4 1 5 9 2"


@pytest.fixture(scope="module")
def loaded(tiny_model_dir):
    return load_model(tiny_model_dir)


@pytest.fixture(scope="module")
def other_dir(loaded, tmp_path_factory):
    """A second checkpoint of the same model: its weights moved by seeded noise, the tokenizer kept."""
    b = load_model(loaded.path)
    gen = torch.Generator().manual_seed(1)
    with torch.no_grad():
        for p in b.model.parameters():
            p.add_(0.05 * torch.randn(p.shape, generator=gen))
    return save_model(tmp_path_factory.mktemp("b") / "model-b", b.model, b.tokenizer)


def _log_prob(loaded, text, out_ids):
    """Sum of log P of each piece of out_ids, from one teacher-forced pass (no search involved)."""
    model, cfg = loaded.model, loaded.config
    src = torch.tensor([loaded.tokenizer.encode(text) + [cfg.eos_id]])
    tgt = torch.tensor([[cfg.bos_id] + out_ids[:-1]])
    with torch.no_grad():
        memory, _ = model.encode(src)
        hidden, _, _ = model.decode(tgt, memory, src)
        logp = model.next_logits(hidden[0]).float().log_softmax(-1)
    return float(logp[torch.arange(len(out_ids)), torch.tensor(out_ids)].sum())


def test_final_beam_lists_every_hypothesis_scored_as_the_search_scored_it(loaded):
    beam = final_beam(loaded, SENTENCE, 4, alpha=0.6)
    best = translate(loaded, SENTENCE, beam_size=4)
    hyps = beam.hypotheses
    assert len(hyps) >= 4 and beam.alpha == 0.6 and beam.beam_size == 4
    assert hyps[0].text == best.text and hyps[0].score == pytest.approx(best.score, abs=1e-4)  # fp order
    assert [h.score for h in hyps] == sorted((h.score for h in hyps), reverse=True)
    ids_of = {loaded.tokenizer.piece(i): i for i in range(loaded.tokenizer.vocab_size)}
    for h in hyps:
        out = [ids_of[p] for p in h.pieces] + ([loaded.config.eos_id] if h.finished else [])
        assert h.length == len(out) and h.penalty == pytest.approx(length_penalty(len(out), 0.6))
        assert h.log_prob == pytest.approx(_log_prob(loaded, SENTENCE, out), abs=1e-3)
        assert h.score == pytest.approx(h.log_prob / h.penalty)
        # Its own maps: the decoder's queries are <s> and its own pieces.
        assert h.attention.target_tokens == ("<s>",) + (h.pieces + ("</s>",))[:len(out) - 1]
    assert len({h.pieces for h in hyps}) == len(hyps)
    # The hypotheses' maps come from a pass of the modules, the translation's from its search's steps.
    np.testing.assert_allclose(hyps[0].attention.cross, best.attention.cross, rtol=0, atol=1e-5)
    # The beam dock's first row is "the translation shown": it shows the translation's own numbers.
    more = translate_more(loaded, SENTENCE, 4, capture_beam=True)
    assert more.beam.hypotheses[0].attention is more.attention
    assert [h.pieces for h in more.beam.hypotheses] == [h.pieces for h in hyps]
    np.testing.assert_array_equal(more.beam.hypotheses[1].attention.cross, hyps[1].attention.cross)


def test_translate_more_adds_the_unablated_translation_and_removing_nothing_changes_nothing(loaded):
    plain = translate(loaded, SENTENCE, beam_size=4)
    same = translate_more(loaded, SENTENCE, 4, removed=())
    assert same.unablated is None and same.text == plain.text
    for kind in ("encoder", "decoder", "cross"):
        np.testing.assert_array_equal(same.attention.of_kind(kind), plain.attention.of_kind(kind))
    removed = (("cross", 0, 0), ("cross", 1, 1))
    ablated = translate_more(loaded, SENTENCE, 4, removed=removed)
    assert ablated.attention.removed == removed and ablated.unablated.text == plain.text
    assert not ablated.attention.cross[0, 0].any()


def test_compare_force_decodes_b_on_a_output_and_the_difference_is_b_minus_a(loaded, other_dir):
    b = load_model(other_dir)
    result = translate_more(loaded, SENTENCE, 4, compare_with=b)
    comp = result.comparison
    assert comp.comparable and "force-decoded" in comp.note
    assert comp.maps_b.target_tokens == result.attention.target_tokens
    ids_of = {loaded.tokenizer.piece(i): i for i in range(loaded.tokenizer.vocab_size)}
    out = [ids_of[p] for p in result.attention.predicted_tokens]
    src = loaded.tokenizer.encode(SENTENCE) + [loaded.config.eos_id]
    by_hand = force_decode(b, src, out)
    np.testing.assert_array_equal(comp.maps_b.cross, by_hand.cross)
    d = comp.difference("cross", 1, 2)
    np.testing.assert_allclose(d, by_hand.cross[1, 2] - result.attention.cross[1, 2], atol=0)
    assert np.abs(d).max() > 0  # the noise moved the weights
    assert comp.text_b == translate(b, SENTENCE, beam_size=4).text
