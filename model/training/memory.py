"""Will the model fit? Said before allocating, not as an out-of-memory kill halfway through.

A config within every size limit can still be far too large for the machine (d_model 16384 on a laptop):
building it would take minutes of swapping and then die without a message. The parameter count comes from
building the model on PyTorch's ``meta`` device (shapes only, no memory), so it is exact for any config.
Training holds four fp32 copies of each parameter (weights, gradients, Adam's two moments); activations
come on top, so this is a floor: a model refused here could never train.
"""

from __future__ import annotations

from pathlib import Path

import torch

from model.config import ModelConfig
from model.errors import UserError

BYTES_TRAINING = 16  # fp32 weights + gradients + Adam's m and v


def parameter_count(cfg: ModelConfig) -> int:
    from model.transformer import uninitialised
    return sum(p.numel() for p in uninitialised(cfg).parameters())


def available_bytes(device: torch.device) -> int | None:
    """Free memory where the model will live: MemAvailable on Linux CPUs, the GPU's free memory; None if
    unknown (then nothing is refused)."""
    if device.type == "cuda":
        return torch.cuda.mem_get_info(device)[0]
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def check_fits(cfg: ModelConfig, device: torch.device) -> None:
    """UserError when training ``cfg`` on ``device`` cannot fit, before anything is allocated."""
    free = available_bytes(device)
    if free is None:
        return
    n = parameter_count(cfg)
    need = n * BYTES_TRAINING
    if need > free:
        raise UserError(f"a model of {n / 1e6:,.0f} M parameters needs at least {need / 2**30:,.1f} GiB to train "
                        f"(weights, gradients and Adam's two moments, before activations), but {device.type} has "
                        f"{free / 2**30:,.1f} GiB free; choose a smaller preset or d_model")
