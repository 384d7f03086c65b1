"""Command line: train, translate, evaluate, info, data, average, import-marian, get-model, heads, align.

User errors end with one line on stderr and exit code 2 (1 for a failed training run); only bugs
produce a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from model.cli.align import add_align_command
from model.cli.data import add_data_commands
from model.cli.get_model import add_cli as add_get_model
from model.cli.heads import add_heads_commands
from model.cli.inputs import DEVICE_HELP, MODEL_HELP, load_model_arg
from model.cli.progress import fmt_time
from model.cli.train import add_train_command
from model.cli.translate_text import quoted, read_text_file, translate_texts
from model.cli.types import OneLineParser, at_least, count, length_penalty_alpha
from model.corpus.lines import split_lines
from model.errors import TrainingError, UserError
from model.marian.cli import add_cli as add_marian_cli


def _stdin_text() -> str:
    """stdin decoded as UTF-8 whatever the locale says, with the same errors as a corpus file."""
    from model.corpus.lines import decode_text
    data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read().encode("utf-8")
    return decode_text(data, "stdin", UserError)


def _stdin_lines() -> list[str]:
    return split_lines(_stdin_text())


def cmd_translate(a) -> int:
    from model.decoding.decode import translate
    from model.records.research import format_head
    per_sentence = a.sentences or a.json or bool(a.save_attention) or bool(a.remove_heads) or a.no_cache
    if a.remove_heads is not None and not a.remove_heads.replace(",", "").strip():
        raise UserError("--remove-heads names no head; e.g. --remove-heads enc:1.3,cross:4.2")
    if a.file and a.text:
        raise UserError("give either --file or sentences on the command line, not both")
    if a.out and not a.file and not a.text and sys.stdin.isatty():
        raise UserError("--out writes the translation of --file or stdin; give one of them")
    if a.file:
        texts = [read_text_file(a.file)]
    elif a.text:
        texts = a.text
    elif sys.stdin.isatty():
        texts = []
    else:
        texts = _stdin_lines() if per_sentence else [_stdin_text()]
    if per_sentence and a.file:
        texts = split_lines(texts[0])
    if not texts:
        raise UserError("give a sentence to translate")
    if not any(t.strip() for t in texts):
        raise UserError("type a sentence to translate: the text is empty")
    if a.out and per_sentence:
        raise UserError("--out writes text mode's translation; leave out --sentences, --json, --save-attention, "
                        "--remove-heads and --no-cache, or redirect stdout")
    if a.save_attention and len(texts) != 1:
        raise UserError("--save-attention takes exactly one sentence")
    from model.files import check_writable
    for option, path in (("--out", a.out), ("--save-attention", a.save_attention)):
        if path:
            check_writable(path, option, (("--file", a.file),))  # before the model loads and the work starts
    loaded = load_model_arg(a)
    if not per_sentence:
        return translate_texts(a, loaded, texts)
    masks = None
    if a.remove_heads:
        from model.decoding.ablation import head_masks, parse_heads
        cfg = loaded.config
        masks = head_masks(parse_heads(a.remove_heads, cfg.n_layers, cfg.n_heads), cfg.n_layers, cfg.n_heads,
                           loaded.device)
    for text in texts:
        t0 = time.perf_counter()
        tr = translate(loaded, text, beam_size=a.beam, capture_attention=a.json or bool(a.save_attention),
                       use_cache=not a.no_cache, head_masks=masks)
        ms = (time.perf_counter() - t0) * 1000
        if tr.unknown_pieces:
            print(f"warning: {tr.unknown_note()}", file=sys.stderr)
        if tr.flags:
            from model.paragraphs.translate_text import NOTES
            print(f"warning: {'; '.join(NOTES.get(f, f) for f in tr.flags)}: {quoted(text)}", file=sys.stderr)
        if a.save_attention:
            import numpy as np
            m = tr.attention
            np.savez_compressed(a.save_attention, encoder_self=m.encoder_self, decoder_self=m.decoder_self,
                                cross=m.cross, source_tokens=np.array(m.source_tokens),
                                target_tokens=np.array(m.target_tokens),
                                removed_heads=np.array([format_head(h) for h in m.removed], dtype=str))
        if a.json:
            m = tr.attention
            print(json.dumps({"source": tr.source, "translation": tr.text,
                              "source_tokens": list(m.source_tokens), "target_tokens": list(m.target_tokens),
                              "output_tokens": list(tr.target_pieces), "score": tr.score, "ms": round(ms, 1),
                              "unknown_pieces": tr.unknown_pieces,
                              "removed_heads": [format_head(h) for h in m.removed],
                              "shapes": {"encoder_self": list(m.encoder_self.shape),
                                         "decoder_self": list(m.decoder_self.shape),
                                         "cross": list(m.cross.shape)}}, ensure_ascii=False))
        else:
            print(tr.text)
    return 0


def cmd_evaluate(a) -> int:
    from model.card.scores import score
    from model.files import check_writable, write_atomic
    from model.training.data import read_parallel
    if a.hyp_out:
        check_writable(a.hyp_out, "--hyp-out", (("--src", a.src), ("--ref", a.ref)))  # before minutes of work
    corpus = read_parallel(Path(a.src), Path(a.ref))
    pairs = corpus.pairs[: a.limit] if a.limit else corpus.pairs
    loaded = load_model_arg(a)
    result, hyps = score(loaded, [s for s, _ in pairs], [t for _, t in pairs], a.beam, a.alpha,
                         progress=_Progress(len(pairs)) if len(pairs) >= 50 else None, tokenize=a.tokenize,
                         int8=a.int8)
    if a.hyp_out:
        write_atomic(a.hyp_out, "\n".join(hyps) + "\n")
    if a.json:
        print(json.dumps({k: v for k, v in vars(result).items() if k != "label"}))
    else:
        print(f"BLEU {result.bleu:.2f}  chrF {result.chrf:.2f}  ({result.sentences} sentences, beam {a.beam}, "
              f"BLEU tokenize {result.tokenize}{', int8 model' if a.int8 else ''})")
    return 0


class _Progress:
    """'translated 320/1000 sentences, 12 s left' on stderr, rewritten in place on a terminal."""

    def __init__(self, total: int, stream=sys.stderr) -> None:
        self.total, self.stream, self.t0 = total, stream, time.perf_counter()
        self.tty, self.decile = stream.isatty(), -1

    def __call__(self, done: int, total: int) -> None:
        elapsed = time.perf_counter() - self.t0
        left = elapsed / done * (total - done) if done else 0.0
        text = f"translated {done}/{total} sentences, {fmt_time(left)} left"
        if self.tty:
            self.stream.write("\r" + text + ("\n" if done >= total else ""))
        elif done * 10 // total != self.decile:
            self.stream.write(text + "\n")  # a log file gets about ten lines, not one per batch
        self.decile = done * 10 // total
        self.stream.flush()


def cmd_info(a) -> int:
    info = load_model_arg(a).info()
    rows = [("path", info.path), ("origin", info.origin), ("parameters", f"{info.n_params:,}"),
            ("vocabulary", info.vocab_size), ("device", info.device),
            ("licence", info.licence or "not stated (a model takes the terms of its training data)"),
            *info.config]
    for k, v in rows:
        print(f"{k:>14}: {v}")
    return 0


def cmd_average(a) -> int:
    from model.files import check_new_folder
    from model.training.average import average_into
    check_new_folder(a.out, "--out")  # it replaced a whole run named there
    if len({Path(p).resolve() for p in a.checkpoints}) < 2:
        raise UserError("give at least two different checkpoints to average (one is the model itself)")
    out = average_into([Path(p) for p in a.checkpoints], Path(a.out), half=a.half)
    print(f"averaged {len(a.checkpoints)} checkpoints into {out}")
    return 0


def version() -> str:
    """The installed package's version, else the one in pyproject.toml (a source checkout)."""
    from importlib import metadata
    try:
        return metadata.version("attention-explorer")
    except metadata.PackageNotFoundError:
        import re
        from importlib import resources
        pyproject = Path(str(resources.files("model"))).parent / "pyproject.toml"
        found = re.search(r'^version = "([^"]+)"', pyproject.read_text(encoding="utf-8"), re.M) \
            if pyproject.is_file() else None
        return found.group(1) if found else "unknown"


def build_parser() -> argparse.ArgumentParser:
    p = OneLineParser(prog="attention-explorer", description=__doc__.splitlines()[0])
    p.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    sub = p.add_subparsers(dest="command", required=True)

    add_train_command(sub)

    for name, func, hlp in (("translate", cmd_translate, "translate sentences"),
                            ("evaluate", cmd_evaluate, "BLEU and chrF on a test set (sacrebleu)"),
                            ("info", cmd_info, "describe a model folder")):
        s = sub.add_parser(name, help=hlp)
        s.add_argument("--model", metavar="DIR", help=MODEL_HELP)
        s.add_argument("--device", default="cpu", metavar="DEVICE", help=DEVICE_HELP)
        s.set_defaults(func=func)
        if name == "translate":
            s.add_argument("text", nargs="*",
                           help="texts to translate, each split into sentences (default: stdin, UTF-8)")
            s.add_argument("--file", metavar="IN.txt", help="translate a UTF-8 text file, paragraphs and all")
            s.add_argument("--out", metavar="OUT.txt", help="write the translation there (default: stdout)")
            s.add_argument("--sentences", action="store_true",
                           help="one sentence per argument or input line, unsplit (the mode of --json, "
                                "--save-attention and --remove-heads)")
            s.add_argument("--beam", type=at_least(1, 64), default=4, metavar="K",
                           help="beam size (default 4; 1 is greedy)")
            s.add_argument("--json", action="store_true",
                           help="one JSON object per sentence: translation, pieces, score, time, attention shapes")
            s.add_argument("--save-attention", metavar="FILE.npz",
                           help="save the attention maps and pieces of the one sentence given")
            s.add_argument("--no-cache", action="store_true", help="decode without the key/value cache")
            s.add_argument("--remove-heads", metavar="SPEC",
                           help="heads to remove (ablation), 1-based as the window shows them, e.g. "
                                "enc:1.3,cross:4.2 (kinds enc, dec, cross)")
        if name == "evaluate":
            s.add_argument("--src", required=True, metavar="FILE", help="test source sentences, one per line")
            s.add_argument("--ref", required=True, metavar="FILE", help="reference translations, aligned with --src")
            s.add_argument("--beam", type=at_least(1, 64), default=4, metavar="K",
                           help="beam size (default 4; 1 is greedy)")
            s.add_argument("--limit", type=count, default=0, metavar="N", help="score only the first N pairs (0: all)")
            s.add_argument("--alpha", type=length_penalty_alpha, default=0.6,
                           help="beam search length penalty (GNMT's α, 0-10; default 0.6)")
            s.add_argument("--json", action="store_true", help="print the scores as one JSON object")
            s.add_argument("--hyp-out", metavar="FILE", help="write the translations, one per line")
            s.add_argument("--tokenize", choices=("13a", "zh", "char", "intl", "none"), default=None,
                           help="sacrebleu's BLEU tokenizer (default: zh for Chinese references, 13a otherwise)")
            s.add_argument("--int8", action="store_true",
                           help="translate with every product in int8 (CPU): 2-3 times as fast, the scores "
                                "of the int8 model (a few sentences translate differently from fp32)")

    av = sub.add_parser("average", help="average the weights of several checkpoints (Vaswani et al. 6.1)")
    av.add_argument("checkpoints", nargs="+", help="checkpoint folders of one run, e.g. runs/mine/step-*")
    av.add_argument("--out", required=True, metavar="DIR", help="folder for the averaged model")
    av.add_argument("--half", action="store_true", help="store fp16 weights")
    av.set_defaults(func=cmd_average)
    add_data_commands(sub)
    add_marian_cli(sub)
    add_heads_commands(sub)
    add_align_command(sub)
    add_get_model(sub)
    return p


def _not_utf8(argv: list[str]) -> str | None:
    """The first argument that is not UTF-8 text (Python keeps its bytes as lone surrogates), or None."""
    for arg in argv:
        if any("\udc80" <= c <= "\udcff" for c in arg):
            return arg.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    return None


def main(argv: list[str] | None = None) -> int:
    bad = _not_utf8(sys.argv[1:] if argv is None else argv)
    if bad is not None:  # the tokenizer and the sentence splitter failed on it with a UnicodeEncodeError
        print(f"error: an argument is not UTF-8 text: {bad[:60]!r}; pass text files with --file", file=sys.stderr)
        return 2
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except UserError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except TrainingError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `… | head` closed the pipe: not an error worth a traceback
        import os
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except UnicodeEncodeError as exc:  # stdout in ASCII (PYTHONIOENCODING=ascii, LC_ALL=C without UTF-8 mode)
        print(f"error: this terminal's encoding ({exc.encoding}) cannot show the text; set "
              "PYTHONIOENCODING=utf-8, or write to a file with --out", file=sys.stderr)
        return 2
    except OSError as exc:  # the system refused a file (name too long, disk full, no permission): one line
        where = f": {exc.filename}" if exc.filename else ""
        print(f"error: {exc.strerror or exc}{where}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
