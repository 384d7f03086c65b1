"""Atomic file and folder writes: a crash, a full disk or Ctrl-C never leaves a half-written one behind.

Write to a temporary file in the same folder, fsync it, rename it over the target, then fsync the folder
so the rename itself survives a power cut. A reader sees the old file or the new one, never a mix.
"""

from __future__ import annotations

import hashlib
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


NAME_MAX = 255  # bytes in one file name on Linux's file systems (and macOS's)


def temp_name(name: str) -> str:
    """``name`` as it goes into a temporary sibling's name: whole when short, else a head and a hash of the
    whole. A legal 245-byte output name plus ``.PID.HEX.tmp`` went past NAME_MAX, and the write failed
    (ENAMETOOLONG) after the work was done."""
    raw = name.encode("utf-8", "surrogateescape")  # a name of bytes that are not UTF-8 is a name too
    if len(raw) <= 100:
        return name
    return f"{raw[:60].decode('utf-8', 'ignore')}~{hashlib.sha1(raw).hexdigest()[:12]}"


def _check_name(path: Path, option: str, what: str) -> None:
    """One line for a file or folder name longer than the file system takes (ENAMETOOLONG after the work)."""
    from model.errors import UserError
    size = len(path.name.encode("utf-8", "surrogateescape"))
    if size > NAME_MAX:
        raise UserError(f"{option}: the {what} name is too long ({size} bytes; at most {NAME_MAX})")


def check_writable(path: Path | str, option: str, inputs: tuple[tuple[str, Path | str | None], ...] = ()) -> None:
    """Refuse, in one line and before any work, an output path that cannot be written: a folder, a file in a
    missing or read-only folder, a name too long, or one of the command's own ``inputs`` ((option, path)
    pairs): ``translate --file a.txt --out a.txt`` replaced the text with its translation, and
    ``evaluate --hyp-out`` on its ``--ref`` made the references the hypotheses. (The write itself stays
    atomic; this only moves the failure to the start.)"""
    from model.errors import UserError
    path = Path(path)
    _check_name(path, option, "file")
    for other, given in inputs:
        if given and path.exists() and Path(given).exists() and os.path.samefile(path, given):
            raise UserError(f"{option} {path} is the {other} file it reads; write to another file")
    if path.is_dir():
        raise UserError(f"{option} {path} is a folder; name a file")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise UserError(f"{option} {path}: the folder {parent} does not exist")
    if not os.access(parent, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise UserError(f"{option} {path}: not allowed to write there")


def check_new_folder(path: Path | str, option: str, overwrite: str = "") -> None:
    """Refuse, in one line and before any work, an output folder that exists and holds files, or is a file:
    ``average --out runs/mine`` replaced a whole training run with the averaged model, and a file named
    there turned into a folder. ``overwrite``: the option that allows writing into it anyway, if any."""
    from model.errors import UserError
    path = Path(path)
    _check_name(path, option, "folder")
    if path.exists() and not path.is_dir():
        raise UserError(f"{option} {path} is a file; name a new folder")
    if path.is_dir() and any(path.iterdir()):
        also = f", or add {overwrite} to write into it" if overwrite else ""
        raise UserError(f"{option} {path} already holds files; name a new or empty folder{also} (nothing was "
                        "written)")


def write_atomic(path: Path | str, data: bytes | str) -> None:
    """Replace ``path`` with ``data`` (str is written as UTF-8) in one step."""
    path = Path(path)
    if isinstance(data, str):
        data = data.encode("utf-8")
    # os.open with 0o666 (not mkstemp's 0o600) so the file gets the umask's usual permissions.
    tmp = path.with_name(f".{temp_name(path.name)}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
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
    tmp = final.parent / f".tmp-{temp_name(final.name)}-{os.getpid()}"
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
            old = final.parent / f".old-{temp_name(final.name)}-{os.getpid()}"
            os.replace(final, old)
        os.replace(tmp, final)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    fsync_dir(final.parent)
    return final
