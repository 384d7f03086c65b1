"""Hand-written word lists for ``model.corpus.augment``, the authority on genders, plurals and paradigms, and
their parsing into ``Noun``/``Adj``/``Verb`` records (see ``model.corpus.augment`` for the design)."""

from __future__ import annotations

import re
from dataclasses import dataclass

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
MODALS = [("want to", False, "will willst will wollen wollt wollen"),
           ("can", True, "kann kannst kann können könnt können"),
           ("would like to", True, "möchte möchtest möchte möchten möchtet möchten"),
           ("have to", False, "muss musst muss müssen müsst müssen")]
PRONOUNS = [("I", "ich", 0), ("you", "du", 1), ("he", "er", 2), ("she", "sie", 2), ("we", "wir", 3),
            ("they", "sie", 5)]
TIMES = [("today", "heute"), ("now", "jetzt"), ("tomorrow", "morgen"), ("tonight", "heute Abend")]
NUMBERS = [("two", "zwei"), ("three", "drei"), ("four", "vier"), ("five", "fünf")]


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


def parse_hand() -> tuple[list[Noun], list[Adj], list[Verb]]:
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
        # The attributive stem drops a final e: "müde" gives "eine müde Frau", "den müden Hund".
        adjs.append(Adj(en, de, None if attr == "-" else attr or de.removesuffix("e"), tags))
    verbs = [Verb(en, None if ing == "-" else ing, tuple(de.split()), None if imp == "-" else imp,
                  "" if obj == "-" else obj, prep, places)
             for en, ing, de, imp, obj, prep, places in
             (line.split("|") for line in _HAND_VERBS.strip().splitlines())]
    return nouns, adjs, verbs
