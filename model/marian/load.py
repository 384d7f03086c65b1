"""Open a Hugging Face Marian folder as a LoadedModel, and import it as one of our own model folders."""

from __future__ import annotations

from pathlib import Path

from model.checkpoint import LoadedModel, build_model, resolve, save_model
from model.errors import CheckpointError
from model.marian.folder import marian_config, read_hf_config
from model.marian.tokenizer import MarianTokenizer
from model.marian.weights import read_tensors, to_state_dict

ORIGIN_HF, ORIGIN_IMPORT = "marian", "marian-import"


def display_name(folder: Path) -> str:
    """org/name for a hub cache snapshot (its own folder name is a commit hash), else the folder's name."""
    if folder.parent.name == "snapshots" and folder.parent.parent.name.startswith("models--"):
        return folder.parent.parent.name.removeprefix("models--").replace("--", "/")
    return folder.name


def load_hf_marian(folder: Path, device: str = "cpu") -> LoadedModel:
    """A Marian folder (config.json with model_type "marian", weights, source.spm, target.spm, vocab.json).

    The tokenizer is checked before the weights are read, so a broken folder fails fast; nothing in it is
    ever executed (weights come from safetensors or a weights-only ``torch.load``).
    """
    hf = read_hf_config(folder)
    if hf is None:
        raise CheckpointError(f"{folder} is not a Hugging Face Marian folder")
    cfg, _ = marian_config(hf, folder)
    tokenizer = MarianTokenizer.load(folder, cfg.vocab_size, cfg.pad_id, cfg.eos_id)
    tensors = to_state_dict(read_tensors(folder), cfg, folder)
    model = build_model(cfg, tensors, f"{folder.name}'s Marian weights").to(device).eval()
    meta = {"origin": ORIGIN_HF, "imported_from": str(folder),
            "note": f"Hugging Face Marian model {display_name(folder)}"}
    return LoadedModel(model, tokenizer, cfg, folder, device, meta)


def import_marian(source: Path | str, out: Path | str) -> Path:
    """Convert a Marian folder into our format (model.safetensors + config.json + Marian's tokenizer files).

    The result loads without ``model.marian.folder`` and can be fine-tuned like any model folder.
    """
    folder = resolve(source)
    loaded = load_hf_marian(folder)
    meta = {"origin": ORIGIN_IMPORT, "imported_from": str(folder), "step": 0,
            "note": f"imported from the Marian model {display_name(folder)}"}
    return save_model(Path(out), loaded.model, loaded.tokenizer, meta=meta)
