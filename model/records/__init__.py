"""The data contract between the model and the GUI: one package, torch-free throughout.

Frozen dataclasses that hold NumPy arrays, numbers and strings only. No module of this package may import
torch (or any model code outside it): the Qt views import them, and they stay free of torch so the window
starts fast and a view can be tested with synthetic arrays. Here, a sentence's records (its attention, its
translation); beside them, by job, ``model_and_run`` (the loaded model's facts, a training run's reports),
``research`` (head importance and statistics over a test set) and ``workbench`` (the beam's hypotheses, a
second model's comparison).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

KINDS = ("encoder", "decoder", "cross")
UNKNOWN_PIECE = "<unk>"  # how SentencePiece (ours and Marian's) writes the piece for characters it lacks
KIND_TITLES = {
    "encoder": "Encoder self-attention",
    "decoder": "Decoder masked self-attention",
    "cross": "Encoder–decoder cross-attention",
}


def _check_maps(name: str, arr: np.ndarray, rows: int, cols: int) -> None:
    if not isinstance(arr, np.ndarray) or arr.ndim != 4:
        raise ValueError(f"{name} must be a 4-d NumPy array (L, H, rows, cols)")
    if arr.shape[2:] != (rows, cols):
        raise ValueError(f"{name} has shape {arr.shape}, expected (L, H, {rows}, {cols})")


@dataclass(frozen=True)
class AttentionMaps:
    """Post-softmax attention weights of every layer and head for one sentence pair.

    Rows are queries, columns are keys. ``source_tokens`` label the encoder positions (S of them, the
    source pieces followed by ``</s>``); ``target_tokens`` label the decoder *input* positions (T of
    them: ``<s>`` then the generated pieces except the last), which are the queries of the decoder
    self-attention and of the cross-attention. ``predicted_tokens[t]`` is the piece that row t produced.
    """

    encoder_self: np.ndarray  # (L, H, S, S) float32
    decoder_self: np.ndarray  # (L, H, T, T) float32, strictly upper triangle is 0 (causal mask)
    cross: np.ndarray  # (L, H, T, S) float32
    source_tokens: tuple[str, ...]
    target_tokens: tuple[str, ...]
    predicted_tokens: tuple[str, ...] = ()
    # Heads removed for this translation, (kind, layer, head) 0-based. Their maps hold zeros, not the
    # weights the head would have computed: a removed head contributes nothing, and a view should draw
    # it as removed rather than as a blank pattern.
    removed: tuple[tuple[str, int, int], ...] = ()

    def __post_init__(self) -> None:
        s, t = len(self.source_tokens), len(self.target_tokens)
        _check_maps("encoder_self", self.encoder_self, s, s)
        _check_maps("decoder_self", self.decoder_self, t, t)
        _check_maps("cross", self.cross, t, s)
        if self.predicted_tokens and len(self.predicted_tokens) != t:
            raise ValueError("predicted_tokens must have one entry per target position")
        for kind, layer, head in self.removed:
            if kind not in KINDS or not (0 <= layer < self.n_layers and 0 <= head < self.n_heads):
                raise ValueError(f"removed head {(kind, layer, head)} is not in these maps")

    def is_removed(self, kind: str, layer: int, head: int) -> bool:
        """True when the head (0-based) was ablated for this translation: its map is not weights."""
        return (kind, layer, head) in self.removed

    @property
    def n_layers(self) -> int:
        return int(self.encoder_self.shape[0])

    @property
    def n_heads(self) -> int:
        return int(self.encoder_self.shape[1])

    def of_kind(self, kind: str) -> np.ndarray:
        """The (L, H, rows, cols) array for 'encoder', 'decoder' or 'cross'."""
        return {"encoder": self.encoder_self, "decoder": self.decoder_self, "cross": self.cross}[kind]

    def labels(self, kind: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """(row labels, column labels) for a kind: queries on rows, keys on columns."""
        if kind == "encoder":
            return self.source_tokens, self.source_tokens
        if kind == "decoder":
            return self.target_tokens, self.target_tokens
        if kind == "cross":
            return self.target_tokens, self.source_tokens
        raise ValueError(f"unknown attention kind {kind!r}; expected one of {KINDS}")

    def masked(self, kind: str) -> np.ndarray:
        """Boolean (rows, cols) array: True where the kind's mask forbids attention (causal future)."""
        rows, cols = (len(x) for x in self.labels(kind))
        if kind == "decoder":
            return np.triu(np.ones((rows, cols), dtype=bool), k=1)
        return np.zeros((rows, cols), dtype=bool)


@dataclass(frozen=True)
class HeadVectors:
    """Per-layer, per-head Q, K, V of one attention kind for one sentence, and each head's output.

    ``out`` is softmax(QKᵀ/√d_k)V of each head, before the heads are concatenated and multiplied by W^O.
    Rows of q and out are the queries, rows of k and v the keys (the kind's labels, as in AttentionMaps).
    """

    q: np.ndarray  # (L, H, rows, d_k) float32
    k: np.ndarray  # (L, H, cols, d_k)
    v: np.ndarray  # (L, H, cols, d_k)
    out: np.ndarray  # (L, H, rows, d_k)

    def __post_init__(self) -> None:
        for name in ("q", "k", "v", "out"):
            arr = getattr(self, name)
            if not isinstance(arr, np.ndarray) or arr.ndim != 4:
                raise ValueError(f"{name} must be a 4-d NumPy array (L, H, positions, d_k)")
        if self.q.shape[:2] != self.k.shape[:2] or self.k.shape != self.v.shape or self.out.shape != self.q.shape:
            raise ValueError(f"q {self.q.shape}, k {self.k.shape}, v {self.v.shape}, out {self.out.shape} disagree")
        if self.q.shape[3] != self.k.shape[3]:
            raise ValueError("queries and keys must have the same d_k")


@dataclass(frozen=True)
class AttentionVectors:
    """The Q, K, V behind AttentionMaps, captured only when the formula walkthrough asks for them."""

    encoder_self: HeadVectors
    decoder_self: HeadVectors
    cross: HeadVectors

    def of_kind(self, kind: str) -> HeadVectors:
        """The HeadVectors for 'encoder', 'decoder' or 'cross'."""
        if kind not in KINDS:
            raise ValueError(f"unknown attention kind {kind!r}; expected one of {KINDS}")
        return {"encoder": self.encoder_self, "decoder": self.decoder_self, "cross": self.cross}[kind]


@dataclass(frozen=True)
class Hypothesis:
    """One hypothesis of a search at one step: the pieces generated so far and its score.

    A live hypothesis scores the sum of its pieces' log-probabilities; a finished one (ending in </s>)
    is length-penalised, as beam search ranks it (model/decoding/beam.py).
    """

    pieces: tuple[str, ...]
    score: float
    finished: bool = False


@dataclass(frozen=True)
class DecodeSteps:
    """How the translation was generated, one step per output piece; captured only for the step view.

    Step t (0-based) is the decoder reading its inputs 0..t (``AttentionMaps.target_tokens``) and choosing
    ``chosen[t]``. ``top_probs[t]`` are the k largest probabilities of that choice, softmax of the logits,
    for the pieces ``top_pieces[t]``, best first; ``chosen_probs[t]`` and ``chosen_ranks[t]`` (0 = the
    most probable) say where the chosen piece stood, which beam search need not make the first.
    ``hypotheses[t]`` are the search's live hypotheses after step t, best first, then the finished ones.
    """

    chosen: tuple[str, ...]
    top_pieces: tuple[tuple[str, ...], ...]
    top_probs: np.ndarray  # (T, k) float32
    chosen_probs: np.ndarray  # (T,) float32
    chosen_ranks: np.ndarray  # (T,) int64
    hypotheses: tuple[tuple[Hypothesis, ...], ...]
    beam_size: int = 1
    search_steps: int = 0  # steps the search ran: beam search may go on after the shown output ended

    def __post_init__(self) -> None:
        n = len(self.chosen)
        if self.top_probs.ndim != 2 or self.top_probs.shape[0] != n or len(self.top_pieces) != n:
            raise ValueError(f"top_probs {self.top_probs.shape} and top_pieces must have {n} steps")
        if any(len(p) != self.top_probs.shape[1] for p in self.top_pieces):
            raise ValueError("every step needs as many top pieces as probabilities")
        if self.chosen_probs.shape != (n,) or self.chosen_ranks.shape != (n,) or len(self.hypotheses) != n:
            raise ValueError(f"chosen_probs, chosen_ranks and hypotheses must have {n} steps")

    @property
    def n_steps(self) -> int:
        return len(self.chosen)

    def other_prob(self, t: int) -> float:
        """The probability of every piece outside the top k at step t (what the bars leave out)."""
        return max(0.0, 1.0 - float(self.top_probs[t].sum()))


@dataclass(frozen=True)
class ParagraphSentence:
    """One sentence of a pasted text and its translation, as the whole text's batch decoded it."""

    source: str
    text: str  # "" when nothing came out: kept and marked, never dropped
    line: int  # the source line it stands on, 0-based
    note: str = ""  # "the model repeated itself", "no translation came out", …; "" when nothing is wrong
    span: tuple[int, int] = (0, 0)  # where ``text`` stands in the whole translation (Paragraph.text)


@dataclass(frozen=True)
class Paragraph:
    """A text of several sentences, translated sentence by sentence (model.paragraphs): the window lists
    them side by side and shows the attention of one, ``selected``, whose Translation carries this record."""

    source: str
    text: str  # the whole translation, in the source's lines and paragraphs
    sentences: tuple[ParagraphSentence, ...]
    selected: int = 0

    @property
    def empty(self) -> int:
        """How many sentences produced nothing (each marked in the list)."""
        return sum(1 for s in self.sentences if not s.text.strip())


@dataclass(frozen=True)
class Translation:
    """One translated sentence, with the attention behind it when it was captured."""

    source: str
    text: str
    source_pieces: tuple[str, ...]
    target_pieces: tuple[str, ...]
    score: float = 0.0  # log-probability (length-penalised for beam search)
    attention: AttentionMaps | None = None
    request_id: int = 0
    unknown_pieces: int = 0  # source pieces the vocabulary lacks (<unk>): emoji, scripts it never saw
    vectors: AttentionVectors | None = None  # per-head Q, K, V: only when the walkthrough asked for them
    steps: DecodeSteps | None = None  # the search step by step: only when the step view asked for it
    # "repeated": the search looped, the same piece or n-gram far past the source; "length_limit": stopped at
    # the length bound unfinished (model.decoding.loops). Shown as searched, and said.
    flags: tuple[str, ...] = ()
    # P(piece | the pieces before it, the source) of each target piece (model.decoding.confidence), aligned
    # with target_pieces; () where it was not computed.
    piece_probs: tuple[float, ...] = ()
    # The research workbench (model/records/workbench.py): the same sentence with every head, when heads
    # were removed; every hypothesis of the final beam, when asked for; a second model beside this one.
    unablated: Translation | None = None
    beam: object | None = None  # BeamHypotheses
    comparison: object | None = None  # Comparison
    # The whole text when the source held several sentences: this Translation is its sentence ``selected``.
    paragraph: Paragraph | None = None

    @property
    def mean_logprob(self) -> float | None:
        """The mean log-probability of the target pieces: the sentence's confidence in one number."""
        if not self.piece_probs:
            return None
        return float(np.mean(np.log(np.maximum(np.asarray(self.piece_probs, dtype=np.float64), 1e-30))))

    def unknown_characters(self) -> tuple[int, int]:
        """(characters of the source the vocabulary lacks, characters in all), spaces not counted; (0, n)
        when none is unknown.

        Counted by characters, not pieces: one <unk> piece stands for a whole run of characters the
        vocabulary never saw, so "我今天很忙，明天再说。" into the English model read "2 of 4 pieces are
        unknown", when 10 of its 11 characters were. What the known pieces spell is known; the rest
        is not (at least one character per <unk> piece, where normalisation changed a count)."""
        n = sum(not ch.isspace() for ch in self.source)
        if not self.unknown_pieces:
            return 0, n
        known = sum(len(p.replace("\u2581", "").strip()) for p in self.source_pieces if p != UNKNOWN_PIECE)
        return min(n, max(self.unknown_pieces, n - known)), n

    def unknown_note(self) -> str:
        """'3 of 12 characters are unknown to this model …' when the source had pieces the model cannot read.

        Said plainly because the model still produces fluent German for them, invented from the rest."""
        if not self.unknown_pieces:
            return ""
        k, n = self.unknown_characters()
        verb = "is" if k == 1 else "are"
        return (f"{k} of {n} characters {verb} unknown to this model (its vocabulary never saw them), "
                "so the translation may be wrong")


# Re-exported: the window and the model's code import every record from the package.
from model.records.model_and_run import ModelInfo, TrainProgress  # noqa: E402

__all__ = ["KINDS", "KIND_TITLES", "UNKNOWN_PIECE", "AttentionMaps", "AttentionVectors", "DecodeSteps", "HeadVectors",
           "Hypothesis", "ModelInfo", "Paragraph", "ParagraphSentence", "TrainProgress", "Translation"]
