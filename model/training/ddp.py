"""DDP glue used inside the training loop: rank and world size, small collectives, the model wrapper.

The loop calls these on every rank when ``torch.distributed`` is initialised (a torchrun worker, see
``model.training.worker``); a single-process run never does.
"""

from __future__ import annotations

import inspect

import torch


def rank_world() -> tuple[int, int]:
    """(rank, world size); (0, 1) unless torchrun started this process and the group is initialised."""
    if torch.distributed.is_available() and torch.distributed.is_initialized():
        return torch.distributed.get_rank(), torch.distributed.get_world_size()
    return 0, 1


class Sync:
    """Small collectives besides DDP's own; every rank calls them at the same points of the loop."""

    def __init__(self, device: torch.device) -> None:
        # NCCL only moves CUDA tensors; gloo only CPU ones.
        self.device = device if torch.distributed.get_backend() == "nccl" else torch.device("cpu")

    def any(self, *flags: bool) -> list[bool]:
        """Each flag OR-ed over the ranks: all ranks get the same answer, so they act together."""
        t = torch.tensor([int(bool(f)) for f in flags], device=self.device)
        torch.distributed.all_reduce(t, op=torch.distributed.ReduceOp.MAX)
        return [bool(x) for x in t.tolist()]

    def sum(self, *values: float) -> list[float]:
        t = torch.tensor(values, dtype=torch.float64, device=self.device)
        torch.distributed.all_reduce(t)
        return t.tolist()


def wrap_ddp(model: torch.nn.Module, device: torch.device) -> torch.nn.Module:
    """DistributedDataParallel around the model, leaving its buffers alone.

    The only buffer is the sinusoid table, which each rank grows on demand for its own longest sentence:
    syncing it before each forward (DDP's default) would meet tables of different sizes.
    """
    from torch.nn.parallel import DistributedDataParallel as DDP
    params = inspect.signature(DDP.__init__).parameters  # torch 2.13 renamed broadcast_buffers
    no_sync = {"forward_sync_buffers": False} if "forward_sync_buffers" in params else {"broadcast_buffers": False}
    ids = [torch.cuda.current_device() if device.index is None else device.index] if device.type == "cuda" else None
    return DDP(model, device_ids=ids, **no_sync)


def cuda_devices() -> list[tuple[int, str, float]]:
    """(index, name, total memory in GiB) of each visible CUDA GPU; [] without CUDA."""
    if not torch.cuda.is_available():
        return []
    props = (torch.cuda.get_device_properties(i) for i in range(torch.cuda.device_count()))
    return [(i, p.name, round(p.total_memory / 2**30, 1)) for i, p in enumerate(props)]
