"""The window's contract with the model: views see only the ``model.records`` package, forms only
``model.choices`` (and ``model.files`` to write atomically), and the model proper (torch included) is imported
by the worker modules alone. The records are one package, and it imports NumPy, the standard library and
itself only."""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path

from tests.explorer.test_app import ROOT, run_python

WORKERS = {"explorer.translate.worker", "explorer.training.worker", "explorer.workbench.worker",
           "explorer.hub.worker", "explorer.translate.file_worker"}
# The modules that draw records (they were explorer/views/ before the feature packages): model.records and
# the NumPy-only analyses at most; the other window modules may also read model.choices and write with model.files.
VIEWS = {f"explorer.{package}.{name}" for package, names in {
    "ui": ("colormaps", "flow_layout"),
    "attention": ("compare_view", "controls", "difference_map", "export", "head_grid", "head_stats", "heatmap",
                  "lines_heads", "lines_view", "mask_overlay", "panel", "panel_export", "panel_keys", "panel_views",
                  "removed_tiles", "token_axis", "token_axis_fit", "tokens"),
    "positional": ("clock", "clock_faces", "clock_table", "clock_view", "encoding", "tab", "table_view"),
    "lecture": ("formula_rows", "formula_view", "step_bars", "step_beam", "step_heatmap", "step_layout", "step_maps",
                "step_view"),
    "training": ("curves",),
    "workbench": ("alignment_view", "importance_view", "run_bar", "stats_view", "value_grid"),
}.items() for name in names}
# torch-free; model.analysis.walkthrough is eq. (1) in NumPy, the formula walkthrough's arithmetic
# model.records.research: the workbench's records; model.analysis.alignment: argmax links in NumPy, which
# the alignment view draws for the current sentence
# model.builtin (and the model.languages it names pairs with): the built-in models' folders, for the Models menu
LIGHT = {"model", "model.records", "model.records.model_and_run", "model.records.research", "model.records.workbench",
         "model.choices",
         "model.config", "model.errors", "model.analysis", "model.analysis.walkthrough", "model.analysis.alignment",
         "model.files", "model.analysis.head_stats",
         "model.builtin", "model.languages", "model.safe_json", "model.hub", "model.hub.cache",
         "model.hub.catalogue", "model.hub.progress"}
VIEW_MODEL_IMPORTS = {"model.records", "model.records.research", "model.records.workbench",
                      "model.analysis.walkthrough", "model.analysis.alignment", "model.analysis.head_stats"}
# model.files: the atomic write (standard library only), for the lesson files the window saves
# model.safe_json: the bounded JSON reader lesson files go through
# model.hub.cache / catalogue / progress: which Hub models are downloaded, the curated list, bytes and time
# left in words; standard library only at import (huggingface_hub is imported by the download worker)
GUI_MODEL_IMPORTS = {"model.records", "model.choices", "model.records.research", "model.records.workbench",
                     "model.files", "model.builtin",
                     "model.safe_json", "model.hub.cache", "model.hub.catalogue", "model.hub.progress",
                     "model.languages"}


def explorer_modules() -> dict[str, Path]:
    files = sorted((ROOT / "explorer").rglob("*.py"))
    names = {".".join(f.relative_to(ROOT).with_suffix("").parts): f for f in files}
    return {n.removesuffix(".__init__"): f for n, f in names.items()}


def model_imports(path: Path) -> set[str]:
    """Every ``model.*`` module a file imports, at the top or inside functions."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "model":
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "model"}
    return found


def test_importing_every_explorer_module_but_the_workers_loads_no_torch_and_no_model_code(tmp_path):
    names = sorted(set(explorer_modules()) - WORKERS - {"explorer.__main__"})
    assert len(names) > 20 and "explorer.attention.panel" in names and "explorer.training.form" in names
    code = (
        "import importlib, json, sys\n"
        f"for name in {names!r}:\n"
        "    importlib.import_module(name)\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in ('torch', 'model', 'sentencepiece'))))\n"
    )
    result = run_python(code, tmp_path)
    assert result.returncode == 0, result.stderr
    loaded = set(json.loads(result.stdout.strip().splitlines()[-1]))
    assert not {m for m in loaded if m.split(".")[0] in ("torch", "sentencepiece")}
    assert loaded <= LIGHT, sorted(loaded - LIGHT)
    assert {"model.records", "model.choices"} <= loaded  # the test saw the modules that do import the contract


def test_views_import_only_records_and_the_rest_only_records_and_choices():
    modules = explorer_modules()
    assert VIEWS <= set(modules), sorted(VIEWS - set(modules))  # a renamed view must be renamed here too
    for name, path in modules.items():
        used = model_imports(path)
        if name in VIEWS:
            assert used <= VIEW_MODEL_IMPORTS, (name, used)
        elif name == "explorer.app":
            assert used <= {"model.records", "model.cli", "model.builtin"}, used  # model.cli: dispatch, no Qt
        elif name not in WORKERS:
            assert used <= GUI_MODEL_IMPORTS, (name, used)


RECORDS = ROOT / "model" / "records"


def test_the_records_are_one_package_of_numpy_and_the_standard_library(tmp_path):
    modules = {f"model.records.{f.stem}".removesuffix(".__init__"): f for f in sorted(RECORDS.glob("*.py"))}
    assert {"model.records", "model.records.research", "model.records.workbench"} <= set(modules)
    # No records module left beside the package (model/records.py, model/*_records.py): one place to look.
    assert not [f.name for f in (ROOT / "model").rglob("*records*.py") if f.parent != RECORDS]
    for name, path in modules.items():
        tops = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                tops.add(node.module)
            elif isinstance(node, ast.Import):
                tops |= {a.name for a in node.names}
        outside = {t for t in tops if t.split(".")[0] not in sys.stdlib_module_names | {"numpy"}}
        assert {t for t in outside if t != "model.records" and not t.startswith("model.records.")} == set(), name
    code = ("import importlib, json, sys\n"
            f"for name in {sorted(modules)!r}:\n"
            "    importlib.import_module(name)\n"
            "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in ('torch', 'model', 'PySide6'))))\n")
    result = run_python(code, tmp_path)
    assert result.returncode == 0, result.stderr
    loaded = set(json.loads(result.stdout.strip().splitlines()[-1]))
    assert loaded == {"model"} | set(modules), sorted(loaded)  # no torch, no Qt, no model code beyond the package
