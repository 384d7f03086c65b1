"""The model card generator measures the shipped files and writes what it measured."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import sacrebleu

import model.card.card
from model.card.card import Score, data_paragraph, main, render, run_history
from model.card.paragraphs import stage_commands
from model.checkpoint import load_model
from model.decoding.batches import translate_many
from model.training.tasks import make_task
from tests.conftest import train_tiny


def test_card_scores_floors_history_and_samples(tmp_path):
    run = train_tiny(tmp_path / "run", steps=60, valid_every=30, checkpoint_every=30, valid_bleu_sentences=10)
    shipped = tmp_path / "shipped"
    shutil.copytree(run / (run / "LATEST").read_text().strip(), shipped)
    # Few sentences: each is translated several times (greedy, beam, α 0, baselines); 40 show every row.
    held = make_task("reverse", 40, seed=77)
    other = make_task("reverse", 12, seed=78)
    (shipped / "heldout").mkdir()
    for name, rows in (("test", held), ("other-test", other)):
        (shipped / "heldout" / f"{name}.en").write_text("\n".join(s for s, _ in rows) + "\n", encoding="utf-8")
        (shipped / "heldout" / f"{name}.de").write_text("\n".join(t for _, t in rows) + "\n", encoding="utf-8")
    (shipped / "samples.en").write_text("1 2 3\n\n4 5 6 7\n", encoding="utf-8")

    first = sorted(run.glob("step-*"))[0]
    assert main(["--model", str(shipped), "--run", str(run), "--beam-limit", "20", "--status", "**Interim.**",
                 "--history", "Resumed twice.", "--baseline", str(first), "--baseline-label", "early checkpoint",
                 "--baseline", str(run), "--baseline-label", "the run's last"]) == 0

    scores = json.loads((shipped / "scores.json").read_text())
    # The greedy score is sacrebleu's on the model's own output over all 40 pairs (recomputed here).
    loaded = load_model(shipped)
    hyps = translate_many(loaded.model, loaded.tokenizer, [s for s, _ in held])
    refs = [[t for _, t in held]]
    assert scores["greedy"]["sentences"] == 40
    assert scores["greedy"]["bleu"] == round(sacrebleu.corpus_bleu(hyps, refs).score, 2)
    assert scores["greedy"]["chrf"] == round(sacrebleu.corpus_chrf(hyps, refs).score, 2)
    assert scores["beam"]["sentences"] == scores["beam_a0"]["sentences"] == 20
    assert (scores["beam"]["alpha"], scores["beam_a0"]["alpha"], scores["beam"]["beam"]) == (0.6, 0.0, 4)
    assert scores["beam_100"]["sentences"] == 40 and "raw_greedy" in scores  # the run's last checkpoint
    # The extra held-out set: the shipped model greedy and beam 4, each baseline greedy, all on its 12 pairs.
    o_hyps = translate_many(loaded.model, loaded.tokenizer, [s for s, _ in other])
    assert scores["other-test_greedy"]["bleu"] == round(sacrebleu.corpus_bleu(o_hyps, [[t for _, t in other]]).score, 2)
    assert scores["other-test_beam"]["beam"] == 4 and scores["other-test_baseline2_greedy"]["sentences"] == 12

    floors = json.loads((shipped / "floors.json").read_text())
    assert floors == {"bleu_100": round(0.5 * scores["beam_100"]["bleu"], 1),
                      "chrf_100": round(0.8 * scores["beam_100"]["chrf"], 1)}

    card = (shipped / "MODEL_CARD.md").read_text(encoding="utf-8")
    assert "**Interim.**" in card and "{" not in card.replace("{f}", "").replace("{en,de}", "")
    assert "Resumed twice." in card and "The synthetic task `reverse`" in card
    assert "warmup 50 and scale 0.5" in card  # the recipe comes from the shipped train_config.json
    base = scores["baseline_greedy"]
    assert base["label"] == "early checkpoint" and base["sentences"] == 40
    assert f"| early checkpoint | 40 | greedy | {base['bleu']:.2f} | {base['chrf']:.2f} |" in card
    assert "### Held-out `other-test` sentences" in card
    o = scores["other-test_beam"]
    assert f"| shipped (averaged) | 12 | beam 4, α = 0.6 | {o['bleu']:.2f} | {o['chrf']:.2f} |" in card
    # a second baseline gets its own row after the first, and the note names both in order
    second = scores["baseline2_greedy"]
    assert second["label"] == "the run's last" and second["bleu"] == scores["raw_greedy"]["bleu"]
    assert card.index("| early checkpoint |") < card.index("| the run's last |")
    assert "The first 2 rows are other models on the same sentences: early checkpoint; the run's last." in card
    assert f"{scores['greedy']['bleu']:.2f}" in card and "60 training steps" in card
    assert "--resume" not in card  # a one-stage run: no stage-2 command
    valid, last = run_history(run)
    assert [r["step"] for r in valid] == [30, 60] and last["step"] == 60
    for r in valid:
        assert f"| {r['step']} | {r['valid_loss']:.3f} |" in card
    sample_rows = [line for line in card.splitlines() if line.startswith(("| 1 2 3 |", "| 4 5 6 7 |"))]
    assert len(sample_rows) == 2  # blank lines in samples.en are skipped
    assert sample_rows[0] == f"| 1 2 3 | {translate_many(loaded.model, loaded.tokenizer, ['1 2 3'], beam_size=4)[0]} |"


def test_data_paragraph_reads_the_corpus_statistics(tmp_path):
    stats = {"ding_sha256": "ab" * 32, "pairs": {"sentence": 19119, "phrase": 345351}, "valid": 1000,
             "test": 1000, "sentence_repeat": 2, "augment": 120000,
             "train": {"sentence": 16741, "phrase": 240000, "lines": 393482}}
    (tmp_path / "stats.json").write_text(json.dumps(stats), encoding="utf-8")
    text = data_paragraph({"src": str(tmp_path / "train.en"), "tgt": str(tmp_path / "train.de")})
    for fact in ("19,119 example-sentence", "345,351 term", "16,741 remaining sentences ×2", "240,000 term pairs",
                 "120,000 synthetic", "393,482 pairs", "GPL-2.0-or-later"):
        assert fact in text
    assert "everyday" not in text.split("synthetic everyday sentences are generated")[0]
    (tmp_path / "stats.json").write_text(json.dumps({**stats, "everyday_phrases": 16372}), encoding="utf-8")
    chosen = data_paragraph({"src": str(tmp_path / "train.en"), "tgt": str(tmp_path / "train.de")})
    assert "240,000 term pairs (16,372 of them everyday ones" in chosen
    missing = data_paragraph({"src": str(tmp_path / "nowhere" / "a.en"), "tgt": "b.de"})
    assert "no corpus statistics" in missing


def test_data_paragraph_gives_each_stage_its_steps(tmp_path):
    """A run continued on another corpus names both mixes with the steps each was trained for."""
    def write(name, lines, phrases, augment):
        (tmp_path / name).mkdir()
        st = {"ding_sha256": "cd" * 32, "pairs": {"sentence": 19119, "phrase": 345351}, "valid": 1000,
              "test": 1000, "sentence_repeat": 2, "augment": augment,
              "train": {"sentence": 16741, "sentence_lines": 33482, "phrase": phrases, "lines": lines}}
        (tmp_path / name / "stats.json").write_text(json.dumps(st), encoding="utf-8")
        return str(tmp_path / name / "train.en")
    first, second = write("mix-a", 393482, 240000, 120000), write("mix-b", 133482, 40000, 60000)
    tc = {"src": second, "tgt": second[:-2] + "de",
          "stages": [{"src": first, "tgt": first[:-2] + "de", "tsv": "", "task": "", "until_step": 11250}]}
    text = data_paragraph(tc, last_step=12600)
    a, b = text.index("steps 1–11,250, `mix-a`"), text.index("steps 11,251–12,600, `mix-b`")
    assert a < b
    assert "393,482 pairs (9% of them real sentences)" in text[a:b]
    assert "40,000 term pairs and 60,000 synthetic sentences, 133,482 pairs (25% of them real" in text[b:]
    lost = {**tc, "stages": [{"src": str(tmp_path / "gone" / "x.en"), "until_step": 5}]}
    assert "no corpus statistics" in data_paragraph(lost, 10)
    task_first = {**tc, "stages": [{"src": "", "tgt": "", "tsv": "", "task": "copy", "until_step": 5}]}
    assert data_paragraph(task_first, 10).startswith("Trained on `copy`, then `")


def test_a_two_stage_run_gets_its_stage_two_command(tmp_path):
    """The card's recipe gives the resume command onto the second corpus exactly when the run had one."""
    (tmp_path / "config.json").write_text(json.dumps({"model": {"n_layers": 4, "d_model": 256, "n_heads": 8,
                                                                "d_ff": 1024, "dropout": 0.3, "vocab_size": 4000},
                                                      "meta": {"step": 12600}}), encoding="utf-8")
    s = Score("shipped", 100, 1, 0.6, 5.0, 25.0, 1.0)
    scores = {k: s for k in ("greedy", "greedy_b", "beam", "beam_a0", "beam_100")}
    template = Path(model.card.card.__file__).with_name("card_template.md").read_text(encoding="utf-8")
    for stages, expected in (([], False), ([{"src": "a/train.en", "until_step": 11157}], True)):
        tc = {"src": "b/train.en", "tgt": "b/train.de", "stages": stages, "warmup_steps": 2000, "batch_tokens": 6000}
        (tmp_path / "train_config.json").write_text(json.dumps(tc), encoding="utf-8")
        card = render(tmp_path, None, scores, [("Hi.", "Hallo.")], template)
        assert ("train --resume $RUN --src b/train.en --tgt b/train.de" in card) is expected
        assert "12,600 training steps" in card
        assert "one embedding shared by source, target and output" in card


def test_the_agreement_figures_become_a_paragraph(tmp_path):
    """`--agreement` adds the human-vs-human scale and the model's share of it, as its own paragraph."""
    from model.card.card import agreement_note

    path = tmp_path / "agreement.json"
    path.write_text(json.dumps({"en_de": {"sentences": 674, "bleu": 16.48, "chrf": 43.08}}), encoding="utf-8")
    s = Score("shipped", 1000, 1, 0.6, 8.24, 30.16, 1.0)
    text = agreement_note(path, s)
    assert "(674 sentences)" in text and "BLEU 16.5 and chrF 43.1" in text
    assert "reaches 50% of that BLEU and 70% of that chrF" in text
    assert agreement_note(None, s) == ""
    path.write_text(json.dumps({"en_de": {"sentences": 0}}), encoding="utf-8")
    assert agreement_note(path, s) == ""
    path.write_text(json.dumps({"en_de": {"sentences": 674, "bleu": 16.48, "chrf": 43.08}}), encoding="utf-8")
    (tmp_path / "config.json").write_text(json.dumps({"model": {"n_layers": 3, "d_model": 128, "n_heads": 8,
                                                                "d_ff": 512, "dropout": 0.1, "vocab_size": 4000}}),
                                          encoding="utf-8")
    scores = {k: s for k in ("greedy", "greedy_b", "beam", "beam_a0", "beam_100")}
    template = Path(model.card.card.__file__).with_name("card_template.md").read_text(encoding="utf-8")
    card = render(tmp_path, None, scores, [], template, agreement=path)
    # its own paragraph, between the test scores and the technique comparison
    assert "single reference each).\n\nFor scale:" in card
    assert card.index("For scale:") < card.index("## What each technique gave")
    assert "For scale" not in render(tmp_path, None, scores, [], template)


def test_the_ablation_results_become_a_section(tmp_path):
    """`--ablations` adds the smaller-model table: each variant with its change against the baseline."""
    from model.card.card import ablations_section

    def row(name, label, bleu, chrf, params=1_234_567):
        return {"name": name, "label": label, "parameters": params, "sentences": 1000,
                "greedy": {"bleu": bleu, "chrf": chrf}, "beam": {"size": 4, "bleu": bleu + 0.5, "chrf": chrf - 1}}
    res = {"arch": "--layers 3 --d-model 128", "recipe": "--warmup 1000", "steps": 5000, "date": "2026-11-30",
           "data": "/x/ding-ft-v1", "variants": [row("baseline", "recipe", 6.0, 30.0),
                                                 row("unshared", "separate matrices", 5.5, 30.25, 2_258_567)]}
    path = tmp_path / "ablations.json"
    path.write_text(json.dumps(res), encoding="utf-8")
    text = ablations_section(path)
    assert "5,000 steps per variant on `ding-ft-v1`, scored on 1,000 of its validation sentences" in text
    assert "| recipe | 1.23 M | 6.00 | 30.00 | 6.50 | 29.00 |" in text
    assert "| separate matrices | 2.26 M | 5.50 (-0.50) | 30.25 (+0.25) | 6.00 (-0.50) | 29.25 (+0.25) |" in text
    assert ablations_section(None) == ""
    # ... and lands in the rendered card, whose description follows the model's own embedding setting
    (tmp_path / "config.json").write_text(json.dumps({"model": {"n_layers": 3, "d_model": 128, "n_heads": 8,
                                                                "d_ff": 512, "dropout": 0.1, "vocab_size": 4000,
                                                                "share_embeddings": False}}), encoding="utf-8")
    s = Score("shipped", 100, 1, 0.6, 5.0, 25.0, 1.0)
    scores = {k: s for k in ("greedy", "greedy_b", "beam", "beam_a0", "beam_100")}
    template = Path(model.card.card.__file__).with_name("card_template.md").read_text(encoding="utf-8")
    card = render(tmp_path, None, scores, [], template, ablations=path)
    assert "separate source, target and output embedding matrices" in card
    assert text.strip() in card and card.index(text.strip()) < card.index("## The test floor")


def test_tatoeba_paragraph_names_sources_licences_and_the_split(tmp_path):
    stats = {"tatoeba_sha256": "ad" * 32, "pairs": 159669, "valid": 1000, "test": 1000,
             "dropped": {"too_long": 1, "identical_sides": 0, "duplicate": 3},
             "dropped_overlapping_held_out": 1651, "train": {"tatoeba": 156098, "ding": 33482, "lines": 189580},
             "ding": {"sentences": 16741, "sentence_repeat": 2, "phrases": 0, "held_out": [1000, 1000]}}
    (tmp_path / "stats.json").write_text(json.dumps(stats), encoding="utf-8")
    text = data_paragraph({"src": str(tmp_path / "train.en"), "tgt": str(tmp_path / "train.de")})
    for fact in ("tatoeba.org", "www.manythings.org/anki", "CC BY 2.0", "159,669 pairs", "*neither side*",
                 "1,651 alternative translations", "156,098 Tatoeba pairs", "×2 (16,741", "GPL-2.0-or-later",
                 "189,580 pairs in all"):
        assert fact in text, fact
    del stats["ding"]
    stats["train"]["ding"] = 0
    (tmp_path / "stats.json").write_text(json.dumps(stats), encoding="utf-8")
    alone = data_paragraph({"src": str(tmp_path / "train.en"), "tgt": str(tmp_path / "train.de")})
    assert "Ding" not in alone and "GPL" not in alone and "credit tatoeba.org" in alone


def test_a_tatoeba_run_continued_with_replaced_names_says_what_each_stage_added(tmp_path):
    base = {"tatoeba_sha256": "ad" * 32, "pairs": 159669, "valid": 1000, "test": 1000, "dropped": {},
            "dropped_overlapping_held_out": 1651, "train": {"tatoeba": 156098, "ding": 0, "lines": 156098}}
    more = {**base, "train": {**base["train"], "entities": 25000, "lines": 181098},
            "entities": {"names": 20000, "numbers": 5000, "name_sources": 37696, "number_sources": 742,
                         "kept": 25000}}
    for name, st in (("v1", base), ("v2", more)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "stats.json").write_text(json.dumps(st), encoding="utf-8")
    tc = {"src": str(tmp_path / "v2" / "train.en"), "tgt": str(tmp_path / "v2" / "train.de"),
          "stages": [{"src": str(tmp_path / "v1" / "train.en"), "until_step": 9500}]}
    text = data_paragraph(tc, last_step=12000)
    first, second = text.split(" From step 9,501 on, the same weights trained on mix `v2`: ")
    assert "156,098 Tatoeba pairs; 156,098 pairs in all" in first and "replaced" not in first
    for fact in ("25,000 train pairs copied", "20,000 with Tom, Mary or John replaced", "37,696 pairs",
                 "5,000 with new numbers", "742 pairs", "181,098 pairs in all"):
        assert fact in second, fact
    assert "make default-model-finetune" in stage_commands(tc)
