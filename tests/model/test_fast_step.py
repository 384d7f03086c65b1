"""The flat decoding step (model/decoding/fast_step.py) computes what the modules compute.

Its only reason to exist is speed (benchmarks/), so what a test can hold it to is exactness: at every
step the decoder output and logits of ``Transformer.decode`` + ``next_logits``, bit for bit, for the int8
search copy and the fp32 model (both take the same packed products: model/packed_linear.py); one row, a
beam's rows, a padded batch, a Marian-like configuration; hence the same translations and the same maps.
Where it cannot run the same computation it must refuse.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

from model import packed_linear
from model.checkpoint import load_model
from model.config import ModelConfig
from model.decoding import decode, fast_step, int8, search
from model.decoding.fast_step import StepRunner
from model.transformer import DecoderState, Transformer


@pytest.fixture(scope="module")
def loaded(tiny_model_dir):
    return load_model(tiny_model_dir)


def _marian_like() -> Transformer:
    cfg = ModelConfig(vocab_size=61, n_layers=2, d_model=32, n_heads=4, d_ff=48, dropout=0.1,
                      share_embeddings=False, pe_layout="halves", activation="swish", scale_embedding=True,
                      final_logits_bias=True, norm_eps=1e-6)
    torch.manual_seed(3)
    model = Transformer(cfg).eval()
    with torch.no_grad():
        model.final_logits_bias.uniform_(-1, 1)
    return model


def _models(loaded):
    out = [("tiny fp32", loaded.model), ("Marian-like fp32", _marian_like())]
    if int8.available():
        out.append(("tiny int8 fbgemm", int8.search_model(loaded.model, weight_only=False)))
    if int8.available() and int8.weight_only_available():
        out.append(("tiny int8 weight-only", int8.search_model(loaded.model, weight_only=True)))
    return out


@pytest.mark.parametrize("rows", [1, 3])
def test_every_step_gives_the_modules_logits_bit_for_bit(loaded, rows):
    src = torch.tensor([[5, 9, 7, 4, 8, 3]])
    for name, model in _models(loaded):
        with torch.inference_mode():
            memory, _ = model.encode(src)
            ref_state = DecoderState(model, memory, src, rows=rows)
            state = DecoderState(model, memory, src, rows=rows)
            runner = StepRunner.of(model)
            tokens = torch.full((rows, 1), model.cfg.bos_id)
            for step in range(9):
                hidden, _, _ = model.decode(tokens, memory.expand(rows, -1, -1), src.expand(rows, -1),
                                            state=ref_state)
                ref = model.next_logits(hidden[:, -1])
                out_hidden = runner.hidden(tokens, state)
                assert torch.equal(out_hidden, hidden[:, -1]), (name, step)
                out = runner.generator(out_hidden)
                out[..., model.cfg.pad_id] = float("-inf")
                assert out.shape == (rows, model.cfg.vocab_size)
                assert torch.equal(out, ref), (name, step)
                assert state.position == ref_state.position == step + 1
                # rows follow different pieces, as a beam's do
                tokens = ref.topk(rows, dim=-1).indices[:1].t().contiguous() if rows > 1 else ref.argmax(-1, True)
                if rows > 1:
                    index = torch.tensor([rows - 1 - r for r in range(rows)])  # a reorder, as beam search does
                    ref_state.reorder(index)
                    state.reorder(index)


def test_a_padded_batch_masks_the_padding_as_the_modules_do(loaded):
    model = loaded.model
    pad = model.cfg.pad_id
    src = torch.tensor([[5, 9, 7, 4, 8, 3], [6, 4, 3, pad, pad, pad]])
    with torch.inference_mode():
        memory, _ = model.encode(src)
        ref_state, state = DecoderState(model, memory, src), DecoderState(model, memory, src)
        assert state.src_mask is not None  # the case under test: the mask is applied
        runner = StepRunner.of(model)
        tokens = torch.full((2, 1), model.cfg.bos_id)
        for _ in range(6):
            hidden = model.decode(tokens, memory, src, state=ref_state)[0][:, -1]
            assert torch.equal(runner.hidden(tokens, state), hidden)
            tokens = model.next_logits(hidden).argmax(-1, keepdim=True)


def test_translations_and_maps_are_those_of_the_module_path(loaded, monkeypatch):
    texts = ["3 1 4 1 5", "2 7 1 8 2 8 1 8 2 8", "9"]
    on = [decode.translate(loaded, t, beam_size=b) for t in texts for b in (1, 4)]
    monkeypatch.setattr(fast_step.StepRunner, "of", classmethod(lambda cls, model, head_masks=None: None))
    off = [decode.translate(loaded, t, beam_size=b) for t in texts for b in (1, 4)]
    for a, b in zip(on, off):
        assert a.target_pieces == b.target_pieces and abs(a.score - b.score) < 1e-5
        for kind in ("encoder_self", "decoder_self", "cross"):
            assert np.array_equal(getattr(a.attention, kind), getattr(b.attention, kind))
    batch = search.greedy(loaded.model, torch.tensor([[5, 9, 7, 3], [6, 3, 0, 0]]), 12)
    monkeypatch.undo()
    assert search.greedy(loaded.model, torch.tensor([[5, 9, 7, 3], [6, 3, 0, 0]]), 12) == batch


def test_head_masks_act_as_in_the_modules_and_ones_change_no_bit(loaded):
    model = loaded.model
    cfg = model.cfg
    src = torch.tensor([[5, 9, 7, 4, 8, 3]] * 3)
    masks = {"decoder": torch.ones(3, cfg.n_layers, cfg.n_heads), "cross": torch.ones(3, cfg.n_layers, cfg.n_heads)}
    masks["decoder"][1, 0, 1] = 0.0  # row 1 loses a self-attention head, row 2 a cross-attention head
    masks["cross"][2, cfg.n_layers - 1, 0] = 0.0
    ones = {k: torch.ones(cfg.n_layers, cfg.n_heads) for k in ("decoder", "cross")}
    with torch.inference_mode():
        memory, _ = model.encode(src)
        states = [DecoderState(model, memory, src) for _ in range(4)]
        runner = StepRunner.of(model, masks)
        tokens = torch.full((3, 1), cfg.bos_id)
        for _ in range(5):
            hidden = model.decode(tokens, memory, src, state=states[0], head_masks=masks)[0][:, -1]
            out = runner.hidden(tokens, states[1], masks)
            assert torch.equal(out, hidden)
            # a mask of ones multiplies by 1.0: not one bit changes
            assert torch.equal(runner.hidden(tokens, states[2], ones), runner.hidden(tokens, states[3]))
            assert float((out[1] - out[0]).abs().max()) > 1e-4 and float((out[2] - out[0]).abs().max()) > 1e-4
            tokens = model.next_logits(hidden).argmax(-1, keepdim=True)
    # the whole translation: removing nothing is the plain translation, bit for bit
    for beam in (1, 4):
        a = decode.translate(loaded, "2 7 1 8 2 8", beam_size=beam)
        b = decode.translate(loaded, "2 7 1 8 2 8", beam_size=beam,
                             head_masks={**ones, "encoder": torch.ones(cfg.n_layers, cfg.n_heads)})
        assert a.target_pieces == b.target_pieces and a.score == b.score


def test_it_refuses_what_it_does_not_compute(loaded):
    model = loaded.model
    model.train()
    try:
        assert StepRunner.of(model) is None  # dropout would be skipped
    finally:
        model.eval()
    assert isinstance(StepRunner.of(model), StepRunner)
    calls = []
    handle = model.decoder[1].feed_forward.register_forward_pre_hook(lambda *_: calls.append(1))
    try:
        assert StepRunner.of(model) is None  # a hook (the workbench's Cancel is one) must still run
        decode.translate(loaded, "3 1 4", beam_size=2)
        assert calls
    finally:
        handle.remove()
    assert isinstance(StepRunner.of(model), StepRunner)


def test_the_packed_projection_follows_the_weights_and_is_used_where_it_can_be(loaded):
    if not packed_linear.packing_works():
        pytest.skip("this PyTorch has no oneDNN linear")
    model = _marian_like()  # a final_logits_bias, untied output weights
    runner = StepRunner.of(model)
    assert runner.generator is not model.generator
    x = torch.randn(4, model.cfg.d_model)
    with torch.inference_mode():
        assert torch.equal(runner.generator(x), model.generator(x))  # the same packed copy
        assert torch.allclose(model.generator(x), x @ model.output_projection.t() + model.final_logits_bias,
                              rtol=1e-5, atol=1e-5)
    with torch.no_grad():
        model.output_weight.mul_(2.0)  # trained in place, as the live probe does
    with torch.inference_mode():
        assert torch.allclose(StepRunner.of(model).generator(x),
                              x @ model.output_projection.t() + model.final_logits_bias, rtol=1e-5, atol=1e-5)
    if int8.available():
        fast = int8.search_model(loaded.model)
        assert StepRunner.of(fast).generator == fast.generator  # its own int8 projection
