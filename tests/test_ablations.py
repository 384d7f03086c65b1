"""The ablation runner (benchmarks/ablations.py) trains each variant with its one change, resumes or skips
finished runs, and scores every run on the same validation sentences."""

from __future__ import annotations

import json
import math
import random
import re
from pathlib import Path

import pytest

from benchmarks import ablations

EN_DE = {"the cat": "die Katze", "the dog": "der Hund", "the child": "das Kind", "sees": "sieht",
         "likes": "mag", "finds": "findet", "a ball": "einen Ball", "a bird": "einen Vogel", "today": "heute"}


def _corpus(folder, n_train=400, n_valid=12):
    rng = random.Random(0)
    subjects, verbs = ["the cat", "the dog", "the child"], ["sees", "likes", "finds"]
    objects = ["a ball", "a bird"]
    pairs = []
    for _ in range(n_train + n_valid):
        words = [rng.choice(subjects), rng.choice(verbs), rng.choice(objects)]
        words += ["today"] if rng.random() < .5 else []
        pairs.append((" ".join(words) + ".", " ".join(EN_DE[w] for w in words) + "."))
    folder.mkdir()
    for split, part in (("train", pairs[:n_train]), ("valid", pairs[n_train:])):
        (folder / f"{split}.en").write_text("\n".join(s for s, _ in part) + "\n", encoding="utf-8")
        (folder / f"{split}.de").write_text("\n".join(t for _, t in part) + "\n", encoding="utf-8")
    return folder


def _args(data, runs, steps, only, out=None):
    argv = ["--data", str(data), "--runs", str(runs), "--steps", str(steps), "--only", only,
            "--arch", "--preset tiny --vocab-size 40", "--limit", "8", "--beam", "2", "--no-cpu-amp"]
    return argv + (["--json", str(out)] if out else [])


@pytest.mark.slow  # five training runs in child processes (~20 s): .ci/run runs it
def test_each_variant_changes_one_thing_and_is_scored(tmp_path, capsys):
    data, runs, out = _corpus(tmp_path / "data"), tmp_path / "runs", tmp_path / "ablations.json"
    assert ablations.main(_args(data, runs, 3, "baseline")) == 0  # a run stopped early ...
    assert (runs / "baseline" / "LATEST").read_text().strip() == "step-00000003"
    assert ablations.main(_args(data, runs, 6, "baseline,ls0,unshared", out)) == 0  # ... resumes
    results = json.loads(out.read_text(encoding="utf-8"))
    rows = {r["name"]: r for r in results["variants"]}
    assert list(rows) == ["baseline", "ls0", "unshared"] and results["steps"] == 6
    for name in rows:
        assert (runs / name / "LATEST").read_text().strip() == "step-00000006"
        for key in ("greedy", "beam"):
            assert 0 <= rows[name][key]["bleu"] <= 100 and math.isfinite(rows[name][key]["chrf"])
        assert rows[name]["sentences"] == 8 and rows[name]["beam"]["size"] == 2
    configs = {n: json.loads((runs / n / "step-00000006" / "train_config.json").read_text()) for n in rows}
    assert configs["baseline"]["label_smoothing"] == 0.1 and configs["ls0"]["label_smoothing"] == 0.0
    assert configs["baseline"]["model"]["share_embeddings"] and not configs["unshared"]["model"]["share_embeddings"]
    # the one change and nothing else: same sizes, same schedule
    for key in ("warmup_steps", "batch_tokens", "lr_scale", "seed"):
        assert configs["ls0"][key] == configs["baseline"][key] == configs["unshared"][key]
    v, d = rows["baseline"]["vocab_size"], configs["baseline"]["model"]["d_model"]
    assert (v, d) == (40, 64)
    assert rows["unshared"]["parameters"] - rows["baseline"]["parameters"] == 2 * v * d
    table = capsys.readouterr().out
    assert "no label smoothing" in table and f"| {rows['baseline']['greedy']['bleu']:.2f} |" in table
    # finished runs are not trained again, nor scored again: the same results come from each run's cache
    logs = {n: (runs / f"{n}.log").stat().st_size for n in rows}
    assert ablations.main(_args(data, runs, 6, "baseline,unshared", out)) == 0
    assert {n: (runs / f"{n}.log").stat().st_size for n in rows} == logs
    again = json.loads(out.read_text(encoding="utf-8"))["variants"]
    assert again == [rows["baseline"], rows["unshared"]]
    assert "unshared: scores from" in capsys.readouterr().err
    # another search is scored afresh (and the cache then follows it)
    assert ablations.main(_args(data, runs, 6, "ls0", out)[:-2] + ["--beam", "1", "--json", str(out)]) == 0
    ls0 = json.loads(out.read_text(encoding="utf-8"))["variants"][0]
    assert ls0["beam"]["size"] == 1 and ls0["beam"]["bleu"] == ls0["greedy"]["bleu"]
    assert json.loads((runs / "ls0" / "ablation_scores.json").read_text())["key"]["beam"] == 1


def test_table_compares_each_change_with_the_mean_of_the_recipe_runs():
    def row(name, label, bleu, chrf):
        return {"name": name, "label": label, "parameters": 1_500_000,
                "greedy": {"bleu": bleu, "chrf": chrf}, "beam": {"size": 4, "bleu": bleu + 1, "chrf": chrf}}
    one = ablations.table({"variants": [row("baseline", "recipe", 5.0, 30.0), row("ls0", "no ls", 4.25, 31.5)]})
    assert "| recipe | 1.50 M | 5.00 | 30.00 | 6.00 | 30.00 |" in one and "mean of" not in one
    assert "| no ls | 1.50 M | 4.25 (-0.75) | 31.50 (+1.50) | 5.25 (-0.75) | 31.50 (+1.50) |" in one
    three = ablations.table({"variants": [row("baseline", "recipe", 5.0, 30.0), row("ls0", "no ls", 4.25, 31.5),
                                          row("seed2", "seed 2", 5.5, 29.0), row("seed3", "seed 3", 6.0, 31.0)]})
    lines = three.splitlines()
    assert [line.split(" | ")[0] for line in lines[2:]] == [
        "| recipe", "| seed 2", "| seed 3", "| **the recipe: mean of 3 runs (lowest–highest)**", "| no ls"]
    assert "| 5.50 (5.00–6.00) | 30.00 (29.00–31.00) | 6.50 (6.00–7.00) | 30.00 (29.00–31.00) |" in lines[5]
    assert lines[6] == "| no ls | 1.50 M | 4.25 (-1.25) | 31.50 (+1.50) | 5.25 (-1.25) | 31.50 (+1.50) |"


def test_bad_arguments_are_refused(tmp_path):
    with pytest.raises(SystemExit):
        ablations.main(["--data", str(tmp_path), "--runs", str(tmp_path / "r")])  # no corpus there
    data = _corpus(tmp_path / "data")
    with pytest.raises(SystemExit):
        ablations.main(["--data", str(data), "--runs", str(tmp_path / "r"), "--only", "dropout"])


def test_a_failed_run_stops_the_others_and_says_where_to_look(tmp_path):
    data = _corpus(tmp_path / "data")
    (data / "train.de").write_text("nur eine Zeile\n", encoding="utf-8")  # unequal line counts: exit 2
    with pytest.raises(SystemExit, match=r"training failed \(exit 2\); see .*(baseline|ls0)\.log") as failed:
        ablations.main(_args(data, tmp_path / "runs", 3, "baseline,ls0"))
    # The log the message names says why. Both runs fail, and whichever is seen first stops the other, so
    # the other's log may end before its error (a full, loaded run once saw ls0 first: baseline.log empty).
    named = re.search(r"see (\S+\.log)", str(failed.value)).group(1)
    assert "line" in Path(named).read_text(encoding="utf-8")
