"""Before the first step: the joint tokenizer and the encoded training and validation sets.

These phases take minutes on a large corpus, so each one obeys the run's ``TrainControl``: a pause holds
it and a stop raises ``Stopped`` between phases and every few thousand pairs. SentencePiece itself is one
long call that cannot be interrupted, so it runs on a helper thread while this one watches the control;
a stop abandons it (the thread finishes on its own, and its result is dropped) instead of making the
caller, and the window behind it, wait.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

import numpy as np

from model.config import TrainConfig
from model.errors import UserError
from model.languages import script_language
from model.tokenizer import Tokenizer
from model.training.control import Stopped, TrainControl
from model.training.data import Encoded, encode_pairs


@dataclass
class Data:
    tokenizer: Tokenizer
    train: Encoded
    valid: Encoded
    valid_pairs: list[tuple[str, str]]
    report: str


def train_tokenizer(texts: list[str], vocab_size: int, control: TrainControl | None = None) -> Tokenizer:
    """``Tokenizer.train`` that returns at once (raising ``Stopped``) when the run is stopped meanwhile."""
    if control is None:
        return Tokenizer.train(texts, vocab_size)
    result: list = []
    worker = threading.Thread(target=lambda: result.append(_attempt(texts, vocab_size)), daemon=True,
                              name="tokenizer")
    worker.start()
    while worker.is_alive():
        worker.join(0.1)
        if control.stopped:
            raise Stopped
    tokenizer = result[0]
    if isinstance(tokenizer, BaseException):
        raise tokenizer
    return tokenizer


def _attempt(texts: list[str], vocab_size: int) -> Tokenizer | BaseException:
    try:
        return Tokenizer.train(texts, vocab_size)
    except BaseException as exc:  # noqa: BLE001 - handed to the waiting thread, which raises it
        return exc


def prepare_data(cfg: TrainConfig, train_pairs: list[tuple[str, str]], valid_pairs: list[tuple[str, str]],
                 tokenizer: Tokenizer | None = None, control: TrainControl | None = None) -> Data:
    """Train the joint tokenizer (unless resuming with one) and encode both sets."""
    if not train_pairs:
        raise UserError("no training pairs are left after holding out the validation set; the corpus is too small")
    check = control.checkpoint if control is not None else None
    if tokenizer is None:
        rng = np.random.default_rng(cfg.seed)
        sample = rng.permutation(len(train_pairs))[:1_000_000]
        texts = [side for i in sample for side in train_pairs[i]]
        tokenizer = train_tokenizer(texts, cfg.vocab_size or cfg.model.vocab_size, control)
    # A Chinese target gets its punctuation back when decoded (Tokenizer.target_lang), validation BLEU too.
    tokenizer.target_lang = script_language(t for _, t in train_pairs[:2000])
    train_enc = encode_pairs(tokenizer, train_pairs, cfg.max_tokens_per_sentence, check)
    valid_enc = encode_pairs(tokenizer, valid_pairs, cfg.max_tokens_per_sentence, check)
    if not train_enc.src:
        raise UserError("no training pair fits the length limit after tokenization")
    report = (f"{len(train_enc.src)} training pairs ({train_enc.skipped_long} too long skipped), "
              f"{len(valid_enc.src)} validation pairs, vocabulary {tokenizer.vocab_size}")
    return Data(tokenizer, train_enc, valid_enc, valid_pairs, report)
