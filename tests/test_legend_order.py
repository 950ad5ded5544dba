"""The legend of the groups: sorted (as numbers when they all are), a blank group named (issue 36).

On statsmodels' fair data the legend listed rate_marriage's groups in order
of first appearance (3.0, 0.0, 4.0, 1.0, ...), and a blank cell made an entry
with no name.  R sorts a factor's levels and prints a missing one as NA.
"""

from __future__ import annotations

import pathlib
import xml.etree.ElementTree as ET

import pytest

from purepca import PCA
from purepca.cli import main
from purepca.svg import biplot, group_styles, pca_report, scores_plot

NS = "{http://www.w3.org/2000/svg}"


def test_legend_sorts_numeric_groups_and_names_a_blank_one() -> None:
    """Issue 36: the legend listed 3.0, 0.0, 4.0, 1.0 in order of first appearance, and a blank cell made a
    nameless entry."""
    groups = ["3.0", "0.0", "4.0", "", "1.0", "10.0", "2.0", "3.0"]
    pts = [[float(i), float(i % 3)] for i in range(len(groups))]
    for svg in (scores_plot(pts, groups=groups), biplot(pts, [[1.0, 0.0], [0.0, 1.0]], ["u", "v"], groups=groups)):
        root = ET.fromstring(svg)
        texts = [e.text for e in root.iter(NS + "text") if e.get("class") == "legend-text"]
        assert texts == ["0.0", "1.0", "2.0", "3.0", "4.0", "10.0", "(blank)"]
        marks = [(e.get("fill"), e.get("data-shape")) for e in root.iter() if e.get("class") == "legend-mark"]
        style = dict(zip(texts, marks))
        points = [(e.get("fill"), e.get("data-shape")) for e in root.iter() if e.get("class") == "point"]
        assert points == [style[g or "(blank)"] for g in groups]


def test_legend_sorts_text_groups_as_text() -> None:
    styles = group_styles(["virginica", "setosa", "10", "versicolor", " "])
    assert list(styles) == ["10", "setosa", "versicolor", "virginica", " "]
    svg = scores_plot([[0.0, 0.0], [1.0, 1.0], [2.0, 0.0]], groups=["b", "(blank)", ""])
    texts = [e.text for e in ET.fromstring(svg).iter(NS + "text") if e.get("class") == "legend-text"]
    assert texts == ["(blank)", "b", "((blank))"]  # a blank's name never takes a real group's


def _fair() -> tuple[list[str], list[list[float]], list[str]]:
    """statsmodels' fair data set (6,366 rows): the other columns, their rows, and rate_marriage as text."""
    fair = pytest.importorskip("statsmodels.datasets.fair", reason="statsmodels is a test extra")
    frame = fair.load_pandas().data
    columns = [c for c in frame.columns if c != "rate_marriage"]
    groups = [str(v) for v in frame["rate_marriage"]]
    return columns, frame[columns].values.tolist(), groups


def test_fair_legend_is_sorted_with_blank_named() -> None:
    """The same data through the picture: rate_marriage's groups 1.0 ... 5.0 in order, a blank one last."""
    columns, rows, groups = _fair()
    groups = groups[:300]
    groups[7] = ""
    pca = PCA(convention="prcomp", scale=True).fit(rows[:300])
    svg = pca_report(pca, rows[:300], feature_names=columns, groups=groups, kinds=("biplot",))
    texts = [e.text for e in ET.fromstring(svg).iter(NS + "text") if e.get("class") == "legend-text"]
    assert texts == sorted({g for g in groups if g}, key=float) + ["(blank)"]


def test_plot_command_legend_is_sorted_with_blank_named(tmp_path: pathlib.Path) -> None:
    """Through ``purepca plot --groups``: a blank cell of the group column is the legend's "(blank)"."""
    source = tmp_path / "g.csv"
    rate = ["3.0", "0.0", "4.0", "", "1.0", "3.0", "0.0", "1.0"]
    source.write_text("a,b,rate\n" + "".join(f"{i},{(i * 7) % 5},{g}\n" for i, g in enumerate(rate)),
                      encoding="utf-8")
    target = tmp_path / "g.svg"
    assert main(["plot", str(source), "--groups", "rate", "--kind", "scores", "-o", str(target)]) == 0
    root = ET.parse(target).getroot()
    assert [e.text for e in root.iter(NS + "text") if e.get("class") == "legend-text"] == \
        ["0.0", "1.0", "3.0", "4.0", "(blank)"]
