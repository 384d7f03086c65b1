"""The model worker's errors in the Chinese window: a sentence it cannot translate, a folder it cannot open.

explorer/window/model_messages.py knows the forms these messages come in. Each one here is made by the
model's own code (model/decoding/decode.py, model/checkpoint.py), so a change of wording there fails here
rather than reaching the Chinese window in English; the English window must show each message unchanged.
"""

from __future__ import annotations

import json
import re
import shutil

import pytest
from safetensors.torch import load_file, save_file

from explorer.ui import i18n
from explorer.window.model_messages import model_message
from model.checkpoint import load_model, resolve
from model.decoding.decode import MAX_SOURCE_CHARS, MAX_SOURCE_PIECES, encode_source
from model.errors import UserError
from tests.explorer.said_in_chinese import ENGLISH, said_in_chinese


@pytest.fixture
def english_after():
    yield
    i18n.install_language("en")


@pytest.fixture
def broken(tmp_path, tiny_model_dir):
    """A copy of the tiny model's folder, to break one file at a time."""
    folder = tmp_path / "model"
    shutil.copytree(tiny_model_dir, folder)
    return folder


def made(action) -> str:
    with pytest.raises(UserError) as caught:
        action()
    return str(caught.value)


def check_said(message: str, chinese: str, *data: str) -> str:
    return said_in_chinese(model_message, message, chinese, *data)


def test_a_sentence_the_model_refuses_is_said_in_chinese(tiny_model_dir, english_after):
    loaded = load_model(tiny_model_dir)
    long_text = "1" * (MAX_SOURCE_CHARS + 1)
    check_said(made(lambda: encode_source(loaded, long_text)), "太长", str(MAX_SOURCE_CHARS + 1),
               str(MAX_SOURCE_CHARS))
    many = "1 " * (MAX_SOURCE_PIECES + 5)  # fewer characters than the limit, more pieces
    message = made(lambda: encode_source(loaded, many))
    n = re.search(r"\((\d+) pieces", message).group(1)
    check_said(message, "太长", n, str(MAX_SOURCE_PIECES))
    check_said(made(lambda: encode_source(loaded, 5)), "文本")
    check_said(made(lambda: encode_source(loaded, "   ")), "为空")  # fixed, from the catalogue


def test_a_folder_that_is_no_model_is_said_in_chinese(tmp_path, english_after):
    missing = tmp_path / "nowhere"
    check_said(made(lambda: resolve(missing)), "找不到", str(missing))
    a_file = tmp_path / "notes.txt"
    a_file.write_text("x", encoding="utf-8")
    check_said(made(lambda: resolve(a_file)), "文件", str(a_file))
    empty = tmp_path / "empty"
    empty.mkdir()
    check_said(made(lambda: resolve(empty)), "模型文件夹", str(empty), "config.json", "model.safetensors",
               "spm.model")


def test_a_model_folder_with_a_missing_or_broken_file_is_said_in_chinese(broken, english_after):
    weights = broken / "model.safetensors"
    tensors = load_file(str(weights))
    (broken / "spm.model").rename(broken / "spm.model.away")
    check_said(made(lambda: load_model(broken)), "分词器", str(broken), "spm.model")
    (broken / "spm.model.away").rename(broken / "spm.model")

    weights.rename(broken / "weights.pt")
    message = made(lambda: load_model(broken))
    found = re.search(r"\(found (.*); only", message).group(1)  # weights.pt, and train_state.pt if shipped
    assert "weights.pt" in found
    check_said(message, "只加载", str(broken), "model.safetensors", found, "safetensors")
    for other in broken.glob("*.pt*"):  # no other weight file in sight: the shorter form
        other.unlink()
    check_said(made(lambda: load_model(broken)), "没有", str(broken), "model.safetensors")

    weights.write_bytes(b"\x08\x00\x00\x00\x00\x00\x00\x00{}")  # a header that lies about its length
    message = made(lambda: load_model(broken))
    reason = re.search(r"truncated \((.*)\)$", message).group(1)  # the safetensors library's own words
    check_said(message, "损坏", str(weights), reason)

    name = next(iter(tensors))
    tensors[name] = tensors[name].clone()
    tensors[name].view(-1)[0] = float("nan")
    save_file(tensors, str(weights))
    check_said(made(lambda: load_model(broken)), "无穷大", "model.safetensors", name, "NaN")

    config = broken / "config.json"
    data = json.loads(config.read_text(encoding="utf-8"))
    data["model"]["d_model"] = data["model"]["n_heads"] * 8 + 1  # no longer divisible by the heads
    config.write_text(json.dumps(data), encoding="utf-8")
    message = made(lambda: load_model(broken))
    check_said(message, "整除", str(config), "d_model", "n_heads", str(data["model"]["d_model"]),
               str(data["model"]["n_heads"]))  # the config check's reason said again too

    config.write_text(json.dumps({"format": "something else"}), encoding="utf-8")
    check_said(made(lambda: load_model(broken)), "不是", str(config), "Attention Explorer", "model")
    config.write_text(json.dumps({"model_type": "marian"}), encoding="utf-8")  # read as Hugging Face's
    message = made(lambda: load_model(broken))
    files = re.search(r"\(it needs (.*)\)$", message).group(1)
    check_said(message, "缺少", str(broken), "Marian", "source.spm", files)


def test_the_chinese_window_shows_a_refused_sentence_and_folder_in_chinese(window, tiny_model_dir, tmp_path,
                                                                          english_after):
    """Through the window's own error slot: the line under the sentence and the status line."""
    from explorer.window.language_menu import set_language  # noqa: PLC0415

    loaded = load_model(tiny_model_dir)
    refused = made(lambda: encode_source(loaded, "1" * (MAX_SOURCE_CHARS + 1)))
    set_language(window, "zh_CN", remember=False)
    window._on_error("translate", refused)
    shown = window.translate_panel.error_label.text()
    assert "太长" in shown and "5001" in shown and not ENGLISH.findall(shown), shown
    empty = window.attention_panel.empty_label.text()  # where the maps were: why there are none
    assert empty and not ENGLISH.findall(empty), empty
    missing = tmp_path / "gone"
    window.show_dialogs = False  # the "Could not open the model" box would wait for a click
    window._on_error("load", made(lambda: resolve(missing)))
    assert window.state_label.text() == f"找不到模型文件夹：{missing}"


@pytest.mark.parametrize("changes,data", [
    ({"d_model": 256.0}, ("d_model", "256.0")),
    ({"n_layers": 100}, ("n_layers", "64", "100")),
    ({"pad_id": -1}, ("pad_id", "vocab_size", "-1")),
    ({"dropout": "0.1"}, ("dropout", "'0.1'")),
    ({"share_embeddings": "yes"}, ("share_embeddings", "true", "false", "'yes'")),
    ({"vocab_size": 4, "pad_id": 0, "bos_id": 1, "eos_id": 2}, ("vocab_size", "4")),
    ({"pe_layout": "spiral"}, ("pe_layout", "interleaved", "halves", "'spiral'")),
    ({"src_vocab_size": 3}, ("src_vocab_size", "0", "5", "1,000,000", "3")),
    ({"src_vocab_size": 100, "share_embeddings": True}, ("src_vocab_size", "share_embeddings", "false")),
    ({"eos_id": 9999}, ("eos_id", "9999")),
    ({"dropout": 1.5}, ("dropout", "[0, 1)", "1.5")),
    ({"norm_eps": 0}, ("norm_eps", "(0, 1)", "0")),
    ({"heads": 8}, ("heads",)),
])
def test_each_reason_a_model_config_is_refused_is_said_in_chinese(broken, english_after, changes, data):
    """The config check's own reason, inside "holds an invalid model config: …", was the one English part
    left in the Chinese window's "could not open" line (model/config.py makes each of these)."""
    config = broken / "config.json"
    saved = json.loads(config.read_text(encoding="utf-8"))
    saved["model"].update(changes)
    config.write_text(json.dumps(saved), encoding="utf-8")
    message = made(lambda: load_model(broken))
    assert "invalid model config: " in message, message
    line = check_said(message, "模型配置无效", str(config), *data)
    assert message.split("invalid model config: ", 1)[1] not in line  # the reason itself is said again
