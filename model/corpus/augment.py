"""Synthetic everyday English→German sentence pairs, built from a small grammar and the Ding lexicon.

Ding has ~19k idiomatic example sentences but hardly any "Where is the station?"; the model needs those
to generalise compositionally (article by gender and case, verb conjugation, verb-second word order).
Every German sentence must be correct, so the design is conservative:

* A hand lexicon (below) is the authority: genders, plurals, weak nouns, adjective stems, full present
  paradigms. Nouns carry semantic tags so that templates only pair words that make sense together
  (drink + d, play + a playground place, "tired" + people/animals).
* Ding extends it by co-occurrence: an (English, German) entry is kept when both words occur in the same
  Ding example sentence pairs often enough, plus evidence of use ("a X" and "Xs" for a countable noun,
  "is X" for a predicative adjective). Such nouns (one word, one gender in all of Ding, a plural, no
  register tag) only go into "This is a N." and, if seen "on/under the N", "Where is the N?"; never with
  adjectives or in the accusative. Adjectives only go into "That is ADJ." (predicative, uninflected);
  intransitive verbs only as a bare infinitive after a modal ("I want to travel." → "Ich will reisen."),
  so no conjugation is guessed.
* Masculine nouns that might be weak (den Jungen, den Studenten) are left out of Ding's part: their
  accusative cannot be derived safely. Hand nouns spell out the oblique form (``Junge~Jungen``).
* English "you" is always "du" (singular, informal) and "they" is "sie" (plural): one consistent target
  per source sentence is easier to learn than a mix of du/Sie/ihr.
* English dynamic verbs use the progressive ("We are buying …"), stative ones the simple present
  ("I need …"); both are the German present. Contractions (I'm, don't, isn't) appear at random.
* German places use a fixed preposition per noun (am Bahnhof / zum Bahnhof, im Park / in den Park),
  written by hand, because the choice is idiomatic rather than grammatical.
* Nothing equal to a Ding example sentence (either side) is generated, so no held-out split can leak.
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from pathlib import Path

from model.corpus.augment_grammar import a_an as a_an  # re-exported: model.corpus.augment stays the one entry point
from model.corpus.augment_grammar import contract
from model.corpus.augment_grammar import np as np  # re-exported, as a_an
from model.corpus.augment_grammar import pp as pp  # re-exported, as a_an
from model.corpus.augment_lexicon import load_lexicon
from model.corpus.augment_templates import TEMPLATES
from model.corpus.ding import DING_PATH, fold
from model.corpus.lines import aligned_lines
from model.errors import UserError
from model.files import write_atomic

_TRIES = 40  # misses in a row (duplicates, excluded, no fitting adjective) before a template counts as used up


def sentence_case(s: str) -> str:
    """Upper-case the first letter only (str.capitalize would lower "I" and the German nouns)."""
    return s[:1].upper() + s[1:]


def generate_rows(n: int, seed: int, ding_path, exclude) -> list[tuple[str, str, str]]:
    """(template name, English, German) rows; see ``generate``."""
    if n < 0:
        raise UserError("need n >= 0")
    L = load_lexicon(str(ding_path) if ding_path else None)
    r = random.Random(seed)
    banned = L.ding_sentences | {fold(s) for s in exclude or ()}
    seen: set[str] = set()
    out: list[tuple[str, str, str]] = []
    active = list(TEMPLATES)
    while len(out) < n and active:
        for name in list(active):
            for _ in range(_TRIES):
                pair = TEMPLATES[name][1](r, L)
                if pair is None:
                    continue
                en, de = sentence_case(pair[0]), sentence_case(pair[1])
                en = contract(en) if r.random() < 0.3 else en
                key = fold(en)
                # One German sentence per English one: two targets for the same source only blur training.
                if key not in seen and key not in banned and fold(de) not in banned:
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
    ``model.corpus.ding``'s normalisation) is produced. ``ding_path=None`` uses the hand lexicon only."""
    return [(en, de) for _, en, de in generate_rows(n, seed, ding_path, exclude)]


def write_augmented(out_dir, n: int, seed: int = 1, exclude: set[str] | None = None,
                    ding_path=DING_PATH) -> dict:
    """Write ``augment.en``/``augment.de`` (line-aligned, each atomically) and ``augment.json``; return stats."""
    out_dir = Path(out_dir)
    rows = generate_rows(n, seed, ding_path, exclude)
    L = load_lexicon(str(ding_path) if ding_path else None)
    stats = {"pairs": len(rows), "requested": n, "seed": seed, "ding_file": str(ding_path) if ding_path else None,
             "templates": dict(sorted(Counter(name for name, _, _ in rows).items())),
             "lexicon": {"hand_nouns": len(L.nouns), "hand_adjectives": len(L.adjs), "hand_verbs": len(L.verbs),
                         "ding_nouns": len(L.ding_nouns), "ding_adjectives": len(L.ding_adjs),
                         "ding_verbs": len(L.ding_verbs)}}
    out_dir.mkdir(parents=True, exist_ok=True)
    write_atomic(out_dir / "augment.en", aligned_lines(en for _, en, _ in rows))
    write_atomic(out_dir / "augment.de", aligned_lines(de for _, _, de in rows))
    write_atomic(out_dir / "augment.json", (json.dumps(stats, indent=2, ensure_ascii=False) + "\n").encode())
    return stats


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of ``data augment``; the caller wires ``run`` as the handler."""
    parser.add_argument("--out", type=Path, required=True, metavar="DIR", help="folder for augment.{en,de}")
    parser.add_argument("--n", type=int, default=60000, metavar="N", help="number of sentence pairs (default 60000)")
    parser.add_argument("--seed", type=int, default=1, metavar="N", help="which templates and words are drawn")
    parser.add_argument("--ding", type=Path, default=DING_PATH, metavar="FILE", help=f"Ding file (default {DING_PATH})")
    parser.add_argument("--no-ding", action="store_true", help="hand-written lexicon only")
    parser.add_argument("--exclude-from", type=Path, action="append", default=[], metavar="DIR",
                        help="corpus folder whose valid/test sentences must not be generated (repeatable)")


def run(args: argparse.Namespace) -> int:
    """Handler of ``data augment``: 0 on success; bad input raises UserError (exit 2 in model.cli)."""
    exclude: set[str] = set()
    for folder in args.exclude_from:
        for name in ("valid.en", "test.en", "valid.de", "test.de"):
            if (folder / name).is_file():
                exclude.update((folder / name).read_text(encoding="utf-8").splitlines())
    # A UserError goes up to model.cli.main: one line and exit 2, as for every command.
    stats = write_augmented(args.out, args.n, args.seed, exclude, None if args.no_ding else args.ding)
    lex = stats["lexicon"]
    print(f"wrote {stats['pairs']} pairs from {len(stats['templates'])} templates to {args.out} "
          f"(lexicon: {lex['hand_nouns']}+{lex['ding_nouns']} nouns, {lex['hand_adjectives']}+"
          f"{lex['ding_adjectives']} adjectives, {lex['hand_verbs']}+{lex['ding_verbs']} verbs)")
    return 0
