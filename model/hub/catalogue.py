"""The OPUS-MT models the Get-a-model dialog offers by name, with what their model cards say.

Torch-free and network-free: the dialog shows this list before anything is asked of the Hub. The scores
are the Tatoeba (or, where the card has no Tatoeba row, the card's only) test-set BLEU that each model's
card reports, read from the cards on 2026-12-02; the licence is the card's where it names one. Sizes are
not written here: every one of these is the paper's base Transformer with a ~60k shared vocabulary, so
about 300 MB of float32 weights, and the dialog shows the exact byte count once the Hub has answered.

Helsinki-NLP/opus-mt-en-zh needs a target-language token in front of every sentence (its card: "a
sentence initial language token is required in the form of >>id<<"): ``prefix`` says which one the app
puts there, so a user who types plain English gets Simplified Chinese.
"""

from __future__ import annotations

from dataclasses import dataclass

from model.languages import language_name

BASE_SIZE_MB = 300  # 6 + 6 layers, d_model 512, ~60k vocabulary: ~75 M float32 parameters


@dataclass(frozen=True)
class HubModel:
    repo_id: str
    source: str  # ISO 639-1
    target: str
    bleu: float  # the model card's test-set BLEU
    test_set: str  # which test set that BLEU is on, as the card names it
    licence: str = ""  # "" when the card names none: the dialog says "see the model card"
    prefix: str = ""  # a target-language token the model needs in front of the source, e.g. ">>cmn_Hans<<"
    note: str = ""  # what a user should know before choosing it

    @property
    def label(self) -> str:
        """"English → Chinese": how the dialog and the Models menu name it."""
        return f"{language_name(self.source)} → {language_name(self.target)}"


CATALOGUE: tuple[HubModel, ...] = (
    HubModel("Helsinki-NLP/opus-mt-en-de", "en", "de", 47.3, "Tatoeba.en.de", "cc-by-4.0"),
    HubModel("Helsinki-NLP/opus-mt-en-zh", "en", "zh", 31.4, "Tatoeba-test.eng.zho", "apache-2.0",
             prefix=">>cmn_Hans<<"),
    HubModel("Helsinki-NLP/opus-mt-zh-en", "zh", "en", 36.1, "Tatoeba-test.zho.eng", "apache-2.0"),
    HubModel("Helsinki-NLP/opus-mt-de-en", "de", "en", 55.4, "Tatoeba.de.en"),
    HubModel("Helsinki-NLP/opus-mt-en-fr", "en", "fr", 50.5, "Tatoeba.en.fr", "apache-2.0"),
    HubModel("Helsinki-NLP/opus-mt-en-es", "en", "es", 54.9, "Tatoeba-test.eng.spa"),
    HubModel("Helsinki-NLP/opus-mt-en-jap", "en", "ja", 42.1, "bible-uedin.en.jap", "apache-2.0",
             note="trained on Bible translations only: expect archaic Japanese for everyday text"),
)


def catalogue_entry(repo_id: str) -> HubModel | None:
    return next((m for m in CATALOGUE if m.repo_id.lower() == repo_id.lower()), None)


def pair_from_name(repo_id: str) -> tuple[str, str] | None:
    """("en", "zh") from an OPUS-MT style name (``…/opus-mt-en-zh``, ``…/opus-mt-tc-big-en-fr``), else None.

    Only for naming a model in a menu; what a model really reads and writes is in its own files."""
    entry = catalogue_entry(repo_id)
    if entry is not None:
        return entry.source, entry.target
    parts = repo_id.rsplit("/", 1)[-1].split("-")
    if len(parts) >= 2 and all(2 <= len(p) <= 3 and p.isalpha() and p.islower() for p in parts[-2:]):
        return parts[-2], parts[-1]
    return None


def hub_label(repo_id: str) -> str:
    """"English → Chinese (Helsinki-NLP/opus-mt-en-zh)", or the bare id when its name gives no pair."""
    pair = pair_from_name(repo_id)
    return f"{language_name(pair[0])} → {language_name(pair[1])} ({repo_id})" if pair else repo_id
