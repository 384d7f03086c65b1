"""The colour maps the attention views offer.

Attention weights are read as magnitudes, so every sequential map here is perceptually uniform: equal
steps in weight look like equal steps in colour, and none of them invents structure the way a rainbow
map does. All of them ship inside pyqtgraph (no download). "greys" runs from white to black, the
convention of printed figures, so it is built by reversing pyqtgraph's linear grey map.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg

DEFAULT_COLORMAP = "viridis"

# Display name -> (pyqtgraph name, reversed?). Order is the order of the combo box.
_SEQUENTIAL = {
    "viridis": ("viridis", False),
    "magma": ("magma", False),
    "inferno": ("inferno", False),
    "plasma": ("plasma", False),
    "cividis": ("cividis", False),  # designed to read the same for colour-vision deficiencies
    "greys": ("CET-L1", True),
}

# Signed quantities (the positional encoding, which lies in [-1, 1]) need a diverging map whose
# neutral middle sits at 0; CET-D1A is a perceptually uniform blue-white-red.
DIVERGING_COLORMAP = "CET-D1A"

_cache: dict[str, pg.ColorMap] = {}


def colormap_names() -> list[str]:
    """Names accepted by :func:`get_colormap`, default first."""
    return list(_SEQUENTIAL)


def get_colormap(name: str) -> pg.ColorMap:
    """The pyqtgraph ColorMap for a display name (or any map name pyqtgraph ships offline)."""
    if name in _cache:
        return _cache[name]
    if name in _SEQUENTIAL:
        source, flip = _SEQUENTIAL[name]
    else:
        source, flip = name, False
    try:
        cmap = pg.colormap.get(source)
    except (FileNotFoundError, KeyError, ValueError) as exc:
        raise ValueError(f"unknown colour map {name!r}; choose one of {colormap_names()}") from exc
    if flip:
        # ColorMap stores colours as floats in [0, 1]; hand them back as bytes so none is rescaled.
        colors = np.round(cmap.color[::-1] * 255).astype(np.ubyte)
        cmap = pg.ColorMap(1.0 - cmap.pos[::-1], colors, name=name)
    _cache[name] = cmap
    return cmap


def map_to_rgba(values: np.ndarray, name: str) -> np.ndarray:
    """Colour an array of values in [0, 1] into uint8 RGBA (shape + (4,)); NaN maps to alpha 0."""
    values = np.asarray(values, dtype=np.float32)
    lut = get_colormap(name).getLookupTable(0.0, 1.0, 256, alpha=True)
    finite = np.isfinite(values)
    idx = np.clip(np.where(finite, values, 0.0) * 255.0 + 0.5, 0, 255).astype(np.intp)
    rgba = lut[idx]
    rgba[~finite] = 0
    return rgba


def text_color_for(rgba: np.ndarray) -> str:
    """Black or white, whichever reads better on a cell of this colour (relative luminance)."""
    r, g, b = (float(c) / 255.0 for c in rgba[:3])
    luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return "#000000" if luminance > 0.45 else "#ffffff"
