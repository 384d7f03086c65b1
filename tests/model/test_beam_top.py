"""Beam search's ranking in C (model/native/beam_top.c, ``NativeRows.best``) is ``Beam.advance``'s own.

The sums ranked must be the very fp32 numbers PyTorch adds, so the C answer is held to torch.topk's by
equality: values bit for bit, indices the same wherever the values differ (equal sums may come in either
order from topk; C keeps the lower index first, checked by hand). The beam's decisions then cannot
change: the search's tests (test_native_rows.py, test_beam_maps.py) hold the results to the modules'.
"""

from __future__ import annotations

import pytest
import torch

from model.decoding.beam import Beam
from model.native import build
from model.native.rows import NativeRows, RowWeights
from model.transformer import DecoderState
from tests.model.native_models import config_model

pytestmark = pytest.mark.skipif(build.compiler() is None, reason="no C compiler on this machine")


@pytest.fixture(scope="module")
def rows() -> NativeRows:
    model = config_model(3)
    src = torch.tensor([[5, 9, 7, 3]])
    with torch.inference_mode():
        memory, _ = model.encode(src)
        cross = DecoderState(model, memory, src, rows=4).cross_kv
    return NativeRows(RowWeights.of(model, wait=True), cross, 4, capacity=8)


def _torch_best(logp: torch.Tensor, scores: torch.Tensor, n: int) -> tuple[list[float], list[int]]:
    top, idx = (scores[:, None] + logp).view(-1).topk(n)
    return top.tolist(), idx.tolist()


# 8,000 (the built-in vocabulary, whole vectors), 8,003 and 61 (a tail past the last vector), 5 (< n).
@pytest.mark.parametrize("vocab", [8000, 8003, 61, 5])
@pytest.mark.parametrize("seed", range(4))
def test_the_same_best_sums_as_torch_topk(rows, vocab, seed):
    gen = torch.Generator().manual_seed(seed)
    logp = torch.randn(4, vocab, generator=gen).log_softmax(-1)
    logp[:, 0] = float("-inf")  # the padding piece
    scores = -torch.rand(4, generator=gen) * 5
    n = min(8, 4 * vocab)
    got = rows.best(logp, scores, n)
    values, index = _torch_best(logp, scores, n)
    assert [v for v, _ in got] == values  # bit for bit: the same fp32 additions
    assert [i for _, i in got] == index


def test_a_first_step_ranks_only_the_first_row(rows):
    """All rows start alike, so rows 1-3 score −∞ (``Beam``'s start): only row 0's pieces are chosen."""
    logp = torch.randn(4, 500, generator=torch.Generator().manual_seed(9)).log_softmax(-1)
    scores = torch.tensor([0.0, float("-inf"), float("-inf"), float("-inf")])
    got = rows.best(logp, scores, 8)
    assert all(i < 500 for _, i in got)
    assert [v for v, _ in got] == logp[0].topk(8).values.tolist()


def test_equal_sums_keep_the_lower_index_first(rows):
    logp = torch.full((4, 40), -9.0)
    logp[2, 7] = logp[1, 30] = logp[3, 3] = -1.0  # three equal bests, in three rows
    logp[0, 39] = -0.5
    got = rows.best(logp, torch.zeros(4), 4)
    assert got == [(-0.5, 39), (-1.0, 70), (-1.0, 87), (-1.0, 123)]


def test_a_nan_sum_leaves_the_ranking_to_torch(rows):
    logp = torch.zeros(4, 100)
    logp[3, 50] = float("nan")
    assert rows.best(logp, torch.zeros(4), 8) is None
    with pytest.raises(ValueError, match="float32"):
        rows.best(logp.double(), torch.zeros(4), 8)


def test_advance_takes_the_same_step_from_either_ranking(rows):
    """Two beams fed the same log-probabilities, one ranking in PyTorch and one given C's ranking, keep the
    same rows, pieces, scores and finished hypotheses at every step, an ending included."""
    gen = torch.Generator().manual_seed(4)
    a, b = Beam(4, 0.6, eos_id=3), Beam(4, 0.6, eos_id=3)
    for _ in range(6):
        logp = torch.randn(4, 61, generator=gen).mul(2).log_softmax(-1)
        logp[:, 3] += 1.5  # </s> often among the best: hypotheses finish along the way
        ia, ib = a.advance(logp), b.advance(logp, rows.best(logp, b.scores, 8))
        assert (ia is None) == (ib is None)
        if ia is None:
            break
        assert torch.equal(ia, ib) and torch.equal(a.seqs, b.seqs) and torch.equal(a.scores, b.scores)
    assert a.finished == b.finished and a.finished
    assert a.result() == b.result()
