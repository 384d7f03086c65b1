"""The human-agreement yardstick for the model card: alternatives grouped right, scored with sacrebleu."""

from __future__ import annotations

import json

import pytest
import sacrebleu

from benchmarks.reference_agreement import agreement, alternatives, main, measure
from model.corpus.ding import read_ding

# Two English sentences with two German translations each (one via alternatives in one sub-entry, one via
# two entries), one German sentence with two English ones, a duplicate that must count once, and phrases
# with several translations that must not count at all.
SAMPLE = """\
Ich habe keine Zeit.; Mir fehlt die Zeit. :: I have no time.
Wo ist der Bahnhof? :: Where is the station?
Wo befindet sich der Bahnhof? :: Where is the station?
Wo befindet sich der Bahnhof? :: Where is the station?
Es regnet in Strömen. :: It is pouring down.; It is raining cats and dogs.
Haus {n} :: house
Gebäude {n} :: house
"""


@pytest.fixture
def ding(tmp_path):
    path = tmp_path / "de-en"
    path.write_text(SAMPLE, encoding="utf-8")
    return path


def test_groups_hold_distinct_sentence_translations_in_file_order(ding):
    pairs, _ = read_ding(ding)
    assert alternatives(pairs, "en") == [["Ich habe keine Zeit.", "Mir fehlt die Zeit."],
                                         ["Wo ist der Bahnhof?", "Wo befindet sich der Bahnhof?"]]
    assert alternatives(pairs, "de") == [["It is pouring down.", "It is raining cats and dogs."]]


def test_scores_are_sacrebleu_of_second_against_first(ding):
    res = measure(ding)["en_de"]
    first = ["Ich habe keine Zeit.", "Wo ist der Bahnhof?"]
    second = ["Mir fehlt die Zeit.", "Wo befindet sich der Bahnhof?"]
    assert res["sentences"] == 2
    assert res["bleu"] == pytest.approx(sacrebleu.corpus_bleu(second, [first]).score)
    assert res["chrf_reversed"] == pytest.approx(sacrebleu.corpus_chrf(first, [second]).score)
    assert 0 < res["bleu"] < 100 and res["bleu"] != pytest.approx(res["bleu_reversed"])  # brevity penalty
    assert agreement([["Das ist gut.", "Das ist gut ."]])["bleu"] == pytest.approx(100.0)
    assert agreement([["Ja gerne", "Nein niemals"]])["bleu"] == pytest.approx(0.0)
    assert agreement([]) == {"sentences": 0}


def test_cli_writes_json(ding, tmp_path, capsys):
    out = tmp_path / "agreement.json"
    assert main(["--ding", str(ding), "--json", str(out)]) == 0
    res = json.loads(out.read_text(encoding="utf-8"))
    assert res["en_de"]["sentences"] == 2 and res["de_en"]["sentences"] == 1
    assert "English→German: 2 sentences with two translations" in capsys.readouterr().out
