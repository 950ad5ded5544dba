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
palette, which readers with a colour vision deficiency can tell apart, each
group with its own marker shape too (:func:`group_styles`).  Every plotted
point has ``class="point"`` and its data coordinates in ``data-value``;
names are placed where they overlap no other text, with a white halo over
the points; a point's label stays beside its own point or is joined to it by
a leader line (``class="point-leader"``, both with the point's row in
``data-row``).  The tests render the pictures in a real browser, measure
every text's box and look for the points' pixels where the axes say they are.

>>> svg = scores_plot([[0.0, 1.0], [2.0, -1.0]], groups=["a", "b"])
>>> import xml.etree.ElementTree as ET
>>> root = ET.fromstring(svg)
>>> marks = [e.get("class") for e in root.iter() if e.get("class") in ("point", "legend-mark")]
>>> root.tag, marks   # two points, two legend marks
('{http://www.w3.org/2000/svg}svg', ['point', 'point', 'legend-mark', 'legend-mark'])
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Set as AbstractSet
from typing import TYPE_CHECKING, Any, Optional, Sequence

from .markup import escape_text as escape

from .covariance import covariance_matrix
from .errors import PurePCAError
from .params import as_int, as_real
from .point_labels import Placer as _Placer, place_point_labels

if TYPE_CHECKING:
    from .pca import PCA

__all__ = [
    "MARKERS", "PALETTE", "biplot", "column_correlations", "correlation_circle", "group_styles", "legend_width",
    "pca_report", "scores_plot", "scree_plot", "text_width", "ticks",
]

#: Okabe and Ito's colour-blind-safe palette (black last), in the order groups get them.
PALETTE = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000")

#: Marker shapes; group i is drawn in colour ``PALETTE[i % 8]`` with marker ``MARKERS[i % 5]``, so the
#: first 40 groups all differ in their (colour, shape) pair, and neighbours differ in both.
MARKERS = ("circle", "square", "triangle", "diamond", "triangle-down")

_FONT = 'font-family="DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif"'
_TOP, _BOTTOM, _RIGHT = 52, 56, 24  # room for the title and a caption; tick labels and the x title; a border

#: Widths of DejaVu Sans glyphs in em, by class, a little generous (the browser tests check them).
_NARROW, _SEMI, _WIDE = set("ijlI.,:;'!|"), set("frt ()[]-/"), set("mwMW%@")


def text_width(text: str, size: float, bold: bool = False) -> float:
    """The width in pixels of ``text`` at font ``size``, estimated from DejaVu Sans' glyph classes.

    >>> text_width("PC1", 10) > text_width("ill", 10)
    True
    """
    text = _text(text, "text_width text")
    size = as_real(size, "text_width size", low=0.0, high=MAX_SIZE)
    em = 0.0
    for ch in text:
        em += (0.30 if ch in _NARROW else 0.42 if ch in _SEMI else 1.0 if ch in _WIDE
               else 0.78 if ch.isupper() else 0.66)
    return em * size * (1.1 if bold else 1.0) * 1.04


#: The smallest and the largest picture side in pixels (and font size) the plots accept.
MIN_SIDE, MAX_SIDE, MAX_SIZE = 200, 20000, 1000.0


def _text(value: Any, name: str) -> str:
    """``value`` if it is text, else a :class:`PurePCAError` naming ``name``."""
    if not isinstance(value, str):
        raise PurePCAError(f"{name} must be text (a str), got {value!r:.60}")
    return value


def _texts(values: Any, name: str) -> list[str]:
    """A sequence of texts as a list, else a :class:`PurePCAError` naming ``name`` and the value."""
    if isinstance(values, (str, bytes)) or not isinstance(values, (list, tuple)):
        raise PurePCAError(f"{name} must be a list of texts, got {values!r:.60}")
    for i, v in enumerate(values):
        if not isinstance(v, str):
            raise PurePCAError(f"{name}: entry {i} must be text (a str), got {v!r:.60}")
    return list(values)


def _listlike(values: Any) -> bool:
    """Whether ``values`` is a sized, ordered collection (a list, a tuple, a numpy array), not text, a set or a
    mapping."""
    return (hasattr(values, "__len__") and hasattr(values, "__iter__") and not isinstance(values, (str, bytes))
            and not isinstance(values, (AbstractSet, Mapping)))


def _side(value: Any, name: str) -> int:
    """A picture's width or height in pixels."""
    return as_int(value, name, low=MIN_SIDE, high=MAX_SIDE)


def _axis_labels(value: Any, name: str) -> tuple[str, str]:
    """Two axis titles."""
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise PurePCAError(f"{name} must be two texts (x, y), got {value!r:.60}")
    return _text(value[0], name + "[0]"), _text(value[1], name + "[1]")


def _top(value: Any, name: str) -> Optional[int]:
    """None (the default rule) or how many variables to draw (0 for all)."""
    return None if value is None else as_int(value, name, low=0)


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
    if not _listlike(values):
        raise PurePCAError(f"{what} must be a list with one label per row, got {values!r:.60}")
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
    from .params import as_int, as_real

    lo, hi = as_real(lo, "lo"), as_real(hi, "hi")
    target = as_int(target, "target", low=1, high=1000)  # the number of ticks: the limit before the loop
    if hi < lo:
        lo, hi = hi, lo
    if hi - lo <= 1e-12 * max(abs(lo), abs(hi), 1e-300):
        pad = abs(lo) * 0.2 if lo else 1.0
        lo, hi = lo - pad, hi + pad
    raw = (hi - lo) / max(target, 1)
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


def _fitted_text(text: str, size: float, room: float, bold: bool = False) -> tuple[str, float]:
    """``text`` and a font size at which it fits in ``room`` pixels (down to 9 px, then shortened with an ellipsis)."""
    while size > 9 and text_width(text, size, bold) > room:
        size -= 0.5
    while len(text) > 2 and text_width(text, size, bold) > room:
        text = text[:-2].rstrip() + "…"
    return text, size


class _Frame:
    """A plotting box: data coordinates to pixels, and the SVG of the axes around it.

    The tick steps are chosen so that neighbouring tick labels never touch; the
    left margin is as wide as the widest y tick label needs; ``legend`` pixels
    are kept free on the right for a legend outside the box."""

    def __init__(self, xs: Sequence[float], ys: Sequence[float], width: int, height: int, *,
                 equal: bool = False, pad: float = 0.06, y_range: Optional[tuple[float, float]] = None,
                 x_range: Optional[tuple[float, float]] = None, legend: float = 0.0) -> None:
        self.width, self.height, self.equal = width, height, equal
        self.fixed = (x_range is not None, y_range is not None)  # a range given is kept, not widened to ticks
        x_lo, x_hi = x_range if x_range is not None else _padded(xs, pad)
        y_lo, y_hi = y_range if y_range is not None else _padded(ys, pad)
        left = 40.0
        for _ in range(3):  # the left margin depends on the y labels, which depend on the box's height only
            self.box = (left, float(_TOP), width - _RIGHT - legend, float(height - _BOTTOM))
            if self.box[2] - self.box[0] < 40 or self.box[3] - self.box[1] < 40:
                raise PurePCAError(f"a plot of {width} x {height} pixels leaves no room for its box (a legend "
                                   f"{legend:.0f} pixels wide, tick labels {left:.0f}); make it larger")
            self._ranges(x_lo, x_hi, y_lo, y_hi)
            widest = max(text_width(_tick_text(v, self.ystep), 11) for v in self.yticks)
            needed = math.ceil(widest) + 8 + 30
            if needed <= left:
                break
            left = float(needed)

    def _ranges(self, x_lo: float, x_hi: float, y_lo: float, y_hi: float) -> None:
        x0, y0, x1, y1 = self.box
        pw, ph = x1 - x0, y1 - y0
        if self.equal:  # one unit is as long on both axes (circles stay circles, distances mean something)
            units = max((x_hi - x_lo) / pw, (y_hi - y_lo) / ph)
            cx, cy = (x_lo + x_hi) / 2, (y_lo + y_hi) / 2
            x_lo, x_hi = cx - units * pw / 2, cx + units * pw / 2
            y_lo, y_hi = cy - units * ph / 2, cy + units * ph / 2
        self.xticks, self.xstep = _readable_ticks(x_lo, x_hi, pw, "x", self.equal)
        self.yticks, self.ystep = _readable_ticks(y_lo, y_hi, ph, "y", self.equal)
        if not self.equal:  # the axes end on ticks
            if not self.fixed[0]:
                x_lo, x_hi = self.xticks[0], self.xticks[-1]
            if not self.fixed[1]:
                y_lo, y_hi = self.yticks[0], self.yticks[-1]
        self.x_lo, self.x_hi, self.y_lo, self.y_hi = x_lo, x_hi, y_lo, y_hi

    def px(self, x: float) -> float:
        x0, _, x1, _ = self.box
        return x0 + (x - self.x_lo) / (self.x_hi - self.x_lo) * (x1 - x0)

    def py(self, y: float) -> float:
        _, y0, _, y1 = self.box
        return y1 - (y - self.y_lo) / (self.y_hi - self.y_lo) * (y1 - y0)

    def axes(self, title: str, xlabel: str, ylabel: str, *, grid: bool = True, zero_lines: bool = False,
             caption: str = "") -> list[str]:
        """The frame, grid, ticks with their labels, the axis titles, the title and a caption under it."""
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
        text, size = _fitted_text(xlabel, 13, x1 - x0)
        out.append(f'<text class="axis-title" x="{_num((x0 + x1) / 2)}" y="{self.height - 12}" text-anchor="middle" '
                   f'font-size="{size:g}" {_FONT}>{escape(text)}</text>')
        text, size = _fitted_text(ylabel, 13, y1 - y0)
        out.append(f'<text class="axis-title" x="16" y="{_num((y0 + y1) / 2)}" dy="0.35em" text-anchor="middle" '
                   f'font-size="{size:g}" {_FONT} transform="rotate(-90 16 {_num((y0 + y1) / 2)})">'
                   f"{escape(text)}</text>")
        text, size = _fitted_text(title, 15, self.width - 16, bold=True)
        out.append(f'<text class="title" x="{_num(self.width / 2)}" y="24" text-anchor="middle" font-size="{size:g}" '
                   f'font-weight="bold" {_FONT}>{escape(text)}<title>{escape(title)}</title></text>')
        if caption:
            text, size = _fitted_text(caption, 11, self.width - 16)
            out.append(f'<text class="caption" x="{_num(self.width / 2)}" y="{_TOP - 10}" text-anchor="middle" '
                       f'font-size="{size:g}" {_FONT}>{escape(text)}</text>')
        return out

    def legend(self, entries: Sequence[tuple[str, str, str]]) -> list[str]:
        """A legend of (kind, colour, text) entries, kind a marker shape, ``bar`` or ``line``, to the right
        of the box (where the constructor's ``legend`` kept room) or, without that room, in its top right corner."""
        if not entries:
            return []
        _, by0, bx1, _ = self.box
        wide = legend_width([text for _, _, text in entries])
        tall = len(entries) * 18 + 8
        x = bx1 + 8 if self.width - _RIGHT - bx1 >= wide else bx1 - wide - 6
        y = by0 if x > bx1 else by0 + 6
        out = [f'<rect class="legend" x="{_num(x)}" y="{_num(y)}" width="{_num(wide)}" height="{tall}" '
               'fill="#ffffff" stroke="#7f7f7f"/>']
        for i, (kind, colour, text) in enumerate(entries):
            cy = y + 13 + 18 * i
            if kind == "bar":
                out.append(f'<rect x="{_num(x + 8)}" y="{_num(cy - 6)}" width="14" height="12" fill="{colour}"/>')
            elif kind == "line":
                out.append(f'<line x1="{_num(x + 6)}" y1="{_num(cy)}" x2="{_num(x + 24)}" y2="{_num(cy)}" '
                           f'stroke="{colour}" stroke-width="2"/>')
            else:
                out.append(_marker(kind, x + 15, cy, 4.5, colour, "legend-mark"))
            out.append(f'<text class="legend-text" x="{_num(x + 30)}" y="{_num(cy)}" dy="0.35em" font-size="12" '
                       f"{_FONT}>{escape(text)}</text>")
        return out


def legend_width(texts: Sequence[str]) -> float:
    """The width of a legend box holding ``texts`` (12 px) beside their marks (0 for none).

    >>> legend_width(["class 10", "class 9"]) == text_width("class 10", 12) + 40
    True
    """
    texts = _texts(texts, "legend_width texts")
    return max(text_width(t, 12) for t in texts) + 40 if texts else 0.0


def _readable_ticks(lo: float, hi: float, pixels: float, axis: str, inside: bool) -> tuple[list[float], float]:
    """Round ticks over [lo, hi] whose labels do not touch: as many as fit in ``pixels``, at most about 6."""
    for target in (6, 5, 4, 3, 2, 1):
        values, step = ticks(lo, hi, target)
        if inside:
            values = [v for v in values if lo - 1e-9 * step <= v <= hi + 1e-9 * step]
        if len(values) < 2:
            continue
        gap = pixels * step / ((values[-1] - values[0]) if not inside else (hi - lo)) if values[-1] != values[0] else 0
        need = (max(text_width(_tick_text(v, step), 11) for v in values) + 8) if axis == "x" else 18
        if gap >= need:
            return values, step
    return values, step


def _pixels(frame: _Frame, pts: Sequence[Sequence[float]]) -> list[tuple[float, float]]:
    return [(frame.px(x), frame.py(y)) for x, y in pts]


def _padded(values: Sequence[float], pad: float) -> tuple[float, float]:
    lo, hi = min(values), max(values)
    extra = (hi - lo) * pad
    return lo - extra, hi + extra


def _document(width: int, height: int, title: str, body: list[str], fluid: bool = False) -> str:
    """An ``<svg>`` document; ``fluid`` ones scale to their container (width 100 %, the viewBox keeps the shape)."""
    size = 'width="100%" height="100%"' if fluid else f'width="{width}" height="{height}"'
    head = f'<svg xmlns="http://www.w3.org/2000/svg" {size} viewBox="0 0 {width} {height}">'
    return "\n".join([head, f"<title>{escape(title)}</title>"] + body + ["</svg>"]) + "\n"


def _marker(kind: str, x: float, y: float, r: float, colour: str, cls: str, extra: str = "",
            tip: Optional[str] = None) -> str:
    """One marker of the given shape centred at (x, y) pixels, of about the area of a circle of radius r."""
    common = f'class="{cls}" data-shape="{kind}" fill="{colour}" stroke="#1a1a1a" stroke-width="0.6"{extra}'
    inner = f"<title>{escape(tip)}</title>" if tip is not None else ""
    if kind == "circle":
        return f'<circle {common} cx="{_num(x)}" cy="{_num(y)}" r="{_num(r)}">{inner}</circle>'
    if kind == "square":
        h = r * 0.89
        d = f"M{_num(x - h)},{_num(y - h)}h{_num(2 * h)}v{_num(2 * h)}h{_num(-2 * h)}z"
    elif kind == "diamond":
        h = r * 1.25
        d = f"M{_num(x)},{_num(y - h)}L{_num(x + h)},{_num(y)}L{_num(x)},{_num(y + h)}L{_num(x - h)},{_num(y)}z"
    else:  # apex and base equally far from the centre, so that the bounding box is centred on it
        h = r * 1.15
        s = -1.0 if kind == "triangle" else 1.0
        d = (f"M{_num(x)},{_num(y + s * h)}L{_num(x + h * 1.1)},{_num(y - s * h)}"
             f"L{_num(x - h * 1.1)},{_num(y - s * h)}z")
    return f'<path {common} d="{d}">{inner}</path>'


def group_styles(groups: Sequence[str]) -> dict[str, tuple[str, str]]:
    """Each group's (colour, marker), the groups sorted: no two groups share a pair (up to 40).

    The groups are sorted as numbers when every one that is not blank reads
    as a number (``"2.0"`` before ``"10.0"``), else as text; blank ones come
    last.  The legend lists them in this order.

    >>> styles = group_styles([str(d) for d in range(10)])
    >>> styles["0"], styles["8"], len(set(styles.values()))
    (('#0072B2', 'circle'), ('#0072B2', 'diamond'), 10)
    >>> list(group_styles(["3.0", "0.0", "", "10.0", "1.0"]))
    ['0.0', '1.0', '3.0', '10.0', '']
    """
    groups = _texts(groups, "group_styles groups")
    distinct = list(dict.fromkeys(groups))
    named = [g for g in distinct if g.strip()]
    numbers = {}
    for g in named:
        try:
            numbers[g] = float(g)
        except ValueError:
            break
    if len(numbers) == len(named) and not any(math.isnan(v) for v in numbers.values()):
        named.sort(key=lambda g: (numbers[g], g))
    else:
        named.sort()
    ordered = named + [g for g in distinct if not g.strip()]
    return {g: (PALETTE[i % len(PALETTE)], MARKERS[i % len(MARKERS)]) for i, g in enumerate(ordered)}


def _blank_name(groups: Sequence[str]) -> str:
    """The legend's name for a blank group: "(blank)", in more parentheses if a real group has that name.

    >>> _blank_name(["a", ""]), _blank_name(["(blank)", ""])
    ('(blank)', '((blank))')
    """
    name = "(blank)"
    while name in groups:
        name = f"({name})"
    return name


def _legend(groups: Optional[Sequence[Any]]
            ) -> tuple[Optional[list[str]], dict[str, tuple[str, str]], dict[str, str]]:
    """The groups as text (every blank one, empty or spaces, as ""), their styles, and their legend names."""
    if groups is None:
        return None, {}, {}
    texts = [str(g) if str(g).strip() else "" for g in groups]
    styles = group_styles(texts)
    blank = _blank_name(texts)
    return texts, styles, {g: g or blank for g in styles}


#: The halo of a text drawn over marks: a white outline painted under the letters (Chromium, Firefox and
#: librsvg honour ``paint-order``), so that names stay readable over thousands of points.
_HALO = 'stroke="#ffffff" stroke-width="3" stroke-linejoin="round" paint-order="stroke"'


def _place(placer: _Placer, x: float, y: float, dx: float, dy: float, text: str, size: float, colour: str,
           cls: str) -> Optional[str]:
    """A ``<text>`` near (x, y), pushed outwards along (dx, dy) (y up), or None where none fits."""
    w, h = text_width(text, size), size * 1.25
    base = math.atan2(dy, dx) if (dx or dy) else 0.0
    for reach in (5.0, 11.0, 19.0, 29.0, 41.0, 55.0):
        for turn in (0, 1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 6, -6, 7, -7, 8):
            angle = base + turn * math.pi / 8  # outwards first, then turning round the tip
            ux, uy = math.cos(angle), math.sin(angle)
            anchor = "start" if ux > 0.38 else "end" if ux < -0.38 else "middle"
            cx, cy = x + reach * ux, y - reach * uy
            left = cx if anchor == "start" else cx - w if anchor == "end" else cx - w / 2
            top = cy - h / 2 - (h / 2 if uy > 0.38 and anchor == "middle" else 0.0) \
                + (h / 2 if uy < -0.38 and anchor == "middle" else 0.0)
            box = (left, top, left + w, top + h)
            if not placer.free(box):
                continue
            placer.block(box)
            tx = left if anchor == "start" else left + w if anchor == "end" else left + w / 2
            return (f'<text class="{cls}" x="{_num(tx)}" y="{_num(top + h / 2)}" dy="0.35em" '
                    f'text-anchor="{anchor}" font-size="{size:g}" fill="{colour}" {_HALO} {_FONT}>'
                    f"{escape(text)}</text>")
    return None


def _points(frame: _Frame, pts: list[list[float]], groups: Optional[list[str]], default: str,
            names: Optional[list[str]]) -> tuple[list[str], list[tuple[str, str, str]]]:
    """The markers of the points, and the legend entries of the groups (sorted, a blank one named)."""
    groups, styles, shown = _legend(groups)
    out = []
    for i, (x, y) in enumerate(pts):
        colour, kind = styles[groups[i]] if groups is not None else (default, "circle")
        tip = names[i] if names is not None else f"row {i + 1}"
        out.append(_marker(kind, frame.px(x), frame.py(y), 3.5, colour, "point",
                           f' data-value="{x!r},{y!r}"', tip))
    return out, [(kind, colour, shown[group]) for group, (colour, kind) in styles.items()]


def _group_room(groups: Optional[Sequence[Any]]) -> float:
    """The pixels a legend of these groups needs to the right of the box (0 without groups)."""
    if groups is None:
        return 0.0
    return legend_width(list(_legend(groups)[2].values())) + 8


def scree_plot(explained_variance: Sequence[float], *, title: str = "Scree plot",
               names: Optional[Sequence[str]] = None, width: int = 640, height: int = 420,
               max_bars: Optional[int] = None) -> str:
    """Bars of the variance explained by each component and a line of the cumulative share, in percent.

    ``explained_variance`` are the components' variances (or eigenvalues);
    the shares are of their sum, so pass every component's variance for
    shares of the total.  At most ``max_bars`` bars are drawn (default: as
    many as are 10 pixels wide, at most 20); the rest are summed up in a
    caption.  Tick labels are thinned so that they never touch.

    >>> svg = scree_plot([2.48, 0.99, 0.36, 0.17])
    >>> svg.count('class="bar"'), svg.count('class="cumulative"')
    (4, 4)
    >>> svg = scree_plot([1.0 / (i + 1) for i in range(64)])
    >>> svg.count('class="bar"'), "PC21 to PC64 (44 components)" in svg
    (20, True)
    """
    title = _text(title, "scree_plot title")
    width, height = _side(width, "scree_plot width"), _side(height, "scree_plot height")
    if max_bars is not None:
        max_bars = as_int(max_bars, "scree_plot max_bars", low=1)
    if not _listlike(explained_variance):
        raise PurePCAError(f"scree_plot: explained_variance must be a list of numbers, got {explained_variance!r:.60}")
    values = [row[0] for row in _finite_pairs([[v] for v in explained_variance], "scree_plot", 1)]
    if any(v < 0 for v in values):
        raise PurePCAError("scree_plot: a variance is negative")
    total = math.fsum(values)
    if total <= 0:
        raise PurePCAError("scree_plot: the variances sum to zero; there is nothing to show")
    labels = _labels(names, len(values), "scree_plot names") or [f"PC{i + 1}" for i in range(len(values))]
    share = [100.0 * v / total for v in values]
    cumulative = [100.0 * math.fsum(values[: i + 1]) / total for i in range(len(values))]
    legend = legend_width(["per component", "cumulative"]) + 8
    room = width - 80 - _RIGHT - legend
    k = min(len(values), max_bars if max_bars is not None else max(2, min(20, int(room // 10))))
    caption = ""
    if k < len(values):
        rest = math.fsum(values[k:]) / total * 100
        caption = f"{labels[k]} to {labels[-1]} ({len(values) - k} components): {rest:.1f} % together, not drawn"
    frame = _Frame([0.5, k + 0.5], [0.0, 100.0], width, height, x_range=(0.5, k + 0.5), y_range=(0.0, 100.0),
                   legend=legend)
    frame.xticks, frame.xstep = [], 1.0
    body = frame.axes(title, "component", "variance explained (%)", caption=caption)
    x0, _, x1, y1 = frame.box
    slot = (x1 - x0) / k
    every = next((m for m in (1, 2, 5, 10, 20, 50, 100, 1000)
                  if m * slot >= max(text_width(label, 11) for label in labels[:k]) + 6), k)
    for i, (label, s) in enumerate(zip(labels[:k], share)):
        centre = frame.px(i + 1.0)
        top = frame.py(s)
        body.append(f'<rect class="bar" x="{_num(centre - slot * 0.35)}" y="{_num(top)}" width="{_num(slot * 0.7)}" '
                    f'height="{_num(y1 - top)}" fill="{PALETTE[5]}"><title>{escape(label)}: {s:.2f} %</title></rect>')
        if i % every == 0:
            body.append(f'<text class="xtick" x="{_num(centre)}" y="{y1 + 18}" text-anchor="middle" font-size="11" '
                        f"{_FONT}>{escape(label)}</text>")
    line = " ".join(f"{_num(frame.px(i + 1.0))},{_num(frame.py(c))}" for i, c in enumerate(cumulative[:k]))
    body.append(f'<polyline points="{line}" fill="none" stroke="{PALETTE[1]}" stroke-width="2"/>')
    for i, c in enumerate(cumulative[:k]):
        body.append(f'<circle class="cumulative" cx="{_num(frame.px(i + 1.0))}" cy="{_num(frame.py(c))}" r="3.5" '
                    f'fill="{PALETTE[1]}"><title>{escape(labels[i])}: {c:.2f} % cumulative</title></circle>')
    body += frame.legend([("bar", PALETTE[5], "per component"), ("line", PALETTE[1], "cumulative")])
    return _document(width, height, title, body)


def scores_plot(scores: Sequence[Sequence[float]], *, groups: Optional[Sequence[Any]] = None,
                names: Optional[Sequence[str]] = None, axis_labels: tuple[str, str] = ("PC1", "PC2"),
                title: str = "Scores", width: int = 640, height: int = 480, point_labels: bool = False) -> str:
    """The rows as points in the plane of two components (the first two columns of ``scores``).

    One unit is as long on both axes, so distances on the map are distances
    between the scores.  ``groups`` (one label per row) gives each group its
    own colour and marker, with a legend beside the plot; ``names`` become
    each point's tooltip, and with ``point_labels`` its label too: 6 pixels
    beside its point where no other point is as near, else further out with
    a grey leader line to its point, never over a marker or another text.
    Labels with no room at all are left out, and the caption says how many.

    >>> svg = scores_plot([[1.0, 2.0], [-1.0, 0.5], [0.0, -2.0]], names=["a", "b", "c"], point_labels=True)
    >>> svg.count('class="point"'), svg.count('class="point-label"')
    (3, 3)
    """
    title, axis_labels = _text(title, "scores_plot title"), _axis_labels(axis_labels, "scores_plot axis_labels")
    width, height = _side(width, "scores_plot width"), _side(height, "scores_plot height")
    pts = _finite_pairs(scores, "scores_plot")
    grp = _labels(groups, len(pts), "scores_plot groups")
    frame = _Frame([p[0] for p in pts], [p[1] for p in pts], width, height, equal=True, legend=_group_room(grp))
    ids = _labels(names, len(pts), "scores_plot names")
    marks, legend = _points(frame, pts, grp, PALETTE[0], ids)
    leaders: list[str] = []
    texts: list[str] = []
    dropped = 0
    if point_labels and ids is not None:
        x0, y0, x1, y1 = frame.box
        leaders, texts, dropped = _point_labels(frame, pts, ids, _Placer((x0 + 2, y0 + 2, x1 - 2, y1 - 2)))
    body = frame.axes(title, axis_labels[0], axis_labels[1], zero_lines=True, caption=_left_out(dropped))
    return _document(width, height, title, body + marks + leaders + texts + frame.legend(legend))


def _point_labels(frame: _Frame, pts: list[list[float]], ids: list[str],
                  placer: _Placer) -> tuple[list[str], list[str], int]:
    """Each point's label, and a leader line where it had to move away: (leaders, labels, count left out).

    Where they go is :func:`purepca.point_labels.place_point_labels`'s
    choice (beside the point where no other point is as near, else further
    out with a thin grey leader line, else left out: the point keeps its
    tooltip, and the caption counts it); this draws them."""
    x0, y0, x1, y1 = frame.box
    pixels = _pixels(frame, pts)
    size = 10.0
    sizes = [(text_width(name, size), size * 1.25) for name in ids]
    found, dropped = place_point_labels(pixels, sizes, ((x0 + x1) / 2, (y0 + y1) / 2), placer)
    leaders: list[str] = []
    labels: list[str] = []
    for i in sorted(found):
        box, seg = found[i]
        px, py = pixels[i]
        row = f'data-row="{i}"'
        if seg is not None:
            leaders.append(f'<line class="point-leader" {row} x1="{_num(seg[0])}" y1="{_num(seg[1])}" '
                           f'x2="{_num(seg[2])}" y2="{_num(seg[3])}" stroke="#7f7f7f" stroke-width="0.8"/>')
        anchor = "start" if box[0] >= px else "end" if box[2] <= px else "middle"
        tx = box[0] if anchor == "start" else box[2] if anchor == "end" else (box[0] + box[2]) / 2
        labels.append(f'<text class="point-label" {row} x="{_num(tx)}" y="{_num((box[1] + box[3]) / 2)}" '
                      f'dy="0.35em" text-anchor="{anchor}" font-size="{size:g}" fill="#333333" {_HALO} {_FONT}>'
                      f"{escape(ids[i])}</text>")
    return leaders, labels, dropped



def _left_out(dropped: int) -> str:
    """The caption's word on labels left out ("" for none)."""
    if not dropped:
        return ""
    return f"{dropped} label{'s' if dropped != 1 else ''} left out (no room; see the tooltips)"


def _chosen(lengths: list[float], top: Optional[int], d: int) -> list[int]:
    """The variables drawn: all up to 15 (or ``top`` = 0), else the ``top`` (default 15) largest."""
    keep = d if top == 0 or (top is None and d <= 15) else min(d, top if top is not None else 15)
    return sorted(sorted(range(d), key=lambda j: -lengths[j])[:keep])


def _arrows_with_labels(frame: _Frame, tips: list[list[float]], labels: list[str], colour: str,
                        placer: _Placer) -> tuple[list[str], int]:
    """Arrows from the origin to ``tips`` and their names placed without overlap; the count of names left out."""
    ox, oy = frame.px(0.0), frame.py(0.0)
    arrows, texts, missed = [], [], 0
    for x, y in tips:
        placer.block_line(ox, oy, frame.px(x), frame.py(y))
    for (x, y), label in sorted(zip(tips, labels), key=lambda t: -math.hypot(*t[0])):
        arrows += _arrow(ox, oy, frame.px(x), frame.py(y), colour, "loading", label)
        for text in _shortened(label):  # the whole name where it fits, else shorter ones (the tooltip has it all)
            placed = _place(placer, frame.px(x), frame.py(y), x, y, text, 12, colour, "variable")
            if placed is not None:
                texts.append(placed)
                texts += _leader(frame.px(x), frame.py(y), placer.taken[-1])
                break
        else:
            missed += 1
    return arrows + texts, missed


def _leader(x: float, y: float, box: tuple[float, float, float, float]) -> list[str]:
    """A thin grey line from an arrow's tip to its name, when the name had to go further than 12 pixels."""
    nx, ny = min(max(x, box[0]), box[2]), min(max(y, box[1]), box[3])
    if math.hypot(nx - x, ny - y) <= 12:
        return []
    return [f'<line class="leader" x1="{_num(x)}" y1="{_num(y)}" x2="{_num(nx)}" y2="{_num(ny)}" stroke="#9a9a9a" '
            'stroke-width="0.8"/>']


def _shortened(name: str) -> list[str]:
    """``name``, then shorter forms ending in an ellipsis, down to 6 characters.

    >>> _shortened("od280/od315_of_diluted_wines")
    ['od280/od315_of_diluted_wines', 'od280/od315_of_d…', 'od280/od3…', 'od280…']
    """
    out = [name]
    for keep in (16, 9, 5):
        if len(name) > keep + 2 and len(out[-1]) > keep + 1:
            out.append(name[:keep].rstrip(" _") + "…")
    return out


def biplot(scores: Sequence[Sequence[float]], loadings: Sequence[Sequence[float]], feature_names: Sequence[str], *,
           groups: Optional[Sequence[Any]] = None, names: Optional[Sequence[str]] = None,
           axis_labels: tuple[str, str] = ("PC1", "PC2"), title: str = "Biplot", width: int = 640,
           height: int = 480, top: Optional[int] = None, importance: Optional[Sequence[float]] = None,
           point_labels: bool = False) -> str:
    """The scores as points and the loadings (one row per feature) as black arrows from the origin.

    The arrows are the loadings times one factor, chosen so that the longest
    reaches 80 % of the farthest point (as ``factoextra``'s biplot does); the
    factor is printed under the title, so the arrows' lengths can be read.
    With more than 15 features only the ``top`` (default 15; 0 for all) most
    important are drawn: by ``importance`` (one number per feature, such as
    the contribution to the plane) or by the arrows' lengths.  Names are
    placed where they overlap no other text; those that do not fit are left
    to the arrow's tooltip, and the caption says how many.  Names have a
    white halo, so they stay readable over thousands of points.  With
    ``point_labels`` the ``names`` are written beside the points as
    :func:`scores_plot` writes them (leader lines where a label had to move).

    >>> svg = biplot([[1.0, 0.0], [-1.0, 0.2]], [[0.8, 0.6], [-0.6, 0.8]], ["x", "y"])
    >>> svg.count('class="loading"'), "loadings x 0.816" in svg
    (2, True)
    """
    title, axis_labels = _text(title, "biplot title"), _axis_labels(axis_labels, "biplot axis_labels")
    width, height = _side(width, "biplot width"), _side(height, "biplot height")
    top = _top(top, "biplot top")
    pts = _finite_pairs(scores, "biplot scores")
    arrows = _finite_pairs(loadings, "biplot loadings")
    labels = _labels(feature_names, len(arrows), "biplot feature_names")
    if labels is None:
        raise PurePCAError("biplot feature_names must be a list with one name per row of loadings, got None")
    grp = _labels(groups, len(pts), "biplot groups")
    if importance is not None:
        from .linalg.matrix import as_vector

        weight = as_vector(importance, name="biplot importance")
    else:
        weight = [x * x + y * y for x, y in arrows]
    if len(weight) != len(arrows):
        raise PurePCAError(f"biplot importance: {len(weight)} values for {len(arrows)} features")
    keep = _chosen(weight, top, len(arrows))
    arrows, labels = [arrows[j] for j in keep], [labels[j] for j in keep]
    reach = max(math.hypot(x, y) for x, y in pts)
    longest = max(math.hypot(x, y) for x, y in arrows)
    factor = 0.8 * reach / longest if longest > 0 and reach > 0 else 1.0
    tips = [[x * factor, y * factor] for x, y in arrows]
    frame = _Frame([p[0] for p in pts + tips] + [0.0], [p[1] for p in pts + tips] + [0.0], width, height, pad=0.12,
                   equal=True, legend=_group_room(grp))
    x0, y0, x1, y1 = frame.box
    placer = _Placer((x0 + 2, y0 + 2, x1 - 2, y1 - 2))
    ids = _labels(names, len(pts), "biplot names")
    marks, legend = _points(frame, pts, grp, PALETTE[0], ids)
    drawn, missed = _arrows_with_labels(frame, tips, labels, "#000000", placer)
    leaders: list[str] = []
    texts: list[str] = []
    dropped = 0
    if point_labels and ids is not None:  # after the names of the variables, which come first
        leaders, texts, dropped = _point_labels(frame, pts, ids, placer)
    caption = f"loadings x {factor:.3g}"
    if len(keep) < len(feature_names):
        caption += f"; the {len(keep)} of {len(feature_names)} variables that contribute most"
    if missed:
        caption += f"; {missed} name{'s' if missed != 1 else ''} in tooltips only"
    if dropped:
        caption += "; " + _left_out(dropped)
    body = frame.axes(title, axis_labels[0], axis_labels[1], zero_lines=True, caption=caption)
    return _document(width, height, title, body + marks + leaders + texts + drawn + frame.legend(legend))


def _arrow(x0: float, y0: float, x1: float, y1: float, colour: str, cls: str, tip: str = "") -> list[str]:
    """A line from (x0, y0) to (x1, y1) in pixels with a filled head (a polygon: prints everywhere)."""
    inner = f"<title>{escape(tip)}</title>" if tip else ""
    out = [f'<line class="{cls}" x1="{_num(x0)}" y1="{_num(y0)}" x2="{_num(x1)}" y2="{_num(y1)}" '
           f'stroke="{colour}" stroke-width="1.6">{inner}</line>']
    length = math.hypot(x1 - x0, y1 - y0)
    if length > 1e-9:
        ux, uy = (x1 - x0) / length, (y1 - y0) / length
        size = min(9.0, length / 2)
        bx, by = x1 - ux * size, y1 - uy * size
        wing = size * 0.45
        points = [(x1, y1), (bx - uy * wing, by + ux * wing), (bx + uy * wing, by - ux * wing)]
        out.append(f'<polygon points="{" ".join(f"{_num(a)},{_num(b)}" for a, b in points)}" fill="{colour}"/>')
    return out


def correlation_circle(correlations: Sequence[Sequence[float]], feature_names: Sequence[str], *,
                       axis_labels: tuple[str, str] = ("PC1", "PC2"), title: str = "Correlation circle",
                       width: int = 520, height: int = 520, top: Optional[int] = None) -> str:
    """Each feature as an arrow to its correlations with two components, inside the unit circle.

    A feature well represented by the plane reaches the circle (its two
    squared correlations, the cos², sum to nearly 1).  With more than 15
    features only the ``top`` (default 15; 0 for all) best represented are
    drawn (FactoMineR's ``select = "cos2 15"``); names that would overlap
    are left to the arrow's tooltip.

    >>> svg = correlation_circle([[0.9, 0.3], [-0.2, 0.95]], ["a", "b"])
    >>> svg.count('class="loading"'), svg.count('class="unit-circle"')
    (2, 1)
    """
    title = _text(title, "correlation_circle title")
    axis_labels = _axis_labels(axis_labels, "correlation_circle axis_labels")
    width, height = _side(width, "correlation_circle width"), _side(height, "correlation_circle height")
    top = _top(top, "correlation_circle top")
    arrows = _finite_pairs(correlations, "correlation_circle")
    for i, (x, y) in enumerate(arrows):
        if math.hypot(x, y) > 1 + 1e-9:
            raise PurePCAError(f"correlation_circle: row {i} ({x}, {y}) lies outside the unit circle; "
                               "correlations are at most 1 in length")
    labels = _labels(feature_names, len(arrows), "correlation_circle feature_names")
    if labels is None:
        raise PurePCAError("correlation_circle feature_names must be a list with one name per row, got None")
    keep = _chosen([x * x + y * y for x, y in arrows], top, len(arrows))
    frame = _Frame([-1.6, 1.6], [-1.2, 1.2], width, height, equal=True, pad=0.0)  # room for the names
    x0, y0, x1, y1 = frame.box
    placer = _Placer((x0 + 2, y0 + 2, x1 - 2, y1 - 2))
    drawn, missed = _arrows_with_labels(frame, [arrows[j] for j in keep], [labels[j] for j in keep], PALETTE[0],
                                        placer)
    caption = ""
    if len(keep) < len(arrows):
        caption = f"the {len(keep)} of {len(arrows)} variables best represented (cos²)"
    if missed:
        caption += ("; " if caption else "") + f"{missed} name{'s' if missed != 1 else ''} in tooltips only"
    body = frame.axes(title, axis_labels[0], axis_labels[1], grid=False, zero_lines=True, caption=caption)
    ox, oy = frame.px(0.0), frame.py(0.0)
    radius = frame.px(1.0) - ox
    body.append(f'<circle class="unit-circle" cx="{_num(ox)}" cy="{_num(oy)}" r="{_num(radius)}" fill="none" '
                'stroke="#000000" stroke-width="1"/>')
    return _document(width, height, title, body + drawn)


def column_correlations(X: Sequence[Sequence[float]], scores: Sequence[Sequence[float]]) -> list[list[float]]:
    """Pearson correlation of each column of ``X`` with each column of ``scores`` (d x k).

    The covariances are the library's (:func:`purepca.covariance.covariance_matrix` of the two tables
    side by side), so it holds for any convention and scaling.  A constant column correlates 0 with
    everything.

    >>> [[round(v, 12) for v in row] for row in column_correlations([[1, 2], [2, 1], [3, 0]], [[-1.0], [0.0], [1.0]])]
    [[1.0], [-1.0]]
    """
    from .linalg.matrix import as_matrix

    X = as_matrix(X, name="column_correlations X")
    scores = as_matrix(scores, name="column_correlations scores")
    if len(X) != len(scores):
        raise PurePCAError(f"column_correlations: X has {len(X)} rows, scores has {len(scores)}")
    d, k = len(X[0]), len(scores[0])
    try:
        C = covariance_matrix([[float(v) for v in x] + [float(v) for v in z] for x, z in zip(X, scores)], ddof=0)
    except PurePCAError as err:
        raise PurePCAError(f"column_correlations: {err}") from None
    sd = [math.sqrt(float(C[j][j])) for j in range(d + k)]
    out = [[0.0 if sd[j] == 0 or sd[d + c] == 0 else max(-1.0, min(1.0, float(C[j][d + c]) / (sd[j] * sd[d + c])))
            for c in range(k)] for j in range(d)]
    if any(v != v for row in out for v in row):
        raise PurePCAError("column_correlations: a correlation is NaN (numbers near the float range); rescale the data")
    return out


def _check_kinds(kinds: Sequence[str], known: Sequence[str]) -> None:
    """pca_report's ``kinds``: at least one, each among ``known``."""
    for kind in kinds:
        if kind not in known:
            raise PurePCAError(f"pca_report: unknown kind {kind!r} (known: {', '.join(known)})")
    if not kinds:
        raise PurePCAError("pca_report: no kind of plot asked for")


def pca_report(pca: "PCA", X: Sequence[Sequence[float]], *, feature_names: Optional[Sequence[str]] = None,
               groups: Optional[Sequence[Any]] = None, names: Optional[Sequence[str]] = None,
               title: str = "PCA", kinds: Sequence[str] = ("scree", "scores", "biplot", "circle"),
               pcs: tuple[int, int] = (1, 2), top: Optional[int] = None, point_labels: bool = False,
               scale: float = 1.0) -> str:
    """The plots of a fitted PCA of ``X`` (its training rows) in one picture, two per row.

    ``kinds`` picks among ``"scree"``, ``"scores"``, ``"biplot"`` and
    ``"circle"``; one kind gives that plot alone.  The scores are
    ``pca.transform(X)``; the biplot's arrows are the rotation (the unit
    loadings); the circle shows each column's correlation with the scores.
    The model needs two components for all but the scree plot; ``pcs`` picks
    the two (numbered from 1).  The biplot draws the ``top`` variables by
    their contribution to the plane (FactoMineR's ``ctr``, weighted by the
    eigenvalues); ``point_labels`` writes the ``names`` beside the points
    of the scores plot and the biplot (with leader lines where a label had
    to move).  ``scale`` multiplies every picture's size.  Several
    kinds together make one picture that scales to its container (width
    100 %, its viewBox keeps the proportions).

    >>> from purepca import PCA
    >>> from purepca.datasets import load
    >>> data = load("usarrests")
    >>> pca = PCA(convention="prcomp", scale=True).fit(data.rows)
    >>> svg = pca_report(pca, data.rows, feature_names=data.columns, names=data.labels)
    >>> svg.count("<svg"), svg.count('class="point"')
    (5, 100)
    """
    known = ("scree", "scores", "biplot", "circle")
    kinds = _texts(kinds, "pca_report kinds")
    title = _text(title, "pca_report title")
    top = _top(top, "pca_report top")
    # pictures of MIN_SIDE to MAX_SIDE pixels a side (the scree plot is 420 * scale high, the others 640 wide)
    scale = as_real(scale, "pca_report scale", low=round(MIN_SIDE / 420, 3), high=round(MAX_SIDE / 640, 3))
    _check_kinds(kinds, known)
    if not hasattr(pca, "components_"):
        raise PurePCAError("pca_report: the PCA is not fitted; call fit(X) first")
    d = pca.n_features_in_
    fnames = _labels(feature_names, d, "pca_report feature_names") or [f"x{j + 1}" for j in range(d)]
    if len(fnames) != d:
        raise PurePCAError(f"pca_report: {len(fnames)} feature names for {d} features")
    needs_two = [kind for kind in kinds if kind != "scree"]
    if needs_two and pca.n_components_ < 2:
        raise PurePCAError(f"pca_report: the {needs_two[0]} plot needs two components; the model has "
                           f"{pca.n_components_}")
    if not isinstance(pcs, (list, tuple)) or len(pcs) != 2:
        raise PurePCAError(f"pca_report pcs must be two component numbers, got {pcs!r:.60}")
    a, b = (as_int(c, "pca_report pcs", low=1) - 1 for c in pcs)
    if needs_two and (a == b or min(a, b) < 0 or max(a, b) >= pca.n_components_):
        raise PurePCAError(f"pca_report: pcs must be two different components from 1 to {pca.n_components_}, "
                           f"got {pcs}")
    ratio = pca.explained_variance_ratio_
    axes = (f"PC{a + 1} ({100 * ratio[a]:.1f} %)", f"PC{b + 1} ({100 * ratio[b]:.1f} %)") if needs_two else ("", "")
    pictures = []
    scores = [[r[a], r[b]] for r in pca.transform(X)] if needs_two else []
    w, h = round(640 * scale), round(480 * scale)
    for kind in kinds:
        if kind == "scree":
            pictures.append(scree_plot(pca.explained_variance_, title=f"{title}: variance explained",
                                       names=pca.component_names, width=w, height=round(420 * scale)))
        elif kind == "scores":
            pictures.append(scores_plot(scores, groups=groups, names=names, axis_labels=axes,
                                        title=f"{title}: scores", width=w, height=h, point_labels=point_labels))
        elif kind == "biplot":
            ev = pca.explained_variance_
            loadings = [[row[a], row[b]] for row in pca.rotation]
            contribution = [ev[a] * x * x + ev[b] * y * y for x, y in loadings]
            pictures.append(biplot(scores, loadings, fnames, groups=groups, names=names, axis_labels=axes,
                                   title=f"{title}: biplot", width=w, height=h, top=top, importance=contribution,
                                   point_labels=point_labels))
        else:
            corr = column_correlations(X, scores)
            side = round(520 * scale)
            pictures.append(correlation_circle(corr, fnames, axis_labels=axes, title=f"{title}: correlation circle",
                                               width=side, height=side, top=top))
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
    return _document(width, height, title, body, fluid=True)

