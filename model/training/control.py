"""Stop and pause for a training run: ``TrainControl`` and the STOP / PAUSE files that drive it.

Torch-free on purpose: the window's train worker, the CLI and the torchrun workers all hold a control,
and the window creates one before any model code is imported. The run checks it between steps and
between its long phases (reading the corpus, training the tokenizer, validating), so a stop or pause
is obeyed within one step or one phase.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

STOP, PAUSE = "STOP", "PAUSE"
LAUNCHER_ENV = "ATTENTION_EXPLORER_LAUNCHER_PID"  # rank 0 stops the run when this process is gone


class Stopped(Exception):
    """Raised inside a long phase (tokenizer training, corpus building) when the run is stopped."""


class TrainControl:
    """Cooperative stop and pause, set from another thread and checked between steps and phases."""

    def __init__(self) -> None:
        self._stop, self._run = threading.Event(), threading.Event()
        self._run.set()

    def stop(self) -> None:
        self._stop.set()
        self._run.set()  # a paused run must wake up to stop

    def pause(self) -> None:
        self._run.clear()

    def resume(self) -> None:
        self._run.set()

    @property
    def stopped(self) -> bool:
        return self._stop.is_set()

    @property
    def paused(self) -> bool:
        return not self._run.is_set()

    def wait_while_paused(self) -> float:
        """Block while paused; returns the seconds spent waiting (excluded from timing)."""
        if self._run.is_set():
            return 0.0
        t0 = time.monotonic()
        self._run.wait()
        return time.monotonic() - t0

    def checkpoint(self) -> None:
        """Between phases and inside their loops: wait while paused, then raise ``Stopped`` if stopped."""
        self.wait_while_paused()
        if self.stopped:
            raise Stopped


def alive(pid: int) -> bool:
    """Whether one of our processes still exists (signal 0 only asks)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


# What only a run writes into its folder (model.checkpoint.LATEST, the step-NNNNNNNN checkpoints, the loop's
# log.jsonl, model.training.lock.LOCK, torchrun.CONFIG_JSON): named here because this module
# must stay torch-free. STOP and PAUSE are not among them: anyone may have a file of that name.
RUN_FILES = ("LATEST", "log.jsonl", ".lock", "torchrun-config.json")


def is_run_folder(folder: Path) -> bool:
    """Whether ``folder`` is one of this app's run folders: it holds a file or checkpoint only a run writes."""
    folder = Path(folder)
    return folder.is_dir() and (any((folder / name).exists() for name in RUN_FILES)
                                or any(p.is_dir() for p in folder.glob("step-*")))


def clear_controls(out: Path) -> None:
    """Remove STOP and PAUSE, which belong to one run: left over, they would stop or hold the next.

    Only in a run folder: elsewhere a file named STOP is the user's own (``--out docs`` once deleted one)."""
    if not is_run_folder(out):
        return
    for name in (STOP, PAUSE):
        (out / name).unlink(missing_ok=True)


def watch_files(out: Path, control: TrainControl, done: threading.Event) -> None:
    """Rank 0 (or a single-process CLI run) polls STOP and PAUSE; the training loop hands the decision to
    every rank at the next step.

    A launcher that died (the window was killed) counts as STOP: nobody could stop or resume the run.
    """
    launcher = int(os.environ.get(LAUNCHER_ENV, "0"))
    while not done.wait(0.2) and not control.stopped:
        if (out / STOP).exists() or (launcher and not alive(launcher)):
            control.stop()
        elif (out / PAUSE).exists():
            control.pause()
        else:
            control.resume()
