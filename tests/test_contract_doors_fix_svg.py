"""The contract fuzzer's findings fixed at their doors (issue 41): svg, player, projection, selection.

Each hostile value a door used to meet with a raw exception, a NaN in its result or a hang is now a
PurePCAError naming the parameter.
"""

from __future__ import annotations

import math
from decimal import Decimal
from typing import Any, Callable

import pytest

from purepca import PurePCAError
from purepca import player, projection, selection, svg

S = [[1.0, 2.0], [-1.0, 0.5], [0.0, -2.0]]
L = [[0.8, 0.6], [-0.6, 0.8]]
W = [[0.6, 0.8]]

DOORS: list[tuple[str, Callable[[], Any], str]] = [
    # projection
    ("project X", lambda: projection.project("x", W), r"X: got a string"),
    ("project components", lambda: projection.project([[1.0, 2.0]], None), r"components: got None"),
    ("project mean", lambda: projection.project([[1.0, 2.0]], W, mean=[math.nan, 0.0]), r"mean: entry 0 is NaN"),
    ("project mean length", lambda: projection.project([[1.0, 2.0]], W, mean=[1.0]), r"mean: 1 values, but"),
    ("project scale", lambda: projection.project([[1.0, 2.0]], W, scale=[1.0, 0.0]), r"scale: entry 1 is zero"),
    ("project overflow", lambda: projection.project([[1.7e308, -1.7e308]], [[1.7e308, 1.7e308]]),
     r"the score of row 0(, column 0)? is beyond the float range"),
    ("reconstruct scores", lambda: projection.reconstruct([[True]], W), r"scores: row 0, column 0 is a boolean"),
    ("reconstruct components", lambda: projection.reconstruct([[1.0]], [[]]), r"components: row 0 has no values"),
    ("reconstruct mean", lambda: projection.reconstruct([[1.0]], W, mean=None, scale=set()),
     r"scale: got a set"),
    ("whiten scores", lambda: projection.whiten([[1.0, 2.0], [3.0]], [1.0, 1.0]), r"scores: row 1 has 1 value"),
    ("whiten deviations", lambda: projection.whiten([[1.0]], [-1.0]), r"deviations: entry 0 is negative"),
    ("unwhiten deviations", lambda: projection.unwhiten([[1.0]], None), r"deviations: None is not a sequence"),
    ("unwhiten overflow", lambda: projection.unwhiten([[1e308]], [1e308]), r"unwhitened score .* beyond the float"),
    ("reconstruction_error X", lambda: projection.reconstruction_error(b"x", [[1.0]]), r"X: got a string"),
    ("reconstruction_error reconstructed", lambda: projection.reconstruction_error([[1.0]], [[Decimal("sNaN")]]),
     r"reconstructed: row 0, column 0 is NaN"),
    ("reconstruction_error overflow", lambda: projection.reconstruction_error([[1e308]], [[-1e308]]),
     r"mean squared error is beyond the float range"),
    # selection
    ("components_for_fraction ratios", lambda: selection.components_for_fraction([0.5, "x"], 0.5),
     r"ratios: entry 1 is a string"),
    ("components_for_fraction fraction", lambda: selection.components_for_fraction([0.5], math.nan),
     r"fraction: the value is NaN"),
    ("infer_dimension spectrum", lambda: selection.infer_dimension([1.0, 2.0], 10), r"spectrum: entry 1 .* decreasing"),
    ("infer_dimension n_samples", lambda: selection.infer_dimension([2.0, 1.0], 0), r"n_samples must be a positive int"),
    ("kaiser spectrum", lambda: selection.kaiser(None, 4.0, 4), r"spectrum: None is not a sequence"),
    ("kaiser total", lambda: selection.kaiser([1.0], math.inf, 1), r"total must be a finite real number"),
    ("kaiser count", lambda: selection.kaiser([1.0], 1.0, 10 ** 400), r"count must be an int between"),
    ("parallel_analysis n", lambda: selection.parallel_analysis(10 ** 400, 3, scale=True), r"n must be an int between 2"),
    ("parallel_analysis work", lambda: selection.parallel_analysis(10 ** 6, 10 ** 3, scale=True),
     r"random numbers is more than"),
    ("parallel_analysis seed", lambda: selection.parallel_analysis(10, 3, scale=True, seed=Decimal("sNaN")),
     r"seed must be an int"),
    ("parallel_analysis sd", lambda: selection.parallel_analysis(10, 2, scale=False, sd=[1.0]), r"sd: expected 2"),
    # svg
    ("text_width text", lambda: svg.text_width(None, 10), r"text_width text must be text"),  # type: ignore[arg-type]
    ("text_width size", lambda: svg.text_width("a", math.nan), r"text_width size must be a finite real number"),
    ("legend_width texts", lambda: svg.legend_width([1.0]), r"legend_width texts: entry 0 must be text"),  # type: ignore[list-item]
    ("group_styles groups", lambda: svg.group_styles([[1.0]]), r"group_styles groups: entry 0 must be text"),  # type: ignore[list-item]
    ("scree_plot explained_variance", lambda: svg.scree_plot(5), r"explained_variance must be a list"),  # type: ignore[arg-type]
    ("scree_plot width", lambda: svg.scree_plot([1.0], width=-1), r"scree_plot width must be an int between 200"),
    ("scree_plot height", lambda: svg.scree_plot([1.0], height=10 ** 400), r"scree_plot height must be an int"),
    ("scree_plot max_bars", lambda: svg.scree_plot([1.0], max_bars=0), r"scree_plot max_bars must be a positive int"),
    ("scree_plot title", lambda: svg.scree_plot([1.0], title=math.nan), r"scree_plot title must be text"),  # type: ignore[arg-type]
    ("scree_plot names", lambda: svg.scree_plot([1.0], names=3), r"scree_plot names must be a list"),  # type: ignore[arg-type]
    ("scores_plot axis_labels", lambda: svg.scores_plot(S, axis_labels="x"), r"scores_plot axis_labels must be two"),  # type: ignore[arg-type]
    ("scores_plot groups", lambda: svg.scores_plot(S, groups=math.inf), r"scores_plot groups must be a list"),
    ("scores_plot names", lambda: svg.scores_plot(S, names={"a", "b", "c"}), r"scores_plot names must be a list"),
    ("scores_plot width", lambda: svg.scores_plot(S, width=True), r"scores_plot width must be an int"),
    ("scores_plot legend too wide", lambda: svg.scores_plot(S, groups=["x" * 60, "b", "c"], width=200),
     r"leaves no room for its box"),
    ("biplot feature_names", lambda: svg.biplot(S, L, None), r"biplot feature_names must be a list"),  # type: ignore[arg-type]
    ("biplot importance", lambda: svg.biplot(S, L, ["a", "b"], importance=[math.nan, 1.0]),
     r"biplot importance: entry 0 is NaN"),
    ("biplot top", lambda: svg.biplot(S, L, ["a", "b"], top=-1), r"biplot top must be a non-negative int"),
    ("biplot title", lambda: svg.biplot(S, L, ["a", "b"], title=b"x"), r"biplot title must be text"),  # type: ignore[arg-type]
    ("correlation_circle axis_labels", lambda: svg.correlation_circle(L, ["a", "b"], axis_labels=("x", 1)),  # type: ignore[arg-type]
     r"correlation_circle axis_labels\[1\] must be text"),
    ("correlation_circle height", lambda: svg.correlation_circle(L, ["a", "b"], height=1e308),  # type: ignore[arg-type]
     r"correlation_circle height must be an int"),
    ("column_correlations X", lambda: svg.column_correlations([[]], [[1.0]]), r"column_correlations X: row 0 has no"),
    ("column_correlations scores", lambda: svg.column_correlations([[1.0], [2.0]], [[1.0]]),
     r"X has 2 rows, scores has 1"),
    ("column_correlations overflow", lambda: svg.column_correlations([[1.7e308], [-1.7e308]], [[1.0], [2.0]]),
     r"beyond the float range"),
]


def _pca() -> Any:
    from purepca import PCA

    return PCA(2).fit([[2.5, 2.4, 0.5], [0.5, 0.7, 1.9], [2.2, 2.9, 1.1], [1.9, 2.2, 0.3], [3.1, 3.0, 2.0]])


X5 = [[2.5, 2.4, 0.5], [0.5, 0.7, 1.9], [2.2, 2.9, 1.1], [1.9, 2.2, 0.3], [3.1, 3.0, 2.0]]

DOORS += [
    ("pca_report kinds", lambda: svg.pca_report(_pca(), X5, kinds=None), r"pca_report kinds must be a list"),  # type: ignore[arg-type]
    ("pca_report pcs", lambda: svg.pca_report(_pca(), X5, pcs=(1, "x")), r"pca_report pcs must be a positive int"),  # type: ignore[arg-type]
    ("pca_report pcs shape", lambda: svg.pca_report(_pca(), X5, pcs=None), r"pca_report pcs must be two"),  # type: ignore[arg-type]
    ("pca_report scale", lambda: svg.pca_report(_pca(), X5, scale=1e308), r"pca_report scale must be a finite"),
    ("pca_report top", lambda: svg.pca_report(_pca(), X5, top=Decimal("NaN")), r"pca_report top must be"),  # type: ignore[arg-type]
    ("pca_report feature_names", lambda: svg.pca_report(_pca(), X5, feature_names=7), r"feature_names must be a list"),  # type: ignore[arg-type]
    ("pca_report groups", lambda: svg.pca_report(_pca(), X5, groups=0), r"groups must be a list"),  # type: ignore[arg-type]
    # player
    ("data_run title", lambda: player.data_run(X5, title=math.nan), r"data_run title must be text"),  # type: ignore[arg-type]
    ("jacobi_run title", lambda: player.jacobi_run([[2.0, 1.0], [1.0, 2.0]], title=None), r"jacobi_run title must be"),  # type: ignore[arg-type]
    ("power_run title", lambda: player.power_run([[2.0, 1.0], [1.0, 2.0]], title=1e308), r"power_run title must be"),  # type: ignore[arg-type]
    ("power_run inverse", lambda: player.power_run([[2.0, 1.0], [1.0, 2.0]], inverse=math.nan),  # type: ignore[arg-type]
     r"power_run inverse must be True or False, got nan"),
    ("subspace_run title", lambda: player.subspace_run([[2.0, 1.0], [1.0, 2.0]], 1, title=[[]]),  # type: ignore[arg-type]
     r"subspace_run title must be text"),
    ("tridiagonal_run title", lambda: player.tridiagonal_run([[2.0, 1.0], [1.0, 2.0]], title=b"x"),  # type: ignore[arg-type]
     r"tridiagonal_run title must be text"),
]


@pytest.mark.parametrize("call, message", [pytest.param(c, m, id=i) for i, c, m in DOORS])
def test_contract_doors_fix_svg_refuse_hostile_values(call: Callable[[], Any], message: str) -> None:
    with pytest.raises(PurePCAError, match=message):
        call()


def test_contract_doors_fix_svg_valid_calls_unchanged() -> None:
    # what a valid call computes, judged independently: exact arithmetic with Fractions
    from fractions import Fraction

    Z = projection.project([[3.0, 4.0]], [[0.6, 0.8]], mean=[1.0, 1.0], scale=[2.0, 3.0])
    exact = (Fraction(0.6) * (Fraction(3) - 1) / 2 + Fraction(0.8) * (Fraction(4) - 1) / 3)
    assert abs(Fraction(Z[0][0]) - exact) <= abs(exact) * Fraction(2, 10 ** 16)
    assert projection.project([], [[1.0]]) == []
    assert selection.kaiser([2.2, 1.1, 0.5, 0.2], 4.0, 4) == sum(1 for v in (2.2, 1.1, 0.5, 0.2) if v > 1)
    assert svg.text_width("PC1", 10) == pytest.approx((0.78 * 2 + 0.66) * 10 * 1.04)


def test_contract_doors_fix_svg_reconstruct_overflow_is_named() -> None:
    with pytest.raises(PurePCAError, match=r"reconstruction of row 0(, column 0)? is beyond the float range"):
        projection.reconstruct([[1.7e308, 1.7e308]], [[1.7e308], [-1.7e308]])
