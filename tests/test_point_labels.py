"""Point labels that stay with their points (issue 36).

The scores plot and the biplot of the first 90 rows of scikit-learn's
diabetes data (``tests/data/diabetes_90.csv``: ``load_diabetes()`` as
scikit-learn scales it, with an id column P1 ... P90 added) are drawn with
their labels, and every label must be read as its own point's:

- it lies within 15 px of its point and no other point's marker is nearer
  to it than its own, or
- a leader line joins it to its point (one end at the point's marker, the
  other at the label).

No label covers a marker or another label, and a label left out is counted
in the picture's caption.  The checks run twice: on the coordinates the SVG
writes (fast, no browser: ``_geometry``), and on the boxes headless Chromium
lays out (the picture tests' method: one page, ``--dump-dom``, a script that
measures every box).
"""

from __future__ import annotations

import csv
import html
import json
import math
import os
import pathlib
import random
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from typing import Any, Callable

import pytest

sys.path.insert(0, os.path.dirname(__file__))
from png import browser_or_skip  # noqa: E402

from purepca import PCA  # noqa: E402
from purepca.svg import biplot, pca_report, scores_plot, text_width  # noqa: E402

NS = "{http://www.w3.org/2000/svg}"
DATA = pathlib.Path(__file__).resolve().parent / "data" / "diabetes_90.csv"
NEAR = 15.0  # a label further than this from its point needs a leader line

Box = tuple[float, float, float, float]


def diabetes_90() -> tuple[list[str], list[str], list[list[float]]]:
    """The ids, the column names and the 90 rows."""
    with open(DATA, newline="", encoding="utf-8") as f:
        head, *body = list(csv.reader(f))
    return [r[0] for r in body], head[1:], [[float(v) for v in r[1:]] for r in body]


def _box_distance(x: float, y: float, box: Box) -> float:
    """From a point to the nearest point of a box (0 inside it), in pixels."""
    return math.hypot(max(box[0] - x, 0.0, x - box[2]), max(box[1] - y, 0.0, y - box[3]))


def _segment_meets_box(x0: float, y0: float, x1: float, y1: float, box: Box) -> bool:
    steps = max(2, int(math.hypot(x1 - x0, y1 - y0) * 2))
    return any(box[0] < x0 + (x1 - x0) * t / steps < box[2] and box[1] < y0 + (y1 - y0) * t / steps < box[3]
               for t in range(steps + 1))


def label_problems(centres: list[tuple[float, float]], markers: list[Box], labels: dict[int, Box],
                   leaders: dict[int, tuple[float, float, float, float]], dropped: int, *,
                   slack: float = 0.0) -> list[str]:
    """Every way in which the labels of these points can be misread, as sentences (none: all is well).

    ``centres`` and ``markers`` are the points' centres and boxes, by row; ``labels`` and ``leaders`` the
    labels' boxes and the leader lines' ends (x1, y1 at the point, x2, y2 at the label), by row;
    ``dropped`` the count the caption gives.  ``slack`` forgives the browser's rounding."""
    problems = []
    if len(labels) + dropped != len(centres):
        problems.append(f"{len(labels)} labels and {dropped} said to be left out, for {len(centres)} points")
    for i, box in labels.items():
        x, y = centres[i]
        own = _box_distance(x, y, box)
        if i in leaders:
            x1, y1, x2, y2 = leaders[i]
            if math.hypot(x1 - x, y1 - y) > 7 + slack:
                problems.append(f"row {i}: its leader starts {math.hypot(x1 - x, y1 - y):.1f} px from the point")
            if _box_distance(x2, y2, box) > 1 + 2 * slack:
                problems.append(f"row {i}: its leader ends {_box_distance(x2, y2, box):.1f} px from the label")
            for j, other in enumerate(labels.values()):
                inner = (other[0] + 1, other[1] + 1, other[2] - 1, other[3] - 1)
                if other is not box and _segment_meets_box(x1, y1, x2, y2, inner):
                    problems.append(f"row {i}: its leader crosses another label")
        else:
            if own > NEAR + slack:
                problems.append(f"row {i}: its label is {own:.1f} px from its point, with no leader line")
            nearer = [j for j, (u, v) in enumerate(centres) if j != i and _box_distance(u, v, box) + slack < own]
            if nearer:
                j = nearer[0]
                problems.append(f"row {i}: its label is {own:.1f} px from its point and "
                                f"{_box_distance(*centres[j], box):.1f} px from row {j}'s, with no leader line")
        for j, mark in enumerate(markers):
            if (box[0] + 0.5 + slack < mark[2] and mark[0] + 0.5 + slack < box[2]
                    and box[1] + 0.5 + slack < mark[3] and mark[1] + 0.5 + slack < box[3]):
                problems.append(f"row {i}: its label covers row {j}'s marker")
    boxes = list(labels.items())
    for a, (i, p) in enumerate(boxes):
        for j, q in boxes[a + 1:]:
            if p[0] + 0.5 < q[2] and q[0] + 0.5 < p[2] and p[1] + 0.5 < q[3] and q[1] + 0.5 < p[3]:
                problems.append(f"rows {i} and {j}: their labels overlap")
    return problems


def _row(attribute: Any, text: str, tips: list[Any]) -> int:
    """The row a label belongs to: its ``data-row``, else (as 768b701 wrote them) the point whose tooltip it is."""
    return int(attribute) if attribute is not None else tips.index(text)


def _dropped(caption: str) -> int:
    found = re.search(r"(\d+) labels? left out", caption)
    return int(found.group(1)) if found else 0


def _geometry(svg: str) -> tuple[list[tuple[float, float]], list[Box], dict[int, Box],
                                 dict[int, tuple[float, float, float, float]], int]:
    """The points, labels and leaders as the SVG writes them, the labels' boxes estimated as svg.py does."""
    root = ET.fromstring(svg)
    centres, markers = [], []
    for e in root.iter():
        if e.get("class") != "point":
            continue
        if e.tag == NS + "circle":
            x, y, r = (float(e.get(k, "nan")) for k in ("cx", "cy", "r"))
            centres.append((x, y))
            markers.append((x - r, y - r, x + r, y + r))
        else:  # a path of M/L/h/v commands: its corners
            numbers = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", e.get("d", ""))]
            xs, ys, cmd = [numbers[0]], [numbers[1]], re.findall(r"[MLhvz]", e.get("d", ""))
            if "h" in cmd:
                h = numbers[2]
                xs.append(numbers[0] + h)
                ys.append(numbers[1] + h)
            else:
                xs += numbers[2::2]
                ys += numbers[3::2]
            markers.append((min(xs), min(ys), max(xs), max(ys)))
            centres.append(((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2))
    tips = [e.findtext(NS + "title") for e in root.iter() if e.get("class") == "point"]
    labels, leaders = {}, {}
    for e in root.iter(NS + "text"):
        if e.get("class") == "point-label":
            size, w = float(e.get("font-size", "nan")), text_width(e.text or "", float(e.get("font-size", "nan")))
            x, y, anchor = float(e.get("x", "nan")), float(e.get("y", "nan")), e.get("text-anchor")
            left = x if anchor == "start" else x - w if anchor == "end" else x - w / 2
            labels[_row(e.get("data-row"), e.text or "", tips)] = (left, y - size * 0.625, left + w, y + size * 0.625)
    for e in root.iter(NS + "line"):
        if e.get("class") == "point-leader":
            leaders[int(e.get("data-row", "-1"))] = tuple(float(e.get(k, "nan")) for k in ("x1", "y1", "x2", "y2"))
    caption = " ".join(e.text or "" for e in root.iter(NS + "text") if e.get("class") == "caption")
    return centres, markers, labels, leaders, _dropped(caption)  # type: ignore[return-value]


def _diabetes_pictures(scale: float = 1.0) -> dict[str, str]:
    ids, columns, rows = diabetes_90()
    pca = PCA(convention="prcomp", scale=True).fit(rows)
    return {kind: pca_report(pca, rows, feature_names=columns, names=ids, kinds=(kind,), point_labels=True,
                             scale=scale)
            for kind in ("scores", "biplot")}


# ------------------------------------------------------------ without a browser

@pytest.mark.slow
@pytest.mark.parametrize("scale", [0.75, 1.0, 1.25])
def test_point_labels_of_diabetes_stay_with_their_points(scale: float) -> None:
    """Issue 36: 20 of 90 labels sat more than 15 px from their point with no leader (P117's beside
    P321's marker), and the biplot had no point label at all."""
    for kind, svg in _diabetes_pictures(scale).items():
        centres, markers, labels, leaders, dropped = _geometry(svg)
        assert len(centres) == 90, kind
        problems = label_problems(centres, markers, labels, leaders, dropped)
        assert not problems, (kind, scale, problems[:10], len(problems))
        assert dropped <= ALLOWED[kind, scale], (kind, scale, dropped)


#: Labels that may be left out (and counted in the caption) of 90: none on the scores plot of the usual size
#: (640 x 480) and larger; the biplot's arrows take room; at 480 x 360 there is room for most, not all.
ALLOWED = {("scores", 0.75): 9, ("scores", 1.0): 0, ("scores", 1.25): 0,
           ("biplot", 0.75): 27, ("biplot", 1.0): 2, ("biplot", 1.25): 0}


@pytest.mark.slow
def test_point_labels_of_a_crowd_are_placed_or_counted() -> None:
    """400 points in a small cloud: labels that find no room are left out and the caption says how many."""
    r = random.Random(5)
    pts = [[r.gauss(0, 1), r.gauss(0, 1)] for _ in range(400)]
    names = [f"row {i + 1}" for i in range(400)]
    draws: list[Callable[[], str]] = [
        lambda: scores_plot(pts, names=names, point_labels=True),
        lambda: biplot(pts, [[1.0, 0.2], [-0.3, 0.9]], ["u", "v"], names=names, point_labels=True)]
    for draw in draws:
        svg = draw()
        centres, markers, labels, leaders, dropped = _geometry(svg)
        assert dropped > 0 and len(labels) > 40
        problems = label_problems(centres, markers, labels, leaders, dropped)
        assert not problems, (problems[:10], len(problems))


def test_point_labels_of_a_thousand_points_only_beside_them() -> None:
    """Above 400 points no leader is drawn (the search would take minutes): the labels that fit beside their
    points, and the count of the others in the caption."""
    r = random.Random(8)
    pts = [[r.gauss(0, 1), r.gauss(0, 1)] for _ in range(1000)]
    svg = scores_plot(pts, names=[f"r{i}" for i in range(1000)], point_labels=True)
    centres, markers, labels, leaders, dropped = _geometry(svg)
    assert not leaders and 10 < len(labels) < 1000 and dropped == 1000 - len(labels)
    assert not label_problems(centres, markers, labels, leaders, dropped)


def test_point_labels_are_deterministic_and_beside_isolated_points() -> None:
    pts = [[0.0, 0.0], [10.0, 0.0], [0.0, 10.0], [10.0, 10.0], [5.0, 5.0]]
    names = ["a", "b", "c", "d", "e"]
    svg = scores_plot(pts, names=names, point_labels=True)
    assert svg == scores_plot(pts, names=names, point_labels=True)
    centres, markers, labels, leaders, dropped = _geometry(svg)
    assert sorted(labels) == [0, 1, 2, 3, 4] and not leaders and dropped == 0
    assert all(_box_distance(*centres[i], box) <= 8 for i, box in labels.items())


def test_point_labels_of_two_near_points_are_not_swapped() -> None:
    """Two points 12 px apart: each label lies on its own point's side, nearer its own marker."""
    pts = [[0.0, 0.0], [0.3, 0.0], [-10.0, -8.0], [10.0, 8.0]]
    svg = scores_plot(pts, names=["left", "right", "c", "d"], point_labels=True)
    centres, markers, labels, leaders, dropped = _geometry(svg)
    assert abs(centres[1][0] - centres[0][0]) < 15
    assert not label_problems(centres, markers, labels, leaders, dropped)


def test_label_problems_finds_a_label_beside_another_point() -> None:
    """The check itself: a label 3 px from another marker and 10 px from its own is found."""
    centres = [(100.0, 100.0), (125.0, 100.0)]
    markers = [(x - 4, y - 4, x + 4, y + 4) for x, y in centres]
    label = (110.0, 94.0, 120.0, 106.0)  # 10 px right of row 0, 5 px left of row 1
    assert any("from row 1's" in p for p in label_problems(centres, markers, {0: label, 1: (131, 94, 150, 106)},
                                                           {}, 0))
    assert any("with no leader line" in p for p in label_problems(centres, markers, {0: (140, 120, 150, 130),
                                                                                     1: (131, 94, 150, 106)}, {}, 0))
    assert not label_problems(centres, markers, {0: (140, 120, 150, 130), 1: (131, 94, 150, 106)},
                              {0: (100, 104, 140, 120)}, 0)


# ------------------------------------------------------------ in a browser

_MEASURE = """
<script>
const out = {};
for (const holder of document.querySelectorAll("div.case")) {
  const panel = holder.querySelector("svg");
  const p = panel.getBoundingClientRect();
  const box = e => { const b = e.getBoundingClientRect();
                     return [b.left - p.left, b.top - p.top, b.right - p.left, b.bottom - p.top]; };
  const ends = e => { const m = e.getScreenCTM();
                      const a = new DOMPoint(e.x1.baseVal.value, e.y1.baseVal.value).matrixTransform(m);
                      const b = new DOMPoint(e.x2.baseVal.value, e.y2.baseVal.value).matrixTransform(m);
                      return [a.x - p.left, a.y - p.top, b.x - p.left, b.y - p.top]; };
  out[holder.id] = {
    points: [...panel.querySelectorAll(".point")].map(box),
    tips: [...panel.querySelectorAll(".point")].map(e => e.textContent),
    labels: [...panel.querySelectorAll(".point-label")].map(e => ({row: e.getAttribute("data-row"), box: box(e),
                                                                   text: e.textContent})),
    leaders: [...panel.querySelectorAll(".point-leader")].map(e => ({row: e.getAttribute("data-row"),
                                                                     ends: ends(e)})),
    caption: [...panel.querySelectorAll(".caption")].map(e => e.textContent).join(" "),
  };
}
const pre = document.createElement("pre");
pre.id = "measured";
pre.textContent = JSON.stringify(out);
document.body.appendChild(pre);
</script>
"""


def _measure(cases: dict[str, str], folder: pathlib.Path) -> dict[str, Any]:
    parts = ['<!DOCTYPE html><html><head><meta charset="utf-8"><style>body{margin:0} div.case{display:block}'
             "</style></head><body>"]
    for key, svg in cases.items():
        _, _, w, h = ET.fromstring(svg).get("viewBox", "").split()
        parts.append(f'<div class="case" id="{key}" style="width:{w}px;height:{h}px">{svg}</div>')
    parts.append(_MEASURE + "</body></html>")
    page = folder / "labels.html"
    page.write_text("\n".join(parts), encoding="utf-8")
    cmd = [browser_or_skip(), "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", page.as_uri()]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env={**os.environ, "HOME": str(folder)})
    found = re.search(r'<pre id="measured">(.*?)</pre>', done.stdout, re.S)
    assert found, done.stderr[-2000:]
    return json.loads(html.unescape(found.group(1)))  # type: ignore[no-any-return]


@pytest.mark.slow
def test_point_labels_stay_with_their_points_in_a_browser(tmp_path: pathlib.Path) -> None:
    """Acceptance 4 of issue 36, on the boxes Chromium draws: the scores plot and the biplot of 90 rows."""
    browser_or_skip()
    cases = {f"{kind}-{scale}": svg for scale in (0.75, 1.0, 1.25) for kind, svg in _diabetes_pictures(scale).items()}
    measured = _measure(cases, tmp_path)
    for key, got in measured.items():
        markers = [tuple(b) for b in got["points"]]
        centres = [((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for b in markers]
        labels = {_row(t["row"], t["text"], got["tips"]): tuple(t["box"]) for t in got["labels"]}
        leaders = {int(t["row"]): tuple(t["ends"]) for t in got["leaders"]}
        assert len(centres) == 90 and len(got["labels"]) == len(labels), key
        dropped = _dropped(got["caption"])
        problems = label_problems(centres, markers, labels, leaders, dropped, slack=0.5)
        assert not problems, (key, problems[:10], len(problems))
        kind, scale = key.split("-")
        assert dropped <= ALLOWED[kind, float(scale)], (key, dropped)
