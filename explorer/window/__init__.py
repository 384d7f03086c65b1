"""The main window, the one package that knows every feature: it assembles their panels, menus, exports,
the language switch and the per-sentence tools that join one feature to another."""
