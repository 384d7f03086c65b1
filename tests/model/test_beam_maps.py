"""A beam search's own maps and probabilities (model/decoding/beam_maps.py) against a pass of the modules.

The native rows step writes the attention weights it used; the trace follows the result back through the
beam's reorders. Held here to the teacher-forced pass of the modules over the same output (``capture``,
``step_probabilities``): the same fp32 numbers with sums in another order, so to ~1e-6, on configured
random models (whose searches mostly run to the length limit: unfinished results) and the built-in model
(finished ones, followed through rows other than the first).
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

from model.decoding import decode
from model.decoding.beam_maps import BeamTrace
from model.decoding.search import beam_search
from model.decoding.steps import step_probabilities
from model.native import build
from model.native.rows import NativeRows, RowWeights
from tests.model.native_models import MODELS, config_model

pytestmark = pytest.mark.skipif(build.compiler() is None, reason="no C compiler on this machine")


def _search_against_modules(model, src, max_len, head_masks=None):
    """Beam 4 with a trace; its maps and probabilities held to the modules'. Returns (ids, trace)."""
    trace = BeamTrace(model.cfg.eos_id)
    ids, _ = beam_search(model, src, 4, max_len, native=RowWeights.of(model, wait=True), trace=trace,
                         head_masks=head_masks)
    assert trace.maps is not None and trace.path is not None
    _, dec, cross = decode.capture(model, src, ids, head_masks)
    T = len(ids)
    assert trace.maps[0].shape == dec.shape == (model.cfg.n_layers, model.cfg.n_heads, T, T)
    assert trace.maps[1].shape == cross.shape
    np.testing.assert_allclose(trace.maps[0], dec, rtol=0, atol=1e-5)
    np.testing.assert_allclose(trace.maps[1], cross, rtol=0, atol=1e-5)
    assert np.all(np.triu(trace.maps[0], k=1) == 0)  # no position sees a later one
    with torch.inference_mode():
        probs = step_probabilities(model, src, ids, None, head_masks, top_k=1)[2]
    np.testing.assert_allclose(trace.probs, probs, rtol=1e-5, atol=1e-6)
    return ids, trace


@pytest.mark.parametrize("name", MODELS)
def test_random_models_results_to_the_length_limit(name):
    model = config_model(3, **MODELS[name])
    for seed, max_len in ((0, 6), (1, 9)):
        g = torch.Generator().manual_seed(seed)
        src = torch.randint(4, model.cfg.vocab_size, (1, 7), generator=g)
        ids, trace = _search_against_modules(model, src, max_len)
        assert len(ids) == max_len and model.cfg.eos_id not in ids  # unfinished: the limit came first
        assert len(trace.path) == max_len


def test_the_built_in_models_finished_results_through_every_row():
    from model.analysis.held_out import load_pairs
    from model.builtin import default_model_dir
    from model.checkpoint import load_model
    loaded = load_model(default_model_dir())
    texts, _ = load_pairs(loaded.path, limit=10, need_ref=False)
    followed = set()
    for text in texts:
        src = torch.tensor([decode.encode_source(loaded, text)])
        ids, trace = _search_against_modules(loaded.model, src, src.size(1) + 50)
        assert ids[-1] == loaded.config.eos_id
        followed.update(trace.path)
    assert followed - {0}  # some results were in a row other than the first at some step


def test_head_masks_act_on_the_searchs_maps_as_on_the_modules():
    model = config_model(4)
    masks = {kind: torch.ones(model.cfg.n_layers, model.cfg.n_heads) for kind in ("decoder", "cross")}
    masks["decoder"][1, 2] = 0.0
    masks["cross"][0, 1] = 0.0
    src = torch.randint(4, model.cfg.vocab_size, (1, 6), generator=torch.Generator().manual_seed(2))
    plain, _ = beam_search(model, src, 4, 8, native=RowWeights.of(model, wait=True))
    ids, _ = _search_against_modules(model, src, 8, masks)
    assert ids != plain  # the masks changed the search, and the maps followed it


def test_translate_takes_the_searchs_maps_and_makes_no_second_pass(monkeypatch):
    from model.builtin import default_model_dir
    from model.checkpoint import load_model
    loaded = load_model(default_model_dir())
    text = "The children are playing in the garden."
    before = decode.translate(loaded, text, beam_size=4)

    def no_pass(*args, **kwargs):
        raise AssertionError("a teacher-forced pass after the search")

    monkeypatch.setattr(decode, "_capture", no_pass)
    monkeypatch.setattr(decode, "step_probabilities", no_pass)
    tr = decode.translate(loaded, text, beam_size=4)
    assert tr.target_pieces == before.target_pieces and tr.piece_probs == before.piece_probs
    for kind in ("encoder", "decoder", "cross"):
        np.testing.assert_array_equal(tr.attention.of_kind(kind), before.attention.of_kind(kind))
    monkeypatch.undo()
    src = torch.tensor([decode.encode_source(loaded, text)])
    ids = [loaded.tokenizer.sp.piece_to_id(p) for p in tr.attention.predicted_tokens]
    enc, dec, cross = decode.capture(loaded.model, src, ids)
    np.testing.assert_array_equal(tr.attention.encoder_self, enc)
    np.testing.assert_allclose(tr.attention.decoder_self, dec, rtol=0, atol=1e-5)
    np.testing.assert_allclose(tr.attention.cross, cross, rtol=0, atol=1e-5)


def test_a_first_step_computes_one_row_and_copies_it():
    model = config_model(5)
    weights = RowWeights.of(model, wait=True)
    src = torch.randint(4, model.cfg.vocab_size, (1, 5), generator=torch.Generator().manual_seed(3))
    with torch.inference_mode():
        memory, _ = model.encode(src)
        cross_kv = [layer.cross_attn.project_kv(memory) for layer in model.decoder]
    one, every = (NativeRows(weights, cross_kv, 4, capacity=6) for _ in range(2))
    start = torch.full((4,), model.cfg.bos_id)
    maps_one, maps_every = one.map_buffers(), every.map_buffers()
    logits_one = one.step(start, maps_one, first=True).clone()
    logits_every = every.step(start, maps_every).clone()
    assert torch.equal(logits_one[1:], logits_one[0].expand(3, -1))  # every row is row 0
    torch.testing.assert_close(logits_one, logits_every, rtol=0, atol=1e-5)
    for a, b in zip(maps_one, maps_every):
        assert np.array_equal(a[1:], np.broadcast_to(a[0], a[1:].shape))
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-6)
    # The rows not computed got row 0's caches: the next step, rows apart, gives every row's own logits.
    nxt = torch.tensor([5, 6, 7, 8])
    torch.testing.assert_close(one.step(nxt), every.step(nxt), rtol=0, atol=1e-5)
    with pytest.raises(ValueError, match="same piece"):
        NativeRows(weights, cross_kv, 4, capacity=6).step(torch.tensor([2, 2, 5, 2]), first=True)
    with pytest.raises(ValueError, match="wrong shape"):
        fresh = NativeRows(weights, cross_kv, 4, capacity=6)
        fresh.step(start, (np.empty((4, 2, 4, 2), np.float32), fresh.map_buffers()[1]))
