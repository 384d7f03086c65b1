"""The workbench's Export buttons: one dialog for the three views, starting in the folder the last export
went to (it started in the process's working folder), and a line saying where the file went."""

from __future__ import annotations

from pathlib import Path

from PySide6 import QtWidgets

from explorer.workbench import export_file
from explorer.workbench.export_file import export_to


def test_an_export_says_where_it_went_and_the_next_one_starts_there(qtbot, tmp_path, monkeypatch):
    asked = []

    def dialog(parent, title, start, filters):
        asked.append(start)
        return str(tmp_path / "out" / Path(start).name), filters

    monkeypatch.setattr(QtWidgets.QFileDialog, "getSaveFileName", staticmethod(dialog))
    monkeypatch.setattr(export_file, "_FOLDER", [])
    (tmp_path / "out").mkdir()
    parent = QtWidgets.QWidget()
    qtbot.addWidget(parent)
    said = export_to(parent, "Export alignment", "alignment.txt", "Pharaoh links (*.txt)",
                     lambda path: Path(path).write_text("0-0\n", encoding="utf-8"))
    assert said == f"Saved {tmp_path / 'out' / 'alignment.txt'}" and (tmp_path / "out" / "alignment.txt").is_file()
    assert asked[0] == str(Path.home() / "alignment.txt")  # the first: home, not the working folder
    export_to(parent, "Export head statistics", "head-stats.csv", "CSV (*.csv)", lambda path: None)
    assert asked[1] == str(tmp_path / "out" / "head-stats.csv")  # the next: where the last went

    def refused(path):
        raise PermissionError(13, "Permission denied")
    assert export_to(parent, "Export head statistics", "x.csv", "CSV (*.csv)", refused).startswith("Could not write")
    monkeypatch.setattr(QtWidgets.QFileDialog, "getSaveFileName", staticmethod(lambda *a: ("", "")))
    assert export_to(parent, "Export alignment", "a.txt", "", lambda path: None) == ""  # cancelled: nothing said
