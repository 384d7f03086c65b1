"""Extra training pairs that teach the model to copy names and numbers instead of translating them.

Why: in the Tatoeba train set "Tom" is in 37k of 156k English sentences and most other names hardly occur
("Anna": 5 times), so the v6 model learned Tom and Mary as words, not "copy this name": "Anna speaks
French, German and a little Spanish." lost Anna. Numbers likewise: only 949 pairs hold a number of three or
more digits, and "My phone number is 555 1234." came out with "5554". Each added pair is an existing train
pair with its name, or its numbers, replaced by another one, the same on both sides, so the translation
stays exactly as right as the original (a standard data augmentation for named entities and numbers).

Rules, and why:

* A name is replaced only when it occurs as often on the German side as on the English side (German
  genitive "Toms" counts), so a pair where the German says "er" or leaves the name out is never half
  changed. Replacements keep the gender (Tom's pronouns stay right) and avoid names ending in s, x or z,
  whose German genitive takes an apostrophe instead of "s".
* Numbers are replaced only when both sides hold the same digit groups in the same order and no number has
  a separator inside ("1,000" is "1.000" in German, "9:30" is a time): then any digits are right on both
  sides. Some replacements are phone-number shaped ("555 1234") because that is where copying fails.
* Which pairs are copied, and with what, depends on the seed only.
"""

from __future__ import annotations

import random
import re

# Tatoeba's own names: English form, and the German forms its translators use for it.
SOURCE_NAMES = {"Tom": ("Tom",), "Mary": ("Maria", "Mary"), "John": ("John", "Johannes")}
MALE = ("Tom", "John")
# Spelled alike in English and German, not ending in s/x/z, not an ordinary word in either language.
MALE_NAMES = ("David", "Daniel", "Peter", "Paul", "Martin", "Michael", "Ben", "Jan", "Ali", "Omar", "Ahmed",
              "Ivan", "Ken", "Kenji", "Pedro", "Leon", "Noah", "Adam", "Oliver", "Erik", "Karl", "Stefan",
              "Sam", "Ryan", "Simon", "Jonathan", "Hassan", "Boris", "Igor", "Luca", "Mohammed", "Victor")
FEMALE_NAMES = ("Anna", "Emma", "Lisa", "Sarah", "Julia", "Laura", "Sophie", "Lena", "Mia", "Hannah", "Nina",
                "Eva", "Olga", "Yuki", "Aisha", "Fatima", "Elena", "Sara", "Clara", "Linda", "Jessica",
                "Emily", "Kate", "Helen", "Natalie", "Mei", "Amelie", "Sofia", "Leila", "Monika", "Ingrid")
_NUMBER = re.compile(r"\d+")
_SEPARATED = re.compile(r"\d[.,:/]\d")


def _pattern(forms: tuple[str, ...]) -> re.Pattern:
    # A name as a whole word; on the German side also its genitive ("Toms Hund"), which keeps the "s".
    return re.compile(r"\b(?:" + "|".join(forms) + r")(?=s?\b)")


_EN = {name: _pattern((name,)) for name in SOURCE_NAMES}
_DE = {name: _pattern(forms) for name, forms in SOURCE_NAMES.items()}


def name_slots(en: str, de: str) -> list[str]:
    """The source names in this pair that can be replaced on both sides (as many German as English)."""
    slots = []
    for name in SOURCE_NAMES:
        n = len(_EN[name].findall(en))
        if n and n == len(_DE[name].findall(de)):
            slots.append(name)
    return slots


def replace_names(en: str, de: str, rng: random.Random) -> tuple[str, str]:
    """The pair with each replaceable name swapped for a different name of the same gender."""
    taken = {*SOURCE_NAMES, *_words(en), *_words(de)}  # two names in one pair must stay two people
    for name in name_slots(en, de):
        pool = [n for n in (MALE_NAMES if name in MALE else FEMALE_NAMES) if n not in taken]
        new = rng.choice(pool)
        taken.add(new)
        en, de = _EN[name].sub(new, en), _DE[name].sub(new, de)
    return en, de


def numbers_match(en: str, de: str) -> bool:
    """Whether both sides hold the same digit groups in the same order, none with a separator inside."""
    groups = _NUMBER.findall(en)
    return bool(groups) and groups == _NUMBER.findall(de) and not _SEPARATED.search(en + " " + de)


def random_number(rng: random.Random) -> str:
    """A number as people write them in sentences: mostly short, some long, some phone-number shaped."""
    r = rng.random()
    if r < 0.15:  # "555 1234": two groups, copied with their space
        return f"{rng.randint(100, 999)} {rng.randint(1000, 9999)}"
    digits = rng.choice((1, 1, 2, 2, 3, 4, 4, 5, 6, 7))
    first = rng.randint(1, 9)  # no leading zero: "07" would be read differently
    return str(first) + "".join(str(rng.randint(0, 9)) for _ in range(digits - 1))


def replace_numbers(en: str, de: str, rng: random.Random) -> tuple[str, str]:
    """The pair with each digit group replaced, group by group, by the same new number on both sides."""
    new = [random_number(rng) for _ in _NUMBER.findall(en)]
    return _fill(en, new), _fill(de, new)


def _fill(text: str, numbers: list[str]) -> str:
    it = iter(numbers)
    return _NUMBER.sub(lambda _m: next(it), text)


def _words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text))


def entity_pairs(pairs: list[tuple[str, str]], n_names: int, n_numbers: int,
                 seed: int) -> tuple[list[tuple[str, str]], dict]:
    """``n_names`` pairs with replaced names and ``n_numbers`` with replaced numbers, drawn from ``pairs``.

    Returns the new pairs and counts for stats.json. Sources are drawn with replacement, so a corpus with
    few numbers still yields ``n_numbers`` different pairs (each draw gets its own new numbers).
    """
    rng = random.Random(f"entities-{seed}")
    named = [p for p in pairs if name_slots(*p)]
    numbered = [p for p in pairs if numbers_match(*p)]
    out: list[tuple[str, str]] = []
    if named:
        out += [replace_names(*rng.choice(named), rng) for _ in range(n_names)]
    if numbered:
        out += [replace_numbers(*rng.choice(numbered), rng) for _ in range(n_numbers)]
    stats = {"name_sources": len(named), "number_sources": len(numbered),
             "names": n_names if named else 0, "numbers": n_numbers if numbered else 0}
    return out, stats
