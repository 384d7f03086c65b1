"""Marian's tokenizer: a source and a target SentencePiece model, both mapped through one ``vocab.json``.

The ids the model sees are vocab.json's, not SentencePiece's: each side's SentencePiece model only cuts
text into pieces, and the joint vocabulary numbers them. A piece missing from vocab.json is <unk>.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import sentencepiece as spm

from model.errors import CheckpointError
from model.safe_json import loads

SOURCE_SPM, TARGET_SPM, VOCAB = "source.spm", "target.spm", "vocab.json"
FILES = (SOURCE_SPM, TARGET_SPM, VOCAB)
_WORD_START = "\u2581"  # SentencePiece's ▁


def _processor(data: bytes, name: str) -> spm.SentencePieceProcessor:
    sp = spm.SentencePieceProcessor()
    try:
        sp.LoadFromSerializedProto(data)
    except Exception as exc:  # sentencepiece raises RuntimeError/OSError on corrupt protos
        raise CheckpointError(f"{name} is not a SentencePiece model ({exc})") from None
    return sp


def read_vocab(data: bytes, name: str = VOCAB) -> dict[str, int]:
    """vocab.json: {piece: id}, every id a distinct non-negative integer."""
    try:
        vocab = loads(data.decode("utf-8"), name, CheckpointError, max_depth=2)
    except UnicodeDecodeError as exc:
        raise CheckpointError(f"{name} is not valid JSON ({exc})") from None
    if not isinstance(vocab, dict) or not vocab:
        raise CheckpointError(f"{name} must map pieces to ids")
    ids = list(vocab.values())
    if not all(isinstance(i, int) and not isinstance(i, bool) and i >= 0 for i in ids):
        raise CheckpointError(f"{name} holds an id that is not a non-negative integer")
    if len(set(ids)) != len(ids):
        raise CheckpointError(f"{name} gives two pieces the same id")
    return vocab


class MarianTokenizer:
    """Encodes source text and decodes target ids the way Hugging Face's MarianTokenizer does.

    ``vocab_size`` is the model's embedding size (vocab.json may leave rows unnamed, never name more).
    The interface is ``model.tokenizer.Tokenizer``'s, plus ``encode_target`` for training data.
    """

    kind = "marian"
    # The decoder's first input is the pad id, but the views should call it the start, as for our own
    # models, not <pad> (which elsewhere means "no token here").
    start_piece = "<s>"

    def __init__(self, source: bytes, target: bytes, vocab: bytes, vocab_size: int, pad_id: int,
                 eos_id: int) -> None:
        self.files = {SOURCE_SPM: source, TARGET_SPM: target, VOCAB: vocab}
        self.source, self.target = _processor(source, SOURCE_SPM), _processor(target, TARGET_SPM)
        self.vocab = read_vocab(vocab)
        top = max(self.vocab.values())
        if top >= vocab_size or len(self.vocab) > vocab_size:
            raise CheckpointError(f"{VOCAB} has {len(self.vocab)} pieces (ids up to {top}) but the model's "
                                  f"embedding has {vocab_size} rows: it does not belong to this model")
        self.vocab_size, self.pad_id, self.eos_id = vocab_size, pad_id, eos_id
        self.bos_id = pad_id  # Marian's decoder starts from the pad id; there is no <s>
        self.unk_id = self.vocab.get("<unk>")
        if self.unk_id is None:
            raise CheckpointError(f"{VOCAB} has no <unk> piece")
        self._pieces = {i: p for p, i in self.vocab.items()}
        self._special = {pad_id, eos_id, self.unk_id}
        # The target-language code put in front of a sentence that has none (">>cmn_Hans<<" for
        # opus-mt-en-zh, whose card requires one); set by the loader from model.hub.catalogue.
        self.prefix = ""

    @classmethod
    def load(cls, folder: Path, vocab_size: int, pad_id: int, eos_id: int) -> MarianTokenizer:
        data = []
        for name in FILES:
            path = Path(folder) / name
            if not path.is_file():
                raise CheckpointError(f"{folder} is a Marian model without {name} (it needs {', '.join(FILES)})")
            data.append(path.read_bytes())
        return cls(*data, vocab_size=vocab_size, pad_id=pad_id, eos_id=eos_id)

    def save_into(self, folder: Path) -> None:
        for name, data in self.files.items():
            (Path(folder) / name).write_bytes(data)

    def _ids(self, pieces: Iterable[str]) -> list[int]:
        return [self.vocab.get(p, self.unk_id) for p in pieces]

    def encode(self, text: str) -> list[int]:
        """Source text → vocab ids, without </s>. A leading >>lang<< code stays one piece, as in Marian;
        without one, ``prefix`` (if set) is put first."""
        code = [self.prefix] if self.prefix else []
        if text.startswith(">>") and (end := text.find("<<")) != -1:
            code, text = [text[: end + 2]], text[end + 2:]
        return self._ids(code + self.source.encode(text, out_type=str))

    def encode_target(self, text: str) -> list[int]:
        """Target text → vocab ids (training pairs), without </s>."""
        return self._ids(self.target.encode(text, out_type=str))

    def decode(self, ids: Iterable[int]) -> str:
        """Target ids → text; special pieces (pad, </s>, <unk>) are dropped, as with skip_special_tokens."""
        pieces = [self._pieces.get(int(i), "<unk>") for i in ids if int(i) not in self._special]
        return self.target.decode_pieces(pieces).replace(_WORD_START, " ").strip()

    def piece(self, i: int) -> str:
        return self._pieces.get(int(i), f"<{int(i)}>")

    def pieces(self, ids: Iterable[int]) -> list[str]:
        return [self.piece(i) for i in ids]
