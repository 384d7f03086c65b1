"""Synthetic everyday English→German sentence pairs, built from a small grammar and the Ding lexicon.

Ding has ~19k idiomatic example sentences but hardly any "Where is the station?"; the model needs those
to generalise compositionally (article by gender and case, verb conjugation, verb-second word order).
Every German sentence must be correct, so the design is conservative:

* A hand lexicon (below) is the authority: genders, plurals, weak nouns, adjective stems, full present
  paradigms. Nouns carry semantic tags so that templates only pair words that make sense together
  (drink + d, play + a playground place, "tired" + people/animals).
* Ding extends it by co-occurrence: an (English, German) entry is kept when both words occur in the same
  Ding example sentence pairs often enough. Such nouns (single word, one gender, a plural, no usage tag)
  only go into templates that suit any concrete noun ("Where is the N?"), never with adjectives;
  adjectives only into "That is ADJ." (predicative, uninflected); intransitive verbs only as a bare
  infinitive after a modal ("I want to leave." → "Ich will abfahren.") so no conjugation is guessed.
* Masculine nouns that might be weak (den Jungen, den Studenten) are left out of Ding's part: their
  accusative cannot be derived safely. Hand nouns spell out the oblique form (``Junge~Jungen``).
* English "you" is always "du" (singular, informal) and "they" is "sie" (plural): one consistent target
  per source sentence is easier to learn than a mix of du/Sie/ihr.
* English dynamic verbs use the progressive ("We are buying …"), stative ones the simple present
  ("I need …"); both are the German present. Contractions (I'm, don't, isn't) appear at random.
* German places use a fixed preposition per noun (am Bahnhof / zum Bahnhof, im Park / in den Park),
  written by hand, because the choice is idiomatic rather than grammatical.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from model.ding import DING_PATH, SENTENCE, _lines, _norm, _write_atomic, read_ding
from model.errors import UserError

# Hand nouns: "en/en_pl De[~oblique]/De_pl gender tags [loc_en.loc_de.dir_de]"; "-" plural = uncountable.
# The tags say which verbs and adjectives a noun goes with:
#   p person, c child, e adult, k kin or friend (one "has"), K family (always my/your, "the mother" is odd),
#   O only one ("my mothers"), a animal, Z animal kept outdoors (no "horse in the kitchen"), t portable thing,
#   h furniture, v vehicle, V own vehicle, b public transport, r readable, w writable, o openable, E can be
#   empty or full, f food, s sweet, C cookable, d drink, x have-able abstract, q problem/question, u likeable
#   abstract, W weather, l place; places: P play, S sleep, J work, H live, A wait, D drive to, G "is there
#   a … here", y visit, I "the key is in …", B container for things.
_HAND_NOUNS = """
friend/friends Freund/Freunde m pk; teacher/teachers Lehrer/Lehrer m pe; doctor/doctors Arzt/Ärzte m pe
child/children Kind/Kinder n pkc; man/men Mann/Männer m pe; woman/women Frau/Frauen f pe
boy/boys Junge~Jungen/Jungen m pc; girl/girls Mädchen/Mädchen n pc; brother/brothers Bruder/Brüder m pkK
sister/sisters Schwester/Schwestern f pkK; son/sons Sohn/Söhne m pkK; daughter/daughters Tochter/Töchter f pkK
student/students Student~Studenten/Studenten m pe; mother/mothers Mutter/Mütter f peKO
father/fathers Vater/Väter m peKO; baby/babies Baby/Babys n pkcO; waiter/waiters Kellner/Kellner m pe
dog/dogs Hund/Hunde m a; cat/cats Katze/Katzen f a; horse/horses Pferd/Pferde n aZ; bird/birds Vogel/Vögel m a
fish/fish Fisch/Fische m aZ; cow/cows Kuh/Kühe f aZ; mouse/mice Maus/Mäuse f a
rabbit/rabbits Kaninchen/Kaninchen n a; key/keys Schlüssel/Schlüssel m t; book/books Buch/Bücher n tr
phone/phones Telefon/Telefone n t; bag/bags Tasche/Taschen f tBE in.in.-
umbrella/umbrellas Regenschirm/Regenschirme m t; pen/pens Stift/Stifte m t
ticket/tickets Fahrkarte/Fahrkarten f t; letter/letters Brief/Briefe m trw
newspaper/newspapers Zeitung/Zeitungen f tr; map/maps Karte/Karten f t; watch/watches Uhr/Uhren f t
glass/glasses Glas/Gläser n tE; cup/cups Tasse/Tassen f tE; bottle/bottles Flasche/Flaschen f toE
ball/balls Ball/Bälle m t; computer/computers Computer/Computer m t; picture/pictures Bild/Bilder n t
shoe/shoes Schuh/Schuhe m t; coat/coats Mantel/Mäntel m t; hat/hats Hut/Hüte m t
dress/dresses Kleid/Kleider n t; shirt/shirts Hemd/Hemden n t; box/boxes Kiste/Kisten f toBE in.in.-
camera/cameras Kamera/Kameras f t; postcard/postcards Postkarte/Postkarten f tw; table/tables Tisch/Tische m h
chair/chairs Stuhl/Stühle m h; bed/beds Bett/Betten n h; lamp/lamps Lampe/Lampen f ht; door/doors Tür/Türen f ho
window/windows Fenster/Fenster n ho; car/cars Auto/Autos n vVB in.in.-; bike/bikes Fahrrad/Fahrräder n vV
bus/buses Bus/Busse m vbE; train/trains Zug/Züge m vbE; boat/boats Boot/Boote n vV
plane/planes Flugzeug/Flugzeuge n vb; taxi/taxis Taxi/Taxis n vb; apple/apples Apfel/Äpfel m fs
egg/eggs Ei/Eier n fC; orange/oranges Orange/Orangen f fs; banana/bananas Banane/Bananen f fs
cake/cakes Kuchen/Kuchen m fs; potato/potatoes Kartoffel/Kartoffeln f fC; tomato/tomatoes Tomate/Tomaten f f
pizza/pizzas Pizza/Pizzas f f; bread/- Brot/- n f; cheese/- Käse/- m f; soup/- Suppe/- f fC; rice/- Reis/- m fC
meat/- Fleisch/- n fC; fruit/- Obst/- n fs; chocolate/- Schokolade/- f fs; water/- Wasser/- n d
coffee/- Kaffee/- m d; tea/- Tee/- m d; milk/- Milch/- f d; beer/- Bier/- n d; wine/- Wein/- m d
juice/- Saft/- m ds; time/- Zeit/- f x; money/- Geld/- n x; weather/- Wetter/- n W; music/- Musik/- f u
problem/problems Problem/Probleme n q; question/questions Frage/Fragen f q
station/stations Bahnhof/Bahnhöfe m lAJDG at.an.zu; city/cities Stadt/Städte f lHDy in.in.in
school/schools Schule/Schulen f lPJAD at.in.zu; garden/gardens Garten/Gärten m lPSIJ in.in.in
park/parks Park/Parks m lPAG in.in.in; house/houses Haus/Häuser n lSIH in.in.zu
kitchen/kitchens Küche/Küchen f lIJ in.in.in; office/offices Büro/Büros n lIJ in.in.in
hotel/hotels Hotel/Hotels n lJAHDGyE at.in.zu; restaurant/restaurants Restaurant/Restaurants n lJGyE in.in.in
shop/shops Geschäft/Geschäfte n lJGy in.in.in; church/churches Kirche/Kirchen f lGy in.in.in
museum/museums Museum/Museen n lJGy in.in.in; bank/banks Bank/Banken f lG at.in.zu
beach/beaches Strand/Strände m lPD on.an.an; airport/airports Flughafen/Flughäfen m lAJDG at.an.zu
hospital/hospitals Krankenhaus/Krankenhäuser n lJGD in.in.in
library/libraries Bibliothek/Bibliotheken f lJGy in.in.in; cinema/cinemas Kino/Kinos n lGE at.in.in
room/rooms Zimmer/Zimmer n lSIPE in.in.in; supermarket/supermarkets Supermarkt/Supermärkte m lJG at.in.in
village/villages Dorf/Dörfer n lHDy in.in.in; street/streets Straße/Straßen f l
bridge/bridges Brücke/Brücken f l
"""
# Hand adjectives: "en de[/attributive stem, - = predicative only] noun-tags". "nice" is nett for people
# but schön for weather and places, so English words may repeat with different tags. "!" marks passing
# states, the only ones that go with "today"/"now" ("The soup is cold now", not "The dog is tall today").
_HAND_ADJS = """
tired müde pa!; hungry hungrig pa!; thirsty durstig pa!; happy glücklich pa!; sad traurig pa!; sick krank pa!
young jung pa; old alt patvhlr; tall groß p; friendly freundlich pa; nice nett p; lazy faul pa; clever klug pa
funny lustig pa; strong stark pa; rich reich p; poor arm p; busy beschäftigt p!; quiet ruhig pal!; angry wütend pa!
famous berühmt py; big groß atvhlB; small klein atvhlB; new neu tvhlr; expensive teuer/teur tvhfd
cheap billig tvhfd; heavy schwer B; clean sauber tvhlB!; dirty schmutzig tvhlBa!; beautiful schön tvhla
ugly hässlich tvhla; red rot tvh; blue blau tvh; green grün tvh; black schwarz tvha; white weiß tvha
empty leer E!; full voll E!; broken kaputt/- tvh!; open geöffnet/- y!; closed geschlossen/- y!; good gut fdWr
bad schlecht W!; cold kalt dCW!; warm warm dCW!; hot heiß dCW!; fresh frisch fd; delicious lecker f
sweet süß s; nice schön Wl!; modern modern vhl; long lang r; interesting interessant ry; boring langweilig ry
dark dunkel/dunkl l
"""
# Hand verbs: English base | -ing form (- = stative, simple present) | ich du er wir ihr sie | du-imperative
# (- = none) | object tags (- = intransitive) | German preposition of the object | place tags.
_HAND_VERBS = """
have|-|habe hast hat haben habt haben|-|katVqxr||
need|-|brauche brauchst braucht brauchen braucht brauchen|-|tVxdhr||
buy|buying|kaufe kaufst kauft kaufen kauft kaufen|kauf|tVfdrh||
look for|looking for|suche suchst sucht suchen sucht suchen|such|tVaplr||
see|-|sehe siehst sieht sehen seht sehen|-|tvaplhr||
like|-|mag magst mag mögen mögt mögen|-|apfdlu||
love|-|liebe liebst liebt lieben liebt lieben|-|kafdu||
drink|drinking|trinke trinkst trinkt trinken trinkt trinken|trink|d||
eat|eating|esse isst isst essen esst essen|iss|f||
read|reading|lese liest liest lesen lest lesen|lies|r||
write|writing|schreibe schreibst schreibt schreiben schreibt schreiben|schreib|w||
open|opening|öffne öffnest öffnet öffnen öffnet öffnen|öffne|o||
close|closing|schließe schließt schließt schließen schließt schließen|schließ|o||
visit|visiting|besuche besuchst besucht besuchen besucht besuchen|besuch|pky||
know|-|kenne kennst kennt kennen kennt kennen|-|pl||
wait for|waiting for|warte wartest wartet warten wartet warten|warte|pb|auf|
take|taking|nehme nimmst nimmt nehmen nehmt nehmen|nimm|bt||
cook|cooking|koche kochst kocht kochen kocht kochen|koch|C||
play|playing|spiele spielst spielt spielen spielt spielen|-|-||P
sleep|sleeping|schlafe schläfst schläft schlafen schlaft schlafen|-|-||S
work|-|arbeite arbeitest arbeitet arbeiten arbeitet arbeiten|-|-||J
live|-|wohne wohnst wohnt wohnen wohnt wohnen|-|-||H
wait|waiting|warte wartest wartet warten wartet warten|-|-||A
go|going|gehe gehst geht gehen geht gehen|-|-||
drive|driving|fahre fährst fährt fahren fahrt fahren|-|-||D
come|coming|komme kommst kommt kommen kommt kommen|-|-||
"""
# Modals: English (aux=True: inverts and negates itself, like "can"), German present forms.
_MODALS = [("want to", False, "will willst will wollen wollt wollen"),
           ("can", True, "kann kannst kann können könnt können"),
           ("would like to", True, "möchte möchtest möchte möchten möchtet möchten"),
           ("have to", False, "muss musst muss müssen müsst müssen")]
PRONOUNS = [("I", "ich", 0), ("you", "du", 1), ("he", "er", 2), ("she", "sie", 2), ("we", "wir", 3),
            ("they", "sie", 5)]
TIMES = [("today", "heute"), ("now", "jetzt"), ("tomorrow", "morgen"), ("tonight", "heute Abend")]
NUMBERS = [("two", "zwei"), ("three", "drei"), ("four", "vier"), ("five", "fünf")]
# Ding words never used. Nouns: function-like ("a lot", "kind of"), units of time ("Where is the week?"),
# or a wrong sense for the German that co-occurs (situation → Lage, form → Form, debt → Schuld). Adjectives:
# attributive only or idiomatic after "is" ("own", "sure", "cool", "great"). Verbs: odd alone ("hope").
_BLOCK_EN = set("""kind kinds lot lots sort sorts bit couple deal way course matter matters sake lack rest most
part half number plenty thing one end side front back top bottom piece case point fact means rate sense spite
term times use amount account male fine thousand hundred million try person form word debt middle situation
year day week night evening weekend afternoon morning moment winter summer month hour minute second century decade
own whole little worth particular following actual certain alike acquired fond missing sure proper recent definite
cool severe legal written great much financial economic alternative earlier
rain snow happen seem belong depend consist occur result exist appear apply refer need hope drop litter lead
swap""".split())


# Ding nouns seen "on the X" that still make no sense in "Where is the X?".
_ABSTRACT = set("law job task colour color promise target activity birthday scene metal".split())


@dataclass(frozen=True)
class Noun:
    en: str
    en_pl: str | None  # None: uncountable ("water", "time"), takes no indefinite article
    de: str
    de_pl: str | None
    g: str  # "m", "f" or "n"
    tags: str
    obl: str | None = None  # accusative/dative singular of a weak masculine ("Jungen")
    place: tuple[str, str, str] | None = None  # English "in/at/on", German locative and directional prep
    ding: bool = False


@dataclass(frozen=True)
class Adj:
    en: str
    de: str
    attr: str | None  # stem before endings ("teur"), None: predicative only
    tags: str


@dataclass(frozen=True)
class Verb:
    en: str
    ing: str | None
    de: tuple[str, ...]  # ich du er/sie wir ihr sie
    imp: str | None
    obj: str
    prep: str
    places: str

    @property
    def inf(self) -> str:
        return self.de[3]  # the wir form is the infinitive for every hand verb


def _parse_hand() -> tuple[list[Noun], list[Adj], list[Verb]]:
    nouns, adjs = [], []
    for entry in (e.split() for e in re.split(r";|\n", _HAND_NOUNS) if e.strip()):
        en, en_pl = entry[0].split("/")
        de, de_pl = entry[1].split("/")
        de, _, obl = de.partition("~")
        place = tuple(entry[4].split(".")) if len(entry) > 4 else None
        nouns.append(Noun(en, None if en_pl == "-" else en_pl, de, None if de_pl == "-" else de_pl,
                          entry[2], entry[3], obl or None, place))
    for en, de, tags in (e.split() for e in re.split(r";|\n", _HAND_ADJS) if e.strip()):
        de, _, attr = de.partition("/")
        adjs.append(Adj(en, de, None if attr == "-" else attr or de, tags))
    verbs = [Verb(en, None if ing == "-" else ing, tuple(de.split()), None if imp == "-" else imp,
                  "" if obj == "-" else obj, prep, places)
             for en, ing, de, imp, obj, prep, places in
             (line.split("|") for line in _HAND_VERBS.strip().splitlines())]
    return nouns, adjs, verbs


# --- Ding-derived lexicon -------------------------------------------------------------------------------
_EN_WORD = re.compile(r"[a-z]{3,}")
_NOUN = re.compile(r"([A-ZÄÖÜ][a-zäöüß]{2,}) \{([mfn])\}")
_PLURAL = re.compile(r"([A-ZÄÖÜ][a-zäöüß]{2,}) \{pl\}")
# After a headword: abbreviations, glosses and subject tags ([zool.]) are harmless; register and regional
# tags ([ugs.], [Ös.]) mark words a learner should not get as the plain translation.
_TAIL = re.compile(r"(?: /[^/]+/| \([^()]*\)| \[(?:[a-z]+\.)+\])+$")
_REGISTER = re.compile(r"\[(?:ugs|slang|vulg|pej|obs|veraltet|altertümlich|poet|geh|humor|iron|fig|übtr|selten|rare"
                       r"|Sprw|hist|Jargon|Kindersprache|childish|euphem)\.?\]")
_IRREGULAR = {"man": "men", "woman": "women", "child": "children", "foot": "feet", "tooth": "teeth",
              "mouse": "mice", "person": "people", "sheep": "sheep", "fish": "fish", "goose": "geese"}


def _en_alt(alt: str) -> str | None:
    """The alternative if it is one plain English word; spelling ([Br.]) and subject tags are fine."""
    if re.search(r"\[(?:coll|slang|dated|archaic|obs|pej|vulg|humor|fig|rare|poet|formal|childish|euphem)\.?\]", alt):
        return None
    s = re.sub(r" \[(?:Br\.|Am\.|(?:[a-z]+\.)+)\]", "", alt).strip()
    return s if _EN_WORD.fullmatch(s) else None


def _en_plural_ok(sg: str, pl: str) -> bool:
    regular = {sg + "s", sg + "es"} | ({sg[:-1] + "ies"} if sg[-1] == "y" and sg[-2] not in "aeiou" else set())
    return pl in regular or _IRREGULAR.get(sg) == pl


def _de_plural_ok(sg: str, pl: str) -> bool:
    """The plural looks like this word's plural: not a nominalised adjective (Gefangener/Gefangene) and not
    a different word (Atem/Atemzüge)."""
    plain = str.maketrans("äöü", "aou")
    return (pl.translate(plain).startswith(sg.translate(plain)[:max(2, len(sg) - 3)]) and len(pl) <= len(sg) + 3
            and pl != sg[:-1])


_BE_WORDS = set("is are was were be been am s re seems seemed looks became become becomes get gets got".split())
_DEGREE = set("very so too quite really not".split())
# Prepositions that place a physical thing: "in", "at", "from" also take "the world", "the plan".
_PREPS = set("on onto under behind near beside inside".split())
_DETS = set("the a an my your his her our their".split())
_THRESHOLDS = {"n": (3, 0.15), "a": (3, 0.15), "v": (2, 0.1)}  # min co-occurring sentences, share of uses


def _ding_lexicon(path: Path) -> tuple[list, list, list, set]:
    """Nouns, adjectives and intransitive verbs (en, de) aligned by co-occurrence in Ding's example
    sentence pairs, and those sentences normalised (they must never be generated)."""
    pairs, _ = read_ding(path)
    sents = [(p.en, p.de) for p in pairs if p.kind == SENTENCE]
    en_idx, de_idx = defaultdict(set), defaultdict(set)
    for i, (en, de) in enumerate(sents):
        for w in re.findall(r"[a-z]+", en.lower()):
            en_idx[w].add(i)
        for w in re.findall(r"[A-Za-zÄÖÜäöüß]+", de):
            de_idx[w].add(i)
    # English usage evidence from all of Ding (phrases too): "a/an X" (countable), "is (very) X"
    # (predicative), "on the X" (has a place, so "Where is the X?" makes sense).
    after_a, after_be, located = Counter(), Counter(), Counter()
    for p in pairs:
        toks = re.findall(r"[a-z]+", p.en.lower())
        for j, w in enumerate(toks):
            prev = toks[j - 1] if j else ""
            k = j - 1 - (prev in _DEGREE)
            after_a[w] += prev in ("a", "an", "one")
            after_be[w] += k >= 0 and toks[k] in _BE_WORDS
            located[w] += j >= 2 and prev in _DETS and toks[j - 2] in _PREPS
    best: dict[tuple[str, str], tuple[int, object]] = {}
    genders: dict[str, set[str]] = defaultdict(set)

    def consider(kind: str, en: str, en_forms, de_forms, item) -> None:
        e = set().union(*(en_idx.get(w, set()) for w in en_forms))
        c = len(e & set().union(*(de_idx.get(w, set()) for w in de_forms)))
        lo, share = _THRESHOLDS[kind]
        if en not in _BLOCK_EN and c >= lo and c >= share * len(e) and c > best.get((kind, en), (0,))[0]:
            best[(kind, en)] = (c, item)

    with Path(path).open(encoding="utf-8", errors="replace") as f:
        for raw in f:
            sides = raw.rstrip("\n").split(" :: ")
            if raw.startswith("#") or len(sides) != 2:
                continue
            de_subs, en_subs = (s.split(" | ") for s in sides)
            if len(de_subs) != len(en_subs):
                continue
            for alt in de_subs[0].split("; "):  # every gender a headword has anywhere: Band n/m/f, See m/f
                if m := re.match(r"([A-ZÄÖÜ][a-zäöüß]+) \{([mfn,]+)\}", alt.strip()):
                    genders[m[1]].update(m[2].split(","))
            de0 = de_subs[0].split("; ")[0].strip()
            de0 = "" if _REGISTER.search(de0) else _TAIL.sub("", de0)
            ens = [w for w in map(_en_alt, en_subs[0].split("; ")) if w]
            if (m := _NOUN.fullmatch(de0)) and len(de_subs) > 1:
                de, g = m.groups()
                pm = _PLURAL.fullmatch(_TAIL.sub("", de_subs[1].split("; ")[0].strip()))
                en_pls = [w for w in map(_en_alt, en_subs[1].split("; ")) if w]
                weak = g == "m" and (de.endswith("e") or (pm and pm[1] in (de + "n", de + "en")))
                if not pm or weak or not _de_plural_ok(de, pm[1]):
                    continue
                for en in ens:
                    pl = next((p for p in en_pls if _en_plural_ok(en, p)), None)
                    if pl and not en.startswith(("u", "eu")):  # "a unit" but "an uncle": leave them out
                        consider("n", en, (en, pl), (de, pm[1], de + "s", de + "es", pm[1] + "n"),
                                 Noun(en, pl, de, pm[1], g, "~t" if located[en] >= 2 and en not in _ABSTRACT else "~",
                                      ding=True))
            kind = "a" if de_subs[0].rstrip().endswith(" {adj}") else "v" if " {vi}" in de_subs[0] else ""
            head = re.sub(r" \{(?:adj|vi)\}.*$", "", de_subs[0].split("; ")[0]).strip()
            # Superlatives, comparatives and attributive-only forms ("äußerste", "innere") are listed with
            # their endings; they cannot stand after "ist".
            alts = {re.sub(r" \{adj\}.*$", "", a).strip() for a in de_subs[0].split("; ")}
            inflected = re.search(r"(?:ste|ere)[nrs]?$", head) or alts & {head + x for x in "rsn"}
            if kind == "a" and re.fullmatch(r"[a-zäöüß]{3,}", head) and not inflected:
                for en in (en for en in ens if after_be[en]):
                    consider("a", en, (en,), [head + s for s in ("", "e", "en", "er", "es", "em")],
                             Adj(en, head, None, ""))
            elif kind == "v" and re.fullmatch(r"[a-zäöüß]{3,}(?:en|ern|eln)", head):
                for alt in en_subs[0].split("; "):
                    if m := re.fullmatch(r"to ([a-z]{3,})", alt.strip()):
                        en = m[1]
                        consider("v", en, (en, en + "s", en + "ed", en + "ing", en[:-1] + "ing"), (head,),
                                 (en, head))
    picked = {k: [x for _, x in sorted((v for (kind, _), v in best.items() if kind == k), key=lambda cv: -cv[0])]
              for k in "nav"}
    # A noun needs one gender (homographs are ambiguous) and countable use in English ("a X", "Xs").
    nouns = [n for n in picked["n"] if len(genders[n.de]) == 1 and after_a[n.en] and n.en_pl in en_idx]
    seen = {_norm(s) for pair in sents for s in pair}
    return nouns[:1500], picked["a"][:200], picked["v"][:40], seen


# --- Grammar ---------------------------------------------------------------------------------------------
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
_BE, _SEIN = ("am", "are", "is", "are", "are", "are"), "bin bist ist sind seid sind".split()
_WISSEN = "weiß weißt weiß wissen wisst wissen".split()


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


def _contract(s: str) -> str:
    for pattern, repl in _CONTRACTIONS:
        s = re.sub(pattern, repl, s)
    return s


# --- Lexicon and templates ---------------------------------------------------------------------------------
@dataclass
class Lexicon:
    nouns: list[Noun]
    adjs: list[Adj]
    verbs: dict[str, Verb]
    ding_nouns: list[Noun]
    ding_adjs: list[Adj]
    ding_verbs: list[tuple[str, str]]
    ding_sentences: set[str]  # normalised English and German of every Ding example sentence

    def noun(self, r: random.Random, tags: str, ding: float = 0.0, count: bool = False,
             no: str = "") -> Noun | None:
        """A hand noun with one of ``tags`` and none of ``no`` (``count``: countable only), or with
        probability ``ding`` a Ding noun with one of the tags."""
        ding_fit = [n for n in self.ding_nouns if set(n.tags) & set(tags)] if r.random() < ding else []
        if ding_fit:
            return r.choice(ding_fit)
        fit = [n for n in self.nouns
               if set(n.tags) & set(tags) and not set(n.tags) & set(no) and (n.en_pl or not count)]
        return r.choice(fit) if fit else None

    def adj(self, r: random.Random, n: Noun, attr: bool = False) -> Adj | None:
        fits = [a for a in self.adjs if set(a.tags) & set(n.tags) and (a.attr or not attr)]
        return r.choice(fits) if fits else None


@lru_cache(maxsize=4)
def load_lexicon(ding_path: str | None) -> Lexicon:
    """Hand lexicon plus, unless ``ding_path`` is None, the Ding-derived extension (cached per path)."""
    nouns, adjs, verbs = _parse_hand()
    dn, da, dv, seen = _ding_lexicon(Path(ding_path)) if ding_path else ([], [], [], set())
    hand_en = {n.en for n in nouns} | {a.en for a in adjs} | {v.en for v in verbs}
    return Lexicon(nouns, adjs, {v.en: v for v in verbs}, [n for n in dn if n.en not in hand_en],
                   [a for a in da if a.en not in hand_en], [v for v in dv if v[0] not in hand_en], seen)


def _the(r: random.Random, n: Noun, share: float = 0.0) -> str:
    """"the", or my/your: always for family ("the mother" is odd), sometimes for what one owns."""
    own = "K" in n.tags or (not n.ding and set(n.tags) & set("katVhr") and r.random() < share)
    return r.choice(("mein", "dein")) if own else "def"


def _plural(r: random.Random, n: Noun, share: float) -> bool:
    # Places and one-of-a-kind people stay singular: "the airports", "my mothers" are odd in a phrasebook.
    return n.en_pl is not None and not set(n.tags) & set("lO") and r.random() < share


def _subject(r: random.Random, L: Lexicon, tags: str = "", num: bool = False,
             q: bool = False, no: str = "") -> tuple[str, str, int]:
    """A pronoun, or (with tags) sometimes "the dog"/"my children"/"two dogs": (English, German, person).
    Questions never ask about "I" ("Am I looking for a horse?")."""
    if not tags or r.random() < 0.4:
        return r.choice(PRONOUNS[1:] if q else PRONOUNS)
    n = L.noun(r, tags, count=True, no=no)
    k = 1.0 if "O" in n.tags else r.random()  # "my mother", never "my mothers" or "two mothers"
    en, de = np(n, num=r.choice(NUMBERS)) if num and k < 0.2 else np(n, _the(r, n), pl=k < 0.5)
    return en, de, 5 if k < 0.5 else 2


def _modal(r: random.Random, subj: str, q: bool, neg: bool) -> tuple[str, bool, str]:
    # "Would you like to …?" is an offer; "Would we like to …?", "You would like to …" and "I would not
    # like to …" are not how people talk.
    polite = (subj == "you") == q and not neg
    return r.choice([m for m in _MODALS if polite or not m[0].startswith("would")])


def _time(r: random.Random, dynamic: bool = True) -> tuple[str, str]:
    # Stative English verbs and "be" only go with today/now: "I need a key tomorrow" wants "will need".
    return r.choice(TIMES if dynamic else TIMES[:2])


def _where(r: random.Random, L: Lexicon) -> tuple[str, str]:
    """"Where is the station?", or embedded with the verb last: "Weißt du, wo der Bahnhof ist?" """
    n = L.noun(r, "pkatvhlrb", ding=0.5)
    pl = _plural(r, n, 0.3)
    en, de = np(n, _the(r, n, 0.3), pl=pl)
    (be, ist), k = (("are", "sind") if pl else ("is", "ist")), r.random()
    if k < 0.5:
        return f"Where {be} {en}?", f"Wo {ist} {de}?"
    q, neg = k < 0.75, k > 0.9
    s_en, s_de, p = _subject(r, L, q=q)
    know = en_vp(s_en, p, "know", None, neg, q)
    return (f"{know} where {en} {be}" + ".?"[q],
            de_v2(s_de, _WISSEN[p], [neg and "nicht"], q) + f", wo {de} {ist}" + ".?"[q])


def _this_is(r: random.Random, L: Lexicon, adj: bool) -> tuple[str, str] | None:
    n = L.noun(r, "pkatvhlrbfd~", ding=0 if adj else 0.5)
    a = L.adj(r, n, attr=True) if adj else None
    if adj and not a:
        return None
    pl = _plural(r, n, 0.25)
    en, de = np(n, r.choice(("ein", "ein", _the(r, n))), adj=a, pl=pl)
    this = r.choice(("These are", "Those are") if pl else ("This is", "That is"))
    return f"{this} {en}.", f"Das {'sind' if pl else 'ist'} {de}."


def _noun_is(r: random.Random, L: Lexicon, form: str) -> tuple[str, str] | None:
    """"The N is ADJ." and its variants; a time word only with adjectives for passing states ("!")."""
    n = r.choice(L.nouns)
    a = L.adj(r, n)
    if not a or (form in ("time", "front") and "!" not in a.tags):
        return None
    pl = _plural(r, n, 0.3)
    en, de = np(n, _the(r, n, 0.25), pl=pl)
    be, ist = ("are", "sind") if pl else ("is", "ist")
    t_en, t_de = _time(r, dynamic=False)
    return {"plain": (f"{en} {be} {a.en}.", f"{de} {ist} {a.de}."),
            "time": (f"{en} {be} {a.en} {t_en}.", f"{de} {ist} {t_de} {a.de}."),
            "front": (f"{t_en} {en} {be} {a.en}.", f"{t_de} {ist} {de} {a.de}."),
            "not": (f"{en} {be} not {a.en}.", f"{de} {ist} nicht {a.de}."),
            "q": (f"{be} {en} {a.en}?", f"{ist} {de} {a.de}?")}[form]


def _pron_adj(r: random.Random, L: Lexicon, neg: bool, q: bool) -> tuple[str, str]:
    s_en, s_de, p = _subject(r, L, q=q)
    a = r.choice([a for a in L.adjs if "p" in a.tags])
    very = r.random() < 0.3
    t = _time(r, dynamic=False) if "!" in a.tags and r.random() < 0.3 else ("", "")
    en = en_vp(s_en, p, "", f"{'very ' if very else ''}{a.en} {t[0]}".strip(), neg, q)
    return en + ("?" if q else "."), de_v2(s_de, _SEIN[p], [t[1], neg and "nicht", very and "sehr", a.de], q) + (
        "?" if q else ".")


def _weather(r: random.Random, L: Lexicon) -> tuple[str, str]:
    a_en, a_de = r.choice([("cold", "kalt"), ("warm", "warm"), ("hot", "heiß"), ("raining", "regnet"),
                           ("snowing", "schneit")])
    verb, q, front = a_en.endswith("ing"), r.random() < 0.25, r.random() < 0.2
    neg = not q and r.random() < 0.25
    t = _time(r, dynamic=False) if r.random() < 0.6 else ("", "")
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
    det = _the(r, n) if det == "def" else det
    a = L.adj(r, n, attr=True) if adj else None
    if adj and not a:
        return None
    # Places stay singular ("She is looking for the airports"), and people take no bare plural ("Please
    # visit girls") unless liked in general ("I like children").
    bare_ok = det != "ein" or "p" not in n.tags or (v.en in _NO_INDEF and "K" not in n.tags)
    pl = _plural(r, n, 1.0 if num or (det == "ein" and v.en in _NO_INDEF) else 0.2 if bare_ok else 0.0)
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
    s_en, s_de, p = _subject(r, L, ("pa" if v.en in ("drink", "eat") else "p") if noun_subj else "", q=q)
    if n.en in s_en.split() or (n.en_pl or "") in s_en.split():
        return None
    t = _time(r) if when else None
    obj = ([de_o, "nicht"] if det != "ein" else [de_o]) if neg else [de_o]
    if modal:
        m_en, aux, forms = _modal(r, s_en, q, en_neg)
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
    s_en, s_de, p = _subject(r, L, _SUBJECTS[v.en], num=not q, q=q, no="Z")
    t = _time(r, bool(v.ing)) if when and v.ing else None
    if when and not t:
        return None
    en_p, de_p = pp(r.choice(places), to)
    front = t[1] if t and when == "front" else ""
    en = f"{en_vp(s_en, p, v.en, v.ing, q=q)} {en_p}"
    en = f"{t[0]} {en}" if front else f"{en} {t[0]}" if t else en
    return en + ".?"[q], de_v2(s_de, v.de[p], [t[1] if t and not front else "", de_p], q, front) + ".?"[q]


def _modal_intrans(r: random.Random, L: Lexicon, neg: bool, q: bool) -> tuple[str, str]:
    """"I want to sleep." / "Can you come tomorrow?" / "We have to go to the station." """
    s_en, s_de, p = _subject(r, L, q=q)
    m_en, aux, forms = _modal(r, s_en, q, neg)
    dest = ("", "")
    if L.ding_verbs and r.random() < 0.4:
        v_en, inf = r.choice(L.ding_verbs)
    else:
        v = L.verbs[r.choice(("sleep", "work", "play", "wait", "go", "drive", "come"))]
        v_en, inf = v.en, v.inf
        if v.en in ("go", "drive", "come") and r.random() < 0.6:
            dest = pp(r.choice([n for n in L.nouns if n.place and n.place[2] != "-"
                                and (v.en != "drive" or "D" in n.tags)]), to=True)
    t = _time(r) if r.random() < 0.35 else ("", "")
    en = " ".join(w for w in (en_vp(s_en, p, f"{m_en} {v_en}", None, neg, q, aux), dest[0], t[0]) if w)
    return en + ".?"[q], de_v2(s_de, forms.split()[p], [t[1], neg and "nicht", dest[1], inf], q) + ".?"[q]


def _in_place(r: random.Random, L: Lexicon, form: str) -> tuple[str, str] | None:
    """"The key is in the kitchen." / "Is the dog in the garden?" / "The cat is not here." """
    place = r.choice([n for n in L.nouns if set("IB") & set(n.tags)])
    n = L.noun(r, "t" if "B" in place.tags else "tap", no="Z")
    if n is place:
        return None
    pl = _plural(r, n, 0.25)
    en, de = np(n, _the(r, n, 0.25), pl=pl)
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
_TRIES = 40  # misses in a row (duplicates, excluded, no fitting adjective) before a template counts as used up


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def _generate(n: int, seed: int, ding_path, exclude) -> list[tuple[str, str, str]]:
    """(template name, English, German) rows; see ``generate``."""
    if n < 0:
        raise UserError("need n >= 0")
    L = load_lexicon(str(ding_path) if ding_path else None)
    r = random.Random(seed)
    banned = L.ding_sentences | {_norm(s) for s in exclude or ()}
    seen: set[str] = set()
    out: list[tuple[str, str, str]] = []
    active = list(TEMPLATES)
    while len(out) < n and active:
        for name in list(active):
            for _ in range(_TRIES):
                pair = TEMPLATES[name][1](r, L)
                if pair is None:
                    continue
                en, de = _cap(pair[0]), _cap(pair[1])
                en = _contract(en) if r.random() < 0.3 else en
                key = _norm(en)
                # One German sentence per English one: two targets for the same source only blur training.
                if key not in seen and key not in banned and _norm(de) not in banned:
                    seen.add(key)
                    out.append((name, en, de))
                    break
            else:
                active.remove(name)
            if len(out) >= n:
                break
    r.shuffle(out)
    return out


def generate(n: int, seed: int = 1, ding_path=DING_PATH, exclude: set[str] | None = None) -> list[tuple[str, str]]:
    """``n`` distinct (English, German) pairs (fewer only if every template runs dry), deterministic in
    ``seed``. Nothing equal to a Ding example sentence or to ``exclude`` (English or German, compared after
    ``model.ding``'s normalisation) is produced. ``ding_path=None`` uses the hand lexicon only."""
    return [(en, de) for _, en, de in _generate(n, seed, ding_path, exclude)]


def write_augmented(out_dir, n: int, seed: int = 1, exclude: set[str] | None = None,
                    ding_path=DING_PATH) -> dict:
    """Write ``augment.en``/``augment.de`` (line-aligned, each atomically) and ``augment.json``; return stats."""
    out_dir = Path(out_dir)
    rows = _generate(n, seed, ding_path, exclude)
    L = load_lexicon(str(ding_path) if ding_path else None)
    stats = {"pairs": len(rows), "requested": n, "seed": seed, "ding_file": str(ding_path) if ding_path else None,
             "templates": dict(sorted(Counter(name for name, _, _ in rows).items())),
             "lexicon": {"hand_nouns": len(L.nouns), "hand_adjectives": len(L.adjs), "hand_verbs": len(L.verbs),
                         "ding_nouns": len(L.ding_nouns), "ding_adjectives": len(L.ding_adjs),
                         "ding_verbs": len(L.ding_verbs)}}
    out_dir.mkdir(parents=True, exist_ok=True)
    _write_atomic(out_dir / "augment.en", _lines(en for _, en, _ in rows))
    _write_atomic(out_dir / "augment.de", _lines(de for _, _, de in rows))
    _write_atomic(out_dir / "augment.json", (json.dumps(stats, indent=2, ensure_ascii=False) + "\n").encode())
    return stats


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``data augment``; the caller wires ``run`` as the handler."""
    parser.add_argument("--out", type=Path, required=True, help="folder for augment.{en,de}")
    parser.add_argument("--n", type=int, default=60000, help="number of sentence pairs")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ding", type=Path, default=DING_PATH, help=f"Ding file (default {DING_PATH})")
    parser.add_argument("--no-ding", action="store_true", help="hand-written lexicon only")
    parser.add_argument("--exclude-from", type=Path, action="append", default=[], metavar="DIR",
                        help="corpus folder whose valid/test sentences must not be generated (repeatable)")


def run(args: argparse.Namespace) -> int:
    """Handler of ``data augment``: 0 on success, 1 (with a message) on bad input."""
    exclude: set[str] = set()
    for folder in args.exclude_from:
        for name in ("valid.en", "test.en", "valid.de", "test.de"):
            if (folder / name).is_file():
                exclude.update((folder / name).read_text(encoding="utf-8").splitlines())
    try:
        stats = write_augmented(args.out, args.n, args.seed, exclude, None if args.no_ding else args.ding)
    except UserError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    lex = stats["lexicon"]
    print(f"wrote {stats['pairs']} pairs from {len(stats['templates'])} templates to {args.out} "
          f"(lexicon: {lex['hand_nouns']}+{lex['ding_nouns']} nouns, {lex['hand_adjectives']}+"
          f"{lex['ding_adjectives']} adjectives, {lex['hand_verbs']}+{lex['ding_verbs']} verbs)")
    return 0
