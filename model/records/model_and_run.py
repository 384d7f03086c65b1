"""Records of the loaded model's facts (the info panel) and of a training run's reports (the CLI and the
Train tab). Torch-free, like the rest of ``model.records``; importable from the package itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # only an annotation here (a probe's translation): no import cycle at run time
    from model.records import Translation


@dataclass(frozen=True)
class ModelInfo:
    """What the info panel shows about a loaded model."""

    path: str
    config: tuple[tuple[str, object], ...]  # (field, value) pairs of ModelConfig
    n_params: int
    vocab_size: int
    device: str
    d_model: int
    n_layers: int
    n_heads: int
    note: str = ""
    origin: str = "native"  # "native" (trained here), "marian" (a Hugging Face folder) or "marian-import"
    d_ff: int = 0
    pe_layout: str = "interleaved"  # how the model lays out its sinusoids (ModelConfig.pe_layout)
    # Sequences longer than this were skipped in training (TrainConfig.max_tokens_per_sentence, read from
    # the folder's train_config.json), so positions >= it were never seen; 0 when the folder does not say.
    max_train_length: int = 0
    licence: str = ""  # the weights' licence (model.licence.model_licence); "" when the folder does not say


@dataclass(frozen=True)
class TrainProgress:
    """One report from a training run; the CLI and the GUI worker both consume these."""

    step: int
    max_steps: int | None
    epoch: int
    loss: float  # label-smoothed training loss per target token (mean over the last reports' window)
    lr: float
    tokens_per_s: float
    elapsed_s: float
    eta_s: float | None = None
    valid_loss: float | None = None
    valid_bleu: float | None = None
    checkpoint: str | None = None  # folder written at this step, if any
    gpu_mem_mb: float | None = None
    probe: Translation | None = None
    event: str = "step"  # "step" | "valid" | "checkpoint" | "done" | "stopped" | "error"
    message: str = ""
    extra: dict = field(default_factory=dict, compare=False, hash=False)
