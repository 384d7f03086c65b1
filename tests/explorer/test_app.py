"""The ``attention-explorer`` entry point: CLI dispatch, import hygiene and screenshot mode.

Subprocess tests check what only a fresh interpreter can show (which modules an import pulls in, the
exit code and stderr of the real command). Screenshot mode is also run in-process against the fake
model, which is fast and needs no torch.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
from PySide6.QtGui import QImage

from explorer import app

ROOT = Path(__file__).resolve().parents[2]


def run_python(code_or_args, tmp_path, timeout=240):
    """Run Python in a clean interpreter at the repo root, headless, with isolated settings."""
    env = dict(os.environ)
    env.update(
        QT_QPA_PLATFORM="offscreen",
        PYTHONPATH=str(ROOT),
        ATTENTION_EXPLORER_SETTINGS=str(tmp_path / "sub-settings.ini"),
    )
    args = ["-c", code_or_args] if isinstance(code_or_args, str) else list(code_or_args)
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout
    )


def image_stats(path: Path) -> tuple[int, int, float]:
    """(width, height, standard deviation of the grey levels) of a PNG."""
    image = QImage(str(path))
    assert not image.isNull(), f"{path} is not a readable image"
    grey = image.convertToFormat(QImage.Format.Format_Grayscale8)
    data = np.frombuffer(grey.constBits(), np.uint8).reshape(grey.height(), grey.bytesPerLine())
    return image.width(), image.height(), float(data[:, : grey.width()].std())


def error_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("attention-explorer:")]


# -- dispatch and imports ------------------------------------------------------------------------


def test_model_commands_go_to_the_model_cli_without_qt(tmp_path):
    code = (
        "import argparse, sys, types\n"
        "cli = types.ModuleType('model.cli')\n"
        "cli.main = lambda argv: print('cli got', argv) or 7\n"
        "cli.build_parser = lambda: (p := argparse.ArgumentParser(), p.add_subparsers().add_parser('info'))[0]\n"
        "sys.modules['model.cli'] = cli\n"
        "import explorer.app as a\n"
        "assert 'PySide6' not in sys.modules, 'importing explorer.app pulled in Qt'\n"
        "rc = a.main(['info', '--model', 'x'])\n"
        "assert 'PySide6' not in sys.modules and 'torch' not in sys.modules\n"
        "sys.exit(rc)\n"
    )
    result = run_python(code, tmp_path)
    assert result.returncode == 7, result.stderr
    assert "cli got ['info', '--model', 'x']" in result.stdout


def test_every_model_command_works_through_the_app(capsys):
    """The app's command and ``python -m model.cli`` accept the same commands: each one's --help is the
    model's, never the window's usage (``heads`` and ``align`` once fell through to the window's parser)."""
    import argparse

    from model.cli import build_parser

    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    assert {"train", "translate", "heads", "align"} <= set(sub.choices)
    assert app.cli_commands() == tuple(sub.choices)
    for command in sub.choices:
        try:
            rc = app.main([command, "--help"])
        except SystemExit as exc:  # argparse's --help exits from inside the model's main
            rc = exc.code or 0
        out = capsys.readouterr().out
        assert rc == 0, command
        assert out.startswith(f"usage: attention-explorer {command}"), (command, out[:200])
        assert "--screenshot" not in out, command


def test_views_and_window_do_not_import_torch(tmp_path):
    code = (
        "import sys, explorer.attention.panel, explorer.positional.table_view, explorer.window.main_window\n"
        "import explorer.app, explorer.translate.controller, explorer.translate.worker\n"
        "bad = sorted(m for m in sys.modules if m == 'torch' or m.startswith('torch.'))\n"
        "assert not bad, bad[:5]\n"
    )
    result = run_python(code, tmp_path)
    assert result.returncode == 0, result.stderr


def test_help_and_usage_errors_return_exit_codes(capsys):
    assert app.main(["--help"]) == 0
    assert "--screenshot" in capsys.readouterr().out
    assert app.main(["--size", "huge"]) == 2
    assert "WIDTHxHEIGHT" in capsys.readouterr().err
    assert app.main(["--layer", "0"]) == 2


# -- screenshot mode, in-process with the fake model ----------------------------------------------


def test_screenshot_saves_a_png_of_the_window(tmp_path, fake_model, restore_app_look, capsys):
    out = tmp_path / "shot.png"
    folder = fake_model.make_model_dir()
    rc = app.main([
        "--model", str(folder), "--screenshot", str(out), "--size", "1300x820", "--view", "grid",
        "--kind", "cross", "--layer", "2", "--head", "3", "--sentence", "Hello there world",
    ])
    assert rc == 0, capsys.readouterr().err
    width, height, spread = image_stats(out)
    assert (width, height) == (1300, 820)
    assert spread > 10  # not a blank frame
    assert fake_model.translated_ids  # it really translated before saving


def test_screenshot_of_the_positional_encoding_tab(tmp_path, fake_model, restore_app_look):
    out = tmp_path / "pe.png"
    rc = app.main(["--model", str(fake_model.make_model_dir()), "--screenshot", str(out),
                   "--size", "1280x800", "--view", "pe"])
    assert rc == 0
    assert image_stats(out)[:2] == (1280, 800)


def test_screenshot_rejects_a_layer_the_model_lacks(tmp_path, fake_model, restore_app_look, capsys):
    out = tmp_path / "shot.png"
    rc = app.main(["--model", str(fake_model.make_model_dir()), "--screenshot", str(out),
                   "--size", "800x600", "--layer", "9"])
    assert rc == 2
    lines = error_lines(capsys.readouterr().err)
    assert lines == ["attention-explorer: --layer 9 is out of range: the model has 2"]
    assert not out.exists()


def test_screenshot_without_any_model_fails_with_one_line(tmp_path, fake_model, restore_app_look, capsys):
    fake_model.default_dir = None
    rc = app.main(["--screenshot", str(tmp_path / "x.png"), "--size", "800x600"])
    assert rc == 1
    assert error_lines(capsys.readouterr().err) == [
        "attention-explorer: no built-in model is installed; pass --model DIR"
    ]


# -- the real command, with the real model code --------------------------------------------------


def test_screenshot_with_a_bad_model_folder_fails_with_one_line(tmp_path):
    missing = tmp_path / "no-such-model"
    result = run_python(
        ["-m", "explorer.app", "--model", str(missing), "--screenshot", str(tmp_path / "x.png")],
        tmp_path,
    )
    assert result.returncode == 2  # the user's error, as on the command line
    lines = error_lines(result.stderr)
    assert len(lines) == 1 and str(missing) in lines[0], result.stderr
    assert not (tmp_path / "x.png").exists()


def test_screenshot_of_the_real_tiny_model(tmp_path, tiny_model_dir):
    out = tmp_path / "real.png"
    result = run_python(
        ["-m", "explorer.app", "--model", str(tiny_model_dir), "--screenshot", str(out),
         "--view", "grid", "--kind", "decoder", "--head", "2", "--size", "1400x900"],
        tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert error_lines(result.stderr) == []
    width, height, spread = image_stats(out)
    assert (width, height) == (1400, 900)
    assert spread > 10
