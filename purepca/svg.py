"""The four pictures of a PCA as standalone SVG text, with no dependency.

=======================  ==================================================
``scree_plot``           variance explained per component (bars) and the
                         cumulative share (a line), both in percent
``scores_plot``          the rows in the plane of two components, coloured
                         by a label when given, with a legend
``biplot``               the scores with the loadings drawn as arrows
``correlation_circle``   each column's correlation with two components,
                         inside the unit circle
``pca_report``           the four of a fitted :class:`~purepca.PCA` in one
                         picture (two by two)
=======================  ==================================================

Each returns the text of an ``<svg>`` document: axes with ticks and labels,
a title, a legend where there is more than one kind of mark, black text on
white (readable on screen and on paper), and colours from Okabe and Ito's
palette, which readers with a colour vision deficiency can tell apart.
Every plotted point is a ``<circle class="point">``; the tests render the
pictures in a real browser and look for the points' pixels where the axes
say they are.

>>> svg = scores_plot([[0.0, 1.0], [2.0, -1.0]], groups=["a", "b"])
>>> import xml.etree.ElementTree as ET
>>> root = ET.fromstring(svg)
>>> circles = root.findall(".//{http://www.w3.org/2000/svg}circle")
>>> root.tag, [c.get("class") for c in circles]   # two points, two legend marks
('{http://www.w3.org/2000/svg}svg', ['point', 'point', None, None])
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Optional, Sequence
from xml.sax.saxutils import escape

from .errors import PurePCAError

if TYPE_CHECKING:
    from .pca import PCA

__all__ = [
    "PALETTE", "biplot", "column_correlations", "correlation_circle", "pca_report", "scores_plot", "scree_plot",
    "ticks",
]

#: Okabe and Ito's colour-blind-safe palette (black last), in the order groups get them.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000")

_FONT = 'font-family="DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif"'
_MARGIN = (64, 24, 56, 40)  # left, right, bottom, top: room for tick labels, axis titles and the title


def _num(v: float) -> str:
    """A pixel coordinate as short text (two decimals are far below a pixel)."""
    text = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _finite_pairs(points: Any, what: str, width: int = 2) -> list[list[float]]:
    """Rows of at least ``width`` finite numbers, as floats (validated here, at the boundary)."""
    try:
        rows = [list(row) for row in points]
    except TypeError:
        raise PurePCAError(f"{what}: expected a list of rows, got {type(points).__name__}") from None
    if not rows:
        raise PurePCAError(f"{what}: nothing to plot (no rows)")
    out = []
    for i, row in enumerate(rows):
        if len(row) < width:
            raise PurePCAError(f"{what}: row {i} has {len(row)} values; the plot needs {width}")
        vals = []
        for j, v in enumerate(row[:width]):
            try:
                f = float(v)
            except (TypeError, ValueError):
                raise PurePCAError(f"{what}: row {i}, column {j} is not a number: {v!r}") from None
            if not math.isfinite(f):
                raise PurePCAError(f"{what}: row {i}, column {j} is {f} (only finite values can be plotted)")
            vals.append(f)
        out.append(vals)
    return out


def _labels(values: Optional[Sequence[Any]], n: int, what: str) -> Optional[list[str]]:
    if values is None:
        return None
    out = [str(v) for v in values]
    if len(out) != n:
        raise PurePCAError(f"{what}: {len(out)} labels for {n} rows")
    return out


def ticks(lo: float, hi: float, target: int = 6) -> tuple[list[float], float]:
    """Round tick values covering ``[lo, hi]`` (steps of 1, 2, 2.5 or 5 times a power of ten) and the step.

    >>> ticks(-0.3, 2.7)
    ([-0.5, 0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0], 0.5)
    >>> ticks(5.0, 5.0)[0]
    [4.0, 4.5, 5.0, 5.5, 6.0]
    """
    if hi < lo:
        lo, hi = hi, lo
    if hi - lo <= 1e-12 * max(abs(lo), abs(hi), 1e-300):
        pad = abs(lo) * 0.2 if lo else 1.0
        lo, hi = lo - pad, hi + pad
    raw = (hi - lo) / target
    power = 10.0 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1.0, 2.0, 2.5, 5.0, 10.0) if m * power >= raw * (1 - 1e-9))
    first, last = math.floor(lo / step + 1e-9), math.ceil(hi / step - 1e-9)
    return [round(k * step, 12) + 0.0 for k in range(first, last + 1)], step


def _tick_text(v: float, step: float) -> str:
    if abs(v) < step * 1e-9:
        return "0"
    magnitude = max(abs(v), step)
    if magnitude >= 1e5 or step < 1e-4:
        return f"{v:.3g}"
    decimals = max(0, -math.floor(math.log10(step) + 1e-9))
    if round(step * 10 ** decimals, 6) % 1:  # 2.5 x 10^k needs one more digit
        decimals += 1
    return f"{v:.{decimals}f}"


class _Frame:
    """A plotting box: data coordinates to pixels, and the SVG of the axes around it."""

    def __init__(self, xs: Sequence[float], ys: Sequence[float], width: int, height: int, *,
                 equal: bool = False, pad: float = 0.06, y_range: Optional[tuple[float, float]] = None,
                 x_range: Optional[tuple[float, float]] = None) -> None:
        left, right, bottom, top = _MARGIN
        self.width, self.height = width, height
        self.box = (left, top, width - right, height - bottom)  # x0, y0, x1, y1 in pixels
        x_lo, x_hi = x_range if x_range is not None else _padded(xs, pad)
        y_lo, y_hi = y_range if y_range is not None else _padded(ys, pad)
        if equal:  # one unit is as long on both axes (circles stay circles)
            pw, ph = self.box[2] - self.box[0], self.box[3] - self.box[1]
            units = max((x_hi - x_lo) / pw, (y_hi - y_lo) / ph)
            cx, cy = (x_lo + x_hi) / 2, (y_lo + y_hi) / 2
            x_lo, x_hi = cx - units * pw / 2, cx + units * pw / 2
            y_lo, y_hi = cy - units * ph / 2, cy + units * ph / 2
            self.xticks, self.xstep = _inside(ticks(x_lo, x_hi), x_lo, x_hi)
            self.yticks, self.ystep = _inside(ticks(y_lo, y_hi), y_lo, y_hi)
        else:  # the axes end on ticks
            self.xticks, self.xstep = ticks(x_lo, x_hi)
            self.yticks, self.ystep = ticks(y_lo, y_hi)
            x_lo, x_hi = self.xticks[0], self.xticks[-1]
            y_lo, y_hi = self.yticks[0], self.yticks[-1]
        self.x_lo, self.x_hi, self.y_lo, self.y_hi = x_lo, x_hi, y_lo, y_hi

    def px(self, x: float) -> float:
        x0, _, x1, _ = self.box
        return x0 + (x - self.x_lo) / (self.x_hi - self.x_lo) * (x1 - x0)

    def py(self, y: float) -> float:
        _, y0, _, y1 = self.box
        return y1 - (y - self.y_lo) / (self.y_hi - self.y_lo) * (y1 - y0)

    def axes(self, title: str, xlabel: str, ylabel: str, *, grid: bool = True, zero_lines: bool = False) -> list[str]:
        """The frame, grid, ticks with their labels, the axis titles and the title."""
        x0, y0, x1, y1 = self.box
        out = [f'<rect x="0" y="0" width="{self.width}" height="{self.height}" fill="#ffffff"/>']
        for v in self.xticks:
            p = _num(self.px(v))
            if grid:
                out.append(f'<line x1="{p}" y1="{y0}" x2="{p}" y2="{y1}" stroke="#e6e6e6" stroke-width="1"/>')
            out.append(f'<line x1="{p}" y1="{y1}" x2="{p}" y2="{y1 + 5}" stroke="#000000" stroke-width="1"/>')
            out.append(f'<text class="xtick" x="{p}" y="{y1 + 18}" text-anchor="middle" font-size="11" {_FONT}>'
                       f"{_tick_text(v, self.xstep)}</text>")
        for v in self.yticks:
            p = _num(self.py(v))
            if grid:
                out.append(f'<line x1="{x0}" y1="{p}" x2="{x1}" y2="{p}" stroke="#e6e6e6" stroke-width="1"/>')
            out.append(f'<line x1="{x0 - 5}" y1="{p}" x2="{x0}" y2="{p}" stroke="#000000" stroke-width="1"/>')
            out.append(f'<text class="ytick" x="{x0 - 8}" y="{p}" dy="0.35em" text-anchor="end" font-size="11" '
                       f"{_FONT}>{_tick_text(v, self.ystep)}</text>")
        if zero_lines:
            if self.x_lo < 0 < self.x_hi:
                p = _num(self.px(0.0))
                out.append(f'<line x1="{p}" y1="{y0}" x2="{p}" y2="{y1}" stroke="#7f7f7f" stroke-dasharray="4 3"/>')
            if self.y_lo < 0 < self.y_hi:
                p = _num(self.py(0.0))
                out.append(f'<line x1="{x0}" y1="{p}" x2="{x1}" y2="{p}" stroke="#7f7f7f" stroke-dasharray="4 3"/>')
        out.append(f'<rect x="{x0}" y="{y0}" width="{x1 - x0}" height="{y1 - y0}" fill="none" stroke="#000000"/>')
        out.append(f'<text x="{_num((x0 + x1) / 2)}" y="{self.height - 12}" text-anchor="middle" font-size="13" '
                   f"{_FONT}>{escape(xlabel)}</text>")
        out.append(f'<text x="16" y="{_num((y0 + y1) / 2)}" text-anchor="middle" font-size="13" {_FONT} '
                   f'transform="rotate(-90 16 {_num((y0 + y1) / 2)})">{escape(ylabel)}</text>')
        out.append(f'<text class="title" x="{_num(self.width / 2)}" y="24" text-anchor="middle" font-size="15" '
                   f'font-weight="bold" {_FONT}>{escape(title)}</text>')
        return out

    def legend(self, entries: Sequence[tuple[str, str, str]], avoid: Sequence[tuple[float, float]] = ()) -> list[str]:
        """A legend of (kind, colour, text) entries, kind one of point, bar, line, in the corner
        of the box that covers the fewest of the pixels ``avoid`` (top right on a tie)."""
        if not entries:
            return []
        bx0, by0, bx1, by1 = self.box
        wide = max(len(text) for _, _, text in entries) * 7 + 34
        tall = len(entries) * 18 + 8
        corners = [(bx1 - wide - 6, by0 + 6), (bx0 + 6, by0 + 6), (bx1 - wide - 6, by1 - tall - 6),
                   (bx0 + 6, by1 - tall - 6)]
        x, y0 = min(corners, key=lambda c: sum(c[0] - 4 <= px <= c[0] + wide + 4 and c[1] - 4 <= py <= c[1] + tall + 4
                                               for px, py in avoid))
        y0 -= 6
        out = [f'<rect class="legend" x="{x}" y="{y0 + 6}" width="{wide}" height="{tall}" fill="#ffffff" '
               'stroke="#7f7f7f"/>']
        for i, (kind, colour, text) in enumerate(entries):
            cy = y0 + 19 + 18 * i
            if kind == "bar":
                out.append(f'<rect x="{x + 8}" y="{cy - 6}" width="14" height="12" fill="{colour}"/>')
            elif kind == "line":
                out.append(f'<line x1="{x + 6}" y1="{cy}" x2="{x + 24}" y2="{cy}" stroke="{colour}" stroke-width="2"/>')
            else:
                out.append(f'<circle cx="{x + 15}" cy="{cy}" r="4" fill="{colour}"/>')
            out.append(f'<text x="{x + 30}" y="{cy}" dy="0.35em" font-size="12" {_FONT}>{escape(text)}</text>')
        return out


def _pixels(frame: _Frame, pts: Sequence[Sequence[float]]) -> list[tuple[float, float]]:
    return [(frame.px(x), frame.py(y)) for x, y in pts]


def _padded(values: Sequence[float], pad: float) -> tuple[float, float]:
    lo, hi = min(values), max(values)
    extra = (hi - lo) * pad
    return lo - extra, hi + extra


def _inside(found: tuple[list[float], float], lo: float, hi: float) -> tuple[list[float], float]:
    values, step = found
    return [v for v in values if lo - 1e-9 * step <= v <= hi + 1e-9 * step], step


def _document(width: int, height: int, title: str, body: list[str]) -> str:
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}">')
    return "\n".join([head, f"<title>{escape(title)}</title>"] + body + ["</svg>"]) + "\n"


def _arrow(x0: float, y0: float, x1: float, y1: float, colour: str, cls: str) -> list[str]:
    """A line from (x0, y0) to (x1, y1) in pixels with a filled head (a polygon: prints everywhere)."""
    out = [f'<line class="{cls}" x1="{_num(x0)}" y1="{_num(y0)}" x2="{_num(x1)}" y2="{_num(y1)}" '
           f'stroke="{colour}" stroke-width="1.6"/>']
    length = math.hypot(x1 - x0, y1 - y0)
    if length > 1e-9:
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        size = min(9.0, length / 2)
        bx, by = x1 - ux * size, y1 - uy * size
        points = [(x1, y1), (bx - uy * size * 0.45, by + ux * size * 0.45), (bx + uy * size * 0.45, by - ux * size * 0.45)]
        out.append(f'<polygon points="{" ".join(f"{_num(a)},{_num(b)}" for a, b in points)}" fill="{colour}"/>')
    return out


def _text_at(x: float, y: float, dx: float, dy: float, text: str, colour: str = "#000000") -> str:
    """A label beside the end of an arrow, pushed outwards along the arrow's direction."""
    anchor = "start" if dx > 0.25 else "end" if dx < -0.25 else "middle"
    return (f'<text x="{_num(x + 6 * dx)}" y="{_num(y - 6 * dy)}" dy="0.35em" text-anchor="{anchor}" '
            f'font-size="12" fill="{colour}" {_FONT}>{escape(text)}</text>')


def _points(frame: _Frame, pts: list[list[float]], groups: Optional[list[str]], default: str,
            names: Optional[list[str]]) -> tuple[list[str], list[tuple[str, str, str]]]:
    """The circles of the points, and the legend entries of the groups (first seen, first coloured)."""
    order: dict[str, str] = {}
    if groups is not None:
        for g in groups:
            order.setdefault(g, PALETTE[len(order) % len(PALETTE)])
    out = []
    for i, (x, y) in enumerate(pts):
        colour = order[groups[i]] if groups is not None else default
        tip = escape(names[i]) if names is not None else f"row {i + 1}"
        out.append(f'<circle class="point" cx="{_num(frame.px(x))}" cy="{_num(frame.py(y))}" r="3.5" '
                   f'fill="{colour}"><title>{tip}</title></circle>')
    return out, [("point", colour, group) for group, colour in order.items()]


def scree_plot(explained_variance: Sequence[float], *, title: str = "Scree plot",
               names: Optional[Sequence[str]] = None, width: int = 640, height: int = 420) -> str:
    """Bars of the variance explained by each component and a line of the cumulative share, in percent.

    ``explained_variance`` are the components' variances (or eigenvalues);
    the shares are of their sum, so pass every component's variance for
    shares of the total.

    >>> svg = scree_plot([2.48, 0.99, 0.36, 0.17])
    >>> svg.count('class="bar"'), svg.count('class="cumulative"')
    (4, 4)
    """
    values = [row[0] for row in _finite_pairs([[v] for v in explained_variance], "scree_plot", 1)]
    if any(v < 0 for v in values):
        raise PurePCAError("scree_plot: a variance is negative")
    total = math.fsum(values)
    if total <= 0:
        raise PurePCAError("scree_plot: the variances sum to zero; there is nothing to show")
    k = len(values)
    labels = _labels(names, k, "scree_plot names") or [f"PC{i + 1}" for i in range(k)]
    share = [100.0 * v / total for v in values]
    cumulative = [100.0 * math.fsum(values[: i + 1]) / total for i in range(k)]
    frame = _Frame([0.5, k + 0.5], [0.0, 100.0], width, height, x_range=(0.5, k + 0.5), y_range=(0.0, 100.0))
    frame.xticks, frame.xstep = [], 1.0
    body = frame.axes(title, "component", "variance explained (%)")
    x0, _, x1, y1 = frame.box
    slot = (x1 - x0) / k
    for i, (label, s) in enumerate(zip(labels, share)):
        centre = frame.px(i + 1.0)
        top = frame.py(s)
        body.append(f'<rect class="bar" x="{_num(centre - slot * 0.35)}" y="{_num(top)}" width="{_num(slot * 0.7)}" '
                    f'height="{_num(y1 - top)}" fill="{PALETTE[5]}"><title>{escape(label)}: {s:.2f} %</title></rect>')
        if k <= 30 or i % math.ceil(k / 30) == 0:
            body.append(f'<text class="xtick" x="{_num(centre)}" y="{y1 + 18}" text-anchor="middle" font-size="11" '
                        f"{_FONT}>{escape(label)}</text>")
    line = " ".join(f"{_num(frame.px(i + 1.0))},{_num(frame.py(c))}" for i, c in enumerate(cumulative))
    body.append(f'<polyline points="{line}" fill="none" stroke="{PALETTE[1]}" stroke-width="2"/>')
    for i, c in enumerate(cumulative):
        body.append(f'<circle class="cumulative" cx="{_num(frame.px(i + 1.0))}" cy="{_num(frame.py(c))}" r="3.5" '
                    f'fill="{PALETTE[1]}"><title>{escape(labels[i])}: {c:.2f} % cumulative</title></circle>')
    marks = [(frame.px(i + 1.0), frame.py(c)) for i, c in enumerate(cumulative)]
    marks += [(frame.px(i + 1.0 + dx), frame.py(s)) for i, s in enumerate(share) for dx in (-0.3, 0.0, 0.3)]
    body += frame.legend([("bar", PALETTE[5], "per component"), ("line", PALETTE[1], "cumulative")], marks)
    return _document(width, height, title, body)


def scores_plot(scores: Sequence[Sequence[float]], *, groups: Optional[Sequence[Any]] = None,
                names: Optional[Sequence[str]] = None, axis_labels: tuple[str, str] = ("PC1", "PC2"),
                title: str = "Scores", width: int = 640, height: int = 480) -> str:
    """The rows as points in the plane of two components (the first two columns of ``scores``).

    ``groups`` (one label per row) colours the points and adds a legend;
    ``names`` become each point's tooltip.

    >>> svg = scores_plot([[1.0, 2.0], [-1.0, 0.5], [0.0, -2.0]], names=["a", "b", "c"])
    >>> svg.count('class="point"')
    3
    """
    pts = _finite_pairs(scores, "scores_plot")
    grp = _labels(groups, len(pts), "scores_plot groups")
    frame = _Frame([p[0] for p in pts], [p[1] for p in pts], width, height)
    body = frame.axes(title, axis_labels[0], axis_labels[1], zero_lines=True)
    circles, legend = _points(frame, pts, grp, PALETTE[0], _labels(names, len(pts), "scores_plot names"))
    return _document(width, height, title, body + circles + frame.legend(legend, _pixels(frame, pts)))


def biplot(scores: Sequence[Sequence[float]], loadings: Sequence[Sequence[float]], feature_names: Sequence[str], *,
           groups: Optional[Sequence[Any]] = None, names: Optional[Sequence[str]] = None,
           axis_labels: tuple[str, str] = ("PC1", "PC2"), title: str = "Biplot", width: int = 640,
           height: int = 480) -> str:
    """The scores as points and the loadings (one row per feature) as black arrows from the origin.

    The arrows are the loadings times one factor, chosen so that the longest
    reaches 80 % of the farthest point (as ``factoextra``'s biplot does); the
    factor is printed under the title, so the arrows' lengths can be read.

    >>> svg = biplot([[1.0, 0.0], [-1.0, 0.2]], [[0.8, 0.6], [-0.6, 0.8]], ["x", "y"])
    >>> svg.count('class="loading"'), "loadings x 0.816" in svg
    (2, True)
    """
    pts = _finite_pairs(scores, "biplot scores")
    arrows = _finite_pairs(loadings, "biplot loadings")
    labels = _labels(feature_names, len(arrows), "biplot feature_names")
    assert labels is not None
    reach = max(math.hypot(x, y) for x, y in pts)
    longest = max(math.hypot(x, y) for x, y in arrows)
    factor = 0.8 * reach / longest if longest > 0 and reach > 0 else 1.0
    tips = [[x * factor, y * factor] for x, y in arrows]
    frame = _Frame([p[0] for p in pts + tips] + [0.0], [p[1] for p in pts + tips] + [0.0], width, height, pad=0.12)
    body = frame.axes(title, axis_labels[0], axis_labels[1], zero_lines=True)
    body.append(f'<text x="{_num(width / 2)}" y="40" text-anchor="middle" font-size="11" {_FONT}>'
                f"loadings x {factor:.3g}</text>")
    circles, legend = _points(frame, pts, _labels(groups, len(pts), "biplot groups"), "#7f7f7f",
                              _labels(names, len(pts), "biplot names"))
    body += circles
    ox, oy = frame.px(0.0), frame.py(0.0)
    for (x, y), label in zip(tips, labels):
        body += _arrow(ox, oy, frame.px(x), frame.py(y), "#000000", "loading")
        norm = math.hypot(x, y) or 1.0
        body.append(_text_at(frame.px(x), frame.py(y), x / norm, y / norm, label))
    return _document(width, height, title, body + frame.legend(legend, _pixels(frame, pts + tips)))


def correlation_circle(correlations: Sequence[Sequence[float]], feature_names: Sequence[str], *,
                       axis_labels: tuple[str, str] = ("PC1", "PC2"), title: str = "Correlation circle",
                       width: int = 520, height: int = 520) -> str:
    """Each feature as an arrow to its correlations with two components, inside the unit circle.

    A feature well represented by the plane reaches the circle (its two
    squared correlations, the cos², sum to nearly 1).

    >>> svg = correlation_circle([[0.9, 0.3], [-0.2, 0.95]], ["a", "b"])
    >>> svg.count('class="loading"'), svg.count('class="unit-circle"')
    (2, 1)
    """
    arrows = _finite_pairs(correlations, "correlation_circle")
    for i, (x, y) in enumerate(arrows):
        if math.hypot(x, y) > 1 + 1e-9:
            raise PurePCAError(f"correlation_circle: row {i} ({x}, {y}) lies outside the unit circle; "
                               "correlations are at most 1 in length")
    labels = _labels(feature_names, len(arrows), "correlation_circle feature_names")
    assert labels is not None
    frame = _Frame([-1.45, 1.45], [-1.15, 1.15], width, height, equal=True, pad=0.0)  # room for the names
    body = frame.axes(title, axis_labels[0], axis_labels[1], grid=False, zero_lines=True)
    ox, oy = frame.px(0.0), frame.py(0.0)
    radius = frame.px(1.0) - ox
    body.append(f'<circle class="unit-circle" cx="{_num(ox)}" cy="{_num(oy)}" r="{_num(radius)}" fill="none" '
                'stroke="#000000" stroke-width="1"/>')
    for (x, y), label in zip(arrows, labels):
        body += _arrow(ox, oy, frame.px(x), frame.py(y), PALETTE[0], "loading")
        norm = math.hypot(x, y) or 1.0
        body.append(_text_at(frame.px(x), frame.py(y), x / norm, y / norm, label, PALETTE[0]))
    return _document(width, height, title, body)


def column_correlations(X: Sequence[Sequence[float]], scores: Sequence[Sequence[float]]) -> list[list[float]]:
    """Pearson correlation of each column of ``X`` with each column of ``scores`` (d x k).

    Computed from the two tables with compensated sums, so it holds for any
    convention and scaling.  A constant column correlates 0 with everything.

    >>> [[round(v, 12) for v in row] for row in column_correlations([[1, 2], [2, 1], [3, 0]], [[-1.0], [0.0], [1.0]])]
    [[1.0], [-1.0]]
    """
    n = len(X)
    d, k = len(X[0]), len(scores[0])

    def centred(col: list[float]) -> tuple[list[float], float]:
        mean = math.fsum(col) / n
        dev = [v - mean for v in col]
        return dev, math.sqrt(math.fsum(v * v for v in dev))

    xs = [centred([float(row[j]) for row in X]) for j in range(d)]
    zs = [centred([float(row[c]) for row in scores]) for c in range(k)]
    out = []
    for dx, nx in xs:
        out.append([0.0 if nx == 0 or nz == 0 else max(-1.0, min(1.0, math.fsum(a * b for a, b in zip(dx, dz)) / (nx * nz)))
                    for dz, nz in zs])
    return out


def pca_report(pca: "PCA", X: Sequence[Sequence[float]], *, feature_names: Optional[Sequence[str]] = None,
               groups: Optional[Sequence[Any]] = None, names: Optional[Sequence[str]] = None,
               title: str = "PCA", kinds: Sequence[str] = ("scree", "scores", "biplot", "circle")) -> str:
    """The plots of a fitted PCA of ``X`` (its training rows) in one picture, two per row.

    ``kinds`` picks among ``"scree"``, ``"scores"``, ``"biplot"`` and
    ``"circle"``; one kind gives that plot alone.  The scores are
    ``pca.transform(X)``; the biplot's arrows are the rotation (the unit
    loadings); the circle shows each column's correlation with the scores.
    The model needs two components for all but the scree plot.

    >>> from purepca import PCA
    >>> from purepca.datasets import load
    >>> data = load("usarrests")
    >>> pca = PCA(convention="prcomp", scale=True).fit(data.rows)
    >>> svg = pca_report(pca, data.rows, feature_names=data.columns, names=data.labels)
    >>> svg.count("<svg"), svg.count('class="point"')
    (5, 100)
    """
    known = ("scree", "scores", "biplot", "circle")
    for kind in kinds:
        if kind not in known:
            raise PurePCAError(f"pca_report: unknown kind {kind!r} (known: {', '.join(known)})")
    if not kinds:
        raise PurePCAError("pca_report: no kind of plot asked for")
    if not hasattr(pca, "components_"):
        raise PurePCAError("pca_report: the PCA is not fitted; call fit(X) first")
    d = pca.n_features_in_
    fnames = [str(v) for v in feature_names] if feature_names is not None else [f"x{j + 1}" for j in range(d)]
    if len(fnames) != d:
        raise PurePCAError(f"pca_report: {len(fnames)} feature names for {d} features")
    needs_two = [kind for kind in kinds if kind != "scree"]
    if needs_two and pca.n_components_ < 2:
        raise PurePCAError(f"pca_report: the {needs_two[0]} plot needs two components; the model has "
                           f"{pca.n_components_}")
    ratio = pca.explained_variance_ratio_
    axes = tuple(f"PC{c + 1} ({100 * ratio[c]:.1f} %)" for c in range(min(2, pca.n_components_)))
    pictures = []
    scores = pca.transform(X) if needs_two else []
    for kind in kinds:
        if kind == "scree":
            pictures.append(scree_plot(pca.explained_variance_, title=f"{title}: variance explained",
                                       names=pca.component_names))
        elif kind == "scores":
            pictures.append(scores_plot([r[:2] for r in scores], groups=groups, names=names,
                                        axis_labels=(axes[0], axes[1]), title=f"{title}: scores"))
        elif kind == "biplot":
            loadings = [[row[0], row[1]] for row in pca.rotation]
            pictures.append(biplot([r[:2] for r in scores], loadings, fnames, groups=groups, names=names,
                                   axis_labels=(axes[0], axes[1]), title=f"{title}: biplot"))
        else:
            corr = column_correlations(X, [r[:2] for r in scores])
            pictures.append(correlation_circle(corr, fnames, axis_labels=(axes[0], axes[1]),
                                               title=f"{title}: correlation circle"))
    if len(pictures) == 1:
        return pictures[0]
    return _grid(pictures, title)


def _grid(pictures: list[str], title: str) -> str:
    """Standalone SVG documents side by side, two per row, nested as ``<svg>`` elements."""
    sizes = []
    for text in pictures:
        head = text.split(">", 1)[0]
        sizes.append((int(head.split('width="')[1].split('"')[0]), int(head.split('height="')[1].split('"')[0])))
    cell_w = max(w for w, _ in sizes)
    rows = [list(range(i, min(i + 2, len(pictures)))) for i in range(0, len(pictures), 2)]
    heights = [max(sizes[i][1] for i in row) for row in rows]
    width, height = cell_w * min(2, len(pictures)), sum(heights)
    body = [f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>']
    top = 0
    for row, h in zip(rows, heights):
        for slot, i in enumerate(row):
            inner = pictures[i].split("\n", 1)[1].rsplit("</svg>", 1)[0]
            w_i, h_i = sizes[i]
            body.append(f'<svg x="{slot * cell_w + (cell_w - w_i) // 2}" y="{top}" width="{w_i}" height="{h_i}" '
                        f'viewBox="0 0 {w_i} {h_i}">')
            body.append(inner.rstrip("\n"))
            body.append("</svg>")
        top += h
    return _document(width, height, title, body)

