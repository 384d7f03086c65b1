"""The chunked projection + label-smoothed cross-entropy equals the plain two-step computation."""

import pytest
import torch
import torch.nn.functional as F

from model.config import preset
from model.fused_loss import chunk_rows, linear_cross_entropy
from model.transformer import Transformer


def _inputs(n=37, d=16, v=53, seed=0):
    gen = torch.Generator().manual_seed(seed)
    hidden = torch.randn(n, d, generator=gen, requires_grad=True)
    weight = torch.randn(v, d, generator=gen, requires_grad=True)
    target = torch.randint(0, v, (n,), generator=gen)
    return hidden, weight, target


@pytest.mark.parametrize("eps", [0.0, 0.1])
@pytest.mark.parametrize("rows", [1, 5, 37, 1000])
def test_loss_and_both_gradients_match_cross_entropy(eps, rows):
    hidden, weight, target = _inputs()
    ref = F.cross_entropy(hidden @ weight.t(), target, label_smoothing=eps)
    g_ref = torch.autograd.grad(3.0 * ref, (hidden, weight))
    out = linear_cross_entropy(hidden, weight, target, eps, rows=rows)
    g_out = torch.autograd.grad(3.0 * out, (hidden, weight))  # a non-unit upstream gradient
    assert out.item() == pytest.approx(ref.item(), rel=1e-6)
    for a, b in zip(g_out, g_ref):
        torch.testing.assert_close(a, b, rtol=1e-5, atol=1e-6)


def test_hand_checked_value():
    # Logits log([0.1, 0.7, 0.2]) and log([0.3, 0.3, 0.4]) through an identity projection.
    probs = torch.tensor([[0.1, 0.7, 0.2], [0.3, 0.3, 0.4]])
    hidden, weight, target = probs.log().requires_grad_(), torch.eye(3), torch.tensor([1, 2])
    eps = 0.1

    def one(p, y):
        return (1 - eps) * -p[y].log() - eps * p.log().mean()
    expected = (one(probs[0], 1) + one(probs[1], 2)) / 2
    assert linear_cross_entropy(hidden, weight, target, eps).item() == pytest.approx(expected.item(), rel=1e-6)


def test_without_gradients_it_is_the_plain_loss():
    hidden, weight, target = _inputs(n=600, v=40)
    with torch.no_grad():
        ref = F.cross_entropy(hidden @ weight.t(), target, label_smoothing=0.1)
        out = linear_cross_entropy(hidden, weight, target, 0.1, rows=7)
    assert not out.requires_grad
    assert out.item() == pytest.approx(ref.item(), rel=1e-6)


def test_chunks_bound_the_logits_memory():
    assert chunk_rows(37000) == 256  # 38 MB of fp32 logits per chunk at the paper's vocabulary
    assert chunk_rows(1000) == 4194  # small vocabularies: ~16 MB chunks
    with pytest.raises(ValueError, match="hidden"):
        linear_cross_entropy(torch.zeros(2, 3, 4), torch.zeros(5, 4), torch.zeros(2, dtype=torch.long))


def test_bf16_autocast_is_close_to_the_autocast_reference():
    hidden, weight, target = _inputs(n=300, d=32, v=200)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        ref = F.cross_entropy((hidden @ weight.t()).float(), target, label_smoothing=0.1)
        out = linear_cross_entropy(hidden, weight, target, 0.1, rows=64)
    g_ref = torch.autograd.grad(ref, (hidden, weight))
    g_out = torch.autograd.grad(out, (hidden, weight))
    assert out.dtype == torch.float32
    assert out.item() == pytest.approx(ref.item(), rel=1e-2)
    for a, b in zip(g_out, g_ref):
        assert a.dtype == torch.float32
        assert float((a - b).norm() / b.norm()) < 0.02


def test_model_loss_gradients_equal_the_full_logits_path():
    """Tied embedding: the gradient sums the lookup's and the projection's parts, as before."""
    torch.manual_seed(0)
    model = Transformer(preset("tiny", dropout=0.0))
    src = torch.tensor([[5, 6, 7, 3], [8, 9, 3, 0]])
    tgt = torch.tensor([[2, 10, 11, 12, 3], [2, 13, 3, 0, 0]])
    loss = model.loss(src, tgt[:, :-1], tgt[:, 1:], label_smoothing=0.1)
    grads = torch.autograd.grad(loss, list(model.parameters()))
    logits, _ = model(src, tgt[:, :-1])
    ref = F.cross_entropy(logits.reshape(-1, logits.size(-1)), tgt[:, 1:].reshape(-1), ignore_index=0,
                          label_smoothing=0.1)
    ref_grads = torch.autograd.grad(ref, list(model.parameters()))
    assert loss.item() == pytest.approx(ref.item(), rel=1e-5)
    for a, b in zip(grads, ref_grads):
        torch.testing.assert_close(a, b, rtol=1e-4, atol=1e-6)
