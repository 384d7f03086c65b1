"""What several commands read the same way: the model a command names, and a text file's lines.

A module of its own so that ``commands``, ``heads`` and ``align`` share these without importing one
another (``commands`` registers the other two, so importing back from it would close a circle). Torch-
free at import: ``load_model`` is imported when a command runs, so ``--help`` stays quick.
"""

from __future__ import annotations

from pathlib import Path

from model.errors import UserError


def load_model_arg(a):
    """The model of ``--model`` (or the built-in one), on ``--device``."""
    from model.checkpoint import default_model_dir, load_model
    path = a.model or default_model_dir()
    if path is None:
        raise UserError("no model given and no built-in model in assets/default-model; use --model DIR")
    return load_model(path, a.device)


def read_lines(path: str, what: str) -> list[str]:
    """The lines of a UTF-8 text file; a one-line UserError naming ``what`` if it cannot be read."""
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"cannot read the {what} file {path}: {exc}") from None
    return lines
