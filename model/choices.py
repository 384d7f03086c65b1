"""What the window's forms offer and check, in one torch-free module: the window's contract for settings.

The GUI thread may import this module (and ``model.records``) but no other model code: torch and the
model load on the workers' threads (``explorer.translate.worker``, ``explorer.training.worker``), so the window opens
at once. Everything here is plain data, and importing it loads neither torch nor sentencepiece. The
training and corpus modules read their choices from here, so a form and the code behind it cannot
disagree.
"""

from __future__ import annotations

from pathlib import Path

from model.config import PRESETS, ModelConfig, TrainConfig
from model.errors import CheckpointError, CorpusError, TrainingError, UserError

# The built-in synthetic tasks (``model.training.tasks`` makes their pairs).
TASKS = ("reverse", "copy", "sort", "dates")
# Where Debian's trans-de-en package installs the Ding dictionary (``model.corpus.ding`` reads it).
DING_PATH = Path("/usr/share/trans/de-en")

__all__ = ["DING_PATH", "PRESETS", "TASKS", "CheckpointError", "CorpusError", "ModelConfig", "TrainConfig",
           "TrainingError", "UserError", "corpus_options"]


def corpus_options() -> tuple[tuple[str, ...], bool]:
    """(the built-in synthetic tasks, whether the Ding dictionary is installed)."""
    return TASKS, DING_PATH.is_file()
