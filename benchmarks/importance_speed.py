"""``python -m benchmarks.importance_speed [--model DIR] [--sentences N] [--before K] [--json OUT]``: head
importance on the model's held-out sentences, exact and gradient, against the one-at-a-time path.

* gradient: ``model.analysis.gradient_importance`` (one forward and backward pass over the N sentences).
* exact: ``model.analysis.importance.head_importance``, no cache: 1 + 2·(3·L·H) ablations decoded in
  groups of many ablations at once (``model.analysis.batched_ablation``).
* before: the path it replaced, one ``translate_many`` per ablation, timed on K ablations (half of them
  encoder heads, half decoder and cross heads, as in a run) and scaled to a whole run's 1 + 2·(3·L·H);
  the same K ablations decoded batched must give the same hypotheses (the agreement is printed).

Threads as the window's run chooses them (``eval_threads``). One run each: a run is long enough.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path


def run(model: str | None = None, sentences: int = 200, before: int = 8, log=print) -> dict:
    from model.analysis.batched_ablation import decode_ablations
    from model.analysis.gradient_importance import gradient_importance
    from model.analysis.held_out import load_pairs
    from model.analysis.importance import head_importance
    from model.builtin import default_model_dir
    from model.checkpoint import load_model
    from model.decoding.ablation import head_masks
    from model.decoding.batches import translate_many
    from model.decoding.threads import eval_threads
    from model.records import KINDS
    loaded = load_model(model or default_model_dir())
    cfg = loaded.config
    src, ref = load_pairs(loaded.path, limit=sentences)
    threads = eval_threads()
    heads = [(k, layer, h) for k in KINDS for layer in range(cfg.n_layers) for h in range(cfg.n_heads)]
    passes = 1 + 2 * len(heads)
    out = {"importance_sentences": len(src), "importance_threads": threads, "importance_passes": passes}

    t = time.perf_counter()
    gradient_importance(loaded, src, ref, threads=threads)
    out["importance_gradient_s"] = round(time.perf_counter() - t, 2)
    log(f"  gradient importance, {len(src)} sentences: {out['importance_gradient_s']:.1f} s")

    t = time.perf_counter()
    head_importance(loaded, src, ref)
    out["importance_exact_s"] = round(time.perf_counter() - t, 1)
    log(f"  exact importance, {len(src)} sentences, {passes} passes: {out['importance_exact_s']:.1f} s")

    if before:
        enc = [h for h in heads if h[0] == "encoder"]
        rest = [h for h in heads if h[0] != "encoder"]
        sample = [[h] for h in enc[: before // 2]] + [[h] for h in rest[: before - before // 2]]
        t = time.perf_counter()
        alone = [translate_many(loaded.model, loaded.tokenizer, src, beam_size=1, threads=threads,
                                head_masks=head_masks(a, cfg.n_layers, cfg.n_heads)) for a in sample]
        per_pass = (time.perf_counter() - t) / len(sample)
        batched = decode_ablations(loaded.model, loaded.tokenizer, src, sample, threads=threads)
        same = sum(x == y for a, b in zip(alone, batched) for x, y in zip(a, b))
        out["importance_before_s"] = round(per_pass * passes, 1)
        out["importance_agreement"] = f"{same}/{len(sample) * len(src)}"
        log(f"  before (one ablation at a time): {per_pass:.2f} s a pass, ≈ {out['importance_before_s']:.0f} s "
            f"a run (scaled from {len(sample)} passes); batched hypotheses identical: {out['importance_agreement']}")
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.importance_speed", description=__doc__.split("\n")[0])
    p.add_argument("--model", help="model folder (default: the built-in model)")
    p.add_argument("--sentences", type=int, default=200)
    p.add_argument("--before", type=int, default=8, help="ablations timed one at a time (0: skip)")
    p.add_argument("--json", metavar="OUT")
    a = p.parse_args(argv)
    out = run(a.model, a.sentences, a.before, log=lambda m: print(m, file=sys.stderr, flush=True))
    print(json.dumps(out, indent=1))
    if a.json:
        Path(a.json).write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
