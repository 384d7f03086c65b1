"""German and English grammar for ``model.corpus.augment``: articles, declension, noun and place phrases, verb
groups, verb-second word order, contractions, and the random choices (subject, determiner, number, modal,
time) that the templates share."""

from __future__ import annotations

import random
import re

from model.corpus.augment_lexicon import Lexicon
from model.corpus.augment_words import MODALS, NUMBERS, PRONOUNS, TIMES, Adj, Noun

_GENDERS = ("m", "f", "n", "pl")
_DER = {"nom": "der die das die", "acc": "den die das die", "dat": "dem der dem den"}
_EIN = {"nom": ("", "e", "", "e"), "acc": ("en", "e", "", "e"), "dat": ("em", "er", "em", "en")}
# Adjective endings after der-words (weak), ein-words incl. kein/mein (mixed), and no article (strong).
_ENDINGS = {"def": {"nom": "e e e en", "acc": "en e e en", "dat": "en en en en"},
            "ein": {"nom": "er e es en", "acc": "en e es en", "dat": "en en en en"},
            "": {"nom": "er e es e", "acc": "en e es e", "dat": "em er em en"}}
_EN_DET = {"def": "the", "mein": "my", "dein": "your", "kein": "no"}
_FUSE = {("in", "dem"): "im", ("in", "das"): "ins", ("an", "dem"): "am", ("an", "das"): "ans",
         ("zu", "dem"): "zum", ("zu", "der"): "zur"}
_BE, SEIN = ("am", "are", "is", "are", "are", "are"), "bin bist ist sind seid sind".split()
WISSEN = "weiß weißt weiß wissen wisst wissen".split()


def a_an(word: str) -> str:
    """English indefinite article by sound for the words used here ("an apple", "a uniform", "an hour")."""
    if word.startswith(("hour", "honest", "heir")):
        return "an"
    return "an" if word[0] in "aeiou" and not word.startswith(("uni", "use", "usu", "eu", "one")) else "a"


def np(n: Noun, det: str = "def", case: str = "nom", adj: Adj | None = None, pl: bool = False,
       num: tuple[str, str] | None = None) -> tuple[str, str]:
    """English and German noun phrase. det: def | ein | kein | mein | dein; ``ein`` becomes no article for
    uncountables and plurals ("water", "Äpfel"); ``num`` ("two", "zwei") makes a plural with no article."""
    pl = n.en_pl is not None and (pl or num is not None)
    bare = num is not None or (det == "ein" and (pl or n.en_pl is None))
    i = _GENDERS.index("pl" if pl else n.g)
    art = "" if bare else _DER[case].split()[i] if det == "def" else det + _EIN[case][i]
    head = n.de_pl + ("n" if case == "dat" and n.de_pl[-1] not in "ns" else "") if pl else (
        n.obl if case != "nom" and n.obl else n.de)
    adj_de = adj and adj.attr + _ENDINGS["" if bare else "def" if det == "def" else "ein"][case].split()[i]
    de = " ".join(w for w in (num and num[1], art, adj_de, head) if w)
    en = " ".join(w for w in (adj and adj.en, n.en_pl if pl else n.en) if w)
    first = num[0] if num else "" if bare else _EN_DET.get(det) or a_an(en)
    return f"{first} {en}".strip(), de


def pp(n: Noun, to: bool = False) -> tuple[str, str]:
    """Place phrase with the noun's own prepositions: ("at the station", "am Bahnhof"), or with ``to``
    ("to the station", "zum Bahnhof"); "zu" takes the dative, "in"/"an" the accusative for a direction."""
    prep = n.place[2] if to else n.place[1]
    case = "dat" if prep == "zu" or not to else "acc"
    art = _DER[case].split()[_GENDERS.index(n.g)]
    de = f"{_FUSE.get((prep, art)) or prep + ' ' + art} {n.de}"
    return f"{'to' if to else n.place[0]} the {n.en}", de


def en_vp(subj: str, p: int, verb: str, ing: str | None, neg: bool = False, q: bool = False,
          aux: bool = False) -> str:
    """English subject + verb group; ``ing`` is the progressive (or, with verb "", what follows "be")."""
    if ing is not None:
        return f"{_BE[p]} {subj} {ing}" if q else f"{subj} {_BE[p]}{' not' if neg else ''} {ing}"
    if aux:  # can / would like to: the first word inverts and takes the negation itself
        a, _, rest = verb.partition(" ")
        if q:
            return f"{a} {subj} {rest}".strip()
        return f"{subj} {'cannot' if a == 'can' else a + ' not'} {rest}".strip() if neg else f"{subj} {verb}"
    do = "does" if p == 2 else "do"
    if q or neg:
        return f"{do} {subj} {verb}" if q else f"{subj} {do} not {verb}"
    if p != 2:
        return f"{subj} {verb}"
    w, _, rest = verb.partition(" ")
    if w in ("have", "do", "go"):
        w = {"have": "has", "do": "does", "go": "goes"}[w]
    elif w.endswith(("s", "sh", "ch", "x", "o")):
        w += "es"
    else:
        w = w[:-1] + "ies" if w[-1] == "y" and w[-2] not in "aeiou" else w + "s"
    return f"{subj} {w} {rest}".strip()


def de_v2(subj: str, finite: str, rest: list[str], q: bool = False, front: str = "") -> str:
    """German main clause: finite verb second (after the subject or a fronted adverb), first in questions."""
    words = [finite, subj] if q else [front, finite, subj] if front else [subj, finite]
    return " ".join(w for w in words + rest if w)


# Users type contractions; the negation ones go first so that "He is not" becomes "He isn't", not "He's not"
# (both are fine, one is enough), and "I am not" still becomes "I'm not".
_CONTRACTIONS = [(r"\bcannot\b", "can't"), (r"\b(is|are|do|does) not\b", r"\1n't"), (r"\bI am\b", "I'm"),
                 (r"\b([Yy]ou|[Ww]e|[Tt]hey) are\b", r"\1're"),
                 (r"\b([Hh]e|[Ss]he|[Ii]t|[Tt]hat) is\b", r"\1's")]


def contract(s: str) -> str:
    for pattern, repl in _CONTRACTIONS:
        s = re.sub(pattern, repl, s)
    return s


# --- Random choices shared by the templates --------------------------------------------------------------
def the_np(r: random.Random, n: Noun, share: float = 0.0) -> str:
    """"the", or my/your: always for family ("the mother" is odd), sometimes for what one owns."""
    own = "K" in n.tags or (not n.ding and set(n.tags) & set("katVhr") and r.random() < share)
    return r.choice(("mein", "dein")) if own else "def"


def plural_of(r: random.Random, n: Noun, share: float) -> bool:
    # Places and one-of-a-kind people stay singular: "the airports", "my mothers" are odd in a phrasebook.
    return n.en_pl is not None and not set(n.tags) & set("lO") and r.random() < share


def subject_of(r: random.Random, L: Lexicon, tags: str = "", num: bool = False,
             q: bool = False, no: str = "") -> tuple[str, str, int]:
    """A pronoun, or (with tags) sometimes "the dog"/"my children"/"two dogs": (English, German, person).
    Questions never ask about "I" ("Am I looking for a horse?")."""
    if not tags or r.random() < 0.4:
        return r.choice(PRONOUNS[1:] if q else PRONOUNS)
    n = L.noun(r, tags, count=True, no=no)
    k = 1.0 if "O" in n.tags else r.random()  # "my mother", never "my mothers" or "two mothers"
    en, de = np(n, num=r.choice(NUMBERS)) if num and k < 0.2 else np(n, the_np(r, n), pl=k < 0.5)
    return en, de, 5 if k < 0.5 else 2


def modal_vp(r: random.Random, subj: str, q: bool, neg: bool) -> tuple[str, bool, str]:
    # "Would you like to …?" is an offer; "Would we like to …?", "You would like to …" and "I would not
    # like to …" are not how people talk.
    polite = (subj == "you") == q and not neg
    return r.choice([m for m in MODALS if polite or not m[0].startswith("would")])


def time_phrase(r: random.Random, dynamic: bool = True) -> tuple[str, str]:
    # Stative English verbs and "be" only go with today/now: "I need a key tomorrow" wants "will need".
    return r.choice(TIMES if dynamic else TIMES[:2])
