"""``attention-explorer import-marian SRC --out DIR``: a Marian folder → one of our model folders."""

from __future__ import annotations

from pathlib import Path


def _run_import(a) -> int:
    from model.checkpoint import load_model
    from model.files import check_new_folder
    from model.marian.load import import_marian
    check_new_folder(a.out, "--out")  # it replaced whatever folder was named there, the source itself too
    out = import_marian(Path(a.source), Path(a.out))
    loaded = load_model(out)  # prove the result opens before saying so
    print(f"imported {a.source} into {out} ({loaded.model.num_parameters():,} parameters, "
          f"{loaded.config.n_layers} + {loaded.config.n_layers} layers, d_model {loaded.config.d_model}, "
          f"vocabulary {loaded.config.vocab_size:,})")
    return 0


def add_cli(subparsers) -> None:
    """Register ``import-marian`` on an argparse sub-parser collection."""
    p = subparsers.add_parser("import-marian", help="convert a Hugging Face Marian (OPUS-MT) folder into a "
                                                    "model folder of this app (reads only local files)")
    p.add_argument("source", metavar="SRC", help="a Marian folder: save_pretrained output, a hub cache "
                                                 "snapshot, or its models--org--name folder")
    p.add_argument("--out", required=True, metavar="DIR", help="the model folder to write")
    p.set_defaults(func=_run_import)
