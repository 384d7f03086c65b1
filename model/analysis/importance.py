"""Head importance over a test set, after Michel et al. 2019 ("Are Sixteen Heads Really Better than One?").

Each head is removed alone and the test set translated again (greedy, batched over sentences and over
ablations: ``model.analysis.batched_ablation``): the drop in BLEU and chrF from the full model is that
head's importance. Then heads are removed cumulatively in
order of least importance (the smallest BLEU drop first, Michel et al.'s pruning curve) to show how many
the model can lose. Results can be cached in a JSON file keyed by the model's weights and the data, since
a run costs (1 + 2·3·L·H) passes over the test set. The window keeps one cache file per model folder
(``model_cache``), so reopening a model shows its last run at once.
"""

from __future__ import annotations

import hashlib
import json
import os
from contextlib import contextmanager
from pathlib import Path

from model.analysis.batched_ablation import decode_ablations
from model.analysis.held_out import check
from model.checkpoint import WEIGHTS, LoadedModel
from model.decoding.ablation import Head
from model.decoding.threads import eval_threads
from model.errors import UserError
from model.files import write_atomic
from model.languages import bleu_tokenizer
from model.records import KINDS
from model.records.research import HeadScore, Importance, format_head
from model.safe_json import read_json

CACHE_VERSION = 1
CACHE_ENV = "ATTENTION_EXPLORER_CACHE"  # a folder for the caches instead of ~/.cache/attention-explorer


def model_cache(model_path: str | Path) -> Path:
    """The importance cache file of one model folder (named by its resolved path) in the user's cache."""
    root = Path(os.environ.get(CACHE_ENV) or Path.home() / ".cache" / "attention-explorer")
    name = hashlib.sha256(str(Path(model_path).resolve()).encode("utf-8")).hexdigest()[:16]
    return root / "importance" / f"{name}.json"


def cache_key(model_path: str | Path, src: list[str], ref: list[str]) -> str:
    """sha256 of the model's weights file and of the data: a retrained or edited model misses the cache."""
    h = hashlib.sha256()
    weights = Path(model_path) / WEIGHTS
    try:
        with weights.open("rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
    except OSError as exc:
        raise UserError(f"cannot read the weights {weights} to key the cache: {exc}") from None
    h.update(json.dumps([CACHE_VERSION, src, ref], ensure_ascii=False).encode("utf-8"))
    return h.hexdigest()


def _score(hyps: list[str], ref: list[str]) -> tuple[float, float]:
    """BLEU (zh tokenizer for Chinese references: model.languages) and chrF."""
    import sacrebleu
    bleu = sacrebleu.corpus_bleu(hyps, [ref], tokenize=bleu_tokenizer(references=ref)).score
    return round(bleu, 4), round(sacrebleu.corpus_chrf(hyps, [ref]).score, 4)


def head_importance(loaded: LoadedModel, src: list[str], ref: list[str], progress=None,
                    cache: Path | None = None, should_stop=None) -> Importance:
    """BLEU/chrF of the full model, with each head removed alone, and along the pruning curve.

    progress(done, total) after each group of passes over the test set (``done`` passes so far). cache: a
    JSON file of earlier results (one per key); a hit returns them without translating, a miss adds this
    run's. should_stop: checked at every decoding step; when it returns true the run raises ``Cancelled``
    and stores nothing.
    """
    if len(src) != len(ref) or not src:
        raise UserError(f"need as many references as sentences, and at least one ({len(src)} and {len(ref)})")
    key = cache_key(loaded.path, src, ref) if cache is not None else ""
    stored = _read_cache(cache) if cache is not None else {}
    if key in stored:
        return Importance.from_json(stored[key], cached=True)
    cfg = loaded.config
    heads: list[Head] = [(k, layer, h) for k in KINDS for layer in range(cfg.n_layers) for h in range(cfg.n_heads)]
    total = 1 + 2 * len(heads)
    threads = eval_threads()

    def run(ablations: list[list[Head]], before: int) -> list[tuple[float, float]]:
        """Scores of each ablation; all of them decoded in batches of many ablations at once."""
        report = None if progress is None else (lambda n: progress(before + n, total))
        with cancel_hook(loaded.model, should_stop):
            hyps = decode_ablations(loaded.model, loaded.tokenizer, src, ablations, threads=threads,
                                    progress=report)
        return [_score(h, ref) for h in hyps]

    first = run([[]] + [[h] for h in heads], 0)
    (bleu, chrf), alone = first[0], [HeadScore(format_head(h), *s) for h, s in zip(heads, first[1:])]
    # Least important first: the highest BLEU without it; ties keep kind, layer, head order (stable sort).
    order = sorted(range(len(heads)), key=lambda i: -alone[i].bleu)
    scores = run([[heads[j] for j in order[:n + 1]] for n in range(len(order))], 1 + len(heads))
    curve = tuple(HeadScore(format_head(heads[i]), *s) for i, s in zip(order, scores))
    result = Importance(len(src), bleu, chrf, tuple(alone), curve)
    if cache is not None:
        stored[key] = result.to_json()
        cache.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(cache, json.dumps(stored, indent=1))
    return result


@contextmanager
def cancel_hook(model, should_stop):
    """Check ``should_stop`` at every decoding step, so Cancel answers within one step (tens of ms), not one
    batch of sentences (seconds on a busy CPU). A forward pre-hook on the first decoder layer, which every
    step runs, raises ``Cancelled``; the batches stay as the command line makes them, so the numbers match."""
    if should_stop is None:
        yield
        return
    try:
        target = model.decoder[0]  # our Transformer's nn.ModuleList of decoder layers
    except (AttributeError, TypeError, IndexError):
        target = model  # another module layout: checked once per call instead
    handle = target.register_forward_pre_hook(lambda *_: check(should_stop))
    try:
        check(should_stop)
        yield
    finally:
        handle.remove()


def cached_importance(model_path: str | Path, src: list[str], ref: list[str], cache: Path) -> Importance | None:
    """The stored result for this model and data, without loading the model; None on a miss."""
    stored = _read_cache(cache)
    key = cache_key(model_path, src, ref)
    return Importance.from_json(stored[key], cached=True) if key in stored else None


def _read_cache(path: Path) -> dict:
    if not path.exists():
        return {}
    try:
        data = read_json(path)
    except (OSError, UserError) as exc:
        raise UserError(f"cannot read the cache {path} ({exc}); delete it or choose another --cache") from None
    if not isinstance(data, dict):
        raise UserError(f"{path} is not a head-importance cache; delete it or choose another --cache")
    return data
