"""The sentence templates of ``model.corpus.augment``: each builds one (English, German) pair from the lexicon.

See ``model.corpus.augment`` for the design; the grammar they use (articles, declension, verb second) is
in ``model.corpus.augment_grammar``.
"""

from __future__ import annotations

import random

from model.corpus.augment_grammar import (
    SEIN,
    WISSEN,
    de_v2,
    en_vp,
    modal_vp,
    np,
    plural_of,
    pp,
    subject_of,
    the_np,
    time_phrase,
)
from model.corpus.augment_lexicon import Lexicon
from model.corpus.augment_words import NUMBERS


def _where(r: random.Random, L: Lexicon) -> tuple[str, str]:
    """"Where is the station?", or embedded with the verb last: "Weißt du, wo der Bahnhof ist?" """
    n = L.noun(r, "pkatvhlrb", ding=0.5)
    pl = plural_of(r, n, 0.3)
    en, de = np(n, the_np(r, n, 0.3), pl=pl)
    (be, ist), k = (("are", "sind") if pl else ("is", "ist")), r.random()
    if k < 0.5:
        return f"Where {be} {en}?", f"Wo {ist} {de}?"
    q, neg = k < 0.75, k > 0.9
    s_en, s_de, p = subject_of(r, L, q=q)
    know = en_vp(s_en, p, "know", None, neg, q)
    return (f"{know} where {en} {be}" + ".?"[q],
            de_v2(s_de, WISSEN[p], [neg and "nicht"], q) + f", wo {de} {ist}" + ".?"[q])


def _this_is(r: random.Random, L: Lexicon, adj: bool) -> tuple[str, str] | None:
    n = L.noun(r, "pkatvhlrbfd~", ding=0 if adj else 0.5)
    a = L.adj(r, n, attr=True) if adj else None
    if adj and not a:
        return None
    pl = plural_of(r, n, 0.25)
    en, de = np(n, r.choice(("ein", "ein", the_np(r, n))), adj=a, pl=pl)
    this = r.choice(("These are", "Those are") if pl else ("This is", "That is"))
    return f"{this} {en}.", f"Das {'sind' if pl else 'ist'} {de}."


def _noun_is(r: random.Random, L: Lexicon, form: str) -> tuple[str, str] | None:
    """"The N is ADJ." and its variants; a time word only with adjectives for passing states ("!")."""
    n = r.choice(L.nouns)
    a = L.adj(r, n)
    if not a or (form in ("time", "front") and "!" not in a.tags):
        return None
    pl = plural_of(r, n, 0.3)
    en, de = np(n, the_np(r, n, 0.25), pl=pl)
    be, ist = ("are", "sind") if pl else ("is", "ist")
    t_en, t_de = time_phrase(r, dynamic=False)
    return {"plain": (f"{en} {be} {a.en}.", f"{de} {ist} {a.de}."),
            "time": (f"{en} {be} {a.en} {t_en}.", f"{de} {ist} {t_de} {a.de}."),
            "front": (f"{t_en} {en} {be} {a.en}.", f"{t_de} {ist} {de} {a.de}."),
            "not": (f"{en} {be} not {a.en}.", f"{de} {ist} nicht {a.de}."),
            "q": (f"{be} {en} {a.en}?", f"{ist} {de} {a.de}?")}[form]


def _pron_adj(r: random.Random, L: Lexicon, neg: bool, q: bool) -> tuple[str, str]:
    s_en, s_de, p = subject_of(r, L, q=q)
    a = r.choice([a for a in L.adjs if "p" in a.tags])
    very = r.random() < 0.3
    t = time_phrase(r, dynamic=False) if "!" in a.tags and r.random() < 0.3 else ("", "")
    en = en_vp(s_en, p, "", f"{'very ' if very else ''}{a.en} {t[0]}".strip(), neg, q)
    return en + ("?" if q else "."), de_v2(s_de, SEIN[p], [t[1], neg and "nicht", very and "sehr", a.de], q) + (
        "?" if q else ".")


def _weather(r: random.Random, L: Lexicon) -> tuple[str, str]:
    a_en, a_de = r.choice([("cold", "kalt"), ("warm", "warm"), ("hot", "heiß"), ("raining", "regnet"),
                           ("snowing", "schneit")])
    verb, q, front = a_en.endswith("ing"), r.random() < 0.25, r.random() < 0.2
    neg = not q and r.random() < 0.25
    t = time_phrase(r, dynamic=False) if r.random() < 0.6 else ("", "")
    front = front and not q and t[0]
    very = not verb and r.random() < 0.25
    en = en_vp("it", 2, "", f"{'very ' if very else ''}{a_en}{'' if front else ' ' + t[0]}".strip(), neg, q)
    de = de_v2("es", a_de if verb else "ist", [t[1] if not front else "", neg and "nicht", very and "sehr",
                                               "" if verb else a_de], q, front and t[1])
    return (f"{t[0]} {en}" if front else en) + ("?" if q else "."), de + ("?" if q else ".")


def _that_is(r: random.Random, L: Lexicon) -> tuple[str, str]:
    pool = L.ding_adjs if L.ding_adjs and r.random() < 0.5 else [
        a for a in L.adjs if set(a.tags) & set("trf") and "p" not in a.tags]
    a, form = r.choice(pool), r.randrange(3)  # no "very": Ding adjectives may not be gradable
    return (en_vp("that", 2, "", ("not " if form == 1 else "") + a.en, q=form == 2) + ".?"[form == 2],
            de_v2("das", "ist", [form == 1 and "nicht", a.de], form == 2) + ".?"[form == 2])


_NO_INDEF = {"like", "love", "know"}  # "I like a dog" is odd English: these take plurals or uncountables
_NO_MODAL = {"need", "like", "love", "know"}
_TIMED = {"buy", "visit", "cook", "read", "write", "eat", "drink"}  # events one plans: "Tomorrow we …"


def _svo(r: random.Random, L: Lexicon, det: str = "ein", adj: bool = False, neg: bool = False,
         q: bool = False, when: str = "", modal: bool = False, noun_subj: bool = False, imp: bool = False,
         num: bool = False) -> tuple[str, str] | None:
    """Subject + transitive verb + accusative object, with the options that share this word order."""
    poss = det in ("mein", "dein")
    v = r.choice([v for v in L.verbs.values() if v.obj and (v.imp or not imp) and not (neg and v.prep)
                  and not (modal and v.en in _NO_MODAL) and not (poss and v.en in ("have", "buy", "know"))
                  and not (when and not modal and v.en not in _TIMED) and not (num and v.en in _NO_INDEF)
                  and not (det == "ein" and v.en == "know")])
    n = L.noun(r, v.obj, count=num)
    if n is None or poss and not set(n.tags) & set("katVr"):
        return None
    det = the_np(r, n) if det == "def" else det
    a = L.adj(r, n, attr=True) if adj else None
    if adj and not a:
        return None
    # Places stay singular ("She is looking for the airports"), and people take no bare plural ("Please
    # visit girls") unless liked in general ("I like children").
    bare_ok = det != "ein" or "p" not in n.tags or (v.en in _NO_INDEF and "K" not in n.tags)
    pl = plural_of(r, n, 1.0 if num or (det == "ein" and v.en in _NO_INDEF) else 0.2 if bare_ok else 0.0)
    en_o, de_o = np(n, det, "acc", a, pl, r.choice(NUMBERS) if num else None)
    en_neg = neg
    if neg and det == "ein":  # "I do not need a key" is "Ich brauche keinen Schlüssel"
        de_o = np(n, "kein", "acc", a, pl)[1]
        if v.en == "have" and not modal and r.random() < 0.5:
            en_o, en_neg = np(n, "kein", "acc", a, pl)[0], False
    de_o = f"{v.prep} {de_o}".strip()
    if imp:  # du-imperative, so "your" is "dein" here as everywhere
        if neg:
            dont = r.choice(("Do not", "Don't"))
            return f"{dont} {v.en} {en_o}.", f"{v.imp} {de_o} nicht."
        please = r.random() < 0.5
        return (f"{'Please ' if please else ''}{v.en} {en_o}{'' if please else ', please'}.",
                f"{'Bitte ' if please else ''}{v.imp} {'' if please else 'bitte '}{de_o}.")
    s_en, s_de, p = subject_of(r, L, ("pa" if v.en in ("drink", "eat") else "p") if noun_subj else "", q=q)
    if n.en in s_en.split() or (n.en_pl or "") in s_en.split():
        return None
    t = time_phrase(r) if when else None
    obj = ([de_o, "nicht"] if det != "ein" else [de_o]) if neg else [de_o]
    if modal:
        m_en, aux, forms = modal_vp(r, s_en, q, en_neg)
        if v.en == "have" and not m_en.startswith("would"):  # "I would like to have a dog", not "can have"
            return None
        en = en_vp(s_en, p, f"{m_en} {v.en}", None, en_neg, q, aux)
        finite, obj = forms.split()[p], obj + [v.inf]
    else:
        en, finite = en_vp(s_en, p, v.en, v.ing, en_neg, q), v.de[p]
    en = f"{en} {en_o}"
    front = t[1] if t and when == "front" else ""
    en = f"{t[0]} {en}" if front else f"{en} {t[0]}" if t else en
    de = de_v2(s_de, finite, [t[1] if t and not front else ""] + obj, q, front)
    return en + ".?"[q], de + ".?"[q]


# Subjects per intransitive verb: c children, e adults (no child "works" or "drives"), p people, a animals.
_SUBJECTS = {"play": "ca", "sleep": "pa", "work": "e", "live": "p", "wait": "p", "go": "p", "drive": "e",
             "come": "p"}


def _place(r: random.Random, L: Lexicon, to: bool, q: bool = False, when: str = "") -> tuple[str, str] | None:
    """"The children are playing in the garden." / "We are driving to the city." """
    v = r.choice([v for v in L.verbs.values() if (v.en in ("go", "drive", "come")) == to and not v.obj])
    places = [n for n in L.nouns if n.place and set(v.places or "l") & set(n.tags) and (not to or n.place[2] != "-")]
    s_en, s_de, p = subject_of(r, L, _SUBJECTS[v.en], num=not q, q=q, no="Z")
    t = time_phrase(r, bool(v.ing)) if when and v.ing else None
    if when and not t:
        return None
    en_p, de_p = pp(r.choice(places), to)
    front = t[1] if t and when == "front" else ""
    en = f"{en_vp(s_en, p, v.en, v.ing, q=q)} {en_p}"
    en = f"{t[0]} {en}" if front else f"{en} {t[0]}" if t else en
    return en + ".?"[q], de_v2(s_de, v.de[p], [t[1] if t and not front else "", de_p], q, front) + ".?"[q]


def _modal_intrans(r: random.Random, L: Lexicon, neg: bool, q: bool) -> tuple[str, str]:
    """"I want to sleep." / "Can you come tomorrow?" / "We have to go to the station." """
    s_en, s_de, p = subject_of(r, L, q=q)
    m_en, aux, forms = modal_vp(r, s_en, q, neg)
    dest = ("", "")
    if L.ding_verbs and r.random() < 0.4:
        v_en, inf = r.choice(L.ding_verbs)
    else:
        v = L.verbs[r.choice(("sleep", "work", "play", "wait", "go", "drive", "come"))]
        v_en, inf = v.en, v.inf
        if v.en in ("go", "drive", "come") and r.random() < 0.6:
            dest = pp(r.choice([n for n in L.nouns if n.place and n.place[2] != "-"
                                and (v.en != "drive" or "D" in n.tags)]), to=True)
    t = time_phrase(r) if r.random() < 0.35 else ("", "")
    en = " ".join(w for w in (en_vp(s_en, p, f"{m_en} {v_en}", None, neg, q, aux), dest[0], t[0]) if w)
    return en + ".?"[q], de_v2(s_de, forms.split()[p], [t[1], neg and "nicht", dest[1], inf], q) + ".?"[q]


def _in_place(r: random.Random, L: Lexicon, form: str) -> tuple[str, str] | None:
    """"The key is in the kitchen." / "Is the dog in the garden?" / "The cat is not here." """
    place = r.choice([n for n in L.nouns if set("IB") & set(n.tags)])
    n = L.noun(r, "t" if "B" in place.tags else "tap", no="Z")
    if n is place:
        return None
    pl = plural_of(r, n, 0.25)
    en, de = np(n, the_np(r, n, 0.25), pl=pl)
    where = r.choice([("here", "hier"), ("there", "dort")]) if r.random() < 0.2 else pp(place)
    be, ist = ("are", "sind") if pl else ("is", "ist")
    return {"plain": (f"{en} {be} {where[0]}.", f"{de} {ist} {where[1]}."),
            "not": (f"{en} {be} not {where[0]}.", f"{de} {ist} nicht {where[1]}."),
            "q": (f"{be} {en} {where[0]}?", f"{ist} {de} {where[1]}?")}[form]


def _is_there(r: random.Random, L: Lexicon) -> tuple[str, str]:
    n = r.choice([n for n in L.nouns if "G" in n.tags])
    (en, de), (_, no) = np(n, "ein", "acc"), np(n, "kein", "acc")
    return r.choice([(f"Is there {en} here?", f"Gibt es hier {de}?"), (f"There is {en} here.", f"Hier gibt es {de}."),
                     (f"There is no {n.en} here.", f"Hier gibt es {no}.")])


def _t(fn, *args, **kw):
    return lambda r, L: fn(r, L, *args, **kw)


# name: (example, generator). The round robin in ``generate`` gives each the same share until it runs dry.
TEMPLATES = {
    "where_is": ("Where is the station? → Wo ist der Bahnhof?", _where),
    "this_is": ("This is a house. → Das ist ein Haus.", _t(_this_is, False)),
    "this_is_adj": ("This is a big house. → Das ist ein großes Haus.", _t(_this_is, True)),
    "noun_is_adj": ("The soup is cold. → Die Suppe ist kalt.", _t(_noun_is, "plain")),
    "noun_is_adj_time": ("The weather is nice today. → Das Wetter ist heute schön.", _t(_noun_is, "time")),
    "time_noun_is_adj": ("Today the weather is nice. → Heute ist das Wetter schön.", _t(_noun_is, "front")),
    "noun_is_not_adj": ("The room is not clean. → Das Zimmer ist nicht sauber.", _t(_noun_is, "not")),
    "is_noun_adj": ("Is the book interesting? → Ist das Buch interessant?", _t(_noun_is, "q")),
    "pron_adj": ("I am tired. → Ich bin müde.", _t(_pron_adj, False, False)),
    "pron_not_adj": ("I am not hungry. → Ich bin nicht hungrig.", _t(_pron_adj, True, False)),
    "pron_adj_q": ("Are you tired? → Bist du müde?", _t(_pron_adj, False, True)),
    "weather": ("It is cold today. → Es ist heute kalt.", _weather),
    "that_is_adj": ("That is important. → Das ist wichtig.", _that_is),
    "verb_indef": ("I need a key. → Ich brauche einen Schlüssel.", _t(_svo, "ein")),
    "verb_def": ("I see the station. → Ich sehe den Bahnhof.", _t(_svo, "def")),
    "verb_adj": ("We are buying a new car. → Wir kaufen ein neues Auto.", _t(_svo, "ein", adj=True)),
    "verb_def_adj": ("I like the old house. → Ich mag das alte Haus.", _t(_svo, "def", adj=True)),
    "verb_poss": ("I am looking for my key. → Ich suche meinen Schlüssel.", _t(_svo, "mein")),
    "verb_number": ("I have two dogs. → Ich habe zwei Hunde.", _t(_svo, "ein", num=True)),
    "verb_no": ("I have no time. → Ich habe keine Zeit.", _t(_svo, "ein", neg=True)),
    "verb_not_def": ("I do not see the station. → Ich sehe den Bahnhof nicht.", _t(_svo, "def", neg=True)),
    "verb_q": ("Do you have a dog? → Hast du einen Hund?", _t(_svo, "ein", q=True)),
    "verb_time": ("We are visiting the museum tomorrow. → Wir besuchen morgen das Museum.",
                  _t(_svo, "def", when="end")),
    "time_verb": ("Tomorrow we are visiting the museum. → Morgen besuchen wir das Museum.",
                  _t(_svo, "def", when="front")),
    "noun_subj_verb": ("The children like the dog. → Die Kinder mögen den Hund.", _t(_svo, "def", noun_subj=True)),
    "play_in_place": ("The children are playing in the garden. → Die Kinder spielen im Garten.",
                      _t(_place, False)),
    "place_time": ("Today the children are playing in the park. → Heute spielen die Kinder im Park.",
                   _t(_place, False, when="front")),
    "go_to": ("We are going to the station. → Wir gehen zum Bahnhof.", _t(_place, True)),
    "go_to_q": ("Are you going to the park? → Gehst du in den Park?", _t(_place, True, q=True)),
    "in_place": ("The key is in the kitchen. → Der Schlüssel ist in der Küche.", _t(_in_place, "plain")),
    "not_in_place": ("The dog is not in the garden. → Der Hund ist nicht im Garten.", _t(_in_place, "not")),
    "in_place_q": ("Is the key in the car? → Ist der Schlüssel im Auto?", _t(_in_place, "q")),
    "is_there": ("Is there a bank here? → Gibt es hier eine Bank?", _is_there),
    "modal": ("I want to sleep. → Ich will schlafen.", _t(_modal_intrans, False, False)),
    "modal_not": ("I cannot come today. → Ich kann heute nicht kommen.", _t(_modal_intrans, True, False)),
    "modal_q": ("Can you come tomorrow? → Kannst du morgen kommen?", _t(_modal_intrans, False, True)),
    "modal_obj": ("I want to buy a new car. → Ich will ein neues Auto kaufen.",
                  _t(_svo, "ein", adj=True, modal=True)),
    "modal_not_obj": ("I do not want to buy a car. → Ich will kein Auto kaufen.",
                      _t(_svo, "ein", neg=True, modal=True)),
    "imperative": ("Please open the window. → Bitte öffne das Fenster.", _t(_svo, "def", imp=True)),
    "imperative_a": ("Please buy bread. → Bitte kauf Brot.", _t(_svo, "ein", imp=True)),
    "imperative_your": ("Take your umbrella, please. → Nimm bitte deinen Regenschirm.", _t(_svo, "dein", imp=True)),
    "imperative_not": ("Don't open the window. → Öffne das Fenster nicht.", _t(_svo, "def", imp=True, neg=True)),
}
