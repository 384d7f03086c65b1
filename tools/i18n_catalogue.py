"""Keep the translation catalogue in step with the code: ``python3 -m tools.i18n_catalogue``.

Qt's ``lupdate`` finds only strings wrapped in ``tr()`` calls; most of this window's text is plain English
in widget constructors, translated by the walk in :mod:`explorer.window.retranslate`. So the catalogue is
collected the same way the window is translated: every ``tr("…")`` / ``translate("…")`` literal in
``explorer/``, plus every text of a real window (the built-in model loaded, a sentence translated, each
attention kind and view shown once). New strings are added to ``assets/i18n/*.ts`` as unfinished
(Qt Linguist or any editor fills them in), strings no longer found are marked obsolete rather than
lost, and ``pyside6-lrelease`` compiles the ``.qm`` the app loads. A developer tool: the app never runs it.
"""

from __future__ import annotations

import ast
import contextlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

from explorer.ui.i18n import CONTEXT, I18N_DIR, LANGUAGES, SOURCE_LANGUAGE, qm_path, source_of, ts_path

ROOT = Path(__file__).resolve().parents[1] / "explorer"  # the app's sources, whose tr() calls are collected
CALLS = {"tr", "translate", "N_"}
# Shown in the window but written where Qt may not be imported (the model's messages, the worker's
# device names): listed here so that they are translated all the same.
EXTRA = (
    "type a sentence to translate: the text is empty",
    "the sentence holds nothing the tokenizer can read",
    "CPU, bf16 math (faster)",
)
# Texts of a window that are data, not words to translate: a head's name on its button, a number with its
# unit, a list of numbers.
DATA = re.compile(r"H\d+|[\d.,]+ ?[kMB]?|\[.*")


def read_ts(path: Path) -> dict[str, tuple[str, str]]:
    """source -> (translation, type) of a Qt Linguist file; type is '' (done), 'unfinished' or 'obsolete'."""
    entries: dict[str, tuple[str, str]] = {}
    for message in ET.parse(path).getroot().iter("message"):
        source = message.findtext("source") or ""
        translation = message.find("translation")
        text = (translation.text or "") if translation is not None else ""
        kind = translation.get("type", "") if translation is not None else "unfinished"
        entries[source] = (text, kind)
    return entries


def write_ts(path: Path, language: str, entries: dict[str, tuple[str, str]]) -> None:
    root = ET.Element("TS", version="2.1", language=language, sourcelanguage="en")
    context = ET.SubElement(root, "context")
    ET.SubElement(context, "name").text = CONTEXT
    for source, (text, kind) in entries.items():
        message = ET.SubElement(context, "message")
        ET.SubElement(message, "source").text = source
        translation = ET.SubElement(message, "translation")
        translation.text = text
        if kind:
            translation.set("type", kind)
    ET.indent(root)
    body = ET.tostring(root, encoding="unicode")
    path.write_text('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n' + body + "\n", encoding="utf-8")


def literals_in_code(folder: Path = ROOT) -> list[str]:
    """The first argument of every ``tr("…")`` / ``translate("…")`` call whose argument is a literal."""
    found: list[str] = []
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            # tr("…") and i18n.tr("…") alike (a module whose local name ``tr`` means something else calls it so)
            func = node.func if isinstance(node, ast.Call) else None
            name = getattr(func, "id", None) or getattr(func, "attr", None)
            if (name in CALLS
                    and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                found.append(node.args[0].value)
    return found


@contextlib.contextmanager
def clean_settings():
    """The window's settings in an empty temporary file for the duration: the developer's own (a recent
    model's path, a remembered language) would otherwise show in the window and be collected as words."""
    from explorer.ui.recent import SETTINGS_ENV

    before = os.environ.get(SETTINGS_ENV)
    with tempfile.TemporaryDirectory() as tmp:
        os.environ[SETTINGS_ENV] = str(Path(tmp) / "settings.ini")
        try:
            yield
        finally:
            if before is None:
                os.environ.pop(SETTINGS_ENV, None)
            else:
                os.environ[SETTINGS_ENV] = before


def texts_of_a_window(timeout_ms: int = 120_000) -> list[str]:
    """Every English text of a window that has the built-in model loaded and a sentence translated."""
    with clean_settings():
        return _texts_of_a_window(timeout_ms)


def _texts_of_a_window(timeout_ms: int) -> list[str]:
    from PySide6.QtCore import QEventLoop, QTimer
    from PySide6.QtWidgets import QApplication

    from explorer.ui import i18n
    from explorer.window.info_panel import model_display_name
    from explorer.window.main_window import MainWindow
    from explorer.window.retranslate import texts
    from model.records import KINDS

    app = QApplication.instance() or QApplication([])
    window = MainWindow(show_dialogs=False, remember_recent=False)
    window.resize(1600, 1000)
    window.show()
    loop = QEventLoop()
    window.controller.translation_ready.connect(lambda _t: loop.quit())
    window.controller.error.connect(lambda _k, m: (print(m, file=sys.stderr), loop.quit()))
    QTimer.singleShot(timeout_ms, loop.quit)
    window.load_default_model()
    loop.exec()
    window.formula_dock.show()
    seen: list[str] = []
    for view in ("head", "grid", "lines"):
        window.attention_panel.set_view(view)
        for kind in KINDS:
            window.attention_panel.set_state(kind, 0, 0, mean=view == "grid")
            app.processEvents()
            for t in texts(window):
                text = t.get()
                seen.append(text)
    for tab in range(window.tabs.count()):
        window.tabs.setCurrentIndex(tab)
        app.processEvents()
        seen += [t.get() for t in texts(window)]
    info, shown = window.controller.info, window.controller.translation
    data = {info.path, model_display_name(info.path), info.device, shown.source, shown.text} if shown else set()
    window.close()
    # A text tr() formatted ("Loaded demo") is caught as its template, from tr()'s own record; the
    # statistics and legend lines (glued with word joiners for wrapping) come from tr() too.
    plain = [s for s in seen if s and s.strip() and any(c.isalpha() for c in s) and source_of(s) is None
             and "\u2060" not in s and s not in data and not DATA.fullmatch(s)]
    return plain + sorted(i18n._State.templates)


def update(language: str, window: bool = True) -> dict[str, tuple[str, str]]:
    path = ts_path(language)
    old = read_ts(path) if path.is_file() else {}
    sources = literals_in_code() + list(EXTRA) + (texts_of_a_window() if window else [])
    entries: dict[str, tuple[str, str]] = {}
    for source in dict.fromkeys(sources):
        text, kind = old.get(source, ("", "unfinished"))
        entries[source] = (text, "" if kind == "obsolete" and text else kind)
    for source, (text, _kind) in old.items():  # kept, so that a string coming back keeps its translation
        if source not in entries:
            entries[source] = (text, "obsolete" if window else _kind)
    write_ts(path, language, entries)
    return entries


def compile_qm(language: str) -> bool:
    tool = shutil.which("pyside6-lrelease") or shutil.which("lrelease")
    if tool is None:
        print("pyside6-lrelease not found: the .qm was not rebuilt", file=sys.stderr)
        return False
    subprocess.run([tool, "-silent", str(ts_path(language)), "-qm", str(qm_path(language))], check=True)
    return True


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    I18N_DIR.mkdir(parents=True, exist_ok=True)
    for language in LANGUAGES:
        if language == SOURCE_LANGUAGE:
            continue
        if "--compile-only" not in argv:
            entries = update(language, window="--code-only" not in argv)
            todo = [s for s, (_t, kind) in entries.items() if kind == "unfinished"]
            print(f"{ts_path(language).name}: {len(entries)} strings, {len(todo)} to translate")
            for source in todo:
                print(f"  {source!r}")
        compile_qm(language)
    return 0


if __name__ == "__main__":
    sys.exit(main())
