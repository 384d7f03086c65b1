"""Checkpoint averaging (section 6.1 of the paper: 'averaging the last 5 checkpoints')."""

from __future__ import annotations

from pathlib import Path

import torch

from model.checkpoint import load_model, save_model
from model.errors import CheckpointError


def average_into(folders: list[Path], out: Path, half: bool = False) -> Path:
    """Average the weights of checkpoints of one run and save a loadable model folder."""
    if not folders:
        raise CheckpointError("no checkpoints to average")
    first = load_model(folders[0])
    total = {k: v.detach().clone().double() for k, v in first.model.state_dict().items()}
    for folder in folders[1:]:
        other = load_model(folder)
        if other.config != first.config:
            raise CheckpointError(f"{folder} has a different model config; only checkpoints of one run average")
        for k, v in other.model.state_dict().items():
            total[k] += v.double()
    with torch.no_grad():
        first.model.load_state_dict({k: (v / len(folders)).float() for k, v in total.items()})
    # The schedule continues from the newest checkpoint when training warm-starts from the average.
    meta = dict(load_model(folders[-1]).meta if len(folders) > 1 else first.meta,
                averaged=[str(Path(f).name) for f in folders])
    return save_model(out, first.model, first.tokenizer, meta=meta, half=half)
