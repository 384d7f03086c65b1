"""Padding-free position-wise layers in training: where a padded batch's real tokens sit.

Apart from the layers (model/layers.py) because it is an implementation's economy, not part of the
paper's model: the numbers are those of the padded batch, with the padding's rows never computed.
"""

from __future__ import annotations

from torch import Tensor


class Packing:
    """Where the real tokens of a padded (B, T) batch sit, so position-wise layers can skip the padding.

    Length-bucketed training batches still carry about 15% padding on the source side. Linear layers,
    layer norms and dropout then run on the N real tokens alone, packed as (N, C); only attention
    scatters them back into the padded (B, T, C) layout it works in.
    """

    def __init__(self, keep: Tensor) -> None:
        self.batch, self.length = keep.shape  # keep: bool (B, T), True = a real token
        self.index = keep.reshape(-1).nonzero().squeeze(1)  # (N,) flat positions of the real tokens
        self.positions = self.index % self.length  # (N,) each token's position in its sentence
        self.key_mask = keep[:, None, None, :]  # (B, 1, 1, T) for attention, True = may attend

    def pack(self, x: Tensor) -> Tensor:
        """(B, T, C) → (N, C)."""
        return x.reshape(self.batch * self.length, -1).index_select(0, self.index)

    def unpack(self, x: Tensor) -> Tensor:
        """(N, C) → (B, T, C), zeros at the padding."""
        c = x.size(-1)
        out = x.new_zeros(self.batch * self.length, c).index_copy(0, self.index, x)
        return out.view(self.batch, self.length, c)
