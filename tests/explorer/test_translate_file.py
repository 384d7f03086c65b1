"""File › Translate a file…: 200 sentences in, 200 out beside the file, progress, Cancel < 1 s (#30)."""

from __future__ import annotations

import time

import pytest

from explorer.translate.file_dialog import TranslateFileDialog, review_line, review_order
from explorer.translate.file_worker import output_path
from tests.explorer.conftest import Heard

TIMEOUT = 120_000


@pytest.fixture
def dialog(qtbot, tiny_model_dir):
    d = TranslateFileDialog(model_path_of=lambda: str(tiny_model_dir), beam_of=lambda: 1)
    qtbot.addWidget(d)
    d.show()
    yield d
    d.shutdown()


def _file(tmp_path, n: int):
    src = tmp_path / "letter.txt"
    src.write_text("".join(f"{i % 9 + 1} {i % 7 + 1} {i % 5 + 1}.\n" for i in range(n)), encoding="utf-8")
    return src


def test_a_file_of_200_sentences_is_saved_beside_it_with_200(qtbot, dialog, tmp_path):
    src = _file(tmp_path, 200)
    seen = []
    dialog.worker.progress.connect(lambda done, total: seen.append((done, total)))
    finished = Heard(dialog.worker.finished)
    with qtbot.waitSignal(finished.heard, timeout=TIMEOUT) as done:
        assert dialog.start(str(src))
    out, sentences, review = done.args[0]
    assert out == str(tmp_path / "letter.de.txt") and sentences == 200
    lines = (tmp_path / "letter.de.txt").read_text(encoding="utf-8").split("\n")
    assert len(lines) == 201 and all(lines[:200]) and lines[200] == ""
    qtbot.waitUntil(lambda: dialog.choose_button.isEnabled(), timeout=TIMEOUT)
    assert seen and seen[-1] == (200, 200) and "200 sentences translated" in dialog.status.text()
    # every sentence is up for review, flagged ones first, then the least sure (lowest mean log P) first
    assert len(review) == 200 and dialog.review.count() == 200 and dialog.review.isVisible()
    shown = review_order(review)
    n_flagged = sum(1 for r in review if r[1])
    assert all(r[1] for r in shown[:n_flagged]) and not any(r[1] for r in shown[n_flagged:])
    scores = [r[4] for r in shown[n_flagged:]]
    assert all(x is not None for x in scores) and scores == sorted(scores) and scores[0] < scores[-1]
    assert dialog.review.item(0).text() == review_line(*shown[0])
    assert f"line {shown[n_flagged][0]} · mean log P {scores[0]:.2f}" in dialog.review.item(n_flagged).text()
    assert output_path(src, "de") == tmp_path / "letter.de-2.txt"  # a second run never overwrites the first


def test_cancel_answers_within_a_second_and_writes_nothing(qtbot, dialog, tmp_path):
    src = _file(tmp_path, 3000)
    dialog.start(str(src))
    qtbot.waitUntil(lambda: dialog.bar.maximum() > 1 and dialog.bar.value() > 0, timeout=TIMEOUT)
    asked = time.monotonic()
    dialog.cancel_button.click()
    qtbot.waitUntil(lambda: dialog.choose_button.isEnabled(), timeout=TIMEOUT)
    assert time.monotonic() - asked < 1.0
    assert "nothing was written" in dialog.status.text()
    assert not (tmp_path / "letter.de.txt").exists()


def test_no_model_and_a_file_that_is_not_text_are_one_line(qtbot, tmp_path, tiny_model_dir):
    empty = TranslateFileDialog(model_path_of=lambda: None, beam_of=lambda: 1)
    qtbot.addWidget(empty)
    assert not empty.start(str(_file(tmp_path, 2))) and empty.status.text() == "Open a model first."
    empty.shutdown()
    d = TranslateFileDialog(model_path_of=lambda: str(tiny_model_dir), beam_of=lambda: 1)
    qtbot.addWidget(d)
    binary = tmp_path / "photo.txt"
    binary.write_bytes(b"\xff\xd8\xff\xe0" + bytes(range(256)) * 4)
    refused = Heard(d.worker.failed)
    with qtbot.waitSignal(refused.heard, timeout=TIMEOUT) as failed:
        d.start(str(binary))
    message = failed.args[0][0]
    assert "\n" not in message and "photo.txt" in message
    assert not list(tmp_path.glob("photo.de*"))
    d.shutdown()
    # The reason sits right under the file's name, not half-way down a blank dialog.
    d.show()
    qtbot.waitExposed(d)
    qtbot.wait(10)
    gap = d.status.geometry().top() - d.file_label.geometry().top()  # the label grew with the spare height
    assert gap < 4 * d.fontMetrics().height(), gap
