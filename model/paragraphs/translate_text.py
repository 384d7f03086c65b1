"""A whole text translated sentence by sentence: nothing lost, nothing invented, loops flagged.

``translate_text`` splits the text (``split.layout``), decodes all its sentences as batches (ten sentences
take about as long as one long one), cuts and flags any decoding loop (``model.decoding.loops``), and puts
the translation back in the text's shape. The count of sentences in and out is checked every time: a
sentence that produced nothing is kept, marked ``empty``, never dropped.
"""

from __future__ import annotations

from dataclasses import dataclass

from model.analysis.test_set import Cancelled
from model.decoding.decode import decode_batches
from model.decoding.loops import guard, max_output_length
from model.paragraphs.split import NO_SPACE, layout

EMPTY = "empty"  # the flag of a sentence whose translation came out empty
NOTES = {"repeated": "the model repeated itself", "length_limit": "stopped at the length limit",
         EMPTY: "no translation came out"}


@dataclass(frozen=True)
class SentenceTranslation:
    source: str
    text: str
    line: int  # the source line it came from, 0-based
    flags: tuple[str, ...] = ()
    unknown: int = 0  # source pieces the vocabulary lacks

    @property
    def note(self) -> str:
        """"the model repeated itself", … for a flagged sentence; "" otherwise."""
        return "; ".join(NOTES.get(f, f) for f in self.flags)


@dataclass(frozen=True)
class TextTranslation:
    source: str
    text: str  # the translation, in the source's lines and paragraphs
    sentences: tuple[SentenceTranslation, ...]

    @property
    def flagged(self) -> list[SentenceTranslation]:
        return [s for s in self.sentences if s.flags]


def translate_text(loaded, text: str, beam_size: int = 4, alpha: float = 0.6, src_lang: str = "en",
                   tgt_lang: str = "de", max_extra: int = 50, progress=None, should_stop=None,
                   threads: int | None = None) -> TextTranslation:
    """Translate every sentence of ``text`` (any number of lines and paragraphs)."""
    shape = layout(text, src_lang)
    model, tok = loaded.model, loaded.tokenizer
    eos = model.cfg.eos_id
    bound = lambda n: max_output_length(n, max_extra)  # noqa: E731 - a one-line bound handed down
    encoded, generated = decode_batches(model, tok, shape.sentences, beam_size, alpha=alpha, max_len_of=bound,
                                        threads=threads, progress=progress, should_stop=should_stop)
    results = []
    for piece, src_ids, ids in zip(shape.pieces, encoded, generated):
        ids, flags = guard(ids[: bound(len(src_ids))], src_ids, eos, bound(len(src_ids)))
        out = tok.decode([i for i in ids if i != eos])
        if not out.strip():
            flags += (EMPTY,)
        results.append(SentenceTranslation(piece.text, out, piece.line, flags, src_ids.count(tok.unk_id)))
    if should_stop is not None and should_stop():  # Cancel: stop with nothing, never with a text half done
        raise Cancelled()
    joined = shape.join([r.text if r.text.strip() else "[…]" for r in results],
                        tgt_lang if tgt_lang in NO_SPACE else "de")
    return TextTranslation(text, joined, tuple(results))
