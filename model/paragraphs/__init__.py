"""Text longer than a sentence: split into sentences, translated as a batch, put back together."""
