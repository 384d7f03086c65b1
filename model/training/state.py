"""A run's full state on disk: save a checkpoint with everything an exact resume needs, read it back.

Apart from the loop because saving and restoring must stay mirror images of each other (the same
keys, the same RNG states), which is easiest to check when they sit side by side.
"""

from __future__ import annotations

import errno
import math
import shutil
from pathlib import Path

import torch

from model import checkpoint as ckpt
from model.config import TrainConfig
from model.errors import CheckpointError, UserError
from model.files import write_atomic
from model.training.prepare import Data
from model.transformer import uninitialised

TRAIN_CONFIG = ckpt.TRAIN_CONFIG  # the run's settings, saved in every checkpoint so a resume reuses them


def save_checkpoint(model, data: Data, cfg: TrainConfig, optimizer, scaler, step, epoch, position,
                    elapsed) -> Path:
    """Write ``step-NNNNNNNN`` with weights, tokenizer, optimizer and RNG state; point LATEST at it;
    drop the oldest checkpoints beyond ``cfg.keep_checkpoints``."""
    state = {
        "optimizer": optimizer.state_dict(),
        "scaler": scaler.state_dict() if scaler is not None else {},
        "step": step, "epoch": epoch, "position": position, "elapsed": elapsed,
        "torch_rng": torch.get_rng_state(),
        "cuda_rng": torch.cuda.get_rng_state_all() if torch.cuda.is_available() else [],
    }
    out = cfg.out_path
    folder = ckpt.save_model(out / f"step-{step:08d}", model, data.tokenizer,
                             meta={"step": step, "epoch": epoch, "elapsed_s": round(elapsed, 1), "run": cfg.run_id},
                             train_state=state, extra_files={TRAIN_CONFIG: cfg.to_json()})
    write_atomic(out / ckpt.LATEST, folder.name + "\n")
    for old in prunable(out, cfg, folder):
        shutil.rmtree(old, ignore_errors=True)
    return folder


def save_failure(exc: BaseException, step: int, out: Path, last_good: Path | None) -> str:
    """One line for a checkpoint that could not be written (a full disk, a folder gone, no permission).

    save_model writes into a temporary folder and renames it only when complete, so whatever was saved
    before is untouched; the message says which checkpoint that is, so nobody deletes it to make room."""
    text = f"{exc.strerror or exc}" if isinstance(exc, OSError) else str(exc).splitlines()[0] if str(exc) else ""
    full = (isinstance(exc, OSError) and exc.errno == errno.ENOSPC) or "No space left" in str(exc) \
        or "file write failed" in str(exc)
    why = f"no space left on the disk of {out}" if full else f"cannot write to {out} ({text})"
    kept = (f"the previous checkpoint {last_good.name} is intact" if last_good is not None
            else "no earlier checkpoint of this run exists")
    return f"{why} while saving step {step}; {kept}"


def _run_of(folder: Path) -> str | None:
    """The run id a checkpoint's config.json records ("" for checkpoints older than run ids), or None when
    it cannot be read: such a folder is left alone, never guessed about."""
    try:
        meta = ckpt.read_config(folder)[1].get("meta", {})
    except (UserError, OSError):
        return None
    run = meta.get("run", "") if isinstance(meta, dict) else None
    return run if isinstance(run, str) else None


def _step_of(folder: Path) -> int:
    try:
        return int(folder.name.removeprefix("step-"))
    except ValueError:
        return -1


def prunable(out: Path, cfg: TrainConfig, just_saved: Path) -> list[Path]:
    """The checkpoint folders to remove after ``just_saved``: this run's oldest beyond ``keep_checkpoints``
    (by step number), and every checkpoint of another run, which only ``--overwrite`` lets share the folder.

    Pruning by name alone once kept an overwritten run's higher step numbers and removed each new
    checkpoint as soon as it was written, while LATEST pointed at it.
    """
    mine, others = [], []
    for p in out.glob("step-*"):
        if not p.is_dir() or p.resolve() == just_saved.resolve():
            continue
        run = _run_of(p)
        if run == cfg.run_id:
            mine.append(p)
        elif run is not None:
            others.append(p)
    mine.sort(key=_step_of)
    return others + mine[: max(0, len(mine) + 1 - cfg.keep_checkpoints)]


def restore(resume: Path, model, model_cfg, optimizer, scaler, device: torch.device) -> tuple[int, int, int, float]:
    """Load a checkpoint into model (and optimizer, scaler, RNG when it has a training state).

    Returns (step, epoch, position, elapsed) to continue from.
    """
    loaded = ckpt.load_model(resume)
    if loaded.config != model_cfg:
        raise UserError("the checkpoint's model config differs from the run's; resume with the same model")
    model.load_state_dict(loaded.model.state_dict())
    if (loaded.path / ckpt.STATE).is_file():  # exact resume
        state = ckpt.load_train_state(loaded.path)
        try:
            optimizer.load_state_dict(state["optimizer"])
            if scaler is not None and state.get("scaler"):
                scaler.load_state_dict(state["scaler"])
            torch.set_rng_state(state["torch_rng"])
            if device.type == "cuda" and state.get("cuda_rng"):
                torch.cuda.set_rng_state_all(state["cuda_rng"])
        except (ValueError, RuntimeError, KeyError, TypeError, IndexError) as exc:
            # check_resumable refuses the inconsistencies known so far before any work; this catches the
            # rest (a scaler or CUDA state of another kind) as one line instead of torch's traceback.
            raise _unfit(loaded.path / ckpt.STATE, str(exc).strip().splitlines()[0] if str(exc).strip()
                         else type(exc).__name__) from None
        return state["step"], state["epoch"], state["position"], state["elapsed"]
    # Warm start from weights alone (e.g. a shipped model): the schedule continues from the saved
    # step and Adam's moments rebuild within a few hundred steps.
    meta = loaded.meta
    return int(meta.get("step", 0)), int(meta.get("epoch", 0)), 0, float(meta.get("elapsed_s", 0.0))


def check_resumable(folder: Path) -> None:
    """Validate a checkpoint's config, weights header and training state without building anything."""
    model_cfg = ckpt.read_config(folder)[0]
    if not (folder / ckpt.WEIGHTS).is_file():
        raise UserError(f"{folder} has no {ckpt.WEIGHTS}")
    ckpt.check_weights_header(folder / ckpt.WEIGHTS, model_cfg)
    if (folder / ckpt.STATE).is_file():
        check_state_fits(ckpt.load_train_state(folder), model_cfg, folder / ckpt.STATE)


def _unfit(path: Path, why: str) -> CheckpointError:
    return CheckpointError(f"{path} does not fit this model: {why}")


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def check_state_fits(state: dict, model_cfg, path: Path) -> None:
    """Refuse a training state whose parts have the right types (load_train_state) but do not belong to this
    model: torch checks them only when restore loads them, after the corpus was read, and fails with a
    traceback (an empty parameter-group list, a 3-byte RNG state), or not until the first step (a moment of
    the wrong shape). The shapes come from a model on the meta device: no memory."""
    shapes = [tuple(p.shape) for p in uninitialised(model_cfg).parameters()]
    optimizer = state["optimizer"]
    groups, moments = optimizer.get("param_groups"), optimizer.get("state")
    if not isinstance(groups, list) or len(groups) != 1 or not isinstance(groups[0], dict):
        count = len(groups) if isinstance(groups, list) else "no list of"
        raise _unfit(path, f"its optimizer has {count} parameter groups, the run's has 1")
    group = groups[0]
    if group.get("params") != list(range(len(shapes))):
        have = len(group["params"]) if isinstance(group.get("params"), list) else "no list of"
        raise _unfit(path, f"its optimizer covers {have} parameters, the model has {len(shapes)}")
    betas = group.get("betas")
    if not all(_number(group.get(k)) for k in ("lr", "eps", "weight_decay")) or not (
            isinstance(betas, (list, tuple)) and len(betas) == 2 and all(map(_number, betas))):
        raise _unfit(path, "its optimizer's lr, betas, eps or weight_decay are not numbers")
    flags = [k for k in ("amsgrad", "maximize", "capturable", "differentiable") if group.get(k, False) is not False]
    if flags:  # this app's Adam sets none of them; amsgrad would look for moments no checkpoint holds
        raise _unfit(path, f"its optimizer sets {', '.join(flags)}, which this app's Adam does not")
    if not isinstance(moments, dict):
        raise _unfit(path, "its optimizer holds no per-parameter state")
    for index, entry in moments.items():
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(shapes) \
                or not isinstance(entry, dict):
            raise _unfit(path, f"its optimizer holds state for a parameter {index!r:.20} the model lacks")
        if not entry:
            continue  # Adam starts such a parameter afresh, as before its first step
        for name in ("exp_avg", "exp_avg_sq"):
            t = entry.get(name)
            if not isinstance(t, torch.Tensor) or not t.is_floating_point() or tuple(t.shape) != shapes[index]:
                got = tuple(t.shape) if isinstance(t, torch.Tensor) else type(t).__name__
                raise _unfit(path, f"the optimizer's {name} of parameter {index} is {got}, "
                                   f"the parameter {shapes[index]}")
        step = entry.get("step")
        if not isinstance(step, torch.Tensor) or step.numel() != 1 or not torch.isfinite(step).all():
            raise _unfit(path, f"the optimizer's step count of parameter {index} is not a number")
    rng, expected = state["torch_rng"], torch.get_rng_state().numel()
    if rng.numel() != expected:
        raise _unfit(path, f"torch_rng holds {rng.numel()} bytes, a CPU random state {expected}")
    cuda = state.get("cuda_rng", [])
    if not isinstance(cuda, (list, tuple)) or not all(isinstance(t, torch.Tensor) and t.dtype == torch.uint8
                                                      for t in cuda):
        raise _unfit(path, "cuda_rng is not a list of random states")
    if not isinstance(state.get("scaler", {}), dict):
        raise _unfit(path, "scaler is not a loss scaler's state")
