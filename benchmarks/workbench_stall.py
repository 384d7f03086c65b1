"""Responsiveness while head importance runs: the GUI event loop's longest stall, and how fast Cancel answers.

``python -m benchmarks.workbench_stall [--seconds 30] [--sentences 50] [--json OUT]``

The research workbench (``explorer.workbench.panel``) is shown and asked to score the heads of the built-in model
(``assets/models/en-de``, or ``$ATTENTION_EXPLORER_MODEL``) on the first ``--sentences`` of its held-out
set, exactly as its Run button does, with the cache in a temporary folder so the run really translates.
A 5 ms ``QTimer`` on the GUI thread records how late each tick arrives (``benchmarks.stall.TickRecorder``)
in three phases: ``idle`` (2 s before the run), ``prepare`` (Run pressed until the first pass is reported:
the worker imports torch and loads its own copy of the model) and ``run`` (``--seconds`` of passes). Then
Cancel is pressed and the time until the worker's ``cancelled`` signal reaches the GUI is measured.
Target: no stall over 50 ms in ``run``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def model_info(path: Path):
    """A ModelInfo from the folder's config.json, without importing torch on the GUI thread."""
    from model.records import ModelInfo
    cfg = json.loads((path / "config.json").read_text(encoding="utf-8"))["model"]
    return ModelInfo(path=str(path), config=tuple(sorted(cfg.items())), n_params=0, vocab_size=cfg["vocab_size"],
                     device="cpu", d_model=cfg["d_model"], n_layers=cfg["n_layers"], n_heads=cfg["n_heads"])


def measure(seconds: float, sentences: int, log=print) -> dict:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from benchmarks.machine import percentile
    from benchmarks.stall import TickRecorder, spin
    from explorer.ui.gc_guard import MainThreadGC
    from explorer.workbench.panel import Workbench
    app = QApplication.instance() or QApplication(sys.argv[:1])
    # As the app runs: the cyclic collector on the GUI thread's timer, and what a model load leaves frozen
    # (explorer/app.py). Without it a full pass walks all of torch and Qt, ~120-150 ms, wherever it falls.
    collector = MainThreadGC(app)
    path = Path(os.environ.get("ATTENTION_EXPLORER_MODEL") or REPO / "assets" / "models" / "en-de")
    with tempfile.TemporaryDirectory(prefix="attention-explorer-workbench-") as cache:
        wb = Workbench(cache_dir=cache)
        wb.resize(1024, 700)
        wb.show()
        wb.set_model(model_info(path))
        collector.settle()  # the app settles after each model load (controller.model_loaded)
        recorder = TickRecorder()
        progress, cancelled, failed = [], [], []
        wb.worker.progress.connect(lambda p: progress.append(p))
        wb.worker.cancelled.connect(lambda job, rid: cancelled.append(time.perf_counter()))
        wb.worker.failed.connect(lambda job, msg, rid: failed.append(msg))
        recorder.timer.start()
        recorder.set_phase("idle")
        spin(2.0)
        recorder.set_phase("prepare")
        wb.importance_view.run_bar.count.setValue(sentences)
        wb.importance_view.run_bar.run_button.click()
        spin(600, lambda: progress or failed)
        if failed:
            raise RuntimeError(failed[0])
        recorder.set_phase("run")
        spin(seconds, lambda: failed)
        passes = progress[-1].done
        recorder.set_phase("cancel")
        pressed = time.perf_counter()
        wb.importance_view.run_bar.cancel_button.click()
        spin(30, lambda: cancelled or failed)
        recorder.timer.stop()
        wb.shutdown()
        wb.close()
        app.processEvents()
        collector.stop()

    def stats(name: str) -> dict:
        late = recorder.late.get(name, [])
        return {"max_ms": max(late, default=float("nan")), "p99_ms": percentile(late, 99),
                "p50_ms": percentile(late, 50), "ticks": len(late)}
    result = {"model": str(path), "sentences": sentences, "passes_done": passes, "passes_total": progress[-1].total,
              "seconds_per_pass": progress[-1].elapsed_s / max(passes, 1),
              "idle": stats("idle"), "prepare": stats("prepare"), "run": stats("run"),
              "cancel_s": (cancelled[0] - pressed) if cancelled else float("nan")}
    log(f"workbench: max stall while importance runs {result['run']['max_ms']:.1f} ms "
        f"(p99 {result['run']['p99_ms']:.1f}), idle {result['idle']['max_ms']:.1f} ms, "
        f"while the worker starts {result['prepare']['max_ms']:.1f} ms; Cancel answered in "
        f"{result['cancel_s'] * 1000:.0f} ms; {passes}/{result['passes_total']} passes of {sentences} sentences")
    return result


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=30.0, help="how long to measure while the run goes on")
    p.add_argument("--sentences", type=int, default=50, help="held-out sentences per pass")
    p.add_argument("--json", metavar="OUT", help="write the figures here as JSON")
    a = p.parse_args(argv)
    result = measure(a.seconds, a.sentences)
    if a.json:
        Path(a.json).write_text(json.dumps(result, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
