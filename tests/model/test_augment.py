"""Tests for the synthetic sentence generator: German grammar of the building blocks, the brief's example
sentences, generator guarantees (determinism, distinctness, exclusion) and Ding lexicon extraction."""

from __future__ import annotations

import argparse
import json
import random
import re
from collections import Counter

import pytest

from model.corpus import augment as A
from model.errors import UserError

HAND = A.load_lexicon(None)


def noun(en):
    return next(n for n in HAND.nouns if n.en == en)


def adj(en, de=None):
    return next(a for a in HAND.adjs if a.en == en and de in (None, a.de))


class Scripted(random.Random):
    """A Random whose choice() prefers the wanted words and whose random() is fixed, so a template can be
    steered to one sentence without knowing the order of its random calls."""

    def __init__(self, *want, p=0.45):
        super().__init__(0)
        self.want, self.p = want, p

    def random(self):
        return self.p

    def choice(self, seq):
        keys = [getattr(x, "en", None) or (x[0] if isinstance(x, tuple) else x) for x in seq]
        for w in self.want:  # earlier wishes win: ("like", "dog", "child") makes the dog the object
            if w in keys:
                return seq[keys.index(w)]
        return seq[0]


def render(template, *want, p=0.45, lexicon=HAND):
    pair = A.TEMPLATES[template][1](Scripted(*want, p=p), lexicon)
    assert pair is not None
    return A.sentence_case(pair[0]), A.sentence_case(pair[1])


@pytest.mark.parametrize("template, want, p, expected", [
    ("where_is", ["station"], 0.45, ("Where is the station?", "Wo ist der Bahnhof?")),
    ("where_is", ["key", "you"], 0.6, ("Do you know where the key is?", "Weißt du, wo der Schlüssel ist?")),
    ("verb_no", ["have", "time", "I"], 0.45, ("I have no time.", "Ich habe keine Zeit.")),
    ("verb_no", ["have", "time", "I"], 0.9, ("I do not have time.", "Ich habe keine Zeit.")),
    ("verb_no", ["need", "car", "we"], 0.9, ("We do not need a car.", "Wir brauchen kein Auto.")),
    ("verb_indef", ["need", "key", "I"], 0.45, ("I need a key.", "Ich brauche einen Schlüssel.")),
    ("verb_indef", ["eat", "apple", "she"], 0.45, ("She is eating an apple.", "Sie isst einen Apfel.")),
    ("verb_indef", ["drink", "water", "he"], 0.45, ("He is drinking water.", "Er trinkt Wasser.")),
    ("this_is", ["house", "ein", "This is"], 0.45, ("This is a house.", "Das ist ein Haus.")),
    ("this_is", ["umbrella", "ein", "That is"], 0.45, ("That is an umbrella.", "Das ist ein Regenschirm.")),
    ("pron_adj", ["I", "tired"], 0.45, ("I am tired.", "Ich bin müde.")),
    ("pron_adj", ["you", "hungry"], 0.2, ("You are very hungry today.", "Du bist heute sehr hungrig.")),
    ("pron_adj_q", ["she", "tired"], 0.45, ("Is she tired?", "Ist sie müde?")),
    ("pron_not_adj", ["they", "hungry"], 0.45, ("They are not hungry.", "Sie sind nicht hungrig.")),
    ("noun_is_adj_time", ["weather", "nice", "today"], 0.45,
     ("The weather is nice today.", "Das Wetter ist heute schön.")),
    ("time_noun_is_adj", ["weather", "nice", "today"], 0.45,
     ("Today the weather is nice.", "Heute ist das Wetter schön.")),
    ("noun_is_not_adj", ["soup", "cold"], 0.45, ("The soup is not cold.", "Die Suppe ist nicht kalt.")),
    ("is_noun_adj", ["car", "new"], 0.45, ("Is the car new?", "Ist das Auto neu?")),
    ("verb_adj", ["buy", "car", "new", "we"], 0.45, ("We are buying a new car.", "Wir kaufen ein neues Auto.")),
    ("verb_adj", ["buy", "bag", "new", "we"], 0.45, ("We are buying a new bag.", "Wir kaufen eine neue Tasche.")),
    ("verb_adj", ["buy", "coat", "new", "I"], 0.45, ("I am buying a new coat.", "Ich kaufe einen neuen Mantel.")),
    ("verb_adj", ["drink", "tea", "hot", "I"], 0.45, ("I am drinking hot tea.", "Ich trinke heißen Tee.")),
    ("verb_def_adj", ["like", "house", "old", "I"], 0.45, ("I like the old house.", "Ich mag das alte Haus.")),
    ("verb_def", ["see", "boy", "I"], 0.45, ("I see the boy.", "Ich sehe den Jungen.")),
    ("verb_poss", ["look for", "key", "mein", "I"], 0.45,
     ("I am looking for my key.", "Ich suche meinen Schlüssel.")),
    ("verb_q", ["have", "dog", "you"], 0.45, ("Do you have a dog?", "Hast du einen Hund?")),
    ("verb_q", ["read", "book", "he"], 0.45, ("Is he reading a book?", "Liest er ein Buch?")),
    ("verb_not_def", ["see", "station", "I"], 0.45, ("I do not see the station.", "Ich sehe den Bahnhof nicht.")),
    ("verb_number", ["have", "dog", "two", "I"], 0.45, ("I have two dogs.", "Ich habe zwei Hunde.")),
    ("time_verb", ["visit", "museum", "we", "tomorrow"], 0.45,
     ("Tomorrow we are visiting the museum.", "Morgen besuchen wir das Museum.")),
    ("verb_time", ["visit", "museum", "we", "tomorrow"], 0.45,
     ("We are visiting the museum tomorrow.", "Wir besuchen morgen das Museum.")),
    ("noun_subj_verb", ["like", "dog", "child"], 0.45, ("The children like the dog.", "Die Kinder mögen den Hund.")),
    ("play_in_place", ["play", "garden", "child"], 0.45,
     ("The children are playing in the garden.", "Die Kinder spielen im Garten.")),
    ("go_to", ["go", "station", "I"], 0.3, ("I am going to the station.", "Ich gehe zum Bahnhof.")),
    ("go_to_q", ["go", "park", "you"], 0.3, ("Are you going to the park?", "Gehst du in den Park?")),
    ("go_to", ["drive", "city", "we"], 0.3, ("We are driving to the city.", "Wir fahren in die Stadt.")),
    ("in_place", ["kitchen", "key"], 0.45, ("The key is in the kitchen.", "Der Schlüssel ist in der Küche.")),
    ("is_there", ["bank", "Is there"], 0.45, ("Is there a bank here?", "Gibt es hier eine Bank?")),
    ("modal", ["want to", "sleep", "I"], 0.45, ("I want to sleep.", "Ich will schlafen.")),
    ("modal_q", ["can", "come", "you", "tomorrow", "station"], 0.3,
     ("Can you come to the station tomorrow?", "Kannst du morgen zum Bahnhof kommen?")),
    ("modal_not", ["can", "work", "I", "today"], 0.3, ("I cannot work today.", "Ich kann heute nicht arbeiten.")),
    ("modal_obj", ["want to", "buy", "car", "new", "I"], 0.45,
     ("I want to buy a new car.", "Ich will ein neues Auto kaufen.")),
    ("modal_not_obj", ["want to", "buy", "car", "I"], 0.9,
     ("I do not want to buy a car.", "Ich will kein Auto kaufen.")),
    ("imperative", ["open", "window"], 0.45, ("Please open the window.", "Bitte öffne das Fenster.")),
    ("imperative_not", ["open", "window"], 0.45, ("Do not open the window.", "Öffne das Fenster nicht.")),
    ("weather", ["cold", "today"], 0.45, ("It is cold today.", "Es ist heute kalt.")),
])
def test_example_sentences(template, want, p, expected):
    assert render(template, *want, p=p) == expected


@pytest.mark.parametrize("args, expected", [
    (("station",), ("the station", "der Bahnhof")),
    (("key", "ein", "acc"), ("a key", "einen Schlüssel")),
    (("key", "kein", "acc"), ("no key", "keinen Schlüssel")),
    (("time", "kein", "acc"), ("no time", "keine Zeit")),
    (("money", "kein", "acc"), ("no money", "kein Geld")),
    (("water", "ein", "nom", "cold"), ("cold water", "kaltes Wasser")),
    (("milk", "ein", "acc", "fresh"), ("fresh milk", "frische Milch")),
    (("car", "kein", "acc", "new", True), ("no new cars", "keine neuen Autos")),
    (("car", "def", "nom", "expensive"), ("the expensive car", "das teure Auto")),
    (("dog", "mein", "acc", "old"), ("my old dog", "meinen alten Hund")),
    (("woman", "ein", "acc", "tired"), ("a tired woman", "eine müde Frau")),
    (("dog", "def", "acc", "tired"), ("the tired dog", "den müden Hund")),
    (("child", "ein", "nom", "tired"), ("a tired child", "ein müdes Kind")),
    (("room", "ein", "nom", "dark"), ("a dark room", "ein dunkles Zimmer")),
    (("boy", "def", "acc"), ("the boy", "den Jungen")),
    (("student", "ein", "acc"), ("a student", "einen Studenten")),
    (("child", "def", "dat", None, True), ("the children", "den Kindern")),
    (("car", "def", "dat", None, True), ("the cars", "den Autos")),
    (("apple", "ein", "acc", None, True), ("apples", "Äpfel")),
])
def test_noun_phrases(args, expected):
    n, rest = noun(args[0]), list(args[1:])
    if len(rest) > 2 and rest[2]:
        rest[2] = adj(rest[2])
    assert A.np(n, *rest) == expected


def test_numbers_and_strong_plural():
    assert A.np(noun("dog"), adj=adj("big"), num=("two", "zwei")) == ("two big dogs", "zwei große Hunde")
    assert A.np(noun("child"), num=("three", "drei"), case="dat") == ("three children", "drei Kindern")


@pytest.mark.parametrize("place, to, expected", [
    ("station", False, ("at the station", "am Bahnhof")), ("station", True, ("to the station", "zum Bahnhof")),
    ("park", True, ("to the park", "in den Park")), ("cinema", True, ("to the cinema", "ins Kino")),
    ("city", False, ("in the city", "in der Stadt")), ("school", True, ("to the school", "zur Schule")),
    ("beach", True, ("to the beach", "an den Strand")), ("garden", False, ("in the garden", "im Garten")),
])
def test_places(place, to, expected):
    assert A.pp(noun(place), to) == expected


@pytest.mark.parametrize("word, article", [("apple", "an"), ("umbrella", "an"), ("uniform", "a"), ("hour", "an"),
                                           ("house", "a"), ("european", "a"), ("old", "an"), ("new", "a")])
def test_a_an(word, article):
    assert A.a_an(word) == article


@pytest.fixture(scope="module")
def pairs():
    return A.generate(6000, seed=1, ding_path=None)


def test_generate_is_deterministic_and_distinct(pairs):
    assert len(pairs) == 6000
    assert A.generate(6000, seed=1, ding_path=None) == pairs
    assert A.generate(300, seed=2, ding_path=None) != pairs[:300]
    assert len({" ".join(en.casefold().split()) for en, _ in pairs}) == len(pairs)


def test_generate_mixes_all_templates():
    counts = Counter(name for name, _, _ in A.generate_rows(4000, 1, None, None))
    assert set(counts) == set(A.TEMPLATES)
    top = sorted(counts.values())[-20:]  # round robin: templates that did not run dry get equal shares
    assert top[-1] - top[0] <= 1, counts


def test_sentence_shape(pairs):
    for en, de in pairs:
        for s in (en, de):
            assert s[0].isupper() and s[-1] in ".?" and "  " not in s and s == s.strip(), s
        assert en[-1] == de[-1], (en, de)


def test_german_nouns_capitalised(pairs):
    forms = {f for n in HAND.nouns for f in (n.de, n.de_pl, n.obl, n.de_pl and n.de_pl + "n") if f}
    # "jungen" (young) is an adjective; only forms that cannot be one must be capitalised.
    endings = ("e", "en", "er", "es", "em")
    adjectives = {a.de for a in HAND.adjs} | {a.attr + e for a in HAND.adjs if a.attr for e in endings}
    lower = {f.lower(): f for f in forms if f.lower() not in adjectives}
    for _, de in pairs:
        for w in re.findall(r"[\wäöüÄÖÜß]+", de):
            assert w.lower() not in lower or w[0].isupper(), de


def test_english_articles(pairs):
    for en, _ in pairs:
        for art, word in re.findall(r"\b([Aa]n?) ([a-z]+)", en):
            assert A.a_an(word) == art.lower(), en
            assert (art.lower() == "an") == (word[0] in "aeiou" and not word.startswith("uni")), en


def test_you_is_du_and_contractions(pairs):
    for en, de in pairs:
        if re.match(r"(Do|Are|Can) you\b", en):
            assert re.search(r"\bdu\b", de), (en, de)
    assert any("'" in en for en, _ in pairs) and any("do not" in en for en, _ in pairs)


def test_exclusion(pairs):
    banned = {pairs[0][0].upper(), "  " + pairs[5][0] + " ", pairs[9][1]}
    again = A.generate(6000, seed=1, ding_path=None, exclude=banned)
    ens = {en for en, _ in again}
    assert pairs[0][0] not in ens and pairs[5][0] not in ens
    assert pairs[9][1] not in {de for _, de in again}
    assert len(again) == 6000


def test_bad_n():
    assert A.generate(0, ding_path=None) == []
    with pytest.raises(UserError):
        A.generate(-1, ding_path=None)


def test_cli_writes_aligned_files(tmp_path, pairs):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "valid.en").write_text(pairs[3][0] + "\n", encoding="utf-8")
    parser = argparse.ArgumentParser()
    A.add_arguments(parser)
    out = tmp_path / "aug"
    args = parser.parse_args(["--out", str(out), "--n", "400", "--no-ding", "--exclude-from", str(corpus)])
    assert A.run(args) == 0
    en = (out / "augment.en").read_text(encoding="utf-8").splitlines()
    de = (out / "augment.de").read_text(encoding="utf-8").splitlines()
    assert len(en) == len(de) == 400 and pairs[3][0] not in en
    stats = json.loads((out / "augment.json").read_text(encoding="utf-8"))
    assert stats["pairs"] == 400 and sum(stats["templates"].values()) == 400


DING_SAMPLE = """\
# Version :: test
Baum {m} [bot.] | Bäume {pl} :: tree | trees
Insel {f} | Inseln {pl} :: island | islands
Band {f} | Bands {pl} :: band | bands
Band {n} | Bänder {pl} :: ribbon | ribbons
Löwe {m} [zool.] | Löwen {pl} :: lion | lions
Kumpel {m} [ugs.] | Kumpel {pl} :: mate | mates
wichtig {adj} :: important
schwimmen {vi} | schwimmend :: to swim | swimming
Der Baum ist alt. :: The tree is old.
Ein Vogel sitzt auf dem Baum. :: A bird sits on the tree.
Die Katze liegt unter dem Baum. :: The cat lies under the tree.
Wir haben zwei Bäume. :: We have two trees.
Das ist ein Baum. :: This is a tree.
Die Insel ist klein. :: The island is small.
Wir wohnen auf einer Insel. :: We live on an island.
Es gibt viele Inseln. :: There are many islands.
Die Band spielt heute. :: The band is playing today.
Die Band ist gut. :: The band is good.
Ich mag die Band. :: I like a band.
Wir mögen die Bands. :: We like the bands.
Der Löwe schläft. :: The lion is sleeping.
Ich sehe einen Löwen. :: I see a lion.
Die Löwen sind hungrig. :: The lions are hungry.
Mein Kumpel ist hier. :: My mate is here.
Ich habe einen Kumpel. :: I have a mate.
Die Kumpel sind hier. :: The mates are here.
Das ist wichtig. :: That is important.
Es ist sehr wichtig. :: It is very important.
Die Frage ist wichtig. :: The question is important.
Ich kann schwimmen. :: I can swim.
Wir wollen schwimmen. :: We want to swim.
"""


@pytest.fixture
def ding_sample(tmp_path):
    path = tmp_path / "de-en"
    path.write_text(DING_SAMPLE, encoding="utf-8")
    return path


def test_ding_lexicon_is_conservative(ding_sample):
    lex = A.load_lexicon(str(ding_sample))
    nouns = {n.en: n for n in lex.ding_nouns}
    assert set(nouns) == {"tree", "island"}  # band: two genders; lion: maybe weak; mate: colloquial
    assert (nouns["tree"].de, nouns["tree"].g, nouns["tree"].de_pl, nouns["tree"].tags) == ("Baum", "m", "Bäume", "~t")
    assert nouns["island"].tags == "~"  # not "on the island" twice: no "Where is the island?"
    assert [(a.en, a.de) for a in lex.ding_adjs] == [("important", "wichtig")]
    assert lex.ding_verbs == [("swim", "schwimmen")]
    assert render("where_is", "tree", lexicon=lex) == ("Where is the tree?", "Wo ist der Baum?")


def test_ding_sentences_never_generated(ding_sample):
    out = A.generate(3000, seed=1, ding_path=ding_sample)
    sentences = {" ".join(s.casefold().split()) for line in DING_SAMPLE.splitlines()[9:] for s in line.split(" :: ")}
    assert not sentences & {" ".join(s.casefold().split()) for pair in out for s in pair}
    assert ("That is important.", "Das ist wichtig.") not in out  # a Ding sentence, so excluded
    assert any("Baum" in de for _, de in out) and any("schwimmen" in de for _, de in out)


@pytest.mark.slow
@pytest.mark.skipif(not A.DING_PATH.is_file(), reason="Ding dictionary not installed")
def test_real_ding_lexicon():
    lex = A.load_lexicon(str(A.DING_PATH))
    assert len(lex.ding_nouns) > 100 and len(lex.ding_adjs) > 30 and lex.ding_verbs
    hand = {n.en for n in lex.nouns}
    for n in lex.ding_nouns:
        assert n.en not in hand and n.g in "mfn" and n.de[0].isupper() and n.de_pl[0].isupper()
    out = A.generate(3000, seed=1)
    assert len(out) == 3000
    assert all(de[0].isupper() and de[-1] in ".?" for _, de in out)
