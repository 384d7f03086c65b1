"""A joint SentencePiece vocabulary for source and target, saved inside every model folder.

The pieces it produces (``▁The``, ``wea``, ``ther``) are what the views label their axes with.
"""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Iterable
from pathlib import Path

import sentencepiece as spm

from model.config import BOS_ID, EOS_ID, PAD_ID, UNK_ID
from model.errors import CheckpointError, UserError
from model.languages import fullwidth_punctuation

# Control characters other than ordinary whitespace confuse SentencePiece and the axis labels.
_CONTROL = {c for c in map(chr, range(0x20)) if c not in "\t\n"} | {"\x7f"}
# People type ' where typeset text has ’; one apostrophe keeps "don't" and "don’t" the same pieces.
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\u00b4": "'"})


def clean_text(text: str) -> str:
    """Normalise odd Unicode: NFC, drop control/format characters, collapse whitespace."""
    text = unicodedata.normalize("NFC", text)
    text = "".join(" " if c in "\t\n\r\u2028\u2029" else c for c in text
                   if c not in _CONTROL and unicodedata.category(c) not in ("Cs", "Co", "Cf"))
    return " ".join(text.translate(_APOSTROPHES).split())


class Tokenizer:
    """Thin wrapper around a SentencePiece processor with this project's special ids."""

    pad_id, unk_id, bos_id, eos_id = PAD_ID, UNK_ID, BOS_ID, EOS_ID
    start_piece = "<s>"  # the label of the decoder's first input, bos_id
    # The language the model writes, when known ("zh"): decoding then restores Chinese punctuation that
    # SentencePiece's NFKC folded into ASCII (model.languages.fullwidth_punctuation). Set by the loader.
    target_lang: str | None = None

    def __init__(self, model_bytes: bytes) -> None:
        self.model_bytes = model_bytes
        self.sp = spm.SentencePieceProcessor()
        try:
            self.sp.LoadFromSerializedProto(model_bytes)
        except Exception as exc:  # sentencepiece raises RuntimeError/OSError on corrupt protos
            raise CheckpointError(f"the tokenizer model is corrupt ({exc})") from None
        if (self.sp.pad_id(), self.sp.unk_id(), self.sp.bos_id(), self.sp.eos_id()) != (PAD_ID, UNK_ID, BOS_ID, EOS_ID):
            raise CheckpointError("the tokenizer's special ids are not pad=0, unk=1, <s>=2, </s>=3")

    @classmethod
    def train(cls, texts: Iterable[str], vocab_size: int, model_type: str = "unigram",
              max_sentences: int = 2_000_000) -> Tokenizer:
        """Learn a vocabulary from both sides of the corpus (the caller interleaves them)."""
        out = io.BytesIO()
        sentences = (t for t in texts if t)
        try:
            spm.SentencePieceTrainer.train(
                sentence_iterator=sentences, model_writer=out, vocab_size=vocab_size,
                model_type=model_type, character_coverage=1.0, pad_id=PAD_ID, unk_id=UNK_ID,
                bos_id=BOS_ID, eos_id=EOS_ID, pad_piece="<pad>", unk_piece="<unk>", bos_piece="<s>",
                eos_piece="</s>", input_sentence_size=max_sentences, shuffle_input_sentence=True,
                hard_vocab_limit=False, split_digits=False, byte_fallback=False, minloglevel=2,
                num_threads=2, max_sentence_length=8192,
            )
        except RuntimeError as exc:
            raise UserError(f"could not train the tokenizer: {exc}") from None
        return cls(out.getvalue())

    @classmethod
    def load(cls, path: Path) -> Tokenizer:
        try:
            return cls(Path(path).read_bytes())
        except FileNotFoundError:
            raise CheckpointError(f"no tokenizer model at {path}") from None

    def save(self, path: Path) -> None:
        Path(path).write_bytes(self.model_bytes)

    @property
    def vocab_size(self) -> int:
        return self.sp.get_piece_size()

    def encode(self, text: str) -> list[int]:
        return self.sp.encode(clean_text(text), out_type=int)

    def encode_target(self, text: str) -> list[int]:
        """The target side of a training pair: the same joint vocabulary (Marian's has its own model)."""
        return self.encode(text)

    def decode(self, ids: Iterable[int]) -> str:
        text = self.sp.decode([i for i in ids if i not in (PAD_ID, BOS_ID, EOS_ID)])
        return fullwidth_punctuation(text) if self.target_lang in ("zh", "ja") else text

    def piece(self, i: int) -> str:
        return self.sp.id_to_piece(int(i))

    def pieces(self, ids: Iterable[int]) -> list[str]:
        return [self.sp.id_to_piece(int(i)) for i in ids]

    # One joint vocabulary: a source id names the same piece as a target id (a Marian model with separate
    # vocabularies is the tokenizer that differs; see model.marian.tokenizer).
    source_pieces = pieces
