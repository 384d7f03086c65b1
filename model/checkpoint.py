"""Model folders: config.json + model.safetensors + spm.model (+ train_state.pt for resuming).

An imported Marian model keeps Marian's tokenizer files (source.spm, target.spm, vocab.json) instead of
spm.model, and config.json says so ("tokenizer": "marian"). A Hugging Face Marian folder itself is read
by ``model.marian``.

Nothing here unpickles arbitrary objects: weights come from safetensors (a plain tensor format) and the
optimizer/RNG state from ``torch.load(weights_only=True)``, which refuses anything but tensors and
containers. Every write goes to a temporary folder that is renamed into place, so a crash mid-save never
damages the last good checkpoint.
"""

from __future__ import annotations

import json
import pickle
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import torch
from safetensors import SafetensorError
from safetensors.torch import load_file, save_file

from model import packed_linear
from model.config import ModelConfig
from model.errors import CheckpointError, UserError
from model.files import usual_mode, write_folder_atomic
from model.folder_checks import CONFIG, LATEST, SPM, STATE, WEIGHTS, check_weights_header, read_config
from model.licence import model_licence
from model.records import ModelInfo
from model.safe_json import read_json, read_small_text
from model.tokenizer import Tokenizer
from model.transformer import Transformer, uninitialised

TRAIN_CONFIG = "train_config.json"  # the run's TrainConfig, saved beside each checkpoint by model.training
FORMAT = "attention-explorer/1"
MAX_WEIGHT = 1e4  # no trained Transformer weight comes near it (see build_model)
REPO_ROOT = Path(__file__).resolve().parents[1]  # the checkout (tests, benchmarks); not where an install keeps data


def assets_dir() -> Path:
    """``assets/`` of the repository or of the installed wheel (``model.builtin.assets_dir``)."""
    from model.builtin import assets_dir as builtin_assets
    return builtin_assets()


def default_model_dir(name: str | None = None) -> Path | None:
    """The built-in model (``model.builtin``): $ATTENTION_EXPLORER_MODEL, else assets/models/en-de."""
    from model.builtin import default_model_dir as builtin_dir
    return builtin_dir(name)


def resolve(path: Path | str) -> Path:
    """A checkpoint folder, or a training run folder whose LATEST file names its newest checkpoint."""
    path = Path(path).expanduser()
    if not path.exists():
        raise CheckpointError(f"model folder not found: {path}")
    if not path.is_dir():
        raise CheckpointError(f"not a model folder (it is a file): {path}")
    if (path / CONFIG).is_file():
        return path
    if (path / LATEST).is_file():
        name = read_small_text(path / LATEST, CheckpointError)
        if name and "/" not in name and name not in (".", "..") and (path / name / CONFIG).is_file():
            return path / name
        # A run folder whose LATEST is broken: say so, not "no config.json", which sends people looking
        # for a file a run folder never has.
        raise CheckpointError(f"{path / LATEST} {_latest_problem(path, name)}; {_checkpoints_here(path)}")
    from model.marian.folder import cache_snapshot
    snapshot = cache_snapshot(path)  # a Hugging Face hub cache folder, models--org--name
    if snapshot is not None:
        return snapshot
    raise CheckpointError(f"not a model folder: {path} has no {CONFIG} (expected {CONFIG}, {WEIGHTS}, {SPM})")


def _latest_problem(run: Path, name: str) -> str:
    """What is wrong with the checkpoint a run's LATEST names (see resolve)."""
    if not name:
        return "is empty"
    if "/" in name or name in (".", ".."):
        return f"names {name!r}, which is not a checkpoint folder inside {run}"
    if not (run / name).is_dir():
        return f"names {name}, which is missing"
    return f"names {name}, which has no {CONFIG}"


def _checkpoints_here(run: Path) -> str:
    """The run's complete checkpoints, newest last, for a message: which one to resume instead."""
    found = sorted(p.name for p in run.glob("step-*") if (p / CONFIG).is_file())
    if not found:
        return "the folder holds no checkpoint"
    shown = ", ".join(found[-3:])
    return f"checkpoints here: {shown}" + (f" (and {len(found) - 3} older)" if len(found) > 3 else "")


@dataclass
class LoadedModel:
    model: Transformer
    tokenizer: Tokenizer
    config: ModelConfig
    path: Path
    device: str = "cpu"
    meta: dict = field(default_factory=dict)
    # Draft greedy translations with an int8 copy of the decoder (model/decoding/int8.py; the result is
    # still the fp32 one). Off for a model that is still training: the copy would not follow its weights.
    int8_search: bool = True
    # That copy, built on first use by model.decoding.int8.search_copy (False: unavailable here).
    search_cache: object = field(default=None, repr=False, compare=False)
    # The native draft step's weights (model/native), built once its library is compiled (False: never here).
    native_cache: object = field(default=None, repr=False, compare=False)
    max_train_length: int = 0  # see training_length; kept out of meta, which a re-save writes back

    def info(self) -> ModelInfo:
        return ModelInfo(path=str(self.path), config=tuple(self.config.to_dict().items()),
                         n_params=self.model.num_parameters(), vocab_size=self.tokenizer.vocab_size,
                         device=self.device, d_model=self.config.d_model, n_layers=self.config.n_layers,
                         n_heads=self.config.n_heads, note=str(self.meta.get("note", "")),
                         origin=str(self.meta.get("origin", "native")), d_ff=self.config.d_ff,
                         pe_layout=self.config.pe_layout,
                         max_train_length=self.max_train_length, licence=model_licence(self.path))


def training_length(folder: Path) -> int:
    """The longest sequence the run that wrote ``folder`` trained on (its TrainConfig's
    max_tokens_per_sentence: longer pairs were skipped); 0 when the folder has no readable
    train_config.json. Only a hint for the window's positional-encoding marks, so it never fails."""
    try:
        data = read_json(folder / TRAIN_CONFIG, max_bytes=1 << 20)
    except (OSError, UserError):
        return 0
    value = data.get("max_tokens_per_sentence") if isinstance(data, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def _language_code(name: str, vocab: dict) -> str:
    """The target-language code a Hub model needs in front of each sentence (model.hub.catalogue), when the
    model's vocabulary has it; "" otherwise."""
    from model.hub.catalogue import catalogue_entry
    entry = catalogue_entry(name)
    return entry.prefix if entry is not None and entry.prefix in vocab else ""


def load_tokenizer(folder: Path, cfg: ModelConfig, data: dict):
    """The folder's tokenizer: spm.model, or Marian's three files for an imported Marian model."""
    if data.get("tokenizer") == "marian":
        from model.marian.tokenizer import MarianTokenizer
        return MarianTokenizer.load(folder, cfg.vocab_size, cfg.pad_id, cfg.eos_id, cfg.src_vocab_size)
    if not (folder / SPM).is_file():
        raise CheckpointError(f"{folder} has no tokenizer ({SPM})")
    tokenizer = Tokenizer.load(folder / SPM)
    if tokenizer.vocab_size != cfg.vocab_size:
        raise CheckpointError(f"the tokenizer has {tokenizer.vocab_size} pieces but the model's embedding "
                              f"has {cfg.vocab_size} rows: {SPM} does not belong to this model")
    from model.languages import model_target
    tokenizer.target_lang = model_target(folder)
    return tokenizer


def load_model(path: Path | str, device: str = "cpu") -> LoadedModel:
    """Load and fully validate a model folder; raises CheckpointError with a readable message."""
    folder = resolve(path)
    from model.marian.folder import read_hf_config
    hf = read_hf_config(folder)
    if hf is not None:  # a Hugging Face Marian folder, read as it is
        return load_hf_marian(folder, hf, device)
    cfg, data = read_config(folder)
    tokenizer = load_tokenizer(folder, cfg, data)
    if not (folder / WEIGHTS).is_file():
        others = [p.name for p in folder.glob("*.bin")] + [p.name for p in folder.glob("*.pt*")]
        hint = f" (found {', '.join(others)}; only safetensors weights are loaded)" if others else ""
        raise CheckpointError(f"{folder} has no {WEIGHTS}{hint}")
    check_weights_header(folder / WEIGHTS, cfg)  # names and shapes, before anything is allocated
    try:
        tensors = load_file(str(folder / WEIGHTS))
    except (SafetensorError, OSError, ValueError) as exc:
        raise CheckpointError(f"{folder / WEIGHTS} is corrupt or truncated ({exc})") from None
    model = build_model(cfg, tensors, WEIGHTS).to(device).eval()
    use_native(model)
    return LoadedModel(model, tokenizer, cfg, folder, device, data.get("meta", {}),
                       max_train_length=training_length(folder))


def load_hf_marian(folder: Path, hf: dict, device: str = "cpu") -> LoadedModel:
    """A Hugging Face Marian folder (``hf``: its config.json) as our Transformer; see ``model.marian``.

    The tokenizer is checked before the weights are read, so a broken folder fails fast; nothing in it
    is ever executed (weights come from safetensors or a weights-only ``torch.load``).
    """
    from model.marian.folder import display_name, marian_config
    from model.marian.tokenizer import MarianTokenizer
    from model.marian.weights import read_tensors, to_state_dict
    cfg, _ = marian_config(hf, folder)
    tokenizer = MarianTokenizer.load(folder, cfg.vocab_size, cfg.pad_id, cfg.eos_id, cfg.src_vocab_size)
    tokenizer.prefix = _language_code(display_name(folder), tokenizer.vocab)
    tensors = to_state_dict(read_tensors(folder), cfg, folder)
    model = build_model(cfg, tensors, f"{folder.name}'s Marian weights").to(device).eval()
    use_native(model)
    meta = {"origin": "marian", "imported_from": str(folder),
            "note": f"Hugging Face Marian model {display_name(folder)}"}
    return LoadedModel(model, tokenizer, cfg, folder, device, meta)


def use_native(model: Transformer) -> None:
    """A loaded model's passes of a few rows through native code where the library is built: its
    products (``packed_linear.use_native``) and a short sentence's encoder pass (model/native/encoder.py).
    Chosen once, at load, so a model never changes kernels midway."""
    if packed_linear.use_native(model):
        from model.native.encoder import encode  # noqa: PLC0415 (model.native imports this module)

        model.native_encode = encode


def build_model(cfg: ModelConfig, tensors: dict[str, torch.Tensor], source: str) -> Transformer:
    """A Transformer for ``cfg`` holding ``tensors``, each checked for name, shape and finiteness."""
    model = uninitialised(cfg, "cpu")  # not initialised: load_state_dict below replaces every weight
    expected = model.state_dict()
    missing = sorted(set(expected) - set(tensors))
    extra = sorted(set(tensors) - set(expected))
    if missing or extra:
        raise CheckpointError(f"{source} does not match config.json: missing {missing[:3]}, unexpected {extra[:3]}")
    for name, t in tensors.items():
        if t.shape != expected[name].shape:
            raise CheckpointError(f"{source}: {name} has shape {tuple(t.shape)}, config.json implies "
                                  f"{tuple(expected[name].shape)}")
        if not torch.isfinite(t).all():
            raise CheckpointError(f"{source}: {name} holds NaN or infinite values")
        if t.is_floating_point() and t.numel() and float(t.abs().max()) > MAX_WEIGHT:
            # Finite but absurd (×1e30) weights overflow inside the int8 draft or the softmax and decode as
            # garbage with no error; trained weights stay within single digits (the built-in model: 2.3).
            raise CheckpointError(f"{source}: {name} holds values as large as {float(t.abs().max()):.3g}; "
                                  f"trained weights stay below {MAX_WEIGHT:g}, so these are not usable")
    model.load_state_dict({k: v.float() for k, v in tensors.items()})
    return model


def save_model(folder: Path, model: Transformer, tokenizer: Tokenizer, meta: dict | None = None,
               train_state: dict | None = None, extra_files: dict[str, str] | None = None,
               half: bool = False) -> Path:
    """Save a loadable model folder atomically. half=True stores fp16 weights (for shipping)."""
    def write(tmp: Path) -> None:
        state = {k: (v.detach().half() if half and v.is_floating_point() else v.detach()).cpu().contiguous()
                 for k, v in model.state_dict().items()}
        save_file(state, str(tmp / WEIGHTS), metadata={"format": FORMAT})
        usual_mode(tmp / WEIGHTS)
        cfg = {"format": FORMAT, "model": model.cfg.to_dict(), "meta": meta or {}}
        if getattr(tokenizer, "kind", "") == "marian":  # an imported Marian model keeps its tokenizer files
            tokenizer.save_into(tmp)
            cfg["tokenizer"] = "marian"
            cfg["meta"] = {"origin": "marian-import", **cfg["meta"]}  # fine-tuned, it is still Marian's model
        else:
            tokenizer.save(tmp / SPM)
        (tmp / CONFIG).write_text(json.dumps(cfg, indent=2, sort_keys=True), encoding="utf-8")
        if train_state is not None:
            torch.save(train_state, tmp / STATE)
        for name, text in (extra_files or {}).items():
            (tmp / name).write_text(text, encoding="utf-8")
    return write_folder_atomic(Path(folder), write)


STATE_KEYS = ("optimizer", "step", "epoch", "position", "elapsed", "torch_rng")


def load_train_state(folder: Path) -> dict:
    """Optimizer, schedule and RNG state for an exact resume; tensors and plain containers only."""
    path = Path(folder) / STATE
    if not path.is_file():
        raise CheckpointError(f"{folder} has no {STATE}: it can be opened but not resumed")
    try:
        with warnings.catch_warnings():  # torch warns about pickle protocols before refusing a file
            warnings.simplefilter("ignore")
            state = torch.load(path, map_location="cpu", weights_only=True)
    except pickle.UnpicklingError:
        # torch's own message goes on to suggest weights_only=False, the one unsafe step: not repeated.
        raise CheckpointError(f"refused to load {path}: it holds objects other than tensors and plain "
                              f"containers, so it was not written by this app and is not safe to open") from None
    except Exception as exc:  # RuntimeError/EOFError for truncated or corrupt files
        raise CheckpointError(f"cannot read {path}: it is truncated or corrupt ({type(exc).__name__})") from None
    if not isinstance(state, dict) or any(key not in state for key in STATE_KEYS):
        raise CheckpointError(f"{path} is not a training state of this app (it lacks "
                              f"{', '.join(k for k in STATE_KEYS if not isinstance(state, dict) or k not in state)})")
    # Keys present but of other types would fail later inside torch with a traceback.
    def whole(v) -> bool:
        return isinstance(v, int) and not isinstance(v, bool) and v >= 0
    rng = state["torch_rng"]
    checks = {"step": whole(state["step"]), "epoch": whole(state["epoch"]), "position": whole(state["position"]),
              "elapsed": isinstance(state["elapsed"], (int, float)) and not isinstance(state["elapsed"], bool),
              "optimizer": isinstance(state["optimizer"], dict),
              "torch_rng": isinstance(rng, torch.Tensor) and rng.dtype == torch.uint8}
    wrong = [k for k, ok in checks.items() if not ok]
    if wrong:
        raise CheckpointError(f"{path} is not a training state of this app ({', '.join(wrong)} of the wrong type)")
    return state
