"""Records of the research workbench (beam explorer, model comparison), torch-free like the rest of model.records.

They ride on a ``Translation`` (its ``beam`` and ``comparison`` fields), so the request id that drops a
stale translation drops them with it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from model.records import AttentionMaps


@dataclass(frozen=True)
class Hypothesis:
    """One hypothesis of the final beam, scored as the search scored it (GNMT: log P / lp)."""

    text: str
    pieces: tuple[str, ...]  # the output pieces, </s> left out
    log_prob: float  # sum of the log-probabilities of every piece, </s> included
    length: int  # pieces the penalty counts: the output and its </s>
    penalty: float  # lp(Y) = ((5 + |Y|) / 6)^α
    score: float  # log_prob / penalty, what the search ranks by
    finished: bool  # False: cut off by the length limit before it produced </s>
    attention: AttentionMaps | None = None  # this hypothesis' own maps (force-decoded)
    # It repeats itself past anything in the source (model.decoding.loops): flagged, shown as searched.
    repeated: bool = False


@dataclass(frozen=True)
class BeamHypotheses:
    """Every hypothesis of the final beam, best first; the first is the translation shown."""

    alpha: float  # the length penalty's α
    beam_size: int
    hypotheses: tuple[Hypothesis, ...]

    def __post_init__(self) -> None:
        scores = [h.score for h in self.hypotheses]
        if scores != sorted(scores, reverse=True):
            raise ValueError("hypotheses must be sorted best first")


@dataclass(frozen=True)
class Comparison:
    """Model B beside model A on A's sentence: B's maps force-decoded on A's output, so cells match.

    ``maps_b`` is None when the two models' tokenizers split the sentences differently; ``note`` then
    says why, and no difference map can be drawn.
    """

    name_a: str
    name_b: str
    maps_a: AttentionMaps
    maps_b: AttentionMaps | None
    text_b: str  # B's own translation of the sentence (free decoding), for reference
    note: str = ""

    def __post_init__(self) -> None:
        b = self.maps_b
        if b is not None:
            a = self.maps_a
            if (a.source_tokens, a.target_tokens) != (b.source_tokens, b.target_tokens):
                raise ValueError("compared maps must have the same pieces")
            if (a.n_layers, a.n_heads) != (b.n_layers, b.n_heads):
                raise ValueError("compared maps must have the same layers and heads")

    @property
    def comparable(self) -> bool:
        return self.maps_b is not None

    def difference(self, kind: str, layer: int, head: int | None) -> np.ndarray:
        """B − A for one head (or the layer mean with head None), float32 (rows, cols)."""
        if self.maps_b is None:
            raise ValueError(self.note or "the models cannot be compared")

        def pick(maps: AttentionMaps) -> np.ndarray:
            arr = maps.of_kind(kind)[layer]
            return arr.mean(axis=0, dtype=np.float32) if head is None else arr[head]

        return (pick(self.maps_b) - pick(self.maps_a)).astype(np.float32)
