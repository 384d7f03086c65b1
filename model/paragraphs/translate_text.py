"""A whole text translated sentence by sentence: nothing lost, nothing invented, loops flagged.

``translate_text`` splits the text (``split.layout``), decodes all its sentences as batches (ten sentences
take about as long as one long one), cuts and flags any decoding loop (``model.decoding.loops``), and puts
the translation back in the text's shape. The count of sentences in and out is checked every time: a
sentence that produced nothing is kept, marked ``empty``, never dropped.
"""

from __future__ import annotations

from dataclasses import dataclass

from model.analysis.held_out import Cancelled
from model.decoding.batches import decode_batches
from model.decoding.loops import guard, max_output_length
from model.decoding.steps import mean_logprobs
from model.languages import script_language
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
    # The mean log-probability of its pieces (model.decoding.steps.mean_logprobs): a file's least sure
    # sentences are reviewed first. None when nothing came out.
    mean_logprob: float | None = None

    @property
    def note(self) -> str:
        """"the model repeated itself", … for a flagged sentence; "" otherwise."""
        return "; ".join(NOTES.get(f, f) for f in self.flags)


@dataclass(frozen=True)
class TextTranslation:
    source: str
    text: str  # the translation, in the source's lines and paragraphs
    sentences: tuple[SentenceTranslation, ...]
    spans: tuple[tuple[int, int], ...] = ()  # where each sentence's translation stands in ``text``

    @property
    def flagged(self) -> list[SentenceTranslation]:
        return [s for s in self.sentences if s.flags]


def translate_text(loaded, text: str, beam_size: int = 4, alpha: float = 0.6, src_lang: str | None = None,
                   tgt_lang: str = "de", max_extra: int = 50, progress=None, should_stop=None,
                   threads: int | None = None, head_masks=None, confidence: bool = True) -> TextTranslation:
    """Translate every sentence of ``text`` (any number of lines and paragraphs). ``src_lang`` None: Chinese
    or Japanese when the text is mostly written in their script, English otherwise (how it is split).
    ``head_masks``: heads removed, as for ``search.greedy``. ``confidence``: also each sentence's mean
    log-probability (one teacher-forced pass per batch)."""
    shape = layout(text, src_lang or script_language([text]) or "en")
    model, tok = loaded.model, loaded.tokenizer
    eos = model.cfg.eos_id
    bound = lambda n: max_output_length(n, max_extra)  # noqa: E731 - a one-line bound handed down
    encoded, generated = decode_batches(model, tok, shape.sentences, beam_size, alpha=alpha, max_len_of=bound,
                                        threads=threads, progress=progress, should_stop=should_stop,
                                        head_masks=head_masks)
    if should_stop is not None and should_stop():  # Cancel: stop with nothing, never with a text half done
        raise Cancelled()
    kept = [guard(ids[: bound(len(src_ids))], src_ids, eos, bound(len(src_ids))) for src_ids, ids in
            zip(encoded, generated)]
    scores = mean_logprobs(model, encoded, [ids for ids, _ in kept], head_masks=head_masks,
                           should_stop=should_stop) if confidence else [None] * len(kept)
    if should_stop is not None and should_stop():
        raise Cancelled()
    results = []
    for piece, src_ids, (ids, flags), score in zip(shape.pieces, encoded, kept, scores):
        out = tok.decode([i for i in ids if i != eos])
        if not out.strip():
            flags += (EMPTY,)
        results.append(SentenceTranslation(piece.text, out, piece.line, flags, src_ids.count(tok.unk_id), score))
    joined, spans = shape.join_with_spans([r.text if r.text.strip() else "[…]" for r in results],
                                          tgt_lang if tgt_lang in NO_SPACE else "de")
    return TextTranslation(text, joined, tuple(results), tuple(spans))
