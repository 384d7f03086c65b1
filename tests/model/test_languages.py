"""Script detection and the BLEU tokenizer it picks: with 13a, a Chinese sentence is one word."""

from __future__ import annotations

import pytest
import sacrebleu

from model.errors import UserError
from model.languages import bleu_tokenizer, detect_target, language_name, script_language


def test_script_language():
    assert script_language(["我爱苹果。", "他们喜欢苹果。"]) == "zh"
    assert script_language(["私はりんごが好きです。"]) == "ja"
    assert script_language(["저는 사과를 좋아해요."]) == "ko"
    assert script_language(["Ich liebe Äpfel.", "Tom mag 苹果."]) is None  # mostly Latin letters
    assert script_language(["123 !?", ""]) is None


def test_detect_target_prefers_the_script_then_the_file_name(tmp_path):
    assert detect_target(tmp_path / "deu.txt", ["我爱苹果。"]) == "zh"
    assert detect_target(tmp_path / "tatoeba-cmn-eng-2022.tsv.xz", ["Hallo."]) == "zh"
    assert detect_target(tmp_path / "fra.txt", ["Bonjour."]) == "fr"
    assert detect_target(tmp_path / "pairs.tsv", ["Hallo."]) == "de"


def test_language_names_and_refusals():
    assert language_name("zh") == "Chinese" and language_name("xx") == "xx"
    for bad in ("ZH", "chinese", "", "z1"):
        with pytest.raises(UserError):
            language_name(bad)


def test_chinese_bleu_uses_the_zh_tokenizer():
    refs = ["我爱苹果。", "他们喜欢吃苹果。"]
    hyps = ["我爱苹果。", "他们喜欢苹果。"]
    assert bleu_tokenizer("zh") == "zh" and bleu_tokenizer(references=refs) == "zh"
    assert bleu_tokenizer("de") == bleu_tokenizer(references=["Ich liebe Äpfel."]) == "13a"
    assert bleu_tokenizer("ja") == "char"
    # Why it matters: under 13a the second, nearly right sentence counts as a wrong one-word sentence.
    as_words = sacrebleu.corpus_bleu(hyps, [refs], tokenize="13a").score
    as_characters = sacrebleu.corpus_bleu(hyps, [refs], tokenize=bleu_tokenizer(references=refs)).score
    assert as_characters > as_words + 20
