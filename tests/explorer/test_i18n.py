"""The Chinese UI: View › Language switches every text of the window at run time and back, nothing the
window shows is left in English, the shipped catalogue matches the code, and a broken translation file
leaves the window in English with one line saying why."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from PySide6.QtCore import QTranslator

from explorer.ui import i18n
from explorer.window.language_menu import saved_language, set_language
from explorer.window.retranslate import texts
from model.records import KINDS
from tools.i18n_catalogue import literals_in_code, read_ts

# Not words to translate: the app's name, file and command names, symbols of the paper, units and acronyms
# a Chinese textbook writes the same way.
PHRASES = ("Attention Explorer", "attention-explorer train --help", "config.json", "model.safetensors",
           "spm.model", "Hugging Face", "OPUS-MT", "PageUp/PageDown", "Ctrl+Enter", "Shift+Enter", "·ther",
           "Pharaoh", "Chen",
           "heldout/", "LICENSE")
TERMS = {"softmax", "PE", "pos", "BLEU", "CPU", "GPU", "ETA", "Dropout", "PNG", "SVG", "CSV", "NPZ", "TSV", "TAB",
         "NumPy", "Ding", "Marian", "Enter", "logits", "sin", "cos", "png", "svg", "csv", "npz", "ms", "W^Q", "W^K",
         "Kᵀ", "PEᵀ", "log", "lp", "MIT"}
WORD = re.compile(r"[A-Za-z0-9_^ᵀεΣ]+")


def is_word(token: str) -> bool:
    """Two Latin letters or more, and not a symbol of the formulas (d_model, k_j, bf16: a '_' or a digit)."""
    return len(re.findall(r"[A-Za-z]", token)) >= 2 and not re.search(r"[_\d]", token) and token not in TERMS


@pytest.fixture
def english_after():
    yield
    i18n.install_language("en")


def menu_titles(window) -> list[str]:
    return [a.text() for a in window.menuBar().actions()]


def tab_titles(tabs) -> list[str]:
    return [tabs.tabText(i) for i in range(tabs.count())]


def test_switching_to_chinese_changes_menus_and_tabs_and_back(window, english_after):
    english = (menu_titles(window), tab_titles(window.tabs), tab_titles(window.attention_panel.tabs),
               window.zoom_in_action.text(), window.translate_panel.translate_button.text())
    assert english[0] == ["&File", "&View", "&Models"]
    assert english[1] == ["Attention", "Step by step", "Positional encoding", "Train", "Workbench"]

    assert set_language(window, "zh_CN") == ""
    assert i18n.current_language() == "zh_CN"
    assert menu_titles(window) == ["文件(&F)", "视图(&V)", "模型(&M)"]
    assert tab_titles(window.tabs) == ["注意力", "逐步解码", "位置编码", "训练", "研究工作台"]
    assert tab_titles(window.attention_panel.tabs) == ["头", "全部头", "连线"]
    assert window.zoom_in_action.text() == "放大(&I)"
    assert window.translate_panel.translate_button.text() == "翻译"
    assert window.language_actions["zh_CN"].isChecked() and not window.language_actions["en"].isChecked()
    assert window.show_tab("Train") and window.tabs.currentWidget() is window.train_panel  # English names still work
    assert saved_language(window.settings) == "zh_CN"  # remembered for the next start

    assert set_language(window, "en") == ""
    assert (menu_titles(window), tab_titles(window.tabs), tab_titles(window.attention_panel.tabs),
            window.zoom_in_action.text(), window.translate_panel.translate_button.text()) == english
    assert saved_language(window.settings) == "en"


def test_texts_made_at_run_time_follow_the_language(loaded, english_after):
    panel = loaded.attention_panel
    panel.set_state("cross", 1, 2)
    assert panel.title() == "Encoder–decoder cross-attention — layer 2, head 3"
    set_language(loaded, "zh_CN")
    assert panel.title() == "编码器–解码器交叉注意力 — 第 2 层，第 3 头"
    assert loaded.windowTitle() == "Attention Explorer — fake-model"
    assert loaded.state_label.text() == "就绪"
    assert loaded.device_label.text() == "设备：cpu"
    assert panel.statistics_text().startswith("第 2 层，第 3 头：   熵 ")
    panel.set_state("encoder", 0, 0, mean=True)  # made anew in Chinese, not translated afterwards
    assert panel.title() == "编码器自注意力 — 第 1 层，4 个头的平均"
    set_language(loaded, "en")
    assert loaded.state_label.text() == "Ready"
    assert panel.title() == "Encoder self-attention — layer 1, mean of 4 heads"
    assert panel.statistics_text().startswith("Layer 1, mean of 4 heads:   entropy ")


def untranslated(text: str, data: set[str]) -> list[str]:
    """The English words left in ``text`` once names, terms, markup and the model's own words are set aside."""
    text = re.sub(r"<[^>]+>", " ", text)  # rich-text tags such as <br> are not words
    for phrase in sorted(data | set(PHRASES), key=len, reverse=True):
        text = text.replace(phrase, " ")
    return [w for w in WORD.findall(text) if is_word(w)]


def test_no_english_is_left_in_the_chinese_window(loaded, qtbot, english_after):
    loaded.formula_dock.show()
    translation, info = loaded.controller.translation, loaded.controller.info
    maps = translation.attention
    data = {translation.source, translation.text, info.path, Path(info.path).name, info.device,
            *maps.source_tokens, *maps.target_tokens, *maps.predicted_tokens}
    data |= {t.lstrip("▁") for t in data}
    english = [t.get() for t in texts(loaded) if untranslated(t.get(), data)]
    assert len(english) > 100  # the check finds English where there is English
    # Built on first use, after the switch: the Step tab's maps (when its tab shows, below) and the
    # probe's attention panel (now); their texts must be Chinese too.
    assert not loaded.step_view.maps.is_built() and not loaded.train_panel.replay.is_built()
    set_language(loaded, "zh_CN")
    assert loaded.train_panel.attention.heatmap is not None and loaded.train_panel.replay.is_built()
    loaded.resize(loaded.width() - 60, loaded.height() - 40)  # a resize re-applies the titles views keep aside
    qtbot.wait(20)
    found: dict[str, str] = {}
    for view in ("head", "grid", "lines"):
        loaded.attention_panel.set_view(view)
        for kind in KINDS:
            loaded.attention_panel.set_state(kind, 1, 1, mean=view == "lines")
            qtbot.wait(10)
            for t in texts(loaded):
                text = t.get().replace("\u2060", "").replace("\u00a0", " ")
                if untranslated(text, data):
                    found[text] = t.describe()
    for tab in range(loaded.tabs.count()):
        loaded.tabs.setCurrentIndex(tab)
        qtbot.wait(10)
        for t in texts(loaded):
            if untranslated(t.get(), data):
                found[t.get()] = t.describe()
    assert len(list(texts(loaded))) > 200  # the walk saw the whole window, docks and tabs included
    assert not found, "\n".join(f"{where}: {text!r}" for text, where in found.items())


def test_the_catalogue_covers_the_code_and_the_qm_matches_the_ts():
    entries = read_ts(i18n.ts_path("zh_CN"))
    fields = string.Formatter()
    for source in literals_in_code():
        text, kind = entries[source]
        assert text and kind == "", source
    qm = QTranslator()
    assert qm.load(str(i18n.qm_path("zh_CN")))
    for source, (text, kind) in entries.items():
        if kind == "":
            # no {name} the source lacks, or tr() would fall back to English for that string (a translation
            # may leave one out: Chinese has no "is"/"are" to agree with a number)
            assert {f for _, f, _, _ in fields.parse(text) if f} <= {f for _, f, _, _ in fields.parse(source) if f}, \
                source
            assert qm.translate(i18n.CONTEXT, source) == text, source  # the .qm was compiled from this .ts


@pytest.mark.parametrize("content", [None, b"not a qm file"])
def test_a_missing_or_broken_translation_leaves_english_with_one_line(window, tmp_path, monkeypatch, capsys,
                                                                      content, english_after):
    monkeypatch.setattr(i18n, "I18N_DIR", tmp_path)
    if content is not None:
        i18n.qm_path("zh_CN").write_bytes(content)
    problem = set_language(window, "zh_CN")
    assert ("missing" if content is None else "unreadable") in problem and "English" in problem
    assert "\n" not in problem
    assert capsys.readouterr().err == f"attention-explorer: {problem}\n"
    assert i18n.current_language() == "en" and menu_titles(window) == ["&File", "&View", "&Models"]
    assert window.state_label.text() == problem
    assert window.language_actions["en"].isChecked()
    assert saved_language(window.settings) == "en"  # a failed switch is not remembered


def test_tr_formats_after_translating_and_a_broken_template_falls_back(english_after, monkeypatch):
    assert i18n.tr("Loaded {name}", name="demo") == "Loaded demo"
    i18n.install_language("zh_CN")
    assert i18n.tr("Loaded {name}", name="demo") == "已加载 demo"
    assert i18n.tr("{n:,} pieces", n=32000) == "32,000 个子词"
    assert i18n.again("Loaded demo") == "已加载 demo"
    i18n.install_language("en")
    assert i18n.again("已加载 demo") == "Loaded demo"
    monkeypatch.setattr(i18n, "translate", lambda text: "已加载 {nmae}")  # a typo in a translation
    assert i18n.tr("Loaded {name}", name="demo") == "Loaded demo"


def test_lang_option():
    from explorer.app import build_parser

    assert build_parser().parse_args(["--lang", "zh_CN"]).lang == "zh_CN"
    assert build_parser().parse_args([]).lang is None
    with pytest.raises(SystemExit) as exc:
        build_parser().parse_args(["--lang", "fr"])
    assert exc.value.code == 2


def test_the_unknown_pieces_note_is_said_in_chinese(qtbot, english_after):
    from explorer.translate.panel import TranslatePanel
    from model.records import Translation

    panel = TranslatePanel()
    qtbot.addWidget(panel)
    translation = Translation("Hallo 😀 你", "Hello", ("▁Hallo", "▁", "<unk>", "<unk>"), ("▁Hello",), unknown_pieces=2)
    panel.set_translation(translation)
    assert panel.unknown_label.text() == translation.unknown_note()  # English: word for word the records' note
    i18n.install_language("zh_CN")
    panel.set_translation(translation)
    assert panel.unknown_label.text().startswith("7 个字符中有 2 个是这个模型不认识的")


def test_the_training_workers_notes_are_logged_in_chinese(qtbot, english_after):
    """The worker's own notes reached the Chinese Train log in English ("Reading the corpus and training
    the tokenizer…": issue 31's screenshot set)."""
    from explorer.training.panel import TrainPanel
    from explorer.training.worker import READING, READING_AND_TOKENIZER

    i18n.install_language("zh_CN")
    panel = TrainPanel()
    qtbot.addWidget(panel)
    for note, chinese in ((READING_AND_TOKENIZER, "正在读取语料并训练分词器…"), (READING, "正在读取语料…")):
        panel.runner.note.emit(note)
        assert panel.log_lines()[-1].endswith(chinese)
    panel.runner.note.emit("Could not list the GPUs: no driver")  # no entry: logged as it came
    assert panel.log_lines()[-1].endswith("Could not list the GPUs: no driver")


def test_texts_made_by_actions_are_said_in_chinese(loaded, qtbot, tmp_path, english_after, monkeypatch):
    """The strings the window makes only when something happens (issue 31, item 3): driven here, one by one."""
    from PySide6.QtCore import QPoint, QTimer
    from PySide6.QtWidgets import QMenu, QMessageBox

    win = loaded
    warnings = []
    monkeypatch.setattr(QMessageBox, "warning", lambda *args: warnings.append(args))
    monkeypatch.setattr(QMenu, "popup", lambda self, pos: None)  # built, not shown
    assert win.workbench.alignment_view.head_combo.itemText(0) == "Mean"
    set_language(win, "zh_CN")

    # The clock hands' Play / Pause after a toggle, and the "never seen in training" marks.
    win.show_view("clock")
    win.clock_view.set_playing(True)
    assert win.clock_view.play_button.text() == "暂停"
    win.clock_view.set_playing(False)
    assert win.clock_view.play_button.text() == "播放"
    assert win.clock_view.unseen_label.textItem.toPlainText() == "训练中从未见过"
    assert win.pe_tab._band_label.textItem.toPlainText() == "训练中从未见过"

    # Lessons: the status lines, the title dialog, the message box titles.
    path = tmp_path / "l.json"
    dialog = win.lessons.title_dialog
    QTimer.singleShot(0, lambda: (dialog.setTextValue("一"), dialog.accept()))
    assert win.lessons.ask_title() == "一" and dialog.windowTitle() == "保存课程幻灯片"
    assert dialog.labelText().startswith("幻灯片标题")
    win.show_view("head")
    assert win.lessons.save_slide(path)
    assert win.state_label.text() == "第 1 张幻灯片已保存到 l.json"
    assert win.lessons.open_lesson(path)
    win.lessons.step(+1)
    assert win.lessons.caption.text().startswith("■ 课程到此结束")
    assert win.state_label.text() == "课程结束：第 1 张之后没有幻灯片了"
    win.lessons.stop()
    assert win.state_label.text() == "课程已结束"
    (tmp_path / "bad.json").write_text("{not json")
    assert not win.lessons.open_lesson(tmp_path / "bad.json")
    assert warnings[-1][1] == "无法打开课程"
    win.show_tab("Train")
    assert not win.lessons.save_slide(path)
    assert warnings[-1][1] == "无法保存幻灯片"

    # The All heads grid's right-click menu, and the tile of a removed head.
    ablation = win.live_tools.ablation
    win.attention_panel.set_state("encoder", 0, 0)
    ablation.show_menu(0, 1, QPoint(0, 0))
    assert [a.text() for a in ablation.menu.actions()] == ["移除头 1.2（编码器自注意力）", "恢复所有头"]
    win.controller.removed_heads = (("encoder", 0, 1),)  # as a removal leaves it (the fake translates no ablation)
    ablation.show_menu(0, 1, QPoint(0, 0))
    assert ablation.menu.actions()[0].text() == "恢复头 1.2（编码器自注意力）"
    win.controller.removed_heads = ()
    win.attention_panel.set_view("grid")
    win.attention_panel.grid.set_removed({(0, 1)})
    assert win.attention_panel.grid._removed_marks.labels() == ["已移除"]

    # The workbench: its grids' titles and the Alignment tab's "mean".
    titles = [g.shown_title() for g in win.workbench.importance_view.grids.values()]
    assert titles == ["编码器自注意力", "解码器自注意力（带遮罩）", "交叉注意力（编码器–解码器）"]
    assert [g.shown_title() for g in win.workbench.stats_view.grids.values()] == titles
    assert win.workbench.alignment_view.head_combo.itemText(0) == "平均"

    # And back: the pyqtgraph labels follow the switch too.
    set_language(win, "en")
    assert win.clock_view.unseen_label.textItem.toPlainText() == "never seen in training"
    assert win.workbench.alignment_view.head_combo.itemText(0) == "Mean"  # as it was before the switch
    assert win.workbench.stats_view.grids["cross"].shown_title() == "Cross (encoder–decoder)"


def test_a_built_in_models_name_follows_a_language_switch(loaded, english_after):
    """"English → Chinese (built-in)": the pair is formatted into the name, so the walk alone kept it English."""
    import dataclasses  # noqa: PLC0415

    from model.builtin import default_model_dir  # noqa: PLC0415

    info = dataclasses.replace(loaded.controller.info, path=str(default_model_dir("en-zh")))
    loaded.controller.info = info
    loaded.info_panel.set_info(info)
    name = loaded.info_panel._values["Model"]
    assert name.text() == "English → Chinese (built-in)"
    set_language(loaded, "zh_CN")
    assert name.text() == "英语 → 中文（内置）"
    set_language(loaded, "en")
    assert name.text() == "English → Chinese (built-in)"


def test_the_chinese_statistics_grid_follows_its_chosen_statistic(qtbot, english_after):
    """Choosing 距离 raised ValueError (the translated item looked up in the English STATS) and the grids
    stayed on entropy; the kind column read "encoder" in the Chinese window."""
    import numpy as np  # noqa: PLC0415

    from explorer.window.retranslate import retranslate  # noqa: PLC0415
    from explorer.workbench.stats_view import StatsView  # noqa: PLC0415
    from model.records import KINDS as kinds  # noqa: PLC0415
    from model.records.research import STATS, HeadTable  # noqa: PLC0415

    view = StatsView()
    qtbot.addWidget(view)
    i18n.install_language("zh_CN")
    retranslate(view)
    values = {k: np.arange(2 * 3 * len(STATS), dtype=float).reshape(2, 3, len(STATS)) + n
              for n, k in enumerate(kinds)}
    view.set_table(HeadTable(values=values, sentences=4))
    distance = STATS.index("distance")
    assert view.stat_combo.itemText(distance) != "distance"  # the case under test: a translated item
    view.stat_combo.setCurrentIndex(distance)
    np.testing.assert_array_equal(view.grids["cross"].values, values["cross"][:, :, distance])
    assert view.table.item(0, 0).text() == "编码器" and view.column_values("kind")[0] == "encoder"


def test_a_text_made_of_translated_parts_is_remade_whole_after_a_switch(english_after):
    """The workbench summary after a switch to Chinese kept " (from the cache)" and "Cross (encoder–decoder)
    L3 H6" in English: the parts tr() made, formatted into a larger text, were not made again."""
    from explorer.ui.i18n import again, tr  # noqa: PLC0415

    head = tr("{kind} L{layer} H{head}", kind=tr("Cross (encoder–decoder)"), layer=3, head=6)
    text = tr("Full model: BLEU {bleu:.1f}, chrF {chrf:.1f} on {n} sentences{cached}. Cells: BLEU lost without the "
              "head; most important: {head}, {drop:.1f} lost.", bleu=30.0, chrf=50.0, n=10,
              cached=tr(" (from the cache)"), head=head, drop=7.7)
    i18n.install_language("zh_CN")
    chinese = again(text)
    assert "from the cache" not in chinese and "Cross" not in chinese and "交叉注意力" in chinese, chinese
    i18n.install_language("en")
    assert again(chinese) == text


def test_the_chinese_estimate_note_never_ends_on_a_lone_word(english_after):
    """Qt may break Chinese between any two characters: "…BLEU 下降随后给" then "出。" alone on a line at
    the workbench's widths (every width from 656 to 702 px measured). The last words are joined (U+2060),
    so whatever the width or font, a wrapped note ends with them together."""
    from PySide6.QtGui import QFont, QTextLayout

    from explorer.workbench.importance_view import SHOWN_ESTIMATE
    i18n.install_language("zh_CN")
    text = i18n.translate(SHOWN_ESTIMATE)
    assert text.startswith("当前显示")
    for width in range(300, 1000, 3):
        layout = QTextLayout(text, QFont())
        layout.beginLayout()
        lengths = []
        while (line := layout.createLine()).isValid():
            line.setLineWidth(width)
            lengths.append(line.textLength())
        layout.endLayout()
        if len(lengths) > 1:
            last = text[len(text) - lengths[-1]:].replace("\u2060", "")
            assert len(last) >= 5, (width, last)


def test_a_narrow_chinese_window_folds_the_captions_into_chinese_prefixes(qtbot, english_after):
    """At 640 × 480 the 层 / 头 captions folded into the spin boxes as the English "L 1 / 4" and "H 1 / 8"."""
    from explorer.attention.controls import AttentionControls  # noqa: PLC0415

    i18n.install_language("zh_CN")
    controls = AttentionControls()
    qtbot.addWidget(controls)
    controls.show()
    qtbot.waitExposed(controls)
    qtbot.wait(20)  # laid out with the Chinese captions: the hint below measures them
    controls.setFixedWidth(controls.minimumSizeHint().width())  # as narrow as the panel lets it be
    qtbot.waitUntil(lambda: controls.layer_spin.prefix() != "")
    assert (controls.layer_spin.prefix(), controls.head_spin.prefix()) == ("层 ", "头 ")
    controls.setFixedWidth(3000)  # room for every caption: no prefix
    qtbot.waitUntil(lambda: controls.layer_spin.prefix() == "")
