"""Hugging Face Marian (OPUS-MT) models: read their folders, run them as our own Transformer, import them.

A Marian model is the paper's encoder–decoder with a few settings of its own (sinusoids in two halves,
swish, a logits bias, its own special ids), all of which are ``ModelConfig`` options here. So a Marian
folder loads into the same ``Transformer`` class, decodes with the same search and shows the same views;
only its tokenizer (two SentencePiece models mapped through one ``vocab.json``) is a class of its own.

``folder``, ``tokenizer`` and ``weights`` depend on the core's config and errors alone, and
``model.checkpoint`` uses them to open a Marian folder; ``load`` (the import) and ``cli`` sit above it.
"""
