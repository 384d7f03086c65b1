"""The launcher of a run on several local processes: ``python -m model.training.launch --nproc-per-node N -m
MODULE ARGS…``, what ``torchrun --standalone`` did for the window and ``train --gpus N``, on loopback only.

Why not torchrun: its agent listens on every network interface (the c10d rendezvous store and the master
store, two TCP ports on ``*``, measured with ``ss -ltnp`` under torch 2.13), and offers no option to bind
them to loopback. A run on one machine needs no network at all, so this launcher gives the ranks a
``FileStore`` in a private temporary folder (``ATTENTION_EXPLORER_INIT``, read by model.training.worker)
instead of a TCP store, and pins gloo's and NCCL's own sockets to the loopback interface. Nothing listens
beyond 127.0.0.1. A run started by hand with torchrun (several machines) still works: the worker falls back
to torchrun's environment when the variable is absent.

What it keeps of torchrun's behaviour, which model.training.torchrun relies on: the ranks share its stdout
and stderr; SIGTERM or SIGINT is passed on to every rank and whatever still runs 30 s later is killed; when
one rank fails, the others are ended and the launcher exits with code 1 after a line naming the rank and its
exit code; when all succeed it exits 0.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

INIT_ENV = "ATTENTION_EXPLORER_INIT"  # file:// URL of the ranks' FileStore
KILL_AFTER_S = 30.0  # as torchrun: a rank that ignores SIGTERM this long is killed


def rank_env(base: dict, rank: int, world: int, init: str) -> dict:
    """The environment of rank ``rank``: torchrun's variables (the worker reads LOCAL_RANK for its GPU), the
    FileStore, and gloo's and NCCL's sockets on loopback."""
    return dict(base, RANK=str(rank), LOCAL_RANK=str(rank), WORLD_SIZE=str(world), LOCAL_WORLD_SIZE=str(world),
                GROUP_RANK="0", **{INIT_ENV: init}, GLOO_SOCKET_IFNAME="lo", NCCL_SOCKET_IFNAME="lo",
                MASTER_ADDR="127.0.0.1")


def _stop_all(procs: list[subprocess.Popen], sig: int = signal.SIGTERM) -> None:
    """Send ``sig`` to every rank still running, then kill what is left after KILL_AFTER_S."""
    for p in procs:
        if p.poll() is None:
            p.send_signal(sig)
    deadline = time.monotonic() + KILL_AFTER_S
    for p in procs:
        try:
            p.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


def _why(code: int) -> str:
    return f"Signal {-code} ({signal.Signals(-code).name})" if code < 0 else f"exit code {code}"


def launch(n: int, command: list[str]) -> int:
    """Run ``python COMMAND`` as ranks 0…n−1 of one process group; the launcher's exit code."""
    folder = tempfile.mkdtemp(prefix="attention-explorer-ranks-")  # private (0700): the store is ours alone
    init = "file://" + os.path.join(folder, "store")
    stopping = []
    procs: list[subprocess.Popen] = []

    def on_signal(signum, _frame) -> None:
        stopping.append(signum)

    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, on_signal)
    try:
        procs = [subprocess.Popen([sys.executable, *command], env=rank_env(os.environ, r, n, init))
                 for r in range(n)]
        while True:
            if stopping:
                _stop_all(procs)
                return 1 if any(p.returncode != 0 for p in procs) else 0
            failed = next(((r, p.returncode) for r, p in enumerate(procs) if p.poll() not in (None, 0)), None)
            if failed is not None:
                rank, code = failed
                print(f"attention-explorer launch: rank {rank} (pid {procs[rank].pid}) failed with {_why(code)}; "
                      f"exitcode {code}", file=sys.stderr, flush=True)
                _stop_all(procs)
                return 1
            if all(p.poll() == 0 for p in procs):
                return 0
            time.sleep(0.1)
    finally:
        _stop_all(procs, signal.SIGKILL)  # nothing outlives the launcher
        shutil.rmtree(folder, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m model.training.launch",
                                description="run N local training processes, on loopback only")
    p.add_argument("--nproc-per-node", type=int, required=True, metavar="N")
    p.add_argument("-m", dest="module", required=True, metavar="MODULE")
    p.add_argument("args", nargs=argparse.REMAINDER)
    a = p.parse_args(argv)
    if a.nproc_per_node < 1:
        p.error("--nproc-per-node must be at least 1")
    return launch(a.nproc_per_node, ["-m", a.module, *a.args])


if __name__ == "__main__":
    sys.exit(main())
