"""The Tatoeba corpus builder on small samples the tests write (both column forms, plain and .xz)."""

from __future__ import annotations

import json
import lzma

import pytest

from model.cli import main
from model.corpus.tatoeba import build_tatoeba_corpus, norm, read_tatoeba
from model.errors import CorpusError

# Alternative translations on purpose: one English with two Germans, two Englishes with one German.
BASE = [
    ("I'm hungry.", "Ich habe Hunger."),
    ("I'm hungry.", "Ich bin hungrig."),
    ("I am hungry!", "Ich habe Hunger."),
    ("Tom left.", "Tom ist gegangen."),
    ("Tom  left!", "Tom ging."),
    ("Where is the station?", "Wo ist der Bahnhof?"),
    ("Tom!", "Tom!"),                       # identical sides: dropped
    ("It's raining.", "Es regnet."),
    ("It's raining.", "Es regnet."),        # duplicate: dropped
    ("Caf\u0065\u0301 time.", "Kaffeezeit."),  # decomposed é: NFC makes it "Café"
    ("x" * 400, "y"),                       # over-long: dropped
]
BASE += [(f"Sentence number {i}.", f"Satz Nummer {i}.") for i in range(40)]


def _write(path, rows, attribution=False, xz=False):
    lines = "".join(f"{en}\t{de}" + (f"\tCC-BY 2.0 (France) Attribution: tatoeba.org #{i}" if attribution else "")
                    + "\n" for i, (en, de) in enumerate(rows))
    data = lines.encode("utf-8")
    path.write_bytes(lzma.compress(data) if xz else data)
    return path


def _read(folder, name):
    return (folder / name).read_text(encoding="utf-8").splitlines()


def test_read_cleans_and_counts(tmp_path):
    pairs, stats = read_tatoeba(_write(tmp_path / "deu.txt", BASE))
    assert ("Café time.", "Kaffeezeit.") in pairs        # NFC
    assert ("Tom left!", "Tom ging.") in pairs           # whitespace collapsed
    assert all(en != de for en, de in pairs)
    assert stats["dropped"] == {"blank": 0, "empty_side": 0, "too_long": 1, "identical_sides": 1, "duplicate": 1}
    assert stats["pairs"] == len(BASE) - 3 == len(pairs)


def test_three_columns_and_xz_read_the_same_pairs(tmp_path):
    plain, _ = read_tatoeba(_write(tmp_path / "a.tsv", BASE))
    three, stats = read_tatoeba(_write(tmp_path / "b.txt", BASE, attribution=True))
    packed, _ = read_tatoeba(_write(tmp_path / "c.tsv.xz", BASE, attribution=True, xz=True))
    assert plain == three == packed
    assert stats["columns"] == [3]


def test_held_out_sides_never_reach_train(tmp_path):
    out = tmp_path / "corpus"
    split = build_tatoeba_corpus(out, _write(tmp_path / "deu.txt", BASE), n_valid=5, n_test=5, seed=3)
    train_keys = {norm(s) for pair in split.train for s in pair}
    held = split.valid + split.test
    assert len(split.valid) == len(split.test) == 5
    for en, de in held:
        assert norm(en) not in train_keys and norm(de) not in train_keys
    # Held-out pairs are unique on both sides among themselves, too.
    assert len({norm(en) for en, _ in held}) == len({norm(de) for _, de in held}) == 10
    # Files are aligned line by line and match the returned split.
    assert list(zip(_read(out, "train.en"), _read(out, "train.de"))) == split.train
    assert list(zip(_read(out, "test.en"), _read(out, "test.de"))) == split.test
    stats = json.loads((out / "stats.json").read_text(encoding="utf-8"))
    assert stats["train"]["lines"] == len(split.train) and stats["valid"] == 5
    assert "tatoeba.org" in stats["license"] and "manythings.org/anki" in stats["license"]
    kept = len(split.train) + 10 + stats["dropped_overlapping_held_out"]
    assert kept == stats["pairs"]


def test_alternative_translation_leaves_train_with_its_held_out_partner(tmp_path):
    rows = BASE[:6] + [(f"Filler {i}.", f"Füller {i}.") for i in range(3)]
    # With every pair held out except the fillers, check each alternative directly.
    for seed in range(6):
        split = build_tatoeba_corpus(tmp_path / f"c{seed}", _write(tmp_path / "d.txt", rows), 2, 2, seed)
        held_de = {norm(de) for _, de in split.valid + split.test}
        held_en = {norm(en) for en, _ in split.valid + split.test}
        for en, de in split.train:
            assert norm(de) not in held_de and norm(en) not in held_en


def test_deterministic_and_order_independent(tmp_path):
    a = build_tatoeba_corpus(tmp_path / "a", _write(tmp_path / "x.txt", BASE), 4, 4, seed=7)
    b = build_tatoeba_corpus(tmp_path / "b", _write(tmp_path / "y.txt", BASE[::-1]), 4, 4, seed=7)
    c = build_tatoeba_corpus(tmp_path / "c", _write(tmp_path / "z.txt", BASE), 4, 4, seed=8)
    assert (a.valid, a.test) == (b.valid, b.test)
    assert sorted(a.train) == sorted(b.train)
    assert (a.valid, a.test) != (c.valid, c.test)


DING = """\
Ich habe keine Zeit. :: I have no time.
Der Hund schläft im Garten. :: The dog is sleeping in the garden.
Die Katze trinkt Milch. :: The cat is drinking milk.
Es regnet schon wieder. :: It is raining again.
Wir gehen heute ins Kino. :: We are going to the cinema today.
Sie liest ein Buch. :: She is reading a book.
Das Essen ist fertig. :: The food is ready.
Haus {n} :: house
"""


def test_ding_mix_keeps_ding_held_out_sentences_out(tmp_path):
    from model.corpus.ding import SENTENCE, read_ding
    from model.corpus.ding_corpus import split_ding
    ding = tmp_path / "de-en"
    ding.write_text(DING, encoding="utf-8")
    # A Tatoeba pair that shares its German with a Ding sentence: it must leave train if that one is held out.
    tatoeba = BASE + [("It is raining once more.", "Es regnet schon wieder.")]
    split = build_tatoeba_corpus(tmp_path / "mix", _write(tmp_path / "t.txt", tatoeba), 3, 3, seed=1,
                                 ding_sentences=2, ding_path=ding, ding_heldout=(2, 2))
    pairs = read_ding(ding)[0]
    dsplit = split_ding(pairs, 2, 2, seed=1)
    ding_held = {norm(s) for pair in dsplit.valid + dsplit.test for s in pair}
    assert not ding_held & {norm(s) for pair in split.train for s in pair}
    ding_sentences = {(p.en, p.de) for p in pairs if p.kind == SENTENCE}
    in_train = [p for p in split.train if p in ding_sentences]
    assert len(in_train) == split.stats["train"]["ding"] == 2 * (len(ding_sentences) - 4)
    assert all(in_train.count(p) == 2 for p in in_train)
    assert split.stats["ding"]["held_out"] == [2, 2] and "GPL" in split.stats["license"]


@pytest.mark.parametrize("content, message", [
    (b"Hi.\tHallo!\nGo.\n", "line 2: expected 2 or 3 tab-separated columns"),
    (b"Hi.\tHallo!\nA\tB\tC\tD\n", "line 2: expected 2 or 3"),
    (b"Hi.\tHallo!\nBad\t\xff\xfe\n", "line 2: not UTF-8"),
])
def test_bad_files_say_which_line(tmp_path, capsys, content, message):
    path = tmp_path / "deu.txt"
    path.write_bytes(content)
    with pytest.raises(CorpusError, match=message):
        read_tatoeba(path)
    assert main(["data", "tatoeba", "--tsv", str(path), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: ") and message in err and "\n" not in err
    assert not (tmp_path / "o").exists()  # nothing half-written


def test_missing_file_and_cli_run(tmp_path, capsys):
    assert main(["data", "tatoeba", "--tsv", str(tmp_path / "nope.txt"), "--out", str(tmp_path / "o")]) == 2
    assert "not found" in capsys.readouterr().err
    src = _write(tmp_path / "deu.txt.xz", BASE, attribution=True, xz=True)
    assert main(["data", "tatoeba", "--tsv", str(src), "--out", str(tmp_path / "o"), "--valid", "3",
                 "--test", "4"]) == 0
    assert "wrote" in capsys.readouterr().out
    assert len(_read(tmp_path / "o", "valid.de")) == 3 and len(_read(tmp_path / "o", "test.en")) == 4


# English–Chinese, as in cmn.txt: no spaces on the Chinese side, alternative translations, and one side
# written in decomposed form (NFC must give the same characters the window later feeds the model).
ZH = [
    ("I love coffee.", "我爱咖啡。"),
    ("I love coffee!", "我很爱咖啡。"),     # normalised English equal to the first: held out together
    ("Hi.", "嗨。"),
    ("Hi.", "你好。"),
    ("Stop!", "住手！"),
    ("I ate an apple.", "我吃了一个苹果。"),
    ("Café time.", "咖啡时间。"),
    ("Cafe\u0301 again.", "又是咖啡。"),      # decomposed é
]
ZH += [(f"This is number {i}.", f"这是第{i}号。") for i in range(30)]


def test_english_chinese_files_are_named_by_language(tmp_path, capsys):
    out = tmp_path / "zh"
    # The target is told by the script of the second column; the file name says nothing.
    split = build_tatoeba_corpus(out, _write(tmp_path / "pairs.tsv", ZH, attribution=True), n_valid=4, n_test=4)
    assert split.stats["source"] == "en" and split.stats["target"] == "zh"
    assert sorted(p.name for p in out.iterdir()) == ["stats.json", "test.en", "test.zh", "train.en", "train.zh",
                                                     "valid.en", "valid.zh"]
    assert list(zip(_read(out, "train.en"), _read(out, "train.zh"))) == split.train
    train_keys = {norm(s) for pair in split.train for s in pair}
    for en, zh in split.valid + split.test:
        assert norm(en) not in train_keys and norm(zh) not in train_keys
    # CJK survives cleaning untouched, and NFC composes the Latin side.
    everything = "\n".join(_read(out, "train.zh") + _read(out, "valid.zh") + _read(out, "test.zh"))
    assert "我吃了一个苹果。" in everything.split("\n")
    assert set(everything.split("\n")) <= {zh for _, zh in ZH}
    english = "\n".join(line for s in ("train", "valid", "test") for line in _read(out, f"{s}.en"))
    assert "Café again." in english and "e\u0301" not in english
    # The CLI names the pair in its first line.
    assert main(["data", "tatoeba", "--tsv", str(tmp_path / "pairs.tsv"), "--out", str(tmp_path / "c"),
                 "--valid", "3", "--test", "3"]) == 0
    assert capsys.readouterr().out.startswith("Tatoeba English→Chinese:")


def test_target_language_from_the_anki_name_or_the_option(tmp_path):
    german = _write(tmp_path / "tatoeba-deu-eng-2018.tsv", BASE)
    assert build_tatoeba_corpus(tmp_path / "a", german, 3, 3).stats["target"] == "de"
    french = _write(tmp_path / "fra.txt", [(f"Sentence {i}.", f"Phrase {i}.") for i in range(20)])
    assert build_tatoeba_corpus(tmp_path / "b", french, 3, 3).stats["target"] == "fr"
    assert (tmp_path / "b" / "train.fr").exists()
    assert build_tatoeba_corpus(tmp_path / "c", french, 3, 3, tgt_lang="es").stats["target"] == "es"


@pytest.mark.parametrize("options, message", [
    (["--tgt-lang", "Chinese"], "not a language code"),
    (["--tgt-lang", "en"], "both 'en'"),
    (["--names", "5"], "English→German only"),
])
def test_bad_language_options_are_one_line(tmp_path, capsys, options, message):
    src = _write(tmp_path / "cmn.txt", ZH)
    assert main(["data", "tatoeba", "--tsv", str(src), "--out", str(tmp_path / "o"), *options]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err
    assert not (tmp_path / "o").exists()
