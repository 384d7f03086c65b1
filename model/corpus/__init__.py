"""Corpus builders: turn raw parallel text (Tatoeba, the Ding dictionary, synthetic grammar) into
``{train,valid,test}.{en,de}`` folders with a ``stats.json`` and held-out sets that never leak."""
