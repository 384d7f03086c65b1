"""The window with a Marian model whose source and target vocabularies are separate: every axis that
shows source pieces shows vocab.json's, every one that shows target pieces target_vocab.json's.

The fixture (conftest's marian_separate) numbers its two vocabularies differently, so a view that looked
source ids up in the target vocabulary (or the other way round) would show other pieces than these.
"""

from __future__ import annotations

import json

import pytest
import torch
from PySide6.QtCore import Qt

from explorer.attention.tokens import display_piece, elide

from .conftest import REAL_TIMEOUT as TIMEOUT
from .conftest import open_real_window

transformers = pytest.importorskip("transformers")
MarianTokenizer = transformers.MarianTokenizer

SENTENCE = "The cat sleeps on the warm chair."


def _expected(folder, text: str, target_ids: list[int]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(source pieces + </s>, target pieces) as transformers' MarianTokenizer reads this folder."""
    tok = MarianTokenizer.from_pretrained(str(folder))
    vocab = json.loads((folder / "vocab.json").read_text(encoding="utf-8"))
    source = tuple(p if p in vocab else "<unk>" for p in tok.tokenize(text)) + ("</s>",)
    return source, tuple(tok.convert_ids_to_tokens(target_ids))


@pytest.mark.filterwarnings("ignore:Recommended")  # transformers asks for sacremoses
def test_every_view_labels_source_and_target_with_their_own_vocabulary(qtbot, marian_separate, restore_app_look):
    hf, folder = marian_separate
    win = open_real_window(qtbot, folder, SENTENCE)
    assert win.info_panel.config_value("src_vocab_size") == "63"
    assert win.info_panel.value("Vocabulary") == "63 source + 61 target pieces"
    win.translate_panel.beam_spin.setValue(1)  # greedy, to compare with transformers' generate
    with qtbot.waitSignal(win.controller.translation_ready, timeout=TIMEOUT):
        qtbot.mouseClick(win.translate_panel.translate_button, Qt.MouseButton.LeftButton)
    maps = win.controller.translation.attention
    pad = hf.config.pad_token_id
    hf_tok = MarianTokenizer.from_pretrained(str(folder))
    ids = hf_tok(SENTENCE)["input_ids"]
    theirs = hf.generate(torch.tensor([ids]), num_beams=1, do_sample=False, max_new_tokens=len(ids) + 50,
                         bad_words_ids=[[pad]], forced_eos_token_id=None)[0].tolist()[1:]
    source, target = _expected(folder, SENTENCE, theirs)
    assert len(target) > 2  # a translation with pieces to label
    assert maps.source_tokens == source
    assert maps.predicted_tokens == target and maps.target_tokens == ("<s>", *target[:-1])
    assert source[:-1] != tuple(hf_tok.convert_ids_to_tokens(ids[:-1]))  # the target vocabulary would mislabel

    def shown(pieces) -> list[str]:
        return [elide(display_piece(p)) for p in pieces]

    # Attention panel: cross-attention has target queries on its rows and source keys on its columns.
    panel = win.attention_panel
    panel.set_state("cross", 0, 0)
    assert panel.heatmap.row_labels() == shown(maps.target_tokens)
    assert panel.heatmap.col_labels() == shown(source)
    panel.set_state("encoder", 0, 0)
    assert panel.heatmap.row_labels() == panel.heatmap.col_labels() == shown(source)

    # Step tab: the bars name target pieces, the growing cross map has the source on its columns.
    with qtbot.waitSignal(win.controller.translation_ready, timeout=TIMEOUT):
        win.tabs.setCurrentWidget(win.step_view)  # opening the tab translates again, with steps
    view = win.step_view
    view.set_step(view.n_steps())
    assert view.maps.cross.col_labels() == shown(source)
    assert view.maps.cross.row_labels() == shown(maps.target_tokens)
    steps = win.controller.translation.steps
    assert steps.chosen == target[:view.n_steps()]
    chosen = next(label for label, _, kind in view.bars.rows() if kind == "chosen")
    assert chosen.endswith(display_piece(steps.chosen[-1]))  # "✓ " + the piece

    # Formula dock: the worked cell names its target query and its source key.
    with qtbot.waitSignal(win.controller.translation_ready, timeout=TIMEOUT):
        win.formula_dock.toggleViewAction().trigger()  # translates again, with q, k, v
    formula = win.formula_dock.widget()
    formula.set_state("cross", 0, 0)
    formula.select_cell(2, 1)
    assert formula.row() is not None
    title = formula.title.text()
    assert f"“{display_piece(maps.target_tokens[2])}”" in title and f"“{display_piece(source[1])}”" in title

    # Workbench alignment: source words on top from vocab.json, target words below from target_vocab.json.
    alignment = win.workbench.alignment_view
    assert alignment.maps.source_tokens == source and alignment.target_pieces() == target
