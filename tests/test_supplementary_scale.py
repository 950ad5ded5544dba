"""Supplementary columns at the edges of the float range: correlations do not depend on the unit
(issue 20, line 9: columns at 1e200, 1e308 or 1e-200 gave a correlation of 0, the truth 0.74-0.97)."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from purepca import PCA

X = [[1.0, 2.0], [2.0, 1.0], [4.0, 5.0], [3.0, 3.0], [0.0, 1.5]]
BASE = [r[0] + 0.3 * r[1] for r in X]


def exact_correlation(a: list[float], b: list[float]) -> float:
    """The correlation of a and b from exact sums (its square as a Fraction, rounded once)."""
    fa, fb = [Fraction(v) for v in a], [Fraction(v) for v in b]
    ma, mb = sum(fa) / len(fa), sum(fb) / len(fb)
    sab = sum((x - ma) * (y - mb) for x, y in zip(fa, fb))
    r2 = sab * sab / (sum((x - ma) ** 2 for x in fa) * sum((y - mb) ** 2 for y in fb))
    return math.copysign(math.sqrt(float(r2)), float(sab))


@pytest.mark.parametrize("convention", ["factominer", "sklearn"])
@pytest.mark.parametrize("scale", [False, True])
@pytest.mark.parametrize("factor", [1.0, 1e200, 1e300, 2.0 ** 1000 * 1.5, 1e-200, 1e-300])
def test_supplementary_correlations_do_not_depend_on_the_unit(convention: str, scale: bool, factor: float) -> None:
    pca = PCA(convention=convention, scale=scale).fit(X)
    column = [[v * factor] for v in BASE]
    got = pca.supplementary_columns(column)
    scores = [row[0] for row in pca.row_coordinates(X)]
    truth = exact_correlation([v * factor for v in BASE], scores)  # the same at every factor, exactly
    assert abs(got["cor"][0][0] - truth) < 1e-12
    ref = pca.supplementary_columns([[v] for v in BASE])
    assert got["cor"][0] == pytest.approx(ref["cor"][0], rel=1e-12)
    if scale and not (convention == "factominer" and factor < 1e-16):
        assert got["coord"][0] == pytest.approx(ref["coord"][0], rel=1e-12)  # correlations: no unit
    else:
        assert got["coord"][0][0] == pytest.approx(ref["coord"][0][0] * factor, rel=1e-12)  # the data's unit


@pytest.mark.parametrize("tiny", [1e-300, 1e-200])
def test_linear_kernel_that_underflows_is_a_clear_error(tiny: float) -> None:
    # Issue 20, lines 10 and 15: KernelPCA's linear kernel on data at 1e-200 returned zero scores (the
    # exact ones, about 7e-301, are representable); it used to be a clear error and is one again.
    from purepca import KernelPCA, PurePCAError

    X = [[tiny, 0.0], [0.0, tiny], [tiny, tiny]]
    with pytest.raises(PurePCAError, match="the linear kernel's values .* underflow a float"):
        KernelPCA(2).fit(X)
    assert KernelPCA(1).fit([[1.0, 2.0], [1.0, 2.0], [3.0, 1.0]]).n_components_ == 1  # ordinary data fit
    assert KernelPCA(2).fit([[v * 1e100 / tiny for v in row] for row in X]).eigenvalues_[0] > 0
