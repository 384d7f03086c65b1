"""A whole text translated sentence by sentence: nothing lost, nothing invented, loops flagged.

``translate_text`` splits the text (``split.layout``), decodes all its sentences as batches (ten sentences
take about as long as one long one), cuts and flags any decoding loop (``model.decoding.loops``), and puts
the translation back in the text's shape. The count of sentences in and out is checked every time: a
sentence that produced nothing is kept, marked ``empty``, never dropped. A sentence longer than the model
takes is translated in parts (``too_long``) and flagged ``split``, never cut short.
"""

from __future__ import annotations

from dataclasses import dataclass

from model.analysis.held_out import Cancelled
from model.decoding.batches import decode_batches
from model.decoding.decode import MAX_SOURCE_PIECES
from model.decoding.loops import guard, max_output_length
from model.decoding.steps import mean_logprobs
from model.languages import script_language
from model.paragraphs.split import NO_SPACE, layout
from model.paragraphs.too_long import cut_to_fit

EMPTY = "empty"  # the flag of a sentence whose translation came out empty
SPLIT = "split"  # the flag of a sentence too long for the model, translated in parts
EMPTY_PART = "empty_part"  # a part of a split sentence came out empty (marked […] in its translation)
NOTES = {"repeated": "the model repeated itself", "length_limit": "stopped at the length limit",
         EMPTY: "no translation came out", SPLIT: "too long for the model: translated in {parts} parts",
         EMPTY_PART: "a part of it produced no translation (marked […])"}


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
    parts: int = 1  # how many parts it was translated in (more than 1 only when flagged ``split``)

    @property
    def note(self) -> str:
        """"the model repeated itself", … for a flagged sentence; "" otherwise."""
        return "; ".join(NOTES[SPLIT].format(parts=self.parts) if f == SPLIT else NOTES.get(f, f)
                         for f in self.flags)


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
    log-probability (one teacher-forced pass per batch). ``progress(done, total)`` counts what is decoded:
    the sentences, a too-long one as its parts (a one-line file of 500 parts takes minutes, and a count of
    sentences, 0 of 1, would stand still all that time)."""
    shape = layout(text, src_lang or script_language([text]) or "en")
    model, tok = loaded.model, loaded.tokenizer
    eos = model.cfg.eos_id
    # What the model takes at once: a longer sentence is decoded as parts, whose translations join again.
    parts = [cut_to_fit(s, lambda t: len(tok.encode(t)), MAX_SOURCE_PIECES) for s in shape.sentences]
    flat = [p for ps in parts for p in ps]
    bound = lambda n: max_output_length(n, max_extra)  # noqa: E731 - a one-line bound handed down
    encoded, generated = decode_batches(model, tok, flat, beam_size, alpha=alpha, max_len_of=bound,
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
    outputs = [tok.decode([i for i in ids if i != eos]) for ids, _ in kept]
    results, at = [], 0
    for piece, ps in zip(shape.pieces, parts):
        own = range(at, at + len(ps))
        at += len(ps)
        unknown = sum(encoded[j].count(tok.unk_id) for j in own)
        if len(ps) == 1:
            flags, out, score = kept[at - 1][1], outputs[at - 1], scores[at - 1]
            if not out.strip():
                flags += (EMPTY,)
        else:
            out, flags, score = _join_parts([outputs[j] for j in own], [kept[j] for j in own],
                                            [scores[j] for j in own], eos, tgt_lang)
        results.append(SentenceTranslation(piece.text, out, piece.line, flags, unknown, score, len(ps)))
    joined, spans = shape.join_with_spans([r.text if r.text.strip() else "[…]" for r in results],
                                          tgt_lang if tgt_lang in NO_SPACE else "de")
    return TextTranslation(text, joined, tuple(results), tuple(spans))


def _join_parts(outputs: list[str], kept: list[tuple[list[int], tuple[str, ...]]], scores: list[float | None],
                eos: int, tgt_lang: str) -> tuple[str, tuple[str, ...], float | None]:
    """(translation, flags, mean log P) of a sentence translated in parts: the parts' translations in order
    (an empty one marked […], so the reader sees where a part is missing), every part's flags once, and
    the mean log P over all their pieces."""
    flags = (SPLIT,) + tuple(dict.fromkeys(f for _, fs in kept for f in fs))
    said = [o for o in outputs if o.strip()]
    if not said:
        return "", flags + (EMPTY,), None
    if len(said) < len(outputs):
        flags += (EMPTY_PART,)
    out = ("" if tgt_lang in NO_SPACE else " ").join(o.strip() if o.strip() else "[…]" for o in outputs)
    lengths = [sum(1 for i in ids if i != eos) for ids, _ in kept]
    counted = [(s, n) for s, n in zip(scores, lengths) if s is not None and n]
    score = sum(s * n for s, n in counted) / sum(n for _, n in counted) if counted else None
    return out, flags, score
