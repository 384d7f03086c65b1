"""The check that names missing X11 libraries before Qt's xcb plugin would abort."""

from __future__ import annotations

import sys

import pytest

from explorer import app
from explorer.ui import platform_check
from explorer.ui.platform_check import XCB_LIBRARIES, missing_libraries, wants_xcb, xcb_problem


@pytest.mark.parametrize("env, expected", [
    ({"DISPLAY": ":0"}, True),  # unset platform on X11: Qt picks xcb
    ({"QT_QPA_PLATFORM": "xcb"}, True),
    ({"QT_QPA_PLATFORM": "xcb:nomitshm"}, True),  # plugin options after the colon
    ({"QT_QPA_PLATFORM": "offscreen", "DISPLAY": ":0"}, False),
    ({"QT_QPA_PLATFORM": "wayland;xcb", "DISPLAY": ":0"}, False),  # first choice wins
    ({"DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"}, False),  # a Wayland session: Qt tries Wayland first
    ({}, False),  # no display at all: nothing to check
])
def test_wants_xcb(env, expected):
    assert wants_xcb(env) is expected


def test_names_exactly_the_missing_libraries_and_their_packages():
    gone = {"libxcb-icccm.so.4", "libxcb-keysyms.so.1"}
    line = xcb_problem({"DISPLAY": ":0"}, loads=lambda soname: soname not in gone)
    assert line is not None and "\n" not in line
    assert "missing libxcb-icccm.so.4, libxcb-keysyms.so.1;" in line
    assert "sudo apt-get install libxcb-icccm4 libxcb-keysyms1 (" in line
    assert "libxcb-cursor" not in line  # Qt's own message names this one whatever is missing


def test_no_line_when_everything_loads_or_xcb_is_not_used():
    assert xcb_problem({"DISPLAY": ":0"}, loads=lambda soname: True) is None
    assert xcb_problem({"QT_QPA_PLATFORM": "offscreen"}, loads=lambda soname: False) is None
    asked = []
    missing_libraries(loads=lambda soname: asked.append(soname) or True)
    assert asked == list(XCB_LIBRARIES)  # every library the plugin links against is tried


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the check runs on Linux only")
def test_the_app_prints_the_line_and_exits_2_before_qt_starts(monkeypatch, capsys):
    monkeypatch.setenv("QT_QPA_PLATFORM", "xcb")
    monkeypatch.setattr(platform_check, "can_load", lambda soname: soname != "libxcb-icccm.so.4")
    assert app.main(["--sentence", "Hello."]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "missing libxcb-icccm.so.4" in err[0] and "libxcb-icccm4" in err[0]


def _headless_env(tmp_path) -> dict:
    import os
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env["ATTENTION_EXPLORER_SETTINGS"] = str(tmp_path / "settings.ini")
    from tests.explorer.test_app import ROOT
    env["PYTHONPATH"] = str(ROOT)
    return env


APP = [sys.executable, "-c", "import sys; from explorer.app import main; sys.exit(main())"]


def test_no_display_is_one_line_not_a_core_dump(tmp_path):
    import subprocess
    r = subprocess.run([*APP, "--sentence", "Hello."], capture_output=True, text=True,
                       env=_headless_env(tmp_path), timeout=120, cwd=tmp_path)
    assert r.returncode == 2, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "no display" in lines[0] and "--screenshot" in lines[0]


@pytest.mark.slow  # a whole-app screenshot in a fresh process (~4.5 s): run by .ci/run
def test_a_screenshot_needs_no_display_and_no_setting(tmp_path):
    import subprocess
    shot = tmp_path / "shot.png"
    env = _headless_env(tmp_path)
    r = subprocess.run([*APP, "--screenshot", str(shot), "--sentence", "Hello.",
                        "--size", "800x600"], capture_output=True, text=True, env=env, timeout=300, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_no_display_leaves_the_environment_alone_when_a_platform_or_display_is_there():
    assert platform_check.no_display({"DISPLAY": ":0"}) is None
    assert platform_check.no_display({"QT_QPA_PLATFORM": "wayland"}) is None
    env = {}
    assert platform_check.no_display(env, screenshot=True) is None and env == {"QT_QPA_PLATFORM": "offscreen"}


def test_a_mistyped_command_is_one_line_with_the_nearest_one(capsys):
    assert app.main(["tranlsate", "Hello."]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "'tranlsate' is not a command; did you mean translate?" in err[0]
    assert "get-model" in err[0]  # the list is the model command line's own
