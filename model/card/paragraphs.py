"""The card's prose and tables, generated from the run's files: where the data came from, the recipe,
the score tables, the ablations and the human-agreement scale. Pure text: nothing here runs a model."""

from __future__ import annotations

import json
from pathlib import Path

from model.card.scores import Score
from model.languages import language_name


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
    pair = f"{language_name(st.get('source', 'en'))}–{language_name(st.get('target', 'de'))}"
    anki = {"de": "deu.txt", "zh": "cmn.txt"}.get(st.get("target", "de"), "the Anki file")
    cc = "CC BY 2.0 (France)" if st.get("target") == "zh" else "CC BY 2.0"
    if not ding:  # what the weights are distributed under is the card's to say (a child of another model…)
        licence = f"The Tatoeba pairs are {cc}: credit tatoeba.org and www.manythings.org/anki."
    return (
        f"{pair} sentence pairs of the Tatoeba Project (tatoeba.org), as packaged by www.manythings.org/anki "
        f"(`{anki}`; sha256 `{st.get('tatoeba_sha256', '?')[:12]}…`), licensed {cc} — attribution: "
        "tatoeba.org and www.manythings.org/anki. `attention-explorer data tatoeba` cleans them (Unicode NFC, "
        f"whitespace; {d.get('too_long', 0):,} over-long, {d.get('identical_sides', 0):,} identical-sided and "
        f"{d.get('duplicate', 0):,} duplicate pairs dropped): {st['pairs']:,} pairs. {st['valid']:,} valid and "
        f"{st['test']:,} test pairs are held out so that *neither side* occurs in training (compared without case "
        f"and punctuation): {st.get('dropped_overlapping_held_out', 0):,} alternative translations left training "
        f"with them. Training mix `{name}`: {tr['tatoeba']:,} Tatoeba pairs{mix}{entities_clause(st)}; "
        f"{tr['lines']:,} pairs in all. " + licence)


def entities_clause(st: dict) -> str:
    """The pairs ``data tatoeba --names/--numbers`` added, or nothing."""
    e = st.get("entities")
    if not e:
        return ""
    return (f", plus {st['train']['entities']:,} train pairs copied with other names or numbers on both sides "
            f"({e['names']:,} with Tom, Mary or John replaced by another name of the same gender, drawn from "
            f"{e['name_sources']:,} pairs where the German names them as often; {e['numbers']:,} with new numbers, "
            f"from the {e['number_sources']:,} pairs whose digits match on both sides; `model/corpus/entities.py`)")


def _tatoeba_stages(corpora: list[dict], stats: list[dict]) -> str:
    """A run continued on other ``data tatoeba`` mixes: the first mix in full, then what each later one added."""
    text = tatoeba_paragraph(stats[0], Path(corpora[0]["src"]).parent.name)
    for before, c, st in zip(corpora, corpora[1:], stats[1:]):
        added = entities_clause(st).removeprefix(", plus ") or "no other pairs"
        text += (f" From step {int(before.get('until_step') or 0) + 1:,} on, the same weights trained on mix "
                 f"`{Path(c['src']).parent.name}`: the same held-out split and train pairs, plus {added}; "
                 f"{st['train']['lines']:,} pairs in all.")
    return text


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
    if all("tatoeba_sha256" in s for s in stats):
        return _tatoeba_stages(corpora, stats)
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


def stage_commands(tc: dict) -> str:
    """For a run continued on other corpora, the command that moved it onto each later one.

    The Makefile only holds the current one-stage recipe, so the card spells out the resume itself.
    """
    later = [*tc.get("stages", [])[1:], {k: tc.get(k, "") for k in ("src", "tgt")}] if tc.get("stages") else []
    if later and "tatoeba" in later[-1].get("src", ""):  # the Tatoeba model: a Makefile recipe of its own
        return ("make default-model-finetune   # next stage: the averaged weights trained on, on the mix with "
                "names and numbers replaced\n")
    return "".join(f"python -m model.cli train --resume $RUN --src {c.get('src', '?')} --tgt {c.get('tgt', '?')}"
                   "   # next stage: the same run on another mix\n" for c in later)


def table(rows: list[list[str]], head: list[str]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in rows])


def score_rows(scores: list[Score]) -> list[list[str]]:
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
    return table(body, ["variant", "parameters", "greedy BLEU", "greedy chrF", f"beam {beam} BLEU", f"beam {beam} chrF"])


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


def baseline_note(labels: list[str]) -> str:
    if not labels:
        return ""
    head = "The first row is another model" if len(labels) == 1 else f"The first {len(labels)} rows are other models"
    return f"{head} on the same sentences: " + "; ".join(labels) + "."


def extra_tables(scores: dict[str, Score], names: list[str]) -> str:
    """One section per extra held-out set: the baselines' and the shipped model's scores on it."""
    parts = []
    for name in names:
        keys = [k for k in scores if k.startswith(f"{name}_baseline")] + [f"{name}_greedy", f"{name}_beam"]
        rows = score_rows([scores[k] for k in keys if k in scores])
        parts.append(f"### Held-out `{name}` sentences\n"
                     + table(rows, ["model", "test sentences", "decoding", "BLEU", "chrF"]) + "\n\n"
                     f"Reproduce: `attention-explorer evaluate --src assets/models/en-de/heldout/{name}.en "
                     f"--ref assets/models/en-de/heldout/{name}.de --beam 1` (`--beam 4` for beam search).\n")
    return "\n".join(parts)
