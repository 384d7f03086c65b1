"""Head ablation: which heads to remove, and the (L, H) multiplier masks the model takes for them.

Heads are named as the window shows them, 1-based: ``enc:1.3`` is encoder self-attention, layer 1,
head 3; ``dec:`` is decoder self-attention and ``cross:`` encoder–decoder attention. Inside the program
a removed head is ``(kind, layer, head)`` 0-based with kind one of ``model.records.KINDS``.
"""

from __future__ import annotations

import torch
from torch import Tensor

from model.errors import UserError
from model.records import KINDS
from model.records.research import parse_head

Head = tuple[str, int, int]  # (kind, layer, head), 0-based


def parse_heads(spec: str, n_layers: int, n_heads: int) -> tuple[Head, ...]:
    """'enc:1.3,cross:4.2' → (('encoder', 0, 2), ('cross', 3, 1)); UserError naming the bad item."""
    out: list[Head] = []
    for item in (s.strip() for s in spec.split(",")):
        if not item:
            continue
        try:
            h = parse_head(item)
        except ValueError as exc:
            raise UserError(f"cannot read head {item!r}: {exc}") from None
        if not 0 <= h[1] < n_layers or not 0 <= h[2] < n_heads:
            raise UserError(f"head {item!r} does not exist: this model has layers 1–{n_layers} and heads "
                            f"1–{n_heads}")
        if h not in out:
            out.append(h)
    return tuple(out)


def head_masks(removed: tuple[Head, ...] | list[Head], n_layers: int, n_heads: int,
               device: str | torch.device = "cpu") -> dict[str, Tensor] | None:
    """{kind: (L, H) float mask, 0 at removed heads} for the kinds that lose a head; None when none do."""
    masks: dict[str, Tensor] = {}
    for kind, layer, head in removed:
        if kind not in KINDS:
            raise ValueError(f"unknown attention kind {kind!r}")
        m = masks.setdefault(kind, torch.ones(n_layers, n_heads, device=device))
        m[layer, head] = 0.0
    return masks or None


def removed_of(masks: dict[str, Tensor] | None) -> tuple[Head, ...]:
    """The heads a mask dict removes (multiplier exactly 0), in kind, layer, head order."""
    if not masks:
        return ()
    out = []
    for kind in KINDS:
        if kind in masks:
            for layer, head in (masks[kind] == 0).nonzero().tolist():
                out.append((kind, int(layer), int(head)))
    return tuple(out)
