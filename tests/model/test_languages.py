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


def test_chinese_punctuation_comes_back_full_width():
    from model.languages import fullwidth_punctuation
    assert fullwidth_punctuation("你在哪里?") == "你在哪里？"
    assert fullwidth_punctuation("我爱你,你呢?") == "我爱你，你呢？"
    assert fullwidth_punctuation("真的吗?!") == "真的吗？！"
    assert fullwidth_punctuation("我(很)好。") == "我（很）好。"
    for left_alone in ("他有3,000元。", "Tom?", "I am (ok).", "U.S.A."):
        assert fullwidth_punctuation(left_alone) == left_alone


def test_a_chinese_model_folder_decodes_with_chinese_punctuation(tmp_path, tiny_model_dir):
    import shutil

    from model.checkpoint import load_model
    from model.languages import model_target
    zh = tmp_path / "en-zh"
    shutil.copytree(tiny_model_dir, zh)
    assert model_target(zh) == "zh" and model_target(tiny_model_dir) is None
    assert load_model(zh).tokenizer.target_lang == "zh"
    assert load_model(tiny_model_dir).tokenizer.target_lang is None
