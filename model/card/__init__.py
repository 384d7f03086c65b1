"""The model card: scores a model and writes its README (``python -m model.card``)."""
