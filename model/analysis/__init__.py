"""Analyses over many sentences: per-head statistics and head importance."""
