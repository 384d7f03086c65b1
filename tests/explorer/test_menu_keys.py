"""Each menu's access keys (the underlined letter, Alt+key in an open menu) are unique, in English and in
Chinese: two items on the same letter make the key toggle between them instead of choosing."""

from __future__ import annotations

import re

from explorer.window.language_menu import set_language

ACCESS = re.compile(r"&([^&])")


def _clashes(menu, where: str) -> list[str]:
    seen: dict[str, str] = {}
    found = []
    for action in menu.actions():
        if action.isSeparator() or not action.isVisible():
            continue
        text = action.text()
        key = ACCESS.search(text.replace("&&", ""))
        if key is not None:
            letter = key.group(1).lower()
            if letter in seen:
                found.append(f"{where}: {seen[letter]!r} and {text!r} share &{letter}")
            seen[letter] = text
        if action.menu() is not None:
            found += _clashes(action.menu(), f"{where} › {text}")
    return found


def test_no_two_items_of_a_menu_share_an_access_key(window):
    try:
        for language in ("en", "zh_CN"):
            assert set_language(window, language, remember=False) == ""
            clashes = _clashes(window.menuBar(), language)
            assert not clashes, "\n".join(clashes)
    finally:
        set_language(window, "en", remember=False)
