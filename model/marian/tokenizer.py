"""Marian's tokenizer: a source and a target SentencePiece model, mapped through ``vocab.json``.

The ids the model sees are vocab.json's, not SentencePiece's: each side's SentencePiece model only cuts
text into pieces, and the joint vocabulary numbers them. A piece missing from vocab.json is <unk>.
A model with separate vocabularies also has ``target_vocab.json``: vocab.json then numbers the source
pieces (the encoder's ids) and target_vocab.json the target ones (the decoder's and the output's), as
transformers' MarianTokenizer does with ``separate_vocabs``.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import sentencepiece as spm

from model.errors import CheckpointError
from model.safe_json import loads

SOURCE_SPM, TARGET_SPM, VOCAB, TARGET_VOCAB = "source.spm", "target.spm", "vocab.json", "target_vocab.json"
FILES = (SOURCE_SPM, TARGET_SPM, VOCAB)  # target_vocab.json only for separate vocabularies
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


def _checked(vocab: dict[str, int], name: str, rows: int) -> dict[str, int]:
    """The vocabulary, if every id is a row of its embedding (it may leave rows unnamed, never name more)."""
    top = max(vocab.values())
    if top >= rows or len(vocab) > rows:
        raise CheckpointError(f"{name} has {len(vocab)} pieces (ids up to {top}) but the model's embedding has "
                              f"{rows} rows: it does not belong to this model")
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
                 eos_id: int, target_vocab: bytes | None = None, source_vocab_size: int | None = None) -> None:
        """vocab_size: rows of the decoder's embedding; source_vocab_size: the encoder's (None = the same).
        target_vocab: target_vocab.json's bytes for separate vocabularies, else None (vocab.json serves both)."""
        self.files = {SOURCE_SPM: source, TARGET_SPM: target, VOCAB: vocab}
        if target_vocab is not None:
            self.files[TARGET_VOCAB] = target_vocab
        self.source, self.target = _processor(source, SOURCE_SPM), _processor(target, TARGET_SPM)
        self.source_vocab_size = source_vocab_size or vocab_size
        self.vocab = _checked(read_vocab(vocab), VOCAB, self.source_vocab_size)
        self.target_vocab = (self.vocab if target_vocab is None
                             else _checked(read_vocab(target_vocab, TARGET_VOCAB), TARGET_VOCAB, vocab_size))
        self.separate = target_vocab is not None
        self.vocab_size, self.pad_id, self.eos_id = vocab_size, pad_id, eos_id
        self.bos_id = pad_id  # Marian's decoder starts from the pad id; there is no <s>
        # transformers takes the special ids (pad, </s>, <unk>) from vocab.json for both sides.
        self.unk_id = self.vocab.get("<unk>")
        if self.unk_id is None:
            raise CheckpointError(f"{VOCAB} has no <unk> piece")
        self.target_unk_id = self.target_vocab.get("<unk>", self.unk_id)
        self._source_pieces = {i: p for p, i in self.vocab.items()}
        self._pieces = {i: p for p, i in self.target_vocab.items()}
        self._special = {pad_id, eos_id, self.unk_id}
        # The target-language code put in front of a sentence that has none (">>cmn_Hans<<" for
        # opus-mt-en-zh, whose card requires one); set by the loader from model.hub.catalogue.
        self.prefix = ""

    @classmethod
    def load(cls, folder: Path, vocab_size: int, pad_id: int, eos_id: int,
             source_vocab_size: int | None = None) -> MarianTokenizer:
        data = []
        for name in FILES:
            path = Path(folder) / name
            if not path.is_file():
                raise CheckpointError(f"{folder} is a Marian model without {name} (it needs {', '.join(FILES)})")
            data.append(path.read_bytes())
        target_vocab = Path(folder) / TARGET_VOCAB
        if source_vocab_size and not target_vocab.is_file():
            raise CheckpointError(f"{folder} is a Marian model with separate vocabularies without {TARGET_VOCAB}")
        return cls(*data, vocab_size=vocab_size, pad_id=pad_id, eos_id=eos_id, source_vocab_size=source_vocab_size,
                   target_vocab=target_vocab.read_bytes() if target_vocab.is_file() else None)

    def save_into(self, folder: Path) -> None:
        for name, data in self.files.items():
            (Path(folder) / name).write_bytes(data)

    def _ids(self, pieces: Iterable[str]) -> list[int]:
        return [self.vocab.get(p, self.unk_id) for p in pieces]

    def _target_ids(self, pieces: Iterable[str]) -> list[int]:
        return [self.target_vocab.get(p, self.target_unk_id) for p in pieces]

    def encode(self, text: str) -> list[int]:
        """Source text → vocab ids, without </s>. A leading >>lang<< code stays one piece, as in Marian;
        without one, ``prefix`` (if set) is put first."""
        code = [self.prefix] if self.prefix else []
        if text.startswith(">>") and (end := text.find("<<")) != -1:
            code, text = [text[: end + 2]], text[end + 2:]
        return self._ids(code + self.source.encode(text, out_type=str))

    def encode_target(self, text: str) -> list[int]:
        """Target text → vocab ids (training pairs), without </s>."""
        return self._target_ids(self.target.encode(text, out_type=str))

    def decode(self, ids: Iterable[int]) -> str:
        """Target ids → text; special pieces (pad, </s>, <unk>) are dropped, as with skip_special_tokens."""
        special = self._special | {self.target_unk_id}
        pieces = [self._pieces.get(int(i), "<unk>") for i in ids if int(i) not in special]
        return self.target.decode_pieces(pieces).replace(_WORD_START, " ").strip()

    def piece(self, i: int) -> str:
        """A target id's piece (what the decoder reads and the output scores)."""
        return self._pieces.get(int(i), f"<{int(i)}>")

    def pieces(self, ids: Iterable[int]) -> list[str]:
        return [self.piece(i) for i in ids]

    def source_pieces(self, ids: Iterable[int]) -> list[str]:
        """Source ids' pieces (what the encoder reads): vocab.json's, which differ from the target's
        when the vocabularies are separate."""
        return [self._source_pieces.get(int(i), f"<{int(i)}>") for i in ids]
