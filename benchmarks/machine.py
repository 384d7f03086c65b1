"""The machine a run measured, its fp32 matrix-multiply peak, and the timing helpers every section uses.

Every figure of the benchmarks is either a ratio of two things timed in turn (A, B, A, B, … so that a
background job slows both alike) or a distribution (p50, p95) of many repeats; single timings on a
shared machine say little.
"""

from __future__ import annotations

import datetime
import os
import platform
import statistics
import time
from collections.abc import Callable

import torch


def cpu_model() -> str:
    """The processor's name from /proc/cpuinfo (Linux), else what the platform module knows."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine_facts() -> dict:
    """What a reader needs to judge the numbers: processor, cores, torch, threads, date, load."""
    try:
        load = [round(x, 2) for x in os.getloadavg()]
    except OSError:  # not on every platform
        load = []
    return {
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "torch": torch.__version__,
        "threads": torch.get_num_threads(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "load_average": load,  # 1, 5 and 15 minutes at the start: other work on the machine
    }


def sgemm_seconds(a: torch.Tensor, b: torch.Tensor) -> float:
    """One timed fp32 matrix multiply (the inputs are made once by the caller)."""
    t0 = time.perf_counter()
    torch.mm(a, b)
    return time.perf_counter() - t0


def matmul_operands(n: int) -> tuple[torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(0)
    return torch.randn(n, n, generator=g), torch.randn(n, n, generator=g)


def matmul_peak(n: int = 2048, repeats: int = 7) -> dict:
    """The measured fp32 peak: n×n by n×n products (2n³ FLOPs each), median of the repeats, GFLOP/s."""
    a, b = matmul_operands(n)
    torch.mm(a, b)  # warm up the BLAS threads and caches
    times = [sgemm_seconds(a, b) for _ in range(repeats)]
    flops = 2.0 * n ** 3
    return {"n": n, "repeats": repeats, "gflops_p50": flops / statistics.median(times) / 1e9,
            "gflops_best": flops / min(times) / 1e9}


# -- statistics and timing ----------------------------------------------------------------------

def percentile(values: list[float], q: float) -> float:
    """Linear-interpolated percentile, q in [0, 100]; NaN for no values."""
    if not values:
        return float("nan")
    xs = sorted(values)
    pos = (len(xs) - 1) * q / 100.0
    lo = int(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def summary_ms(seconds: list[float]) -> dict:
    """p50 / p95 / min / n of timings given in seconds, reported in milliseconds."""
    ms = [s * 1000.0 for s in seconds]
    return {"p50": percentile(ms, 50), "p95": percentile(ms, 95), "min": min(ms) if ms else float("nan"),
            "n": len(ms)}


def interleaved(cases: dict[str, Callable[[], object]], rounds: int,
                on_round: Callable[[int, dict[str, float]], None] | None = None,
                cpu: dict[str, list[float]] | None = None) -> dict[str, list[float]]:
    """Time each case once per round, in turn; the order flips every round so drift hits all alike.

    Returns the wall-clock seconds of every run per case; ``cpu``, if given, receives the CPU seconds of
    the calling thread for each run (the whole cost of single-threaded work, without the time the OS
    gave to other processes). ``on_round(r, wall_times_of_round)`` may log or record extras.
    """
    names = list(cases)
    times: dict[str, list[float]] = {name: [] for name in names}
    for r in range(rounds):
        this_round = {}
        for name in (names if r % 2 == 0 else names[::-1]):
            c0, t0 = time.thread_time(), time.perf_counter()
            cases[name]()
            this_round[name] = time.perf_counter() - t0
            times[name].append(this_round[name])
            if cpu is not None:
                cpu.setdefault(name, []).append(time.thread_time() - c0)
        if on_round is not None:
            on_round(r, this_round)
    return times


def median_ratio(numerators: list[float], denominators: list[float]) -> float:
    """Median over rounds of numerator / denominator, each pair taken from the same round."""
    return statistics.median(n / d for n, d in zip(numerators, denominators))
