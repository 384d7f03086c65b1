"""What several commands read the same way: the model a command names (a text file's lines come from
``model.analysis.held_out.read_lines``).

A module of its own so that ``commands``, ``heads`` and ``align`` share it without importing one
another (``commands`` registers the other two, so importing back from it would close a circle). Torch-
free at import: ``load_model`` is imported when a command runs, so ``--help`` stays quick.
"""

from __future__ import annotations

from model.errors import UserError

MODEL_HELP = ("model or run folder, a built-in model's name (en-de, en-zh; default en-de), or a Hub model "
              "downloaded with get-model (owner/name)")
# Every command's --device reads the same (one device check answers for all of them).
DEVICE_HELP = "where to run: cpu (default), cuda, cuda:N or mps, where this torch build has them"


def load_model_arg(a):
    """The model of ``--model`` (or the built-in one), on ``--device``."""
    from model.builtin import resolve_model_arg
    from model.checkpoint import default_model_dir, load_model
    from model.training.device import resolve_device
    resolve_device(a.device)  # --device cuda on a CPU build: one line before anything loads
    path = resolve_model_arg(a.model) if a.model else default_model_dir()
    if path is None:
        raise UserError("no model given and no built-in model in assets/models; use --model DIR")
    return load_model(path, a.device)
