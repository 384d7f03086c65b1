"""The Train tab: the form, the training worker on its thread, the log, the curves and the probe replay."""
