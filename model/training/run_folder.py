"""Which folder a training run may write into: a new or empty one, its own run's, never a folder of the
user's files.

A run writes step-* checkpoints, LATEST, log.jsonl and .lock into its folder, and takes a STOP or PAUSE
there for its own (model/training/control.py). So a fresh run refuses a folder that already holds a run
(its LATEST would move back to step 1) unless it resumes that very run, and any run refuses a folder that
holds other files and no run (``train --out docs`` deleted a STOP of the user's). The command line and the
window's Train tab ask the same questions; each says in its own words how to resume or start over.
"""

from __future__ import annotations

from pathlib import Path

from model.checkpoint import LATEST
from model.errors import UserError


def holds_run(folder: Path | str) -> bool:
    """Whether ``folder`` already holds a training run (a LATEST file or step-* checkpoints)."""
    folder = Path(folder).expanduser()
    return folder.is_dir() and ((folder / LATEST).exists() or any(folder.glob("step-*")))


def check_not_foreign(out: Path | str, named: str = "") -> None:
    """Refuse a folder that holds files but no run (``named``: how the message names it, default the path):
    the run would write its checkpoints, LATEST and log.jsonl among them and take a STOP or PAUSE of the
    user's for its own (``train --out docs`` deleted one). Also with --overwrite, which starts over a run."""
    from model.training.control import is_run_folder
    out = Path(out).expanduser()
    if out.is_dir() and not is_run_folder(out) and any(out.iterdir()):
        raise UserError(f"{named or out} holds other files and no run; choose a new or empty folder for the run")


def check_new_run(out: Path | str, resume: Path | str | None = None,
                  resume_hint: str = "--resume {out}", overwrite_hint: str = "--overwrite") -> None:
    """Refuse to start a fresh run in a folder that holds one: its LATEST would move back to step 1.

    Resuming that same run is fine; the hints name how the caller's interface resumes or overwrites.
    """
    out = Path(out).expanduser()
    if out.exists() and not out.is_dir():
        raise UserError(f"{out} is a file, not a folder: choose a folder for the run")
    check_not_foreign(out)
    if not holds_run(out):
        return
    if resume is not None:
        resumed = Path(resume).expanduser().resolve()
        if out.resolve() in (resumed, resumed.parent):
            return
    raise UserError(f"{out} already holds a training run: continue it with {resume_hint.format(out=out)}, "
                    f"choose another folder, or {overwrite_hint} to start over in it")
