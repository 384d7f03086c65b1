"""Model and training configuration: frozen dataclasses with the paper's defaults.

A checkpoint stores ``ModelConfig`` as JSON and the model is rebuilt from it, so every field here must be
a plain number or string.
"""

from __future__ import annotations

import dataclasses
import json
import math
from dataclasses import dataclass, field
from pathlib import Path

from model.errors import UserError

PAD_ID, UNK_ID, BOS_ID, EOS_ID = 0, 1, 2, 3
PE_LAYOUTS = ("interleaved", "halves")
ACTIVATIONS = ("relu", "swish", "gelu")


# Upper bounds far above any model this app can train or show (the paper's big model: d_model 1024,
# 6 layers, 16 heads, d_ff 4096, 37,000 pieces), low enough that a wrong config fails at once.
LIMITS = {"vocab_size": 1_000_000, "n_layers": 64, "d_model": 8192, "n_heads": 256, "d_ff": 65536}


@dataclass(frozen=True)
class ModelConfig:
    """The Transformer of Vaswani et al. (2017); defaults are the paper's base model."""

    vocab_size: int = 37000  # joint source/target vocabulary (the paper's shared BPE); the target's if split
    n_layers: int = 6  # N: identical layers in the encoder and in the decoder
    d_model: int = 512
    n_heads: int = 8  # h; d_k = d_v = d_model / h
    d_ff: int = 2048
    dropout: float = 0.1  # P_drop: on embeddings+PE and on every sub-layer output
    attn_dropout: float = 0.0  # on attention weights; the paper does not use it (0 = paper)
    # Section 3.4: one matrix for the source and target embeddings and the pre-softmax projection.
    # False gives each of the three its own matrix (an ablation; costs 2 × vocab_size × d_model weights).
    share_embeddings: bool = True
    norm_eps: float = 1e-5
    pad_id: int = PAD_ID
    bos_id: int = BOS_ID  # the decoder's first input (Marian: decoder_start_token_id, which is its pad)
    eos_id: int = EOS_ID
    # Options that other models of the paper's kind set differently (an imported Marian/OPUS-MT model);
    # the defaults are the paper's, so existing config.json files load unchanged.
    pe_layout: str = "interleaved"  # sin/cos interleaved (§3.5) | "halves": all sines, then all cosines
    activation: str = "relu"  # of the feed-forward layer: relu (eq. 2) | swish (= silu) | gelu
    scale_embedding: bool = True  # multiply embeddings by √d_model (§3.4)
    final_logits_bias: bool = False  # a fixed (V,) bias added to the output logits
    # A source vocabulary of its own (Marian models with separate vocabularies): the encoder's embedding
    # has this many rows, the decoder's and the output projection keep vocab_size. 0 = the paper's one
    # joint vocabulary. Needs share_embeddings false: one matrix cannot have two heights.
    src_vocab_size: int = 0

    def __post_init__(self) -> None:
        # A config.json is untrusted input: check types and sizes before anything allocates. JSON's
        # 256.0, "256" and true are not sizes, and a d_model of 10^9 would exhaust memory, not fail.
        for name, limit in LIMITS.items():
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise UserError(f"{name} must be a whole number, got {value!r}")
            if not 1 <= value <= limit:
                raise UserError(f"{name} must be between 1 and {limit:,}, got {value:,}")
        if not isinstance(self.pad_id, int) or isinstance(self.pad_id, bool) or not 0 <= self.pad_id < self.vocab_size:
            raise UserError(f"pad_id must be a piece id below vocab_size, got {self.pad_id!r}")
        for name in ("dropout", "attn_dropout", "norm_eps"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                raise UserError(f"{name} must be a number, got {value!r}")
        if self.d_model % self.n_heads:
            raise UserError(f"d_model ({self.d_model}) must be divisible by n_heads ({self.n_heads})")
        if not isinstance(self.share_embeddings, bool):
            raise UserError(f"share_embeddings must be true or false, got {self.share_embeddings!r}")
        if self.vocab_size < 5:
            raise UserError("vocab_size must leave room for the 4 special pieces")
        if self.pe_layout not in PE_LAYOUTS:
            raise UserError(f"pe_layout must be one of {', '.join(PE_LAYOUTS)}, got {self.pe_layout!r}")
        if self.activation not in ACTIVATIONS:
            raise UserError(f"activation must be one of {', '.join(ACTIVATIONS)}, got {self.activation!r}")
        for name in ("scale_embedding", "final_logits_bias"):
            if not isinstance(getattr(self, name), bool):
                raise UserError(f"{name} must be true or false, got {getattr(self, name)!r}")
        if not isinstance(self.src_vocab_size, int) or isinstance(self.src_vocab_size, bool) or not (
                self.src_vocab_size == 0 or 5 <= self.src_vocab_size <= LIMITS["vocab_size"]):
            raise UserError(f"src_vocab_size must be 0 (shared) or between 5 and {LIMITS['vocab_size']:,}, "
                            f"got {self.src_vocab_size!r}")
        if self.src_vocab_size and self.share_embeddings:
            raise UserError("a separate source vocabulary (src_vocab_size) needs share_embeddings false")
        for name in ("pad_id", "bos_id", "eos_id"):
            if not 0 <= getattr(self, name) < self.vocab_size:
                raise UserError(f"{name} ({getattr(self, name)}) is outside the vocabulary of {self.vocab_size}")
        for name in ("dropout", "attn_dropout"):
            if not 0.0 <= getattr(self, name) < 1.0:
                raise UserError(f"{name} must be in [0, 1), got {getattr(self, name)}")
        if not 0.0 < self.norm_eps < 1.0:
            raise UserError(f"norm_eps must be in (0, 1), got {self.norm_eps}")
        if not 0 <= self.pad_id < self.source_vocab_size:  # the source is padded with it too
            raise UserError(f"pad_id ({self.pad_id}) is outside the source vocabulary of {self.source_vocab_size}")

    @property
    def source_vocab_size(self) -> int:
        """Rows of the encoder's embedding: src_vocab_size when the source has its own vocabulary."""
        return self.src_vocab_size or self.vocab_size

    @property
    def d_k(self) -> int:
        return self.d_model // self.n_heads

    def replace(self, **changes) -> ModelConfig:
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> ModelConfig:
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = set(data) - names
        if unknown:
            raise UserError(f"unknown model config fields: {', '.join(sorted(unknown))}")
        return cls(**data)


PRESETS: dict[str, ModelConfig] = {
    # For tests and classroom demos: learns toy tasks in seconds on a CPU.
    "tiny": ModelConfig(vocab_size=64, n_layers=2, d_model=64, n_heads=4, d_ff=256, dropout=0.0),
    # Trainable on 2 CPU cores in hours; keeps 8 heads per layer so the views look like the paper's.
    "small": ModelConfig(vocab_size=8000, n_layers=4, d_model=256, n_heads=8, d_ff=1024, dropout=0.1),
    "base": ModelConfig(),
    "big": ModelConfig(d_model=1024, n_heads=16, d_ff=4096, dropout=0.3),
}


def preset(name: str, **overrides) -> ModelConfig:
    if name not in PRESETS:
        raise UserError(f"unknown preset {name!r}; choose one of {', '.join(PRESETS)}")
    return PRESETS[name].replace(**overrides) if overrides else PRESETS[name]


_KINDS = {"str": ((str,), "a string"), "int": ((int,), "a whole number"), "float": ((int, float), "a number"),
          "bool": ((bool,), "true or false"), "None": ((type(None),), "null")}


def _field_problem(name: str, annotation: str, value) -> str | None:
    """Why ``value`` cannot be the TrainConfig field ``name`` (annotated ``annotation``, e.g. "int | None"),
    or None. JSON's true is no count and NaN no learning rate; counts and seeds are never negative."""
    kinds = [k.strip() for k in annotation.split("|")]
    if not all(k in _KINDS for k in kinds):
        return None  # a field of a richer type (none yet besides model and stages) checks itself
    for kind in kinds:
        types = _KINDS[kind][0]
        if isinstance(value, types) and (kind == "bool" or not isinstance(value, bool)):
            if kind == "float" and not math.isfinite(value):
                return f"{name} must be a finite number, got {value!r}"
            if kind == "int" and value < 0:
                return f"{name} must be at least 0, got {value!r}"
            return None
    return f"{name} must be {' or '.join(_KINDS[k][1] for k in kinds)}, got {value!r:.40}"


@dataclass(frozen=True)
class TrainConfig:
    """Everything a training run needs besides the data; saved next to each checkpoint."""

    out_dir: str
    model: ModelConfig = field(default_factory=lambda: PRESETS["small"])
    vocab_size: int | None = None  # tokenizer size; None = model.vocab_size
    max_steps: int | None = 1000
    max_minutes: float | None = None
    warmup_steps: int = 4000
    lr_scale: float = 1.0  # multiplies the paper's schedule (the paper uses 1.0)
    batch_tokens: int = 4096  # source+target tokens per batch (padding included)
    length_buckets: bool = True  # batch sentences of similar length (less padding); see data.make_batches
    label_smoothing: float = 0.1
    clip_norm: float | None = 1.0
    valid_every: int = 500
    valid_bleu_sentences: int = 200  # greedy-decoded for BLEU at each validation
    checkpoint_every: int = 500
    keep_checkpoints: int = 5
    seed: int = 1
    device: str = "cpu"
    amp: bool = True  # CUDA only: bf16 where supported, else fp16 with a loss scaler
    # CPU only: bf16 autocast on CPUs with native bf16 (see model.training.device.amp_context); opt-in
    cpu_amp: bool = False
    max_tokens_per_sentence: int = 128  # longer pairs are skipped (and reported)
    n_valid: int = 500  # held out of the training corpus when no valid set is given
    probe_sentence: str = ""  # translated at each report_every for the live attention view
    probe_every: int = 0  # 0 = never
    report_every: int = 10
    threads: int | None = None  # torch CPU threads; None = torch's default
    # The data, so that a run folder alone is enough to resume: aligned files, a TSV, or a built-in task.
    src: str = ""
    tgt: str = ""
    tsv: str = ""
    task: str = ""  # reverse | copy | sort | dates (model.training.tasks)
    task_size: int = 50_000
    valid_src: str = ""
    valid_tgt: str = ""
    # A run continued on another corpus (e.g. fine-tuned on a mix that weights real sentences more) keeps
    # what it trained on before, oldest first: {"src", "tgt", "tsv", "task", "until_step"} each. A model
    # card reads it to say what the weights saw; nothing in training depends on it.
    stages: tuple[dict, ...] = ()
    # Which run wrote a checkpoint (kept across resumes, new for a fresh run): pruning removes only this
    # run's older checkpoints, never those of a run it replaced with --overwrite that happen to sort later.
    run_id: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.keep_checkpoints, int) or self.keep_checkpoints < 1:
            raise UserError("keep_checkpoints (--keep) must be at least 1: the checkpoint just saved is kept")
        if self.batch_tokens < 16:
            raise UserError("batch_tokens must be at least 16")
        if self.warmup_steps < 1:
            raise UserError("warmup_steps must be at least 1")
        if self.max_steps is not None and self.max_steps < 1:
            raise UserError("max_steps must be at least 1")
        if sum(bool(x) for x in (self.src or self.tgt, self.tsv, self.task)) > 1:
            raise UserError("give one corpus: --src/--tgt, --tsv or --task")
        if bool(self.src) != bool(self.tgt):
            raise UserError("--src and --tgt go together")

    def replace(self, **changes) -> TrainConfig:
        return dataclasses.replace(self, **changes)

    def to_json(self) -> str:
        d = dataclasses.asdict(self)
        return json.dumps(d, indent=2, sort_keys=True)

    @classmethod
    def from_json(cls, text: str, where: str = "the training config") -> TrainConfig:
        """A saved train_config.json, which anyone can edit: every message names ``where`` (the file) and the
        field that is wrong, and a value of the wrong type is refused here, not as a traceback mid-run."""
        from model.safe_json import loads
        d = loads(text, where)
        if not isinstance(d, dict):
            raise UserError(f"{where} is not a training config of this app: it holds no JSON object")
        if "model" not in d:
            raise UserError(f"{where} is not a training config of this app: it has no 'model' section")
        if not isinstance(d["model"], dict):
            raise UserError(f"{where}: 'model' must be an object of the model's sizes, got {d['model']!r:.40}")
        try:
            d["model"] = ModelConfig.from_dict(d["model"])
        except (TypeError, UserError) as exc:
            raise UserError(f"{where}: model: {exc}") from None
        stages = d.get("stages") or ()
        if not isinstance(stages, (list, tuple)) or not all(isinstance(x, dict) for x in stages):
            raise UserError(f"{where}: stages must be a list of objects, got {stages!r:.40}")
        d["stages"] = tuple(stages)
        fields = {f.name: f.type for f in dataclasses.fields(cls)}
        for name, annotation in fields.items():
            if name in d and name not in ("model", "stages"):
                problem = _field_problem(name, annotation, d[name])
                if problem:
                    raise UserError(f"{where}: {problem}")
        try:
            return cls(**{k: v for k, v in d.items() if k in fields})
        except (TypeError, UserError) as exc:  # the checks of __post_init__, which name their field
            raise UserError(f"{where}: {exc}") from None

    @property
    def out_path(self) -> Path:
        return Path(self.out_dir)
