"""Our model, weight for weight, as a CTranslate2 model: the yardstick of the speed comparisons.

Needs the ``bench`` extra (``pip install -e .[bench]``: ctranslate2); never imported by the app. The spec is
CTranslate2's own TransformerSpec for the paper's model as ours is: post-norm residuals (``pre_norm=False``,
no final layer norm), ReLU (or the model's activation), embeddings scaled by √d_model, our sinusoidal
table (its interleaved sin/cos layout, which is not CTranslate2's default), one embedding shared by source,
target and the output projection, and our layer-norm ε. The padding piece gets a −1e9 output bias, as our
search never chooses it (``Transformer.next_logits`` sets it to −inf).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

ACTIVATIONS = {"relu": "RELU", "gelu": "GELU", "swish": "SWISH"}


def _np(t) -> np.ndarray:
    return t.detach().float().cpu().numpy().copy()


def _linear(spec, weight, bias) -> None:
    spec.weight, spec.bias = _np(weight), _np(bias)


def _norm(spec, norm) -> None:
    spec.gamma, spec.beta = _np(norm.weight), _np(norm.bias)


def _attention(spec, mha, cross: bool) -> None:
    d = mha.w_o.in_features
    if cross:  # CTranslate2 keeps the query apart and K;V fused for encoder-decoder attention
        _linear(spec.linear[0], mha.w_qkv.weight[:d], mha.w_qkv.bias[:d])
        _linear(spec.linear[1], mha.w_qkv.weight[d:], mha.w_qkv.bias[d:])
    else:  # Q;K;V stacked row-wise, exactly our w_qkv
        _linear(spec.linear[0], mha.w_qkv.weight, mha.w_qkv.bias)
    _linear(spec.linear[-1], mha.w_o.weight, mha.w_o.bias)


def convert(loaded, out_dir: str | Path, quantization: str | None = None) -> Path:
    """Write the CTranslate2 model of ``loaded`` (a ``LoadedModel``) to ``out_dir``; returns the folder.

    quantization: None (float32 as stored) or "int8" (CTranslate2's int8 weights)."""
    import ctranslate2
    from ctranslate2.specs import common_spec, transformer_spec

    from model.layers import sinusoidal_table
    model, cfg, tok = loaded.model, loaded.config, loaded.tokenizer
    if not cfg.share_embeddings or cfg.final_logits_bias:
        raise ValueError("the CTranslate2 comparison converts models with one shared embedding and no logits bias")
    spec = transformer_spec.TransformerSpec.from_config(
        (cfg.n_layers, cfg.n_layers), cfg.n_heads, pre_norm=False, no_final_norm=True,
        activation=getattr(common_spec.Activation, ACTIVATIONS[cfg.activation]))
    table = _np(sinusoidal_table(1024, cfg.d_model, cfg.pe_layout))
    emb = _np(model.embedding.weight)
    for side in (spec.encoder, spec.decoder):
        side.scale_embeddings = bool(cfg.scale_embedding)  # × √d_model, as Transformer.embed does
        side.position_encodings.encodings = table
        embeddings = side.embeddings[0] if isinstance(side.embeddings, list) else side.embeddings
        embeddings.weight = emb
    for layer, ours in zip(spec.encoder.layer, model.encoder):
        _attention(layer.self_attention, ours.self_attn, cross=False)
        _norm(layer.self_attention.layer_norm, ours.norm_1)
        _linear(layer.ffn.linear_0, ours.feed_forward.w_1.weight, ours.feed_forward.w_1.bias)
        _linear(layer.ffn.linear_1, ours.feed_forward.w_2.weight, ours.feed_forward.w_2.bias)
        _norm(layer.ffn.layer_norm, ours.norm_2)
    for layer, ours in zip(spec.decoder.layer, model.decoder):
        _attention(layer.self_attention, ours.self_attn, cross=False)
        _norm(layer.self_attention.layer_norm, ours.norm_1)
        _attention(layer.attention, ours.cross_attn, cross=True)
        _norm(layer.attention.layer_norm, ours.norm_2)
        _linear(layer.ffn.linear_0, ours.feed_forward.w_1.weight, ours.feed_forward.w_1.bias)
        _linear(layer.ffn.linear_1, ours.feed_forward.w_2.weight, ours.feed_forward.w_2.bias)
        _norm(layer.ffn.layer_norm, ours.norm_3)
    bias = np.zeros(cfg.vocab_size, dtype=np.float32)
    bias[cfg.pad_id] = -1e9
    spec.decoder.projection.weight, spec.decoder.projection.bias = emb, bias
    vocab = [tok.piece(i) for i in range(cfg.vocab_size)]
    spec.register_source_vocabulary(vocab)
    spec.register_target_vocabulary(vocab)
    spec.config.layer_norm_epsilon = cfg.norm_eps
    spec.config.unk_token, spec.config.bos_token = tok.piece(tok.unk_id), tok.piece(cfg.bos_id)
    spec.config.eos_token = tok.piece(cfg.eos_id)
    spec.config.decoder_start_token = tok.piece(cfg.bos_id)
    spec.validate()
    if quantization:
        spec.optimize(quantization=quantization)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    spec.save(str(out_dir))
    assert ctranslate2.contains_model(str(out_dir))
    return out_dir


def greedy_ids(translator, loaded, texts: list[str], max_extra: int = 50, batch_size: int = 64) -> list[list[int]]:
    """CTranslate2's greedy output ids (no </s>) for each text, bounded as ``translate_many`` bounds ours.

    The batches are ours (``sentence_batches``' order: sorted by source length, then 64 at a time), as
    ``translate_batch(max_batch_size=64)`` would sort them itself: fed in text order instead, its batches
    padded more and it ran ~20 % slower (1,000 held-out sentences, int8, one thread: 1.49 against 1.23 s).
    """
    tok, eos = loaded.tokenizer, loaded.config.eos_id
    sources = [tok.pieces(tok.encode(t) + [eos]) for t in texts]
    order = sorted(range(len(sources)), key=lambda i: len(sources[i]))  # stable, as sentence_batches sorts
    out: list[list[int]] = [[] for _ in sources]
    for start in range(0, len(order), batch_size):
        idx = order[start:start + batch_size]
        batch = [sources[i] for i in idx]
        results = translator.translate_batch(batch, beam_size=1, max_decoding_length=max(len(s) for s in batch)
                                             + max_extra)
        for i, r in zip(idx, results):
            out[i] = [tok.sp.piece_to_id(p) for p in r.hypotheses[0]]
    return out
