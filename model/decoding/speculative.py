"""Greedy search drafted by the int8 copy of the decoder (model/decoding/int8.py) and checked by the fp32 model.

A translation step is bound by reading the decoder's weights (see model/decoding/int8.py); a pass over many
positions reads them once. So the int8 copy searches first, cheaply, one piece at a time; then a single
fp32 pass gives the fp32 model's choice after every prefix of the draft. Where the two disagree, the
fp32 choice is kept and the draft resumes after it. Every piece is the fp32 model's choice, so the
result is the fp32 greedy translation, as in speculative decoding; the int8 model only decides how much
work each fp32 pass gets. Measured on the built-in model and 150 Ding sentences: 87% need one check.

Numerically the fp32 choices come from a teacher-forced pass rather than step-by-step cached ones; the
two agree to ~1e-6, which can only matter for a near-exact tie between two pieces.

Beam search is not drafted: the same scheme (an int8 beam search, its prefixes scored in one fp32 pass
packed as a tree, the search replayed on those values) was built and measured; int8 rounding reorders
near-equal candidates often enough that a translation needed 2.3 drafts on average, and it was no
faster than the plain fp32 beam search (6.4 s against 6.0 s of CPU for 60 Ding sentences).
"""

from __future__ import annotations

import numpy as np
import torch
from torch import Tensor

from model.transformer import DecoderState, Transformer


def _draft_greedy(fast: Transformer, memory: Tensor, src: Tensor, state: DecoderState, seq: list[int],
                  max_len: int) -> list[int]:
    """Extend ``seq`` (<s> + pieces) greedily with the int8 copy until </s> or max_len pieces.

    ``state`` has already been fed ``seq[:state.position]``; the rest is fed first, in one pass.
    """
    seq = list(seq)
    step = torch.tensor([seq[state.position:]], dtype=torch.long, device=src.device)
    while True:
        hidden, _, _ = fast.decode(step, memory, src, state=state)
        nxt = int(fast.next_logits(hidden[:, -1]).argmax(-1))
        seq.append(nxt)
        if nxt == fast.cfg.eos_id or len(seq) - 1 >= max_len:
            return seq
        step = torch.tensor([[nxt]], dtype=torch.long, device=src.device)


@torch.inference_mode()
def checked_greedy(model: Transformer, fast: Transformer, src: Tensor, max_len: int,
                   capture_attention: bool = True) -> tuple[list[int], tuple | None, np.ndarray | None]:
    """Greedy search drafted by ``fast`` and checked by ``model``: exactly ``model``'s greedy output.

    One teacher-forced fp32 pass over the draft gives the fp32 choice at every position at once; at the
    first disagreement the fp32 choice is kept and drafting resumes after it (the draft's cache rewound
    to there). With ``capture_attention`` the checking pass is also the capture pass.
    src: (1, S). Returns (pieces, (encoder, decoder, cross) lists of (1, H, ·, ·) weights, or None, the
    fp32 probability of each piece, (T,), or None). The probabilities are the checking pass's softmax,
    the numbers ``steps.step_probabilities`` would compute in a pass of its own (~20% of a translation).
    None, like the maps, when the output ended on a corrected </s> that no pass has seen yet.
    """
    memory, enc = model.encode(src, need_weights=capture_attention)
    state = DecoderState(fast, memory, src)
    seq, checked = [model.cfg.bos_id], 0  # seq[1:1 + checked] agree with fp32
    while True:
        seq = _draft_greedy(fast, memory, src, state, seq, max_len)
        generated = seq[1:]
        tgt = torch.tensor([seq[:-1]], dtype=torch.long, device=src.device)
        hidden, dec, cross = model.decode(tgt, memory, src, need_weights=capture_attention)
        logits = model.next_logits(hidden[0])  # (T, V)
        best = logits.argmax(-1).tolist()  # fp32 choice after each prefix
        wrong = next((j for j in range(checked, len(generated)) if best[j] != generated[j]), None)
        if wrong is None:
            chosen = torch.tensor(generated, dtype=torch.long, device=logits.device)[:, None]
            probs = logits.float().softmax(-1).gather(1, chosen)[:, 0].cpu().numpy().astype(np.float32)
            return generated, ((enc, dec, cross) if capture_attention else None), probs
        seq, checked = seq[: wrong + 1] + [best[wrong]], wrong + 1
        if best[wrong] == model.cfg.eos_id or checked >= max_len:
            return seq[1:], None, None  # the maps and probabilities of this output are still to be computed
        state.rewind(wrong + 1)  # the cache keeps <s> + the agreed pieces
