"""Atomic file and folder writes: a crash, a full disk or Ctrl-C never leaves a half-written one behind.

Write to a temporary file in the same folder, fsync it, rename it over the target, then fsync the folder
so the rename itself survives a power cut. A reader sees the old file or the new one, never a mix.
"""

from __future__ import annotations

import os
import secrets
import shutil
from collections.abc import Callable
from pathlib import Path


def fsync_dir(folder: Path) -> None:
    """Make a rename or a new entry in ``folder`` durable (a no-op where directories cannot be opened)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some filesystems refuse fsync on a directory; the data itself is already synced
    finally:
        os.close(fd)


def umask() -> int:
    """The process umask, read without changing it where Linux tells it (/proc), else set and restored."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def usual_mode(path: Path | str) -> None:
    """Give a file the permissions ``open()`` would have (0666 less the umask). safetensors writes its files
    0600, so a shared run folder's weights were unreadable to colleagues while every other file was not."""
    os.chmod(path, 0o666 & ~umask())


def check_writable(path: Path | str, option: str) -> None:
    """Refuse, in one line and before any work, an output path that cannot be written: a folder, a file in a
    missing or read-only folder. (The write itself stays atomic; this only moves the failure to the start.)"""
    from model.errors import UserError
    path = Path(path)
    if path.is_dir():
        raise UserError(f"{option} {path} is a folder; name a file")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise UserError(f"{option} {path}: the folder {parent} does not exist")
    if not os.access(parent, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise UserError(f"{option} {path}: not allowed to write there")


def write_atomic(path: Path | str, data: bytes | str) -> None:
    """Replace ``path`` with ``data`` (str is written as UTF-8) in one step."""
    path = Path(path)
    if isinstance(data, str):
        data = data.encode("utf-8")
    # os.open with 0o666 (not mkstemp's 0o600) so the file gets the umask's usual permissions.
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        with os.fdopen(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    fsync_dir(path.parent)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True  # someone else's process: not ours to judge
    return True


def remove_stale_temps(folder: Path | str) -> list[Path]:
    """Remove what a killed writer left in ``folder``: ``.tmp-NAME-PID`` / ``.old-NAME-PID`` folders and
    ``.NAME.PID.HEX.tmp`` files whose process is gone. A live writer's temporaries are left alone."""
    removed = []
    for p in Path(folder).glob(".*"):
        parts = p.name.rsplit("-", 1) if p.name.startswith((".tmp-", ".old-")) else p.name.split(".")
        pid = parts[-1] if p.name.startswith((".tmp-", ".old-")) else (parts[-3] if len(parts) >= 5 else "")
        if not pid.isdigit() or _alive(int(pid)):
            continue
        if p.is_dir():
            shutil.rmtree(p, ignore_errors=True)
        else:
            p.unlink(missing_ok=True)
        removed.append(p)
    return removed


def write_folder_atomic(final: Path | str, write: Callable[[Path], None]) -> Path:
    """Replace the folder ``final`` with what ``write(tmp)`` puts into a temporary sibling, in one rename.

    A reader (or a run resumed after a crash) sees the old folder or the complete new one, never a
    checkpoint with weights but no tokenizer.
    """
    final = Path(final)
    final.parent.mkdir(parents=True, exist_ok=True)
    tmp = final.parent / f".tmp-{final.name}-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    try:
        write(tmp)
        for f in tmp.iterdir():  # make the data durable before the rename publishes it
            with open(f, "rb") as fh:
                os.fsync(fh.fileno())
        fsync_dir(tmp)
        old = None
        if final.exists():
            old = final.parent / f".old-{final.name}-{os.getpid()}"
            os.replace(final, old)
        os.replace(tmp, final)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    fsync_dir(final.parent)
    return final
