"""The training run's own English lines, said again in the window's language for the Train log.

The model package never imports Qt, so it reports in English: "task reverse: 2000 generated pairs;
2000 training pairs (0 too long skipped), 500 validation pairs, vocabulary 25". The text is the one part
of a record that reaches the GUI from every run: under torchrun the records cross from the training
processes as JSON, which keeps ``message`` and drops ``extra``. So the Train tab recognises the forms the
model writes (model/training/data.py, prepare.py, train.py) and formats each again with ``tr()``; a line
of any other form is shown as it came. A failed run's messages have their own forms (model_errors.py).

The forms are copied here, not imported: importing ``model.training`` would load sentencepiece on the GUI
thread. tests/explorer/test_train_log_language.py makes the lines with the model's own functions, so a
change of wording there fails a test instead of reaching the Chinese log in English.
"""

from __future__ import annotations

import re

from explorer.ui.i18n import N_, tr

# The start record: what was read, then what the tokenizer made of it (model/training/run.py).
START = re.compile(r"(?P<corpus>.+); (?P<data>\d+ training pairs \(\d+ too long skipped\), "
                   r"\d+ validation pairs, vocabulary \d+)", re.S)
TASK = re.compile(r"task (?P<task>\S+): (?P<n>\d+) generated pairs")  # data.load_corpora
CORPUS = re.compile(r"(?P<n>\d+) pairs from (?P<source>.+?)(?:; skipped (?P<k>\d+) \(line (?P<lines>.*)\))?",
                    re.S)  # data.Corpus.report
DATA = re.compile(r"(?P<n>\d+) training pairs \((?P<long>\d+) too long skipped\), (?P<valid>\d+) validation pairs, "
                  r"vocabulary (?P<vocab>\d+)")  # prepare.prepare_data
SAVED = re.compile(r"saved (?P<path>.+)", re.S)  # train.train, a run's last record
NOTHING_WRITTEN = N_("stopped before the first step; nothing was written")  # train.train, stopped at once
# Why a corpus line was skipped (data._check_pair, data.read_tsv) and the count of those not listed.
REASONS = (
    (re.compile(r"empty source"), lambda m: tr("empty source")),
    (re.compile(r"empty target"), lambda m: tr("empty target")),
    (re.compile(r"longer than (\d+) characters"), lambda m: tr("longer than {n} characters", n=m[1])),
    (re.compile(r"expected 2 tab-separated columns, found (\d+)"),
     lambda m: tr("expected 2 tab-separated columns, found {n}", n=m[1])),
    (re.compile(r"… (\d+) more"), lambda m: tr("… {n} more", n=m[1])),
)


def model_line(text: str) -> str:
    """``text`` from the training run in the window's language, if it is one of the known forms."""
    if text == NOTHING_WRITTEN:
        return tr(NOTHING_WRITTEN)
    if m := START.fullmatch(text):
        return tr("{corpus}; {data}", corpus=corpus_line(m["corpus"]), data=data_line(m["data"]))
    if m := SAVED.fullmatch(text):
        return tr("saved {path}", path=m["path"])
    return corpus_line(text)


def corpus_line(text: str) -> str:
    """What was read: a synthetic task's size, or a corpus file's pairs and skipped lines."""
    if m := TASK.fullmatch(text):
        return tr("task {task}: {n} generated pairs", task=m["task"], n=m["n"])
    if m := CORPUS.fullmatch(text):
        line = tr("{n} pairs from {source}", n=m["n"], source=m["source"])
        if m["k"] is not None:
            line += tr("; skipped {n} (line {lines})", n=m["k"], lines=_reasons(m["lines"]))
        return line
    return text


def data_line(text: str) -> str:
    """The encoded sets and the vocabulary's size."""
    if m := DATA.fullmatch(text):
        return tr("{n} training pairs ({long} too long skipped), {valid} validation pairs, vocabulary {vocab}",
                  n=m["n"], long=m["long"], valid=m["valid"], vocab=m["vocab"])
    return text


def _reasons(lines: str) -> str:
    """'2: empty source, 5: longer than 1000 characters, … 4 more' with each reason translated."""
    for pattern, say in REASONS:
        lines = pattern.sub(say, lines)
    return lines
