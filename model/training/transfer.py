"""Transfer from a parent model (Zoph et al. 2016, "Transfer Learning for Low-Resource Neural Machine
Translation"): a child model for another pair starts from the parent's weights instead of random ones.

Why: trained from scratch on Tatoeba's 24k English–Chinese pairs, the built-in model's cross-attention
stayed uniform for 4,200 steps (every query's weights ≈ 1/S in every layer and head): it translated from
an average of the source, scored valid BLEU ≈ 10, and had nothing to show a class about which English word
"苹果" looks at. The English→German model, trained on 160k pairs, has sharp cross-attention and an encoder
that already reads English; the child keeps all of its layers and learns only what differs.

The child has its own vocabulary (a joint SentencePiece model that covers Chinese), so the embedding is
rebuilt: a piece both vocabularies have keeps the parent's row (818 of the 4,000 for en-zh: the common
English pieces), every other row starts as a fresh model's does (normal, std d_model^-0.5). Everything else
is copied as it is. The result is an ordinary model folder without a training state: ``train --resume`` it
with the child's corpus and a new ``--out`` (a fresh optimizer and schedule from step 0).

    python -m model.training.transfer --parent assets/models/en-de --tokenizer runs/en-zh/step-…/spm.model \\
        --out runs/en-zh-init --dropout 0.2
"""

from __future__ import annotations

import argparse
from pathlib import Path

import torch

from model.checkpoint import load_model, save_model
from model.errors import UserError
from model.tokenizer import Tokenizer
from model.transformer import Transformer


def transfer(parent_dir: Path, tokenizer: Tokenizer, dropout: float | None = None, seed: int = 1
             ) -> tuple[Transformer, int]:
    """The child model (parent layers, rebuilt embedding) and how many embedding rows it kept."""
    parent = load_model(parent_dir)
    if parent.config.share_embeddings is not True:
        raise UserError("transfer needs a parent with one shared embedding (the paper's, and this app's default)")
    cfg = parent.config.replace(vocab_size=tokenizer.vocab_size,
                                **({"dropout": dropout} if dropout is not None else {}))
    torch.manual_seed(seed)
    child = Transformer(cfg)
    own = parent.model.state_dict()
    state = child.state_dict()
    for name, tensor in own.items():
        if name != "embedding.weight" and name in state and state[name].shape == tensor.shape:
            state[name] = tensor.clone()
    rows = {parent.tokenizer.piece(i): i for i in range(parent.tokenizer.vocab_size)}
    kept = 0
    for i in range(tokenizer.vocab_size):
        j = rows.get(tokenizer.piece(i))
        if j is not None:
            state["embedding.weight"][i] = own["embedding.weight"][j]
            kept += 1
    child.load_state_dict(state)
    return child, kept


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m model.training.transfer", description=__doc__.splitlines()[0])
    p.add_argument("--parent", type=Path, required=True, help="the parent model folder")
    p.add_argument("--tokenizer", type=Path, required=True, help="the child's SentencePiece model (spm.model)")
    p.add_argument("--out", type=Path, required=True, help="folder for the child's starting weights")
    p.add_argument("--dropout", type=float, default=None, help="the child's dropout (default: the parent's)")
    a = p.parse_args(argv)
    tok = Tokenizer.load(a.tokenizer)
    child, kept = transfer(a.parent, tok, a.dropout)
    save_model(a.out, child, tok, meta={"step": 0, "epoch": 0, "elapsed_s": 0.0,
                                        "transfer": {"parent": str(a.parent), "embedding_rows_kept": kept}})
    print(f"child of {a.parent}: {kept} of {tok.vocab_size} embedding rows from the parent -> {a.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
