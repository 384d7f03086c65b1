"""Build a corpus from Tatoeba sentence pairs (manythings.org/anki ``deu.txt``, ``cmn.txt``, …).

Input: one pair per line, ``English<TAB>Other`` (the 2018 file) or ``English<TAB>Other<TAB>attribution``
(newer downloads); plain ``.tsv``/``.txt`` or ``.xz``-compressed. Output: ``{train,valid,test}.{src,tgt}``
named by language (``train.en`` / ``train.de``, ``train.en`` / ``train.zh``) and ``stats.json`` in one folder,
the same shape as the Ding builder's. The target language is ``--tgt-lang`` or, without it, told by the file
(``model.languages.detect_target``): Chinese by its script, others by the Anki file's name.

Decisions, and why:

* Cleaning is the tokenizer's own (Unicode NFC, no control characters, single spaces), so training text
  and what the window feeds the model at run time look alike.
* Pairs with an empty side, a side over ``MAX_CHARS`` or identical sides (untranslated names, "Tom!") are
  dropped and counted; a line with the wrong number of columns or bytes that are not UTF-8 stops the build
  with its line number: such a file is not the format we think it is, and guessing would misalign pairs.
* Held-out pairs share *neither* side with train: Tatoeba lists many alternative translations of one
  sentence, so holding out by English alone lets the German reach train from another English wording
  (measured: 29.8 vs 21.0 BLEU on one checkpoint). Sides are compared normalised (case, punctuation and
  spacing ignored), so "Tom left." in valid also keeps "Tom left!" out of train.
* ``ding_sentences`` mixes in the Ding dictionary's example sentences (its own 1,000 + 1,000 held-out
  sentences, split as ``data ding`` splits them, never enter train), so the model keeps the dictionary's
  vocabulary and the two models can be compared on the same Ding test.
* ``names`` / ``numbers`` add train pairs with Tom, Mary or John, or the digits, replaced by others on both
  sides (``model.corpus.entities``), so the model copies names and numbers it has not seen. They are made
  from train pairs only and pass the same held-out filter, so no held-out sentence can reach train this way.
"""

from __future__ import annotations

import hashlib
import json
import lzma
import random
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from model.cli.types import seed as seed_type
from model.corpus.ding import DING_PATH, read_ding
from model.corpus.ding_corpus import split_ding
from model.corpus.entities import entity_pairs
from model.corpus.lines import aligned_lines
from model.errors import CorpusError, UserError
from model.files import write_atomic
from model.languages import detect_target, language_name
from model.tokenizer import clean_text

MAX_CHARS = 300
LICENSE = ("Tatoeba sentences: CC BY 2.0 (France); attribution: tatoeba.org and www.manythings.org/anki")
_PUNCT = re.compile(r"[^\w\s]")


def norm(s: str) -> str:
    """The key two sides are compared by: NFC, case-folded, punctuation dropped, single spaces."""
    s = unicodedata.normalize("NFC", s).casefold()
    return " ".join(_PUNCT.sub(" ", s).split()) or " ".join(s.split())


@dataclass(frozen=True)
class TatoebaSplit:
    train: list[tuple[str, str]]  # (English, target language)
    valid: list[tuple[str, str]]
    test: list[tuple[str, str]]
    stats: dict


def _read_bytes(path: Path) -> bytes:
    if not path.exists():
        raise CorpusError(f"Tatoeba file not found: {path} (download deu-eng.zip from "
                          "www.manythings.org/anki and unzip deu.txt)")
    if path.is_dir():
        raise CorpusError(f"{path} is a folder; give the deu.txt / .tsv / .xz file inside it")
    try:
        data = path.read_bytes()
        return lzma.decompress(data) if path.suffix == ".xz" or data[:6] == b"\xfd7zXZ\x00" else data
    except lzma.LZMAError as e:
        raise CorpusError(f"{path} is not a valid .xz file: {e}") from None
    except OSError as e:
        raise CorpusError(f"cannot read {path}: {e.strerror or e}") from None


def read_tatoeba(path: Path | str) -> tuple[list[tuple[str, str]], dict]:
    """Cleaned, de-duplicated (English, other language) pairs in file order, and counts of what was dropped."""
    path = Path(path)
    data = _read_bytes(path)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise CorpusError(f"{path} line {line}: not UTF-8 text (convert it with iconv -t UTF-8)") from None
    pairs: list[tuple[str, str]] = []
    seen: set[tuple[str, str]] = set()
    dropped = {"blank": 0, "empty_side": 0, "too_long": 0, "identical_sides": 0, "duplicate": 0}
    columns: set[int] = set()
    rows = text.split("\n")  # not splitlines(): U+2028 or U+0085 inside a sentence must not split it
    if rows and not rows[-1]:
        rows.pop()  # the file's final newline ends the last line; it does not start an empty one
    n = 0
    for n, line in enumerate(rows, start=1):
        line = line.rstrip("\r")
        if not line.strip():
            dropped["blank"] += 1
            continue
        cols = line.split("\t")
        if len(cols) not in (2, 3):
            raise CorpusError(f"{path} line {n}: expected 2 or 3 tab-separated columns "
                              f"(English, translation[, attribution]), found {len(cols)}")
        columns.add(len(cols))
        en, de = clean_text(cols[0]), clean_text(cols[1])
        if not en or not de:
            dropped["empty_side"] += 1
        elif len(en) > MAX_CHARS or len(de) > MAX_CHARS:
            dropped["too_long"] += 1
        elif norm(en) == norm(de):
            dropped["identical_sides"] += 1
        elif (en, de) in seen:
            dropped["duplicate"] += 1
        else:
            seen.add((en, de))
            pairs.append((en, de))
    if not pairs:
        raise CorpusError(f"{path} holds no usable sentence pairs")
    return pairs, {"lines": n, "columns": sorted(columns), "pairs": len(pairs), "dropped": dropped}


def split_heldout(pairs: list[tuple[str, str]], n_valid: int, n_test: int, seed: int,
                  exclude: frozenset[str] = frozenset()) -> tuple[list, list, set[str], set[str]]:
    """Choose valid and test pairs whose sides are unique among themselves and not in ``exclude``.

    Returns (valid, test, held English keys, held German keys). The choice depends on the set of pairs and
    the seed only, not on the file's order.
    """
    order = sorted(set(pairs))
    random.Random(seed).shuffle(order)
    valid: list[tuple[str, str]] = []
    test: list[tuple[str, str]] = []
    held_en: set[str] = set()
    held_de: set[str] = set()
    for en, de in order:
        if len(valid) >= n_valid and len(test) >= n_test:
            break
        ke, kd = norm(en), norm(de)
        if ke in held_en or kd in held_de or ke in exclude or kd in exclude:
            continue
        (valid if len(valid) < n_valid else test).append((en, de))
        held_en.add(ke)
        held_de.add(kd)
    if len(valid) < n_valid or len(test) < n_test:
        raise CorpusError(f"only {len(valid) + len(test)} distinct pairs could be held out; "
                          f"asked for {n_valid} valid + {n_test} test")
    return valid, test, held_en, held_de


def _ding_part(ding_path: Path, seed: int, repeat: int, max_phrases: int,
               heldout: tuple[int, int]) -> tuple[list, set[str], dict]:
    """Ding train sentences (×repeat) and phrases, plus the keys of Ding's own held-out sentences."""
    ding_pairs, _ = read_ding(ding_path)
    split = split_ding(ding_pairs, *heldout, seed=seed, sentence_repeat=1, max_phrases=max_phrases)
    held = {norm(s) for rows in (split.valid, split.test) for pair in rows for s in pair}
    phrases = split.stats["train"]["phrase"]
    # split.train is sentences + phrases shuffled; tell them apart by the Ding sentence set.
    sent_set = {(p.en, p.de) for p in ding_pairs if p.kind == "sentence"}
    sentences = [p for p in split.train if p in sent_set]
    rest = [p for p in split.train if p not in sent_set]
    info = {"file": str(ding_path), "seed": seed, "held_out": list(heldout), "sentences": len(sentences),
            "sentence_repeat": repeat,
            "phrases": phrases, "license": "Ding data: GPL-2.0-or-later",
            "sha256": hashlib.sha256(Path(ding_path).read_bytes()).hexdigest()}
    return sentences * repeat + rest, held, info


def build_tatoeba_corpus(out_dir: Path | str, tsv: Path | str, n_valid: int = 1000, n_test: int = 1000,
                         seed: int = 1, ding_sentences: int = 0, ding_phrases: int = 0,
                         ding_path: Path | str | None = None, ding_seed: int = 1,
                         ding_heldout: tuple[int, int] = (1000, 1000), names: int = 0,
                         numbers: int = 0, src_lang: str = "en", tgt_lang: str | None = None) -> TatoebaSplit:
    """Read, clean, hold out, optionally mix in Ding, write the folder; return the split.

    ``ding_seed`` and ``ding_heldout`` must match the ``data ding`` defaults (seed 1, 1,000 + 1,000) for the
    Ding test of the model card to stay unseen.
    """
    if min(n_valid, n_test, ding_sentences, ding_phrases, names, numbers) < 0:
        raise UserError("--valid, --test, --ding-sentences, --ding-phrases, --names and --numbers must be >= 0")
    tsv, out_dir = Path(tsv), Path(out_dir)
    pairs, read_stats = read_tatoeba(tsv)
    tgt_lang = tgt_lang or detect_target(tsv, [t for _, t in pairs[:2000]])
    language_name(src_lang), language_name(tgt_lang)  # an unknown code is refused here, in one line
    if src_lang == tgt_lang:
        raise UserError(f"--src-lang and --tgt-lang are both {src_lang!r}")
    if tgt_lang != "de" and (ding_sentences or ding_phrases or names or numbers):
        # The Ding dictionary is German, and the name and number lists substitute English and German words.
        raise UserError("--ding-sentences, --ding-phrases, --names and --numbers are for English→German only "
                        f"(this file's target is {language_name(tgt_lang)})")
    extra: list[tuple[str, str]] = []
    ding_held: set[str] = set()
    ding_info = None
    if ding_sentences or ding_phrases:
        extra, ding_held, ding_info = _ding_part(Path(ding_path or DING_PATH), ding_seed,
                                                 ding_sentences, ding_phrases, ding_heldout)
    valid, test, held_en, held_de = split_heldout(pairs, n_valid, n_test, seed, frozenset(ding_held))
    blocked = held_en | held_de | ding_held

    def clear(pair: tuple[str, str]) -> bool:
        return norm(pair[0]) not in blocked and norm(pair[1]) not in blocked

    held = set(valid) | set(test)
    train_t = [p for p in pairs if p not in held and clear(p)]
    train_d = [p for p in extra if clear(p)]
    entities, entity_stats = entity_pairs(train_t, names, numbers, seed) if names or numbers else ([], None)
    train_e = [p for p in entities if clear(p)]
    train = train_t + train_d + train_e
    random.Random(seed).shuffle(train)
    stats = {
        "source": src_lang, "target": tgt_lang, "seed": seed, "tatoeba_file": str(tsv),
        "tatoeba_sha256": hashlib.sha256(tsv.read_bytes()).hexdigest(), **read_stats,
        "train": {"tatoeba": len(train_t), "ding": len(train_d), "entities": len(train_e), "lines": len(train)},
        "valid": len(valid), "test": len(test),
        "dropped_overlapping_held_out": len(pairs) - len(held) - len(train_t) + len(extra) - len(train_d),
        "license": LICENSE + ("; Ding data: GPL-2.0-or-later" if ding_info else ""),
        **({"ding": ding_info} if ding_info else {}),
        **({"entities": {**entity_stats, "kept": len(train_e)}} if entity_stats else {}),
    }
    out_dir.mkdir(parents=True, exist_ok=True)
    for name, rows in (("train", train), ("valid", valid), ("test", test)):
        write_atomic(out_dir / f"{name}.{src_lang}", aligned_lines(en for en, _ in rows))
        write_atomic(out_dir / f"{name}.{tgt_lang}", aligned_lines(de for _, de in rows))
    write_atomic(out_dir / "stats.json", json.dumps(stats, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
    return TatoebaSplit(train, valid, test, stats)


def _count(text: str) -> int:
    value = int(text)
    if value < 0:
        raise ValueError(text)
    return value


def add_arguments(parser) -> None:
    """Options of ``data tatoeba`` (registered lazily by the ``data`` command)."""
    parser.add_argument("--tsv", type=Path, required=True, metavar="FILE",
                        help="manythings.org/anki deu.txt, cmn.txt, …: English<TAB>translation[<TAB>attribution]; "
                             ".tsv, .txt or .xz")
    parser.add_argument("--out", type=Path, required=True, metavar="DIR",
                        help="folder for train/valid/test.{SRC,TGT} (e.g. train.en, train.zh) and stats.json")
    parser.add_argument("--src-lang", default="en", metavar="CODE",
                        help="language of the first column, an ISO 639-1 code (default en)")
    parser.add_argument("--tgt-lang", default=None, metavar="CODE",
                        help="language of the second column (de, zh, fr, …); default: told by the file "
                             "(Chinese by its script, others by the Anki file name deu/cmn/fra/…)")
    parser.add_argument("--valid", type=_count, default=1000, metavar="N",
                        help="held-out validation pairs (default 1000)")
    parser.add_argument("--test", type=_count, default=1000, metavar="N", help="held-out test pairs (default 1000)")
    parser.add_argument("--seed", type=seed_type, default=1, metavar="N",
                        help="which pairs are held out and the train order")
    parser.add_argument("--ding-sentences", type=_count, default=0, metavar="K",
                        help="mix in K copies of each Ding dictionary example sentence (its held-out "
                             "sentences stay out of train); 0 = Tatoeba only")
    parser.add_argument("--ding-phrases", type=_count, default=0, metavar="N",
                        help="also mix in N random Ding word/term pairs")
    parser.add_argument("--ding", type=Path, default=None, metavar="FILE",
                        help="Ding file for the mix (default /usr/share/trans/de-en)")
    parser.add_argument("--names", type=_count, default=0, metavar="N",
                        help="add N train pairs with Tom/Mary/John replaced by other names on both sides")
    parser.add_argument("--numbers", type=_count, default=0, metavar="N",
                        help="add N train pairs with their numbers replaced by other numbers on both sides")
    parser.set_defaults(func=run)


def run(args) -> int:
    split = build_tatoeba_corpus(args.out, args.tsv, args.valid, args.test, args.seed,
                                 args.ding_sentences, args.ding_phrases, args.ding, names=args.names,
                                 numbers=args.numbers, src_lang=args.src_lang, tgt_lang=args.tgt_lang)
    s = split.stats
    d = s["dropped"]
    print(f"Tatoeba {language_name(s['source'])}→{language_name(s['target'])}: {s['pairs']} pairs from "
          f"{s['lines']} lines ({d['empty_side']} with an empty side, "
          f"{d['too_long']} over {MAX_CHARS} characters, {d['identical_sides']} identical sides, "
          f"{d['duplicate']} duplicates dropped)")
    print(f"wrote {s['train']['lines']} train ({s['train']['tatoeba']} Tatoeba, {s['train']['ding']} Ding, "
          f"{s['train']['entities']} with names or numbers replaced), "
          f"{s['valid']} valid, {s['test']} test; {s['dropped_overlapping_held_out']} pairs left train because "
          f"a side is held out → {args.out}")
    return 0
