"""``align``: word alignments from cross-attention (Pharaoh ``i-j``), scored against gold links if given."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING

from model.analysis.held_out import read_lines
from model.cli.inputs import DEVICE_HELP, MODEL_HELP, load_model_arg
from model.cli.types import count, positive_int
from model.errors import UserError

if TYPE_CHECKING:
    import numpy as np


def cross_maps(loaded, src: list[str], ref: list[str] | None) -> list[tuple[np.ndarray, tuple, tuple]]:
    """Per sentence (L, H, T, S) cross weights, source pieces, the pieces each row produces.

    With references the decoder is forced along them (the gold alignment is over the reference's words);
    without, it reads the model's own greedy translation."""
    import torch

    from model.decoding.decode import capture, encode_source, translate
    out = []
    for i, text in enumerate(src):
        if ref is None:
            m = translate(loaded, text, beam_size=1).attention
            out.append((m.cross, m.source_tokens, m.predicted_tokens))
            continue
        # The reference is target text: the target tokenizer (and vocabulary, where Marian's are separate).
        ids, tgt = encode_source(loaded, text), loaded.tokenizer.encode_target(ref[i]) + [loaded.config.eos_id]
        _, _, cross = capture(loaded.model, torch.tensor([ids], device=loaded.device), tgt)
        out.append((cross, tuple(loaded.tokenizer.source_pieces(ids)), tuple(loaded.tokenizer.pieces(tgt))))
    return out


def cmd_align(a) -> int:
    from model.analysis.alignment import align, parse_gold_line, pharaoh, score
    from model.files import check_writable
    if a.out:  # before the model loads and the sentences are translated, not after
        check_writable(a.out, "--out", (("--src", a.src), ("--ref", a.ref), ("--gold", a.gold)))
    src = read_lines(a.src, "source")
    ref = read_lines(a.ref, "reference") if a.ref else None
    if ref is not None and len(ref) != len(src):
        raise UserError(f"{a.src} has {len(src)} lines but {a.ref} has {len(ref)}: they must be aligned")
    gold = None
    if a.gold:
        lines = read_lines(a.gold, "gold alignment")
        if len(lines) < len(src if not a.limit else src[: a.limit]):
            raise UserError(f"{a.gold} has {len(lines)} lines, fewer than the {len(src)} sentences")
        gold = [parse_gold_line(line, f" on line {n + 1} of {a.gold}") for n, line in enumerate(lines)]
    if a.limit:
        src, ref = src[: a.limit], (ref[: a.limit] if ref else None)
    loaded = load_model_arg(a)
    n_layers, n_heads = loaded.config.n_layers, loaded.config.n_heads
    if not 1 <= a.layer <= n_layers or not 0 <= a.head <= n_heads:
        raise UserError(f"this model has layers 1–{n_layers} and heads 1–{n_heads} (head 0: the layer's mean)")
    maps = cross_maps(loaded, src, ref)

    def links_for(layer: int, head: int):  # 1-based; head 0 = mean over the layer's heads
        return [align(c[layer - 1].mean(0) if head == 0 else c[layer - 1, head - 1], s, t, shift=a.shift)
                for c, s, t in maps]

    chosen = links_for(a.layer, a.head)
    if a.out:
        from model.files import write_atomic
        write_atomic(a.out, "".join(pharaoh(x) + "\n" for x in chosen))
    if gold is None:
        if not a.out:
            sys.stdout.write("".join(pharaoh(x) + "\n" for x in chosen))
        return 0
    gold = gold[: len(src)]
    result = {"layer": a.layer, "head": a.head, "shift": a.shift, **vars(score(chosen, gold))}
    every = [{"layer": layer, "head": head, **vars(score(links_for(layer, head), gold))}
             for layer in range(1, n_layers + 1) for head in range(n_heads + 1)]
    best = min(every, key=lambda r: r["aer"])
    if a.json:
        print(json.dumps({"chosen": result, "best": best, "all": every}))
    else:
        for name, r in (("chosen", result), ("best", best)):
            head = "mean" if r["head"] == 0 else r["head"]
            print(f"{name}: layer {r['layer']} head {head}  AER {r['aer']:.3f}  precision {r['precision']:.3f}"
                  f"  recall {r['recall']:.3f}")
    return 0


def add_align_command(subparsers) -> None:
    p = subparsers.add_parser("align", help="word alignments from cross-attention; AER against --gold")
    p.add_argument("--model", metavar="DIR", help=MODEL_HELP)
    p.add_argument("--device", default="cpu", metavar="DEVICE", help=DEVICE_HELP)
    p.add_argument("--src", required=True, metavar="FILE", help="source sentences, one a line")
    p.add_argument("--ref", metavar="FILE", help="target sentences to force (default: the model's own translation)")
    p.add_argument("--limit", type=count, default=0, help="use only the first N sentences (0: all)")
    p.add_argument("--layer", type=positive_int, default=1, help="cross-attention layer to read, 1-based (default 1)")
    p.add_argument("--head", type=count, default=0, help="head to read, 1-based; 0 = mean of the layer's heads")
    p.add_argument("--shift", action="store_true",
                   help="read the next decoding step's attention for each target word (Chen et al. 2020)")
    p.add_argument("--gold", metavar="FILE", help="gold links per line: i-j sure, i?j or 'i-j P' possible")
    p.add_argument("--out", metavar="FILE", help="write the chosen layer/head's links here (Pharaoh i-j)")
    p.add_argument("--json", action="store_true", help="with --gold: print every layer/head's scores as JSON")
    p.set_defaults(func=cmd_align)
