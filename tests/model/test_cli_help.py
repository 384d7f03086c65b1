"""Every option of every command says what it does; --version prints the package's version."""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from model.cli import build_parser, main, version


def _parsers(parser: argparse.ArgumentParser, path: str = "attention-explorer"):
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                if getattr(sub, "_setup", None):  # a lazy parser adds its options when it first parses
                    with contextlib.redirect_stderr(io.StringIO()), pytest.raises(SystemExit):
                        sub.parse_known_args(["--help"])
                yield from _parsers(sub, f"{path} {name}")


def test_every_option_has_a_help_line(capsys):
    undocumented = [f"{path} {'/'.join(a.option_strings) or a.dest}"
                    for path, parser in _parsers(build_parser()) for a in parser._actions
                    if not isinstance(a, (argparse._HelpAction, argparse._SubParsersAction)) and not a.help]
    assert undocumented == []
    capsys.readouterr()


def test_task_help_states_each_tasks_input():
    train = dict(_parsers(build_parser()))["attention-explorer train"]
    text = next(a.help for a in train._actions if "--task" in a.option_strings)
    from model.training.tasks import TASKS, make_task
    for task in TASKS:
        assert task in text
    # The formats named there are the ones the tasks produce.
    assert "space-separated digits" in text and all(ch in "0123456789 " for ch in make_task("reverse", 1)[0][0])
    assert "'14 July 1989' → '1989-07-14'" in text


def test_version(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    out = capsys.readouterr().out.strip()
    assert out == f"attention-explorer {version()}" and out.split()[-1][0].isdigit()


def _value_options():
    for path, parser in _parsers(build_parser()):
        for a in parser._actions:
            if a.option_strings and a.nargs != 0 and not isinstance(a, argparse._HelpAction):
                yield path, a


def test_device_reads_the_same_in_every_command(capsys):
    """One device check answers for every command, so every command's --device says the same (issue 33)."""
    helps = {path: (a.help, a.metavar) for path, a in _value_options() if "--device" in a.option_strings}
    assert {"attention-explorer train", "attention-explorer translate", "attention-explorer evaluate",
            "attention-explorer info", "attention-explorer align"} <= set(helps)
    assert len(set(helps.values())) == 1, helps
    assert "cuda" in next(iter(helps.values()))[0] and "mps" in next(iter(helps.values()))[0]
    capsys.readouterr()


def test_no_data_option_shows_an_argparse_placeholder(capsys):
    """`--sentence-repeat SENTENCE_REPEAT` is argparse's name for an option given no metavar: a word a
    reader must decode. The data commands name each value (N, K, DIR, FILE)."""
    bare = [f"{path} {a.option_strings[0]}" for path, a in _value_options()
            if path.startswith("attention-explorer data") and a.metavar is None and not a.choices]
    assert bare == []
    capsys.readouterr()


@pytest.mark.parametrize("package", ["explorer", "attention_explorer"])
def test_python_m_runs_the_command(package):
    """``python -m explorer`` (a source checkout) and ``python -m attention_explorer`` (installed) are the
    ``attention-explorer`` command: a first try of either must not answer 'No module named …__main__'."""
    root = Path(__file__).resolve().parents[2]
    path = [str(root)] + ([str(root / "packaging")] if package == "attention_explorer" else [])
    done = subprocess.run([sys.executable, "-m", package, "--version"], capture_output=True, text=True,
                          cwd=root, env={**os.environ, "PYTHONPATH": os.pathsep.join(path)}, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"attention-explorer {version()}"
