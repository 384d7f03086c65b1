"""The research workbench tab: head importance, statistics over a test set and word alignment, computed
by its own analysis worker."""
