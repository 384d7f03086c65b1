"""Text that fits the PE tab's plots on a 1024 × 768 projector: colour-bar and axis labels no closer
than their font's line height, plot titles that wrap to the plot's width, and a wrapping note.

pyqtgraph sizes none of these from the text: it always draws every major tick label (so on a short
colour bar under the formula dock '1.0', '0.5', '0', '-0.5', '-1.0' were drawn over each other), it
fixes a title's row at 30 px and never wraps it (at zoom +2 a long title ran past its plot and a
two-line clock title ran into the clock under it). Everything here is measured from the font in use
(issue #31 item 10).
"""

from __future__ import annotations

import math
import re

from PySide6 import QtCore, QtGui

from explorer.ui.plot_titles import release_title_width

JOINER = "\u2060"  # a word joiner: invisible, no width, no line break on either side
# Chinese may break between any two ideographs, so "转一圈：6.28 个位置" wrapped as "… 个位" over a lone "置".
# The basic block holds every ideograph of the zh_CN catalogue.
_BETWEEN_IDEOGRAPHS = re.compile(r"(?<=[\u4e00-\u9fff])(?=[\u4e00-\u9fff])")
_NUMBER_SPACE = re.compile(r"(?<=\d) (?=\S)")
GAP = 1.1  # tick labels at least this many line heights apart: a little air between two numbers
NICE = (1.0, 2.0, 2.5, 5.0)  # tick steps × a power of ten, as pyqtgraph's own


def tick_font(axis) -> QtGui.QFont:
    return axis.style.get("tickFont") or axis.font()


def label_step(lo: float, hi: float, size: float, line: float) -> float:
    """The data step between two labels ``line`` px tall on an axis ``size`` px long showing lo..hi."""
    return GAP * line * abs(hi - lo) / max(1.0, size)


def nice_step(at_least: float) -> float:
    """The smallest 1, 2, 2.5 or 5 × 10ⁿ that is >= ``at_least`` (> 0)."""
    power = 10.0 ** math.floor(math.log10(at_least))
    for factor in NICE + (10.0,):
        if factor * power >= at_least * (1 - 1e-9):
            return factor * power
    return 10.0 * power


def spaced_values(lo: float, hi: float, step: float, margin: float) -> tuple[float, list[float]]:
    """(spacing, values): the multiples of ``step`` in lo..hi at least a half line (``margin``, in data
    units) from the ends, or, where that leaves fewer than two, the midpoints between them: pyqtgraph
    drops a label that would stick out, so -1, 0, 1 on a -1.1..1.1 axis showed only '0', where -0.5,
    0.5 show two. The spacing returned is what pyqtgraph formats the labels by (step / 2: '0.5')."""
    low, high = min(lo, hi) + margin, max(lo, hi) - margin

    def multiples(offset: float) -> list[float]:
        first = math.ceil(low / step - offset - 1e-9)
        return [(n + offset) * step for n in range(first, math.floor(high / step - offset + 1e-9) + 1)]

    values = multiples(0.0)
    if len(values) >= 2:
        return step, values
    halves = multiples(0.5)
    return (step / 2, halves) if len(halves) > len(values) else (step, values)


def thinned_levels(levels, lo: float, hi: float, size: float, line: float):
    """pyqtgraph's tick ``levels`` [(spacing, values)] for an axis ``size`` px long showing lo..hi, less
    the levels whose labels (``line`` px tall) would overlap; when none is left, one level with a step
    that leaves room."""
    if not levels or hi == lo:
        return levels
    need = label_step(lo, hi, size, line)
    kept = [(spacing, values) for spacing, values in levels if spacing >= need * (1 - 1e-9)]
    if kept:
        return kept
    return [spaced_values(lo, hi, nice_step(need), 0.5 * line * abs(hi - lo) / max(1.0, size))]


def thin_ticks(axis) -> None:
    """Give a vertical axis the tick labels of ``thinned_levels`` for its length and range now.

    Called again whenever either changes (``keep_ticks_thinned``). Through the axis' public ``setTicks``:
    the colour bars make their axes themselves, so no AxisItem subclass can be put in their place."""
    if axis.orientation not in ("left", "right"):
        return
    lo, hi = axis.range
    size = axis.geometry().height()
    if size <= 1:
        return
    axis.setTicks(None)  # pyqtgraph's own levels for this length, then thinned
    levels = thinned_levels(axis.tickValues(lo, hi, size), lo, hi, size,
                            QtGui.QFontMetricsF(tick_font(axis)).height())
    scale = axis.autoSIPrefixScale * axis.scale
    axis.setTicks([[(v, s) for v, s in zip(values, axis.tickStrings(values, scale, spacing))]
                   for spacing, values in levels])


def keep_ticks_thinned(axis) -> None:
    """Thin ``axis``' labels now and whenever its length or its range changes."""
    axis.geometryChanged.connect(lambda: thin_ticks(axis))
    view = axis.linkedView()
    if view is not None:
        view.sigYRangeChanged.connect(lambda *_: thin_ticks(axis))
    thin_ticks(axis)


def span_title(plot) -> None:
    """Let the title's row span the plot's whole width (pyqtgraph puts it over the view's column only),
    so that the label's own width is the room a wrapped title has."""
    grid, label = plot.layout, plot.titleLabel
    grid.removeItem(label)
    grid.addItem(label, 0, 0, 1, max(3, grid.columnCount()))


def whole_words(text: str) -> str:
    """``text`` whose Chinese words break only at their ends: a joiner between two ideographs, so a line
    breaks at a space or after "：", never inside "个位置". Lay it out with whole=True
    (``wrap_titles_alike``): Qt still breaks a run wider than the line anywhere."""
    return _BETWEEN_IDEOGRAPHS.sub(JOINER, text)


def with_units(text: str) -> str:
    """``text`` with each number kept on the line of the word after it, its unit ("6.28 pos.", "6.28 个位置"):
    "转一圈：" over "6.28 个位置" reads better than "转一圈：6.28" over "个位置", where the room allows it."""
    return _NUMBER_SPACE.sub("\u00a0", text)


def wrap_title(plot, text: str, color: str, point_size: float, width: float, max_lines: int = 2,
               smallest: float = 0.8) -> float:
    """Set ``plot``'s title, wrapped onto more lines (centred) where it is wider than ``width`` px, with
    the title row as tall as those lines; where it needs more than ``max_lines`` lines (the
    lines ``text`` has of its own not counted), a size down to ``smallest`` × ``point_size`` that needs
    fewer. Returns the row's height."""
    return _wrap(plot, text, color, point_size, width, max_lines, smallest)[0]


def wrap_titles_alike(plots: list, texts: list[str], color: str, point_size: float, width: float,
                      max_lines: int = 2, smallest: float = 0.8, whole: bool = False) -> None:
    """``wrap_title`` for a row of plots whose titles must read as one set (the clocks): where one title
    had to be made smaller, all are set at that size. Each alone, the Chinese clocks' first three titles
    stood large over "6.28 个位 / 置" and the other five small (a walk-through under the formula dock).

    ``whole``: lines break between words only (``whole_words``); a word wider than ``width`` makes the
    title smaller, and where even ``smallest`` is too large it sticks out, measured in the title's
    width (the caller's fit then rejects that room) rather than broken into a lone character."""
    sizes = [_wrap(plot, text, color, point_size, width, max_lines, smallest, whole)[1]
             for plot, text in zip(plots, texts)]
    size = min(sizes, default=point_size)
    if any(s != size for s in sizes):
        for plot, text in zip(plots, texts):
            _wrap(plot, text, color, size, width, max_lines, 1.0, whole)  # 1.0: no smaller than the set's size


def _wrap(plot, text: str, color: str, point_size: float, width: float, max_lines: int,
          smallest: float, whole: bool = False) -> tuple[float, float]:
    """``wrap_title``'s work; returns (the row's height, the size the title was set at)."""
    own = text.count("<br>") + 1
    size = point_size
    while True:
        plot.setTitle(text, color=color, size=f"{size:.1f}pt")
        label = plot.titleLabel
        item = label.item
        option = item.document().defaultTextOption()
        option.setAlignment(QtCore.Qt.AlignmentFlag.AlignHCenter)
        # Qt's default wraps anywhere when a word is too long: the lone "置" under "6.28 个位".
        option.setWrapMode(QtGui.QTextOption.WrapMode.WordWrap if whole
                           else QtGui.QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        item.document().setDefaultTextOption(option)
        item.setTextWidth(-1)
        margin = 2 * item.document().documentMargin()
        one_line = (item.boundingRect().height() - margin) / own  # the text's own lines, unwrapped
        # A text width always, so that the lines are centred under each other (without one Qt lays
        # them out flush left, and a clock's 'dims 0, 1' stood left of 'one turn: 6.28 pos.').
        item.setTextWidth(min(math.ceil(item.boundingRect().width()), max(1.0, float(width))))
        lines = round((item.boundingRect().height() - margin) / max(1.0, one_line))
        too_wide = item.boundingRect().width() > width + 1  # only with whole: a word longer than the line
        if (lines <= max(max_lines, own) and not too_wide) or size <= smallest * point_size:
            break
        size = max(smallest * point_size, 0.9 * size)
    height = math.ceil(item.boundingRect().height())
    release_title_width(plot)
    label.setMaximumHeight(height)
    plot.layout.setRowFixedHeight(0, height)
    label.updateMin()
    label.resizeEvent(None)
    return height, size


def title_fits(plot) -> bool:
    """Whether every line of ``plot``'s title is within the title's row (for tests and the clocks)."""
    label = plot.titleLabel
    text = label.item.boundingRect()
    ideal = label.item.document().idealWidth()
    return ideal <= label.geometry().width() + 1 and text.height() <= label.geometry().height() + 1


def wrap_text_item(item, width: float) -> None:
    """A pg.TextItem on one line where it fits in ``width`` px, else wrapped to that width."""
    item.setTextWidth(-1)
    if item.textItem.boundingRect().width() > width:
        item.setTextWidth(max(1.0, float(width)))
