"""Benchmarks of Attention Explorer: training speed against torch.nn.Transformer, translation and GUI
latency, and GUI responsiveness during training. Run ``python -m benchmarks --help``; see README.md here."""
