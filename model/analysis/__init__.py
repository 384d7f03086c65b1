"""Analyses of a trained model for teaching and research; ``walkthrough`` is NumPy only (views use it)."""
