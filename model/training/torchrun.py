"""Training on several processes: the launcher behind the window and ``train --gpus N``.

``run_distributed`` starts ``python -m model.training.launch`` (torchrun's job on one machine, on loopback
only: see that module) in its own process group, which starts N workers ``python -m model.training.worker``.
Rank 0 prints each record as a JSON line on stdout; the launcher rebuilds the records. Control goes the other
way through files in the run folder, which a run started by hand with torchrun (on several machines, too)
obeys alike: ``STOP`` ends it at the next step
with a checkpoint, ``PAUSE`` holds it while the file exists.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import math
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import torch

from model.config import TrainConfig
from model.errors import UserError
from model.files import write_atomic
from model.records import AttentionMaps, TrainProgress, Translation
from model.training.control import LAUNCHER_ENV, PAUSE, STOP, TrainControl, clear_controls

CONFIG_JSON, PROBES = "torchrun-config.json", "probes"
STARTED = "attention-explorer worker started"  # stderr: "<STARTED>: rank R pid P"
FAILED = "attention-explorer worker error"  # stderr: "<FAILED> (rank R): message"
TERMINAL = ("done", "stopped", "error")
# In what torchrun and crashed ranks print, the lines that say why: exceptions, exit codes, signals.
_WHY = re.compile(r"^(\[rank\d+\]: )?[\w.]*(Error|Exception)\b(?<!ChildFailedError)|exitcode|Signal \d+")
REPO_ROOT = Path(__file__).resolve().parents[2]
KEEP_PROBES = 50  # npz files left for a reader that lags behind (a hand-started run has none)


def run_folder(cfg: TrainConfig, resume: Path | None) -> Path:
    """The run's output folder: out_dir, else the run folder of the checkpoint resumed (as the CLI does)."""
    if cfg.out_dir:
        return Path(cfg.out_dir).resolve()
    if resume is None:
        raise UserError("the run needs an output folder (--out DIR)")
    folder = Path(resume).resolve()
    return folder if (folder / "LATEST").exists() else folder.parent


def encode_record(rec: TrainProgress, probes: Path) -> str:
    """One JSON line; a probe's attention maps go to an npz file under ``probes`` (arrays are not JSON)."""
    d = {f.name: getattr(rec, f.name) for f in dataclasses.fields(rec) if f.name not in ("probe", "extra")}
    if rec.probe is not None:
        d["probe"] = {f.name: getattr(rec.probe, f.name) for f in dataclasses.fields(rec.probe)}
        m, d["probe"]["attention"] = rec.probe.attention, None
        if m is not None:
            probes.mkdir(parents=True, exist_ok=True)
            path = probes / f"probe-{rec.step:08d}.npz"
            np.savez(path, **{f.name: np.array(getattr(m, f.name), dtype=str) if f.name.endswith("_tokens")
                              else getattr(m, f.name) for f in dataclasses.fields(m)})
            d["probe"]["attention"] = str(path)
            for old in sorted(probes.glob("probe-*.npz"))[:-KEEP_PROBES]:
                old.unlink(missing_ok=True)
    return json.dumps(d)


def decode_record(line: str, extra: dict | None = None) -> TrainProgress | None:
    """A record from a worker's JSON line (None for any other output); a probe's npz is read and removed."""
    try:
        d = json.loads(line)
    except ValueError:
        return None
    if not isinstance(d, dict) or "event" not in d:
        return None
    probe = d.pop("probe", None)
    if probe:
        path, attention = probe.pop("attention", None), None
        try:
            if path:
                with np.load(path) as z:
                    attention = AttentionMaps(**{k: tuple(z[k].tolist()) if k.endswith("_tokens") else z[k]
                                                 for k in z.files})
                Path(path).unlink(missing_ok=True)
        except (OSError, KeyError, ValueError):  # pruned already, or half-written by a killed worker
            attention = None
        probe = Translation(**{k: tuple(v) if isinstance(v, list) else v for k, v in probe.items()},
                            attention=attention)
    names = {f.name for f in dataclasses.fields(TrainProgress)}
    return TrainProgress(**{k: v for k, v in d.items() if k in names}, probe=probe, extra=dict(extra or {}))


def _signal(pid: int, sig: int) -> bool:
    """Send sig to one of our processes (0 only asks); False if it is gone."""
    try:
        os.kill(pid, sig)
    except ProcessLookupError:
        return False
    return True


def _read_stderr(stream, tail: deque, pids: dict[int, int]) -> None:
    started = re.compile(re.escape(STARTED) + r": rank (\d+) pid (\d+)")
    for line in stream:
        tail.append(line.rstrip())
        if m := started.search(line):
            pids[int(m.group(1))] = int(m.group(2))


def _failure(last: TrainProgress | None, final: TrainProgress | None, code: int, tail: deque,
             out: Path, extra: dict) -> TrainProgress:
    """The "error" record for a run that ended badly: the exit code, why, and what is left on disk."""
    if final is not None:  # the worker said what went wrong; add what the processes did afterwards
        msg = final.message + (f" (the training processes exited with code {code})" if code else "")
        return dataclasses.replace(final, message=msg, extra=extra)
    latest = out / "LATEST"
    kept = (f"the last good checkpoint {out / latest.read_text(encoding='utf-8').strip()} is intact"
            if latest.is_file() else "no checkpoint was written")
    lines = ([x for x in tail if x.startswith(FAILED)] or [x.strip() for x in tail if _WHY.search(x)]
             or [x for x in tail if x.strip()])
    msg = f"the training processes failed (exit code {code}); {kept}. Last messages:\n" + "\n".join(lines[-8:])
    last = last or TrainProgress(0, None, 0, math.nan, 0.0, 0.0, 0.0)
    return dataclasses.replace(last, loss=math.nan, tokens_per_s=0.0, event="error", message=msg, extra=extra,
                               probe=None, checkpoint=None, valid_loss=None, valid_bleu=None)


def run_distributed(cfg: TrainConfig, n_procs: int, control: TrainControl | None = None,
                    resume: Path | None = None, backend: str | None = None,
                    grace_s: float = 60.0) -> Iterator[TrainProgress]:
    """Train with ``n_procs`` DDP processes on this machine; yields the records ``run_training`` would.

    backend: "nccl" (one GPU per process; the default with CUDA) or "gloo" (CPU processes). A stop asks
    rank 0 through the STOP file and, if the run has not ended ``grace_s`` seconds later, sends SIGTERM.
    A crash ends with an "error" record holding the exit code and the last lines the processes wrote.
    Each record's ``extra`` holds ``launcher_pid`` and ``worker_pids`` ({rank: pid}) once known.
    """
    control = control or TrainControl()
    if n_procs < 1 or backend not in (None, "nccl", "gloo"):
        raise UserError(f"need at least 1 process and the backend nccl or gloo, not {n_procs}, {backend!r}")
    if backend is None and not torch.cuda.is_available():
        raise UserError("multi-GPU training needs CUDA GPUs and none is available; "
                        "use the gloo backend (--backend gloo) to train with CPU processes")
    backend = backend or "nccl"
    if backend == "nccl" and n_procs > torch.cuda.device_count():
        raise UserError(f"{n_procs} GPUs asked for, but this machine has {torch.cuda.device_count()}")
    out = run_folder(cfg, resume)
    cfg = cfg.replace(out_dir=str(out), device="cuda" if backend == "nccl" else "cpu")
    try:
        out.mkdir(parents=True, exist_ok=True)
        write_atomic(out / CONFIG_JSON, cfg.to_json())
        clear_controls(out)
    except OSError as exc:
        raise UserError(f"cannot write to the output folder {out}: {exc.strerror or exc}") from None
    cmd = [sys.executable, "-m", "model.training.launch", "--nproc-per-node", str(n_procs),
           "-m", "model.training.worker", "worker", "--config-json", str(out / CONFIG_JSON), "--backend", backend]
    cmd += ["--resume", str(Path(resume).resolve())] if resume is not None else []
    env = dict(os.environ, **{LAUNCHER_ENV: str(os.getpid())})
    env["PYTHONPATH"] = os.pathsep.join(x for x in (str(REPO_ROOT), env.get("PYTHONPATH")) if x)
    # CPU processes share the cores: each gets its share of threads.
    env.setdefault("OMP_NUM_THREADS", str(cfg.threads or max(1, (os.cpu_count() or 1) // n_procs)))
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, encoding="utf-8",
                            errors="replace", bufsize=1, env=env, start_new_session=True)
    lines: queue.Queue = queue.Queue()
    tail: deque[str] = deque(maxlen=200)
    pids: dict[int, int] = {}

    # stdout lines go to a queue (None at the end) so that the loop below can forward stop/pause meanwhile
    threading.Thread(target=lambda: [*map(lines.put, proc.stdout), lines.put(None)], daemon=True).start()
    (err_reader := threading.Thread(target=_read_stderr, args=(proc.stderr, tail, pids), daemon=True)).start()
    last = final = stop_at = term_at = None
    paused = False
    try:
        while True:
            try:
                line = lines.get(timeout=0.1)
            except queue.Empty:
                line = ""
            if line is None:
                break
            rec = decode_record(line, {"launcher_pid": proc.pid, "worker_pids": dict(pids)}) if line else None
            if rec is not None and rec.event in TERMINAL:
                final = rec  # held back until the processes have exited and their exit code is known
            elif rec is not None:
                yield (last := rec)
            now = time.monotonic()
            if control.stopped and stop_at is None:
                (out / STOP).touch()
                stop_at = now
            elif not control.stopped and control.paused != paused:
                paused = control.paused
                if paused:
                    (out / PAUSE).touch()
                else:
                    (out / PAUSE).unlink(missing_ok=True)
            if stop_at is not None and term_at is None and now - stop_at > grace_s:
                _signal(proc.pid, signal.SIGTERM)  # the launcher passes it on, kills what ignores it 30 s later
                term_at = now
            if term_at is not None and now - term_at > 45:
                break
        code = _end(proc, pids, wait_s=45 if term_at is None else 0)
        err_reader.join(timeout=5)
        extra = {"launcher_pid": proc.pid, "worker_pids": dict(pids)}
        if final is not None and final.event != "error":
            yield dataclasses.replace(final, extra=extra)
        else:
            yield _failure(last, final, code, tail, out, extra)
    finally:
        _end(proc, pids, wait_s=0)  # still running only if the consumer closed the generator early
        with contextlib.suppress(OSError):
            clear_controls(out)


def _end(proc: subprocess.Popen, pids: dict[int, int], wait_s: float) -> int:
    """Wait for the launcher to exit; past wait_s, end it and, since it can no longer, its workers."""
    try:
        return proc.wait(timeout=wait_s)
    except subprocess.TimeoutExpired:
        pass
    _signal(proc.pid, signal.SIGTERM)
    try:
        return proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        _signal(proc.pid, signal.SIGKILL)
        for pid in pids.values():  # a killed launcher cannot end its workers: they would outlive it
            _signal(pid, signal.SIGKILL)
        return proc.wait()
