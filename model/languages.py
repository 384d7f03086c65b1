"""Which language a text is in, as far as this project needs to know: file names and BLEU's tokenizer.

Two decisions depend on the target language, and both must be right or the numbers mislead:

* Corpus files are named by language (``train.zh``), so a folder says what it holds.
* sacrebleu's ``13a`` tokenizer splits on spaces and punctuation. Chinese and Japanese are written without
  spaces, so under ``13a`` a whole Chinese sentence is one "word" and BLEU measures little but exact
  sentence matches. sacrebleu's ``zh`` tokenizer splits Chinese characters apart (its documented choice for
  Chinese), ``ja-mecab`` needs MeCab, which this project does not ship, so Japanese falls back to ``char``.

Detection reads the script, not a statistical model: a text whose letters are mostly Han characters is
Chinese (kana makes it Japanese, Hangul Korean). That is all the tokenizer choice needs; every other
language keeps ``13a``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from model.errors import UserError

# ISO 639-1 codes the app names in plain words; any other two- or three-letter code is accepted as it is.
NAMES = {"en": "English", "de": "German", "zh": "Chinese", "fr": "French", "es": "Spanish", "ja": "Japanese",
         "ko": "Korean", "it": "Italian", "nl": "Dutch", "pt": "Portuguese", "ru": "Russian", "uk": "Ukrainian",
         "ar": "Arabic", "tr": "Turkish", "pl": "Polish", "sv": "Swedish", "fi": "Finnish", "cs": "Czech"}
# manythings.org/anki names its files by ISO 639-3 code (deu.txt, cmn.txt): those we map back.
ANKI_CODES = {"deu": "de", "cmn": "zh", "zho": "zh", "fra": "fr", "spa": "es", "jpn": "ja", "kor": "ko",
              "ita": "it", "nld": "nl", "por": "pt", "rus": "ru", "ukr": "uk", "ara": "ar", "tur": "tr",
              "pol": "pl", "swe": "sv", "fin": "fi", "ces": "cs"}
_CODE = re.compile(r"^[a-z]{2,3}$")
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_KANA = re.compile(r"[\u3040-\u30ff]")
_HANGUL = re.compile(r"[\uac00-\ud7af]")
_LETTER = re.compile(r"[^\W\d_]")


def language_name(code: str) -> str:
    """"German" for "de"; an unknown but well-formed code names itself; anything else is refused."""
    if not isinstance(code, str) or not _CODE.match(code):
        raise UserError(f"{code!r} is not a language code (two or three lowercase letters, e.g. en, de, zh)")
    return NAMES.get(code, code)


def script_language(texts: Iterable[str]) -> str | None:
    """"zh", "ja" or "ko" when most letters of the texts are in that script; None otherwise."""
    letters = han = kana = hangul = 0
    for t in texts:
        letters += len(_LETTER.findall(t))
        han += len(_HAN.findall(t))
        kana += len(_KANA.findall(t))
        hangul += len(_HANGUL.findall(t))
    if not letters:
        return None
    if kana and (han + kana) / letters > 0.5:
        return "ja"
    if han / letters > 0.5:
        return "zh"
    if hangul / letters > 0.5:
        return "ko"
    return None


def detect_target(path: Path, texts: Iterable[str]) -> str:
    """The target language of a Tatoeba file: its script first, then its Anki name (``cmn.txt``,
    ``tatoeba-deu-eng-2018.tsv.xz``), and German when neither tells (the builder's original pair)."""
    by_script = script_language(texts)
    if by_script:
        return by_script
    for part in re.split(r"[^a-z]+", Path(path).name.lower()):
        if part in ANKI_CODES:
            return ANKI_CODES[part]
    return "de"


def bleu_tokenizer(lang: str | None = None, references: Iterable[str] = ()) -> str:
    """sacrebleu's tokenizer for a target language: ``zh`` for Chinese, ``char`` for Japanese, ``13a`` for
    the rest. Without a language, the references' script decides."""
    lang = lang or script_language(references)
    return {"zh": "zh", "ja": "char"}.get(lang or "", "13a")


def model_target(folder: Path | str | None) -> str | None:
    """The target language of a model folder, as far as its files tell: a held-out ``test.<lang>``, the
    suffix of the corpus it was trained on (``train.zh``), or a name such as ``en-zh`` / ``opus-mt-en-zh``."""
    if folder is None:
        return None
    folder = Path(folder)
    held = folder / "heldout"
    if held.is_dir():
        for p in sorted(held.glob("test.*")):
            if p.suffix[1:] != "en" and _CODE.match(p.suffix[1:]) and p.suffix[1:] not in ("src", "tgt"):
                return p.suffix[1:]
    from model.safe_json import read_json
    try:
        tgt = read_json(folder / "train_config.json", max_bytes=1 << 20).get("tgt", "")
    except (OSError, UserError, AttributeError):
        tgt = ""
    suffix = Path(tgt).suffix[1:] if isinstance(tgt, str) else ""
    if _CODE.match(suffix or "-") and suffix in NAMES:
        return suffix
    for name in (folder.name, folder.parent.name, folder.parent.parent.name):
        m = re.search(r"(?:^|[-_])([a-z]{2,3})-([a-z]{2,3})$", name.lower())
        if m and m.group(2) in NAMES:
            return m.group(2)
    return None


# SentencePiece's default normalisation (NFKC) folds full-width punctuation into ASCII while it learns the
# vocabulary, so a Chinese model writes "你在哪里?" where Chinese text, and 89% of the Tatoeba references,
# write "你在哪里？". The model cannot produce what its vocabulary lost; putting the full-width forms back
# after a Chinese character is the inverse of that folding.
_FULLWIDTH = str.maketrans({",": "，", "?": "？", "!": "！", ":": "：", ";": "；", "(": "（", ")": "）"})
_AFTER_HAN = re.compile(r"(?<=[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u3002\uff1f\uff01\uff0c）])\s*([,?!:;)])")
_BEFORE_HAN = re.compile(r"\((?=[\u3400-\u4dbf\u4e00-\u9fff])")


def fullwidth_punctuation(text: str) -> str:
    """ASCII , ? ! : ; ( ) next to Chinese characters as the full-width marks Chinese uses; "3,000",
    "U.S." and Latin text are left alone."""
    text = _BEFORE_HAN.sub("（", text)
    while True:  # "吗?!": the "!" follows a mark that becomes full-width in the pass before
        fixed = _AFTER_HAN.sub(lambda m: m.group(1).translate(_FULLWIDTH), text)
        if fixed == text:
            return text
        text = fixed
