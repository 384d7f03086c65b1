"""Features get ports, not the window (#26): read from the source, no module outside ``explorer/window`` (and
the entry point) names a MainWindow, takes a ``window`` parameter, keeps one, or sets attributes on what it
was handed; and what it reads of a port (a frozen dataclass) is one of the port's fields, what it reads of a
panel of another package (a widget of ours) is that panel's own method or signal, never one of its child
widgets: within its own package a panel is put together from its parts, and that is its business.

Types are followed as far as the code writes them: parameter annotations, ``self.x = parameter`` or
``= Panel()``, local names bound from typed values (tuples too), and the field types of a port."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import types
import typing

from PySide6.QtWidgets import QWidget

from tests.explorer.test_contract import explorer_modules

WINDOW_NAMES = {"window", "w", "win", "main_window", "mw"}  # what a parameter holding the window is called
KEPT_NAMES = {"window", "_window", "window_", "main_window", "_main_window"}  # ... and the attribute keeping it
KNOWS_THE_WINDOW = ("explorer.window", "explorer.app", "explorer.__main__")


def _ours(value) -> type | None:
    """The explorer class an annotation names (``X | None`` counts as X), else None."""
    if isinstance(value, types.UnionType) or typing.get_origin(value) is typing.Union:
        found = [c for c in map(_ours, typing.get_args(value)) if c is not None]
        return found[0] if len(found) == 1 else None
    return value if isinstance(value, type) and value.__module__.startswith("explorer.") else None


class Reader(ast.NodeVisitor):
    """Collects the rule's breaches in one module: ``found`` lines, ``checked`` typed attribute reads."""

    def __init__(self, namespace: dict, package: str) -> None:
        self.namespace, self.package, self.found, self.checked = namespace, package, [], 0
        self.scopes: list[dict[str, type]] = []  # the typed names of each function being read
        self.members: dict[str, type] = {}  # self.<name> -> class, of the class being read

    def annotation(self, node) -> type | None:
        try:
            return _ours(eval(compile(ast.Expression(node), "<annotation>", "eval"), self.namespace))  # noqa: S307
        except Exception:  # noqa: BLE001 - a name only a type checker sees: not followed
            return None

    def type_of(self, node) -> type | None:
        if isinstance(node, ast.Call):  # a widget made here: self.cross = HeatmapView()
            return self.annotation(node.func)
        if isinstance(node, ast.Name):
            return next((s[node.id] for s in reversed(self.scopes) if node.id in s), None)
        if isinstance(node, ast.Attribute):
            if isinstance(node.value, ast.Name) and node.value.id == "self":
                return self.members.get(node.attr)
            owner = self.type_of(node.value)
            if owner is not None and dataclasses.is_dataclass(owner):
                return _ours(typing.get_type_hints(owner).get(node.attr))
        return None

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        outer, self.members = self.members, {}
        self._bind_members(node)
        self.generic_visit(node)
        self.members = outer

    def _bind_members(self, node: ast.ClassDef) -> None:
        """``self.x = typed parameter`` in any method types ``self.x`` in all of them."""
        for method in (n for n in node.body if isinstance(n, ast.FunctionDef)):
            self.scopes.append(self._parameters(method, report=False))  # visit_FunctionDef reports them
            for stmt in ast.walk(method):
                if isinstance(stmt, ast.Assign):
                    for target in stmt.targets:
                        for t, v in self._pairs(target, stmt.value):
                            if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self":
                                if t.attr in KEPT_NAMES:
                                    self.found.append(f"line {t.lineno}: keeps self.{t.attr}")
                                if (kind := self.type_of(v)) is not None:
                                    self.members[t.attr] = kind
            self.scopes.pop()

    @staticmethod
    def _pairs(target, value):
        if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple) and len(target.elts) == len(value.elts):
            return list(zip(target.elts, value.elts, strict=True))
        return [(target, value)]

    def _parameters(self, node, report: bool = True) -> dict[str, type]:
        args = node.args.posonlyargs + node.args.args + node.args.kwonlyargs
        typed = {}
        for a in args:
            if report and a.arg in WINDOW_NAMES:
                self.found.append(f"line {node.lineno}: takes a parameter {a.arg!r}")
            if a.annotation is not None and (kind := self.annotation(a.annotation)) is not None:
                typed[a.arg] = kind
        return typed

    def visit_FunctionDef(self, node) -> None:
        self.scopes.append(self._parameters(node))
        params = {a.arg for a in node.args.posonlyargs + node.args.args + node.args.kwonlyargs} - {"self", "cls"}
        for stmt in ast.walk(node):
            if isinstance(stmt, ast.Assign):
                for target in stmt.targets:
                    for t, v in self._pairs(target, stmt.value):
                        if isinstance(t, ast.Name) and (kind := self.type_of(v)) is not None:
                            self.scopes[-1][t.id] = kind
                        elif isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id in params:
                            self.found.append(f"line {t.lineno}: sets {t.value.id}.{t.attr} on what it was handed")
        self.generic_visit(node)
        self.scopes.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self.scopes.append(self._parameters(node))
        self.generic_visit(node)
        self.scopes.pop()

    def visit_Attribute(self, node: ast.Attribute) -> None:
        owner = self.type_of(node.value)
        if owner is not None:
            self.checked += 1
            if dataclasses.is_dataclass(owner):
                if node.attr not in {f.name for f in dataclasses.fields(owner)}:
                    self.found.append(f"line {node.lineno}: reads {node.attr!r}, not a field of {owner.__name__}")
            elif issubclass(owner, QWidget) and owner.__module__.split(".")[1] != self.package:
                try:
                    inspect.getattr_static(owner, node.attr)
                except AttributeError:  # an instance attribute: one of the panel's own widgets
                    self.found.append(f"line {node.lineno}: reaches {owner.__name__}.{node.attr}, not a method "
                                      "(another package's panel)")
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        if node.id in {"MainWindow", "QMainWindow"}:
            self.found.append(f"line {node.lineno}: names {node.id}")

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        for alias in node.names:
            if alias.name in {"MainWindow", "QMainWindow"}:
                self.found.append(f"line {node.lineno}: imports {alias.name}")


def breaches(name: str, source: str) -> tuple[list[str], int]:
    reader = Reader(vars(importlib.import_module(name)), (name.split(".") + [""])[1])
    reader.visit(ast.parse(source))
    return reader.found, reader.checked


def test_no_feature_takes_the_window_or_reads_past_its_ports():
    wrong, checked = [], {}
    for name, path in explorer_modules().items():
        if name.startswith(KNOWS_THE_WINDOW):
            continue
        found, checked[name] = breaches(name, path.read_text(encoding="utf-8"))
        wrong += [f"{name}: {line}" for line in found]
    assert not wrong, "\n".join(wrong)
    # The reads were followed, not skipped: the lesson player's room, the formula dock's panel, the beam's.
    assert checked["explorer.lecture.lesson_player"] > 30 and checked["explorer.lecture.formula_dock"] > 8
    assert checked["explorer.translate.beam_dock"] >= 4 and checked["explorer.lecture.presentation"] >= 8


def test_the_rule_sees_a_window_a_reach_in_and_a_read_past_the_port():
    source = (
        "from explorer.lecture.ports import Sentence\n"
        "from explorer.attention.panel import AttentionPanel\n"
        "def install(window, menu):\n    window.step_action = menu.addAction('x')\n"
        "class Dock:\n"
        "    def __init__(self, sentence: Sentence, attention: AttentionPanel | None) -> None:\n"
        "        self._sentence, self._panel = sentence, attention\n"
        "    def run(self):\n"
        "        s = self._sentence\n"
        "        s.text(); s.controller\n"
        "        self._panel.state(); self._panel.heatmap.set_marked_cell(None)\n"
    )
    found, checked = breaches("explorer.lecture.step_tab", source)
    assert [line.split(": ", 1)[1] for line in found] == [
        "takes a parameter 'window'", "sets window.step_action on what it was handed",
        "reads 'controller', not a field of Sentence",
        "reaches AttentionPanel.heatmap, not a method (another package's panel)"]
    assert checked == 4
