"""How SentencePiece pieces are shown on axes and next to lines.

SentencePiece marks the start of a word with ``▁`` (U+2581). Shown raw, every second label starts with
a heavy bar that steals width and reads like an underscore. We drop it for word-initial pieces and
instead mark the *continuation* pieces, the rarer case, with a light middle dot: ``▁The ▁wea ther`` is
shown as ``The wea ·ther``. Punctuation glued to a word (``.`` ``,``) needs no mark. A lone ``▁`` piece
becomes ``␣`` so it is not invisible. This is the one notation of the app: axes, the Lines view and the
hover read-outs all use it, and :data:`LEGEND` explains it on screen. The data exports keep the raw pieces,
so nothing is lost (NPZ always; CSV unless asked for this notation, and its header says which). Chinese
and Japanese pieces get no mark: written without spaces, every one of them would carry it.
"""

from __future__ import annotations

from model.analysis.alignment import spaceless

WORD_START = "\u2581"
CONTINUATION_MARK = "\u00b7"
LONE_SPACE = "\u2423"
_SPECIALS = {"<s>", "</s>", "<pad>", "<unk>"}
# Shown under the attention views; the marks are the ones display_piece uses.
LEGEND_PARTS = (f"Pieces: {CONTINUATION_MARK}ther continues the word before it,", f"{LONE_SPACE} is a lone space,",
                "<s> and </s> start and end a sentence")
LEGEND = "   ".join(LEGEND_PARTS)


def display_piece(piece: str) -> str:
    """A readable label for one SentencePiece piece (see the module docstring for the rule)."""
    if piece in _SPECIALS or not piece:
        return piece
    if piece == WORD_START:
        return LONE_SPACE
    if piece.startswith(WORD_START):
        return piece[len(WORD_START):].replace(WORD_START, " ")
    body = piece.replace(WORD_START, " ")
    # Chinese and Japanese are written without spaces: every piece would carry the mark and say nothing.
    if body[0].isalnum() and not spaceless(body):
        return CONTINUATION_MARK + body
    return body


def display_pieces(pieces) -> list[str]:
    """:func:`display_piece` over a sequence."""
    return [display_piece(p) for p in pieces]


def distinct_pieces(pieces) -> list[str]:
    """:func:`display_piece` over a list read side by side (a step's candidates), where no two different
    pieces may look alike: Chinese pieces carry no mark, so "▁今天" (a word's start) and "今天" both read
    "今天" in the step view's list, 99.3 % and 0.0 %. Where labels collide, a word-start piece shows the
    space it stands for, "␣今天"."""
    labels = display_pieces(pieces)
    return [LONE_SPACE + label if labels.count(label) > 1 and p.startswith(WORD_START) and p != WORD_START
            else label for p, label in zip(pieces, labels)]


def elide(text: str, max_chars: int = 18) -> str:
    """Shorten very long labels with an ellipsis so one piece cannot swallow an axis."""
    return text if len(text) <= max_chars else text[: max_chars - 1] + "\u2026"
