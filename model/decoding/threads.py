"""How many torch intra-op threads decoding takes: one for a single sentence, the idle cores for a batch."""

from __future__ import annotations

import os
from contextlib import contextmanager

import torch

# Intra-op threads for translating one sentence. Its ops are small (one row per beam), and on the
# 2-core machine we measure on, splitting them over 2 threads made every case slower (greedy 20 pieces:
# 42 ms on 1 thread against 88 ms on 2; beam 4: 106 against 141; 50 pieces: 60 against 121).
DECODE_THREADS = 1


@contextmanager
def intra_op_threads(n: int | None):
    """Run the block with ``n`` torch intra-op threads (None: unchanged), then restore the count.

    PyTorch's CPU builds parallelise with OpenMP, whose thread count is kept per calling thread: a
    translation on the model worker thread does not change a training run's threads on another.
    """
    prev = torch.get_num_threads()
    if n is None or n == prev:
        yield
        return
    torch.set_num_threads(n)
    try:
        yield
    finally:
        torch.set_num_threads(prev)


def eval_threads(cores: int | None = None, load: float | None = None) -> int:
    """Intra-op threads for batched evaluation: every core when the machine is idle, fewer when busy.

    Batched steps are large enough to gain from several threads, but next to another busy process (a
    training run) OpenMP threads that wait for a core stall every step: measured on 2 cores beside a
    training run, 2 threads took 1.7 s a beam-4 sentence against far less on 1.
    """
    cores = cores or os.cpu_count() or 1
    if load is None:
        try:
            load = os.getloadavg()[0]
        except OSError:
            load = 0.0
    return max(1, min(cores, int(cores - load + 0.5)))
