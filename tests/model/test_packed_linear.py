"""Inference products through packed weights (model/packed_linear.py): the same numbers as F.linear to
float rounding, the same bits from one pass to the next, and training left to autograd's own product."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

from model import packed_linear
from model.packed_linear import Linear, linear

pytestmark = pytest.mark.skipif(not packed_linear.packing_works(), reason="this PyTorch has no oneDNN linear")


def _weights(n: int = 48, k: int = 32):
    gen = torch.Generator().manual_seed(7)
    return torch.randn(n, k, generator=gen), torch.randn(n, generator=gen)


def test_several_rows_take_the_packed_copy_one_row_the_plain_product():
    w, b = _weights()
    x = torch.randn(2, 5, 32)
    with torch.inference_mode():
        y = linear(x, w, b)
        assert w in packed_linear._PACKED  # it went through a packed copy
        assert y.shape == (2, 5, 48)
        assert torch.allclose(y, F.linear(x, w, b), rtol=1e-5, atol=1e-5)
        assert torch.equal(linear(x, w, b), y)  # a second pass: the same bits
        one = x[:1, :1]
        assert torch.equal(linear(one, w, b), F.linear(one, w, b))  # one row: the plain product itself
        # a row gets the same bits whatever shape carries it: a step's (B, 1, K), a pass's (1, T, K)
        assert torch.equal(linear(x.reshape(10, 1, 32), w, b).reshape(2, 5, 48), y)


def test_rows_of_a_fused_weight_match_their_slice():
    w, b = _weights(96, 32)
    x = torch.randn(7, 32)
    with torch.no_grad():
        y = linear(x, w, b, slice(32, 96))
    assert y.shape == (7, 64)
    assert torch.allclose(y, F.linear(x, w[32:96], b[32:96]), rtol=1e-5, atol=1e-5)
    assert set(packed_linear._PACKED[w]) == {(32, 96)}


def test_a_weight_changed_in_place_is_packed_again():
    w, b = _weights()
    x = torch.randn(4, 32)
    with torch.no_grad():
        before = linear(x, w, b)
        w.mul_(-2.0)  # an optimizer step, the live probe's training
        after = linear(x, w, b)
    assert torch.allclose(after, F.linear(x, w, b), rtol=1e-5, atol=1e-5)
    assert torch.allclose(after - b, -2.0 * (before - b), rtol=1e-4, atol=1e-4)


def test_training_keeps_autograds_product_and_its_gradient():
    torch.manual_seed(0)
    layer = Linear(32, 48)
    x = torch.randn(6, 32, requires_grad=True)
    y = layer(x)
    assert torch.equal(y, F.linear(x, layer.weight, layer.bias))  # the plain product, bit for bit
    y.square().sum().backward()
    assert layer.weight.grad is not None and x.grad is not None
    assert layer.weight not in packed_linear._PACKED  # training never packs
    assert isinstance(layer, torch.nn.Linear) and set(layer.state_dict()) == {"weight", "bias"}


def test_cpu_autocast_is_left_to_autocast():
    w, b = _weights()
    x = torch.randn(4, 32)
    with torch.no_grad(), torch.autocast("cpu", dtype=torch.bfloat16):
        y = linear(x, w, b)
    assert y.dtype == torch.bfloat16  # packed fp32 would have ignored autocast


def test_an_encoder_pass_agrees_with_plain_products_through_each_kernel(tiny_model_dir, monkeypatch):
    from model.checkpoint import load_model  # noqa: PLC0415

    model = load_model(tiny_model_dir).model
    src = torch.tensor([[5, 9, 7, 4, 8, 3], [6, 4, 3, 0, 0, 0]])
    w_qkv = model.encoder[0].self_attn.w_qkv.weight
    with torch.inference_mode():
        memory, weights = model.encode(src, need_weights=True)  # 12 rows: native where loaded with it
        monkeypatch.setattr(packed_linear, "NATIVE_MAX_ROWS", 0)  # the packed copies alone
        packed, packed_weights = model.encode(src, need_weights=True)
        assert w_qkv in packed_linear._PACKED
        monkeypatch.setattr(packed_linear, "PACKED_ROWS", 10**9)  # every product plain
        plain, plain_weights = model.encode(src, need_weights=True)
    for out, maps in ((memory, weights), (packed, packed_weights)):
        assert torch.allclose(out, plain, rtol=1e-5, atol=1e-5)
        for a, b in zip(maps, plain_weights):
            assert torch.allclose(a, b, rtol=1e-5, atol=1e-6)


def test_a_fused_optimizer_step_leaves_the_version_so_forget_drops_the_copies():
    """Adam(fused=True) changes the weights without a new version: the copies must be dropped by hand."""
    torch.manual_seed(0)
    layer = Linear(32, 48)
    optimizer = torch.optim.Adam(layer.parameters(), lr=0.1, fused=True)
    x = torch.randn(4, 32)
    with torch.no_grad():
        before = layer(x)
    layer(x).square().sum().backward()
    version = layer.weight._version
    optimizer.step()
    with torch.no_grad():
        stale = layer(x)
        packed_linear.forget(layer)
        fresh = layer(x)
    # the hazard itself (if a release bumps the version again, the copies follow on their own)
    assert layer.weight._version == version or not torch.equal(stale, before)
    assert torch.allclose(fresh, F.linear(x, layer.weight, layer.bias), rtol=1e-5, atol=1e-5)
    assert not torch.allclose(fresh, before, rtol=1e-3, atol=1e-3)  # the step did change the weights


def test_validation_during_training_sees_the_weights_of_its_step(tmp_path):
    """The same run validated at steps 30, 60 and 90 and at step 90 alone must read the same loss and BLEU at
    step 90: with stale packed copies the first read the weights of its first validation again (its loss
    rising as training went on; before 2026-12-04 its BLEU alone, 0.18 against 0.06, through the batched
    greedy steps' packed decoder)."""
    from model.config import TrainConfig, preset  # noqa: PLC0415
    from model.training.run import run_training  # noqa: PLC0415

    scores = []
    for n, every in enumerate((30, 90)):
        cfg = TrainConfig(out_dir=str(tmp_path / f"run{n}"), model=preset("tiny", dropout=0.0), task="reverse",
                          task_size=600, max_steps=90, valid_every=every, checkpoint_every=0, n_valid=60,
                          valid_bleu_sentences=40, report_every=10, warmup_steps=30, batch_tokens=512, seed=3)
        events = list(run_training(cfg))
        assert events[-1].event == "done", events[-1].message
        scores.append({e.step: (e.valid_loss, e.valid_bleu) for e in events if e.event == "valid"})
    assert set(scores[0]) == {30, 60, 90} and set(scores[1]) == {90}
    assert scores[0][90][0] == pytest.approx(scores[1][90][0], rel=1e-4)
    assert scores[0][90][1] == pytest.approx(scores[1][90][1], abs=1e-6)
    assert scores[0][90][0] < scores[0][30][0]  # it learns, and validation says so
