"""Before Qt starts on Linux: is there a display at all, and are the system libraries of its xcb plugin there?

PySide6's wheels bring Qt but not the X11 client libraries its xcb platform plugin links against. When
one is missing, Qt aborts with a core dump and a message that names ``libxcb-cursor0`` whatever is
actually missing. This check tries to load each library the plugin needs (the list comes from
``readelf -d`` of ``libqxcb.so`` and ``libQt6XcbQpa.so.6`` in PySide6 6.11) and names the missing ones
with the Debian/Ubuntu packages that provide them, in one line.
"""

from __future__ import annotations

import ctypes
import os
from collections.abc import Callable, Mapping

# soname → Debian/Ubuntu package (the same names on Debian 12 and Ubuntu 22.04/24.04).
XCB_LIBRARIES: dict[str, str] = {
    "libxcb.so.1": "libxcb1",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-render.so.0": "libxcb-render0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-shm.so.0": "libxcb-shm0",
    "libxcb-sync.so.1": "libxcb-sync1",
    "libxcb-util.so.1": "libxcb-util1",
    "libxcb-xfixes.so.0": "libxcb-xfixes0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libxkbcommon.so.0": "libxkbcommon0",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libEGL.so.1": "libegl1",
    "libGL.so.1": "libgl1",
    "libfontconfig.so.1": "libfontconfig1",
    "libdbus-1.so.3": "libdbus-1-3",
}


def wants_xcb(env: Mapping[str, str]) -> bool:
    """Whether Qt will use its xcb plugin: asked for explicitly, or by default on an X11 display."""
    platform = env.get("QT_QPA_PLATFORM", "").split(":")[0].split(";")[0].strip()
    if platform:
        return platform == "xcb"
    # Unset: Qt tries Wayland first when a Wayland session is running, so no verdict there.
    return bool(env.get("DISPLAY")) and not env.get("WAYLAND_DISPLAY")


def can_load(soname: str) -> bool:
    """Whether the shared library ``soname`` loads in this process."""
    try:
        ctypes.CDLL(soname)
    except OSError:
        return False
    return True


def missing_libraries(loads: Callable[[str], bool] | None = None) -> list[str]:
    """The sonames from XCB_LIBRARIES that cannot be loaded here."""
    loads = loads or can_load
    return [soname for soname in XCB_LIBRARIES if not loads(soname)]


def xcb_problem(env: Mapping[str, str] | None = None, loads: Callable[[str], bool] | None = None) -> str | None:
    """One line naming what the xcb plugin lacks and how to install it, or None when nothing is missing."""
    env = os.environ if env is None else env
    if not wants_xcb(env):
        return None
    missing = missing_libraries(loads)
    if not missing:
        return None
    packages = " ".join(dict.fromkeys(XCB_LIBRARIES[s] for s in missing))
    return (f"the window cannot open on X11: missing {', '.join(missing)}; on Debian/Ubuntu: "
            f"sudo apt-get install {packages} (or run headless with QT_QPA_PLATFORM=offscreen)")


def no_display(env: Mapping[str, str] | None = None, screenshot: bool = False) -> str | None:
    """Linux with no display at all (SSH, a headless box) and no platform asked for: Qt would try xcb, find
    no server and abort with a core dump that blames libxcb-cursor0. A screenshot needs no screen, so it
    gets the offscreen platform set for it (None is returned and ``env`` gains QT_QPA_PLATFORM); the window
    gets one line saying why it cannot open and what works instead."""
    env = os.environ if env is None else env
    if env.get("QT_QPA_PLATFORM") or env.get("DISPLAY") or env.get("WAYLAND_DISPLAY"):
        return None
    if screenshot:
        env["QT_QPA_PLATFORM"] = "offscreen"
        return None
    return ("no display to open the window on (DISPLAY and WAYLAND_DISPLAY are unset, e.g. over SSH): run it "
            "on a desktop, or save a picture headless with --screenshot OUT.png (the model commands need no "
            "display: attention-explorer translate …)")
