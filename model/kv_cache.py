"""Incremental decoding's memory: each self-attention sub-layer's keys and values so far.

Apart from the layers (model/layers.py) because the paper's model has no such state: a cache only spares
a search recomputing the positions it has already fed (its tests hold it to the uncached pass).
"""

from __future__ import annotations

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
        end = self.length + k.size(2)
        if self._k is None or end > self._k.size(2):
            capacity = max(32, 2 * end)
            grown_k = k.new_empty(k.size(0), k.size(1), capacity, k.size(3))
            grown_v = v.new_empty(v.size(0), v.size(1), capacity, v.size(3))
            if self.length:
                grown_k[:, :, : self.length] = self.k
                grown_v[:, :, : self.length] = self.v
            self._k, self._v = grown_k, grown_v
        self._k[:, :, self.length:end] = k
        self._v[:, :, self.length:end] = v
        self.length = end
        return self.k, self.v

    def truncate(self, length: int) -> None:
        """Forget every position from ``length`` on (a rejected draft, see ``speculative.checked_greedy``)."""
        self.length = min(self.length, length)

    def reorder(self, index: Tensor) -> None:
        """Follow the beams that survived a beam-search step."""
        if self._k is not None:
            self._k, self._v = self._k.index_select(0, index), self._v.index_select(0, index)
