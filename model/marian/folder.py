"""A Hugging Face Marian folder (``save_pretrained`` output or a hub cache snapshot) → our ModelConfig.

Every setting comes from the folder's config.json; a key it leaves out takes MarianConfig's default, as
``transformers`` would. What our Transformer cannot compute exactly (encoder and decoder of different
sizes, another activation) is refused with one line rather
than run approximately.
"""

from __future__ import annotations

from pathlib import Path

from model.config import ModelConfig
from model.errors import CheckpointError, UserError
from model.safe_json import read_json

CONFIG = "config.json"

# transformers' MarianConfig defaults, for keys a config.json leaves out (tests compare them with the
# installed transformers).
DEFAULTS = {
    "vocab_size": 58101, "decoder_vocab_size": None, "encoder_layers": 12, "decoder_layers": 12,
    "encoder_attention_heads": 16, "decoder_attention_heads": 16, "encoder_ffn_dim": 4096,
    "decoder_ffn_dim": 4096, "d_model": 1024, "activation_function": "gelu", "dropout": 0.1,
    "attention_dropout": 0.0, "scale_embedding": False, "pad_token_id": 58100, "eos_token_id": 0,
    "decoder_start_token_id": 58100, "share_encoder_decoder_embeddings": True, "tie_word_embeddings": True,
}
# Marian's activation names → ours. transformers' "gelu" is the exact (erf) GELU, as is torch's.
ACTIVATIONS = {"swish": "swish", "silu": "swish", "relu": "relu", "gelu": "gelu"}


def cache_snapshot(path: Path) -> Path | None:
    """The snapshot a hub cache folder (``models--org--name``) points at through refs/main, else None.

    Only what is on disk is used: the ref's snapshot, or the only snapshot there is. Nothing is fetched.
    """
    snapshots = path / "snapshots"
    if not snapshots.is_dir():
        return None
    ref = path / "refs" / "main"
    if ref.is_file():
        name = ref.read_text(encoding="utf-8").strip()
        if name and "/" not in name and (snapshots / name / CONFIG).is_file():
            return snapshots / name
    found = [p for p in snapshots.iterdir() if (p / CONFIG).is_file()]
    return found[0] if len(found) == 1 else None


def display_name(folder: Path) -> str:
    """org/name for a hub cache snapshot (its own folder name is a commit hash), else the folder's name."""
    if folder.parent.name == "snapshots" and folder.parent.parent.name.startswith("models--"):
        return folder.parent.parent.name.removeprefix("models--").replace("--", "/")
    return folder.name


def read_hf_config(folder: Path) -> dict | None:
    """The folder's config.json when it is a Hugging Face one (it has ``model_type``), else None."""
    try:
        data = read_json(folder / CONFIG, CheckpointError, max_bytes=1 << 20)
    except (OSError, CheckpointError):
        return None  # read_config gives the message for a broken config.json
    if not isinstance(data, dict) or "model_type" not in data or "model" in data:
        return None
    if data["model_type"] != "marian":
        raise CheckpointError(f"{folder} holds a Hugging Face {data['model_type']!r} model; only Marian "
                              "(OPUS-MT) models can be opened")
    return data


def _int(value, name: str, where: Path) -> int:
    if isinstance(value, list) and len(value) == 1:  # eos_token_id may be a one-element list
        value = value[0]
    if not isinstance(value, int) or isinstance(value, bool):
        raise CheckpointError(f"{where / CONFIG}: {name} must be an integer, got {value!r}")
    return value


def marian_config(hf: dict, where: Path) -> tuple[ModelConfig, bool]:
    """(our ModelConfig for this Marian config, whether the output projection is the decoder's embedding)."""
    c = {**DEFAULTS, **{k: v for k, v in hf.items() if v is not None or k == "decoder_vocab_size"}}
    vocab = _int(c["vocab_size"], "vocab_size", where)
    for enc, dec in (("encoder_layers", "decoder_layers"), ("encoder_attention_heads", "decoder_attention_heads"),
                     ("encoder_ffn_dim", "decoder_ffn_dim")):
        if c[enc] != c[dec]:
            raise CheckpointError(f"{where}: {enc} {c[enc]} ≠ {dec} {c[dec]}; only models whose encoder and "
                                  "decoder have the same size can be opened")
    # Separate vocabularies (share_encoder_decoder_embeddings false): vocab_size is the encoder's,
    # decoder_vocab_size (default: the same) the decoder's and lm_head's. Ours is the other way round:
    # vocab_size is the target's, src_vocab_size the source's.
    separate = not c["share_encoder_decoder_embeddings"]
    target_vocab = vocab
    if c["decoder_vocab_size"] is not None:
        target_vocab = _int(c["decoder_vocab_size"], "decoder_vocab_size", where)
    if not separate and target_vocab != vocab:
        raise CheckpointError(f"{where / CONFIG}: decoder_vocab_size {target_vocab} ≠ vocab_size {vocab}, but "
                              "share_encoder_decoder_embeddings says one matrix serves both")
    act = ACTIVATIONS.get(c["activation_function"])
    if act is None:
        raise CheckpointError(f"{where}: activation {c['activation_function']!r} is not supported "
                              f"(supported: {', '.join(ACTIVATIONS)})")
    pad = _int(c["pad_token_id"], "pad_token_id", where)
    start = _int(c["decoder_start_token_id"], "decoder_start_token_id", where)
    tied = bool(c["tie_word_embeddings"])
    try:
        cfg = ModelConfig(
            vocab_size=target_vocab, src_vocab_size=vocab if separate else 0,
            n_layers=_int(c["encoder_layers"], "encoder_layers", where),
            d_model=_int(c["d_model"], "d_model", where),
            n_heads=_int(c["encoder_attention_heads"], "encoder_attention_heads", where),
            d_ff=_int(c["encoder_ffn_dim"], "encoder_ffn_dim", where), dropout=float(c["dropout"]),
            attn_dropout=float(c["attention_dropout"]), share_embeddings=tied and not separate, norm_eps=1e-5,
            pad_id=pad, bos_id=start, eos_id=_int(c["eos_token_id"], "eos_token_id", where),
            pe_layout="halves", activation=act, scale_embedding=bool(c["scale_embedding"]),
            final_logits_bias=True)
    except (TypeError, ValueError, UserError) as exc:
        raise CheckpointError(f"{where / CONFIG}: {exc}") from None
    return cfg, tied
