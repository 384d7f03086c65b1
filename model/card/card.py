"""Measure a shipped model and write its MODEL_CARD.md and floors.json from the numbers.

The card is generated, not hand-edited, so that every figure in it comes from one command run on the
shipped files: sacrebleu scores on the held-out test sentences (``scores``), what checkpoint averaging, beam
search and the length penalty each changed, the validation history of the run, the data and recipe
(``paragraphs``), and the sample sentences exactly as the model translates them. Usage (see the
Makefile's ``model-card``)::

    python -m model.card --model assets/models/en-de --run runs/default
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

from model.card.paragraphs import (
    ablations_section,
    agreement_note,
    baseline_note,
    data_paragraph,
    extra_tables,
    recipe_paragraph,
    score_rows,
    stage_commands,
    table,
)
from model.card.scores import PAPER_ALPHA, Score, baseline_key, floors, measure
from model.checkpoint import load_model
from model.corpus.lines import read_lines
from model.decoding.batches import translate_many
from model.decoding.threads import eval_threads
from model.files import write_atomic

__all__ = ["PAPER_ALPHA", "Score", "data_paragraph", "main", "render", "run_history"]


def run_history(run: Path | None) -> tuple[list[dict], dict | None]:
    """(validation records, last step record) from a run folder's log.jsonl; resumed runs append to it."""
    if run is None or not (run / "log.jsonl").is_file():
        return [], None
    valid, last = {}, None
    for line in (run / "log.jsonl").read_text(encoding="utf-8").splitlines():
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut short by a killed run
        if rec.get("event") == "valid" and rec.get("valid_loss") is not None:
            valid[rec["step"]] = rec  # a step repeated after a resume keeps its latest measurement
        if rec.get("event") == "step":
            last = rec
    return [valid[k] for k in sorted(valid)], last


def cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def render(model_dir: Path, run: Path | None, scores: dict[str, Score], samples: list[tuple[str, str]],
           template: str, status: str = "", history: str = "", ablations: Path | None = None,
           agreement: Path | None = None, extra_names: list[str] | None = None) -> str:
    meta = json.loads((model_dir / "config.json").read_text(encoding="utf-8"))
    tc_path = model_dir / "train_config.json"
    tc = json.loads(tc_path.read_text(encoding="utf-8")) if tc_path.is_file() else {}
    cfg, info = meta["model"], meta.get("meta", {})
    valid, last = run_history(run)
    step = int(info.get("step") or (last or {}).get("step") or 0)
    hours = (last or {}).get("elapsed_s", info.get("elapsed_s", 0.0)) / 3600
    averaged = info.get("averaged", [])
    valid_rows = [[str(r["step"]), f"{r['valid_loss']:.3f}",
                   "" if r.get("valid_bleu") is None else f"{r['valid_bleu']:.1f}"] for r in valid]
    base_keys = [k for k in map(baseline_key, range(len(scores))) if k in scores]
    comparisons = [scores[k] for k in (*base_keys, "raw_greedy", "greedy") if k in scores]
    if scores["greedy_b"].sentences != scores["greedy"].sentences:  # greedy on the beam rows' sentences too
        comparisons.append(scores["greedy_b"])
    comparisons += [scores["beam_a0"], scores["beam"]]
    fields = {
        "layers": cfg["n_layers"], "d_model": cfg["d_model"], "heads": cfg["n_heads"], "d_ff": cfg["d_ff"],
        "dropout": cfg["dropout"], "vocab": f"{cfg['vocab_size']:,}", "steps": f"{step:,}",
        "embedding": ("one embedding shared by source, target and output" if cfg.get("share_embeddings", True)
                      else "separate source, target and output embedding matrices"),
        "averaged": ", ".join(averaged) if averaged else "none",
        "n_averaged": len(averaged), "hours": f"{hours:.1f}",
        "hardware": f"{os.cpu_count()} CPU cores ({cpu_name()})",
        "valid_table": table(valid_rows, ["step", "valid loss", "valid BLEU (200 sentences, greedy)"]),
        "score_table": table(score_rows([scores["greedy"], scores["beam"]]), ["model", "test sentences", "decoding", "BLEU", "chrF"]),
        "ablation_table": table(score_rows(comparisons), ["model", "test sentences", "decoding", "BLEU", "chrF"]),
        "beam_n": f"{scores['beam'].sentences:,}", "bleu_100": f"{scores['beam_100'].bleu:.2f}",
        "chrf_100": f"{scores['beam_100'].chrf:.2f}",
        "floor_bleu": floors(scores["beam_100"])["bleu_100"], "floor_chrf": floors(scores["beam_100"])["chrf_100"],
        "samples_table": table([[s, t] for s, t in samples], ["English", "this model (beam 4)"]),
        "n_samples": len(samples), "extra_scores": extra_tables(scores, extra_names or []),
        "test_n": f"{scores['greedy'].sentences:,}",
        "date": time.strftime("%Y-%m-%d"), "status": status.strip(), "history": history.strip(),
        "data": data_paragraph(tc, step), "recipe": recipe_paragraph(tc),
        "finetune_command": stage_commands(tc),
        "baseline_note": baseline_note([scores[k].label for k in base_keys]),
        "ablations": ablations_section(ablations),
        # The agreement figures are Ding's: compare them with the Ding test score where there is one.
        "agreement": agreement_note(agreement, scores.get("ding-test_greedy", scores["greedy"])),
    }
    return template.format(**fields)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m model.card", description=__doc__.splitlines()[0])
    p.add_argument("--model", type=Path, default=Path("assets/models/en-de"))
    p.add_argument("--run", type=Path, help="the training run folder (log.jsonl, last checkpoint)")
    p.add_argument("--template", type=Path, default=None,
                   help="the card's Markdown template (default: card_template.md, or card_template_<pair>.md "
                        "beside it for a model whose held-out target is not German, e.g. _en-zh)")
    p.add_argument("--status", default="", help="a paragraph on where the model stands (Markdown)")
    p.add_argument("--status-file", type=Path, help="the same paragraph from a file kept with the model")
    p.add_argument("--history-file", type=Path, help="the history paragraph from a file kept with the model")
    p.add_argument("--beam-limit", type=int, default=1000, help="test sentences for the beam comparisons")
    p.add_argument("--history", default="", help="a paragraph on how the run went (Markdown)")
    p.add_argument("--baseline", type=Path, action="append", default=[],
                   help="another model folder to score greedily on the same sentences (repeatable)")
    p.add_argument("--baseline-label", action="append", default=[],
                   help="its row label in the comparison table (one per --baseline, in order)")
    p.add_argument("--ablations", type=Path, help="results of `python -m benchmarks.ablations --json`")
    p.add_argument("--progress", action="store_true", help="report progress of the long evaluations on stderr")
    p.add_argument("--agreement", type=Path,
                   help="results of `python -m benchmarks.reference_agreement --json` (a scale for the scores)")
    a = p.parse_args(argv)
    held = a.model / "heldout"
    tgt = target_suffix(held)
    template = a.template or _default_template(tgt)
    status = a.status_file.read_text(encoding="utf-8") if a.status_file else a.status
    history = a.history_file.read_text(encoding="utf-8") if a.history_file else a.history
    test_src, test_ref = _read_set(held / "test", tgt)
    # Further held-out sets beside test.{en,de} (e.g. ding-test.{en,de}, the previous model's test).
    extra = {f.stem: _read_set(f.with_suffix(""), tgt) for f in sorted(held.glob("*.en"))
             if f.stem != "test" and f.with_suffix(f".{tgt}").is_file()}
    raw = None
    if a.run is not None and (a.run / "LATEST").is_file():
        raw = a.run / (a.run / "LATEST").read_text().strip()
    labels = a.baseline_label + [f"baseline {i + 1}" for i in range(len(a.baseline_label), len(a.baseline))]
    progress = _progress_line if a.progress else None
    scores = measure(a.model, raw, test_src, test_ref, a.beam_limit, list(zip(a.baseline, labels)), extra, progress)
    for k, s in scores.items():
        print(f"{k:24} {s.label:40} {s.sentences:5} beam {s.beam} α {s.alpha:g}: BLEU {s.bleu:6.2f} "
              f"chrF {s.chrf:6.2f} ({s.seconds} s)")
    shipped = load_model(a.model)
    english = [t for t in read_lines(a.model / "samples.en", "samples") if t.strip()]
    samples = list(zip(english, translate_many(shipped.model, shipped.tokenizer, english, beam_size=4,
                                               threads=eval_threads())))
    text = render(a.model, a.run, scores, samples, template.read_text(encoding="utf-8"), status, history,
                  a.ablations, a.agreement, list(extra))
    write_atomic(a.model / "MODEL_CARD.md", text)
    write_atomic(a.model / "floors.json", json.dumps(floors(scores["beam_100"])) + "\n")
    write_atomic(a.model / "scores.json", json.dumps({k: vars(v) for k, v in scores.items()}, indent=1,
                                                     ensure_ascii=False) + "\n")
    print(f"wrote {a.model / 'MODEL_CARD.md'} and floors.json")
    return 0


def target_suffix(held: Path) -> str:
    """The target language of a model's held-out set: the suffix of the ``test.*`` file beside ``test.en``."""
    found = sorted(p.suffix[1:] for p in held.glob("test.*") if p.suffix != ".en")
    return "de" if "de" in found or not found else found[0]


def _default_template(tgt: str) -> Path:
    own = Path(__file__).with_name(f"card_template_en-{tgt}.md")
    return own if own.is_file() else Path(__file__).with_name("card_template.md")


def _read_set(prefix: Path, tgt: str = "de") -> tuple[list[str], list[str]]:
    src = read_lines(prefix.with_suffix(".en"), "held-out source")
    ref = read_lines(prefix.with_suffix(f".{tgt}"), "held-out reference")
    return src, ref


def _progress_line(done: int, total: int) -> None:
    if done == total or done % 200 < 64:
        print(f"  translated {done}/{total}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    raise SystemExit(main())
