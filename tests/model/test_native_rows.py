"""The native fp32 rows step (model/native/rows.py) computes the fp32 model's beam search.

Unlike the draft, this step decides the search, so the tests hold its logits to ``Transformer.decode``'s to
fp32 rounding (the sums differ only in order), row by row through the reorders a beam makes; beam search
through it to the PyTorch beam search (the same pieces, scores to ~1e-6), on configured models, the
built-in one and the window's ``translate``; and head masks to the modules' (ones change no bit).
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

from model.checkpoint import load_model
from model.decoding import decode, search
from model.native import build
from model.native.rows import NativeRows, RowWeights
from model.transformer import DecoderState, Transformer
from tests.model.native_models import MODELS, config_model

pytestmark = pytest.mark.skipif(build.compiler() is None, reason="no C compiler on this machine")


def _model(**changes) -> Transformer:
    return config_model(5, **changes)


def _close(native: torch.Tensor, ref: torch.Tensor) -> None:
    real = torch.isfinite(ref)
    assert torch.equal(real, torch.isfinite(native))  # padding, and only padding, is −∞
    err = float((native[real] - ref[real]).abs().max() / ref[real].abs().max())
    assert err < 2e-6, err  # the same fp32 products, summed in another order


@pytest.mark.parametrize("rows", [1, 4, 6])  # 6: a block of 4 rows and one of 2
@pytest.mark.parametrize("name", MODELS)
def test_each_step_gives_the_fp32_logits_of_every_row_through_reorders(name, rows):
    model = _model(**MODELS[name])
    weights = RowWeights.of(model, wait=True)
    src = torch.tensor([[5, 9, 7, 4, 8, 3]])
    gen = torch.Generator().manual_seed(rows)
    with torch.inference_mode():
        memory, _ = model.encode(src)
        state = DecoderState(model, memory, src, rows=rows)
        native = NativeRows(weights, state.cross_kv, rows, capacity=10)
        tokens = torch.full((rows, 1), model.cfg.bos_id)
        for _ in range(10):
            logits = native.step(tokens).clone()
            hidden, _, _ = model.decode(tokens, memory.expand(rows, -1, -1), src.expand(rows, -1), state=state)
            _close(logits, model.next_logits(hidden[:, -1]))
            # A beam's reorder: rows copied, repeated and dropped; then each row feeds a piece of its own.
            index = torch.randint(0, rows, (rows,), generator=gen)
            native.reorder(index)
            state.reorder(index)
            tokens = torch.randint(4, model.cfg.vocab_size, (rows, 1), generator=gen)
        assert native.position == 10
        with pytest.raises(ValueError, match="no room"):
            native.step(tokens)
        with pytest.raises(ValueError, match="outside"):  # refused in C, not read past the caches
            native.reorder(torch.full((rows,), rows))
        with pytest.raises(ValueError, match="a piece outside the vocabulary"):
            NativeRows(weights, state.cross_kv, rows, capacity=2).step(torch.full((rows,), model.cfg.vocab_size))


@pytest.mark.parametrize("name", MODELS)
def test_beam_search_through_it_is_the_pytorch_beam_search(name):
    model = _model(**MODELS[name])
    weights = RowWeights.of(model, wait=True)
    for seed in range(6):
        src = torch.randint(4, 61, (1, 3 + seed), generator=torch.Generator().manual_seed(seed))
        for k in (2, 4, 5):
            ref_ids, ref_score = search.beam_search(model, src, k, max_len=12)
            ids, score = search.beam_search(model, src, k, max_len=12, native=weights)
            assert ids == ref_ids
            assert score == pytest.approx(ref_score, rel=1e-5)


def test_head_masks_act_as_in_the_modules_and_ones_change_no_bit():
    model = _model()
    weights = RowWeights.of(model, wait=True)
    cfg = model.cfg
    src = torch.tensor([[5, 9, 7, 4, 8, 3]])
    ones = {kind: torch.ones(cfg.n_layers, cfg.n_heads) for kind in ("decoder", "cross")}
    cut = {kind: m.clone() for kind, m in ones.items()}
    cut["decoder"][1, 2] = 0.0
    cut["cross"][0, 0] = 0.0
    tokens = torch.tensor([[2], [7], [9]])
    with torch.inference_mode():
        memory, _ = model.encode(src)
        kv = DecoderState(model, memory, src).cross_kv
        plain = NativeRows(weights, kv, 3, capacity=4).step(tokens).clone()
        assert torch.equal(NativeRows(weights, kv, 3, capacity=4, head_masks=ones).step(tokens), plain)
        ablated = NativeRows(weights, kv, 3, capacity=4, head_masks=cut).step(tokens).clone()
        state = DecoderState(model, memory, src, rows=3)
        hidden, _, _ = model.decode(tokens, memory.expand(3, -1, -1), src.expand(3, -1), state=state,
                                    head_masks=cut)
        _close(ablated, model.next_logits(hidden[:, -1]))
        assert not torch.equal(ablated, plain)
    assert NativeRows.covers(cut) and NativeRows.covers({"encoder": torch.ones(3, 2, 4)})
    assert not NativeRows.covers({"cross": torch.ones(3, 2, 4)})  # one mask per row: PyTorch's search


def test_weights_are_the_models_own_kept_while_they_are_the_same_tensors():
    model = _model()
    weights = RowWeights.of(model, wait=True)
    assert RowWeights.of(model, wait=True) is weights
    src = torch.tensor([[5, 9, 7]])
    with torch.inference_mode():
        memory, _ = model.encode(src)
        kv = DecoderState(model, memory, src).cross_kv
        before = NativeRows(weights, kv, 1, capacity=2).step(torch.tensor([2])).clone()
        with torch.no_grad():
            model.decoder[0].feed_forward.w_2.weight.mul_(2.0)  # in place (as training's steps are): seen
        after = NativeRows(weights, kv, 1, capacity=2).step(torch.tensor([2])).clone()
        assert not torch.equal(before, after)
        hidden, _, _ = model.decode(torch.tensor([[2]]), memory, src, state=DecoderState(model, memory, src))
        _close(after, model.next_logits(hidden[:, -1]))
    model.decoder[0].feed_forward.w_2.weight = torch.nn.Parameter(torch.zeros(32, 48))  # replaced: made anew
    assert RowWeights.of(model, wait=True) is not weights


def test_covers_only_fp32_cpu_models_in_eval_mode():
    assert RowWeights.of(_model().train(), wait=True) is None
    assert RowWeights.of(_model(d_model=36, n_heads=4, d_ff=48), wait=True) is None
    assert RowWeights.of(_model().to(torch.bfloat16), wait=True) is None


def test_the_built_in_models_beam_search_and_translate_are_pytorchs(monkeypatch):
    from model.analysis.held_out import load_pairs  # noqa: PLC0415
    from model.builtin import default_model_dir  # noqa: PLC0415
    loaded = load_model(default_model_dir())
    weights = RowWeights.of(loaded.model, wait=True)
    texts, _ = load_pairs(loaded.path, limit=12, need_ref=False)
    for text in texts:
        src = torch.tensor([decode.encode_source(loaded, text)])
        max_len = src.size(1) + 50
        ref_ids, ref_score = search.beam_search(loaded.model, src, 4, max_len)
        ids, score = search.beam_search(loaded.model, src, 4, max_len, native=weights)
        assert ids == ref_ids
        assert score == pytest.approx(ref_score, rel=1e-5)
    # The window's translate takes the native step, and its maps are the search's own: the modules' to
    # ~1e-6 (the rows step sums in another order), with no second pass (tests/model/test_beam_maps.py).
    steps, step = [], NativeRows.step
    monkeypatch.setattr(NativeRows, "step", lambda self, *args, **kw: steps.append(1) or step(self, *args, **kw))
    tr = decode.translate(loaded, texts[0], beam_size=4)
    assert steps
    src = torch.tensor([decode.encode_source(loaded, texts[0])])
    ref_ids, ref_score = search.beam_search(loaded.model, src, 4, src.size(1) + 50)
    assert list(tr.target_pieces) == loaded.tokenizer.pieces([i for i in ref_ids if i != loaded.config.eos_id])
    assert tr.score == pytest.approx(ref_score, rel=1e-5)
    enc, dec, cross = decode.capture(loaded.model, src, ref_ids)
    np.testing.assert_array_equal(tr.attention.encoder_self, enc)  # the encoder's pass fed the search
    for ours, ref in zip((tr.attention.decoder_self, tr.attention.cross), (dec, cross)):
        np.testing.assert_allclose(ours, ref, rtol=0, atol=1e-5)
        assert not np.array_equal(ours, ref)  # from the search's steps, not a pass of the modules
