"""The model knows nothing of the window (#26 item 4): no module of ``model/`` imports Qt, pyqtgraph or
``explorer``, at the top or inside a function, so the command line, the benchmarks and a training worker on a
headless GPU box never load a GUI library. (tests/explorer/test_contract.py checks the other direction.)"""

from __future__ import annotations

import ast
from pathlib import Path

MODEL = Path(__file__).resolve().parents[2] / "model"
GUI = ("PySide6", "shiboken6", "pyqtgraph", "superqt", "explorer")


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_no_model_module_imports_a_gui_library_or_the_window():
    files = sorted(MODEL.rglob("*.py"))
    assert len(files) > 50  # the walk saw the package
    bad = {str(p.relative_to(MODEL)): sorted(n for n in _imports(p) if n.split(".")[0] in GUI) for p in files}
    assert not {k: v for k, v in bad.items() if v}


def test_the_check_sees_an_import_inside_a_function(tmp_path):
    sample = tmp_path / "x.py"
    sample.write_text("def f():\n    from PySide6.QtCore import QObject\n    import explorer.app\n")
    assert {"PySide6.QtCore", "explorer.app"} <= _imports(sample)
