"""The window's languages: English (the source text) and Simplified Chinese, through Qt's translator.

Every string a person reads is written in English in the code and looked up in one translation context,
``AttentionExplorer``, with ``QCoreApplication.translate``. Widgets built with fixed English text need no
call at all: :mod:`explorer.window.retranslate` walks the window and translates them, remembering each English
source so that switching back works. Strings built at run time (a status line, a title with numbers) go
through :func:`tr` with their numbers as format arguments, so the template is what gets translated:
``tr("Loaded {name}", name=name)``.

The translations ship as ``assets/i18n/attention_explorer_zh_CN.ts`` (Qt Linguist's XML, the reviewable
source) and the ``.qm`` that ``pyside6-lrelease`` compiles from it, which is what is loaded. Qt's own
translation of its dialogs' buttons (``qtbase_zh_CN.qm``, shipped with PySide6) is loaded beside it, and
the few words that file lacks come from :mod:`explorer.ui.qt_gaps`.
A missing or unreadable file leaves the window in English, with one line saying why.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from explorer.ui.qt_gaps import QtGaps

CONTEXT = "AttentionExplorer"
LANGUAGES = {"en": "English", "zh_CN": "简体中文"}  # each name in its own language, as menus show them
SOURCE_LANGUAGE = "en"
SETTINGS_KEY = "language"
I18N_DIR = Path(__file__).resolve().parents[2] / "assets" / "i18n"  # the repository's, or the wheel's
_MEMORY = 4096  # formatted strings remembered for switching (a status line per event; old ones age out)


def qm_path(language: str) -> Path:
    return I18N_DIR / f"attention_explorer_{language}.qm"


def ts_path(language: str) -> Path:
    return I18N_DIR / f"attention_explorer_{language}.ts"


class _State:
    language = SOURCE_LANGUAGE
    translators: list[QTranslator] = []
    # Text shown -> (template, arguments) for every string tr() formatted, in either language: lets the
    # retranslation walk find the template behind "已加载 demo" or "Loaded demo" and format it anew.
    formatted: OrderedDict[str, tuple[str, str]] = OrderedDict()
    templates: set[str] = set()  # every template tr() was asked for (the catalogue tool reads this)


def current_language() -> str:
    return _State.language


def translate(text: str) -> str:
    """The current language's text for a fixed English ``text`` (``text`` itself when it has none)."""
    if not text:
        return text
    return QCoreApplication.translate(CONTEXT, text)


def N_(text: str) -> str:  # noqa: N802 - gettext's name for it, which translators know
    """Mark ``text`` for the catalogue without translating it (a constant translated where it is shown)."""
    return text


def tr(template: str, **args) -> str:
    """Translate ``template``, then fill in ``args`` (``str.format`` names; numbers keep their format
    specs, e.g. ``{score:.2f}``). The result is remembered so that a language switch can redo it."""
    _State.templates.add(template)
    text = translate(template)
    if args:
        try:
            text = text.format(**args)
        except (KeyError, IndexError, ValueError):  # a broken translation must not break the window
            text = template.format(**args)
    key = json.dumps([template, args], ensure_ascii=False, default=str)
    for shown in {text, template.format(**args) if args else template}:
        _State.formatted[shown] = (template, key)
        _State.formatted.move_to_end(shown)
    while len(_State.formatted) > _MEMORY:
        _State.formatted.popitem(last=False)
    return text


def source_of(text: str) -> str | None:
    """The JSON ``[template, args]`` behind a string tr() formatted (in any language), else None."""
    found = _State.formatted.get(text)
    return found[1] if found else None


def redo(source: str) -> str:
    """A source from :func:`source_of` (JSON) or a plain English string, in the current language."""
    if source.startswith('["'):
        try:
            template, args = json.loads(source)
            # An argument that tr() made itself (a kind's title, " (from the cache)") is made again too:
            # it was formatted into the text in the old language, and stayed so ("Cross (encoder–decoder)
            # L3 H6" in the Chinese workbench). The user's and the model's words have no source: kept.
            args = {k: redo(source_of(v)) if isinstance(v, str) and source_of(v) else v for k, v in args.items()}
            return tr(template, **args)
        except (ValueError, TypeError, KeyError, IndexError):
            pass
    return translate(source)


def again(text: str) -> str:
    """``text`` (made by :func:`tr` earlier, in any language) in the current language: for texts a
    widget keeps aside to show later."""
    return redo(source_of(text) or text)


def _remove_translators(app) -> None:
    for translator in _State.translators:
        app.removeTranslator(translator)
    _State.translators = []


def install_language(language: str, app=None) -> str:
    """Make ``language`` the app's language; returns "" or a one-line reason it stayed English.

    Only the translator changes here; :func:`explorer.window.retranslate.retranslate` then updates the
    widgets already on screen."""
    app = app or QCoreApplication.instance()
    if language not in LANGUAGES:
        names = ", ".join(LANGUAGES)
        _remove_translators(app)
        _State.language = SOURCE_LANGUAGE
        return f"unknown language {language!r} (available: {names}); the window stays in English"
    _remove_translators(app)
    _State.language = SOURCE_LANGUAGE
    if language == SOURCE_LANGUAGE:
        return ""
    path = qm_path(language)
    ours = QTranslator(app)
    if not path.is_file():
        return f"the {LANGUAGES[language]} translation is missing ({path}); the window stays in English"
    if not ours.load(str(path)) or ours.isEmpty():
        return f"the {LANGUAGES[language]} translation {path} is unreadable; the window stays in English"
    qt_own = QTranslator(app)  # Qt's dialogs (Yes/No, Cancel, file dialogs); optional
    if qt_own.load(QLocale(language), "qtbase", "_", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
        app.installTranslator(qt_own)
        _State.translators.append(qt_own)
    gaps = QtGaps(language, app)  # the few words of Qt's dialogs that qtbase's file lacks
    if not gaps.isEmpty():
        app.installTranslator(gaps)
        _State.translators.append(gaps)
    app.installTranslator(ours)
    _State.translators.append(ours)
    _State.language = language
    return ""
