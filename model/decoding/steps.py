"""The search step by step, for the lecture view: what the model offered at each step and what it took.

Two parts, both opt-in so an ordinary translation pays nothing:

- the next-piece probabilities (softmax of the logits) after each prefix of the chosen output, from one
  teacher-forced pass over it: row t of that pass sees exactly what step t of the search saw, so a
  second search is not needed (the maps are captured the same way, model/decoding/decode.py);
- for beam search, the live hypotheses after every step, which only the search itself knows: a
  ``BeamRecorder`` handed to ``beam_search`` as its ``on_step`` snapshots them.
"""

from __future__ import annotations

import numpy as np
import torch
from torch import Tensor

from model.decoding.beam import Beam
from model.records import DecodeSteps, Hypothesis
from model.transformer import Transformer

TOP_K = 6  # bars in the step view; more do not fit under the maps on a 1024 × 768 projector


class BeamRecorder:
    """Snapshots a beam after each step: (live (ids, score) best first, finished (ids, score))."""

    def __init__(self) -> None:
        self.steps: list[tuple[list[tuple[list[int], float]], list[tuple[list[int], float]]]] = []

    def __call__(self, beam: Beam, over: bool) -> None:
        live = []
        if not over:  # when the search ends, the rows it would have kept are never used
            for ids, score in zip(beam.seqs[:, 1:].tolist(), beam.scores.tolist()):
                if score != float("-inf"):  # padding rows of a beam with fewer than k continuations
                    live.append((ids, score))
        finished = sorted(((ids, score) for score, ids in beam.finished), key=lambda x: -x[1])
        self.steps.append((live, finished))


@torch.inference_mode()
def step_probabilities(model: Transformer, src: Tensor, generated: list[int], memory: Tensor | None = None,
                       head_masks: dict[str, Tensor] | None = None, top_k: int = TOP_K) -> tuple[np.ndarray, ...]:
    """Teacher-forced next-piece distributions over the chosen output.

    Returns (top ids (T, k), top probabilities (T, k), chosen probabilities (T,), chosen ranks (T,)),
    where T = len(generated) and the chosen piece of step t is generated[t].
    """
    hm = head_masks or {}
    if memory is None:
        memory, _ = model.encode(src, head_mask=hm.get("encoder"))
    tgt = torch.tensor([[model.cfg.bos_id] + generated[:-1]], dtype=torch.long, device=src.device)
    hidden, _, _ = model.decode(tgt, memory, src, head_masks=hm)
    probs = model.next_logits(hidden[0]).float().softmax(-1)  # (T, V); next_logits gives padding -inf
    top_p, top_i = probs.topk(min(top_k, probs.size(-1)), dim=-1)
    chosen = torch.tensor(generated, dtype=torch.long, device=probs.device)
    chosen_p = probs.gather(1, chosen[:, None])[:, 0]
    ranks = (probs > chosen_p[:, None]).sum(-1)  # pieces strictly more probable than the chosen one
    return (top_i.cpu().numpy(), top_p.cpu().numpy().astype(np.float32),
            chosen_p.cpu().numpy().astype(np.float32), ranks.cpu().numpy().astype(np.int64))


def greedy_hypotheses(pieces: list[str], chosen_probs: np.ndarray) -> list[tuple[Hypothesis, ...]]:
    """Greedy search's single hypothesis after each step, scored by its summed log-probabilities.

    Never marked finished: that flag means a length-penalised score, and greedy search ranks nothing."""
    scores = np.cumsum(np.log(np.maximum(chosen_probs.astype(np.float64), 1e-30)))
    return [(Hypothesis(tuple(pieces[:t + 1]), float(scores[t])),) for t in range(len(pieces))]


def decode_steps(model: Transformer, tok, src: Tensor, generated: list[int], beam_size: int = 1,
                 recorder: BeamRecorder | None = None, memory: Tensor | None = None,
                 head_masks: dict[str, Tensor] | None = None, top_k: int = TOP_K) -> DecodeSteps:
    """The DecodeSteps record of a finished search (``recorder``: the beam's snapshots, None for greedy)."""
    top_i, top_p, chosen_p, ranks = step_probabilities(model, src, generated, memory, head_masks, top_k)
    pieces = list(tok.pieces(generated))
    n = len(generated)
    if recorder is None:
        hypotheses, search_steps = greedy_hypotheses(pieces, chosen_p), n
    else:
        hypotheses = []
        for t in range(n):  # the shown output took n steps; the beam may have run on after it ended
            live, finished = recorder.steps[min(t, len(recorder.steps) - 1)]
            hypotheses.append(tuple(Hypothesis(tuple(tok.pieces(ids)), float(s)) for ids, s in live)
                              + tuple(Hypothesis(tuple(tok.pieces(ids)), float(s), True) for ids, s in finished))
        search_steps = len(recorder.steps)
    return DecodeSteps(chosen=tuple(pieces), top_pieces=tuple(tuple(tok.pieces(row)) for row in top_i.tolist()),
                       top_probs=top_p, chosen_probs=chosen_p, chosen_ranks=ranks, hypotheses=tuple(hypotheses),
                       beam_size=beam_size, search_steps=search_steps)


@torch.inference_mode()
def mean_logprobs(model: Transformer, sources: list[list[int]], outputs: list[list[int]], batch_size: int = 32,
                  head_masks: dict[str, Tensor] | None = None, should_stop=None) -> list[float | None]:
    """Each output's mean log P(piece | pieces before it, source), </s> left out, from teacher-forced passes
    over padded batches: the number ``Translation.mean_logprob`` gives one sentence (``step_probabilities``'
    chosen probabilities), for a whole file at once. None for an output with no piece but </s>.
    ``should_stop()`` is asked between batches (the rest stay None).

    Right padding changes nothing the real positions see (the causal mask hides later positions, the
    source's padding mask its pads), so a batched number equals the sentence's own to float rounding."""
    cfg = model.cfg
    device = next(model.parameters()).device
    hm = head_masks or {}
    out: list[float | None] = [None] * len(sources)
    order = sorted(range(len(sources)), key=lambda i: (len(sources[i]), len(outputs[i])))
    for start in range(0, len(order), batch_size):
        if should_stop is not None and should_stop():
            break
        idx = [i for i in order[start:start + batch_size] if any(t != cfg.eos_id for t in outputs[i])]
        if not idx:
            continue
        s_len, t_len = max(len(sources[i]) for i in idx), max(len(outputs[i]) for i in idx)
        src = torch.full((len(idx), s_len), cfg.pad_id, dtype=torch.long)
        tgt = torch.full((len(idx), t_len), cfg.pad_id, dtype=torch.long)  # decoder input: <s> + output[:-1]
        gold = torch.full((len(idx), t_len), cfg.pad_id, dtype=torch.long)
        for r, i in enumerate(idx):
            src[r, :len(sources[i])] = torch.tensor(sources[i])
            tgt[r, :len(outputs[i])] = torch.tensor([cfg.bos_id] + outputs[i][:-1])
            gold[r, :len(outputs[i])] = torch.tensor(outputs[i])
        src, tgt, gold = src.to(device), tgt.to(device), gold.to(device)
        memory, _ = model.encode(src, head_mask=hm.get("encoder"))
        hidden, _, _ = model.decode(tgt, memory, src, head_masks=hm)
        logp = model.next_logits(hidden).float().log_softmax(-1).gather(2, gold[..., None])[..., 0]  # (B, T)
        counted = (gold != cfg.pad_id) & (gold != cfg.eos_id)
        for r, i in enumerate(idx):
            out[i] = float(logp[r][counted[r]].mean())
    return out
