"""``python -m benchmarks.ct2_compare [--rounds R] [--sentences N] [--json OUT]``: our translation against
CTranslate2 float32 and int8 on the same model (``benchmarks.ct2`` converts it), as ratios.

* agreement: greedy output ids of ours (``decode_batches``) and of each CTranslate2 model on the first N
  held-out sentences; the count of identical outputs is printed (a ratio means something only if high).
* latency: one sentence at a time, 1 thread, for the ~5, 20 and 50-piece sentences of
  ``benchmarks.latency``: our ``translate`` (greedy, with capture, as the window runs it) against
  CTranslate2's ``translate_batch`` of that one sentence; interleaved rounds (``machine.interleaved``),
  the ratio is the median over rounds of ours / theirs within a round. The same for beam 4 (ours: the
  window's beam search with capture). Greedy also runs drafted with the int8 kernel this machine does not
  choose (model/decoding/int8.py), in the same rounds: ``ct2_greedyN_ratio_<kernel>`` is ours / that.
* throughput: greedy over the N sentences in batches of 64, ours (``translate_many``) against CTranslate2 with
  as many intra-op threads, both on the same length-sorted batches (``benchmarks.ct2.greedy_ids``), and ours
  in int8 (``evaluate --int8``, model/decoding/int8_eval.py) against CTranslate2 int8
  (``ct2_batch…_int8_ratio_int8``; ``int8_agree_fp32``: how many of its outputs equal fp32's), on 1 thread and
  again on ``eval_threads()`` threads where that is more (what ``evaluate`` would use); interleaved rounds
  likewise. Both counts, because on the 2-core machine we measure on, CTranslate2 itself ran slower on 2
  threads than on 1 (int8 0.84–1.21 s against 0.45–0.63 s for 300 sentences, in a process without torch as
  well), so one count alone misleads.

Needs the ``bench`` extra (ctranslate2). Ratios > 1 mean we are slower.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path


def run(rounds: int = 7, sentences: int = 1000, log=print) -> dict:
    import ctranslate2

    from benchmarks.ct2 import convert, greedy_ids
    from benchmarks.latency import pick_sentences
    from benchmarks.machine import interleaved, median_ratio, summary_ms
    from model.analysis.held_out import load_pairs
    from model.builtin import default_model_dir
    from model.checkpoint import load_model
    from model.decoding.batches import decode_batches, translate_many
    from model.decoding.decode import translate
    from model.decoding.int8_eval import evaluation_model
    from model.decoding.threads import eval_threads
    loaded = load_model(default_model_dir())
    eos = loaded.config.eos_id
    texts, _ = load_pairs(loaded.path, limit=sentences, need_ref=False)
    threads = eval_threads()
    counts = sorted({1, threads})
    tmp = Path(tempfile.mkdtemp(prefix="ct2-"))
    engines = {q: (convert(loaded, tmp / q, None if q == "float32" else q)) for q in ("float32", "int8")}
    one = {q: ctranslate2.Translator(str(p), device="cpu", inter_threads=1, intra_threads=1)
           for q, p in engines.items()}
    many = {n: {q: ctranslate2.Translator(str(p), device="cpu", inter_threads=1, intra_threads=n)
                for q, p in engines.items()} for n in counts}
    out = {"ct2_version": ctranslate2.__version__, "ct2_sentences": len(texts), "ct2_threads": threads}

    int8_model = evaluation_model(loaded.model)  # evaluate --int8 (model/decoding/int8_eval.py)
    ours = {}
    for name, m in (("", loaded.model), ("int8_", int8_model)):
        if m is not None:
            _, ids = decode_batches(m, loaded.tokenizer, texts, threads=threads)
            ours[name] = [[t for t in x if t != eos] for x in ids]
    for q, tr in many[threads].items():
        theirs = greedy_ids(tr, loaded, texts)
        for name, ids in ours.items():
            same = sum(a == b for a, b in zip(ids, theirs))
            out[f"ct2_agree_{name}{q}"] = f"{same}/{len(texts)}"
            log(f"  greedy outputs of ours{' --int8' if name else ''} identical to CTranslate2 {q}: "
                f"{same}/{len(texts)}")
    if "int8_" in ours:
        same = sum(a == b for a, b in zip(ours[""], ours["int8_"]))
        out["int8_agree_fp32"] = f"{same}/{len(texts)}"
        log(f"  greedy outputs of ours --int8 identical to ours fp32: {same}/{len(texts)}")

    tok = loaded.tokenizer
    other_kernel, other = _other_int8_kernel(loaded)
    if other is not None:
        out["draft_compared_with"] = other_kernel
    for beam in (1, 4):
        search = "greedy" if beam == 1 else f"beam{beam}_"
        for n, text in pick_sentences(tok).items():
            pieces = tok.pieces(tok.encode(text) + [eos])
            cases = {"ours": lambda t=text, b=beam: translate(loaded, t, beam_size=b)}
            for q, tr in one.items():
                # Beam scores differ by design (our GNMT length penalty against CTranslate2's length^α),
                # so beam outputs may differ; the work per step is the same search over 4 rows.
                cases[q] = lambda tr=tr, p=pieces, b=beam: tr.translate_batch(
                    [p], beam_size=b, length_penalty=0.6 if b > 1 else 1.0, max_decoding_length=len(p) + 50)
            if beam == 1 and other is not None:  # the same search drafted with the other int8 kernel
                cases[f"ours_{other_kernel}"] = lambda t=text: translate(other, t)
            times = interleaved(cases, rounds)
            key = f"ct2_{search}{n}"
            for q in one:
                out[f"{key}_ratio_{q}"] = round(median_ratio(times["ours"], times[q]), 2)
            out[f"{key}_ms"] = {k: summary_ms(v) for k, v in times.items()}
            log(f"  {n} pieces, beam {beam}, 1 thread: ours {out[f'{key}_ms']['ours']['p50']:.1f} ms p50, "
                + ", ".join(f"{q} ×{out[f'{key}_ratio_{q}']}" for q in one))
            if f"ours_{other_kernel}" in times:
                ratio = out[f"{key}_ratio_{other_kernel}"] = round(
                    median_ratio(times["ours"], times[f"ours_{other_kernel}"]), 2)
                log(f"    drafted with {other_kernel} instead: "
                    f"{out[f'{key}_ms'][f'ours_{other_kernel}']['p50']:.1f} ms p50 (ours ×{ratio} of it)")

    for n in counts:
        cases = {"ours": lambda n=n: translate_many(loaded.model, tok, texts, threads=n)}
        if int8_model is not None:
            cases["ours_int8"] = lambda n=n: translate_many(int8_model, tok, texts, threads=n)
        for q, tr in many[n].items():
            cases[q] = lambda tr=tr: greedy_ids(tr, loaded, texts)
        times = interleaved(cases, max(3, rounds // 3))  # one round of ~1.3 s cases varied ±15 % here
        key = "ct2_batch" if n == 1 else f"ct2_batch_{n}threads"
        for q in many[n]:
            out[f"{key}_ratio_{q}"] = round(median_ratio(times["ours"], times[q]), 2)
        if int8_model is not None:  # like for like: our int8 evaluation against CTranslate2's int8
            out[f"{key}_int8_ratio_int8"] = round(median_ratio(times["ours_int8"], times["int8"]), 2)
        out[f"{key}_s"] = {k: round(min(v), 2) for k, v in times.items()}
        log(f"  greedy over {len(texts)} sentences, {n} thread(s): {out[f'{key}_s']}, "
            + ", ".join(f"{q} ×{out[f'{key}_ratio_{q}']}" for q in many[n])
            + (f", ours --int8 / int8 ×{out[f'{key}_int8_ratio_int8']}" if int8_model is not None else ""))
    return out


def _other_int8_kernel(loaded):
    """(name, a copy of ``loaded`` whose greedy search drafts another way), or (None, None): against the
    native draft step (model/native), the PyTorch int8 copy this machine chooses ("torch_int8"); without
    it, the int8 kernel this machine does not choose (model/decoding/int8.py says which is chosen where)."""
    import dataclasses

    from model.decoding import int8
    from model.native import build, draft_weights
    build.library(wait=True)  # timed translations never wait for the compiler
    if draft_weights(loaded) is not None:
        return "torch_int8", dataclasses.replace(loaded, native_cache=False)
    chosen = int8.search_copy(loaded)
    if chosen is None or not int8.weight_only_available():
        return None, None
    weight_only = any(m._rows is not None for m in chosen.modules() if isinstance(m, int8.Int8Linear))
    copy = dataclasses.replace(loaded, search_cache=int8.search_model(loaded.model, weight_only=not weight_only))
    return ("fbgemm" if weight_only else "weight_only"), copy


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.ct2_compare", description=__doc__.split("\n")[0])
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--sentences", type=int, default=1000)
    p.add_argument("--json", metavar="OUT")
    a = p.parse_args(argv)
    out = run(a.rounds, a.sentences, log=lambda m: print(m, file=sys.stderr, flush=True))
    print(json.dumps(out, indent=1))
    if a.json:
        Path(a.json).write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
