"""Incremental decoding's memory: each self-attention sub-layer's keys and values so far.

Apart from the layers (model/layers.py) because the paper's model has no such state: a cache only spares
a search recomputing the positions it has already fed (its tests hold it to the uncached pass).
"""

from __future__ import annotations

import torch
from torch import Tensor


class KVCache:
    """Keys and values of one self-attention sub-layer, grown step by step during decoding (no grad).

    They live in buffers with room to spare, doubled when full, so a step writes its new keys in place
    instead of copying the whole cache (``torch.cat``) at every step.
    """

    def __init__(self) -> None:
        self._k: Tensor | None = None  # (B, H, capacity, d_k)
        self._v: Tensor | None = None
        self.length = 0

    @property
    def k(self) -> Tensor | None:
        return None if self._k is None else self._k[:, :, : self.length]

    @property
    def v(self) -> Tensor | None:
        return None if self._v is None else self._v[:, :, : self.length]

    def append(self, k: Tensor, v: Tensor) -> tuple[Tensor, Tensor]:
        """Add (B, H, t, d_k) keys and values; returns all of them so far, (B, H, length, d_k) views."""
        start = self.length
        self.extend(k)
        self._k[:, :, start:self.length] = k
        self._v[:, :, start:self.length] = v
        return self.k, self.v

    def extend(self, like: Tensor) -> tuple[Tensor, Tensor]:
        """Make room for ``like.size(2)`` more positions (shaped (B, H, t, d_k) as ``like``) and count them,
        their numbers not yet written: the caller writes them (model/native/attend.py writes a step's new
        key and value as it attends). Returns all positions' keys and values, (B, H, length, d_k) views."""
        end = self.length + like.size(2)
        if self._k is None or end > self._k.size(2):
            capacity = max(32, 2 * end)
            grown_k = like.new_empty(like.size(0), like.size(1), capacity, like.size(3))
            grown_v = like.new_empty(like.size(0), like.size(1), capacity, like.size(3))
            if self.length:
                grown_k[:, :, : self.length] = self.k
                grown_v[:, :, : self.length] = self.v
            self._k, self._v = grown_k, grown_v
        self.length = end
        return self.k, self.v

    def truncate(self, length: int) -> None:
        """Forget every position from ``length`` on (a rejected draft, see ``speculative.checked_greedy``)."""
        self.length = min(self.length, length)

    def reorder(self, index: Tensor) -> None:
        """Follow the beams that survived a beam-search step (or the rows a batch keeps). Only the positions
        held so far are copied, into a buffer as long as before: a step's buffer is often twice its length."""
        if self._k is not None:
            self._k, self._v = (self._kept(buf, index) for buf in (self._k, self._v))

    def _kept(self, buf: Tensor, index: Tensor) -> Tensor:
        out = buf.new_empty(index.numel(), *buf.shape[1:])
        torch.index_select(buf[:, :, : self.length], 0, index, out=out[:, :, : self.length])
        return out
