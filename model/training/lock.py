"""One training run per run folder at a time.

Two ``train`` processes given the same ``--out`` once wrote over each other's checkpoints and LATEST. The
lock is an advisory ``flock`` on ``RUN/.lock``, held by the process that writes the folder (rank 0 under
DDP) for as long as it trains: the kernel drops it when that process ends, however it ends, so a run killed
with ``kill -9`` never leaves a stale lock that blocks the resume. The file itself stays (it records the
holder's pid for the message) and means nothing without the lock on it. Where ``fcntl`` is missing (Windows)
there is no lock, as before.
"""

from __future__ import annotations

import os
from pathlib import Path

from model.errors import UserError

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None

LOCK = ".lock"


class RunLock:
    def __init__(self, folder: Path) -> None:
        self.path = Path(folder) / LOCK
        self._fd: int | None = None

    def acquire(self) -> RunLock:
        if fcntl is None:
            return self
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o666)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.read(fd, 32).decode("ascii", "replace").strip() or "?"
            os.close(fd)
            raise UserError(f"another training run (pid {holder}) is writing to {self.path.parent}; "
                            "wait for it or stop it (touch STOP in the folder), or choose another --out") from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode("ascii"))
        self._fd = fd
        return self

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing drops the flock
            self._fd = None
