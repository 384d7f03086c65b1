"""Built-in models by name: assets/models/<pair>/, --model en-de|en-zh, a folder of that name still wins."""

from __future__ import annotations

import subprocess
import sys

from model.builtin import DEFAULT, builtin_model, builtin_models, default_model_dir, resolve_model_arg
from model.checkpoint import REPO_ROOT
from model.cli import main


def test_every_shipped_pair_is_listed_with_plain_names():
    names = {m.name: m for m in builtin_models()}
    assert DEFAULT == "en-de" and "en-de" in names
    assert names["en-de"].label == "English → German" and names["en-de"].target == "de"
    if "en-zh" in names:
        assert names["en-zh"].label == "English → Chinese"
    for m in names.values():
        assert (m.path / "config.json").is_file() and (m.path / "MODEL_CARD.md").is_file()


def test_default_follows_the_environment_then_en_de(monkeypatch, tmp_path):
    monkeypatch.delenv("ATTENTION_EXPLORER_MODEL", raising=False)
    assert default_model_dir() == builtin_model("en-de").path
    (tmp_path / "config.json").write_text("{}")
    monkeypatch.setenv("ATTENTION_EXPLORER_MODEL", str(tmp_path))
    assert default_model_dir() == tmp_path
    assert default_model_dir("en-de") == builtin_model("en-de").path  # a name asked for is that model


def test_a_folder_of_that_name_wins_over_the_built_in(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    assert resolve_model_arg("en-de") == builtin_model("en-de").path
    (tmp_path / "en-de").mkdir()
    assert resolve_model_arg("en-de").resolve() == (tmp_path / "en-de").resolve()
    assert resolve_model_arg("xx-yy").name == "xx-yy"  # unknown: left as a path, whose error names it


def test_cli_takes_a_built_in_name(capsys):
    assert main(["translate", "--model", "en-de", "--beam", "1", "I love apples."]) == 0
    assert capsys.readouterr().out.strip() == "Ich liebe Äpfel."
    assert main(["info", "--model", "xx-yy"]) == 2
    assert "model folder not found: xx-yy" in capsys.readouterr().err


def test_the_registry_is_torch_free():
    code = "import sys, model.builtin as b; b.builtin_models(); print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO_ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
