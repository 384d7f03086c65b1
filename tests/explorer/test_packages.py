"""The feature packages' rule, read from the import graph: a feature package imports only ``explorer.ui``,
``explorer.attention`` and itself; ``explorer.ui`` imports no feature package; only ``explorer.window`` (and the
entry point, ``explorer.app``) may know them all. So a feature can be read, tested and changed alone."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.explorer.test_contract import explorer_modules

SHARED = {"ui", "attention"}  # what every feature may use
KNOWS_ALL = {"window"}  # assembles the features; the one place where one feature meets another


def explorer_imports(name: str, path: Path) -> set[str]:
    """Every ``explorer.*`` module (or package) a file imports, at the top or inside functions; relative
    imports are resolved against the file's package."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1] + ([base] if base else []))
            if base.split(".")[0] == "explorer":  # a name imported may be a module: `from explorer import ui`
                found |= {f"{base}.{a.name}" for a in node.names}
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "explorer"}
    return found


def feature_of(module: str) -> str | None:
    """``explorer.training.form`` -> ``training``; None for the top-level modules (app, the package itself)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and parts[1] in packages()) else None


def packages() -> set[str]:
    return {n.split(".")[1] for n in explorer_modules() if n.count(".") >= 2}


def test_explorer_is_feature_packages_and_the_entry_point():
    top = {n for n in explorer_modules() if n.count(".") == 1 and n.split(".")[1] not in packages()}
    assert top <= {"explorer.app", "explorer.__main__"}, sorted(top)  # no module left in the flat heap
    assert {"ui", "attention", "window", "translate", "training", "workbench", "positional", "lecture"} <= packages()


def test_feature_packages_import_only_ui_attention_and_themselves():
    wrong = []
    for name, path in explorer_modules().items():
        own = feature_of(name)
        if own is None or own in KNOWS_ALL:
            continue
        allowed = {own, "ui"} if own in SHARED else {own} | SHARED  # ui and attention: no feature above them
        for target in explorer_imports(name, path):
            used = feature_of(target)
            if used not in allowed:  # None: the top level (explorer.app), which no feature may import
                wrong.append(f"{name} imports {target}")
    assert not wrong, "\n".join(wrong)


def test_the_rule_sees_imports_inside_functions_and_relative_ones(tmp_path):
    source = tmp_path / "form.py"
    source.write_text("def f():\n    from explorer.workbench.panel import Workbench\n"
                      "from ..translate import panel\nfrom . import log\n", encoding="utf-8")
    found = explorer_imports("explorer.training.form", source)
    assert found == {"explorer.workbench.panel.Workbench", "explorer.translate.panel", "explorer.training.log"}
    assert {feature_of(n) for n in found} == {"workbench", "translate", "training"}
