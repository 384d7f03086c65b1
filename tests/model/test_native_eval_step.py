"""``evaluate --int8``'s greedy step in C (model/native/eval_step.c, eval_engine.py) against references:

- its product is the int8 product of per-row quantised inputs (the integers exact, each row on its own),
  close to the fp32 product;
- a step's logits, teacher-forced over several positions of a padded batch, are those of a PyTorch
  reference of the same int8 arithmetic (per-row input scales, the same int8 weights, fp32 attention and
  norms), for heads of 8 and of 32 numbers;
- a sentence decodes alike alone and in any batch, rows leaving as they end; greedy() takes this path
  for the int8 copy without head masks and PyTorch's with them.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from model.config import BOS_ID
from model.decoding import int8
from model.decoding.int8 import per_row_int8
from model.decoding.int8_eval import evaluation_model
from model.native import build
from model.native.eval_engine import EvalBatch, EvalWeights, pack_int8
from tests.model.native_models import config_model


def _weights(model) -> EvalWeights:
    if build.compiler() is None:
        pytest.skip("no C compiler on this machine")
    w = EvalWeights.of(model)
    if w is None:
        pytest.skip("this build of the native library has no AVX-512 VNNI product")
    return w


def _q8(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor | None, relu: bool = False) -> torch.Tensor:
    """The int8 product as eval_step.c defines it: each row of x quantised alone (scale max|x|/127, round
    half to even, in fp32 as the C code computes it), the weight as ``per_row_int8`` rounds it."""
    rows, scale = per_row_int8(weight)
    amax = x.abs().amax(dim=-1, keepdim=True)
    s = torch.where(amax > 0, amax / 127.0, torch.ones_like(amax))
    q = torch.round(x * (1.0 / s))
    acc = q.double() @ rows.double().T  # exact integers
    y = (acc * (s.double() * scale.double())).float()
    y = y if bias is None else y + bias
    return y.clamp_min(0) if relu else y


def _reference_step(model, x_tokens, position, caches, cross, mask) -> torch.Tensor:
    """Logits (R, V) of one step of the int8 arithmetic in PyTorch; caches: per layer [K, V] lists."""
    d, h = model.cfg.d_model, model.cfg.n_heads
    x = model.embedding.weight[x_tokens] * model.embed_scale + model.positional(1, position)[0]
    for i, layer in enumerate(model.decoder):
        sa, ca, ff = layer.self_attn, layer.cross_attn, layer.feed_forward
        q, k, v = _q8(x, sa.w_qkv.weight, sa.w_qkv.bias).split(d, dim=-1)
        caches[i][0].append(k.view(-1, h, 1, d // h))
        caches[i][1].append(v.view(-1, h, 1, d // h))
        keys, values = torch.cat(caches[i][0], 2), torch.cat(caches[i][1], 2)
        a = F.scaled_dot_product_attention(q.view(-1, h, 1, d // h), keys, values).reshape(-1, d)
        x = layer.norm_1(x + _q8(a, sa.w_o.weight, sa.w_o.bias))
        q = _q8(x, ca.w_qkv.weight[:d], ca.w_qkv.bias[:d]).view(-1, h, 1, d // h)
        a = F.scaled_dot_product_attention(q, *cross[i], attn_mask=mask).reshape(-1, d)
        x = layer.norm_2(x + _q8(a, ca.w_o.weight, ca.w_o.bias))
        x = layer.norm_3(x + _q8(_q8(x, ff.w_1.weight, ff.w_1.bias, relu=True), ff.w_2.weight, ff.w_2.bias))
    return _q8(x, model.output_projection, model.final_logits_bias)


@pytest.mark.parametrize("k, n", [(32, 61), (1024, 256), (64, 8000)])
def test_the_packed_product_is_the_int8_product_of_each_row_alone(k, n):
    w = _weights(config_model(1))
    gen = torch.Generator().manual_seed(k + n)
    weight, bias = torch.randn(n, k, generator=gen) / k ** 0.5, torch.randn(n, generator=gen)
    x = torch.randn(9, k, generator=gen) * torch.linspace(0.1, 10, 9)[:, None]  # rows of very different scales
    x[4] = 0  # a row of zeros: scale 1, product = bias
    packed = pack_int8(weight, bias)
    got = w.product(packed, x.numpy())[:, :n]
    assert np.allclose(got, _q8(x, weight, bias).numpy(), rtol=1e-5, atol=1e-5)
    assert np.allclose(got[4], bias.numpy(), atol=1e-6)
    exact = (x @ weight.T + bias).numpy()
    assert np.linalg.norm(got - exact) / np.linalg.norm(exact) < 0.02  # int8, and close
    alone = np.concatenate([w.product(packed, x[i:i + 1].numpy())[:, :n] for i in range(9)])
    assert np.array_equal(alone, got)  # a row's numbers never depend on the other rows
    for threads in (1, 2):  # two threads take half the rows each: the same bits
        assert np.array_equal(w.product(packed, x.numpy(), threads=threads)[:, :n], got)
    relu = w.product(packed, x.numpy(), relu=True)[:, :n]
    assert np.array_equal(relu, np.maximum(got, 0))


@pytest.mark.parametrize("changes", [{}, {"d_model": 64, "n_heads": 2, "d_ff": 96}, {"final_logits_bias": True}])
def test_a_steps_logits_are_the_int8_reference(changes):
    """Heads of 8 numbers, of 32 (the vector paths), and an output bias that makes the padding piece the
    largest logit of every row: it must never be picked."""
    model = config_model(2, **changes)
    if model.final_logits_bias is not None:
        with torch.no_grad():
            model.final_logits_bias[model.cfg.pad_id] = 100.0
    w = _weights(model)
    src = torch.tensor([[5, 6, 7, 8, 9, 3], [10, 11, 3, 0, 0, 0], [12, 3, 0, 0, 0, 0]])
    with torch.inference_mode():
        memory, _ = model.encode(src)
        cross = [layer.cross_attn.project_kv(memory) for layer in model.decoder]
        batch = EvalBatch(w, cross, src, capacity=6, threads=1)
        mask = (src != 0)[:, None, None, :]
        caches = [([], []) for _ in model.decoder]
        feed = [[BOS_ID] * 3, [20, 21, 22], [23, 24, 25], [26, 27, 28]]
        for position, tokens in enumerate(feed):
            picked = batch.step(np.array(tokens, np.int64), np.arange(3, dtype=np.int32))
            got = torch.from_numpy(batch.logits(3).copy())
            want = _reference_step(model, torch.tensor(tokens), position, caches, cross, mask)
            assert torch.allclose(got, want, rtol=1e-4, atol=1e-4), (position, (got - want).abs().max())
            want[:, 0] = float("-inf")  # the padding piece is never picked
            assert picked.tolist() == want.argmax(-1).tolist()


def test_a_sentence_decodes_alike_alone_and_in_any_batch(monkeypatch):
    model = config_model(3, d_model=64, n_heads=2, d_ff=96)
    if not int8.available():
        pytest.skip("this PyTorch has no int8 CPU kernels")
    _weights(model)
    copy = evaluation_model(model)
    from model.decoding import search
    calls = []
    real = type(copy.eval_weights).greedy

    def counted(self, *args):
        calls.append(args[1].size(0))
        return real(self, *args)
    monkeypatch.setattr(type(copy.eval_weights), "greedy", counted)
    srcs = [[5, 6, 7, 3], [8, 3], [9, 10, 11, 12, 13, 3], [14, 15, 3]]
    batch = torch.zeros(4, 6, dtype=torch.long)
    for i, s in enumerate(srcs):
        batch[i, : len(s)] = torch.tensor(s)
    together = search.greedy(copy, batch, 9)
    alone = [search.greedy(copy, torch.tensor([s]), 9)[0] for s in srcs]
    assert together == alone and calls == [4, 1, 1, 1, 1]
    masks = {"decoder": torch.ones(model.cfg.n_layers, model.cfg.n_heads)}
    assert search.greedy(copy, batch, 9, head_masks=masks) is not None and len(calls) == 5  # PyTorch's path


def test_a_sentences_int8_translation_does_not_depend_on_its_batch(monkeypatch):
    """Every product quantises each row alone and attention sums each key the same way whatever the
    padding, so a sentence's encoder output and translation are the same bits alone and in a batch
    (fbgemm's products quantise a whole call with one scale: there they were not)."""
    from model.analysis.held_out import load_pairs
    from model.builtin import default_model_dir
    from model.checkpoint import load_model
    from model.decoding.batches import decode_batches, sentence_batches
    loaded = load_model(default_model_dir())
    _weights(loaded.model)
    copy = evaluation_model(loaded.model)
    texts, _ = load_pairs(loaded.path, limit=24, need_ref=False)
    encoded, [(order, src, _)] = sentence_batches(copy, loaded.tokenizer, texts)
    with torch.inference_mode():
        memory, _ = copy.encode(src)
        for row, i in enumerate(order):
            alone, _ = copy.encode(torch.tensor([encoded[i]]))
            assert torch.equal(memory[row, : len(encoded[i])], alone[0])
    _, together = decode_batches(copy, loaded.tokenizer, texts, threads=1)
    assert together == [decode_batches(copy, loaded.tokenizer, [t], threads=1)[1][0] for t in texts]
    # On two threads each step and product is two calls of half the rows at once: the same translations.
    from model.native import eval_engine
    calls = []
    real = eval_engine.EvalBatch._run
    monkeypatch.setattr(eval_engine.EvalBatch, "_run",
                        lambda self, part, *a: calls.append(part) or real(self, part, *a))
    assert decode_batches(copy, loaded.tokenizer, texts, threads=2)[1] == together
    assert 1 in calls and 0 in calls


def test_rows_leave_as_they_end_and_the_built_in_model_mostly_agrees_with_fp32():
    from model.analysis.held_out import load_pairs
    from model.builtin import default_model_dir
    from model.checkpoint import load_model
    from model.decoding.batches import decode_batches
    loaded = load_model(default_model_dir())
    w = _weights(loaded.model)
    copy = evaluation_model(loaded.model)
    assert copy.eval_weights is not None and w is not None
    texts, _ = load_pairs(loaded.path, limit=48, need_ref=False)
    _, fp32 = decode_batches(loaded.model, loaded.tokenizer, texts, threads=1)
    _, ours = decode_batches(copy, loaded.tokenizer, texts, threads=1)
    eos = loaded.config.eos_id
    # Measured on the first 1,000 held-out sentences: 917 identical to CTranslate2 int8's greedy output.
    assert sum(a == b for a, b in zip(fp32, ours)) >= 0.8 * len(texts)
    assert all(ids.count(eos) == (ids[-1] == eos) for ids in ours)  # nothing after a row's </s>
    assert len({len(ids) for ids in ours}) > 3  # rows ended at different steps


def test_a_step_refuses_tokens_and_slots_out_of_range():
    model = config_model(4)
    w = _weights(model)
    src = torch.tensor([[5, 6, 3]])
    with torch.inference_mode():
        memory, _ = model.encode(src)
        batch = EvalBatch(w, [layer.cross_attn.project_kv(memory) for layer in model.decoder], src, capacity=2)
    one = np.zeros(1, np.int32)
    with pytest.raises(ValueError, match="out of range"):
        batch.step(np.array([model.cfg.vocab_size], np.int64), one)
    with pytest.raises(ValueError, match="out of range"):
        batch.step(np.array([BOS_ID], np.int64), np.array([1], np.int32))
    batch.step(np.array([BOS_ID], np.int64), one)
    batch.step(np.array([7], np.int64), one)
    with pytest.raises(ValueError, match="out of range"):  # no room for a third position
        batch.step(np.array([7], np.int64), one)
