"""Translate keeps its size and place while it reads "Translating…" (explorer/ui/steady_button.py): it grew
a third to the left and shrank back with every translation, re-laying out the sentence column."""

from __future__ import annotations

import pytest
from PySide6 import QtWidgets

from explorer.translate.panel import TranslatePanel
from explorer.ui.i18n import install_language, tr


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_the_translate_button_keeps_its_geometry_while_busy(qtbot, qapp, restore_app_look, language):
    from explorer.ui import style  # noqa: PLC0415

    style.apply_theme(qapp)  # the app's look: the primary button's style sheet sizes it
    assert install_language(language, qapp) == ""
    try:
        panel = TranslatePanel()
        qtbot.addWidget(panel)
        panel.set_busy(False)  # its text in this language
        panel.resize(300, 600)
        panel.show()
        qtbot.waitExposed(panel)
        QtWidgets.QApplication.processEvents()
        button = panel.translate_button
        idle, metrics = button.geometry(), button.fontMetrics()
        assert metrics.horizontalAdvance(tr("Translate")) < metrics.horizontalAdvance(tr("Translating…"))
        panel.set_busy(True)
        QtWidgets.QApplication.processEvents()
        assert button.text() == tr("Translating…")
        assert button.geometry() == idle, (button.text(), idle, button.geometry())
        assert button.contentsRect().width() >= metrics.horizontalAdvance(button.text())  # the long text fits
        panel.set_busy(False)
        QtWidgets.QApplication.processEvents()
        assert button.text() == tr("Translate") and button.geometry() == idle
    finally:
        install_language("en", qapp)
