"""Where the pictures' labels go: boxes that overlap nothing placed before, and each point's name.

=======================  ==================================================
``Placer``               labels' boxes and the segments (arrows, leaders)
                         no label may cross, inside the plot's bounds
``place_point_labels``   each point's label: beside its point, else further
                         out with a leader line, else left out and counted
``label_box``            a label's box at a reach and angle from a point
``Grid``                 boxes in 24-pixel buckets, for the searches
=======================  ==================================================

Pixels only, y down: no SVG text is written here (:mod:`purepca.svg` draws
what this module places), and no statistic is computed.  The module is the
face's own and exports nothing (``__all__`` is empty): its names may change.

>>> placer = Placer((0.0, 0.0, 100.0, 100.0))
>>> found, dropped = place_point_labels([(50.0, 50.0), (20.0, 20.0)], [(18.0, 12.5)] * 2, (50.0, 50.0), placer)
>>> sorted(found), dropped, all(seg is None for _, seg in found.values())
([0, 1], 0, True)
"""

from __future__ import annotations

import math
from typing import Any, Iterator, Optional, Sequence

__all__: list[str] = []

Box = tuple[float, float, float, float]

#: Where each placed label went: its box and, for one moved away from its point, its leader line.
Found = dict[int, tuple[Box, Optional[Box]]]


class Grid:
    """Things with boxes in 24-pixel buckets: a query looks only at the buckets its box meets."""

    def __init__(self, cell: float = 24.0) -> None:
        self.cell = cell
        self.cells: dict[tuple[int, int], list[int]] = {}
        self.items: list[tuple[Box, Any]] = []

    def _keys(self, box: Box) -> list[tuple[int, int]]:
        c = self.cell
        return [(i, j) for i in range(math.floor(box[0] / c), math.floor(box[2] / c) + 1)
                for j in range(math.floor(box[1] / c), math.floor(box[3] / c) + 1)]

    def add(self, box: Box, item: Any) -> None:
        k = len(self.items)
        self.items.append((box, item))
        for key in self._keys(box):
            self.cells.setdefault(key, []).append(k)

    def copy(self) -> "Grid":
        other = Grid(self.cell)
        other.cells = {key: list(ks) for key, ks in self.cells.items()}
        other.items = list(self.items)
        return other

    def near(self, box: Box) -> Iterator[tuple[Box, Any]]:
        """Every thing in a bucket ``box`` meets (one that spans several buckets may come more than once)."""
        c, cells, items = self.cell, self.cells, self.items
        for i in range(math.floor(box[0] / c), math.floor(box[2] / c) + 1):
            for j in range(math.floor(box[1] / c), math.floor(box[3] / c) + 1):
                for k in cells.get((i, j), ()):
                    yield items[k]


def overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def segment_meets_box(seg: Box, box: Box) -> bool:
    """Whether the segment ``seg`` (x0, y0, x1, y1) meets ``box`` (Liang and Barsky's clipping of the segment).

    >>> box = (4.0, 1.0, 6.0, 6.0)
    >>> segment_meets_box((0.0, 0.0, 10.0, 10.0), box), segment_meets_box((0.0, 0.0, 10.0, 0.0), box)
    (True, False)
    """
    x0, y0, x1, y1 = seg
    lo, hi = 0.0, 1.0
    for p, q in ((x0 - x1, x0 - box[0]), (x1 - x0, box[2] - x0), (y0 - y1, y0 - box[1]), (y1 - y0, box[3] - y0)):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            lo = max(lo, t)
        else:
            hi = min(hi, t)
    return lo <= hi


def segment_distance(x: float, y: float, seg: Box) -> float:
    """From (x, y) to the nearest point of the segment ``seg`` = (x0, y0, x1, y1).

    >>> segment_distance(0.0, 5.0, (-3.0, 1.0, 3.0, 1.0)), segment_distance(7.0, 4.0, (-3.0, 1.0, 3.0, 1.0))
    (4.0, 5.0)
    """
    x0, y0, x1, y1 = seg
    dx, dy = x1 - x0, y1 - y0
    t = max(0.0, min(1.0, ((x - x0) * dx + (y - y0) * dy) / (dx * dx + dy * dy or 1.0)))
    return math.hypot(x - x0 - t * dx, y - y0 - t * dy)


def box_distance(x: float, y: float, box: Box) -> float:
    """From (x, y) to the nearest point of ``box`` (0 inside it).

    >>> box_distance(0.0, 0.0, (3.0, 4.0, 9.0, 9.0)), box_distance(5.0, 5.0, (3.0, 4.0, 9.0, 9.0))
    (5.0, 0.0)
    """
    return math.hypot(max(box[0] - x, 0.0, x - box[2]), max(box[1] - y, 0.0, y - box[3]))


class Placer:
    """Labels put where they overlap nothing placed before and stay inside ``bounds`` (x0, y0, x1, y1)."""

    def __init__(self, bounds: Box) -> None:
        self.bounds = bounds
        self.taken: list[Box] = []
        self.lines: list[Box] = []
        self._boxes, self._segments = Grid(), Grid()

    def copy(self) -> "Placer":
        """A placer with what this one holds, to try a placement on without changing this one."""
        other = Placer(self.bounds)
        other.taken, other.lines = list(self.taken), list(self.lines)
        other._boxes, other._segments = self._boxes.copy(), self._segments.copy()
        return other

    def take(self, other: "Placer") -> None:
        """Hold what ``other`` (a copy of this one, with more placed) holds."""
        self.taken, self.lines, self._boxes, self._segments = other.taken, other.lines, other._boxes, other._segments

    def block(self, box: Box) -> None:
        self.taken.append(box)
        self._boxes.add(box, box)

    def block_line(self, x0: float, y0: float, x1: float, y1: float) -> None:
        """A segment no label may cross (an arrow, a leader line)."""
        self.lines.append((x0, y0, x1, y1))
        self._segments.add((min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)), (x0, y0, x1, y1))

    def _crosses(self, box: Box) -> bool:
        """Whether a blocked segment meets ``box``."""
        return any(segment_meets_box(seg, box) for _, seg in self._segments.near(box))

    def free(self, box: Box) -> bool:
        """Whether ``box`` lies inside the bounds, overlaps no box taken and keeps 2 pixels from every line."""
        bx0, by0, bx1, by1 = self.bounds
        if box[0] < bx0 or box[1] < by0 or box[2] > bx1 or box[3] > by1:
            return False
        if any(overlaps(box, t) for t, _ in self._boxes.near(box)):
            return False
        return not self._crosses((box[0] - 2, box[1] - 2, box[2] + 2, box[3] + 2))

    def line_is_clear(self, seg: Box) -> bool:
        """Whether the segment ``seg`` (x0, y0, x1, y1) passes through no box taken."""
        around = (min(seg[0], seg[2]), min(seg[1], seg[3]), max(seg[0], seg[2]), max(seg[1], seg[3]))
        return not any(segment_meets_box(seg, t) for t, _ in self._boxes.near(around))


#: Half the width of the widest marker (a diamond's, a triangle's), in pixels.
MARK = 4.5

#: How far out a label with a leader may go, and how far its leader keeps from other markers: first
#: where the leader passes no other marker (1 pixel to spare), then where it may pass over one.
LADDER = [(reach, gap) for gap in (MARK + 1, 0.0)
          for reach in (14.0, 20.0, 28.0, 38.0, 50.0, 64.0, 80.0, 100.0, 125.0, 150.0, 180.0, 210.0)]


def label_box(x: float, y: float, angle: float, reach: float, w: float, h: float) -> Box:
    """The box of a ``w`` x ``h`` label whose side or corner nearest (x, y) lies ``reach`` pixels from it in
    direction ``angle`` (in pixels, y down).

    >>> label_box(100.0, 50.0, 0.0, 6.0, 20.0, 12.0)   # to the right, centred on the point's height
    (106.0, 44.0, 126.0, 56.0)
    """
    ux, uy = math.cos(angle), math.sin(angle)
    cx, cy = x + reach * ux, y + reach * uy
    left = cx if ux > 0.38 else cx - w if ux < -0.38 else cx - w / 2
    top = cy if uy > 0.38 else cy - h if uy < -0.38 else cy - h / 2
    return (left, top, left + w, top + h)


class _Scene:
    """The points in pixels, their labels' sizes, the direction away from the plot's centre, and a grid of
    the points' centres (what every search below reads)."""

    def __init__(self, pixels: Sequence[tuple[float, float]], sizes: Sequence[tuple[float, float]],
                 centre: tuple[float, float]) -> None:
        self.pixels, self.sizes = list(pixels), list(sizes)
        self.centres = Grid()
        for i, (px, py) in enumerate(self.pixels):
            self.centres.add((px, py, px, py), i)
        self.cx, self.cy = centre
        self.outwards = [math.atan2(py - self.cy, px - self.cx) if (px, py) != (self.cx, self.cy) else 0.0
                         for px, py in self.pixels]


def _clear_of_markers(scene: _Scene, box: Box) -> bool:
    """Whether ``box`` covers no point's marker."""
    m = MARK
    return not any(overlaps(box, (u - m, v - m, u + m, v + m))
                   for (u, v, _, _), _ in scene.centres.near((box[0] - m, box[1] - m, box[2] + m, box[3] + m)))


def _unambiguous(scene: _Scene, i: int, box: Box) -> bool:
    """Whether no other point lies as near ``box`` as point ``i`` (3 pixels to spare)."""
    reach = box_distance(scene.pixels[i][0], scene.pixels[i][1], box) + 3  # to spare: the browser's box is smaller
    return all(j == i or box_distance(u, v, box) > reach
               for (u, v, _, _), j in scene.centres.near((box[0] - reach, box[1] - reach, box[2] + reach,
                                                          box[3] + reach)))


def _beside(scene: _Scene, space: Placer, i: int) -> Optional[Box]:
    """A free box 6 pixels from point ``i``, turning from the side away from the centre, or None."""
    (px, py), (w, h) = scene.pixels[i], scene.sizes[i]
    for turn in (0, 1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 6):
        box = label_box(px, py, scene.outwards[i] + turn * math.pi / 6, MARK + 1.5, w, h)
        if space.free(box) and _clear_of_markers(scene, box) and _unambiguous(scene, i, box):
            return box
    return None


def _leader_is_clear(scene: _Scene, space: Placer, i: int, seg: Box, gap: float) -> bool:
    """Whether the leader ``seg`` keeps ``gap`` pixels from every other point and passes through no label."""
    around = (min(seg[0], seg[2]) - gap, min(seg[1], seg[3]) - gap, max(seg[0], seg[2]) + gap,
              max(seg[1], seg[3]) + gap)
    if any(j != i and segment_distance(u, v, seg) < gap for (u, v, _, _), j in scene.centres.near(around)):
        return False
    return space.line_is_clear(seg)


def _further(scene: _Scene, space: Placer, i: int) -> Optional[tuple[Box, Box]]:
    """A free box 14 to 210 pixels out and its leader from point ``i``'s marker, or None."""
    (px, py), (w, h) = scene.pixels[i], scene.sizes[i]
    for reach, gap in LADDER:
        for turn in range(-11, 13):
            box = label_box(px, py, scene.outwards[i] + turn * math.pi / 12, reach, w, h)
            if not (space.free(box) and _clear_of_markers(scene, box)):
                continue
            nx, ny = min(max(px, box[0]), box[2]), min(max(py, box[1]), box[3])
            length = math.hypot(nx - px, ny - py)
            seg = (px + (nx - px) * MARK / length, py + (ny - py) * MARK / length, nx, ny)
            if _leader_is_clear(scene, space, i, seg, gap):
                return box, seg
    return None


def _attempt(scene: _Scene, placer: Placer, order: list[int], beside_first: bool) -> tuple[Placer, Found]:
    """One greedy placement in ``order`` on a copy of ``placer``: each label beside or further in turn, or
    (``beside_first``) every label that fits beside its point before any leader."""
    space = placer.copy()
    found: Found = {}
    for step in ("beside", "further") if beside_first else ("both",):
        for i in order:
            if i in found:
                continue
            box = _beside(scene, space, i) if step != "further" else None
            if box is not None:
                found[i] = (box, None)
                space.block(box)
            elif step != "beside" and len(scene.pixels) <= 400:
                far = _further(scene, space, i)
                if far is not None:
                    found[i] = far
                    space.block(far[0])
                    space.block_line(*far[1])
    return space, found


def _orders(scene: _Scene) -> list[tuple[list[int], bool]]:
    """The orders tried: the most crowded points first (up to 200 points), then the outlying points first."""
    pixels, cx, cy = scene.pixels, scene.cx, scene.cy
    outlying = sorted(range(len(pixels)), key=lambda i: -math.hypot(pixels[i][0] - cx, pixels[i][1] - cy))
    tries = [(outlying, True)]
    if len(pixels) <= 200:  # points are single buckets' things: counted once each
        crowd = [sum(1 for (u, v, _, _), _ in scene.centres.near((px - 30, py - 30, px + 30, py + 30))
                     if math.hypot(u - px, v - py) <= 30) for px, py in pixels]
        tries.insert(0, (sorted(outlying, key=lambda i: -crowd[i]), False))  # stable: outlying first among equals
    return tries


def place_point_labels(pixels: Sequence[tuple[float, float]], sizes: Sequence[tuple[float, float]],
                       centre: tuple[float, float], placer: Placer) -> tuple[Found, int]:
    """Each point's label box (and leader, where it had to move away), placed in ``placer``: (found, left out).

    ``pixels`` are the points' centres, ``sizes`` their labels' (width,
    height) and ``centre`` the plot's, all in pixels.  A label goes beside its point (6 pixels off,
    turning from the side away from the centre) where it covers no marker
    and no text, crosses no arrow or leader, and no other point lies as near
    to it as its own (3 pixels to spare), so that it cannot be read as a
    neighbour's.  Where no such place is free it goes further out, 14 to 210
    pixels, with a thin leader line from its point's marker to the label's
    nearest side; the leader passes through no text, and first no other
    marker (1 pixel to spare), then, where nothing else is free, over markers
    (as ggrepel's segments do).  A label with no place at all is left out and
    counted.

    The placement is greedy and deterministic.  Up to 200 points two orders
    are tried, the most crowded points first (each label beside its point or
    further out in turn) and the outlying points first (every label that fits
    beside its point before any leader), and the one that leaves out fewer
    labels, then draws fewer leaders, is kept.  Above 400 points only the
    labels that fit beside their points are placed, so that thousands of
    points take a second, not minutes.  ``placer`` then holds the labels
    and leaders placed.

    >>> placer = Placer((0.0, 0.0, 99.0, 99.0))
    >>> found, dropped = place_point_labels([(10.0, 10.0)], [(500.0, 12.5)], (50.0, 50.0), placer)
    >>> found, dropped   # a label wider than the plot has no place
    ({}, 1)
    """
    scene = _Scene(pixels, sizes, centre)
    best: Optional[tuple[tuple[int, int], Placer, Found]] = None
    for order, beside_first in _orders(scene):
        space, found = _attempt(scene, placer, order, beside_first)
        score = (len(scene.pixels) - len(found), sum(1 for _, seg in found.values() if seg is not None))
        if best is None or score < best[0]:
            best = (score, space, found)
        if score == (0, 0):
            break
    assert best is not None
    _, space, found = best
    placer.take(space)
    return found, len(scene.pixels) - len(found)
