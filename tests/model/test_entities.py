"""Name and number substitution (``data tatoeba --names/--numbers``): both sides change alike, or not at all."""

from __future__ import annotations

import random
import re

import pytest

from model.cli import main
from model.corpus.entities import (
    FEMALE_NAMES,
    MALE_NAMES,
    entity_pairs,
    name_slots,
    numbers_match,
    replace_names,
    replace_numbers,
)
from model.corpus.tatoeba import build_tatoeba_corpus, norm


def test_names_change_on_both_sides_with_gender_and_genitive_kept():
    rng = random.Random(3)
    for _ in range(50):
        en, de = replace_names("Tom's dog likes Mary.", "Toms Hund mag Maria.", rng)
        he, she = re.fullmatch(r"(\w+)'s dog likes (\w+)\.", en).groups()
        assert de == f"{he}s Hund mag {she}."
        assert he in MALE_NAMES and she in FEMALE_NAMES
        assert not re.search(r"\b(Tom|Toms|Mary|Maria)\b", en + " " + de)


def test_a_name_the_german_side_drops_or_repeats_is_left_alone():
    assert name_slots("Tom said he was tired.", "Er sagte, er sei müde.") == []
    assert name_slots("Tom and Tom's son", "Tom und sein Sohn") == []          # 2 English, 1 German
    assert name_slots("Tomorrow, Tom", "Morgen, Tom") == ["Tom"]              # "Tomorrow" is not a name
    en, de = replace_names("Tom said he was tired.", "Er sagte, er sei müde.", random.Random(1))
    assert (en, de) == ("Tom said he was tired.", "Er sagte, er sei müde.")


def test_two_people_stay_two_people():
    for seed in range(40):
        en, de = replace_names("John helped Tom.", "Johannes half Tom.", random.Random(seed))
        a, b = re.fullmatch(r"(\w+) helped (\w+)\.", en).groups()
        assert a != b and de == f"{a} half {b}."


def test_numbers_change_group_by_group_and_only_without_separators():
    assert numbers_match("I was born in 1990.", "Ich bin 1990 geboren.")
    assert not numbers_match("It costs 1,000 yen.", "Es kostet 1.000 Yen.")       # separators differ by language
    assert not numbers_match("Meet me at 9:30.", "Triff mich um 9:30.")             # a time
    assert not numbers_match("I have 2 cats and 3 dogs.", "Ich habe 3 Hunde und 2 Katzen.")  # order differs
    assert not numbers_match("I have two cats.", "Ich habe zwei Katzen.")
    rng = random.Random(5)
    seen = set()
    for _ in range(200):
        en, de = replace_numbers("Room 12 is on floor 3.", "Zimmer 12 ist im 3. Stock.", rng)
        a, b = re.fullmatch(r"Room ([\d ]+) is on floor ([\d ]+)\.", en).groups()
        assert de == f"Zimmer {a} ist im {b}. Stock."
        assert not a.startswith("0") and not b.startswith("0")
        seen |= {a, b}
    assert any(" " in n for n in seen)              # some phone-number shaped
    assert len({len(n) for n in seen}) >= 6         # short and long


def test_entity_pairs_are_deterministic_and_counted():
    pairs = [("Tom is here.", "Tom ist hier."), ("I am 30.", "Ich bin 30."), ("Hello.", "Hallo.")]
    out, stats = entity_pairs(pairs, 7, 5, seed=2)
    assert out == entity_pairs(pairs, 7, 5, seed=2)[0] != entity_pairs(pairs, 7, 5, seed=3)[0]
    assert stats == {"name_sources": 1, "number_sources": 1, "names": 7, "numbers": 5}
    assert len(out) == 12
    assert all(re.fullmatch(r"(\w+) is here\.", en) and de == en.replace(" is here.", " ist hier.")
               for en, de in out[:7])
    assert entity_pairs([("Hello.", "Hallo.")], 4, 4, seed=1) == ([], {"name_sources": 0, "number_sources": 0,
                                                                     "names": 0, "numbers": 0})


def test_builder_adds_them_to_train_only_and_keeps_the_split(tmp_path, capsys):
    rows = [(f"Tom bought {i} apples.", f"Tom hat {i} Äpfel gekauft.") for i in range(2, 60)]
    rows += [(f"Mary sings song {i}.", f"Maria singt Lied {i}.") for i in range(2, 60)]
    tsv = tmp_path / "deu.txt"
    tsv.write_text("".join(f"{en}\t{de}\n" for en, de in rows), encoding="utf-8")
    plain = build_tatoeba_corpus(tmp_path / "plain", tsv, 5, 5, seed=1)
    mixed = build_tatoeba_corpus(tmp_path / "mixed", tsv, 5, 5, seed=1, names=30, numbers=20)
    assert (plain.valid, plain.test) == (mixed.valid, mixed.test)
    assert len(mixed.train) == len(plain.train) + mixed.stats["train"]["entities"]
    assert 0 < mixed.stats["train"]["entities"] <= 50 and mixed.stats["entities"]["names"] == 30
    held = {norm(s) for pair in mixed.valid + mixed.test for s in pair}
    assert not held & {norm(s) for pair in mixed.train for s in pair}
    extra = set(mixed.train) - set(plain.train)
    assert any("Tom" not in en and "Mary" not in en for en, _ in extra)
    assert main(["data", "tatoeba", "--tsv", str(tsv), "--out", str(tmp_path / "cli"), "--valid", "5",
                 "--test", "5", "--names", "10", "--numbers", "10"]) == 0
    assert "with names or numbers replaced" in capsys.readouterr().out
    with pytest.raises(SystemExit) as bad:  # argparse's usage line and exit status 2
        main(["data", "tatoeba", "--tsv", str(tsv), "--out", str(tmp_path / "bad"), "--names", "-1"])
    assert bad.value.code == 2 and not (tmp_path / "bad").exists()
