"""The pictures on data shaped like real data sets, measured in a real browser (issue 22).

Every picture kind (scree, scores, biplot, correlation circle, the report of
the four) is drawn at two sizes for 4, 13, 30 and 64 variables (iris-, wine-,
breast_cancer- and digits-like names) and 3, 10 and 12 groups, and all of
them go into ONE html page that headless Chromium lays out once
(``--dump-dom``): a script measures the box of every text and every point
as the browser draws them.  The checks are then:

- no two texts overlap (labels, tick labels, titles, captions, legend);
- every text lies inside its picture (nothing clipped);
- every group has its own (colour, marker) pair, and every point wears its group's;
- every point lands where the tick labels say its data coordinates are.

A few screenshots then check pixels: the points' colours where the ticks put them.
Chromium runs under one interpreter only (CPython 3.11, in a git checkout, not the
unpacked sdist), as CI runs the suite five times.
"""

from __future__ import annotations

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
from typing import Any

import pytest

sys.path.insert(0, os.path.dirname(__file__))
from png import browser_or_skip, read_png  # noqa: E402

from purepca import PCA  # noqa: E402
from purepca.svg import pca_report  # noqa: E402

#: pictures rendered in a real Chromium: seconds a test
pytestmark = pytest.mark.slow

ROOT = pathlib.Path(__file__).resolve().parent.parent
NS = "{http://www.w3.org/2000/svg}"

WINE = ["alcohol", "malic_acid", "ash", "alcalinity_of_ash", "magnesium", "total_phenols", "flavanoids",
        "nonflavanoid_phenols", "proanthocyanins", "color_intensity", "hue", "od280/od315_of_diluted_wines", "proline"]
_CANCER = ["radius", "texture", "perimeter", "area", "smoothness", "compactness", "concavity", "concave points",
           "symmetry", "fractal dimension"]
CANCER = [f"{kind} {name}" for kind in ("mean", "error", "worst") for name in _CANCER]
DIGITS = [f"pixel_{i // 8}_{i % 8}" for i in range(64)]
IRIS = ["Sepal.Length", "Sepal.Width", "Petal.Length", "Petal.Width"]
NAMES = {4: IRIS, 13: WINE, 30: CANCER, 64: DIGITS}
KINDS = ("scree", "scores", "biplot", "circle", "report")
SCALES = (0.75, 1.25)


def synthetic(d: int, groups: int, n: int = 150, seed: int = 11) -> tuple[list[list[float]], list[str]]:
    """``n`` rows of ``d`` correlated columns in ``groups`` clusters (a few latent factors, as real data have)."""
    r = random.Random(seed * 1000 + d * 10 + groups)
    factors = 4
    mix = [[r.gauss(0, 1) for _ in range(factors)] for _ in range(d)]
    centres = [[r.gauss(0, 2.5) for _ in range(factors)] for _ in range(groups)]
    rows, labels = [], []
    for i in range(n):
        g = i % groups
        z = [c + r.gauss(0, 1) for c in centres[g]]
        rows.append([sum(m * v for m, v in zip(mix[j], z)) + r.gauss(0, 0.5) for j in range(d)])
        labels.append(f"class {g}")
    return rows, labels


def _cases() -> dict[str, tuple[str, float, int, int, str]]:
    """Every picture to measure, by id: (kind, scale, variables, groups, svg)."""
    out = {}
    for d in (4, 13, 30, 64):
        for g in (3, 10, 12):
            rows, labels = synthetic(d, g)
            pca = PCA(convention="prcomp", scale=True).fit(rows)
            for kind in KINDS:
                if kind in ("scree", "circle") and g != 3:
                    continue  # neither shows groups
                for scale in SCALES:
                    kinds = ("scree", "scores", "biplot", "circle") if kind == "report" else (kind,)
                    svg = pca_report(pca, rows, feature_names=NAMES[d], groups=labels, kinds=kinds, scale=scale,
                                     title=f"PCA of {d} variables")
                    out[f"{kind}-{d}-{g}-{scale}"] = (kind, scale, d, g, svg)
    return out


_MEASURE = """
<script>
const out = {};
for (const holder of document.querySelectorAll("div.case")) {
  const root = holder.querySelector("svg");
  const panels = root.querySelectorAll(":scope > svg").length ? [...root.querySelectorAll(":scope > svg")] : [root];
  out[holder.id] = panels.map(panel => {
    const p = panel.getBoundingClientRect();
    const box = e => { const b = e.getBoundingClientRect();
                       return [b.left - p.left, b.top - p.top, b.right - p.left, b.bottom - p.top]; };
    return {
      size: [p.width, p.height],
      texts: [...panel.querySelectorAll("text")].map(t => ({cls: t.getAttribute("class"), text: t.textContent,
                                                           box: box(t)})),
      points: [...panel.querySelectorAll(".point")].map(e => ({value: e.getAttribute("data-value"), box: box(e)})),
    };
  });
}
const pre = document.createElement("pre");
pre.id = "measured";
pre.textContent = JSON.stringify(out);
document.body.appendChild(pre);
</script>
"""


def _measure(cases: dict[str, tuple[str, float, int, int, str]], folder: pathlib.Path) -> dict[str, Any]:
    """One Chromium run lays out every case; the boxes of all texts and points, per case and panel."""
    parts = ['<!DOCTYPE html><html><head><meta charset="utf-8"><style>body{margin:0} div.case{display:block}'
             "</style></head><body>"]
    for key, (_, _, _, _, svg) in cases.items():
        _, _, w, h = ET.fromstring(svg).get("viewBox", "").split()
        parts.append(f'<div class="case" id="{key}" style="width:{w}px;height:{h}px">{svg}</div>')
    parts.append(_MEASURE + "</body></html>")
    page = folder / "all.html"
    page.write_text("\n".join(parts), encoding="utf-8")
    cmd = [browser_or_skip(), "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", page.as_uri()]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env={**os.environ, "HOME": str(folder)})
    found = re.search(r'<pre id="measured">(.*?)</pre>', done.stdout, re.S)
    assert found, done.stderr[-2000:]
    return json.loads(html.unescape(found.group(1)))  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def measured(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], dict[str, Any]]:
    browser_or_skip()
    cases = _cases()
    return cases, _measure(cases, tmp_path_factory.mktemp("pictures"))


def _overlap(a: list[float], b: list[float], slack: float = 0.5) -> bool:
    return a[0] + slack < b[2] and b[0] + slack < a[2] and a[1] + slack < b[3] and b[1] + slack < a[3]


@pytest.mark.slow
def test_no_two_texts_overlap_and_none_is_clipped(measured: tuple[dict[str, Any], dict[str, Any]]) -> None:
    cases, boxes = measured
    assert set(boxes) == set(cases) and len(cases) == 2 * 4 * (2 + 3 * 3)
    problems = []
    for key, panels in boxes.items():
        for number, panel in enumerate(panels):
            w, h = panel["size"]
            texts = [t for t in panel["texts"] if t["text"].strip()]
            for t in texts:
                x0, y0, x1, y1 = t["box"]
                if x0 < -0.5 or y0 < -0.5 or x1 > w + 0.5 or y1 > h + 0.5:
                    problems.append(f"{key} panel {number}: {t['text']!r} clipped, box {t['box']} in {w} x {h}")
            for i, a in enumerate(texts):
                for b in texts[i + 1:]:
                    if _overlap(a["box"], b["box"]):
                        problems.append(f"{key} panel {number}: {a['text']!r} overlaps {b['text']!r}")
    assert not problems, "\n".join(problems[:40]) + f"\n({len(problems)} in all)"


def test_variables_shown_and_thinned(measured: tuple[dict[str, Any], dict[str, Any]]) -> None:
    """Up to 15 variables every name is drawn (or said to be in a tooltip); beyond, the top 15 and a caption."""
    cases, boxes = measured
    for key, (kind, _, d, _, svg) in cases.items():
        if kind not in ("biplot", "circle"):
            continue
        root = ET.fromstring(svg)
        arrows = [e for e in root.iter(NS + "line") if e.get("class") == "loading"]
        names = [t for t in boxes[key][0]["texts"] if t["cls"] == "variable"]
        caption = next((t["text"] for t in boxes[key][0]["texts"] if t["cls"] == "caption"), "")
        assert len(arrows) == min(d, 15), key
        missed = int(re.search(r"(\d+) names? in tooltips", caption).group(1)) if "tooltips" in caption else 0
        assert len(names) + missed == len(arrows), (key, caption)
        assert missed <= len(arrows) // 5, (key, caption)  # nearly every name finds a place, if shortened
        if d > 15:
            assert f"the 15 of {d} variables" in caption, (key, caption)


@pytest.mark.slow
def test_every_group_has_its_own_colour_and_marker(measured: tuple[dict[str, Any], dict[str, Any]]) -> None:
    cases, _ = measured
    for key, (kind, _, _, groups, svg) in cases.items():
        if kind not in ("scores", "biplot"):
            continue
        root = ET.fromstring(svg)
        marks = [e for e in root.iter() if e.get("class") == "legend-mark"]
        texts = [e.text for e in root.iter(NS + "text") if e.get("class") == "legend-text"]
        pairs = [(e.get("fill"), e.get("data-shape")) for e in marks]
        assert len(pairs) == groups == len(set(pairs)), (key, pairs)
        style = dict(zip(texts, pairs))
        rows, labels = synthetic(cases[key][2], groups)
        points = [e for e in root.iter() if e.get("class") == "point"]
        assert [(e.get("fill"), e.get("data-shape")) for e in points] == [style[g] for g in labels], key


def _axis(texts: list[dict[str, Any]], cls: str) -> tuple[float, float]:
    """(a, b) with pixel = a + b * value, from the browser's boxes of the tick labels and their numbers."""
    marks = [((t["box"][0] + t["box"][2]) / 2 if cls == "xtick" else (t["box"][1] + t["box"][3]) / 2, float(t["text"]))
             for t in texts if t["cls"] == cls]
    (p0, v0), (p1, v1) = marks[0], marks[-1]
    b = (p1 - p0) / (v1 - v0)
    return p0 - b * v0, b


@pytest.mark.slow
def test_points_land_where_the_ticks_say(measured: tuple[dict[str, Any], dict[str, Any]]) -> None:
    cases, boxes = measured
    checked = 0
    for key, (kind, _, d, groups, _) in cases.items():
        for panel in boxes[key]:
            if not panel["points"]:
                continue
            ax, bx = _axis(panel["texts"], "xtick")
            ay, by = _axis(panel["texts"], "ytick")
            assert bx > 0 > by
            assert abs(bx + by) <= 0.02 * bx, key  # equal aspect: one unit as long on both axes
            rows, _ = synthetic(d, groups)
            scores = PCA(convention="prcomp", scale=True).fit(rows).transform(rows)
            for point, row in zip(panel["points"], scores):
                x, y = (float(v) for v in point["value"].split(","))
                assert (x, y) == (row[0], row[1]), key  # the data coordinates written are the scores
                cx, cy = (point["box"][0] + point["box"][2]) / 2, (point["box"][1] + point["box"][3]) / 2
                assert abs(cx - (ax + bx * x)) <= 1.5 and abs(cy - (ay + by * y)) <= 1.5, (key, x, y, cx, cy)
                checked += 1
    assert checked > 10_000


def _screenshot(svg: str, path: pathlib.Path) -> list[list[tuple[int, int, int]]]:
    _, _, w, h = (int(float(v)) for v in ET.fromstring(svg).get("viewBox", "").split())
    source = path.with_suffix(".svg")
    source.write_text(svg, encoding="utf-8")
    cmd = [browser_or_skip(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
           "--force-device-scale-factor=1", f"--window-size={w},{h}", f"--screenshot={path}", source.as_uri()]
    subprocess.run(cmd, capture_output=True, text=True, timeout=120, env={**os.environ, "HOME": str(path.parent)})
    return read_png(path.read_bytes())


@pytest.mark.slow
def test_report_scales_to_its_window_without_scrollbars(tmp_path: pathlib.Path) -> None:
    """The report is drawn whole in a 900 x 700 window (it was 1280 x 1000, cropped): its right and bottom
    edges' black frames are inside the screenshot."""
    rows, labels = synthetic(30, 10)
    pca = PCA(convention="prcomp", scale=True).fit(rows)
    svg = pca_report(pca, rows, feature_names=CANCER, groups=labels, title="breast_cancer-like")
    root = ET.fromstring(svg)
    assert root.get("width") == "100%" and root.get("viewBox") == "0 0 1280 1000"
    source = tmp_path / "r.svg"
    source.write_text(svg, encoding="utf-8")
    shot = tmp_path / "r.png"
    cmd = [browser_or_skip(), "--headless", "--no-sandbox", "--disable-gpu", "--force-device-scale-factor=1",
           "--window-size=900,700", f"--screenshot={shot}", source.as_uri()]
    subprocess.run(cmd, capture_output=True, text=True, timeout=120, env={**os.environ, "HOME": str(tmp_path)})
    image = read_png(shot.read_bytes())
    scale = min(900 / 1280, 700 / 1000)
    left = (900 - 1280 * scale) / 2
    # The circle panel's frame (bottom right) appears, shrunk, inside the window.
    panel = next(p for p in root.findall(NS + "svg") if "circle" in "".join(p.itertext()))
    frame = [e for e in panel.iter(NS + "rect") if e.get("fill") == "none"][0]
    x1 = float(panel.get("x", "0")) + float(frame.get("x", "0")) + float(frame.get("width", "0"))
    y1 = float(panel.get("y", "0")) + float(frame.get("y", "0")) + float(frame.get("height", "0"))
    px, py = round(left + x1 * scale), round(y1 * scale)
    assert px < 900 and py < 700
    near = [image[py + dy][px + dx] for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
    assert min(sum(p) for p in near) < 3 * 120


def _distance(px: float, py: float, x0: float, y0: float, x1: float, y1: float) -> float:
    """From a point to a segment, in pixels."""
    dx, dy = x1 - x0, y1 - y0
    t = max(0.0, min(1.0, ((px - x0) * dx + (py - y0) * dy) / (dx * dx + dy * dy or 1.0)))
    return math.hypot(px - x0 - t * dx, py - y0 - t * dy)


@pytest.mark.slow
def test_points_have_their_colour_where_the_ticks_put_them(tmp_path: pathlib.Path) -> None:
    """Pixels: the scores and biplot of digits-like data (64 variables, 10 groups), at both sizes."""
    rows, labels = synthetic(64, 10)
    pca = PCA(convention="prcomp", scale=True).fit(rows)
    scores = pca.transform(rows)
    for kind in ("scores", "biplot"):
        for scale in SCALES:
            svg = pca_report(pca, rows, feature_names=DIGITS, groups=labels, kinds=(kind,), scale=scale)
            image = _screenshot(svg, tmp_path / f"{kind}-{scale}.png")
            root = ET.fromstring(svg)

            def axis(cls: str) -> tuple[float, float]:
                attr = "x" if cls == "xtick" else "y"
                marks = [(float(e.get(attr, "nan")), float(e.text or "nan")) for e in root.iter(NS + "text")
                         if e.get("class") == cls]
                (p0, v0), (p1, v1) = marks[0], marks[-1]
                b = (p1 - p0) / (v1 - v0)
                return p0 - b * v0, b

            ax, bx = axis("xtick")
            ay, by = axis("ytick")
            points = [e for e in root.iter() if e.get("class") == "point"]
            pixels = [(ax + bx * s[0], ay + by * s[1]) for s in scores]
            covered = [(float(v) for v in e.get("points", "").replace(",", " ").split())
                       for e in root.iter(NS + "polygon")]
            heads = [list(c) for c in covered]
            shafts = [[float(e.get(k, "nan")) for k in ("x1", "y1", "x2", "y2")] for e in root.iter(NS + "line")
                      if e.get("class") == "loading"]
            words = [(float(e.get("x", "nan")), float(e.get("y", "nan")), len(e.text or "") * 8.0)
                     for e in root.iter(NS + "text") if e.get("class") == "variable"]
            checked = 0
            for i, (px, py) in enumerate(pixels):
                if any(math.hypot(px - qx, py - qy) < 9 for j, (qx, qy) in enumerate(pixels) if j > i):
                    continue  # a later point is drawn over it
                if any(min(h[0::2]) - 3 <= px <= max(h[0::2]) + 3 and min(h[1::2]) - 3 <= py <= max(h[1::2]) + 3
                       for h in heads):
                    continue  # under an arrow head
                if any(_distance(px, py, *shaft) < 4 for shaft in shafts):
                    continue  # under an arrow
                if any(abs(py - wy) < 12 and abs(px - wx) < ww + 4 for wx, wy, ww in words):
                    continue  # under a name
                colour = points[i].get("fill", "")
                want = tuple(int(colour[k:k + 2], 16) for k in (1, 3, 5))
                got = image[round(py)][round(px)]
                assert all(abs(a - b) <= 40 for a, b in zip(got, want)), (kind, scale, i, got, want)
                checked += 1
            assert checked >= 20, (kind, scale, checked)
