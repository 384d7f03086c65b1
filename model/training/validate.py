"""What rank 0 measures during training: validation loss and BLEU, and the probe sentence's attention."""

from __future__ import annotations

import torch
import torch.nn.functional as F

from model.checkpoint import LoadedModel
from model.config import TrainConfig
from model.decoding.batches import translate_many
from model.decoding.decode import translate
from model.errors import UserError
from model.languages import bleu_tokenizer
from model.records import Translation
from model.training.control import TrainControl
from model.training.data import collate, make_batches
from model.training.prepare import Data
from model.transformer import Transformer


@torch.no_grad()
def validate(model: Transformer, data: Data, cfg: TrainConfig, device: torch.device,
             control: TrainControl | None = None) -> tuple[float, float | None] | None:
    """(valid loss per target token without smoothing, greedy BLEU on the first sentences or None).

    None when the run is stopped meanwhile: a large validation set takes minutes, and Stop must not wait
    for it. A pause holds it between batches.
    """
    model.eval()
    try:
        total, count = 0.0, 0
        for idx in make_batches(data.valid, cfg.batch_tokens, seed=0, epoch=0):
            if control is not None:
                control.wait_while_paused()
                if control.stopped:
                    return None
            src, tgt = (torch.from_numpy(a).to(device) for a in collate(data.valid, idx, model.cfg.pad_id))
            logits, _ = model(src, tgt[:, :-1])
            y = tgt[:, 1:]
            total += F.cross_entropy(logits.reshape(-1, logits.size(-1)).float(), y.reshape(-1),
                                     ignore_index=model.cfg.pad_id, reduction="sum").item()
            count += int((y != model.cfg.pad_id).sum())
        bleu = None
        if cfg.valid_bleu_sentences and data.valid_pairs:
            import sacrebleu  # imported here: it is slow to import and only validation needs it

            pairs = data.valid_pairs[: cfg.valid_bleu_sentences]
            hyps = translate_many(model, data.tokenizer, [s for s, _ in pairs])
            if control is not None and control.stopped:
                return None
            refs = [t for _, t in pairs]
            # Chinese references are scored with sacrebleu's zh tokenizer (model.languages says why).
            bleu = float(sacrebleu.corpus_bleu(hyps, [refs], tokenize=bleu_tokenizer(references=refs)).score)
        return total / max(count, 1), bleu
    finally:
        model.train()


def probe(model: Transformer, data: Data, cfg: TrainConfig, device: torch.device) -> Translation | None:
    """The probe sentence translated with its attention maps, for the window's live view."""
    model.eval()
    try:
        loaded = LoadedModel(model, data.tokenizer, model.cfg, cfg.out_path, str(device), int8_search=False)
        return translate(loaded, cfg.probe_sentence, beam_size=1, capture_attention=True)
    except UserError:
        return None
    finally:
        model.train()
