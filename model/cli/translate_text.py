"""``translate`` on text: paragraphs, files and stdin, every sentence translated and accounted for.

The sentence box of old took one sentence per argument or line; text people paste has several per line.
Here every argument, the stdin text or ``--file`` is split into sentences (``model.paragraphs``), decoded
in batches and put back in its lines and paragraphs. What went wrong with a sentence (a loop cut off, an
empty output, pieces the vocabulary lacks) is said on stderr with its line number; the output keeps one
line per input line, so ``wc -l`` agrees on both sides.
"""

from __future__ import annotations

import sys
from pathlib import Path

from model.errors import UserError


def read_text_file(path: str) -> str:
    from model.corpus.lines import read_text
    return read_text(Path(path).expanduser(), "input", UserError)


QUOTE_CHARS = 80  # of a flagged sentence, in its warning


def quoted(source: str) -> str:
    """The start of a flagged sentence, enough to find it: a sentence can be a whole line of a file (a
    1,000,000-character line came back as one warning line of that length)."""
    return source if len(source) <= QUOTE_CHARS else source[:QUOTE_CHARS].rstrip() + "…"


class _Progress:
    """"translated 40/200 sentences" on stderr, in place on a terminal; only for texts worth waiting on."""

    def __init__(self, stream=None) -> None:
        self.stream = stream or sys.stderr  # looked up now, not at import (tests capture stderr)
        self.tty = self.stream.isatty()

    def __call__(self, done: int, total: int) -> None:
        if total < 20:
            return
        end = "\n" if done == total or not self.tty else "\r"
        print(f"translated {done}/{total} sentences", end=end, file=self.stream, flush=True)


def translate_texts(a, loaded, texts: list[str]) -> int:
    """Translate each text in paragraph mode; print (or write to ``--out``) the translations."""
    from model.files import write_atomic
    from model.languages import model_target
    from model.paragraphs.translate_text import translate_text
    target = model_target(loaded.path) or "de"
    outputs = []
    n_in = n_out = 0
    for t_index, text in enumerate(texts):
        result = translate_text(loaded, text, beam_size=a.beam, tgt_lang=target, progress=_Progress())
        n_in += len(result.sentences)
        n_out += sum(1 for s in result.sentences if s.text.strip())
        where = f"text {t_index + 1}, " if len(texts) > 1 else ""
        for i, s in enumerate(result.sentences, start=1):
            if s.flags:
                print(f"warning: {where}line {s.line + 1}, sentence {i}: {s.note}: {quoted(s.source)}", file=sys.stderr)
            if s.unknown:
                print(f"warning: {where}line {s.line + 1}, sentence {i}: {s.unknown} pieces are unknown to this "
                      "model, so the translation may be wrong", file=sys.stderr)
        outputs.append(result.text)
    body = "".join(o if o.endswith("\n") else o + "\n" for o in outputs)
    if a.out:
        write_atomic(a.out, body)
    else:
        sys.stdout.write(body)
    if n_out != n_in:
        print(f"warning: {n_in - n_out} of {n_in} sentences produced no translation (marked […])", file=sys.stderr)
    return 0
