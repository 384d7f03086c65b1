"""Responsiveness while training: how late the GUI event loop gets while a run trains on another thread.

A ``QTimer`` ticking every 5 ms on the GUI thread records when each tick arrives; the lateness of a tick
(its gap minus 5 ms) is how long the event loop could not react. Meanwhile ``model.training.run.run_training``
trains the tiny preset on the reverse task on a ``threading.Thread``, with the Train tab's defaults for
that task (batches of 1536 tokens, a probe translation every 25 steps, validation and a checkpoint every
200), exactly as the GUI's training worker runs it.

The run is paused and resumed in alternate phases (``TrainControl``), so the same run yields an idle
distribution and a training distribution, interleaved; the first 200 ms of each phase are not counted,
as the loop only notices a pause between steps. Reported apart: the stall while the run starts, once
before its first step (data and tokenizer, and the first ``torch.optim`` optimizer of the process,
which imports ``torch._dynamo``: seconds of imports that hold the GIL for up to ~0.5 s at a time).

The run is measured twice: with torch's default intra-op threads, and with ``threads=1`` for the run,
which leaves a core to the GUI on a two-core machine.
"""

from __future__ import annotations

import tempfile
import threading
import time

import torch
from PySide6.QtCore import QEventLoop, Qt, QTimer

from benchmarks.machine import percentile

INTERVAL_MS = 5
SETTLE_S = 0.2  # skipped at the start of each phase


class TickRecorder:
    """Lateness of each tick of a 5 ms timer, tagged with the phase that was current when it arrived."""

    def __init__(self) -> None:
        self.phase, self.phase_started = "prepare", time.perf_counter()
        self.late: dict[str, list[float]] = {}
        self._last = None
        self.timer = QTimer()
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.setInterval(INTERVAL_MS)
        self.timer.timeout.connect(self._tick)

    def set_phase(self, name: str) -> None:
        self.phase, self.phase_started = name, time.perf_counter()

    def _tick(self) -> None:
        now = time.perf_counter()
        if self._last is not None and now - self.phase_started > SETTLE_S:
            self.late.setdefault(self.phase, []).append(max(0.0, (now - self._last) * 1000.0 - INTERVAL_MS))
        self._last = now


def spin(seconds: float, until=None) -> None:
    """Run the GUI event loop for ``seconds`` (or until ``until()`` holds, checked each tick)."""
    loop = QEventLoop()
    deadline = time.perf_counter() + seconds
    check = QTimer()
    check.setInterval(INTERVAL_MS)
    check.timeout.connect(lambda: loop.quit() if time.perf_counter() > deadline or (until and until()) else None)
    check.start()
    loop.exec()
    check.stop()


def train_config(out_dir: str, threads: int | None, task_size: int = 20_000):
    from model.config import TrainConfig, preset
    return TrainConfig(out_dir=out_dir, model=preset("tiny"), task="reverse", task_size=task_size, n_valid=200,
                       warmup_steps=150, lr_scale=1.0, batch_tokens=1536, max_steps=1_000_000,
                       valid_every=200, checkpoint_every=200, probe_every=25, probe_sentence="3 1 4 1 5 9 2 6",
                       report_every=10, threads=threads)


def measure(threads: int | None, seconds: float, phase_s: float, task_size: int, log=print) -> dict:
    """One training run: preparation, then alternating idle / train phases for ``seconds``."""
    from model.training.control import TrainControl
    from model.training.run import run_training
    control, events, failure = TrainControl(), [], []
    recorder = TickRecorder()
    with tempfile.TemporaryDirectory(prefix="attention-explorer-stall-") as tmp:
        def train() -> None:
            try:
                for rec in run_training(train_config(tmp, threads, task_size), control):
                    events.append(rec.event)
            except Exception as exc:  # noqa: BLE001 - reported, and the measurement stops
                failure.append(f"{type(exc).__name__}: {exc}")

        recorder.timer.start()
        worker = threading.Thread(target=train, name="bench-training", daemon=True)
        worker.start()
        spin(300, lambda: "step" in events or failure or not worker.is_alive())
        steps_at_start = len(events)
        t_end = time.perf_counter() + seconds
        training = True
        while time.perf_counter() < t_end and not failure:
            recorder.set_phase("train" if training else "idle")
            (control.resume if training else control.pause)()
            spin(phase_s)
            training = not training
        control.stop()
        recorder.set_phase("stopping")
        spin(120, lambda: not worker.is_alive())
        recorder.timer.stop()
        worker.join(timeout=60)
    if failure:
        raise RuntimeError(f"the training run failed: {failure[0]}")

    def stats(name: str) -> dict:
        late = recorder.late.get(name, [])
        return {"max_ms": max(late, default=float("nan")), "p99_ms": percentile(late, 99),
                "p50_ms": percentile(late, 50), "ticks": len(late)}
    result = {"threads": threads or torch.get_num_threads(), "prepare": stats("prepare"),
              "train": stats("train"), "idle": stats("idle"), "records": len(events) - steps_at_start}
    log(f"    threads={result['threads']}: max stall training {result['train']['max_ms']:.1f} ms, "
        f"idle {result['idle']['max_ms']:.1f} ms, while preparing {result['prepare']['max_ms']:.1f} ms")
    return result


def run(quick: bool = False, log=print) -> dict:
    default_threads = torch.get_num_threads()
    seconds, phase_s = (3.0, 0.75) if quick else (10.0, 1.0)
    variants = [None] if quick else [None, 1]
    log(f"  stall: {len(variants)} run(s), {seconds:.0f} s of alternating 1 s phases each")
    runs = []
    try:
        for threads in variants:
            runs.append(measure(threads, seconds, phase_s, 2_000 if quick else 20_000, log))
    finally:
        torch.set_num_threads(default_threads)  # the run set it for the whole process
    main = runs[0]
    return {"max_stall_ms": main["train"]["max_ms"], "max_stall_idle_ms": main["idle"]["max_ms"],
            "max_stall_prepare_ms": main["prepare"]["max_ms"],
            "stall": {"interval_ms": INTERVAL_MS, "phase_s": phase_s, "seconds": seconds, "runs": runs}}
