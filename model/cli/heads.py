"""``heads stats`` and ``heads importance``: what each attention head does over a test set."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from model.cli.inputs import load_model_arg, read_lines
from model.errors import UserError


def _positive(text: str) -> int:
    import argparse
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError("must be >= 0")
    return value


def _sentences(a) -> list[str]:
    lines = [s for s in read_lines(a.src, "source") if s.strip()]
    lines = lines[: a.limit] if a.limit else lines
    if not lines:
        raise UserError(f"{a.src} holds no sentences")
    return lines


def cmd_stats(a) -> int:
    from model.analysis.head_stats import STATS, average, sentence_statistics
    from model.decoding.decode import translate
    from model.files import write_atomic
    texts = _sentences(a)
    loaded = load_model_arg(a)
    per = [sentence_statistics(translate(loaded, t, beam_size=a.beam).attention) for t in texts]
    table = average(per)
    if a.csv:
        write_atomic(a.csv, table.csv())
    if a.json:
        print(json.dumps({"sentences": table.sentences, "stats": list(STATS), "heads": table.rows()}))
    elif not a.csv:
        sys.stdout.write(table.csv())
    return 0


def cmd_importance(a) -> int:
    from model.analysis.importance import head_importance
    src = read_lines(a.src, "source")
    ref = read_lines(a.ref, "reference")
    if len(src) != len(ref):
        raise UserError(f"{a.src} has {len(src)} lines but {a.ref} has {len(ref)}: they must be aligned")
    if a.limit:
        src, ref = src[: a.limit], ref[: a.limit]
    if not src:
        raise UserError(f"{a.src} holds no sentences")
    loaded = load_model_arg(a)
    result = head_importance(loaded, src, ref, progress=None if a.json else _Passes(),
                             cache=Path(a.cache) if a.cache else None)
    if a.json:
        print(json.dumps(result.to_json()))
        return 0
    print(f"full model: BLEU {result.bleu:.2f}  chrF {result.chrf:.2f}  ({result.sentences} sentences"
          f"{', cached' if result.cached else ''})")
    print("removed alone     BLEU   ΔBLEU    chrF")
    for h in sorted(result.heads, key=lambda h: h.bleu):  # most important first
        print(f"{h.head:<14} {h.bleu:7.2f} {h.bleu - result.bleu:7.2f} {h.chrf:7.2f}")
    print("pruning curve (heads removed: BLEU): "
          + ", ".join(f"{n + 1}: {h.bleu:.1f}" for n, h in enumerate(result.curve)))
    return 0


class _Passes:
    """'pass 12/49 over the test set' on stderr."""

    def __call__(self, done: int, total: int) -> None:
        print(f"\rpass {done}/{total} over the test set", end="\n" if done == total else "", file=sys.stderr,
              flush=True)


def add_heads_commands(subparsers) -> None:
    """Register ``heads stats`` and ``heads importance`` on an argparse sub-parser collection."""
    heads = subparsers.add_parser("heads", help="per-head statistics and importance over a test set")
    heads.set_defaults(func=lambda args: (heads.print_help(), 2)[1])
    sub = heads.add_subparsers(dest="heads_command", metavar="WHAT")

    st = sub.add_parser("stats", help="mean entropy, confidence, distance and shares of every head")
    _common(st)
    st.add_argument("--beam", type=int, default=1, help="beam size of the translations whose maps are read")
    st.add_argument("--csv", metavar="OUT", help="write the table as CSV to this file")
    st.add_argument("--json", action="store_true", help="print the table as JSON on stdout")
    st.set_defaults(func=cmd_stats)

    im = sub.add_parser("importance", help="BLEU and chrF with each head removed (Michel et al. 2019)")
    _common(im)
    im.add_argument("--ref", required=True, metavar="FILE", help="reference translations, one a line")
    im.add_argument("--cache", metavar="FILE.json",
                    help="reuse results stored here for the same weights and data, and store new ones")
    im.add_argument("--json", action="store_true", help="print the results as JSON on stdout")
    im.set_defaults(func=cmd_importance)


def _common(p) -> None:
    p.add_argument("--model", metavar="DIR", help="model folder (default: the built-in model)")
    p.add_argument("--device", default="cpu", help="torch device to run on (cpu, cuda, mps)")
    p.add_argument("--src", required=True, metavar="FILE", help="source sentences, one a line")
    p.add_argument("--limit", type=_positive, default=0, help="use only the first N sentences (0: all)")
