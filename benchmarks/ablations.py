"""``python -m benchmarks.ablations --data DIR --runs DIR``: what vocabulary size, label smoothing and shared
embeddings each give, one change at a time against the built-in model's recipe.

Each variant trains the same reduced model (3 + 3 layers, d_model 128, 8 heads; the built-in model is
4 + 4 at d_model 256, far too slow to train six times on two cores) for the same number of steps on the
same corpus and batches of the same size, then translates the corpus's validation sentences (greedy and
beam 4) and is scored with sacrebleu. Validation loss is reported but not compared: it is not comparable
across vocabularies (a token is a different unit) nor across label smoothing. Two more seeds of the
baseline show how far runs of one recipe differ by chance, the yardstick for every other row.

Runs go two at a time with one thread each (``--parallel``); a finished run is not trained again nor
scored again, an interrupted one resumes from its last checkpoint, so the command can be repeated until
done. The results are a JSON file (``--json``) and a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

# The shipped recipe (see the Makefile's default-model) at a smaller size; variants append their change,
# and argparse keeps the last value of a repeated flag.
ARCH = "--preset small --layers 3 --d-model 128 --heads 8 --d-ff 512 --dropout 0.1 --vocab-size 4000"
RECIPE = "--batch-tokens 4000 --warmup 1000 --lr-scale 0.5 --label-smoothing 0.1"


@dataclass(frozen=True)
class Variant:
    name: str
    label: str
    flags: tuple[str, ...] = ()


VARIANTS = (
    Variant("baseline", "recipe: 4,000 pieces, label smoothing 0.1, shared embeddings"),
    Variant("seed2", "the same recipe, seed 2 (chance)", ("--seed", "2")),
    Variant("seed3", "the same recipe, seed 3 (chance)", ("--seed", "3")),
    Variant("ls0", "no label smoothing", ("--label-smoothing", "0")),
    Variant("unshared", "separate source, target and output matrices", ("--no-share-embeddings",)),
    Variant("vocab2000", "2,000 pieces", ("--vocab-size", "2000")),
    Variant("vocab8000", "8,000 pieces", ("--vocab-size", "8000")),
)


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def train_argv(v: Variant, data: Path, run: Path, steps: int, arch: str, amp: bool) -> list[str]:
    """The command line that trains (or resumes) one variant."""
    cli = [sys.executable, "-m", "model.cli", "train"]
    tail = ["--max-steps", str(steps), "--checkpoint-every", "500", "--keep", "2", "--threads", "1"]
    tail += ["--cpu-amp"] if amp else []
    corpus = ["--src", str(data / "train.en"), "--tgt", str(data / "train.de"),
              "--valid-src", str(data / "valid.en"), "--valid-tgt", str(data / "valid.de")]
    if (run / "LATEST").is_file():  # interrupted: carry on with the saved settings, on the corpus named again
        return cli + ["--resume", str(run)] + corpus + tail  # (a resume reads only the files it is given)
    return cli + corpus + ["--out", str(run), "--valid-every", str(steps)] + shlex.split(arch) \
        + shlex.split(RECIPE) + list(v.flags) + tail


def finished(run: Path, steps: int) -> bool:
    latest = run / "LATEST"
    return latest.is_file() and latest.read_text(encoding="utf-8").strip() == f"step-{steps:08d}"


def train_all(variants: list[Variant], data: Path, runs: Path, steps: int, arch: str, amp: bool,
              parallel: int) -> None:
    todo = [v for v in variants if not finished(runs / v.name, steps)]
    for v in variants:
        if v not in todo:
            log(f"{v.name}: already trained to step {steps}")
    running: list[tuple[Variant, subprocess.Popen]] = []
    while todo or running:
        while todo and len(running) < parallel:
            v = todo.pop(0)
            runs.mkdir(parents=True, exist_ok=True)
            log(f"{v.name}: training ({v.label})")
            with open(runs / f"{v.name}.log", "a", encoding="utf-8") as out:
                running.append((v, subprocess.Popen(train_argv(v, data, runs / v.name, steps, arch, amp),
                                                    stdout=out, stderr=subprocess.STDOUT)))
        time.sleep(0.2)
        for v, proc in list(running):
            if proc.poll() is not None:
                running.remove((v, proc))
                if proc.returncode or not finished(runs / v.name, steps):
                    for _other, rest in running:  # they save a checkpoint on SIGTERM; a rerun resumes them
                        rest.terminate()
                        rest.wait()
                    why = f"failed (exit {proc.returncode})" if proc.returncode else f"stopped before step {steps}"
                    raise SystemExit(f"{v.name}: training {why}; see {runs / f'{v.name}.log'} "
                                     "(run the command again to resume)")
                log(f"{v.name}: done")


def _history(run: Path) -> tuple[float | None, float | None]:
    """(minutes inside the training loop, last validation loss) from the run's log.jsonl."""
    minutes, loss = None, None
    for line in (run / "log.jsonl").read_text(encoding="utf-8").splitlines():
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            continue
        if rec.get("elapsed_s") is not None:
            minutes = rec["elapsed_s"] / 60  # the trainer carries elapsed time over a resume
        if rec.get("valid_loss") is not None:
            loss = rec["valid_loss"]
    return minutes, loss


def evaluate(v: Variant, run: Path, data: Path, limit: int | None, beam: int) -> dict:
    """Score one finished run; the result is kept in the run folder and reused while the checkpoint, the
    sentences and the search are the same (a repeated command only scores what is new)."""
    from model.checkpoint import resolve
    cache = run / "ablation_scores.json"
    key = {"checkpoint": resolve(run).name, "data": str(data.resolve()), "limit": limit, "beam": beam}
    if cache.is_file():
        saved = json.loads(cache.read_text(encoding="utf-8"))
        if saved.get("key") == key:
            log(f"{v.name}: scores from {cache}")
            return {**saved["result"], "name": v.name, "label": v.label, "flags": list(v.flags)}
    result = _score(v, run, data, limit, beam)
    cache.write_text(json.dumps({"key": key, "result": result}, indent=1) + "\n", encoding="utf-8")
    return result


def _score(v: Variant, run: Path, data: Path, limit: int | None, beam: int) -> dict:
    from model.card.scores import score
    from model.checkpoint import load_model
    from model.training.data import read_parallel
    loaded = load_model(run)
    pairs = read_parallel(data / "valid.en", data / "valid.de").pairs[:limit]
    src, ref = [s for s, _ in pairs], [t for _, t in pairs]
    greedy, _ = score(loaded, src, ref, beam=1)
    searched, _ = score(loaded, src, ref, beam=beam)
    minutes, valid_loss = _history(run)
    cfg = loaded.model.cfg
    log(f"{v.name}: greedy BLEU {greedy.bleu} chrF {greedy.chrf}; "
        f"beam {beam} BLEU {searched.bleu} chrF {searched.chrf}")
    return {"name": v.name, "label": v.label, "flags": list(v.flags), "parameters": loaded.model.num_parameters(),
            "vocab_size": cfg.vocab_size, "share_embeddings": cfg.share_embeddings,
            "train_minutes": None if minutes is None else round(minutes, 1),
            "valid_loss": None if valid_loss is None else round(valid_loss, 3),
            "sentences": greedy.sentences, "greedy": {"bleu": greedy.bleu, "chrf": greedy.chrf},
            "beam": {"size": beam, "alpha": searched.alpha, "bleu": searched.bleu, "chrf": searched.chrf}}


def table(results: dict) -> str:
    from model.card.paragraphs import ablation_table
    return ablation_table(results)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.ablations", description=__doc__.splitlines()[0])
    p.add_argument("--data", type=Path, required=True, help="a corpus folder from `attention-explorer data ding`")
    p.add_argument("--runs", type=Path, required=True, help="one run folder per variant goes here")
    p.add_argument("--steps", type=int, default=5000)
    p.add_argument("--only", default="", help="comma-separated variant names (default: all)")
    p.add_argument("--parallel", type=int, default=2)
    p.add_argument("--arch", default=ARCH, help="model flags shared by every variant")
    p.add_argument("--limit", type=int, default=None, help="score the first N validation sentences only")
    p.add_argument("--beam", type=int, default=4)
    p.add_argument("--no-cpu-amp", action="store_true", help="train in fp32 even where bf16 is native")
    p.add_argument("--json", type=Path, default=None)
    a = p.parse_args(argv)
    names = [n for n in a.only.split(",") if n]
    unknown = set(names) - {v.name for v in VARIANTS}
    if unknown:
        p.error(f"unknown variant(s) {', '.join(sorted(unknown))}; choose from {', '.join(v.name for v in VARIANTS)}")
    variants = [v for v in VARIANTS if not names or v.name in names]
    for f in ("train.en", "train.de", "valid.en", "valid.de"):
        if not (a.data / f).is_file():
            p.error(f"{a.data} has no {f}: build a corpus with `attention-explorer data ding --out DIR`")
    from model.training.device import cpu_has_native_bf16
    amp = not a.no_cpu_amp and cpu_has_native_bf16()
    train_all(variants, a.data, a.runs, a.steps, a.arch, amp, a.parallel)
    results = {"data": str(a.data), "steps": a.steps, "arch": a.arch, "recipe": RECIPE, "cpu_amp": amp,
               "date": time.strftime("%Y-%m-%d"),
               "variants": [evaluate(v, a.runs / v.name, a.data, a.limit, a.beam) for v in variants]}
    if a.json:
        a.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
