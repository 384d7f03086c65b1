"""The native steps (draft_step.c, rows_step.c), compiled once per machine into a user cache and loaded with ctypes.

Why compiled here rather than shipped: the steps are only worth having when they use this CPU's vector
instructions (``-march=native``: AVX2 or AVX-512 on the machines measured), and the C files compile in
~1 s with no headers but the C library's. A machine without a C compiler (most Windows and macOS desktops), or where
compiling fails, simply drafts and searches through PyTorch as before (model/decoding/speculative.py,
decode.py): same translations, slower. ``ATTENTION_EXPLORER_NATIVE=0`` turns the native step off.

The library's name carries a hash of the sources, the compiler's version, the flags and the CPU, so an
edited source, another compiler or another CPU builds anew; it is written to a part file and renamed
(``_compile``).
"""

from __future__ import annotations

import atexit
import ctypes
import hashlib
import os
import platform
import shlex
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).parent
SOURCES = (HERE / "draft_step.c", HERE / "rows_step.c", HERE / "beam_top.c", HERE / "encoder_pass.c",
           HERE / "attend_rows.c", HERE / "step_ops.c", HERE / "eval_step.c")
HEADERS = (HERE / "step_common.h", HERE / "batch_common.h")
FLAGS = ("-O3", "-march=native", "-shared", "-fPIC", "-fno-math-errno")

_lock = threading.Lock()
_state: dict[str, object] = {}  # "library": the loaded CDLL or None (failed); "thread": a build under way


def enabled() -> bool:
    return os.environ.get("ATTENTION_EXPLORER_NATIVE", "1") != "0"


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "attention-explorer" / "native"


def compiler() -> str | None:
    for name in (os.environ.get("CC"), "cc", "gcc", "clang"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def cpu_identity() -> str:
    """What ``-march=native`` compiles for: the CPU's model and instruction-set flags. A library built on
    a CPU with AVX-512 dies of SIGILL on one without, so a home folder that moves to another machine
    (a disk image, a shared home, a cloud instance resized) must build anew, not load the old one."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            lines = [ln for ln in f.read(1 << 16).splitlines() if ln.startswith(("model name", "flags"))]
        return "\n".join(dict.fromkeys(lines))  # each line once: every core repeats them
    except OSError:  # not Linux: the processor's name, as the platform gives it
        return f"{platform.machine()} {platform.processor()}"


def _key(cc: str) -> str:
    version = subprocess.run([cc, "--version"], capture_output=True, text=True, timeout=30).stdout
    text = (b"".join(f.read_bytes() for f in SOURCES + HEADERS) + version.encode() + " ".join(FLAGS).encode()
            + cpu_identity().encode())
    return hashlib.sha256(text).hexdigest()[:16]


def _target(cc: str) -> Path:
    return cache_dir() / f"steps-{_key(cc)}.so"


PART = ".so.part"  # a compile's output until it is complete and renamed
STALE_S = 600  # a part file this old belongs to no compile still running (one takes ~1 s, at most 120)


def _sweep(folder: Path) -> None:
    """Remove the part files of compiles that were killed (or, before 2026-12-06, of a daemon thread's
    compile that died with a short process: ``tmp*.so``)."""
    now = time.time()
    for path in [*folder.glob(f"*{PART}"), *folder.glob("tmp*.so")]:
        try:
            if now - path.stat().st_mtime > STALE_S:
                path.unlink()
        except OSError:
            pass  # another process swept it first


def _compile(cc: str, target: Path) -> None:
    """Compile the sources into ``target``: into a part file, renamed when complete, so two processes
    building at once never load half a file.

    Where there is a shell, the compile and its rename run in a process of their own session: a short-lived
    process (the command line's ``translate`` exits in ~2 s) may end while it runs, and the library is
    still there for the next start. Compiled in a daemon thread, it died with the process and left its
    temporary file, so a user of the command line alone never got the native steps."""
    target.parent.mkdir(parents=True, exist_ok=True)
    _sweep(target.parent)
    fd, part = tempfile.mkstemp(suffix=PART, dir=target.parent)
    os.close(fd)
    command = [cc, *FLAGS, "-o", part, *map(str, SOURCES), "-lm"]
    sh = shutil.which("sh")
    if sh is None:  # compiled here: a process exiting meanwhile leaves a part file for a later sweep
        _spawned.set()
        try:
            subprocess.run(command, check=True, capture_output=True, timeout=120)
            os.replace(part, target)
        finally:
            if os.path.exists(part):
                os.unlink(part)
        return
    script = f"{shlex.join(command)} && mv -f {shlex.quote(part)} {shlex.quote(str(target))}; rm -f {shlex.quote(part)}"
    try:
        compiling = subprocess.Popen([sh, "-c", script], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                     start_new_session=True)
    finally:
        _spawned.set()  # exiting is safe from here on (``_at_exit``)
    compiling.wait(timeout=120)


_spawned = threading.Event()  # set once a background build has handed its compile to a process of its own


@atexit.register
def _at_exit() -> None:
    """A process exiting right after starting a build waits the moment it takes to hand the compile to its
    own process (a daemon thread dies at exit; the compile it started lives on)."""
    with _lock:
        building = "thread" in _state and "library" not in _state
    if building:
        _spawned.wait(timeout=5)


def _build() -> ctypes.CDLL | None:
    """Compile (unless cached) and load; None where there is no compiler or it fails."""
    cc = compiler()
    if cc is None:
        return None
    try:
        target = _target(cc)
        if not target.exists():
            _compile(cc, target)
        lib = ctypes.CDLL(str(target))
    except (OSError, subprocess.SubprocessError):
        return None
    fn = lib.ae_step
    fn.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_int,
                   ctypes.c_void_p]
    fn.restype = ctypes.c_int
    fn = lib.ae_rows_step
    fn.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_int,
                   ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
    fn.restype = ctypes.c_int
    fn = lib.ae_product
    fn.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_int,
                   ctypes.c_int]
    fn.restype = None
    fn = lib.ae_encode
    fn.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p,
                   ctypes.c_void_p, ctypes.c_void_p]
    fn.restype = ctypes.c_int
    fn = lib.ae_beam_top
    fn.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_void_p,
                   ctypes.c_void_p]
    fn.restype = ctypes.c_int
    fn = lib.ae_attend_rows
    fn.argtypes = ([ctypes.c_void_p] * 4 + [ctypes.c_int] * 5 + [ctypes.c_long] * 5 + [ctypes.c_void_p] * 2
                   + [ctypes.c_long, ctypes.c_void_p])
    fn.restype = None
    fn = lib.ae_argmax_rows
    fn.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_long, ctypes.c_int, ctypes.c_void_p]
    fn.restype = None
    fn = lib.ae_add_norm_rows
    fn.argtypes = [ctypes.c_void_p] * 4 + [ctypes.c_int, ctypes.c_int, ctypes.c_long, ctypes.c_float]
    fn.restype = None
    fn = lib.ae_eval_supported
    fn.argtypes, fn.restype = [], ctypes.c_int
    fn = lib.ae_eval_product
    fn.argtypes = [ctypes.c_void_p, ctypes.c_void_p] + [ctypes.c_int] * 4 + [ctypes.c_void_p] * 3
    fn.restype = ctypes.c_int
    fn = lib.ae_eval_step
    fn.argtypes = [ctypes.c_void_p] * 3 + [ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int,
                                           ctypes.c_void_p]
    fn.restype = ctypes.c_int
    fn = lib.ae_rows_reorder
    fn.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p]
    fn.restype = ctypes.c_int
    return lib


def _run_build() -> None:
    try:
        lib = _build()
    finally:
        _spawned.set()  # done, or failed before any hand-over: nothing for an exit to wait for
    with _lock:
        _state["library"] = lib


def pending() -> bool:
    """Whether a build has started and not finished."""
    with _lock:
        return "thread" in _state and "library" not in _state


def _compiled() -> bool:
    """Whether this machine's cache holds the library for these sources and this compiler (then loading
    it takes milliseconds: no reason to do it in the background)."""
    cc = compiler()
    try:
        return cc is not None and _target(cc).is_file()
    except (OSError, subprocess.SubprocessError):
        return False


def library(wait: bool = True) -> ctypes.CDLL | None:
    """The loaded library, or None: not (yet) available. ``wait=False`` loads a library already compiled
    at once, and otherwise starts a build in the background on first call and returns None until it is
    done, so a translation never waits for the compiler."""
    if not enabled():
        return None
    with _lock:
        if "library" in _state:
            return _state["library"]  # type: ignore[return-value]
        thread = _state.get("thread")
        if thread is None and _compiled():
            _state["library"] = _build()
            return _state["library"]  # type: ignore[return-value]
        if thread is None:
            thread = threading.Thread(target=_run_build, name="native-build", daemon=True)
            _state["thread"] = thread
            thread.start()
    if not wait:
        return None
    thread.join()  # type: ignore[union-attr]
    return _state.get("library")  # type: ignore[return-value]
