"""Where a run computes: the device named in its settings, and mixed precision on it."""

from __future__ import annotations

from contextlib import nullcontext

import torch

from model.config import TrainConfig
from model.errors import UserError


def amp_context(device: torch.device, cfg: TrainConfig):
    """(autocast context, GradScaler or None) for the run's device and settings.

    CUDA (``amp``): bf16 where the GPU supports it, else fp16 with a loss scaler. CPU (``cpu_amp``): bf16,
    only on CPUs that compute it natively (AVX512-BF16 or AMX), where its matmuls run ~3× faster than fp32;
    elsewhere it would be emulated and slower, so asking for it there is an error. Weights, Adam and the
    loss stay fp32 either way.
    """
    if device.type == "cuda" and cfg.amp:
        if torch.cuda.is_bf16_supported():
            return torch.autocast("cuda", dtype=torch.bfloat16), None
        return torch.autocast("cuda", dtype=torch.float16), torch.amp.GradScaler("cuda")
    if device.type == "cpu" and cfg.cpu_amp:
        if not cpu_has_native_bf16():
            raise UserError("this CPU has no native bf16 (AVX512-BF16 or AMX): train without --cpu-amp")
        return torch.autocast("cpu", dtype=torch.bfloat16), None
    return nullcontext(), None


def cpu_has_native_bf16() -> bool:
    probes = ("_is_avx512_bf16_supported", "_is_amx_tile_supported")  # private, so looked up defensively
    return any(getattr(torch.cpu, name, lambda: False)() for name in probes)


def resolve_device(name: str) -> torch.device:
    """The torch device ``name`` names, checked against what this torch build and machine have, so every
    command refuses ``--device cuda`` on a CPU-only build in one line instead of a traceback from torch."""
    if name == "cpu":
        return torch.device("cpu")
    if name.startswith("cuda"):
        if not torch.cuda.is_available():
            build = " (this PyTorch is a CPU-only build)" if torch.version.cuda is None else ""
            raise UserError(f"device {name!r} asked for, but no CUDA GPU is available{build}; use --device cpu")
        try:
            dev = torch.device(name)
        except RuntimeError:
            raise UserError(f"unknown device {name!r}; use cpu, cuda or cuda:N") from None
        if dev.index is not None and dev.index >= torch.cuda.device_count():
            raise UserError(f"there is no GPU {dev.index}; this machine has {torch.cuda.device_count()}")
        return dev
    if name == "mps":
        if not torch.backends.mps.is_available():
            raise UserError("device 'mps' asked for, but Apple's Metal (MPS) is not available here; use --device cpu")
        return torch.device("mps")
    raise UserError(f"unknown device {name!r}; use cpu, cuda, cuda:N or mps")
