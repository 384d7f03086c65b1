"""A beam search's own attention maps and piece probabilities, kept as it runs (the native rows step).

Why here and not in a second pass: a teacher-forced pass of the modules over the chosen output read the
decoder's weights once more and projected every position onto the vocabulary again, 4.4 of the 28 ms of
a short beam-4 translation on the 2-core machine (#32). The rows step already computes every row's
attention weights and log-probabilities; keeping them costs a copy of numbers it has.

What comes out: the maps are the weights that weighed the values in the very steps that chose the output
(``step_common.h``'s ``attend`` writes them), and the probabilities the softmax the search ranked. They are
the fp32 model's, with sums taken in the rows step's order: they agree with the modules' pass over the
same output to ~1e-6 (tests/model/test_beam_maps.py).

How: each step keeps every row's weights at its position, (k, L, H, ·); each step's advance says which
row each new row continues. The result's path is followed back from the row it ended in, a row a step.
"""

from __future__ import annotations

import numpy as np
from torch import Tensor

from model.decoding.beam import Beam
from model.native.rows import NativeRows


class BeamTrace:
    """What a native beam search keeps for its result's maps. Give it to ``search.beam_search``; after
    the search, ``maps`` is (decoder self (L, H, T, T), cross (L, H, T, S)) and ``probs`` (T,) for the T
    pieces of its result, or both None where the search ran through PyTorch (no rows step)."""

    def __init__(self, eos_id: int) -> None:
        self.eos_id = eos_id
        self.rows: NativeRows | None = None
        self.self_rows: list[np.ndarray] = []  # step s: (k, L, H, s + 1), every row's weights at position s
        self.cross_rows: list[np.ndarray] = []  # step s: (k, L, H, S)
        self.parents: list[np.ndarray] = []  # step s: the row each new row continues (advance's index)
        self.chosen: list[np.ndarray] = []  # step s: each new row's last piece's log-probability (k,)
        self.ended: list[np.ndarray] = []  # step s: each row's log-probability of </s> (k,)
        self.maps: tuple[np.ndarray, np.ndarray] | None = None
        self.probs: np.ndarray | None = None
        self.path: list[int] | None = None  # the row the result was in at each step, once found

    def start(self, rows: NativeRows) -> None:
        self.rows = rows

    def buffers(self) -> tuple[np.ndarray, np.ndarray]:
        """Where the coming step writes its weights (kept for the path back)."""
        self_maps, cross_maps = self.rows.map_buffers()
        self.self_rows.append(self_maps)
        self.cross_rows.append(cross_maps)
        return self_maps, cross_maps

    def record(self, logp: Tensor, index: Tensor | None, beam: Beam) -> None:
        """After ``beam.advance(logp)`` returned ``index``."""
        self.ended.append(logp[:, self.eos_id].numpy().copy())
        if index is not None:
            self.chosen.append(logp[index, beam.seqs[:, -1]].numpy().copy())
            self.parents.append(index.numpy().copy())

    def finish(self, beam: Beam) -> None:
        """Follow the result back, step by step, and assemble its maps and probabilities."""
        ids, _, (finished, row) = beam.best()
        n = len(ids)
        if n == 0 or n > len(self.self_rows):
            return  # nothing chosen (or a path the steps did not keep): the caller's own pass, as before
        if finished:  # ended from ``row`` at step n - 1 (0-based)
            fed, last = row, float(self.ended[n - 1][row])
        else:  # row of the last step's new rows: its piece was chosen from its parent's logits
            fed, last = int(self.parents[n - 1][row]), float(self.chosen[n - 1][row])
        fed_rows, logps = [0] * n, [0.0] * n
        logps[-1] = last
        for s in range(n - 1, -1, -1):  # step s fed row ``fed`` at position s
            fed_rows[s] = fed
            if s > 0:  # that row was a new row of step s - 1: its piece and its parent
                logps[s - 1] = float(self.chosen[s - 1][fed])
                fed = int(self.parents[s - 1][fed])
        layers, heads, src_len = self.cross_rows[0].shape[1:]
        dec = np.zeros((layers, heads, n, n), np.float32)  # (L, H, T, T): zero above the diagonal
        cross = np.empty((layers, heads, n, src_len), np.float32)  # (L, H, T, S)
        for s, r in enumerate(fed_rows):
            dec[:, :, s, : s + 1] = self.self_rows[s][r]
            cross[:, :, s] = self.cross_rows[s][r]
        self.maps, self.path = (dec, cross), fed_rows
        self.probs = np.exp(np.asarray(logps, np.float64)).astype(np.float32)


def traced(trace: BeamTrace | None, rows: NativeRows | None) -> BeamTrace | None:
    """The trace to keep, if the search runs on the rows step; else None (nothing to keep)."""
    if trace is None or rows is None:
        return None
    trace.start(rows)
    return trace
