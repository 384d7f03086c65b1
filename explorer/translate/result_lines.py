"""The lines said under a translation, in the window's language: pieces the model's vocabulary lacks, and
the counts and scores ("11 → 10 pieces · score -1.82"). Plain functions of a Translation, apart from the
panel that shows them, so a language switch can say them again (``TranslatePanel.retranslate``).
"""

from __future__ import annotations

from explorer.translate.sentence_table import paragraph_counts
from explorer.ui.i18n import tr


def unknown_note(translation) -> str:
    """Translation.unknown_note() in the window's language (the records, torch- and Qt-free, speak English)."""
    if not translation.unknown_pieces:
        return ""
    k, n = translation.unknown_characters()
    return tr("{k} of {n} characters {verb} unknown to this model (its vocabulary never saw them), "
              "so the translation may be wrong", k=k, n=n, verb="is" if k == 1 else "are")


def detail_line(translation) -> str:
    """"11 → 10 pieces · score -1.82 · mean log P -0.32", after the paragraph's counts for a paragraph."""
    paragraph = translation.paragraph
    n_in, n_out = len(translation.source_pieces), len(translation.target_pieces)
    if translation.score:  # greedy decoding reports no score (0.0); do not show a fake one
        detail = tr("{n_in} → {n_out} pieces · score {score:.2f}", n_in=n_in, n_out=n_out, score=translation.score)
    else:
        detail = tr("{n_in} → {n_out} pieces", n_in=n_in, n_out=n_out)
    if translation.mean_logprob is not None:  # tinted words: where the model was unsure
        detail += " · " + tr("mean log P {value:.2f}", value=translation.mean_logprob)
    if paragraph is not None:
        detail = paragraph_counts(paragraph) + "\n" + tr("sentence {i} of {n}: ", i=paragraph.selected + 1,
                                                         n=len(paragraph.sentences)) + detail
    return detail
