"""Lessons (explorer/lecture/lesson_file.py, lesson_player.py): save the view as slides, replay them with PageDown /
PageUp / Esc, and refuse a bad lesson file with one line that changes nothing. The fake model of
conftest.py has 2 layers and 4 heads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from explorer.lecture.lesson_file import (
    FORMAT,
    VERSION,
    LessonError,
    Slide,
    dump_lesson,
    parse_lesson,
    read_lesson,
    read_lesson_model,
)
from tests.explorer.conftest import make_synthetic_maps

TIMEOUT = 10_000


@pytest.fixture
def warnings(monkeypatch):
    calls = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *args: calls.append(args))
    return calls


def translate(qtbot, win, text):
    with qtbot.waitSignal(win.controller.translation_ready, timeout=TIMEOUT):
        win.translate_panel.set_text(text)
        win.translate_panel.request_translation()


def state(win):
    return (win.controller.translation.source, win.current_view(), *win.attention_panel.state())


def test_saved_slides_replay_the_same_views_with_the_keyboard(qtbot, loaded, tmp_path, warnings):
    win, path = loaded, tmp_path / "lesson.json"
    translate(qtbot, win, "the house is big")
    win.attention_panel.set_state("cross", 1, 2)
    win.show_view("head")
    first = state(win)
    assert win.lessons.save_slide(path)
    translate(qtbot, win, "I have no time today")
    win.attention_panel.set_state("decoder", 0, 3, True)
    win.show_view("clock")
    win.clock_view.set_position(140)
    win.clock_view.set_shift(5)
    second = state(win)
    assert win.lessons.save_slide(path)
    data = json.loads(path.read_text())
    assert data["format"] == FORMAT and data["version"] == VERSION and len(data["slides"]) == 2
    assert data["slides"][0] == {"sentence": "the house is big", "view": "head", "kind": "cross",
                                 "layer": 2, "head": 3}  # 1-based, as the window shows them
    assert data["slides"][1]["position"] == 140 and data["slides"][1]["shift"] == 5

    win.attention_panel.set_state("encoder", 0, 0)
    win.show_view("grid")
    with qtbot.waitSignal(win.controller.translation_ready, timeout=TIMEOUT):
        assert win.lessons.open_lesson(path)
    assert state(win) == first and win.lessons.index() == 0
    assert "Slide 1 of 2" in win.lessons.caption.text() and win.lessons.caption.isVisible()
    focus = win.attention_panel.heatmap.canvas  # where PageDown would otherwise switch the kind
    with qtbot.waitSignal(win.controller.translation_ready, timeout=TIMEOUT):
        qtbot.keyClick(focus, Qt.Key.Key_PageDown)
    assert state(win) == second and win.lessons.index() == 1
    assert (win.clock_view.position(), win.clock_view.shift()) == (140, 5)
    qtbot.keyClick(win, Qt.Key.Key_PageDown)  # past the last slide: stays there
    assert win.lessons.index() == 1
    with qtbot.waitSignal(win.controller.translation_ready, timeout=TIMEOUT):
        qtbot.keyClick(win.clock_view.position_spin, Qt.Key.Key_PageUp)  # the lesson's, not the spin box's
    assert state(win) == first and win.clock_view.position() == 140
    qtbot.keyClick(focus, Qt.Key.Key_Escape)
    assert not win.lessons.is_playing() and not win.lessons.caption.isVisible()
    qtbot.keyClick(focus, Qt.Key.Key_PageUp)  # the lesson is over: PageUp is the panel's again
    assert win.attention_panel.state()[0] == "decoder"  # the kind before cross
    assert warnings == []


def test_a_lesson_plays_in_presentation_mode_and_esc_ends_only_the_lesson(qtbot, loaded, tmp_path, warnings):
    win, path = loaded, tmp_path / "lesson.json"
    slides = [Slide("one two three", "head", "encoder", 1, 1, title="Self-attention"),
              Slide("four five", "lines", "cross", 2, 4)]
    path.write_text(dump_lesson(slides))
    win.presentation.enter()
    assert win.lessons.open_lesson(path)
    assert "Self-attention" in win.lessons.caption.text() and win.lessons.caption.isVisible()
    assert win.presentation.bar.sentence_edit.text() == "one two three"
    win.lessons.step(+1)
    assert win.presentation.bar.sentence_edit.text() == "four five"
    assert win.attention_panel.view() == "lines" and win.attention_panel.state()[:3] == ("cross", 1, 3)
    qtbot.keyClick(win, Qt.Key.Key_Escape)
    assert not win.lessons.is_playing() and win.presentation.is_active()
    qtbot.keyClick(win, Qt.Key.Key_Escape)
    assert not win.presentation.is_active()


def test_closing_the_window_mid_lesson_leaves_no_key_filter_on_the_application(qtbot, loaded, tmp_path, warnings):
    from explorer.attention.panel import AttentionPanel  # noqa: PLC0415

    win, path = loaded, tmp_path / "lesson.json"
    path.write_text(dump_lesson([Slide("one two three", "head", "encoder", 1, 1),
                                 Slide("four five", "head", "encoder", 1, 1)]))
    assert win.lessons.open_lesson(path) and win.lessons.is_playing()
    player = win.lessons
    win.close()
    assert not player.is_playing()
    # Another panel still gets its PageDown (a playing lesson's application-wide filter takes the key).
    panel = AttentionPanel()
    qtbot.addWidget(panel)
    panel.set_maps(make_synthetic_maps())
    panel.show()
    qtbot.waitExposed(panel)
    qtbot.keyClick(panel.heatmap.canvas, Qt.Key.Key_PageDown)
    assert panel.state()[0] == "decoder"


def test_the_formula_cell_is_saved_and_selected_again(qtbot, loaded, tmp_path, warnings):
    win, path = loaded, tmp_path / "lesson.json"
    with qtbot.waitSignal(win.controller.translation_ready, timeout=TIMEOUT):
        win.formula_dock.show()  # translates again, with the q, k, v the walkthrough needs
    view = win.formula_dock.widget()
    view.select_cell(2, 1)
    assert win.lessons.save_slide(path)
    assert json.loads(path.read_text())["slides"][0]["cell"] == [2, 1]
    view.select_cell(0, 0)
    win.formula_dock.hide()
    assert win.lessons.open_lesson(path)
    assert win.formula_dock.isVisible() and view.cell() == (2, 1)
    qtbot.waitUntil(lambda: win.controller.translation.vectors is not None, timeout=TIMEOUT)
    assert view.cell() == (2, 1) and view.row() is not None


GOOD = {"sentence": "a b", "view": "head", "kind": "cross", "layer": 1, "head": 1}
BAD = [
    ("{not json", "not a lesson file: not JSON"),
    (json.dumps({"slides": [GOOD]}), "not a lesson file: it lacks \"format\""),
    (json.dumps({"format": FORMAT, "version": 2, "slides": [GOOD]}), "version 2 is newer than this app reads (1)"),
    (json.dumps({"format": FORMAT, "version": "1", "slides": [GOOD]}), "version '1' is not one this app reads"),
    (json.dumps({"format": FORMAT, "version": 1, "slides": []}), "the lesson has no slides"),
    (json.dumps({"format": FORMAT, "version": 1, "slides": [GOOD, {**GOOD, "view": "heat"}]}),
     "slide 2: unknown view 'heat'"),
    (json.dumps({"format": FORMAT, "version": 1, "slides": [{**GOOD, "kind": "self"}]}),
     "slide 1: unknown attention kind 'self'"),
    (json.dumps({"format": FORMAT, "version": 1, "slides": [{**GOOD, "layer": 3}]}),
     "slide 1: layer 3 is out of range: the model has 2 layers"),
    (json.dumps({"format": FORMAT, "version": 1, "slides": [{**GOOD, "head": 0}]}),
     "slide 1: head 0 is out of range: the model has 4 heads"),
    (json.dumps({"format": FORMAT, "version": 1, "slides": [{"sentence": "a", "view": "head"}]}),
     "slide 1 lacks 'kind', 'layer', 'head'"),
    (json.dumps({"format": FORMAT, "version": 1, "slides": [{**GOOD, "beam": 9}]}), "'beam' 9 is out of range"),
    (json.dumps({"format": FORMAT, "version": 1, "slides": [{**GOOD, "cell": [1]}]}), "'cell' must be [query, key]"),
]


@pytest.mark.parametrize("text, message", BAD)
def test_each_bad_lesson_gets_its_message(text, message):
    with pytest.raises(LessonError) as error:
        parse_lesson(text, 2, 4)
    assert message in str(error.value) and "\n" not in str(error.value)


def test_a_bad_lesson_file_says_one_line_and_changes_nothing(qtbot, loaded, tmp_path, warnings):
    win, path = loaded, tmp_path / "bad.json"
    win.attention_panel.set_state("decoder", 1, 2)
    for text, message in (BAD[0], BAD[2], BAD[7]):  # one window for the three (a window costs ~0.5 s)
        warnings.clear()
        path.write_text(text)
        before, saved = state(win), path.read_bytes()
        assert not win.lessons.open_lesson(path)
        assert len(warnings) == 1 and warnings[0][2].startswith("bad.json: ") and message in warnings[0][2]
        assert "\n" not in warnings[0][2] and win.state_label.text() == warnings[0][2]
        assert state(win) == before and not win.lessons.is_playing() and not win.lessons.caption.isVisible()
        # Saving a slide into it refuses too, and leaves the file as it was.
        assert not win.lessons.save_slide(path)
        assert path.read_bytes() == saved and len(warnings) == 2, message


def test_a_missing_file_and_a_file_for_a_bigger_model(tmp_path):
    with pytest.raises(LessonError, match="none.json: no such file"):
        read_lesson(tmp_path / "none.json", 2, 4)
    text = json.dumps({"format": FORMAT, "version": 1, "slides": [{**GOOD, "layer": 6, "head": 8}]})
    assert parse_lesson(text, 6, 8)[0].layer == 6
    with pytest.raises(LessonError, match="layer 6 is out of range: the model has 4 layers"):
        parse_lesson(text, 4, 8)


def test_the_train_tab_and_an_empty_window_cannot_be_slides(qtbot, loaded, tmp_path, warnings):
    win = loaded
    win.show_tab("Train")
    assert not win.lessons.save_slide(tmp_path / "l.json")
    assert "can be slides, not this tab" in warnings[-1][2] and not (tmp_path / "l.json").exists()


def test_the_sample_lesson_fits_the_built_in_model():
    root = Path(__file__).resolve().parents[2]
    model = json.loads((root / "assets" / "models" / "en-de" / "config.json").read_text())["model"]
    slides = read_lesson(root / "docs" / "lessons" / "attention-basics.json", model["n_layers"], model["n_heads"])
    assert [s.view for s in slides] == ["head", "grid", "head", "head", "clock"] and slides[3].cell == (2, 1)
    # it names its model, so the Chinese window (which starts on en-zh) opens the German one to play it
    assert read_lesson_model(root / "docs" / "lessons" / "attention-basics.json") == "en-de"


HOSTILE = [
    ("[" * 200_000 + "]" * 200_000, "nests deeper than 8 levels"),
    ('{"format": "' + FORMAT + '", "version": ' + "1" * 5001 + "}", "an integer of 5001 digits"),
    (b"\xff\xfe{}", "not UTF-8 text"),
    (None, "too large for a lesson file"),
]


def test_hostile_lesson_files_get_one_line_from_the_window(qtbot, loaded, tmp_path, warnings):
    win = loaded
    for n, (content, message) in enumerate(HOSTILE):  # one window for the four
        warnings.clear()
        path = tmp_path / f"hostile-{n}.json"
        if content is None:
            with open(path, "wb") as f:  # 3 GiB on paper (sparse): refused before it is read
                f.truncate(3 * 2**30)
        else:
            path.write_bytes(content if isinstance(content, bytes) else content.encode())
        assert not win.lessons.open_lesson(path)
        assert len(warnings) == 1 and message in warnings[0][2] and "\n" not in warnings[0][2], warnings
        assert not win.lessons.is_playing()


def test_a_lesson_made_with_another_built_in_model_opens_that_model_first(qtbot, loaded, tmp_path, warnings):
    from model.builtin import builtin_model
    win, path = loaded, tmp_path / "de.json"
    path.write_text(dump_lesson([Slide(**GOOD)], model="en-de"))
    assert json.loads(path.read_text())["model"] == "en-de"
    with qtbot.waitSignal(win.lessons.slide_shown, timeout=TIMEOUT):
        assert win.lessons.open_lesson(path)
    assert Path(win.controller.info.path).resolve() == builtin_model("en-de").path.resolve()
    assert win.lessons.is_playing() and not warnings
    # A slide saved on a built-in model records it for a new lesson.
    win.lessons.stop()
    assert win.lessons.save_slide(tmp_path / "new.json")
    assert json.loads((tmp_path / "new.json").read_text())["model"] == "en-de"


def test_a_lesson_naming_an_unknown_model_plays_on_the_model_in_use(qtbot, loaded, tmp_path, warnings):
    win, path = loaded, tmp_path / "x.json"
    path.write_text(dump_lesson([Slide(**GOOD)], model="xx-yy"))
    with qtbot.waitSignal(win.lessons.slide_shown, timeout=TIMEOUT):
        assert win.lessons.open_lesson(path)
    assert win.lessons.is_playing() and not warnings


def test_the_chinese_sample_lesson_fits_the_english_chinese_model():
    from explorer.lecture.lesson_file import read_lesson_model
    root = Path(__file__).resolve().parents[2]
    lesson = root / "docs" / "lessons" / "我爱苹果.json"
    assert read_lesson_model(lesson) == "en-zh"
    folder = root / "assets" / "models" / "en-zh"
    if not (folder / "config.json").is_file():
        pytest.skip("no English→Chinese model shipped")
    model = json.loads((folder / "config.json").read_text())["model"]
    slides = read_lesson(lesson, model["n_layers"], model["n_heads"])
    assert {s.sentence for s in slides} == {"I love apples."}
    assert [s.view for s in slides] == ["head", "grid", "head", "steps", "head", "clock"]
    assert slides[3].step == 3 and slides[4].cell == (2, 2)
    assert all(any("\u4e00" <= c <= "\u9fff" for c in s.title) for s in slides)  # written in Chinese


def test_a_slide_saved_on_the_step_tab_replays_that_tab_at_its_step(qtbot, loaded, tmp_path, warnings):
    win, path = loaded, tmp_path / "steps.json"
    translate(qtbot, win, "the house is big")
    with qtbot.waitSignal(win.controller.translation_ready, timeout=TIMEOUT):
        win.show_view("steps")  # opening the tab translates again, with the search step by step
    assert win.current_view() == "steps" and win.tabs.currentWidget() is win.step_view
    win.step_view.set_layer_head(1, 2)
    win.step_view.set_step(3)
    assert win.lessons.save_slide(path)
    saved = json.loads(path.read_text())["slides"][0]
    assert saved["view"] == "steps" and saved["step"] == 3
    assert (saved["layer"], saved["head"]) == (2, 3) and "mean" not in saved  # what the tab showed, 1-based

    win.show_view("head")
    translate(qtbot, win, "I have no time today")  # translated off the tab: no steps
    assert win.controller.translation.steps is None
    with qtbot.waitSignal(win.controller.translation_ready, timeout=TIMEOUT):
        assert win.lessons.open_lesson(path)
    assert win.current_view() == "steps" and win.controller.translation.source == "the house is big"
    assert win.step_view.step() == 3 and win.step_view.layer_head() == (1, 2)
    assert win.step_view.step_label.text() == f"Step 3 of {win.step_view.n_steps()}"
    assert warnings == []


def test_a_steps_slide_with_the_mean_and_no_step_starts_at_the_first(qtbot, loaded, tmp_path, warnings):
    win, path = loaded, tmp_path / "mean.json"
    path.write_text(dump_lesson([Slide("one two three", "steps", "cross", 2, 1, mean=True)]))
    with qtbot.waitSignal(win.controller.translation_ready, timeout=TIMEOUT):
        assert win.lessons.open_lesson(path)
    assert win.current_view() == "steps" and win.step_view.step() == 1
    assert win.step_view.layer_head() == (1, None)
    with pytest.raises(LessonError, match="'step' 0 is out of range"):
        parse_lesson(json.dumps({"format": FORMAT, "version": 1, "slides": [{**GOOD, "view": "steps", "step": 0}]}),
                     2, 4)


def test_saving_a_slide_from_the_menu_asks_for_its_title(qtbot, loaded, tmp_path, warnings, monkeypatch):
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QFileDialog
    win, path = loaded, tmp_path / "titled.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(path), ""))
    dialog = win.lessons.title_dialog

    def answer(text, accept=True):
        def fill():
            assert dialog.isVisible() and "Title of the slide" in dialog.labelText()
            dialog.setTextValue(text)
            dialog.accept() if accept else dialog.reject()
        QTimer.singleShot(0, fill)

    answer("  Who looks   at whom ")
    win.save_slide_action.trigger()
    assert json.loads(path.read_text())["slides"][0]["title"] == "Who looks at whom"
    assert win.state_label.text() == "Slide 1 saved to titled.json"
    answer("never saved", accept=False)  # cancelled: no slide
    win.save_slide_action.trigger()
    answer("")  # no title: the slide has none
    win.save_slide_action.trigger()
    slides = json.loads(path.read_text())["slides"]
    assert len(slides) == 2 and "title" not in slides[1] and warnings == []


def test_pagedown_on_the_last_slide_says_the_lesson_is_over(qtbot, loaded, tmp_path, warnings):
    win, path = loaded, tmp_path / "two.json"
    path.write_text(dump_lesson([Slide("one two three", "head", "encoder", 1, 1), Slide("one two three", "grid",
                                                                                          "cross", 2, 4)]))
    assert win.lessons.open_lesson(path)
    qtbot.keyClick(win, Qt.Key.Key_PageDown)
    assert win.lessons.index() == 1 and "Slide 2 of 2" in win.lessons.caption.text()
    with qtbot.waitSignal(win.lessons.end_reached, timeout=1000):
        qtbot.keyClick(win, Qt.Key.Key_PageDown)
    assert win.lessons.index() == 1 and win.lessons.is_playing()  # still on the last slide
    assert win.lessons.caption.text().startswith("■ End of the lesson: slide 2 of 2 was the last")
    assert win.state_label.text() == "End of the lesson: no slide after slide 2"
    qtbot.keyClick(win, Qt.Key.Key_PageUp)
    assert win.lessons.index() == 0 and "Slide 1 of 2" in win.lessons.caption.text()


def test_a_slide_without_a_cell_closes_the_formula_dock_of_the_slide_before(qtbot, loaded, tmp_path, warnings):
    """Paged forward, a slide kept the dock (and its marked cell) of the slide before; paged back, it
    showed a cell the lesson never named: one slide, two looks."""
    win, path = loaded, tmp_path / "lesson.json"
    translate(qtbot, win, "the house is big")
    win.attention_panel.set_state("cross", 1, 2)
    win.show_view("head")
    assert win.lessons.save_slide(path)  # slide 1: no dock
    with qtbot.waitSignal(win.controller.translation_ready, timeout=TIMEOUT):
        win.formula_dock.show()
    win.formula_dock.widget().select_cell(2, 1)
    assert win.lessons.save_slide(path)  # slide 2: the dock on cell (2, 1)
    win.formula_dock.hide()
    translate(qtbot, win, "I have no time today")
    win.show_view("clock")
    assert win.lessons.save_slide(path)  # slide 3: another sentence, no dock

    assert win.lessons.open_lesson(path)
    assert not win.formula_dock.isVisible()
    qtbot.waitUntil(lambda: win.controller.translation.source == "the house is big", timeout=TIMEOUT)
    looks = []
    for key in (Qt.Key.Key_PageDown, Qt.Key.Key_PageDown, Qt.Key.Key_PageUp, Qt.Key.Key_PageUp):
        qtbot.keyClick(win, key)
        qtbot.waitUntil(lambda: not win.controller.is_busy, timeout=TIMEOUT)
        if win.formula_dock.isVisible():  # its numbers, and the mark on the map, come with the q, k, v
            qtbot.waitUntil(lambda: win.attention_panel.heatmap.marked_cell() is not None, timeout=TIMEOUT)
        looks.append((win.lessons.index(), win.formula_dock.isVisible(), win.attention_panel.heatmap.marked_cell()))
    assert [(i, dock) for i, dock, _ in looks] == [(1, True), (2, False), (1, True), (0, False)]
    assert looks[0][2] == looks[2][2] == (2, 1) and looks[1][2] is None and looks[3][2] is None


def test_the_status_line_names_the_slide_after_its_translation_is_shown(qtbot, loaded, tmp_path, warnings):
    """Slides whose sentence was translated anew showed "Ready" in the status line, the others the slide."""
    win, path = loaded, tmp_path / "lesson.json"
    translate(qtbot, win, "the house is big")
    assert win.lessons.save_slide(path)
    translate(qtbot, win, "I have no time today")
    assert win.lessons.save_slide(path)
    assert win.lessons.open_lesson(path)  # slide 1's sentence is not on screen: it is translated again
    for n in (1, 2):
        if n == 2:
            qtbot.keyClick(win, Qt.Key.Key_PageDown)
        with qtbot.waitSignal(win.controller.translation_ready, timeout=TIMEOUT):
            pass
        qtbot.waitUntil(lambda n=n: win.state_label.text() == f"Lesson {path.name}: slide {n} of 2", timeout=TIMEOUT)
