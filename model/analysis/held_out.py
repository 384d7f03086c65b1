"""The test set a whole-set analysis reads, its cancellation, and per-head statistics over it.

A model folder may ship held-out sentences in ``heldout/`` (the built-in model does: ``test.en`` and
``test.de``, never seen in training); head importance and statistics read their first
``DEFAULT_SENTENCES`` lines unless the user picks files. Long analyses check ``should_stop`` between
small steps and raise ``Cancelled``, so a Cancel button answers within a fraction of a second.
"""

from __future__ import annotations

from pathlib import Path

from model.corpus.lines import read_lines as read_corpus_lines
from model.errors import UserError
from model.records.research import DEFAULT_SENTENCES, HeadTable

HELDOUT = "heldout"
# (source, reference) names tried in order; the built-in model's own Tatoeba test set comes first.
PAIRS = (("test.en", "test.de"), ("test.en", "test.zh"), ("test.src", "test.tgt"))


class Cancelled(Exception):  # noqa: N818 - a request, not an error: the user pressed Cancel
    """Raised inside a long analysis when ``should_stop()`` turned true; nothing is stored."""


def check(should_stop) -> None:
    if should_stop is not None and should_stop():
        raise Cancelled()


def heldout_files(model_path: str | Path) -> tuple[Path, Path] | None:
    """The model folder's held-out (source, reference) files, or None when it ships none."""
    folder = Path(model_path) / HELDOUT
    for src, ref in PAIRS:
        if (folder / src).is_file() and (folder / ref).is_file():
            return folder / src, folder / ref
    return None


def read_lines(path: str | Path, what: str) -> list[str]:
    """The lines of a UTF-8 text file; a one-line UserError naming ``what`` if it cannot be read."""
    if not Path(path).is_file():
        why = "it is a folder" if Path(path).is_dir() else "no such file"
        raise UserError(f"cannot read the {what} file {path}: {why}")
    return read_corpus_lines(path, what, UserError)


def load_pairs(model_path: str | Path, src: str | Path | None = None, ref: str | Path | None = None,
               limit: int = DEFAULT_SENTENCES, need_ref: bool = True) -> tuple[list[str], list[str] | None]:
    """The first ``limit`` (0: all) non-empty sentences of ``src`` and ``ref``, or of the model's held-out
    set when ``src`` is None. The reference is None when ``need_ref`` is false and none was given."""
    if src is None:
        found = heldout_files(model_path)
        if found is None:
            raise UserError(f"{model_path} ships no held-out set ({HELDOUT}/test.en with test.de or test.zh): "
                            "choose a source and a reference file")
        src, ref = found
    sources = read_lines(src, "source")
    refs = read_lines(ref, "reference") if ref is not None else None
    if refs is None and need_ref:
        raise UserError("choose a reference file to score the translations against")
    if refs is not None and len(refs) != len(sources):
        raise UserError(f"{src} has {len(sources)} lines but {ref} has {len(refs)}: they must be aligned")
    keep = [i for i, s in enumerate(sources) if s.strip()]
    keep = keep[:limit] if limit else keep
    if not keep:
        raise UserError(f"{src} holds no sentences")
    return [sources[i] for i in keep], ([refs[i] for i in keep] if refs is not None else None)


def statistics(loaded, texts: list[str], beam_size: int = 1, progress=None, should_stop=None) -> HeadTable:
    """Per-head statistics (``model.analysis.head_stats``) of the model's translations of ``texts``,
    averaged over the sentences. progress(done, total) after each sentence."""
    from model.analysis.head_stats import average, sentence_statistics
    from model.decoding.decode import translate
    per = []
    for n, text in enumerate(texts):
        check(should_stop)
        per.append(sentence_statistics(translate(loaded, text, beam_size=beam_size).attention))
        if progress is not None:
            progress(n + 1, len(texts))
    return average(per)

