"""The benchmark suite runs end to end (``--quick``) and reports every headline figure; no timings are judged.

Plus the premise of the training comparison: the fast training loss (packed tokens, output projection on
real targets only) equals the plain loss on the full logits, value and gradients.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch
import torch.nn.functional as F

from model.config import preset
from model.transformer import Transformer

REPO_ROOT = Path(__file__).resolve().parents[1]
KEYS = ("train_ratio_small", "train_ratio_base", "mfu_base", "greedy20_ms_p50", "beam20_ms_p50",
        "paint_ms_p50", "head_switch_ms_p50", "layer_switch_ms_p50", "grid_ms_p50",
        "head_switch_settled_ms_p50", "head_switch_paint_passes_p50", "cold_start_s",
        "max_stall_ms", "evaluate_beam1_s", "evaluate_beam4_s", "start_window_s", "start_screenshot_s",
        "start_translate_s")


@pytest.mark.slow
def test_quick_run_reports_every_figure(tmp_path):
    out = tmp_path / "bench.json"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", ATTENTION_EXPLORER_SETTINGS=str(tmp_path / "s.ini"))
    run = subprocess.run([sys.executable, "-m", "benchmarks", "--quick", "--json", str(out)], cwd=REPO_ROOT,
                         env=env, capture_output=True, text=True, timeout=900, check=False)
    assert run.returncode == 0, run.stderr[-3000:]
    results = json.loads(out.read_text(encoding="utf-8"))
    for key in KEYS:
        value = results.get(key)
        assert isinstance(value, (int, float)) and math.isfinite(value), f"{key} = {value!r}"
    assert results["quick"] is True
    from model.training.device import cpu_has_native_bf16
    if cpu_has_native_bf16():  # measured only where --cpu-amp can run
        assert results["train_cpu_amp_speedup_small"] > 0
    machine = results["machine"]
    for key in ("cpu", "cores", "torch", "threads", "date"):
        assert machine[key], key
    assert results["model"]["source"] in ("built-in", "checkpoint", "random")
    assert results["evaluate_sentences"] == 100  # --quick: the first 100 held-out sentences
    assert "| Figure |" in run.stdout  # the table


def test_fast_loss_equals_loss_on_full_logits():
    torch.manual_seed(0)
    model = Transformer(preset("tiny", vocab_size=50, dropout=0.0))
    src = torch.randint(4, 50, (3, 7))
    src[1, 4:], src[2, 6:] = 0, 0  # padded sources
    tgt = torch.randint(4, 50, (3, 6))
    tgt[0, 4:], tgt[2, 5:] = 0, 0  # padded targets
    logits, _ = model(src, tgt[:, :-1])
    plain = F.cross_entropy(logits.reshape(-1, 50), tgt[:, 1:].reshape(-1), ignore_index=0, label_smoothing=0.1)
    plain.backward()
    grads = [p.grad.clone() for p in model.parameters()]
    model.zero_grad()
    fast, none = model(src, tgt[:, :-1], target=tgt[:, 1:], label_smoothing=0.1)
    fast.backward()
    assert none is None
    torch.testing.assert_close(fast, plain, atol=1e-6, rtol=0)
    for (name, p), g in zip(model.named_parameters(), grads):
        torch.testing.assert_close(p.grad, g, atol=1e-6, rtol=1e-5, msg=name)


def test_the_table_writes_fractions_as_percentages_and_counts_as_counts():
    from benchmarks.__main__ import table  # noqa: PLC0415

    text = table({"mfu_base": 0.832, "head_switch_paint_passes_p50": 2.0, "greedy20_ms_p50": 16.94})
    rows = {line.split(" | ")[0].lstrip("| "): line.split(" | ")[1] for line in text.splitlines()[2:]}
    assert rows["Model FLOPs utilisation, base (of measured sgemm peak)"] == "83.2 %"
    assert rows["… paint passes per head switch (p50)"] == "2"  # it read "200.0 %"
    assert rows["Translate 20 pieces, greedy + capture (p50)"] == "16.9 ms"
