"""The model card generator measures the shipped files and writes what it measured."""

from __future__ import annotations

import json
import shutil

import sacrebleu

from model.card import data_paragraph, main, run_history
from model.checkpoint import load_model
from model.decode import translate_many
from model.tasks import make_task
from tests.conftest import train_tiny


def test_card_scores_floors_history_and_samples(tmp_path):
    run = train_tiny(tmp_path / "run", steps=60, valid_every=30, checkpoint_every=30, valid_bleu_sentences=10)
    shipped = tmp_path / "shipped"
    shutil.copytree(run / (run / "LATEST").read_text().strip(), shipped)
    held = make_task("reverse", 120, seed=77)
    (shipped / "heldout").mkdir()
    (shipped / "heldout" / "test.en").write_text("\n".join(s for s, _ in held) + "\n", encoding="utf-8")
    (shipped / "heldout" / "test.de").write_text("\n".join(t for _, t in held) + "\n", encoding="utf-8")
    (shipped / "samples.en").write_text("1 2 3\n\n4 5 6 7\n", encoding="utf-8")

    first = sorted(run.glob("step-*"))[0]
    assert main(["--model", str(shipped), "--run", str(run), "--beam-limit", "50", "--status", "**Interim.**",
                 "--history", "Resumed twice.", "--baseline", str(first), "--baseline-label", "early checkpoint"]) == 0

    scores = json.loads((shipped / "scores.json").read_text())
    # The greedy score is sacrebleu's on the model's own output over all 120 pairs (recomputed here).
    loaded = load_model(shipped)
    hyps = translate_many(loaded.model, loaded.tokenizer, [s for s, _ in held])
    refs = [[t for _, t in held]]
    assert scores["greedy"]["sentences"] == 120
    assert scores["greedy"]["bleu"] == round(sacrebleu.corpus_bleu(hyps, refs).score, 2)
    assert scores["greedy"]["chrf"] == round(sacrebleu.corpus_chrf(hyps, refs).score, 2)
    assert scores["beam"]["sentences"] == scores["beam_a0"]["sentences"] == 50
    assert (scores["beam"]["alpha"], scores["beam_a0"]["alpha"], scores["beam"]["beam"]) == (0.6, 0.0, 4)
    assert scores["beam_100"]["sentences"] == 100 and "raw_greedy" in scores  # the run's last checkpoint

    floors = json.loads((shipped / "floors.json").read_text())
    assert floors == {"bleu_100": round(0.5 * scores["beam_100"]["bleu"], 1),
                      "chrf_100": round(0.8 * scores["beam_100"]["chrf"], 1)}

    card = (shipped / "MODEL_CARD.md").read_text(encoding="utf-8")
    assert "**Interim.**" in card and "{" not in card.replace("{f}", "").replace("{en,de}", "")
    assert "Resumed twice." in card and "The synthetic task `reverse`" in card
    assert "warmup 50 and scale 0.5" in card  # the recipe comes from the shipped train_config.json
    base = scores["baseline_greedy"]
    assert base["label"] == "early checkpoint" and base["sentences"] == 120
    assert f"| early checkpoint | 120 | greedy | {base['bleu']:.2f} | {base['chrf']:.2f} |" in card
    assert f"{scores['greedy']['bleu']:.2f}" in card and "60 training steps" in card
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
    missing = data_paragraph({"src": str(tmp_path / "nowhere" / "a.en"), "tgt": "b.de"})
    assert "no corpus statistics" in missing
