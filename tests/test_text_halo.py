"""Text over dense plots has a white halo, so that it can be read (issue 36).

On statsmodels' fair data (6,366 points) the biplot's variable names were
drawn straight over the points.  The names (and point labels, and the
correlation circle's names) now carry a white outline painted under the
letters (SVG ``paint-order="stroke"``).  Measured in headless Chromium, as
the picture tests measure: the computed style, and the pixels beside every
letter in a screenshot.
"""

from __future__ import annotations

import html
import json
import os
import pathlib
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

_MEASURE = """
<script>
const panel = document.querySelector("svg");
const p = panel.getBoundingClientRect();
const out = [...panel.querySelectorAll("text.variable")].map(e => {
  const b = e.getBoundingClientRect(), s = getComputedStyle(e);
  return {box: [b.left - p.left, b.top - p.top, b.right - p.left, b.bottom - p.top], order: s.paintOrder,
          stroke: s.stroke, width: s.strokeWidth}; });
const pre = document.createElement("pre");
pre.id = "measured";
pre.textContent = JSON.stringify(out);
document.body.appendChild(pre);
</script>
"""


def _names_in_a_browser(svg: str, folder: pathlib.Path) -> list[dict[str, Any]]:
    page = folder / "halo.html"
    page.write_text('<!DOCTYPE html><html><head><meta charset="utf-8"><style>body{margin:0}</style></head><body>'
                    f"{svg}{_MEASURE}</body></html>", encoding="utf-8")
    cmd = [browser_or_skip(), "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", page.as_uri()]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env={**os.environ, "HOME": str(folder)})
    found = re.search(r'<pre id="measured">(.*?)</pre>', done.stdout, re.S)
    assert found, done.stderr[-2000:]
    return json.loads(html.unescape(found.group(1)))  # type: ignore[no-any-return]


def _fair() -> tuple[list[str], list[list[float]], list[str]]:
    """statsmodels' fair data set (6,366 rows): the other columns, their rows, and rate_marriage as text."""
    fair = pytest.importorskip("statsmodels.datasets.fair", reason="statsmodels is a test extra")
    frame = fair.load_pandas().data
    columns = [c for c in frame.columns if c != "rate_marriage"]
    groups = [str(v) for v in frame["rate_marriage"]]
    return columns, frame[columns].values.tolist(), groups


@pytest.mark.slow
def test_variable_names_over_a_dense_biplot_have_a_halo(tmp_path: pathlib.Path) -> None:
    """Issue 36: on statsmodels' fair (6,366 points) the biplot's names had no halo.  In the screenshot,
    every pixel beside a name's dark glyph pixels is grey (black ink anti-aliased on the white halo),
    never a point's colour; and the browser's computed style paints the white stroke first."""
    browser = browser_or_skip()
    columns, rows, groups = _fair()
    pca = PCA(convention="prcomp", scale=True).fit(rows)
    svg = pca_report(pca, rows, feature_names=columns, groups=groups, kinds=("biplot",))
    names = _names_in_a_browser(svg, tmp_path)
    assert names and ET.fromstring(svg).get("width") == "640"
    source = tmp_path / "fair.svg"
    source.write_text(svg, encoding="utf-8")
    shot = tmp_path / "fair.png"
    subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    "--force-device-scale-factor=1", "--window-size=640,480", f"--screenshot={shot}", source.as_uri()],
                   capture_output=True, text=True, timeout=120, env={**os.environ, "HOME": str(tmp_path)})
    image = read_png(shot.read_bytes())
    coloured, checked = [], 0
    for v in names:
        x0, y0, x1, y1 = (round(c) for c in v["box"])
        for y in range(max(y0, 1), min(y1, 479)):
            for x in range(max(x0, 1), min(x1, 639)):
                if sum(image[y][x]) > 150:
                    continue  # only beside the glyphs' dark core
                for u, w in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
                    r, g, b = image[w][u]
                    checked += 1
                    if max(r, g, b) - min(r, g, b) > 60:
                        coloured.append((u, w, (r, g, b)))
    assert checked > 500
    assert len(coloured) <= checked // 200, (len(coloured), checked, coloured[:10])
    for v in names:
        assert v["order"].startswith("stroke") and v["stroke"] == "rgb(255, 255, 255)", v
        assert float(v["width"].rstrip("px")) >= 2, v
