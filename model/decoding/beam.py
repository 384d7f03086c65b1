"""Beam search's bookkeeping, apart from how the next piece's log-probabilities are computed.

Every decision is made here, from the log-probabilities alone, so the rules can be checked by hand
(tests/model/test_decode.py) whatever model or cache produced the numbers.
"""

from __future__ import annotations

import torch
from torch import Tensor

from model.config import BOS_ID, EOS_ID


def length_penalty(length: int, alpha: float) -> float:
    """GNMT's lp(Y) = ((5 + |Y|) / 6)^α, the paper's α = 0.6."""
    return ((5.0 + length) / 6.0) ** alpha


class Beam:
    """k hypotheses of one sentence, their scores (sums of log-probabilities) and the finished ones.

    Each step keeps the best k continuations that do not end; a continuation ending in </s> joins the
    finished list with its length-penalised score. The search is over once k have finished or nothing
    can continue; the best finished one (else the best unfinished) is the result.
    """

    def __init__(self, k: int, alpha: float, device: torch.device | str = "cpu", bos_id: int = BOS_ID,
                 eos_id: int = EOS_ID) -> None:
        self.k, self.alpha, self.device, self.eos_id = k, alpha, device, eos_id
        self.seqs = torch.full((k, 1), bos_id, dtype=torch.long, device=device)  # (k, 1 + step)
        self.scores = torch.zeros(k, device=device)
        self.scores[1:] = float("-inf")  # all rows start identical: expand only the first
        self.finished: list[tuple[float, list[int]]] = []
        self.finished_rows: list[int] = []  # the row each finished hypothesis ended from, at its last step
        self.step = 0  # pieces chosen so far

    def advance(self, logp: Tensor, best: list[tuple[float, int]] | None = None) -> Tensor | None:
        """One step from (k, V) log-probabilities of the next piece after each row.

        best: the 2k best sums ``scores[r] + logp[r, t]`` as (sum, r·V + t), best first, where the caller
        ranked them already (the native step does, in C: ``NativeRows.best``); else ranked here.
        Returns the (k,) index of the row each new row continues (for the caller's caches to follow),
        or None when the search is over.
        """
        k, vocab = self.k, logp.size(1)
        self.step += 1
        if best is None:
            top, idx = (self.scores[:, None] + logp).view(-1).topk(2 * k)
            best = zip(top.tolist(), idx.tolist())
        keep_beams, keep_tok, keep_scores = [], [], []
        for s, i in best:
            bi, t = divmod(i, vocab)
            if s == float("-inf"):
                break
            if t == self.eos_id:
                self.finished.append((s / length_penalty(self.step, self.alpha), self.seqs[bi, 1:].tolist() + [t]))
                self.finished_rows.append(bi)
            else:
                keep_beams.append(bi)
                keep_tok.append(t)
                keep_scores.append(s)
            if len(keep_beams) == k:
                break
        if len(self.finished) >= k or not keep_beams:
            return None
        while len(keep_beams) < k:  # pad with dead rows so tensors keep their shape
            keep_beams.append(keep_beams[0])
            keep_tok.append(keep_tok[0])
            keep_scores.append(float("-inf"))
        index = torch.tensor(keep_beams, device=self.device)
        new = torch.tensor(keep_tok, device=self.device)[:, None]
        self.seqs = torch.cat([self.seqs.index_select(0, index), new], 1)
        self.scores = torch.tensor(keep_scores, device=self.device)
        return index

    def result(self) -> tuple[list[int], float]:
        """(best pieces, ending in </s> if finished; its length-penalised log-probability)."""
        ids, score, _ = self.best()
        return ids, score

    def best(self) -> tuple[list[int], float, tuple[bool, int]]:
        """``result`` and where it came from: (True, the row it ended from at its last step) if finished,
        else (False, its row in ``seqs``)."""
        if not self.finished:  # the length limit came first: take the best unfinished row
            best = int(self.scores.argmax())
            score = float(self.scores[best]) / length_penalty(self.seqs.size(1) - 1, self.alpha)
            return self.seqs[best, 1:].tolist(), score, (False, best)
        i = max(range(len(self.finished)), key=lambda j: self.finished[j][0])  # the first of equals, as max
        score, ids = self.finished[i]
        return ids, score, (True, self.finished_rows[i])
