"""The SVG plots: well-formed XML, and, rendered by headless Chromium, points and bars where the axes say.

The browser tests read the axes as a reader would: the tick labels (their
text, a number, and their position) give the map from data to pixels; the
data are then mapped through it and the rendered PNG must show the mark's
colour there.  They need Debian's ``chromium`` (``.ci/test`` installs it)
and are skipped, saying why, where no browser can be found.
"""

from __future__ import annotations

import math
import os
import pathlib
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

sys.path.insert(0, os.path.dirname(__file__))
from png import browser_or_skip, read_png  # noqa: E402

from purepca import PCA, PurePCAError  # noqa: E402
from purepca.datasets import load  # noqa: E402
from purepca.svg import (  # noqa: E402
    PALETTE,
    biplot,
    column_correlations,
    correlation_circle,
    pca_report,
    scores_plot,
    scree_plot,
    ticks,
)

NS = "{http://www.w3.org/2000/svg}"
ROOT = pathlib.Path(__file__).resolve().parent.parent


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def _close(a: tuple[int, int, int], b: tuple[int, int, int], tol: int = 12) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b))


# ------------------------------------------------------------ without a browser

def test_every_plot_is_well_formed_xml_with_title_axes_and_points() -> None:
    data = load("iris")
    pca = PCA(convention="prcomp", scale=True).fit(data.rows)
    scores = pca.transform(data.rows)
    texts = {
        "scree": scree_plot(pca.explained_variance_),
        "scores": scores_plot([r[:2] for r in scores], groups=data.labels),
        "biplot": biplot([r[:2] for r in scores], [r[:2] for r in pca.rotation], list(data.columns)),
        "circle": correlation_circle(column_correlations(data.rows, [r[:2] for r in scores]), list(data.columns)),
        "report": pca_report(pca, data.rows, feature_names=data.columns, groups=data.labels),
    }
    for kind, text in texts.items():
        root = ET.fromstring(text)
        assert root.tag == NS + "svg", kind
        assert root.find(NS + "title") is not None, kind
        classes = [e.get("class") for e in root.iter()]
        assert "title" in classes and "xtick" in classes and "ytick" in classes, kind
    assert texts["scores"].count('class="point"') == 150
    assert sum(text.count('class="point"') for text in texts.values()) == 150 + 150 + 300
    legend = ET.fromstring(texts["scores"])
    assert {t.text for t in legend.iter(NS + "text")} >= {"setosa", "versicolor", "virginica"}


def test_names_are_escaped() -> None:
    svg = scores_plot([[0.0, 0.0], [1.0, 1.0]], groups=["<a&b>", "c\"d"], title="x < y & z")
    root = ET.fromstring(svg)
    assert {t.text for t in root.iter(NS + "text")} >= {"<a&b>", 'c"d', "x < y & z"}


def test_ticks_are_round_and_cover_the_range() -> None:
    for lo, hi in [(-0.3, 2.7), (0.0, 1e-7), (-1234.5, 98765.0), (3.0, 3.0), (-2.0, -1.9999)]:
        values, step = ticks(lo, hi)
        assert values[0] <= lo + 1e-12 and values[-1] >= hi - 1e-12
        assert 3 <= len(values) <= 12
        mantissa = step / 10 ** math.floor(math.log10(step))
        assert any(abs(mantissa - m) < 1e-9 for m in (1, 2, 2.5, 5))


@pytest.mark.parametrize("call, message", [
    (lambda: scores_plot([]), "no rows"),
    (lambda: scores_plot([[1.0]]), "row 0 has 1 values"),
    (lambda: scores_plot([[1.0, float("nan")]]), "row 0, column 1 is nan"),
    (lambda: scores_plot([[1.0, "x"]]), "row 0, column 1 is not a number"),
    (lambda: scores_plot([[1.0, 2.0]], groups=["a", "b"]), "2 labels for 1 rows"),
    (lambda: scree_plot([1.0, -1.0]), "negative"),
    (lambda: scree_plot([0.0, 0.0]), "sum to zero"),
    (lambda: correlation_circle([[1.0, 0.5]], ["a"]), "outside the unit circle"),
    (lambda: biplot([[1.0, 2.0]], [[1.0, 0.0]], ["a", "b"]), "2 labels for 1 rows"),
    (lambda: pca_report(PCA(), [[1.0, 2.0]]), "not fitted"),
    (lambda: pca_report(PCA(1).fit([[1.0, 2.0], [2.0, 1.0], [0.0, 0.0]]), [[1.0, 2.0]]), "needs two components"),
    (lambda: pca_report(PCA().fit([[1.0, 2.0], [2.0, 1.0], [0.0, 0.0]]), [[1.0, 2.0]], kinds=["pie"]), "unknown kind"),
])
def test_bad_input_is_named(call: object, message: str) -> None:
    with pytest.raises(PurePCAError, match=message):
        call()  # type: ignore[operator]


def test_column_correlations_match_the_correlation_of_scaled_pca() -> None:
    """For a PCA of the correlation matrix the correlations are the loadings times the sdev."""
    data = load("usarrests")
    pca = PCA(convention="prcomp", scale=True).fit(data.rows)
    got = column_correlations(data.rows, pca.x)
    for j, row in enumerate(pca.rotation):
        for c, v in enumerate(row):
            assert abs(got[j][c] - v * pca.sdev[c]) < 1e-13


# ------------------------------------------------------------ in a browser

def _browser() -> str:
    return browser_or_skip()


def _render(svg: str, tmp_path: pathlib.Path) -> list[list[tuple[int, int, int]]]:
    root = ET.fromstring(svg)
    _, _, width, height = (int(float(v)) for v in root.get("viewBox", "").split())
    source = tmp_path / "plot.svg"
    source.write_text(svg, encoding="utf-8")
    shot = tmp_path / "plot.png"
    cmd = [_browser(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
           "--force-device-scale-factor=1", f"--window-size={width},{height}", f"--screenshot={shot}",
           source.as_uri()]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "HOME": str(tmp_path)})
    assert shot.exists(), done.stderr[-2000:]
    image = read_png(shot.read_bytes())
    assert len(image) >= height and len(image[0]) >= width
    return image


def _axis_map(root: ET.Element, cls: str) -> tuple[float, float]:
    """(a, b) with pixel = a + b·value, read from the tick labels of one axis (their text and position)."""
    attr = "x" if cls == "xtick" else "y"
    marks = [(float(e.get(attr, "nan")), float(e.text or "nan")) for e in root.iter(NS + "text") if e.get("class") == cls]
    (p0, v0), (p1, v1) = marks[0], marks[-1]
    b = (p1 - p0) / (v1 - v0)
    return p0 - b * v0, b


def _panel(root: ET.Element, title_part: str) -> tuple[ET.Element, float, float]:
    """A nested picture of a report whose title contains ``title_part``, with its offset."""
    for inner in root.findall(NS + "svg"):
        title = next(e for e in inner.iter(NS + "text") if e.get("class") == "title")
        if title_part in (title.text or ""):
            return inner, float(inner.get("x", "0")), float(inner.get("y", "0"))
    raise AssertionError(f"no panel {title_part!r}")


@pytest.mark.slow
def test_scores_appear_where_the_axes_put_them(tmp_path: pathlib.Path) -> None:
    groups = ["a"] * 4 + ["b"] * 4 + ["c"] * 4
    pts = [[-3.0 + 0.9 * i, 2.0 - 0.35 * i] for i in range(4)] + [[0.5 + 0.8 * i, -1.5 + 0.2 * i] for i in range(4)] \
        + [[-1.0 + 0.3 * i, -3.2 + 1.9 * i] for i in range(4)]
    svg = scores_plot(pts, groups=groups)
    image = _render(svg, tmp_path)
    root = ET.fromstring(svg)
    ax, bx = _axis_map(root, "xtick")
    ay, by = _axis_map(root, "ytick")
    colour = {"a": _rgb(PALETTE[0]), "b": _rgb(PALETTE[1]), "c": _rgb(PALETTE[2])}
    for (x, y), g in zip(pts, groups):
        px, py = ax + bx * x, ay + by * y
        assert _close(image[round(py)][round(px)], colour[g]), (x, y, g, image[round(py)][round(px)])
    # Where there is no point (the middle between two far points of the plot area), no point's colour.
    for x, y in [(3.0, 2.5), (-3.0, -3.0)]:
        pixel = image[round(ay + by * y)][round(ax + bx * x)]
        assert not any(_close(pixel, c, 40) for c in colour.values()), pixel


@pytest.mark.slow
def test_scree_bars_reach_their_share(tmp_path: pathlib.Path) -> None:
    variances = [5.0, 2.5, 1.5, 1.0]
    svg = scree_plot(variances)
    image = _render(svg, tmp_path)
    root = ET.fromstring(svg)
    ay, by = _axis_map(root, "ytick")
    bar = _rgb(PALETTE[5])
    centres = [float(e.get("x", "nan")) for e in root.iter(NS + "text") if e.get("class") == "xtick"]
    assert len(centres) == 4
    for share, cx in zip([50.0, 25.0, 15.0, 10.0], centres):
        top = ay + by * share
        assert _close(image[round(top) + 3][round(cx) - 10], bar), share  # just inside the bar
        assert _close(image[round(top) - 4][round(cx) - 10], (255, 255, 255), 30), share  # just above it


@pytest.mark.slow
def test_correlation_circle_arrows_end_at_the_correlations(tmp_path: pathlib.Path) -> None:
    corr = [[0.9, 0.3], [-0.5, 0.8], [0.1, -0.95], [-0.7, -0.6]]
    svg = correlation_circle(corr, ["a", "b", "c", "d"])
    image = _render(svg, tmp_path)
    root = ET.fromstring(svg)
    ax, bx = _axis_map(root, "xtick")
    ay, by = _axis_map(root, "ytick")
    assert abs(bx + by) < 1e-6 * abs(bx)  # one unit is as long on both axes: the circle is round
    arrow = _rgb(PALETTE[0])
    for x, y in corr:
        length = math.hypot(x, y)
        back = [(x - 0.04 * x / length), (y - 0.04 * y / length)]  # inside the arrow head
        pixel = image[round(ay + by * back[1])][round(ax + bx * back[0])]
        assert _close(pixel, arrow, 40), (x, y, pixel)
    # The unit circle passes through (1, 0) and (0, -1).
    for x, y in [(1.0, 0.0), (0.0, -1.0)]:
        near = [image[round(ay + by * y) + dy][round(ax + bx * x) + dx] for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
        assert min(sum(p) for p in near) < 3 * 160


@pytest.mark.slow
def test_report_of_usarrests_in_a_browser(tmp_path: pathlib.Path) -> None:
    data = load("usarrests")
    pca = PCA(convention="prcomp", scale=True).fit(data.rows)
    svg = pca_report(pca, data.rows, feature_names=data.columns, names=data.labels, title="USArrests")
    image = _render(svg, tmp_path)
    root = ET.fromstring(svg)
    panel, dx, dy = _panel(root, "scores")
    ax, bx = _axis_map(panel, "xtick")
    ay, by = _axis_map(panel, "ytick")
    pixels = [(dx + ax + bx * s[0], dy + ay + by * s[1]) for s in pca.x]
    legend = [e for e in panel.iter(NS + "rect") if e.get("class") == "legend"]
    assert not legend  # one group: no legend
    checked = 0
    for i, (px, py) in enumerate(pixels):
        if any(math.hypot(px - qx, py - qy) < 5 for j, (qx, qy) in enumerate(pixels) if j != i):
            continue  # overlapping points: the later one is on top
        assert _close(image[round(py)][round(px)], _rgb(PALETTE[0])), (data.labels[i], image[round(py)][round(px)])
        checked += 1
    assert checked >= 40
    # The biplot's arrow for UrbanPop ends at the rotation times the printed factor.
    panel, dx, dy = _panel(root, "biplot")
    factor = float(next(e.text for e in panel.iter(NS + "text") if (e.text or "").startswith("loadings x")).split()[-1])
    ax, bx = _axis_map(panel, "xtick")
    ay, by = _axis_map(panel, "ytick")
    x, y = (v * factor for v in pca.rotation[2][:2])
    length = math.hypot(x, y)
    tip = (dx + ax + bx * (x - 0.1 * x / length), dy + ay + by * (y - 0.1 * y / length))
    assert sum(image[round(tip[1])][round(tip[0])]) < 3 * 100  # black arrow head
