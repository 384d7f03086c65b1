"""``evaluate --int8``: the whole-model int8 copy (model/decoding/int8_eval.py) and the C attention of its
batched steps (model/native/attend.py, attend_rows.c).

The C attention is held to PyTorch's SDPA on every layout a search hands it (a cache's longer buffer, the
transposed cross-attention keys, rows sharing one source, padding masks); the copy's products are int8
everywhere (encoder, decoder, cross K/V, output table) while the fp32 model stays untouched; its batched
steps give its own modules' logits; and on the built-in model its translations are mostly fp32's.
"""

from __future__ import annotations

import json

import pytest
import torch
import torch.nn.functional as F

from model.checkpoint import load_model
from model.config import BOS_ID
from model.decoding import int8
from model.decoding.batches import decode_batches
from model.decoding.fast_step import StepRunner
from model.decoding.int8_eval import Int8EvalModel, _RowInt8Linear, evaluation_model
from model.kv_cache import KVCache
from model.native import build
from model.native.attend import attend_rows
from model.transformer import DecoderState
from tests.model.native_models import config_model

needs_int8 = pytest.mark.skipif(not int8.available(), reason="this PyTorch has no int8 CPU kernels")
needs_cc = pytest.mark.skipif(build.compiler() is None, reason="no C compiler on this machine")


def _sdpa(q, k, v, mask=None):
    return F.scaled_dot_product_attention(q, k, v, attn_mask=mask)


@needs_cc
def test_c_attention_is_sdpa_on_every_layout_a_search_gives_it():
    assert build.library(wait=True) is not None
    gen = torch.Generator().manual_seed(0)
    b, h, d_k = 5, 4, 16
    q = torch.randn(b, 3, h, 1, d_k, generator=gen)[:, 0]  # a view of a fused QKV product, as a step has it
    # Self-attention: the cache's buffer is longer than the keys it holds (non-contiguous views).
    cache = KVCache()
    for _ in range(7):
        k, v = cache.append(torch.randn(b, h, 1, d_k, generator=gen), torch.randn(b, h, 1, d_k, generator=gen))
    assert not k.is_contiguous()
    out = attend_rows(q, k, v)
    assert out.shape == (b, h, 1, d_k)
    assert torch.allclose(out, _sdpa(q, k, v), atol=2e-6)
    # Cross-attention: keys as the projection's transposed view, positions H·d_k apart, and a padding mask.
    kv = torch.randn(b, 9, 2 * h * d_k, generator=gen)
    ck, cv = (t.view(b, 9, h, d_k).transpose(1, 2) for t in kv.chunk(2, dim=-1))
    mask = torch.ones(b, 1, 1, 9, dtype=torch.bool)
    mask[1, ..., 6:] = False
    mask[3, ..., 2:] = False
    out = attend_rows(q, ck, cv, mask)
    assert torch.allclose(out, _sdpa(q, ck, cv, mask), atol=2e-6)
    unmasked = attend_rows(q, ck, cv)
    assert not torch.allclose(out[1], unmasked[1], atol=1e-3)  # the mask really acts
    assert torch.allclose(out[0], unmasked[0], atol=2e-6)
    # Rows sharing one source (an expanded batch: stride 0), and a mask shared by every row.
    one = ck[:1].expand(b, -1, -1, -1), cv[:1].expand(b, -1, -1, -1)
    assert torch.allclose(attend_rows(q, *one, mask[:1]), _sdpa(q, *one, mask[:1]), atol=2e-6)


@needs_cc
def test_c_attention_declines_what_it_does_not_read_and_gives_zeros_where_nothing_may_be_seen():
    assert build.library(wait=True) is not None
    q, k = torch.randn(2, 2, 1, 8), torch.randn(2, 2, 5, 8)
    assert attend_rows(q.double(), k.double(), k.double()) is None  # not fp32
    assert attend_rows(torch.randn(2, 2, 3, 8), k, k) is None  # several queries a row
    assert attend_rows(q, k.transpose(-1, -2).contiguous().transpose(-1, -2), k) is None  # d_k not contiguous
    none = torch.zeros(2, 1, 1, 5, dtype=torch.bool)
    assert torch.equal(attend_rows(q, k, k, none), torch.zeros(2, 2, 1, 8))


@needs_int8
def test_every_product_of_the_copy_is_int8_and_the_fp32_model_is_untouched():
    model = config_model(3)
    before = {name: t.clone() for name, t in model.state_dict().items()}
    copy = evaluation_model(model)
    assert isinstance(copy, Int8EvalModel) and copy.native_step_attention
    # fbgemm's products, and (where the C kernel runs) the encoder's and cross K/V's per-row products.
    int8_linears = [m for m in copy.modules() if isinstance(m, (int8.Int8Linear, _RowInt8Linear))]
    # Per layer: each attention's QKV and W^O (3 × 2), the decoder's W^Q alone (2; the encoder never projects
    # a query alone), cross-attention's K/V, the feed-forwards' two (2 × 2); and the output table.
    assert len(int8_linears) == model.cfg.n_layers * (6 + 2 + 1 + 4) + 1
    assert not any(type(m) is torch.nn.Linear for m in copy.modules())  # nothing left in fp32
    assert all(type(m) is torch.nn.Linear or not isinstance(m, int8.Int8Linear) for m in model.modules())
    assert all(torch.equal(before[name], t) for name, t in model.state_dict().items())
    src = torch.tensor([[5, 6, 7, 8, 9, 3], [10, 11, 3, 0, 0, 0]])
    tgt = torch.tensor([[BOS_ID, 12, 13], [BOS_ID, 14, 15]])
    with torch.inference_mode():
        ref_memory, _ = model.encode(src)
        memory, _ = copy.encode(src)
        ref = model.generator(model.decode(tgt, ref_memory, src)[0])
        out = copy.generator(copy.decode(tgt, memory, src)[0])
    for got, want in ((memory, ref_memory), (out, ref)):
        rel = float((got - want).norm() / want.norm())
        assert 1e-5 < rel < 0.05  # int8 really is in use, and close


@needs_int8
@needs_cc
def test_the_copys_batched_steps_with_c_attention_give_sdpas_logits(monkeypatch):
    """StepRunner runs the copy's steps with the C attention; the same steps through SDPA (the products,
    int8, are the same calls) must give the same logits on a padded batch, step after step. (The copy's
    modules are no reference here: fbgemm quantises a call's activations with one scale, so a pass over
    every position rounds otherwise than a step over one.)"""
    assert build.library(wait=True) is not None
    copy = evaluation_model(config_model(4))
    src = torch.tensor([[5, 6, 7, 8, 9, 3], [10, 11, 3, 0, 0, 0], [12, 3, 0, 0, 0, 0]])
    steps = [[BOS_ID] * 3, [20, 21, 22], [23, 24, 25], [26, 27, 28]]
    from model.decoding import fast_step
    calls = []

    def counted(*args, **kwargs):
        out = attend_rows(*args, **kwargs)
        calls.append(args[1].size(2) if out is not None else None)
        return out
    monkeypatch.setattr(fast_step, "attend_rows", counted)
    native, plain = StepRunner.of(copy), StepRunner(copy, native=False)
    assert native is not None and native.native_attention and not plain.native_attention
    with torch.inference_mode():
        memory, _ = copy.encode(src)
        states = DecoderState(copy, memory, src), DecoderState(copy, memory, src)
        for tokens in steps:
            step = torch.tensor(tokens)[:, None]
            got, want = native.logits(step, states[0]), plain.logits(step, states[1])
            assert torch.allclose(got, want, atol=1e-4)
    # The C path ran, and answered, for each layer's self- and cross-attention at every step (keys so far,
    # then the source's six); the SDPA runner never asked it.
    layers = copy.cfg.n_layers
    assert calls == [n for t in range(1, len(steps) + 1) for n in [t, 6] * layers]


@needs_int8
def test_the_built_in_model_in_int8_translates_mostly_as_in_fp32(builtin_loaded):
    from model.analysis.held_out import load_pairs
    texts, _ = load_pairs(builtin_loaded.path, limit=48, need_ref=False)
    eos = builtin_loaded.config.eos_id
    copy = evaluation_model(builtin_loaded.model)
    _, fp32 = decode_batches(builtin_loaded.model, builtin_loaded.tokenizer, texts, threads=1)
    _, ours = decode_batches(copy, builtin_loaded.tokenizer, texts, threads=1)
    same = sum(a == b for a, b in zip(fp32, ours))
    # Measured on the first 1,000 held-out sentences: 914 identical (benchmarks/ct2_compare.py).
    assert same >= 0.75 * len(texts)
    assert all(ids and ids[-1] == eos or len(ids) >= 50 for ids in ours)


@pytest.fixture(scope="module")
def builtin_loaded():
    from model.builtin import default_model_dir
    return load_model(default_model_dir())


@needs_int8
def test_evaluate_int8_reports_int8_scores_near_fp32s(tiny_model_dir, capsys, tmp_path):
    from model.cli.commands import main
    src, ref = tmp_path / "s.en", tmp_path / "r.de"
    src.write_text("3 1 4 1 5\n9 2 6\n2 7 1 8 2 8\n5 5 5 5\n8 6 4 2 0\n", encoding="utf-8")
    ref.write_text("5 1 4 1 3\n6 2 9\n8 2 8 1 7 2\n5 5 5 5\n0 2 4 6 8\n", encoding="utf-8")
    scores = {}
    for extra in ([], ["--int8"]):
        assert main(["evaluate", "--model", str(tiny_model_dir), "--src", str(src), "--ref", str(ref),
                     "--json", "--beam", "1", *extra]) == 0
        scores[bool(extra)] = json.loads(capsys.readouterr().out)
    assert scores[False]["precision"] == "fp32" and scores[True]["precision"] == "int8"
    assert scores[True]["sentences"] == 5
    assert abs(scores[True]["chrf"] - scores[False]["chrf"]) < 15
    assert main(["evaluate", "--model", str(tiny_model_dir), "--src", str(src), "--ref", str(ref),
                 "--beam", "1", "--int8"]) == 0
    assert "int8 model" in capsys.readouterr().out


@needs_int8
def test_evaluate_int8_where_it_cannot_run_says_so_in_one_line(tiny_model_dir, tmp_path, capfd, monkeypatch):
    from model.cli.commands import main
    monkeypatch.setattr(int8, "available", lambda: False)
    src = tmp_path / "s.en"
    src.write_text("3 1 4\n", encoding="utf-8")
    code = main(["evaluate", "--model", str(tiny_model_dir), "--src", str(src), "--ref", str(src), "--int8"])
    err = capfd.readouterr().err.strip()
    assert code != 0 and "--int8" in err and len(err.splitlines()) == 1
