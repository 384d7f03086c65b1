"""Decoding a trained Transformer: greedy and beam search with attention capture, speculative checks, int8."""
