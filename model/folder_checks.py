"""What a model folder holds: its files' names, and the checks of its config.json and weights' header.

Apart from checkpoint.py (which builds, loads and saves models) because these checks run before anything
is built, and a resume (model/training/state.py, run.py) makes them on folders it never loads: a config
that does not match its weights is refused from the header alone, before the tensors take any memory.
"""

from __future__ import annotations

from pathlib import Path

from safetensors import SafetensorError, safe_open

from model.config import LIMITS, ModelConfig
from model.errors import CheckpointError, UserError
from model.safe_json import read_json
from model.transformer import uninitialised

CONFIG, WEIGHTS, SPM, STATE, LATEST = "config.json", "model.safetensors", "spm.model", "train_state.pt", "LATEST"
FLOAT_DTYPES = {"F16", "BF16", "F32", "F64"}


def read_config(folder: Path) -> tuple[ModelConfig, dict]:
    try:
        data = read_json(folder / CONFIG, CheckpointError, max_bytes=1 << 20)
    except FileNotFoundError:
        raise CheckpointError(f"{folder} has no {CONFIG}") from None
    if not isinstance(data, dict) or not isinstance(data.get("model"), dict):
        hint = ("; a Marian folder opens as it is, and trains once imported (import-marian SRC --out DIR)"
                if isinstance(data, dict) and data.get("model_type") == "marian" else "")
        raise CheckpointError(f"{folder / CONFIG} has no 'model' section: not an Attention Explorer model{hint}")
    # A saved config names every size: a missing one must not silently become the paper's default.
    absent = [name for name in LIMITS if name not in data["model"]]
    if absent:
        raise CheckpointError(f"{folder / CONFIG} lacks {', '.join(absent)} in its 'model' section")
    try:
        cfg = ModelConfig.from_dict(data["model"])
    except (TypeError, UserError) as exc:
        raise CheckpointError(f"{folder / CONFIG} holds an invalid model config: {exc}") from None
    check_meta(folder / CONFIG, data.get("meta", {}))
    return cfg, data


def check_meta(path: Path, meta) -> None:
    """The "meta" section and the fields of it that a resume reads as numbers (it continues their step, epoch
    and clock): of another type, they failed deep inside with a traceback. Others (note, origin, run) are
    only shown or compared, and their readers take any value."""
    if not isinstance(meta, dict):
        raise CheckpointError(f"{path}: 'meta' must be an object, got {meta!r:.40}")
    for name in ("step", "epoch"):
        value = meta.get(name, 0)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise CheckpointError(f"{path}: meta.{name} must be a whole number of at least 0, got {value!r:.40}")
    elapsed = meta.get("elapsed_s", 0.0)
    if not isinstance(elapsed, (int, float)) or isinstance(elapsed, bool) or not 0 <= elapsed < float("inf"):
        raise CheckpointError(f"{path}: meta.elapsed_s must be a number of seconds, got {elapsed!r:.40}")


def expected_shapes(cfg: ModelConfig) -> dict[str, tuple[int, ...]]:
    """The state dict's names and shapes for ``cfg``, from a model built on the meta device (no memory)."""
    model = uninitialised(cfg)
    return {name: tuple(t.shape) for name, t in model.state_dict().items()}


def check_weights_header(path: Path, cfg: ModelConfig) -> None:
    """Compare the tensor names, shapes and dtypes in a safetensors header with what ``cfg`` implies.

    Only the header is read, so a config that does not match its weights is refused before the model
    or the tensors take any memory.
    """
    try:
        with safe_open(str(path), framework="pt") as f:
            header = {name: (tuple(f.get_slice(name).get_shape()), f.get_slice(name).get_dtype())
                      for name in f.keys()}
    except (SafetensorError, OSError, ValueError) as exc:
        raise CheckpointError(f"{path} is corrupt or truncated ({exc})") from None
    expected = expected_shapes(cfg)
    missing, extra = sorted(set(expected) - set(header)), sorted(set(header) - set(expected))
    if missing or extra:
        raise CheckpointError(f"{WEIGHTS} does not match config.json: missing {missing[:3]}, unexpected {extra[:3]}")
    for name, (shape, dtype) in header.items():
        if shape != expected[name]:
            raise CheckpointError(f"{WEIGHTS}: {name} has shape {shape}, config.json implies {expected[name]}")
        if dtype not in FLOAT_DTYPES:
            raise CheckpointError(f"{WEIGHTS}: {name} is {dtype}, expected floating-point weights")
