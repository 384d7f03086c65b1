"""``python -m benchmarks [--quick] [--json OUT]``: run every benchmark, print one table, write JSON.

Sections, in this order (see each module's docstring for the method):

* ``machine``  processor, cores, torch, threads, date, load; the measured fp32 matmul peak
* ``latency``  translation latency: greedy / beam 4 × capture × cache × 5, 20, 50-piece sentences
* ``gui``      translate → painted, head and layer switches, the layers × heads grid, cold start
* ``stall``    the GUI event loop's longest stall while a tiny run trains on another thread
* ``evaluate`` ``evaluate`` over the model's 1,000 held-out test sentences, greedy and beam 4
* ``train``    training tokens/s against ``torch.nn.Transformer`` (small and base), MFU of base

``--quick`` is a smoke test (tiny shapes, few repeats, about a minute); its numbers are not results.
Progress goes to stderr, the table to stdout.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from pathlib import Path

SECTIONS = ("start", "latency", "gui", "stall", "evaluate", "train")
# (key, label, unit, target as (comparison, bound) or None)
ROWS = (
    ("train_ratio_small", "Training speed vs nn.Transformer, small", "×", (">=", 1.1)),
    ("train_ratio_base", "Training speed vs nn.Transformer, base", "×", (">=", 1.1)),
    ("train_ratio_small_matched", "… vs nn.Transformer without its 2 extra dropouts, small", "×", None),
    ("train_ratio_base_matched", "… vs nn.Transformer without its 2 extra dropouts, base", "×", None),
    ("train_cpu_amp_speedup_small", "Our training with --cpu-amp (bf16) vs fp32, small", "×", None),
    ("mfu_base", "Model FLOPs utilisation, base (of measured sgemm peak)", "%", None),
    ("mfu_base_torch", "… nn.Transformer's, base", "%", None),
    ("greedy20_ms_p50", "Translate 20 pieces, greedy + capture (p50)", "ms", ("<=", 50)),
    ("greedy20_fp32_ms_p50", "… the same, searched in fp32 alone (no int8 draft)", "ms", None),
    ("beam20_ms_p50", "Translate 20 pieces, beam 4 + capture (p50)", "ms", ("<=", 150)),
    ("cache_speedup_long", "KV cache speed-up, long output (100 pieces forced)", "×", (">", 1.0)),
    ("cache_speedup_greedy50", "KV cache speed-up, greedy translation of 50 pieces", "×", (">", 1.0)),
    ("evaluate_beam4_s", "Evaluate the 1,000 held-out test sentences, beam 4", "s", ("<=", 60)),
    ("evaluate_beam1_s", "… the same, greedy", "s", None),
    ("paint_ms_p50", "GUI: translate request → views painted (p50)", "ms", ("<=", 150)),
    ("head_switch_ms_p50", "GUI: switch head (p50)", "ms", ("<=", 16)),
    ("layer_switch_ms_p50", "GUI: switch layer (p50)", "ms", ("<=", 16)),
    ("head_switch_settled_ms_p50", "… switch head until the last paint pass (p50)", "ms", ("<=", 16)),
    ("head_switch_paint_passes_p50", "… paint passes per head switch (p50)", "passes", None),
    ("grid_ms_p50", "GUI: redraw the layers × heads grid (p50)", "ms", ("<=", 100)),
    ("cold_start_s", "GUI: cold start to first painted window", "s", ("<=", 3)),
    ("start_window_s", "attention-explorer: spawn to first painted window (best of 5)", "s", ("<=", 2.5)),
    ("start_screenshot_s", "… --screenshot with a translation, spawn to exit (best of 5)", "s", None),
    ("start_translate_s", "attention-explorer translate, spawn to exit (best of 5)", "s", ("<=", 2)),
    ("max_stall_ms", "GUI: longest event-loop stall while training", "ms", ("<=", 50)),
    ("max_stall_idle_ms", "… the same, training paused (baseline)", "ms", None),
    ("max_stall_prepare_ms", "… while a first run starts (one-off: imports, tokenizer)", "ms", None),
)


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def met(value: float, target) -> str:
    if target is None:
        return ""
    if not isinstance(value, (int, float)) or not math.isfinite(value):
        return "n/a"
    op, bound = target
    ok = {">=": value >= bound, "<=": value <= bound, ">": value > bound}[op]
    return "met" if ok else "MISSED"


def fmt(value, unit: str) -> str:
    if not isinstance(value, (int, float)):
        return "—"
    if unit == "%":  # a fraction, shown as a percentage
        return f"{100 * value:.1f} %"
    if unit == "passes":  # a count
        return f"{value:g}"
    if unit == "×":
        return f"{value:.2f}×"
    return f"{value:.3g} {unit}" if unit == "s" else f"{value:.1f} {unit}"


def table(results: dict) -> str:
    """A plain-text (Markdown) table of the headline figures with their targets."""
    lines = ["| Figure | Value | Target | |", "| --- | ---: | --- | --- |"]
    for key, label, unit, target in ROWS:
        if key not in results:
            continue
        value = results[key]
        goal = f"{target[0]} {target[1]:g}{'×' if unit == '×' else ' ' + unit}" if target else ""
        lines.append(f"| {label} | {fmt(value, unit)} | {goal.replace('>=', '≥').replace('<=', '≤')} | "
                     f"{met(value, target)} |")
    return "\n".join(lines)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="smoke test: tiny shapes, few repeats (~1 min)")
    p.add_argument("--json", metavar="OUT", help="write every figure and the machine facts to this file")
    p.add_argument("--train-threads", type=int, default=1, metavar="N",
                   help="torch threads for the training comparison (default 1; 0 = torch's default)")
    p.add_argument("--only", metavar="LIST", default=",".join(SECTIONS),
                   help=f"comma-separated sections to run (default: all of {','.join(SECTIONS)})")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    only = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = set(only) - set(SECTIONS)
    if unknown:
        log(f"unknown section(s): {', '.join(sorted(unknown))}; choose from {', '.join(SECTIONS)}")
        return 2
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    started = time.perf_counter()

    from benchmarks import machine
    from benchmarks.latency import resolve_model, temporary_workdir

    results: dict = {"quick": args.quick, "machine": machine.machine_facts()}
    log(f"machine: {results['machine']['cpu']}, {results['machine']['cores']} cores, "
        f"torch {results['machine']['torch']} with {results['machine']['threads']} threads")
    peak = machine.matmul_peak(512 if args.quick else 2048, 3 if args.quick else 7)
    results["machine"]["sgemm"] = peak
    log(f"  fp32 sgemm {peak['n']}³: {peak['gflops_p50']:.1f} GFLOP/s (p50)")
    sections: dict[str, float] = {}
    results["section_seconds"] = sections

    def timed(name: str, run) -> None:
        t0 = time.perf_counter()
        results.update(run())
        sections[name] = round(time.perf_counter() - t0, 1)

    with temporary_workdir() as tmp:
        t0 = time.perf_counter()
        bench = resolve_model(Path(tmp), args.quick)
        sections["model"] = round(time.perf_counter() - t0, 1)
        results["model"] = bench.describe()
        log(f"model: {bench.source} ({bench.origin})")
        if "start" in only:  # first, before this process's own work warms the file cache for it
            from benchmarks import start_time
            timed("start", lambda: start_time.run(args.quick, log))
        if "latency" in only:
            from benchmarks import latency
            timed("latency", lambda: latency.run(bench, args.quick, log))
        if "gui" in only or "stall" in only:
            from PySide6.QtWidgets import QApplication
            app = QApplication.instance() or QApplication([sys.argv[0]])
            app.setApplicationName("Attention Explorer benchmarks")
            os.environ["ATTENTION_EXPLORER_SETTINGS"] = str(Path(tmp) / "settings.ini")
        if "gui" in only:
            from benchmarks import gui_latency
            from benchmarks.latency import pick_sentences
            sentence = pick_sentences(bench.loaded.tokenizer)[20]
            timed("gui", lambda: gui_latency.run(bench.folder, sentence, args.quick, log))
        if "stall" in only:
            from benchmarks import stall
            timed("stall", lambda: stall.run(args.quick, log))
        if "evaluate" in only:
            from benchmarks import evaluate_speed
            timed("evaluate", lambda: evaluate_speed.run(bench.loaded, bench.folder, args.quick, log))
        if "train" in only:
            from benchmarks import train_throughput
            from benchmarks.latency import corpus_folder
            timed("train", lambda: train_throughput.run(bench.loaded.tokenizer, corpus_folder(), args.quick,
                                                          args.train_threads, log))
    results["seconds"] = round(time.perf_counter() - started, 1)
    print(table(results))
    m = results["machine"]
    print(f"\n{m['cpu']}, {m['cores']} cores, torch {m['torch']}, {m['threads']} threads, {m['date']}; "
          f"training compared on {results.get('train', {}).get('threads', '-')} thread(s); model: {bench.source}; "
          f"{results['seconds']:.0f} s" + (" (--quick: a smoke test, not results)" if args.quick else ""))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2, allow_nan=True) + "\n", encoding="utf-8")
        log(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
