"""The positional-encoding tab: the sinusoid table and waves, and the clock hands of PE(pos + k)."""
