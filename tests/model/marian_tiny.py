"""A tiny random Hugging Face Marian model folder, built locally (nothing is downloaded).

Two SentencePiece models are trained here on a few sentences, a joint vocab.json numbers their pieces
the way OPUS-MT's do (</s> 0, <unk> 1, ..., <pad> last), and a MarianMTModel with random weights is
saved next to them. The weights are drawn wider than transformers' own init (std 0.02) so attention is
peaked and every setting visibly changes the logits.
"""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import sentencepiece as spm

ENGLISH = ["The weather is nice today.", "I have no time.", "Where is the station?", "I love apples.",
           "The cat sleeps on the warm chair.", "We are going home now.", "Thank you very much.",
           "She reads a long book in the garden.", "Good morning, my friend!", "The train is late again."]
GERMAN = ["Das Wetter ist heute schön.", "Ich habe keine Zeit.", "Wo ist der Bahnhof?", "Ich liebe Äpfel.",
          "Die Katze schläft auf dem warmen Stuhl.", "Wir gehen jetzt nach Hause.", "Vielen Dank.",
          "Sie liest ein langes Buch im Garten.", "Guten Morgen, mein Freund!", "Der Zug ist wieder spät."]


def _spm(texts: list[str], size: int) -> bytes:
    out = io.BytesIO()
    spm.SentencePieceTrainer.train(sentence_iterator=iter(texts * 20), model_writer=out, vocab_size=size,
                                   model_type="unigram", character_coverage=1.0, hard_vocab_limit=False,
                                   minloglevel=2, num_threads=1, unk_id=0, bos_id=-1, eos_id=1, pad_id=-1)
    return out.getvalue()


def _pieces(model: bytes) -> list[str]:
    sp = spm.SentencePieceProcessor()
    sp.LoadFromSerializedProto(model)
    return [sp.id_to_piece(i) for i in range(sp.get_piece_size()) if not sp.is_control(i) and not sp.is_unknown(i)]


def build_tokenizer_files(folder: Path) -> dict[str, int]:
    """source.spm, target.spm and vocab.json in ``folder``; returns the vocab."""
    folder.mkdir(parents=True, exist_ok=True)
    source, target = _spm(ENGLISH, 60), _spm(GERMAN, 60)
    (folder / "source.spm").write_bytes(source)
    (folder / "target.spm").write_bytes(target)
    vocab = {"</s>": 0, "<unk>": 1}
    for piece in _pieces(source) + _pieces(target):  # joint: a piece both sides use gets one id
        vocab.setdefault(piece, len(vocab))
    vocab["<pad>"] = len(vocab)
    (folder / "vocab.json").write_text(json.dumps(vocab, ensure_ascii=False), encoding="utf-8")
    return vocab


def build_model(vocab_size: int, seed: int = 0, **config):
    """A random MarianMTModel (eager attention, so it can return its weights)."""
    import torch
    from transformers import MarianConfig, MarianMTModel
    pad = vocab_size - 1
    settings = dict(vocab_size=vocab_size, d_model=32, encoder_layers=2, decoder_layers=2,
                    encoder_attention_heads=4, decoder_attention_heads=4, encoder_ffn_dim=64, decoder_ffn_dim=64,
                    activation_function="swish", scale_embedding=True, pad_token_id=pad, eos_token_id=0,
                    decoder_start_token_id=pad, forced_eos_token_id=0, max_position_embeddings=128,
                    dropout=0.1, attention_dropout=0.0)
    settings.update(config)
    torch.manual_seed(seed)
    model = MarianMTModel(MarianConfig(**settings)).eval()
    model.config._attn_implementation = "eager"
    with torch.no_grad():
        for name, p in model.named_parameters():
            if "embed_positions" in name:
                continue  # the sinusoid table: computed, not learnt
            if "layer_norm" in name:  # γ around 1, β around 0, neither exactly
                p.copy_((1.0 if name.endswith("weight") else 0.0) + 0.1 * torch.randn_like(p))
            elif p.dim() == 2:
                p.normal_(0.0, 0.3)
            else:
                p.normal_(0.0, 0.1)
        model.final_logits_bias.normal_(0.0, 0.5)
        model.final_logits_bias[0, 0] = -1.0  # a little less eager to stop, so outputs have some length
    return model


def make_marian_folder(folder: Path, safetensors: bool = True, seed: int = 0, model=None, **config) -> Path:
    """save_pretrained output plus the tokenizer files: what a user's Marian folder holds.

    model: a MarianMTModel from ``build_model`` to save (the tokenizer files are deterministic, so its
    vocabulary size matches); None builds one.
    """
    tmp = folder.parent / f".tok-{folder.name}"
    vocab = build_tokenizer_files(tmp)
    model = model if model is not None else build_model(len(vocab), seed, **config)
    model.save_pretrained(folder, safe_serialization=safetensors)
    if not safetensors and (folder / "model.safetensors").is_file():
        # transformers 5 always writes safetensors; older versions wrote this very file (a pickled
        # state dict) for safe_serialization=False, as many OPUS-MT folders on disk still hold.
        import torch
        (folder / "model.safetensors").unlink()
        torch.save(model.state_dict(), folder / "pytorch_model.bin")
    for name in ("source.spm", "target.spm", "vocab.json"):
        shutil.copy(tmp / name, folder / name)
    shutil.rmtree(tmp)
    return folder


# Separate vocabularies (share_encoder_decoder_embeddings false): vocab.json numbers the source pieces,
# target_vocab.json the target ones. Both put the special pieces first, at the same ids, since transformers
# takes pad/</s>/<unk> from vocab.json for both sides; the source also has two language codes, so the
# two vocabularies differ in size as well as in their pieces.
SPECIAL = {"</s>": 0, "<unk>": 1, "<pad>": 2}
SEPARATE_PAD = SPECIAL["<pad>"]


def build_separate_tokenizer_files(folder: Path) -> tuple[dict[str, int], dict[str, int]]:
    """source.spm, target.spm, vocab.json (source) and target_vocab.json; returns (source, target) vocab."""
    folder.mkdir(parents=True, exist_ok=True)
    source, target = _spm(ENGLISH, 60), _spm(GERMAN, 60)
    (folder / "source.spm").write_bytes(source)
    (folder / "target.spm").write_bytes(target)
    vocabs = []
    for name, model, extra in (("vocab.json", source, [">>deu<<", ">>nld<<"]), ("target_vocab.json", target, [])):
        vocab = dict(SPECIAL)
        for piece in extra + _pieces(model):
            vocab.setdefault(piece, len(vocab))
        (folder / name).write_text(json.dumps(vocab, ensure_ascii=False), encoding="utf-8")
        vocabs.append(vocab)
    # What transformers' MarianTokenizer.from_pretrained reads to use target_vocab.json.
    (folder / "tokenizer_config.json").write_text(json.dumps({"separate_vocabs": True}), encoding="utf-8")
    return vocabs[0], vocabs[1]


def make_separate_marian_folder(folder: Path, seed: int = 3):
    """(a random MarianMTModel with separate vocabularies, its save_pretrained folder with its tokenizer)."""
    tmp = folder.parent / f".tok-{folder.name}"
    source, target = build_separate_tokenizer_files(tmp)
    assert len(source) != len(target)
    model = build_model(len(source), seed, decoder_vocab_size=len(target), share_encoder_decoder_embeddings=False,
                        pad_token_id=SEPARATE_PAD, decoder_start_token_id=SEPARATE_PAD)
    model.save_pretrained(folder)
    for p in tmp.iterdir():
        shutil.copy(p, folder / p.name)
    shutil.rmtree(tmp)
    return model, folder
