"""Import a Hugging Face Marian folder as one of our own model folders (``import-marian``).

Opening one as it is happens in ``model.checkpoint.load_model``, which reads it with this package's
folder, tokenizer and weights modules; this module sits above the checkpoint code, not beside it.
"""

from __future__ import annotations

from pathlib import Path

from model.checkpoint import load_model, resolve, save_model
from model.errors import CheckpointError
from model.marian.folder import display_name, read_hf_config

ORIGIN_HF, ORIGIN_IMPORT = "marian", "marian-import"


def import_marian(source: Path | str, out: Path | str) -> Path:
    """Convert a Marian folder into our format (model.safetensors + config.json + Marian's tokenizer files).

    The result loads without reading Marian's config again and can be fine-tuned like any model folder.
    """
    folder = resolve(source)
    if read_hf_config(folder) is None:
        raise CheckpointError(f"{folder} is not a Hugging Face Marian folder (config.json with model_type \"marian\")")
    loaded = load_model(folder)
    meta = {"origin": ORIGIN_IMPORT, "imported_from": str(folder), "step": 0,
            "note": f"imported from the Marian model {display_name(folder)}"}
    return save_model(Path(out), loaded.model, loaded.tokenizer, meta=meta)
