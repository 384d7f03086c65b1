"""``heads stats`` and ``heads importance``: what each attention head does over a test set."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from model.cli.inputs import DEVICE_HELP, MODEL_HELP, load_model_arg
from model.cli.types import at_least, count
from model.errors import UserError
from model.records.research import DEFAULT_SENTENCES


def _test_set(a, loaded, need_ref: bool):
    """--src/--ref, or the model's held-out set when --src is not given; the first --limit sentences."""
    from model.analysis.held_out import load_pairs
    if need_ref and a.src and not a.ref:
        raise UserError("give --ref with --src: the translations are scored against it")
    return load_pairs(loaded.path, a.src, getattr(a, "ref", None), a.limit, need_ref)


def cmd_stats(a) -> int:
    from model.analysis.held_out import statistics
    from model.files import check_writable, write_atomic
    from model.records.research import STATS
    if a.csv:  # before the model loads and the test set is translated, not after
        check_writable(a.csv, "--csv", (("--src", getattr(a, "src", None)), ("--ref", getattr(a, "ref", None))))
    loaded = load_model_arg(a)
    texts, _ = _test_set(a, loaded, need_ref=False)
    table = statistics(loaded, texts, beam_size=a.beam)
    if a.csv:
        write_atomic(a.csv, table.csv())
    if a.json:
        print(json.dumps({"sentences": table.sentences, "stats": list(STATS), "heads": table.rows()}))
    elif not a.csv:
        sys.stdout.write(table.csv())
    return 0


def cmd_importance(a) -> int:
    from model.analysis.importance import head_importance
    loaded = load_model_arg(a)
    src, ref = _test_set(a, loaded, need_ref=True)
    if a.gradient:
        from model.analysis.gradient_importance import gradient_importance
        estimate = gradient_importance(loaded, src, ref)
        if a.json:
            print(json.dumps(estimate.to_json()))
            return 0
        print(f"full model: loss {estimate.loss:.4f} ({estimate.sentences} sentences); |dloss/dgate| per head:")
        for name, value in sorted(estimate.scores, key=lambda s: -s[1]):  # most important first
            print(f"{name:<14} {value:9.4f}")
        return 0
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
    """'pass 12/49 over the test set, ETA 3 min 05 s' on stderr."""

    def __init__(self) -> None:
        from model.records.research import ProgressClock
        self.clock = ProgressClock("importance")

    def __call__(self, done: int, total: int) -> None:
        from model.records.research import format_eta
        eta = format_eta(self.clock(done, total).eta_s)
        print(f"\rpass {done}/{total} over the test set, {eta}   ", end="\n" if done == total else "",
              file=sys.stderr, flush=True)


def add_heads_commands(subparsers) -> None:
    """Register ``heads stats`` and ``heads importance`` on an argparse sub-parser collection."""
    heads = subparsers.add_parser("heads", help="per-head statistics and importance over a test set")
    heads.set_defaults(func=lambda args: (heads.print_help(), 2)[1])
    sub = heads.add_subparsers(dest="heads_command", metavar="WHAT")

    st = sub.add_parser("stats", help="mean entropy, confidence, distance and shares of every head")
    _common(st)
    st.add_argument("--beam", type=at_least(1, 64), default=1, help="beam size of the translations whose maps are read")
    st.add_argument("--csv", metavar="OUT", help="write the table as CSV to this file")
    st.add_argument("--json", action="store_true", help="print the table as JSON on stdout")
    st.set_defaults(func=cmd_stats)

    im = sub.add_parser("importance", help="BLEU and chrF with each head removed (Michel et al. 2019)")
    _common(im)
    im.add_argument("--ref", metavar="FILE", help="reference translations, one a line (with --src)")
    im.add_argument("--cache", metavar="FILE.json",
                    help="reuse results stored here for the same weights and data, and store new ones")
    im.add_argument("--gradient", action="store_true",
                    help="the fast estimate instead: |dloss/dgate| of each head, one backward pass (Michel et al.)")
    im.add_argument("--json", action="store_true", help="print the results as JSON on stdout")
    im.set_defaults(func=cmd_importance)


def _common(p) -> None:
    p.add_argument("--model", metavar="DIR", help=MODEL_HELP)
    p.add_argument("--device", default="cpu", metavar="DEVICE", help=DEVICE_HELP)
    p.add_argument("--src", metavar="FILE",
                   help="source sentences, one a line (default: the model's held-out set, heldout/test.en)")
    p.add_argument("--limit", type=count, default=DEFAULT_SENTENCES,
                   help=f"use only the first N sentences (default {DEFAULT_SENTENCES}; 0: all)")
