"""The model's English messages said again in the window's language, recognised by their form.

The model package never imports Qt, so its errors reach the window as English text ("the sentence is too
long (5,320 characters; at most 5000); split it"). A fixed message is found in the catalogue as it is
(``i18n.translate``); one with varying parts is not. Each room lists the forms its messages come in, the
model's English with the varying parts named (``{path}``, ``{n}``): that text is both the ``tr()`` template
(so the English window shows the message unchanged) and, each name turned into a group, the pattern that
recognises it. Some parts are sentences of their own (which checkpoint is intact, the operating system's
reason a write failed): a room may say those again too. A message of no known form is shown as it came.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from explorer.ui.i18n import tr

NUMBER = r"[\d,]+"  # a count must not swallow the words after it when a path before it holds " has "


class MessageForms:
    """Known forms of the model's messages; ``say(text)`` gives ``text`` in the window's language.

    numbers: the names that stand for a count (matched as digits); every other part is any text, as short
    as the rest of the form allows. parts: name → how that part is said again (a part without one is
    data: paths, values, kept as they came); one table may serve several sets of forms that nest. A
    message that ends in free text matches the first form that fits, so a form that wraps other messages
    comes first."""

    def __init__(self, forms: Iterable[str], numbers: Iterable[str] = (),
                 parts: dict[str, Callable[[str], str]] | None = None) -> None:
        self.forms, self.numbers = tuple(forms), frozenset(numbers)
        self.parts = parts if parts is not None else {}  # kept, not copied: forms may share one table
        self._compiled: dict[str, re.Pattern] = {}

    def say(self, text: str) -> str:
        for template in self.forms:
            pattern = self._compiled.get(template)
            if pattern is None:
                pattern = self._compiled[template] = self._pattern(template)
            if m := pattern.fullmatch(text):
                return tr(template, **{name: self.parts.get(name, _as_is)(value)
                                       for name, value in m.groupdict().items()})
        return text

    def _pattern(self, template: str) -> re.Pattern:
        """The English form with each ``{name}`` a named group: digits for a count, else any text."""
        pieces = re.split(r"\{(\w+)\}", template)  # literal, name, literal, name, …, literal
        regex = "".join(re.escape(piece) if i % 2 == 0
                        else f"(?P<{piece}>{NUMBER if piece in self.numbers else '.+?'})"
                        for i, piece in enumerate(pieces))
        return re.compile(regex, re.S)


def _as_is(value: str) -> str:
    return value
