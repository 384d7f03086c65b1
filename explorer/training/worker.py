"""Training off the GUI thread: a worker that runs one training run at a time, and its owner.

One of the two explorer modules that import model code beyond the torch-free ``model.records`` and
``model.choices`` (the other is ``explorer.translate.worker``, for translation), and it does so inside the worker's
slots, on the worker's QThread: importing torch takes seconds and must never freeze the window.

A run blocks the worker's thread for its whole length, so pause and stop cannot travel as queued
signals (the thread would only see them after the run). They go straight to the run's
``TrainControl`` instead, whose events are thread-safe and which the loop checks between steps. The
control is created on the worker thread, with the run, so a stop or pause that arrives before it exists
is remembered and applied the moment it does.

Every run ends in exactly one ``finished``; whatever went wrong before it reaches the panel as an
"error" ``TrainProgress``, the same record the training loop itself yields for a NaN loss or an
out-of-memory GPU, so the panel has one path for every failure.
"""

from __future__ import annotations

import logging
import math
import threading
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, QThread, Signal, Slot

from explorer.ui.i18n import N_
from explorer.ui.worker_thread import WorkerThread
from model.errors import TrainingError, UserError
from model.records import TrainProgress

# Notes as whole sentences, marked for the catalogue: the panel translates them (TrainPanel._on_note).
READING = N_("Reading the corpus…")
READING_AND_TOKENIZER = N_("Reading the corpus and training the tokenizer…")
# Notes with a part that varies go as (template, arguments): the panel formats them on the GUI thread.
BUILDING_DING = N_("Building the Ding corpus in {folder} (this takes a minute)…")
NO_GPU_LIST = N_("Could not list the GPUs: {error}")
# How the Train tab resumes or starts over in a folder that holds a run, for check_new_run's refusal; the
# panel knows the whole sentence with these two in it (explorer/training/model_errors.py).
RESUME_HINT = "“Resume from”"
OVERWRITE_HINT = "delete its step-* folders and LATEST"
# A whole sentence, so the panel can show it in the window's language (translate() on the GUI thread).
GPU_OUT_OF_MEMORY = N_("The GPU ran out of memory. Try fewer batch tokens or a smaller model; "
                       "the last checkpoint written (if any) is intact.")

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TrainRequest:
    """What the form asks for: a TrainConfig plus what happens around it."""

    config: object  # model.config.TrainConfig (kept untyped so this module never imports it early)
    resume: str = ""  # a checkpoint or run folder to continue from
    n_gpus: int = 0  # 2 or more: all local GPUs through torchrun (model.training.torchrun)
    ding_reverse: bool | None = None  # build the Ding corpus first; True = German→English


def error_message(exc: BaseException) -> str:
    """Ours as written; a GPU out of memory explained; anything else flagged as unexpected."""
    if isinstance(exc, (UserError, TrainingError)):
        return str(exc)
    if type(exc).__name__ == "OutOfMemoryError" or "out of memory" in str(exc).lower():
        return GPU_OUT_OF_MEMORY
    log.error("unexpected error in the training worker", exc_info=exc)
    return f"Unexpected error: {type(exc).__name__}: {exc}"


def error_record(message: str, step: int = 0, max_steps: int | None = None) -> TrainProgress:
    return TrainProgress(step=step, max_steps=max_steps, epoch=0, loss=math.nan, lr=0.0,
                         tokens_per_s=0.0, elapsed_s=0.0, event="error", message=message)


def check_writable(folder: Path) -> None:
    """Fail in a second, not after the tokenizer has trained, when the output folder is unusable."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / ".write-test"
        probe.write_text("ok")
        probe.unlink()
    except OSError as exc:
        raise UserError(f"cannot write to the output folder {folder}: {exc.strerror or exc}") from None


class TrainWorker(QObject):
    """Runs training on its QThread; pause/resume/stop are plain thread-safe methods."""

    progress = Signal(object)  # model.records.TrainProgress, in the order the run produced them
    note = Signal(object)  # a line for the log from the worker itself: str, or (template, arguments)
    devices_found = Signal(object)  # list of (key, label): "cuda:0", "all:4"; CPU is always there
    finished = Signal()

    def __init__(self) -> None:
        super().__init__()
        self._lock = threading.Lock()
        self._control = None
        self._stop_asked = self._pause_asked = False

    # -- called from the GUI thread ------------------------------------------------------------
    def reset(self) -> None:
        """Forget the previous run's requests; the owner calls this before queueing a new run."""
        with self._lock:
            self._control, self._stop_asked, self._pause_asked = None, False, False

    def stop(self) -> None:
        with self._lock:
            self._stop_asked = True
            if self._control is not None:
                self._control.stop()

    def pause(self) -> None:
        with self._lock:
            self._pause_asked = True
            if self._control is not None:
                self._control.pause()

    def resume(self) -> None:
        with self._lock:
            self._pause_asked = False
            if self._control is not None:
                self._control.resume()

    # -- slots, run on the worker thread -------------------------------------------------------
    @Slot()
    def find_devices(self) -> None:
        try:
            self.devices_found.emit(device_choices(_cuda_devices(), cpu_bf16=_cpu_bf16()))
        except Exception as exc:  # noqa: BLE001 - no GPU list is not worth more than a log line
            self.note.emit((NO_GPU_LIST, {"error": error_message(exc)}))
            self.devices_found.emit([])

    @Slot(object)
    def run(self, request: TrainRequest) -> None:
        last_step = 0
        try:
            for record in self._records(request):
                last_step = record.step
                self.progress.emit(record)
        except Exception as exc:  # noqa: BLE001 - every failure must reach the panel as a message
            self.progress.emit(error_record(error_message(exc), last_step, request.config.max_steps))
        finally:
            with self._lock:
                self._control = None
            self.finished.emit()

    def _records(self, request: TrainRequest):
        from model.training.control import Stopped, TrainControl
        from model.training.run import run_training
        from model.training.run_folder import check_new_run

        cfg = request.config
        check_new_run(cfg.out_dir, request.resume or None, resume_hint=RESUME_HINT, overwrite_hint=OVERWRITE_HINT)
        check_writable(Path(cfg.out_dir))
        control = TrainControl()
        with self._lock:
            self._control = control
            if self._stop_asked:
                control.stop()
            elif self._pause_asked:
                control.pause()
        if request.ding_reverse is not None:
            try:
                cfg = self._build_ding(cfg, request.ding_reverse, control.checkpoint)
            except Stopped:
                return
            if control.stopped:
                return
        resume = Path(request.resume) if request.resume else None
        # On a large corpus this is minutes without a record; say what is happening meanwhile.
        self.note.emit(READING if resume else READING_AND_TOKENIZER)
        if request.n_gpus > 1:
            from model.training.torchrun import run_distributed

            yield from run_distributed(cfg, request.n_gpus, control, resume)
        else:
            yield from run_training(cfg, control, resume)

    def _build_ding(self, cfg, reverse: bool, check):
        """Write the Ding corpus into <out>/data and point the config at it."""
        from model.corpus.ding_corpus import build_ding_corpus

        data = Path(cfg.out_dir) / "data"
        self.note.emit((BUILDING_DING, {"folder": str(data)}))
        build_ding_corpus(data, reverse=reverse, check=check)
        src, tgt = ("de", "en") if reverse else ("en", "de")
        return cfg.replace(src=str(data / f"train.{src}"), tgt=str(data / f"train.{tgt}"),
                           valid_src=str(data / f"valid.{src}"), valid_tgt=str(data / f"valid.{tgt}"))


CPU_BF16 = "cpu-bf16"  # the CPU with bf16 autocast (TrainConfig.cpu_amp)


def _cuda_devices() -> list[tuple[int, str, float]]:
    """(index, name, GiB) of each CUDA GPU."""
    from model.training.ddp import cuda_devices

    return list(cuda_devices())


def _cpu_bf16() -> bool:
    from model.training.device import cpu_has_native_bf16
    return cpu_has_native_bf16()


def device_choices(gpus: list[tuple[int, str, float]], cpu_bf16: bool = False) -> list[tuple[str, str]]:
    """(key, label) for the CPU's bf16 mode when it has one, each GPU, then "All GPUs (N)" for several."""
    choices = [(CPU_BF16, "CPU, bf16 math (faster)")] if cpu_bf16 else []
    choices += [(f"cuda:{i}", f"GPU {i}: {name} ({mem:.0f} GiB)") for i, name, mem in gpus]
    if len(gpus) > 1:
        choices.append((f"all:{len(gpus)}", f"All GPUs ({len(gpus)})"))
    return choices


SHUTDOWN_WAIT_MS = 600_000  # closing waits for the run's final checkpoint; it is never cut off


class TrainRunner(QObject):
    """Owns a :class:`TrainWorker` and its QThread, started on first use and joined by ``shutdown``."""

    progress = Signal(object)
    note = Signal(object)
    devices_found = Signal(object)
    finished = Signal()

    _request_run = Signal(object)
    _request_devices = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._running = False
        self.worker = TrainWorker()
        # Started on first use (finding devices or a run), not with the window: most sessions never train.
        self._worker_thread = WorkerThread(self.worker, "train-worker", on_quit=self.shutdown,
                                           cancel=self.worker.stop, start=False)
        self._request_run.connect(self.worker.run)
        self._request_devices.connect(self.worker.find_devices)
        self.worker.progress.connect(self.progress)
        self.worker.note.connect(self.note)
        self.worker.devices_found.connect(self.devices_found)
        self.worker.finished.connect(self._on_finished)

    @property
    def running(self) -> bool:
        return self._running

    @property
    def thread(self) -> QThread:
        return self._worker_thread.thread

    def find_devices(self) -> None:
        self._ensure_thread()
        self._request_devices.emit()

    def start(self, request: TrainRequest) -> bool:
        """Queue a run; False (and nothing queued) while one is still running."""
        if self._running:
            return False
        self._ensure_thread()
        self.worker.reset()
        self._running = True
        self._request_run.emit(request)
        return True

    def pause(self) -> None:
        self.worker.pause()

    def resume(self) -> None:
        self.worker.resume()

    def stop(self) -> None:
        self.worker.stop()

    def shutdown(self) -> None:
        """Stop a run (it saves its final checkpoint first), then join the thread. Idempotent."""
        self._worker_thread.stop(wait_ms=SHUTDOWN_WAIT_MS)
        self._running = False

    def _ensure_thread(self) -> None:
        self._worker_thread.start()

    def _on_finished(self) -> None:
        self._running = False
        self.finished.emit()
