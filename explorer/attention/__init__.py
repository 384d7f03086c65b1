"""The attention maps of one translation: the panel with its heatmap, head grid, lines and compare views,
their controls, token axes, masks and exports. Any feature may show attention, so any may import this."""
