"""The Ding-derived extension of the hand lexicon (entries aligned by co-occurrence in Ding's example
sentences) and ``Lexicon``, the words the templates of ``model.corpus.augment`` draw from."""

from __future__ import annotations

import random
import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from model.corpus.augment_words import Adj, Noun, Verb, parse_hand
from model.corpus.ding import SENTENCE, fold, read_ding

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
    seen = {fold(s) for pair in sents for s in pair}
    return nouns[:1500], picked["a"][:200], picked["v"][:40], seen


# --- Lexicon ---------------------------------------------------------------------------------------------
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
    nouns, adjs, verbs = parse_hand()
    dn, da, dv, seen = _ding_lexicon(Path(ding_path)) if ding_path else ([], [], [], set())
    hand_en = {n.en for n in nouns} | {a.en for a in adjs} | {v.en for v in verbs}
    return Lexicon(nouns, adjs, {v.en: v for v in verbs}, [n for n in dn if n.en not in hand_en],
                   [a for a in da if a.en not in hand_en], [v for v in dv if v[0] not in hand_en], seen)
