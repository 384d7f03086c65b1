"""Models › one entry per built-in language pair (then the downloaded Hub models: hub_menu), and which one
the window starts on.

A Chinese classroom must not meet a German model first: the window in Chinese starts on English→Chinese,
in English on English→German, until the user picks one here; that pick is remembered and wins from then on.
The entries are the folders of ``assets/models/`` (``model.builtin``, torch-free), named by language pair in
the window's language; the check mark follows whatever model is loaded, so opening another folder clears it.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QAction, QActionGroup

from explorer.ui.i18n import N_, tr, translate
from explorer.window.hub_menu import hub_display_name, hub_start_model, install_hub_entries, mark_hub_loaded
from model.builtin import BuiltinModel, builtin_model, builtin_models

SETTINGS_KEY = "models/builtin"  # the built-in model the user chose last, by name ("en-zh")
# Language names as the menu shows them; N_ marks them for the catalogue (tools/i18n_catalogue.py).
LANGUAGE_NAMES = {"en": N_("English"), "de": N_("German"), "zh": N_("Chinese"), "fr": N_("French"),
                  "es": N_("Spanish"), "ja": N_("Japanese")}


def pair_label(model: BuiltinModel) -> str:
    """"English → Chinese" in the window's language. Made from the plain lookups, not a tr() template: a
    template's text is remembered for the retranslation walk, which would then take the Train tab's own
    "English → German" entry for this label and keep it in English."""
    src = translate(LANGUAGE_NAMES[model.source]) if model.source in LANGUAGE_NAMES else model.source
    tgt = translate(LANGUAGE_NAMES[model.target]) if model.target in LANGUAGE_NAMES else model.target
    return f"{src} → {tgt}"


def start_model(settings, language: str) -> Path | None:
    """The built-in model to open at start: the user's last pick, else the window language's pair
    (Chinese → en-zh), else None (the default built-in model, en-de or $ATTENTION_EXPLORER_MODEL)."""
    chosen = settings.value(SETTINGS_KEY, "")
    if isinstance(chosen, str) and hub_start_model(chosen) is not None:
        return hub_start_model(chosen)
    found = builtin_model(chosen) if isinstance(chosen, str) and chosen else None
    if found is None and language.startswith("zh"):
        found = builtin_model("en-zh")
    return found.path if found is not None else None


def install_models_menu(window) -> None:
    """Add the Models menu at the end of ``window``'s menu bar (File and View keep their places)."""
    menu = window.menuBar().addMenu("&Models")
    window.models_menu = menu
    group = QActionGroup(window)
    window.model_actions = {}
    for model in builtin_models():
        action = QAction(pair_label(model), window, checkable=True)
        action.setProperty("i18n_skip", True)  # relabelled by retranslate_models_menu, not the walk
        action.setToolTip(tr("Built-in model: {path}", path=str(model.path)))
        action.triggered.connect(lambda _=False, m=model: choose(window, m))
        group.addAction(action)
        menu.addAction(action)
        window.model_actions[model.name] = action
    menu.addSeparator()
    menu.addAction(window.open_action)
    install_hub_entries(window, menu, group, before=window.open_action)


def choose(window, model: BuiltinModel) -> None:
    """Open a built-in model and remember the choice for the next start."""
    window.settings.setValue(SETTINGS_KEY, model.name)
    window.open_model(model.path)


def mark_loaded(window, path: str) -> None:
    """Check the entry of the model now loaded (none for a folder that is not built in)."""
    loaded = Path(path).resolve() if path else None
    for name, action in getattr(window, "model_actions", {}).items():
        model = builtin_model(name)
        action.setChecked(model is not None and loaded is not None and model.path.resolve() == loaded)
    mark_hub_loaded(window, path)


def retranslate_models_menu(window) -> None:
    for name, action in getattr(window, "model_actions", {}).items():
        model = builtin_model(name)
        if model is not None:
            action.setText(pair_label(model))


def builtin_display_name(path: str) -> str | None:
    """"English → Chinese (built-in)" for a built-in model's folder, the pair and repository of a Hub model,
    else None."""
    resolved = Path(path).resolve()
    for model in builtin_models():
        if model.path.resolve() == resolved:
            return tr("{pair} (built-in)", pair=pair_label(model))
    return hub_display_name(path)
