"""Control limits and rotations at their edges: clear errors in the user's words (issue 20, lines 22, 28)."""

from __future__ import annotations

import pytest

from purepca import PCA, PurePCAError

X = [[0.0, 0.0, 1.0], [1.0, 1.1, 0.0], [2.0, 1.9, 1.0], [3.0, 3.2, 0.5], [1.0, 0.0, 0.0]]


@pytest.mark.parametrize("call, message", [
    (lambda: PCA(2).fit(X).spe_limit(1), r"alpha must be strictly between 0 and 1 .* got 1\.0"),
    (lambda: PCA(2).fit(X).t2_limit(1.0), r"alpha must be strictly between 0 and 1"),
    (lambda: PCA(2).fit(X).spe_limit(0.99), r"Jackson and Mudholkar's approximation has no value at alpha = 0\.99"),
    (lambda: PCA(0).fit(X).t2_limit(0.05), r"t2_limit: the model keeps no component \(n_components_ = 0\)"),
    (lambda: PCA(0).fit(X).rotated_loadings(), r"rotated_loadings: the model keeps no component"),
])
def test_monitoring_edges_are_clear_errors(call, message) -> None:
    with pytest.raises(PurePCAError, match=message) as caught:
        call()
    assert " p " not in f" {caught.value} " and "d1" not in str(caught.value) and "feature(s)" not in str(caught.value)


def test_monitoring_limits_at_usual_levels_are_unchanged() -> None:
    pca = PCA(2).fit(X)
    assert pca.spe_limit(0.05) > pca.spe_limit(0.5) > 0  # a larger alpha, a lower limit
    assert PCA(1).fit(X).spe_limit(0.05) == pytest.approx(1.132233, abs=1e-6)
