"""One check for the model's English messages said again in the Chinese window (explorer/ui/message_forms.py):
the Train log's (test_train_log_errors.py) and the window's error line's (test_window_messages.py)."""

from __future__ import annotations

import re

from explorer.ui import i18n

ENGLISH = re.compile(r"[A-Za-z]{2,}")


def said_in_chinese(say, message: str, chinese: str, *data: str) -> str:
    """``say(message)`` in Chinese holds ``chinese`` and every part of ``data`` (paths, numbers, names) and
    no other English word; in English it is ``message`` itself. Returns the Chinese line."""
    i18n.install_language("zh_CN")
    try:
        line = say(message)
    finally:
        i18n.install_language("en")
    assert chinese in line, (message, line)
    rest = line
    for part in sorted(data, key=len, reverse=True):
        assert part in line, (part, line)
        rest = rest.replace(part, " ")
    assert ENGLISH.findall(rest) == [], (message, line)
    assert say(message) == message
    return line
