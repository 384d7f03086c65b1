"""One rank of a DDP training run, started by torchrun: ``python -m model.training.worker worker``.

By hand, on one or several machines::

    python -m torch.distributed.run --nproc-per-node 8 -m model.training.worker worker --config-json run.json
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import signal
import sys
import threading
from datetime import timedelta
from pathlib import Path

import torch

from model.config import TrainConfig
from model.errors import UserError
from model.records import TrainProgress
from model.training.control import STOP, TrainControl, watch_files
from model.training.launch import INIT_ENV
from model.training.run import run_training
from model.training.torchrun import FAILED, PROBES, STARTED, encode_record, run_folder


def _say(stream, line: str) -> None:
    """One write per line: the ranks share torchrun's stderr, and print() writes the newline separately."""
    with contextlib.suppress(BrokenPipeError):  # the launcher is gone: finish and save regardless
        stream.write(line + "\n")
        stream.flush()


def main(argv: list[str] | None = None) -> int:
    """``python -m model.training.worker worker --config-json FILE``: one rank of a run, started by torchrun."""
    p = argparse.ArgumentParser(prog="python -m model.training.worker",
                                description="one rank of a DDP training run; start it with torchrun")
    p.add_argument("command", choices=("worker",))
    p.add_argument("--config-json", required=True, help="a TrainConfig as JSON (TrainConfig.to_json)")
    p.add_argument("--resume", metavar="DIR")
    p.add_argument("--backend", choices=("nccl", "gloo"), help="default: nccl with CUDA, else gloo")
    a = p.parse_args(argv)
    cfg = TrainConfig.from_json(Path(a.config_json).read_text(encoding="utf-8"))
    resume = Path(a.resume) if a.resume else None
    out = run_folder(cfg, resume)
    backend = a.backend or ("nccl" if torch.cuda.is_available() else "gloo")
    local = int(os.environ.get("LOCAL_RANK", "0"))
    if backend == "nccl":
        torch.cuda.set_device(local)
    cfg = cfg.replace(out_dir=str(out), device=f"cuda:{local}" if backend == "nccl" else "cpu")
    # Generous: the other ranks wait in their next collective while rank 0 validates or saves.
    timeout = timedelta(minutes=30)
    if os.environ.get(INIT_ENV):  # our launcher (model.training.launch): a FileStore, no TCP store at all
        torch.distributed.init_process_group(backend, init_method=os.environ[INIT_ENV], timeout=timeout,
                                             rank=int(os.environ["RANK"]), world_size=int(os.environ["WORLD_SIZE"]))
    else:  # started by hand with torchrun: its rendezvous
        torch.distributed.init_process_group(backend, timeout=timeout)
    rank = torch.distributed.get_rank()
    _say(sys.stderr, f"{STARTED}: rank {rank} pid {os.getpid()}")
    control = TrainControl()
    for sig in (signal.SIGTERM, signal.SIGINT):  # torchrun forwards its own SIGTERM/SIGINT to us
        signal.signal(sig, lambda *_: control.stop())
    done = threading.Event()
    if rank == 0:
        threading.Thread(target=watch_files, args=(out, control, done), daemon=True).start()
    code = 0
    try:
        for rec in run_training(cfg, control, resume):
            if rec.event == "error":
                code = 1
                _say(sys.stderr, f"{FAILED} (rank {rank}): {rec.message}")
            if rank == 0:
                _say(sys.stdout, encode_record(rec, out / PROBES))
    except UserError as exc:
        code = 2
        _say(sys.stderr, f"{FAILED} (rank {rank}): {exc}")
        if rank == 0:
            rec = TrainProgress(0, cfg.max_steps, 0, math.nan, 0.0, 0.0, 0.0, event="error", message=str(exc))
            _say(sys.stdout, encode_record(rec, out / PROBES))
    finally:
        done.set()
    if rank == 0 and control.stopped:
        (out / STOP).unlink(missing_ok=True)  # consumed: a stale STOP would end the next run at once
    if code == 0:  # after a failure a peer may be stuck in a collective: leave it to torchrun to end
        torch.distributed.destroy_process_group()
    return code


if __name__ == "__main__":
    sys.exit(main())
