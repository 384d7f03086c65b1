"""Measure a shipped model and write its MODEL_CARD.md and floors.json from the numbers.

The card is generated, not hand-edited, so that every figure in it comes from one command run on the
shipped files: sacrebleu scores on the held-out Ding test sentences, what checkpoint averaging, beam search
and the length penalty each changed, the validation history of the run, and the twenty everyday sentences
exactly as the model translates them. Usage (see the Makefile's ``model-card``)::

    python -m model.card --model assets/default-model --run runs/default
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from model.checkpoint import LoadedModel, load_model
from model.decoding.decode import eval_threads, translate_many
from model.files import write_atomic

PAPER_ALPHA = 0.6  # the length penalty of the paper's section 6.1


@dataclass(frozen=True)
class Score:
    label: str
    sentences: int
    beam: int
    alpha: float
    bleu: float
    chrf: float
    seconds: float


def score(loaded: LoadedModel, src: list[str], ref: list[str], beam: int = 1, alpha: float = PAPER_ALPHA,
          label: str = "", progress=None) -> tuple[Score, list[str]]:
    """sacrebleu corpus BLEU and chrF (default 13a tokenisation) of the model's translations of src."""
    import sacrebleu
    t0 = time.perf_counter()
    hyps = translate_many(loaded.model, loaded.tokenizer, src, beam_size=beam, alpha=alpha,
                          threads=eval_threads(), progress=progress)
    bleu, chrf = sacrebleu.corpus_bleu(hyps, [ref]).score, sacrebleu.corpus_chrf(hyps, [ref]).score
    return Score(label, len(src), beam, alpha, round(bleu, 2), round(chrf, 2),
                 round(time.perf_counter() - t0, 1)), hyps


def floors(s: Score) -> dict[str, float]:
    """Test floors from the 100-pair beam-4 score measured at ship time.

    Half the BLEU and 80% of the chrF: a broken load, tokenizer or decoder scores about 0 and fails, while
    float differences between CPU math libraries (which flip a few beam choices) stay far above the floor.
    """
    return {"bleu_100": round(0.5 * s.bleu, 1), "chrf_100": round(0.8 * s.chrf, 1)}


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


def _stats(src: str) -> dict | None:
    """The stats.json that `attention-explorer data ding` wrote next to a corpus, if any."""
    if not src:  # a built-in task or a TSV: no statistics (and never a stats.json from the working folder)
        return None
    try:
        return json.loads((Path(src).parent / "stats.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _mix(name: str, st: dict) -> str:
    tr = st["train"]
    share = (f" ({tr['sentence_lines'] / max(1, tr['lines']):.0%} of them real sentences)"
             if "sentence_lines" in tr else "")
    chosen = st.get("everyday_phrases")
    terms = (f"{tr['phrase']:,} term pairs ({chosen:,} of them everyday ones — exclamations, and pairs whose every "
             "word the train sentences use twice — the rest a random sample)" if chosen is not None
             else f"{tr['phrase']:,} term pairs")
    return (f"`{name}`: the {tr['sentence']:,} remaining sentences ×{st['sentence_repeat']}, {terms} "
            f"and {st.get('augment', 0):,} synthetic sentences, {tr['lines']:,} pairs{share}")


def tatoeba_paragraph(st: dict, name: str) -> str:
    """Where the pairs came from, for a corpus that ``attention-explorer data tatoeba`` built."""
    tr, d = st["train"], st.get("dropped", {})
    ding = st.get("ding")
    terms = f", and {ding['phrases']:,} term pairs" if ding and ding.get("phrases") else ""
    mix = (f" plus the Ding dictionary's example sentences ×{ding['sentence_repeat']} ({ding['sentences']:,} "
           f"sentences, {tr['ding']:,} lines{terms}; "
           "Debian's `trans-de-en`, GPL-2.0-or-later, © Frank Richter, TU Chemnitz), whose own held-out "
           f"{ding['held_out'][0]:,} + {ding['held_out'][1]:,} sentences stay out of training"
           if ding else "")
    licence = ("Because the weights also derive from GPL-2+ data, they are distributed under GPL-2.0-or-later; the "
               "Tatoeba part asks for attribution (CC BY 2.0)." if ding else
               "The weights derive from CC BY 2.0 data: credit tatoeba.org and www.manythings.org/anki.")
    return (
        "English–German sentence pairs of the Tatoeba Project (tatoeba.org), as packaged by www.manythings.org/anki "
        f"(`deu.txt`; sha256 `{st.get('tatoeba_sha256', '?')[:12]}…`), licensed CC BY 2.0 — attribution: "
        "tatoeba.org and www.manythings.org/anki. `attention-explorer data tatoeba` cleans them (Unicode NFC, "
        f"whitespace; {d.get('too_long', 0):,} over-long, {d.get('identical_sides', 0):,} identical-sided and "
        f"{d.get('duplicate', 0):,} duplicate pairs dropped): {st['pairs']:,} pairs. {st['valid']:,} valid and "
        f"{st['test']:,} test pairs are held out so that *neither side* occurs in training (compared without case "
        f"and punctuation): {st.get('dropped_overlapping_held_out', 0):,} alternative translations left training "
        f"with them. Training mix `{name}`: {tr['tatoeba']:,} Tatoeba pairs{mix}; {tr['lines']:,} pairs in all. "
        + licence)


def data_paragraph(tc: dict, last_step: int = 0) -> str:
    """Where the training pairs came from, from the run's train_config.json and the corpora's stats.json.

    A run continued on another corpus lists its earlier corpora in ``stages``; each gets its step range.
    """
    if tc.get("task"):
        return f"The synthetic task `{tc['task']}` ({tc.get('task_size', 0):,} generated pairs)."
    corpora = [*tc.get("stages", []), {**{k: tc.get(k, "") for k in ("src", "tgt")}, "until_step": last_step}]
    stats = [_stats(c.get("src", "")) for c in corpora]
    if any(st is None for st in stats):
        return "Trained on " + ", then ".join(f"`{c.get('src') or c.get('task') or '?'}`" for c in corpora) + \
            " (no corpus statistics found)."
    st = stats[-1]
    if "tatoeba_sha256" in st and len(corpora) == 1:
        return tatoeba_paragraph(st, Path(tc["src"]).parent.name)
    if len(corpora) == 1:
        mixes = "Training mix " + _mix(Path(tc["src"]).parent.name, st) + "."
    else:
        parts, first = [], 1
        for c, cst in zip(corpora, stats):
            until = int(c.get("until_step") or 0)
            span = f"steps {first:,}–{until:,}" if until else f"from step {first:,}"
            parts.append(f"{span}, " + _mix(Path(c["src"]).parent.name, cst))
            first = until + 1
        mixes = "Training mixes, in turn: " + "; then ".join(parts) + "."
    return (
        "The Ding German–English dictionary as Debian's `trans-de-en` installs it (`/usr/share/trans/de-en`, "
        f"sha256 `{st.get('ding_sha256', '?')[:12]}…`, GPL-2.0-or-later; © Frank Richter, TU Chemnitz). "
        "`attention-explorer data ding` parses it (sub-entries aligned on ` | `, annotations such as `{f}`, "
        "`[techn.]`, `<…>`, `/ABBR/` removed, pairs with `sth.`/`jdn.` placeholders or ambiguous slashes "
        f"dropped): {st['pairs']['sentence']:,} example-sentence pairs and {st['pairs']['phrase']:,} term "
        f"pairs. {st['valid']:,} valid and {st['test']:,} test *sentences* are held out (neither side occurs in "
        f"training). {mixes} The synthetic everyday sentences are generated from the dictionary's own lexicon "
        "with hand-checked German grammar (`model/augment*.py`: articles by gender and case, conjugation, "
        "verb-second order; none equals a held-out sentence). Because the weights derive from GPL-2+ data, "
        "they are distributed under GPL-2.0-or-later too.")


def recipe_paragraph(tc: dict) -> str:
    """The optimisation settings of the run, from its train_config.json."""
    m = tc.get("model", {})
    amp = ("with `--cpu-amp` (bf16 autocast for the projections on CPUs with AVX512-BF16/AMX; attention, "
           "weights and optimizer state in fp32)") if tc.get("cpu_amp") else "in fp32"
    warmup = tc.get("warmup_steps")  # a card without train_config.json says "?" rather than failing
    return (f"Adam (0.9, 0.98, 1e-9), the eq. (3) schedule with warmup {'?' if warmup is None else f'{warmup:,}'} and "
            f"scale {tc.get('lr_scale', 1.0):g}, label smoothing {tc.get('label_smoothing', 0):g}, dropout "
            f"{m.get('dropout', '?')}, {tc.get('batch_tokens', 0):,}-token batches (source + target, padding "
            f"included), gradient clipping {tc.get('clip_norm', 0):g}, {amp}.")


def _stage_commands(tc: dict) -> str:
    """For a run continued on other corpora, the command that moved it onto each later one.

    The Makefile only holds the current one-stage recipe, so the card spells out the resume itself.
    """
    later = [*tc.get("stages", [])[1:], {k: tc.get(k, "") for k in ("src", "tgt")}] if tc.get("stages") else []
    return "".join(f"python -m model.cli train --resume $RUN --src {c.get('src', '?')} --tgt {c.get('tgt', '?')}"
                   "   # next stage: the same run on another mix\n" for c in later)


def cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _table(rows: list[list[str]], head: list[str]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in rows])


def _score_rows(scores: list[Score]) -> list[list[str]]:
    def decoding(s: Score) -> str:
        return "greedy" if s.beam == 1 else f"beam {s.beam}, α = {s.alpha:g}"
    return [[s.label, f"{s.sentences:,}", decoding(s), f"{s.bleu:.2f}", f"{s.chrf:.2f}"] for s in scores]


def ablation_table(results: dict) -> str:
    """``benchmarks.ablations`` results as a table. The recipe's runs (``baseline`` and ``seed*``) come first,
    then their mean with the lowest and highest value; every other variant shows its change against that
    mean in brackets, to be read against the seeds' spread."""
    rows = results.get("variants", [])
    recipe = [r for r in rows if r["name"] == "baseline" or r["name"].startswith("seed")]
    keys = [(k, m) for k in ("greedy", "beam") for m in ("bleu", "chrf")]
    mean = {km: sum(r[km[0]][km[1]] for r in recipe) / len(recipe) for km in keys} if recipe else {}
    beam = rows[0]["beam"]["size"] if rows else 4

    def cell(r: dict, km: tuple[str, str]) -> str:
        value = r[km[0]][km[1]]
        return f"{value:.2f}" if r in recipe or not mean else f"{value:.2f} ({value - mean[km]:+.2f})"
    body = [[r["label"], f"{r['parameters'] / 1e6:.2f} M"] + [cell(r, km) for km in keys] for r in recipe]
    if len(recipe) > 1:
        spread = [f"{mean[km]:.2f} ({min(r[km[0]][km[1]] for r in recipe):.2f}–{max(r[km[0]][km[1]] for r in recipe):.2f})"
                  for km in keys]
        body.append([f"**the recipe: mean of {len(recipe)} runs (lowest–highest)**", ""] + spread)
    body += [[r["label"], f"{r['parameters'] / 1e6:.2f} M"] + [cell(r, km) for km in keys] for r in rows
             if r not in recipe]
    return _table(body, ["variant", "parameters", "greedy BLEU", "greedy chrF", f"beam {beam} BLEU", f"beam {beam} chrF"])


def ablations_section(path: Path | None) -> str:
    """The card's paragraph on vocabulary size, label smoothing and shared embeddings, from the JSON that
    ``python -m benchmarks.ablations --json`` writes; empty without one."""
    if path is None:
        return ""
    res = json.loads(path.read_text(encoding="utf-8"))
    n = res["variants"][0]["sentences"] if res.get("variants") else 0
    return (f"Vocabulary size, label smoothing and shared embeddings need a run each, too slow at this size on two "
            f"cores, so they were measured on a smaller model of the same recipe (`{res['arch']}`, "
            f"`{res['recipe']}`), {res['steps']:,} steps per variant on `{Path(res['data']).name}`, scored on "
            f"{n:,} of its validation sentences (`python -m benchmarks.ablations`, {res['date']}). Brackets: the "
            f"change against the recipe's mean; a change inside the recipe runs' own spread is chance.\n\n"
            f"{ablation_table(res)}\n")


def agreement_note(path: Path | None, greedy: Score | None = None) -> str:
    """A scale for the test scores, from ``python -m benchmarks.reference_agreement --json``: how two of the
    dictionary's own German translations of one English sentence score against each other; empty without."""
    if path is None:
        return ""
    r = json.loads(path.read_text(encoding="utf-8"))["en_de"]
    if not r.get("sentences"):
        return ""
    share = (f" This model's greedy output reaches {greedy.bleu / r['bleu']:.0%} of that BLEU and "
             f"{greedy.chrf / r['chrf']:.0%} of that chrF." if greedy is not None else "")
    return (f"\nFor scale: where Ding gives two German translations of the same English sentence "
            f"({r['sentences']:,} sentences), its second translation scored against its first as the reference "
            f"reaches BLEU {r['bleu']:.1f} and chrF {r['chrf']:.1f} (`python -m benchmarks.reference_agreement`)."
            f"{share} Those sentences are often the ones that need a free translation, and a machine can score "
            f"above a second human by keeping to the usual wording, so this is a scale, not a ceiling.\n")


def _baseline_key(i: int) -> str:
    return "baseline_greedy" if i == 0 else f"baseline{i + 1}_greedy"


def _baseline_note(labels: list[str]) -> str:
    if not labels:
        return ""
    head = "The first row is another model" if len(labels) == 1 else f"The first {len(labels)} rows are other models"
    return f"{head} on the same sentences: " + "; ".join(labels) + "."


def measure(model_dir: Path, raw_dir: Path | None, test_src: list[str], test_ref: list[str],
            beam_limit: int, baselines: list[tuple[Path, str]] | None = None,
            extra_sets: dict[str, tuple[list[str], list[str]]] | None = None, progress=None) -> dict[str, Score]:
    """The card's scores. Each comparison changes one thing against the shipped model on the same sentences.

    The first test set gets every comparison; each of ``extra_sets`` (another held-out test, e.g. the
    previous model's) gets greedy and beam 4 for the shipped model and greedy for each baseline, under keys
    prefixed with its name.
    """
    shipped = load_model(model_dir)
    n = min(beam_limit, len(test_src))
    src_b, ref_b = test_src[:n], test_ref[:n]
    label = "shipped (averaged)"
    out = {
        "greedy": score(shipped, test_src, test_ref, 1, label=label, progress=progress)[0],
        "greedy_b": score(shipped, src_b, ref_b, 1, label=label)[0],
        "beam": score(shipped, src_b, ref_b, 4, PAPER_ALPHA, label=label, progress=progress)[0],
        "beam_a0": score(shipped, src_b, ref_b, 4, 0.0, label=label, progress=progress)[0],
        "beam_100": score(shipped, test_src[:100], test_ref[:100], 4, PAPER_ALPHA, label=label)[0],
    }
    if raw_dir is not None:
        raw = load_model(raw_dir)
        out["raw_greedy"] = score(raw, test_src, test_ref, 1, label=f"last checkpoint alone ({raw_dir.name})")[0]
    others = [(load_model(folder), lbl) for folder, lbl in baselines or []]
    for i, (other, lbl) in enumerate(others):  # other models on the same sentences, e.g. the previously
        # shipped one: keys baseline_greedy, baseline2_greedy, ...
        out[_baseline_key(i)] = score(other, test_src, test_ref, 1, label=lbl)[0]
    for name, (src, ref) in (extra_sets or {}).items():
        for i, (other, lbl) in enumerate(others):
            out[f"{name}_{_baseline_key(i)}"] = score(other, src, ref, 1, label=lbl, progress=progress)[0]
        out[f"{name}_greedy"] = score(shipped, src, ref, 1, label=label, progress=progress)[0]
        out[f"{name}_beam"] = score(shipped, src, ref, 4, PAPER_ALPHA, label=label, progress=progress)[0]
    return out


def extra_tables(scores: dict[str, Score], names: list[str]) -> str:
    """One section per extra held-out set: the baselines' and the shipped model's scores on it."""
    parts = []
    for name in names:
        keys = [k for k in scores if k.startswith(f"{name}_baseline")] + [f"{name}_greedy", f"{name}_beam"]
        rows = _score_rows([scores[k] for k in keys if k in scores])
        parts.append(f"### Held-out `{name}` sentences\n"
                     + _table(rows, ["model", "test sentences", "decoding", "BLEU", "chrF"]) + "\n\n"
                     f"Reproduce: `attention-explorer evaluate --src assets/default-model/heldout/{name}.en "
                     f"--ref assets/default-model/heldout/{name}.de --beam 1` (`--beam 4` for beam search).\n")
    return "\n".join(parts)


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
    base_keys = [k for k in map(_baseline_key, range(len(scores))) if k in scores]
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
        "valid_table": _table(valid_rows, ["step", "valid loss", "valid BLEU (200 sentences, greedy)"]),
        "score_table": _table(_score_rows([scores["greedy"], scores["beam"]]), ["model", "test sentences", "decoding", "BLEU", "chrF"]),
        "ablation_table": _table(_score_rows(comparisons), ["model", "test sentences", "decoding", "BLEU", "chrF"]),
        "beam_n": f"{scores['beam'].sentences:,}", "bleu_100": f"{scores['beam_100'].bleu:.2f}",
        "chrf_100": f"{scores['beam_100'].chrf:.2f}",
        "floor_bleu": floors(scores["beam_100"])["bleu_100"], "floor_chrf": floors(scores["beam_100"])["chrf_100"],
        "samples_table": _table([[s, t] for s, t in samples], ["English", "this model (beam 4)"]),
        "n_samples": len(samples), "extra_scores": extra_tables(scores, extra_names or []),
        "test_n": f"{scores['greedy'].sentences:,}",
        "date": time.strftime("%Y-%m-%d"), "status": status.strip(), "history": history.strip(),
        "data": data_paragraph(tc, step), "recipe": recipe_paragraph(tc),
        "finetune_command": _stage_commands(tc),
        "baseline_note": _baseline_note([scores[k].label for k in base_keys]),
        "ablations": ablations_section(ablations),
        # The agreement figures are Ding's: compare them with the Ding test score where there is one.
        "agreement": agreement_note(agreement, scores.get("ding-test_greedy", scores["greedy"])),
    }
    return template.format(**fields)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m model.card", description=__doc__.splitlines()[0])
    p.add_argument("--model", type=Path, default=Path("assets/default-model"))
    p.add_argument("--run", type=Path, help="the training run folder (log.jsonl, last checkpoint)")
    p.add_argument("--template", type=Path, default=Path(__file__).with_name("card_template.md"))
    p.add_argument("--status", default="", help="a paragraph on where the model stands (Markdown)")
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
    test_src, test_ref = _read_set(held / "test")
    # Further held-out sets beside test.{en,de} (e.g. ding-test.{en,de}, the previous model's test).
    extra = {f.stem: _read_set(f.with_suffix("")) for f in sorted(held.glob("*.en"))
             if f.stem != "test" and f.with_suffix(".de").is_file()}
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
    english = [t for t in (a.model / "samples.en").read_text(encoding="utf-8").splitlines() if t.strip()]
    samples = list(zip(english, translate_many(shipped.model, shipped.tokenizer, english, beam_size=4,
                                               threads=eval_threads())))
    text = render(a.model, a.run, scores, samples, a.template.read_text(encoding="utf-8"), a.status, a.history,
                  a.ablations, a.agreement, list(extra))
    write_atomic(a.model / "MODEL_CARD.md", text)
    write_atomic(a.model / "floors.json", json.dumps(floors(scores["beam_100"])) + "\n")
    write_atomic(a.model / "scores.json", json.dumps({k: vars(v) for k, v in scores.items()}, indent=1,
                                                     ensure_ascii=False) + "\n")
    print(f"wrote {a.model / 'MODEL_CARD.md'} and floors.json")
    return 0


def _read_set(prefix: Path) -> tuple[list[str], list[str]]:
    src = prefix.with_suffix(".en").read_text(encoding="utf-8").splitlines()
    ref = prefix.with_suffix(".de").read_text(encoding="utf-8").splitlines()
    return src, ref


def _progress_line(done: int, total: int) -> None:
    if done == total or done % 200 < 64:
        print(f"  translated {done}/{total}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    raise SystemExit(main())
