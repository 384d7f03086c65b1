"""Analyses of a trained model for teaching and research: ``walkthrough`` (one attention row worked step by
step; NumPy only, the views use it), ``vectors`` (per-head Q, K, V on request), per-head statistics, head
importance and word alignments over many sentences."""
