"""Records of the research workbench: head importance, per-head statistics over a test set, progress.

Torch-free, like the rest of ``model.records``: the analysis worker builds these, the workbench views draw
them, and the command line prints them. ``model.analysis.importance`` and ``model.analysis.head_stats``
compute them.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import asdict, dataclass

import numpy as np

from model.records import KINDS

STATS = ("entropy", "confidence", "distance", "previous", "same", "next", "eos", "punctuation")
DEFAULT_SENTENCES = 200  # Michel et al. score heads on a test set; 200 sentences keep a run in minutes


# The one table of head-name kinds: how a head is written ("cross:4.2") on the command line, in files and in
# the window, and what each short name stands for.
KIND_NAMES = {"enc": "encoder", "encoder": "encoder", "dec": "decoder", "decoder": "decoder", "cross": "cross"}
SHORT = {"encoder": "enc", "decoder": "dec", "cross": "cross"}


def parse_head(name: str) -> tuple[str, int, int]:
    """'cross:4.2' → ('cross', 3, 1): the kind and 0-based layer and head of a name written 1-based;
    ValueError saying what is wrong with anything else."""
    short, sep, rest = name.strip().partition(":")
    layer, dot, head = rest.partition(".")
    if not sep or not dot or short.lower() not in KIND_NAMES:
        raise ValueError("write KIND:LAYER.HEAD with KIND enc, dec or cross, e.g. enc:1.3")
    try:
        return KIND_NAMES[short.lower()], int(layer) - 1, int(head) - 1
    except ValueError:
        raise ValueError("layer and head must be whole numbers, e.g. enc:1.3") from None


def format_head(h: tuple[str, int, int], sep: str = ":") -> str:
    """('cross', 3, 1) → 'cross:4.2', the form ``parse_head`` reads ('cross 4.2' with ``sep`` " ")."""
    return f"{SHORT[h[0]]}{sep}{h[1] + 1}.{h[2] + 1}"


@dataclass(frozen=True)
class HeadScore:
    head: str  # 'cross:4.2', 1-based as the window shows it
    bleu: float
    chrf: float


@dataclass(frozen=True)
class Importance:
    sentences: int
    bleu: float  # the full model
    chrf: float
    heads: tuple[HeadScore, ...]  # each head removed alone, in kind, layer, head order
    curve: tuple[HeadScore, ...]  # cumulative: entry k has the first k+1 least important heads removed
    cached: bool = False

    def to_json(self) -> dict:
        return {"sentences": self.sentences, "bleu": self.bleu, "chrf": self.chrf,
                "heads": [asdict(h) for h in self.heads], "curve": [asdict(h) for h in self.curve],
                "cached": self.cached}

    @classmethod
    def from_json(cls, d: dict, cached: bool = False) -> Importance:
        return cls(d["sentences"], d["bleu"], d["chrf"], tuple(HeadScore(**h) for h in d["heads"]),
                   tuple(HeadScore(**h) for h in d["curve"]), cached)

    def drop_grid(self, kind: str, n_layers: int, n_heads: int, metric: str = "bleu") -> np.ndarray:
        """(L, H) drop of ``metric`` (full model minus the head removed alone); positive = the head helps."""
        full = getattr(self, metric)
        grid = np.full((n_layers, n_heads), np.nan)
        for h in self.heads:
            k, layer, head = parse_head(h.head)
            if k == kind and layer < n_layers and head < n_heads:
                grid[layer, head] = full - getattr(h, metric)
        return grid

    def csv(self) -> str:
        """One row per head: its name, BLEU and chrF without it, the drops, and its place on the curve."""
        place = {h.head: n + 1 for n, h in enumerate(self.curve)}
        lines = ["head,bleu,chrf,bleu_drop,chrf_drop,pruned_at,bleu_after_pruning"]
        for h in self.heads:
            n = place.get(h.head, 0)
            after = self.curve[n - 1].bleu if n else float("nan")
            lines.append(f"{h.head},{h.bleu:.4f},{h.chrf:.4f},{self.bleu - h.bleu:.4f},"
                         f"{self.chrf - h.chrf:.4f},{n},{after:.4f}")
        return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class GradientImportance:
    """Michel et al.'s gradient estimate: |∂loss/∂gate| of each head, averaged over ``sentences``."""

    sentences: int
    loss: float  # the full model's mean teacher-forced cross-entropy per sentence
    scores: tuple[tuple[str, float], ...]  # ('cross:4.2', importance) in kind, layer, head order

    def grid(self, kind: str, n_layers: int, n_heads: int) -> np.ndarray:
        """(L, H) importance of ``kind``'s heads; NaN where the result names no such head."""
        grid = np.full((n_layers, n_heads), np.nan)
        for name, value in self.scores:
            k, layer, head = parse_head(name)
            if k == kind and layer < n_layers and head < n_heads:
                grid[layer, head] = value
        return grid

    def to_json(self) -> dict:
        return {"sentences": self.sentences, "loss": self.loss, "gradient": [list(s) for s in self.scores]}


@dataclass(frozen=True)
class HeadTable:
    """Statistics averaged over ``sentences`` sentences: ``values[kind]`` is (L, H, len(STATS))."""

    values: dict
    sentences: int

    def rows(self) -> list[dict]:
        """One dict per head: kind, layer and head (1-based, as the window shows them), then the STATS."""
        out = []
        for kind in KINDS:
            arr = self.values[kind]
            for layer in range(arr.shape[0]):
                for head in range(arr.shape[1]):
                    row = {"kind": kind, "layer": layer + 1, "head": head + 1}
                    row.update({name: _number(arr[layer, head, k]) for k, name in enumerate(STATS)})
                    out.append(row)
        return out

    def csv(self) -> str:
        """The rows as CSV text with a header line; empty cells for undefined values."""
        head = ["kind", "layer", "head", *STATS]
        lines = [",".join(head)]
        for row in self.rows():
            lines.append(",".join(format_cell(row[h]) for h in head))
        return "\n".join(lines) + "\n"


def format_cell(value) -> str:
    """A CSV cell: 6 significant digits for numbers, empty for undefined ones."""
    if value is None:
        return ""
    return f"{value:.6g}" if isinstance(value, float) else str(value)


def _number(x: float) -> float | None:
    return None if np.isnan(x) else float(x)


@dataclass(frozen=True)
class AnalysisProgress:
    """How far a long analysis is: ``done`` of ``total`` steps after ``elapsed_s`` seconds.

    recent_s_per_step: the pace of the last few reports (``ProgressClock``), None where unknown."""

    job: str  # "importance" or "stats"
    done: int
    total: int
    elapsed_s: float
    request_id: int = 0
    recent_s_per_step: float | None = None

    @property
    def eta_s(self) -> float | None:
        """Seconds left at the slower of the pace so far and the recent pace; None before the first step.

        The recent pace counts because a run's steps grow dearer as it goes: head importance removes
        decoder heads first (one shared encoder pass), then encoder heads, then more and more heads at
        once along the pruning curve, where outputs loop to the length bound. Measured on 20 sentences of
        the built-in model: its groups took 0.6 s, 0.95 s, then 0.9 → 3 s; halfway the pace so far gave
        8.9 s for 16.4 s left, the recent pace 12.9 s (and 4.1 against 4.5 s near the end)."""
        if self.done <= 0:
            return None
        pace = self.elapsed_s / self.done
        if self.recent_s_per_step is not None:
            pace = max(pace, self.recent_s_per_step)
        return max(0.0, pace * (self.total - self.done))


class ProgressClock:
    """Times the reports of one run: ``clock(done, total)`` → its ``AnalysisProgress``, with the pace of
    the last ``RECENT`` reports. Started when made."""

    RECENT = 3  # reports: one group of ablations is ~1 s, so a few seconds of pace

    def __init__(self, job: str, request_id: int = 0, clock=time.perf_counter) -> None:
        self.job, self.request_id, self._clock = job, request_id, clock
        self._start = clock()
        self._marks: deque[tuple[int, float]] = deque([(0, 0.0)], maxlen=self.RECENT + 1)

    def __call__(self, done: int, total: int) -> AnalysisProgress:
        elapsed = self._clock() - self._start
        self._marks.append((done, elapsed))
        first_done, first_t = self._marks[0]
        recent = (elapsed - first_t) / (done - first_done) if done > first_done else None
        return AnalysisProgress(self.job, done, total, elapsed, self.request_id, recent)


def format_eta(seconds: float | None) -> str:
    """'ETA 3 min 20 s', 'ETA 45 s', or 'ETA …' while unknown."""
    if seconds is None:
        return "ETA …"
    s = round(seconds)
    return f"ETA {s // 60} min {s % 60:02d} s" if s >= 60 else f"ETA {s} s"
