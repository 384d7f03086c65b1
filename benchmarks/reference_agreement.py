"""``python -m benchmarks.reference_agreement``: how well two human translations of one sentence agree.

The built-in model is scored against a *single* German reference per held-out Ding sentence, and many of
those references are free, idiomatic renderings ("You’ve got me there." → "Da bin ich überfragt!"). How
high can BLEU on such a test set go? The dictionary answers that itself: for some English example
sentences it gives two or more German translations, all written by its editors and all correct. Scoring
one of them against another as if it were the reference measures how much two valid human translations
share in n-grams; a system that matches the references better than that is matching their wording, not
just their meaning.

Method: every Ding sentence pair as ``model.corpus.ding.read_ding`` keeps it (the same parser and filters as the
training corpus), grouped by the exact English text; each English sentence with at least two distinct
German translations contributes its second translation as the hypothesis and its first (in file order) as
the reference; sacrebleu's corpus BLEU and chrF (defaults, as the model card uses). The reverse order is
reported too, since BLEU is not symmetric. German→English, grouped by German, is given for comparison.

Caveat, said in the card as well: a sentence with two translations in a dictionary is often one that
*needs* a free translation, so this subset is harder than the average test sentence, and machine output
can score above a second human translation by staying close to the usual wording. The figure is a scale
for the test set, not a ceiling.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

import sacrebleu

from model.corpus.ding import DING_PATH, SENTENCE, DingPair, read_ding


def alternatives(pairs: list[DingPair], by: str) -> list[list[str]]:
    """Distinct translations per sentence, in file order, for sentences (``by`` = "en" or "de") with two or
    more; the groups are ordered by their sentence so the result does not depend on the file's order."""
    other = "de" if by == "en" else "en"
    groups: dict[str, list[str]] = defaultdict(list)
    for p in pairs:
        if p.kind != SENTENCE:
            continue
        key, text = getattr(p, by), getattr(p, other)
        if text not in groups[key]:
            groups[key].append(text)
    return [groups[k] for k in sorted(groups) if len(groups[k]) >= 2]


def agreement(groups: list[list[str]]) -> dict:
    """Corpus BLEU and chrF of each group's second translation against its first, and the reverse."""
    if not groups:
        return {"sentences": 0}
    first, second = [g[0] for g in groups], [g[1] for g in groups]
    return {
        "sentences": len(groups),
        "bleu": sacrebleu.corpus_bleu(second, [first]).score,
        "chrf": sacrebleu.corpus_chrf(second, [first]).score,
        "bleu_reversed": sacrebleu.corpus_bleu(first, [second]).score,
        "chrf_reversed": sacrebleu.corpus_chrf(first, [second]).score,
        "examples": [g[:2] for g in groups[:: max(1, len(groups) // 8)][:8]],
    }


def measure(path: Path = DING_PATH) -> dict:
    pairs, _ = read_ding(path)
    return {"ding_file": str(path), "date": time.strftime("%Y-%m-%d"), "sacrebleu": sacrebleu.__version__,
            "en_de": agreement(alternatives(pairs, "en")), "de_en": agreement(alternatives(pairs, "de"))}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.reference_agreement", description=__doc__.split("\n")[0])
    p.add_argument("--ding", type=Path, default=DING_PATH, help=f"Ding file (default {DING_PATH})")
    p.add_argument("--json", type=Path, help="write the figures here")
    a = p.parse_args(argv)
    res = measure(a.ding)
    for name, r in (("English→German", res["en_de"]), ("German→English", res["de_en"])):
        if r["sentences"]:
            print(f"{name}: {r['sentences']:,} sentences with two translations; one against the other: "
                  f"BLEU {r['bleu']:.2f} (reversed {r['bleu_reversed']:.2f}), chrF {r['chrf']:.2f} "
                  f"(reversed {r['chrf_reversed']:.2f})")
        else:
            print(f"{name}: no sentence has two translations")
    if a.json:
        a.json.write_text(json.dumps(res, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
