"""Evaluation speed: ``evaluate`` over the shipped model's held-out test sentences, greedy and beam 4.

Method: ``model.card.scores.score`` — exactly what ``attention-explorer evaluate`` and the model card run — on the
first N sentences of ``heldout/test.en`` of the benchmarked model folder (all 1,000 of the built-in
model; 100 with ``--quick``), threads chosen by ``model.decoding.decode.eval_threads`` as the CLI chooses them.
One run each: the time is that of a whole evaluation, long enough not to need repeats. Without a
held-out set (a random or checkpoint model) the section reports nothing.
"""

from __future__ import annotations

from pathlib import Path


def run(loaded, folder: Path, quick: bool = False, log=print) -> dict:
    from model.card.scores import score
    from model.decoding.threads import eval_threads
    src_path, ref_path = folder / "heldout" / "test.en", folder / "heldout" / "test.de"
    if not (src_path.is_file() and ref_path.is_file()):
        log("evaluate: no heldout/test.{en,de} beside the model; skipped")
        return {}
    src = src_path.read_text(encoding="utf-8").splitlines()[: 100 if quick else 1000]
    ref = ref_path.read_text(encoding="utf-8").splitlines()[: len(src)]
    out = {"evaluate_sentences": len(src), "evaluate_threads": eval_threads()}
    for beam in (1, 4):
        s, _ = score(loaded, src, ref, beam)
        out[f"evaluate_beam{beam}_s"] = s.seconds
        log(f"  evaluate {len(src)} sentences, beam {beam}: {s.seconds:.1f} s (BLEU {s.bleu:.2f}, chrF {s.chrf:.2f})")
    return out
