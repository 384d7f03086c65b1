"""Teaching aids: the formula walkthrough dock, the step-by-step decoding tab, lessons (slides saved and
replayed) and presentation mode."""
