import math

import pytest
import torch

from model.training.schedule import label_smoothed_loss, learning_rate


@pytest.mark.parametrize("step,d,warmup", [(1, 512, 4000), (100, 512, 4000), (4000, 512, 4000),
                                           (4001, 512, 4000), (100000, 512, 4000), (50, 256, 100)])
def test_learning_rate_is_equation_3(step, d, warmup):
    expected = d ** -0.5 * min(step ** -0.5, step * warmup ** -1.5)
    assert learning_rate(step, d, warmup) == pytest.approx(expected, rel=1e-12)


def test_learning_rate_hand_checked():
    # At the end of warmup both branches meet: 512^-0.5 · 4000^-0.5 = 7.0e-4 (to 2 digits).
    assert learning_rate(4000, 512, 4000) == pytest.approx(6.9877e-4, rel=1e-4)
    assert learning_rate(2000, 512, 4000) == pytest.approx(learning_rate(4000, 512, 4000) / 2)
    assert learning_rate(16000, 512, 4000) == pytest.approx(learning_rate(4000, 512, 4000) / 2)
    assert learning_rate(10, 512, 4000, scale=2.0) == pytest.approx(2 * learning_rate(10, 512, 4000))


def test_label_smoothed_loss_hand_checked():
    # Two classes of three and a pad (id 0). logits chosen so log-probabilities are exact.
    logits = torch.log(torch.tensor([[[0.1, 0.7, 0.2], [0.3, 0.3, 0.4], [0.5, 0.25, 0.25]]]))
    target = torch.tensor([[1, 2, 0]])  # last position is padding: ignored
    eps = 0.1
    def one(p, y):
        return (1 - eps) * -math.log(p[y]) + eps * sum(-math.log(q) for q in p) / len(p)
    expected = (one([0.1, 0.7, 0.2], 1) + one([0.3, 0.3, 0.4], 2)) / 2
    assert label_smoothed_loss(logits, target, eps, pad_id=0).item() == pytest.approx(expected, rel=1e-6)
    no_smooth = (-math.log(0.7) - math.log(0.4)) / 2
    assert label_smoothed_loss(logits, target, 0.0, pad_id=0).item() == pytest.approx(no_smooth, rel=1e-6)
