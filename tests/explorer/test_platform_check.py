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
