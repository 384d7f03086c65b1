"""What the research workbench asks of a translation beyond ``decode.translate``: the same sentence with
every head (beside an ablated one), every hypothesis of the final beam with its own maps, and a second
model's maps on the same output.

Maps of anything but the chosen output come from a teacher-forced pass (``decode.capture``) over that
output: a hypothesis' maps, or model B's maps on model A's pieces, so that B's cells line up with A's.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import torch

from model.checkpoint import LoadedModel
from model.decoding.ablation import head_masks, removed_of
from model.decoding.beam import Beam, length_penalty
from model.decoding.decode import capture, encode_source, translate
from model.decoding.fast_step import StepRunner
from model.decoding.loops import find_loop
from model.decoding.search import step_logprobs
from model.decoding.threads import DECODE_THREADS, intra_op_threads
from model.records import AttentionMaps, Translation
from model.records.workbench import BeamHypotheses, Comparison, Hypothesis
from model.transformer import DecoderState

MAX_EXTRA = 50  # as decode.translate: output up to the source length + 50 pieces


def force_decode(loaded: LoadedModel, src_ids: list[int], generated: list[int],
                 masks: dict[str, torch.Tensor] | None = None) -> AttentionMaps:
    """The maps of ``loaded`` reading ``src_ids`` (with </s>) and writing ``generated`` (with its </s>)."""
    tok = loaded.tokenizer
    src = torch.tensor([src_ids], dtype=torch.long, device=loaded.device)
    enc, dec, cross = capture(loaded.model, src, generated, masks)
    removed = removed_of(masks)
    for kind, layer, head in removed:  # as decode.translate: a removed head's map holds no weights
        {"encoder": enc, "decoder": dec, "cross": cross}[kind][layer, head] = 0.0
    return AttentionMaps(enc, dec, cross, tuple(tok.source_pieces(src_ids)),
                         (tok.start_piece, *tok.pieces(generated[:-1])), tuple(tok.pieces(generated)),
                         removed=removed)


@torch.inference_mode()
def final_beam(loaded: LoadedModel, text: str, beam_size: int, alpha: float = 0.6,
               masks: dict[str, torch.Tensor] | None = None) -> BeamHypotheses:
    """Every hypothesis the beam search of ``search.beam_search`` ends with, best first, with its maps.

    The search is the same (``Beam``, the same steps and cache); only its finished list is kept whole
    instead of being reduced to the best. When fewer than k finished before the length limit, the live
    rows join as unfinished hypotheses, scored as ``Beam.result`` scores them.
    """
    model, tok, eos = loaded.model, loaded.tokenizer, loaded.config.eos_id
    ids = encode_source(loaded, text)
    src = torch.tensor([ids], dtype=torch.long, device=loaded.device)
    hm = masks or {}
    memory, _ = model.encode(src, head_mask=hm.get("encoder"))
    beam = Beam(beam_size, alpha, src.device, model.cfg.bos_id, eos)
    state = DecoderState(model, memory, src, rows=beam_size)
    memory_k, src_k = memory.expand(beam_size, -1, -1), src.expand(beam_size, -1)
    runner = StepRunner.of(model, masks)
    while beam.step < len(ids) + MAX_EXTRA:
        index = beam.advance(step_logprobs(model, memory_k, src_k, beam.seqs, state, masks, runner))
        if index is None:
            break
        state.reorder(index)
    found = [(score, out, True) for score, out in beam.finished]
    if not found:  # the length limit came first: the live rows, as Beam.result scores them
        n = beam.seqs.size(1) - 1
        found = [(float(s) / length_penalty(n, alpha), beam.seqs[r, 1:].tolist(), False)
                 for r, s in enumerate(beam.scores.tolist()) if s != float("-inf")]
    found.sort(key=lambda x: -x[0])  # stable: ties keep the order the search found them in, as max() does
    hyps = []
    for score, out, done in found:
        lp = length_penalty(len(out), alpha)
        pieces = [i for i in out if i != eos]
        hyps.append(Hypothesis(text=tok.decode(pieces), pieces=tuple(tok.pieces(pieces)), log_prob=score * lp,
                               length=len(out), penalty=lp, score=score, finished=done,
                               attention=force_decode(loaded, ids, out, masks),
                               repeated=find_loop(pieces, ids[:-1]) is not None))
    return BeamHypotheses(alpha=alpha, beam_size=beam_size, hypotheses=tuple(hyps))


def compare_models(a: LoadedModel, b: LoadedModel, translation: Translation, beam_size: int) -> Comparison:
    """B's maps on A's sentence and output (force-decoded), when both read and write the same pieces."""
    name_a, name_b = Path(a.path).name, Path(b.path).name
    text_b = translate(b, translation.source, beam_size=beam_size, capture_attention=False).text
    src_a, src_b = encode_source(a, translation.source), encode_source(b, translation.source)
    maps_a = translation.attention
    note = ""
    if b.tokenizer.source_pieces(src_b) != a.tokenizer.source_pieces(src_a):
        note = (f"The tokenizers differ: {name_a} splits the sentence into {len(src_a)} pieces, {name_b} into "
                f"{len(src_b)} ({' '.join(b.tokenizer.source_pieces(src_b)[:8])} …), so their maps have no common "
                "cells. Compare models that share a SentencePiece model (checkpoints of one run).")
    elif (a.config.n_layers, a.config.n_heads) != (b.config.n_layers, b.config.n_heads):
        note = (f"The models differ in shape: {name_a} has {a.config.n_layers} layers × {a.config.n_heads} heads, "
                f"{name_b} {b.config.n_layers} × {b.config.n_heads}; a difference needs the same heads.")
    if note or maps_a is None:
        return Comparison(name_a, name_b, maps_a, None, text_b, note or "no maps were captured")
    # A's output as B's ids: looked up by piece, then checked, since the two vocabularies may number
    # the same pieces differently.
    ids_of = {b.tokenizer.piece(i): i for i in range(b.tokenizer.vocab_size)}
    generated = [ids_of.get(p, -1) for p in maps_a.predicted_tokens]
    if -1 in generated or b.tokenizer.pieces(generated) != list(maps_a.predicted_tokens):
        return Comparison(name_a, name_b, maps_a, None, text_b,
                          f"The tokenizers differ: {name_b}'s vocabulary lacks some of {name_a}'s output pieces, "
                          "so their maps have no common cells.")
    maps_b = force_decode(b, src_b, generated)
    return Comparison(name_a, name_b, maps_a, maps_b, text_b,
                      f"{name_b} force-decoded on {name_a}'s output, so both read the same pieces")


def _shown_first(beam: BeamHypotheses, shown: Translation) -> BeamHypotheses:
    """The beam with its best hypothesis showing the translation's own maps when it is that translation.

    The translation's maps come from its search's steps (model/decoding/beam_maps.py), the hypotheses'
    from a teacher-forced pass; the two agree to ~1e-6, and the beam dock's first row says it is "the
    translation shown", so it shows those very numbers."""
    hyps = beam.hypotheses
    if not hyps or shown.attention is None or hyps[0].pieces != shown.target_pieces:
        return beam
    return dataclasses.replace(beam, hypotheses=(dataclasses.replace(hyps[0], attention=shown.attention),
                                                 *hyps[1:]))


def translate_more(loaded: LoadedModel, text: str, beam_size: int = 1, request_id: int = 0,
                   removed: tuple = (), capture_beam: bool = False, compare_with: LoadedModel | None = None,
                   capture_vectors: bool = False, capture_steps: bool = False, alpha: float = 0.6) -> Translation:
    """``decode.translate`` with the workbench's extras: heads removed (with the unablated translation
    beside it), the final beam's hypotheses (beam size > 1), and a comparison with a second model."""
    masks = head_masks(tuple(removed), loaded.config.n_layers, loaded.config.n_heads) if removed else None
    with intra_op_threads(DECODE_THREADS):
        result = translate(loaded, text, beam_size=beam_size, request_id=request_id, head_masks=masks,
                           capture_vectors=capture_vectors, capture_steps=capture_steps, length_penalty_alpha=alpha)
        extra = {}
        if masks:
            extra["unablated"] = translate(loaded, text, beam_size=beam_size, capture_attention=False,
                                           length_penalty_alpha=alpha)
        if capture_beam and beam_size > 1:
            extra["beam"] = _shown_first(final_beam(loaded, text, beam_size, alpha, masks), result)
        if compare_with is not None:
            extra["comparison"] = compare_models(loaded, compare_with, result, beam_size)
    return dataclasses.replace(result, **extra)
