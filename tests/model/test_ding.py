"""Tests for the Ding dictionary corpus builder, on a small hand-written Ding-format sample."""

from __future__ import annotations

import argparse
import json

import pytest

from model.cli.data import add_data_commands
from model.corpus.ding import DING_PATH, DingPair, clean_text, parse_line, read_ding
from model.corpus.ding_corpus import build_ding_corpus, split_ding
from model.errors import CorpusError

SAMPLE = """\
# Version :: test 2024
# a comment with a separator :: must be ignored
Ablaufleiste {f}; Wetterschenkel {m} (am Fenster) [constr.] | Ablaufleisten {pl} :: water bar; window drip | water bars
Vereinte Nationen {pl} /UN/ [pol.] <UNO> :: United Nations /UN/ [pol.]
Haus {n} | Häuser {pl} :: house
kaputt {adj} :: broken | kaputt
Einfluss {m} | Auf das Wetter haben wir keinen Einfluss.; Das Wetter können wir nicht beherrschen. :: influence | The weather is not in/under our control.; The weather is beyond our control.
jdn. anrufen {vt} :: to call sb.
Er ist krank / müde. :: He is ill / tired.
abfahren {vi} | er/sie fährt ab | er/sie ist/war abgefahren :: to leave | he/she leaves | he/she has/had left
Wie geht es dir? [ugs.] :: How are you doing? [coll.]
Ich habe keine Zeit. :: I have no time.
Ich habe keine Zeit. :: I have no time.
Der Hund schläft im Garten. :: The dog is sleeping in the garden.
Die Katze trinkt Milch. :: The cat is drinking milk.
Es regnet schon wieder. :: It is raining again.
Wir gehen heute ins Kino. :: We are going to the cinema today.
Sie liest ein Buch. :: She is reading a book.
Das Essen ist fertig. :: The food is ready.
Das Essen ist fertig. :: Dinner is ready now.
Freut mich, Sie kennenzulernen. :: Nice to meet you.
Schön, Sie kennenzulernen. :: Nice to meet you.
Das nervt! :: That is a real pain!
Der Kredit ist bald zurückzuzahlen. :: The loan must be repaid soon
Bitte warten Sie hier. (Hinweisschild) :: Please wait here. (notice)
"""


@pytest.fixture
def sample(tmp_path):
    path = tmp_path / "de-en"
    path.write_text(SAMPLE, encoding="utf-8")
    return path


def _norm(s):
    return " ".join(s.casefold().split())


def test_clean_text_strips_annotations():
    assert clean_text("Ablaufleiste {f} [techn.] <Ablaufl.>  (am Fenster)") == "Ablaufleiste (am Fenster)"
    assert clean_text("Ablaufleiste {f} (am Fenster)", drop_parens=True) == "Ablaufleiste"
    assert clean_text("die Vereinten Nationen /UNO/ [pol.]") == "die Vereinten Nationen"
    assert clean_text("Child Convention /CRC/, /CROC/, /UNCRC/") == "Child Convention"
    assert clean_text("zum Beispiel /z. B./") == "zum Beispiel"
    assert clean_text("in the colour [Br.].") == "in the colour."
    assert clean_text("x (a (b) c) y", drop_parens=True) == "x y"
    assert clean_text("mit {+Dat.}\tetw.\n") == "mit etw."
    # Slash alternatives are not abbreviations and must survive for the slash filter to see them.
    assert clean_text("not in/under our control / beyond it") == "not in/under our control / beyond it"


def test_comments_and_malformed_lines():
    assert parse_line("# Copyright (c) :: Frank Richter", 1) == []
    assert parse_line("", 2) == []
    assert parse_line("Haus {n} | Häuser {pl} :: house", 3) == []
    assert parse_line("no separator here", 4) == []


def test_sub_entries_align_and_phrases_take_first_alternative():
    line = ("Ablaufleiste {f}; Wetterschenkel {m} (am Fenster) [constr.] | Ablaufleisten {pl} "
            ":: water bar; window drip | water bars")
    assert parse_line(line, 7) == [
        DingPair("water bar", "Ablaufleiste", "phrase", 7),
        DingPair("water bars", "Ablaufleisten", "phrase", 7),
    ]
    assert parse_line("Vereinte Nationen {pl} /UN/ [pol.] <UNO> :: United Nations /UN/", 1) == [
        DingPair("United Nations", "Vereinte Nationen", "phrase", 1)]


def test_sentence_alternatives_pair_up_and_slashes_are_dropped():
    line = ("Einfluss {m} | Auf das Wetter haben wir keinen Einfluss.; "
            "Das Wetter können wir nicht beherrschen. :: influence | "
            "The weather is not in/under our control.; The weather is beyond our control.")
    beyond = "The weather is beyond our control."
    # "in/under" is unusable, so both German alternatives pair with the one clean English sentence.
    assert parse_line(line, 5) == [
        DingPair("influence", "Einfluss", "phrase", 5),
        DingPair(beyond, "Auf das Wetter haben wir keinen Einfluss.", "sentence", 5),
        DingPair(beyond, "Das Wetter können wir nicht beherrschen.", "sentence", 5),
    ]
    two = "Eins zwei drei.; Vier fünf sechs. :: One two three.; Four five six."
    assert [(p.en, p.de) for p in parse_line(two, 1)] == [
        ("One two three.", "Eins zwei drei."), ("Four five six.", "Vier fünf sechs.")]
    assert parse_line("Er ist krank / müde. :: He is ill / tired.", 1) == []


def test_placeholders_pronoun_slashes_and_fragments():
    assert parse_line("jdn. anrufen {vt} :: to call sb.", 1) == []
    line = ("abfahren {vi} | er/sie fährt ab | er/sie ist/war abgefahren "
            ":: to leave | he/she leaves | he/she has/had left")
    assert [(p.en, p.de) for p in parse_line(line, 1)] == [
        ("to leave", "abfahren"), ("he leaves", "er fährt ab"), ("he has left", "er ist abgefahren")]
    # A sentence facing a fragment (no full stop) is neither kind.
    assert parse_line("Der Kredit ist bald zurückzuzahlen. :: The loan must be repaid soon", 1) == []
    # Short exclamations are natural text, kept as phrases; a trailing source note is not part of a sentence.
    assert parse_line("Das nervt! :: That is a real pain!", 1) == [
        DingPair("That is a real pain!", "Das nervt!", "phrase", 1)]
    assert parse_line("Bitte warten Sie hier. (Hinweisschild) :: Please wait here. (notice)", 1) == [
        DingPair("Please wait here.", "Bitte warten Sie hier.", "sentence", 1)]


def test_read_ding_deduplicates_and_counts_malformed(sample):
    pairs, malformed = read_ding(sample)
    assert malformed == 2  # "Haus | Häuser :: house" and "kaputt :: broken | kaputt"
    assert len(pairs) == len({(p.en, p.de) for p in pairs})
    no_time = [p for p in pairs if p.en == "I have no time."]
    assert no_time == [DingPair("I have no time.", "Ich habe keine Zeit.", "sentence", 12)]
    sentences = sorted(p.en for p in pairs if p.kind == "sentence")
    assert sentences == sorted([
        "The weather is beyond our control.", "The weather is beyond our control.", "How are you doing?",
        "I have no time.", "The dog is sleeping in the garden.", "The cat is drinking milk.",
        "It is raining again.", "We are going to the cinema today.", "She is reading a book.",
        "The food is ready.", "Dinner is ready now.", "Nice to meet you.", "Nice to meet you.", "Please wait here.",
    ])


def test_missing_file_error_names_the_package(tmp_path):
    with pytest.raises(CorpusError, match="apt-get install trans-de-en"):
        read_ding(tmp_path / "nope")


@pytest.mark.parametrize("seed", range(12))
def test_held_out_sources_never_in_train(sample, seed):
    pairs, _ = read_ding(sample)
    split = split_ding(pairs, n_valid=2, n_test=2, seed=seed)
    sentences = {(p.en, p.de) for p in pairs if p.kind == "sentence"}
    assert len(split.valid) == 2 and len(split.test) == 2
    assert set(split.valid) <= sentences and set(split.test) <= sentences
    train_en = {_norm(en) for en, _ in split.train}
    train_de = {_norm(de) for _, de in split.train}
    valid_en = {_norm(en) for en, _ in split.valid}
    test_en = {_norm(en) for en, _ in split.test}
    assert len(valid_en) == 2 and len(test_en) == 2 and not valid_en & test_en
    assert not (valid_en | test_en) & train_en
    assert not {_norm(de) for _, de in split.valid + split.test} & train_de


def test_split_repeat_and_max_phrases(sample):
    pairs, _ = read_ding(sample)
    n_phrases = sum(p.kind == "phrase" for p in pairs)
    once = split_ding(pairs, n_valid=1, n_test=1, seed=3)
    twice = split_ding(pairs, n_valid=1, n_test=1, seed=3, sentence_repeat=2, max_phrases=2)
    n_sent = once.stats["train"]["sentence"]
    assert once.stats["train"]["phrase"] == n_phrases  # phrases never clash with held-out sentences here
    assert len(once.train) == n_sent + n_phrases
    assert twice.stats["train"]["sentence_lines"] == 2 * n_sent
    assert twice.stats["train"]["phrase"] == 2
    assert len(twice.train) == 2 * n_sent + 2
    assert twice.valid == once.valid and twice.test == once.test
    with pytest.raises(CorpusError):
        split_ding(pairs, n_valid=50, n_test=50)


def _pairs(rows, kind):
    return [DingPair(en, de, kind, i + 1) for i, (en, de) in enumerate(rows)]


EVERYDAY_SENTENCES = [
    ("The dog is in the garden.", "Der Hund ist im Garten."),
    ("The dog is in the house.", "Der Hund ist im Haus."),
    ("The garden is big.", "Der Garten ist groß."),
    ("The house is big.", "Das Haus ist groß."),
    ("The zebra runs.", "Das Zebra rennt."),
    ("A zebra sleeps.", "Ein Zebra schläft."),
    ("We sleep at home.", "Wir schlafen zu Hause."),
    ("They sleep at night.", "Sie schlafen nachts."),
    ("The man sleeps.", "Der Mann schläft."),  # "the"/"der" stay frequent whatever is held out
    ("The man reads.", "Der Mann liest."),
]
EVERYDAY_PHRASES = [
    ("the garden", "der Garten"),  # every word, both sides, twice in the sentences
    ("Good morning!", "Guten Morgen!"),  # an exclamation
    ("zebra", "Zebra"),  # everyday only while both zebra sentences are in train
    ("screw pile", "Schraubpfahl"),  # technical: unknown words
    ("the dog", "Schraubpfahl"),  # English known, German not
    ("clock machine", "Zwickelmaschine"),
    ("wild cat", "Wildkatze"),
    ("hearth glass", "Herdglas"),
]


@pytest.mark.parametrize("seed", range(8))
def test_everyday_phrases_come_first_and_ignore_held_out(seed):
    pairs = _pairs(EVERYDAY_SENTENCES, "sentence") + _pairs(EVERYDAY_PHRASES, "phrase")
    split = split_ding(pairs, n_valid=1, n_test=1, seed=seed, max_phrases=4, everyday_phrases=True)
    train_sentences = [en.lower() for en, _ in split.train if (en, _) in set(EVERYDAY_SENTENCES)]
    # "zebra" and "garden" each occur in exactly two sentences: everyday only if neither is held out.
    everyday = {("Good morning!", "Guten Morgen!")}
    if sum("zebra" in en for en in train_sentences) == 2:
        everyday.add(("zebra", "Zebra"))
    if sum("garden" in en for en in train_sentences) == 2:
        everyday.add(("the garden", "der Garten"))
    phrases = [p for p in split.train if p in set(EVERYDAY_PHRASES)]
    assert len(phrases) == 4 and everyday <= set(phrases)
    assert split.stats["everyday_phrases"] == len(everyday)
    plain = split_ding(pairs, n_valid=1, n_test=1, seed=seed, max_phrases=4)
    assert plain.valid == split.valid and plain.test == split.test  # the hold-out does not move
    assert "everyday_phrases" not in plain.stats


def test_everyday_phrases_prefer_everyday_over_chance():
    # 40 technical terms against 2 everyday phrases, 2 slots: a uniform sample keeps both 1 time in 861.
    tech = [(f"widget part {i}", f"Widgetteil{i}") for i in range(40)]
    pairs = _pairs(EVERYDAY_SENTENCES, "sentence") + _pairs(tech + EVERYDAY_PHRASES[:2], "phrase")
    for seed in range(5):
        split = split_ding(pairs, n_valid=0, n_test=0, seed=seed, max_phrases=2, everyday_phrases=True)
        assert set(EVERYDAY_PHRASES[:2]) <= set(split.train)


def test_build_is_deterministic_and_aligned(sample, tmp_path):
    a, b, r = tmp_path / "a", tmp_path / "b", tmp_path / "r"
    split = build_ding_corpus(a, sample, n_valid=2, n_test=2, seed=7, sentence_repeat=2)
    build_ding_corpus(b, sample, n_valid=2, n_test=2, seed=7, sentence_repeat=2)
    rev = build_ding_corpus(r, sample, n_valid=2, n_test=2, seed=7, sentence_repeat=2, reverse=True)
    names = ["train.en", "train.de", "valid.en", "valid.de", "test.en", "test.de", "stats.json"]
    assert sorted(p.name for p in a.iterdir()) == sorted(names)  # no temp files left behind
    for name in names:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name
    for name in names[:-1]:  # the two-sided hold-out makes the text files direction-independent
        assert (a / name).read_bytes() == (r / name).read_bytes(), name
    for part in ("train", "valid", "test"):
        en = (a / f"{part}.en").read_text(encoding="utf-8").split("\n")
        de = (a / f"{part}.de").read_text(encoding="utf-8").split("\n")
        assert en[-1] == de[-1] == ""
        assert list(zip(en[:-1], de[:-1])) == getattr(split, part)
    assert rev.valid == [(de, en) for en, de in split.valid]
    stats = json.loads((a / "stats.json").read_text(encoding="utf-8"))
    assert stats["pairs"] == {"sentence": 14, "phrase": 8}
    assert stats["malformed_lines"] == 2 and stats["seed"] == 7 and stats["sentence_repeat"] == 2
    assert stats["valid"] == stats["test"] == 2 and (stats["source"], stats["target"]) == ("en", "de")
    assert json.loads((r / "stats.json").read_text(encoding="utf-8"))["source"] == "de"


def _cli():
    parser = argparse.ArgumentParser(prog="attention-explorer")
    add_data_commands(parser.add_subparsers(dest="command"))
    return parser


def test_cli_writes_corpus_and_reports_errors(sample, tmp_path, capsys):
    out = tmp_path / "out"
    args = _cli().parse_args(["data", "ding", "--out", str(out), "--ding", str(sample), "--valid", "1",
                              "--test", "1", "--seed", "2", "--sentence-repeat", "3", "--max-phrases", "4"])
    assert args.func(args) == 0
    printed = capsys.readouterr().out
    assert "14 sentence and 8 phrase pairs, 2 malformed lines" in printed
    stats = json.loads((out / "stats.json").read_text(encoding="utf-8"))
    assert stats["train"]["phrase"] == 4 and stats["sentence_repeat"] == 3
    from model.cli import main
    assert main(["data", "ding", "--out", str(tmp_path / "new"), "--ding", str(tmp_path / "missing")]) == 2
    err = capsys.readouterr().err
    assert "apt-get install trans-de-en" in err and len(err.strip().splitlines()) == 1


def test_augment_adds_to_train_only(sample, tmp_path):
    base, aug, again = tmp_path / "base", tmp_path / "aug", tmp_path / "again"
    plain = build_ding_corpus(base, sample, n_valid=2, n_test=2, seed=7)
    split = build_ding_corpus(aug, sample, n_valid=2, n_test=2, seed=7, augment=40)
    build_ding_corpus(again, sample, n_valid=2, n_test=2, seed=7, augment=40)
    for name in ("valid.en", "valid.de", "test.en", "test.de"):
        assert (aug / name).read_bytes() == (base / name).read_bytes(), name
    for name in ("train.en", "train.de", "stats.json"):  # deterministic, shuffled in the same way each time
        assert (aug / name).read_bytes() == (again / name).read_bytes(), name
    assert (aug / "train.en").read_text(encoding="utf-8").splitlines() == [en for en, _ in split.train]
    added = [pair for pair in split.train if pair not in set(plain.train)]
    assert len(added) == 40 and len(split.train) == len(plain.train) + 40 and set(plain.train) <= set(split.train)
    assert split.train[-40:] != added  # shuffled in, not appended
    held = {_norm(s) for pair in plain.valid + plain.test for s in pair}
    assert not {_norm(en) for en, _ in added} & held
    stats = json.loads((aug / "stats.json").read_text(encoding="utf-8"))
    assert stats["augment"] == 40 and stats["train"]["lines"] == len(plain.train) + 40
    assert json.loads((base / "stats.json").read_text(encoding="utf-8"))["augment"] == 0


def test_data_cli_ding_augment_and_augment_source(sample, tmp_path, capsys):
    from model.cli import main

    out = tmp_path / "ding"
    assert main(["data", "ding", "--out", str(out), "--ding", str(sample), "--valid", "1", "--test", "1",
                 "--augment", "5"]) == 0
    assert "5 synthetic" in capsys.readouterr().out
    assert json.loads((out / "stats.json").read_text(encoding="utf-8"))["augment"] == 5
    aug = tmp_path / "aug"
    assert main(["data", "augment", "--out", str(aug), "--n", "30", "--no-ding", "--exclude-from", str(out)]) == 0
    assert "wrote 30 pairs" in capsys.readouterr().out
    en = (aug / "augment.en").read_text(encoding="utf-8").splitlines()
    assert len(en) == len((aug / "augment.de").read_text(encoding="utf-8").splitlines()) == 30
    assert json.loads((aug / "augment.json").read_text(encoding="utf-8"))["pairs"] == 30
    with pytest.raises(SystemExit) as exc:
        main(["data", "augment", "--help"])
    assert exc.value.code == 0 and "--exclude-from" in capsys.readouterr().out


@pytest.mark.slow
@pytest.mark.skipif(not DING_PATH.is_file(), reason="Debian package trans-de-en is not installed")
def test_real_dictionary_has_many_sentences():
    pairs, malformed = read_ding()
    n_sentences = sum(p.kind == "sentence" for p in pairs)
    assert 15_000 < n_sentences < 60_000  # 19.1k with the 2023-01-30 release
    assert malformed < 100
