"""``data ding|augment|tatoeba``: build a training corpus folder (see ``model.corpus``)."""

from __future__ import annotations

import argparse
from pathlib import Path

from model.cli.types import OneLineParser, positive_int, seed
from model.corpus.ding import DING_PATH, PHRASE, SENTENCE


def _count(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError("must be >= 0")
    return value


def add_data_commands(subparsers) -> None:
    """Register ``data ding --out DIR …`` on an argparse sub-parser collection."""
    data = subparsers.add_parser("data", help="prepare a training corpus")
    data.set_defaults(func=lambda args: (data.print_help(), 2)[1])
    sources = data.add_subparsers(dest="data_source", metavar="SOURCE", parser_class=_LazyParser)
    ding = sources.add_parser("ding", help="English–German pairs from the Ding dictionary (trans-de-en)")
    ding.add_argument("--out", type=Path, required=True, metavar="DIR", help="folder for train/valid/test.{en,de}")
    ding.add_argument("--ding", type=Path, default=DING_PATH, metavar="FILE", help=f"Ding file (default {DING_PATH})")
    ding.add_argument("--valid", type=_count, default=1000, metavar="N",
                      help="held-out validation sentences (default 1000)")
    ding.add_argument("--test", type=_count, default=1000, metavar="N", help="held-out test sentences (default 1000)")
    ding.add_argument("--seed", type=seed, default=1, metavar="N", help="which pairs are held out and the train order")
    ding.add_argument("--sentence-repeat", type=positive_int, default=1, metavar="K",
                      help="copies of each train sentence (default 1)")
    ding.add_argument("--max-phrases", type=_count, default=None, metavar="N",
                      help="keep at most N word/term pairs, drawn at random (default: all)")
    ding.add_argument("--everyday-phrases", action="store_true",
                      help="with --max-phrases: keep exclamations and phrases made of words the train "
                           "sentences use first, then sample the rest")
    ding.add_argument("--reverse", action="store_true", help="German→English instead of English→German")
    ding.add_argument("--augment", type=_count, default=0, metavar="N",
                      help="add N synthetic everyday pairs (model.corpus.augment) to train")
    _overwrite_option(ding)
    ding.set_defaults(func=_checked(_run_ding))
    sources.add_parser("augment", help="synthetic everyday English–German pairs from a grammar and lexicon",
                       setup=_augment_options)
    sources.add_parser("tatoeba", help="sentence pairs from Tatoeba (manythings.org/anki deu.txt, cmn.txt, …)",
                       setup=_tatoeba_options)


class _LazyParser(OneLineParser):
    """A sub-parser whose options are added when it first parses (``--help`` included), so that ``data ding``
    and every other command do not import ``model.corpus.augment`` just to build the command line."""

    def __init__(self, *args, setup=None, **kwargs):
        super().__init__(*args, **kwargs)
        self._setup = setup

    def parse_known_args(self, args=None, namespace=None):
        setup, self._setup = self._setup, None
        if setup:
            setup(self)
        return super().parse_known_args(args, namespace)


def _overwrite_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--overwrite", action="store_true",
                        help="write into an --out folder that already holds files (those of the same names "
                             "are replaced)")


def _checked(run):
    """``run`` once ``--out`` is known to be new or empty, or ``--overwrite`` was given: ``data tatoeba
    --out`` replaced a corpus's train.en that was there without a word."""
    def checked(args: argparse.Namespace) -> int:
        from model.files import check_new_folder  # noqa: PLC0415
        if not args.overwrite:
            check_new_folder(args.out, "--out", "--overwrite")
        return run(args)
    return checked


def _augment_options(parser: argparse.ArgumentParser) -> None:
    from model.corpus.augment import add_arguments, run  # noqa: PLC0415 (lazy, see _LazyParser)
    add_arguments(parser)
    _overwrite_option(parser)
    parser.set_defaults(func=_checked(run))


def _tatoeba_options(parser: argparse.ArgumentParser) -> None:
    from model.corpus.tatoeba import add_arguments, run  # noqa: PLC0415 (lazy, see _LazyParser)
    add_arguments(parser)
    _overwrite_option(parser)
    parser.set_defaults(func=_checked(run))


def _run_ding(args: argparse.Namespace) -> int:
    from model.corpus.ding_corpus import build_ding_corpus  # noqa: PLC0415 (lazy, see _LazyParser)
    # A UserError goes up to model.cli.main: one line and exit 2, as for every command.
    split = build_ding_corpus(args.out, args.ding, args.valid, args.test, args.seed,
                              args.sentence_repeat, args.max_phrases, args.reverse, args.augment,
                              args.everyday_phrases)
    s = split.stats
    print(f"Ding {s['source']}→{s['target']}: {s['pairs'][SENTENCE]} sentence and {s['pairs'][PHRASE]} "
          f"phrase pairs, {s['malformed_lines']} malformed lines")
    print(f"wrote {s['train']['lines']} train ({s['train'][SENTENCE]} sentences x{s['sentence_repeat']}, "
          f"{s['train'][PHRASE]} phrases, {s['augment']} synthetic), {s['valid']} valid, {s['test']} test → {args.out}")
    return 0
