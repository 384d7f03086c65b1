"""Translation latency of the model the app would show, through the same ``translate`` the GUI worker calls.

Which model: the built-in one (``assets/models/en-de`` or $ATTENTION_EXPLORER_MODEL); else the newest
checkpoint of the default training run (a folder with a LATEST file, see ``RUN_FOLDERS``); else a randomly
initialised ``small`` model with a freshly trained tokenizer. A random model rarely emits </s>, so its
outputs run to the length limit (source + 50 pieces): its timings are an upper bound for a trained model.

Sentences of about 5, 20 and 50 pieces are picked from ``CANDIDATES`` by their length under the model's
own tokenizer. Every configuration (search × capture × cache × sentence) is timed once per round, in
turn, and summarised as p50 / p95 over the rounds.

The translations run on a worker thread, as in the app (its model worker is a QThread), and
``translate`` itself runs on ``model.decoding.decode.DECODE_THREADS`` intra-op threads, as the app's do.
"""

from __future__ import annotations

import dataclasses
import os
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

import torch

from benchmarks.machine import interleaved, median_ratio, summary_ms
from model import checkpoint as ckpt
from model.checkpoint import LoadedModel
from model.config import BOS_ID, preset
from model.decoding.decode import encode_source, translate
from model.decoding.int8 import search_copy
from model.tokenizer import Tokenizer
from model.transformer import DecoderState, Transformer

REPO_ROOT = Path(__file__).resolve().parents[1]
# Elsewhere than the repository (the Makefile's RUN and DATA): $ATTENTION_EXPLORER_BENCH_RUN names a run folder,
# $ATTENTION_EXPLORER_BENCH_DATA a corpus folder with valid.en and valid.de.
RUN_FOLDERS = tuple(Path(p) for p in (os.environ.get("ATTENTION_EXPLORER_BENCH_RUN"),) if p) + (
    REPO_ROOT / "runs" / "default",)
CORPUS_FOLDERS = tuple(Path(p) for p in (os.environ.get("ATTENTION_EXPLORER_BENCH_DATA"),) if p) + (
    REPO_ROOT / "data" / "ding-en-de", REPO_ROOT / "data" / "ding-mix-v1")
TARGET_LENGTHS = (5, 20, 50)
LONG_OUTPUT = 100  # pieces decoded, whatever the model says, to time the cache on a long output
CANDIDATES = (
    "Where is the station?",
    "I like green tea.",
    "The weather is nice today.",
    "Could you please close the window?",
    "She had no idea what she was in for when she agreed to look after the dogs.",
    "The committee decided to postpone the meeting until the new budget had been approved.",
    "We walked along the river for an hour, and then we sat down in a small café near the old bridge.",
    ("Although the train had been delayed by more than two hours because of a signal failure near the "
     "border, most of the passengers stayed calm, and a few of them even started talking to strangers."),
    ("Although the train had been delayed by more than two hours because of a signal failure near the "
     "border, most of the passengers stayed calm, and a few of them even started talking to strangers "
     "about their plans for the long weekend in the mountains."),
    ("When the old library finally reopened after three years of careful restoration, hundreds of people "
     "queued in the rain outside the main entrance, eager to see the painted ceilings, the restored "
     "reading room and the collection of maps that had been hidden in the cellar during the war."),
)


@dataclass
class BenchModel:
    loaded: LoadedModel
    folder: Path  # a model folder the GUI can open (a private copy when the source may change)
    source: str  # "built-in" | "checkpoint" | "random"
    origin: str  # where it came from

    def describe(self) -> dict:
        cfg = self.loaded.config
        return {"source": self.source, "origin": self.origin, "n_params": self.loaded.model.num_parameters(),
                "n_layers": cfg.n_layers, "d_model": cfg.d_model, "n_heads": cfg.n_heads,
                "vocab_size": cfg.vocab_size, "step": self.loaded.meta.get("step")}


def corpus_folder() -> Path | None:
    """The first folder holding valid.en and valid.de, for realistic sentence lengths and tokenizer text."""
    for folder in CORPUS_FOLDERS:
        if (folder / "valid.en").is_file() and (folder / "valid.de").is_file():
            return folder
    return None


def tokenizer_text(limit: int) -> list[str]:
    """Text to train a stand-in tokenizer on: the corpus if there is one, else the 'dates' task."""
    folder = corpus_folder()
    if folder is not None:
        lines: list[str] = []
        for name in ("train.en", "train.de", "valid.en", "valid.de"):
            path = folder / name
            if path.is_file():
                with path.open(encoding="utf-8") as fh:
                    lines.extend(line.strip() for _, line in zip(range(limit // 2), fh))
        return [line for line in lines if line]
    from model.training.tasks import make_task
    return [side for pair in make_task("dates", limit // 2, seed=0) for side in pair] + list(CANDIDATES)


def resolve_model(workdir: Path, quick: bool = False) -> BenchModel:
    """The built-in model, else the newest run checkpoint (copied to workdir), else a random one."""
    folder = ckpt.default_model_dir()
    if folder is not None:
        return BenchModel(ckpt.load_model(folder), folder, "built-in", str(folder))
    for run in RUN_FOLDERS:
        if (run / ckpt.LATEST).is_file():
            try:
                loaded = ckpt.load_model(run)
            except ckpt.CheckpointError:
                continue  # e.g. rotated away between reading LATEST and loading it: try the next
            # The run keeps writing and rotating checkpoints; the GUI section opens a private copy.
            copy = ckpt.save_model(workdir / "checkpoint-copy", loaded.model, loaded.tokenizer, meta=loaded.meta)
            return BenchModel(loaded, copy, "checkpoint", str(loaded.path))
    tok = Tokenizer.train(tokenizer_text(4_000 if quick else 40_000), 2_000 if quick else 8_000)
    torch.manual_seed(0)
    model = Transformer(preset("small", vocab_size=tok.vocab_size)).eval()
    folder = ckpt.save_model(workdir / "random-small", model, tok, meta={"note": "random weights (benchmark)"})
    return BenchModel(ckpt.load_model(folder), folder, "random", "randomly initialised small preset")


def pick_sentences(tok: Tokenizer) -> dict[int, str]:
    """For each target length, the candidate whose piece count is closest to it."""
    lengths = {text: len(tok.encode(text)) for text in CANDIDATES}
    return {n: min(CANDIDATES, key=lambda text: (abs(lengths[text] - n), lengths[text])) for n in TARGET_LENGTHS}


@torch.no_grad()
def forced_decode(model: Transformer, src: torch.Tensor, steps: int, use_cache: bool) -> None:
    """Greedy-decode exactly ``steps`` pieces, never stopping at </s>: a long output on any model."""
    memory, _ = model.encode(src)
    state = DecoderState(model, memory, src) if use_cache else None
    seqs = torch.full((src.size(0), 1), BOS_ID, dtype=torch.long, device=src.device)
    for _ in range(steps):
        hidden, _, _ = model.decode(seqs[:, -1:] if use_cache else seqs, memory, src, state=state)
        seqs = torch.cat([seqs, model.generator(hidden[:, -1]).argmax(-1, keepdim=True)], dim=1)


def run(bench: BenchModel, quick: bool = False, log=print) -> dict:
    """Greedy and beam-4 translation of each sentence, with and without capture and cache."""
    loaded = bench.loaded
    sentences = pick_sentences(loaded.tokenizer)
    if quick:  # a smoke test: the 20-piece sentence only, outputs capped early
        sentences = {20: sentences[20]}
    rounds = 2 if quick else 7
    max_extra = 10 if quick else 50
    cases, out_lengths = {}, {}
    for n, text in sentences.items():
        for beam in (1, 4):
            for capture in (True, False):
                for cache in (True, False):
                    name = f"{'greedy' if beam == 1 else 'beam4'}/{n}/{'capture' if capture else 'plain'}/" \
                           f"{'cache' if cache else 'nocache'}"

                    def case(text=text, beam=beam, capture=capture, cache=cache, name=name):
                        result = translate(loaded, text, beam_size=beam, capture_attention=capture,
                                           use_cache=cache, max_extra=max_extra)
                        out_lengths[name] = len(result.target_pieces)
                    cases[name] = case
    # Greedy search checked in fp32 but drafted with the int8 copy (the default) against fp32 alone.
    exact = dataclasses.replace(loaded, int8_search=False)

    def fp32_case(name="greedy/20/capture/cache/fp32"):  # --quick keeps the 20-piece sentence too
        out_lengths[name] = len(translate(exact, sentences[20], max_extra=max_extra).target_pieces)
    cases["greedy/20/capture/cache/fp32"] = fp32_case
    # The cache on a long output whatever the model: a partly trained one may stop early.
    long_src = torch.tensor([encode_source(loaded, sentences[max(sentences)])], device=loaded.device)
    long_steps = 20 if quick else LONG_OUTPUT
    for cache in (True, False):
        cases[f"forced{long_steps}/{'cache' if cache else 'nocache'}"] = \
            lambda cache=cache: forced_decode(loaded.model, long_src, long_steps, cache)
    log(f"  latency: {len(cases)} configurations × {rounds} rounds, on a worker thread")

    cpu: dict[str, list[float]] = {}

    def measure() -> dict[str, list[float]]:
        for fn in cases.values():  # one warm-up pass: first calls allocate and fill caches
            fn()
        return interleaved(cases, rounds, cpu=cpu)
    times = on_worker_thread(measure)
    # cpu_p50: the worker thread's own CPU time, what an idle machine would take at best (the figures
    # themselves are wall-clock, what a user waits).
    table = {name: {**summary_ms(ts), "cpu_p50": summary_ms(cpu[name])["p50"],
                    "output_pieces": out_lengths.get(name, long_steps)} for name, ts in times.items()}
    long_n = max(sentences)
    speedups = {search: median_ratio(times[f"{search}/{long_n}/plain/nocache"],
                                     times[f"{search}/{long_n}/plain/cache"]) for search in ("greedy", "beam4")}
    return {
        "greedy20_ms_p50": table["greedy/20/capture/cache"]["p50"],
        "greedy20_ms_p95": table["greedy/20/capture/cache"]["p95"],
        "beam20_ms_p50": table["beam4/20/capture/cache"]["p50"],
        "beam20_ms_p95": table["beam4/20/capture/cache"]["p95"],
        "greedy20_cpu_ms_p50": table["greedy/20/capture/cache"]["cpu_p50"],
        "beam20_cpu_ms_p50": table["beam4/20/capture/cache"]["cpu_p50"],
        "greedy20_fp32_ms_p50": table["greedy/20/capture/cache/fp32"]["p50"],
        "int8_draft_speedup_greedy20": median_ratio(times["greedy/20/capture/cache/fp32"],
                                                    times["greedy/20/capture/cache"]),
        "int8_search": search_copy(loaded) is not None,
        "cache_speedup_long": median_ratio(times[f"forced{long_steps}/nocache"],
                                           times[f"forced{long_steps}/cache"]),
        "cache_speedup_greedy50": speedups["greedy"],
        "cache_speedup_beam50": speedups["beam4"],
        "latency": {"threads": torch.get_num_threads(), "rounds": rounds, "max_extra": max_extra,
                    "sentences": {str(n): {"text": t, "pieces": len(loaded.tokenizer.encode(t))}
                                  for n, t in sentences.items()},
                    "cases": table},
    }


def on_worker_thread(fn):
    """fn() on a fresh thread, as the app's model worker runs it; returns its result or raises its error."""
    box: dict = {}

    def target() -> None:
        try:
            box["value"] = fn()
        except BaseException as exc:  # noqa: BLE001 - re-raised on the calling thread
            box["error"] = exc
    thread = threading.Thread(target=target, name="bench-translate")
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    return box["value"]


def temporary_workdir() -> tempfile.TemporaryDirectory:
    return tempfile.TemporaryDirectory(prefix="attention-explorer-bench-")
