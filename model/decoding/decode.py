"""One translation and the attention maps behind it: the search (model/decoding/search.py), and its maps.

Attention comes with the search where it can: greedy's checking pass is a teacher-forced pass of the
modules over the output (model/decoding/speculative.py), and beam search on the native rows step keeps its
own steps' weights and follows its result back (model/decoding/beam_maps.py). Anything else (ablated
greedy, a model the native step does not cover) gets one teacher-forced pass over the chosen output.
Either way the maps are those of the sentence shown, in the fp32 model's numbers.

``translate`` runs greedy search as an int8 draft checked in fp32 where it can (model/decoding/speculative.py):
the same output as ``greedy``, about twice as fast on a CPU.
"""

from __future__ import annotations

import numpy as np
import torch
from torch import Tensor

from model.checkpoint import LoadedModel
from model.decoding.ablation import removed_of
from model.decoding.beam_maps import BeamTrace
from model.decoding.int8 import search_copy
from model.decoding.loops import guard
from model.decoding.search import beam_search, greedy
from model.decoding.speculative import checked_greedy
from model.decoding.steps import BeamRecorder, decode_steps, step_probabilities
from model.decoding.threads import DECODE_THREADS, intra_op_threads
from model.errors import UserError
from model.native import draft_weights
from model.native.rows import RowWeights
from model.records import AttentionMaps, Translation
from model.tokenizer import clean_text
from model.transformer import Transformer

MAX_SOURCE_PIECES = 400
MAX_SOURCE_CHARS = 5000


def _stack(ws: list[Tensor]) -> np.ndarray:
    """L × (1, H, ·, ·) → (L, H, ·, ·) float32 NumPy."""
    return torch.stack([w[0] for w in ws]).float().cpu().numpy()


def capture(model: Transformer, src: Tensor, generated: list[int], head_masks: dict[str, Tensor] | None = None,
            encoded: tuple[Tensor, list[Tensor]] | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Teacher-forced pass over <s> + generated[:-1]; returns (L,H,S,S), (L,H,T,T), (L,H,T,S) float32.

    encoded: ``model.encode(src, need_weights=True, head_mask=…)`` when the search already ran it (with
    the same encoder head mask).
    """
    return _capture(model, src, generated, head_masks, encoded)[:3]


def _capture(model: Transformer, src: Tensor, generated: list[int], head_masks: dict[str, Tensor] | None,
             encoded: tuple[Tensor, list[Tensor]] | None, chosen_probs: bool = False):
    """``capture``'s maps and, if asked, each generated piece's probability (T,) from the same pass.

    The probabilities (the confidence tint) used to take a teacher-forced pass of their own over the same
    output (``steps.step_probabilities``); the decoder's output of the capture pass gives them too.
    """
    tgt = torch.tensor([[model.cfg.bos_id] + generated[:-1]], dtype=torch.long, device=src.device)
    hm = head_masks or {}
    with torch.inference_mode():
        memory, enc = encoded or model.encode(src, need_weights=True, head_mask=hm.get("encoder"))
        hidden, dec, cross = model.decode(tgt, memory, src, need_weights=True, head_masks=hm)
        probs = None
        if chosen_probs and generated:
            logits = model.next_logits(hidden[0]).float()  # (T, V)
            chosen = torch.tensor(generated, dtype=torch.long, device=logits.device)
            probs = logits.softmax(-1).gather(1, chosen[:, None])[:, 0].cpu().numpy().astype(np.float32)
    return _stack(enc), _stack(dec), _stack(cross), probs


def encode_source(loaded: LoadedModel, text: str) -> list[int]:
    """Source ids + </s>, with clear errors for empty or oversized input."""
    if not isinstance(text, str):
        raise UserError("the sentence must be text")
    if len(text) > MAX_SOURCE_CHARS:
        raise UserError(f"the sentence is too long ({len(text)} characters; at most {MAX_SOURCE_CHARS}); split it")
    cleaned = clean_text(text)
    if not cleaned:
        raise UserError("type a sentence to translate: the text is empty")
    ids = loaded.tokenizer.encode(text)  # each tokenizer cleans text its own way (Marian's as Marian does)
    if not ids:
        raise UserError("the sentence holds nothing the tokenizer can read")
    if len(ids) > MAX_SOURCE_PIECES:
        raise UserError(f"the sentence is too long ({len(ids)} pieces; at most {MAX_SOURCE_PIECES}); split it")
    return ids + [loaded.config.eos_id]


def translate(loaded: LoadedModel, text: str, beam_size: int = 1, capture_attention: bool = True,
              length_penalty_alpha: float = 0.6, request_id: int = 0, use_cache: bool = True,
              head_masks: dict[str, Tensor] | None = None, max_extra: int = 50,
              threads: int | None = DECODE_THREADS, capture_vectors: bool = False,
              capture_steps: bool = False) -> Translation:
    """Translate one sentence; beam_size 1 is greedy. Max output length = source length + max_extra.

    capture_vectors: also return every head's Q, K, V (``Translation.vectors``) for the formula
    walkthrough; a second pass, so off unless the walkthrough is open. Ignored with head_masks.
    capture_steps: also return the search step by step (``Translation.steps``) for the step view: one
    more decoder pass, and for beam search a snapshot of the beam per step; off unless the view is open.

    threads: torch intra-op threads while translating (see ``DECODE_THREADS``); None leaves them as set.
    """
    if not 1 <= beam_size <= 64:
        raise UserError(f"beam size must be between 1 and 64, got {beam_size}")
    with intra_op_threads(threads):
        return _translate(loaded, text, beam_size, capture_attention, length_penalty_alpha, request_id,
                          use_cache, head_masks, max_extra, capture_vectors, capture_steps)


def _translate(loaded: LoadedModel, text: str, beam_size: int, capture_attention: bool,
               length_penalty_alpha: float, request_id: int, use_cache: bool,
               head_masks: dict[str, Tensor] | None, max_extra: int, capture_vectors: bool = False,
               capture_steps: bool = False) -> Translation:
    model, tok = loaded.model, loaded.tokenizer
    bos, eos = model.cfg.bos_id, model.cfg.eos_id
    ids = encode_source(loaded, text)
    src = torch.tensor([ids], dtype=torch.long, device=loaded.device)
    # The views show what the search does within the source's length + max_extra (as Marian's reference
    # tests run generate); text meant to be read gets the tighter bound of model.decoding.loops.
    max_len = len(ids) + max_extra
    # The int8 draft (model/decoding/speculative.py) changes the speed of greedy search, never its result.
    # The native step drafts where it can (model/native: ~6× faster a step); else the PyTorch int8 copy.
    fast = (draft_weights(loaded) or search_copy(loaded)) if beam_size == 1 and use_cache and not head_masks else None
    captured, encoded, checked_probs, searched = None, None, None, None
    recorder = BeamRecorder() if capture_steps and beam_size > 1 else None
    if head_masks and beam_size == 1:
        # Ablated heads change the search, not just the maps (the int8 draft has no masks: fp32 here).
        generated, score = greedy(model, src, max_len, use_cache, head_masks)[0], 0.0
    elif beam_size == 1 and fast is not None:
        # One encoder pass serves the search and, after a corrected draft, capture's maps.
        with torch.inference_mode():
            encoded = model.encode(src, need_weights=capture_attention)
        (generated, captured, checked_probs), score = checked_greedy(model, fast, src, max_len,
                                                                    capture_attention, encoded), 0.0
    elif beam_size == 1:
        generated, score = greedy(model, src, max_len, use_cache)[0], 0.0
    else:
        # One encoder pass serves the search and the maps.
        hm = head_masks or {}
        with torch.inference_mode():
            encoded = model.encode(src, need_weights=capture_attention, head_mask=hm.get("encoder"))
        native = RowWeights.of(model) if use_cache else None
        trace = BeamTrace(eos)  # the maps and probabilities of the search's own steps, where native
        generated, score = beam_search(model, src, beam_size, max_len, length_penalty_alpha, use_cache,
                                       memory=encoded[0], head_masks=head_masks, on_step=recorder,
                                       native=native, trace=trace)
        if trace.maps is not None and capture_attention:
            searched = trace.maps
        if trace.probs is not None:
            checked_probs = trace.probs
    # The views show exactly what the search produced, a loop included, and flag it; text meant to be read
    # (model.paragraphs: the command line, files) is cut at the loop as well.
    _, flags = guard(generated, ids, eos, max_len)
    out_ids = [i for i in generated if i != eos]
    maps, capture_probs = None, None
    if capture_attention:
        if captured is not None:
            enc, dec, cross = (_stack(ws) for ws in captured)
        elif searched is not None:  # beam search's own: the encoder's from the pass that fed the search
            enc, (dec, cross) = _stack(encoded[1]), searched
        else:  # the piece probabilities from the same pass, unless the step view's record has them
            enc, dec, cross, capture_probs = _capture(model, src, generated, head_masks, encoded,
                                                      chosen_probs=checked_probs is None and not capture_steps)
        removed = removed_of(head_masks)
        for kind, layer, head in removed:  # a removed head's weights never reach the output: show none
            {"encoder": enc, "decoder": dec, "cross": cross}[kind][layer, head] = 0.0
        maps = AttentionMaps(enc, dec, cross, tuple(tok.source_pieces(ids)),
                             (tok.start_piece, *tok.pieces(generated[:-1])), tuple(tok.pieces(generated)),
                             removed=removed)
    vectors = None
    if capture_vectors and not head_masks:
        from model.analysis.vectors import capture_vectors as capture_qkv

        tgt = torch.tensor([[bos] + generated[:-1]], dtype=torch.long, device=src.device)
        vectors = capture_qkv(model, src, tgt)
    steps = None
    if capture_steps:
        steps = decode_steps(model, tok, src, generated, beam_size, recorder,
                             encoded[0] if encoded else None, head_masks)
    # How sure the model was of each piece (softmax of its logits, teacher-forced over the output: the
    # numbers the search saw); the step view's record, or the int8 draft's checking pass, has them already.
    if steps is not None:
        probs = steps.chosen_probs
    elif checked_probs is not None:
        probs = checked_probs
    elif capture_probs is not None:
        probs = capture_probs
    else:
        probs = (step_probabilities(model, src, generated, encoded[0] if encoded else None, head_masks,
                                    top_k=1)[2] if generated else ())
    kept = tuple(float(p) for i, p in zip(generated, probs) if i != eos)  # aligned with out_ids
    return Translation(source=text, text=tok.decode(out_ids), source_pieces=tuple(tok.source_pieces(ids[:-1])),
                       target_pieces=tuple(tok.pieces(out_ids)), score=float(score), attention=maps,
                       request_id=request_id, unknown_pieces=ids[:-1].count(tok.unk_id), vectors=vectors,
                       steps=steps, flags=flags, piece_probs=kept)
