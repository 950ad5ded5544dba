"""FactoMineR's individual and variable outputs (issue 11), against a numpy transcription of
FactoMineR's PCA.R (uniform row weights 1/n, column weights 1) and against their own identities."""

from __future__ import annotations

import random

import pytest

from purepca import PCA, PurePCAError
from purepca.datasets import load

from helpers import assert_close_arrays, assert_factominer_outputs, factominer_pca

np = pytest.importorskip("numpy")


def factominer(X, scale=True, sup=None):  # type: ignore[no-untyped-def]
    """PCA.R and svd.triplet.R, transcribed (helpers.factominer_pca): row.w = 1/n, col.w = 1, ncp = all."""
    return factominer_pca(X, scale=scale, sup=sup)


@pytest.mark.parametrize("name, scale", [("usarrests", True), ("iris", True), ("iris", False)])
def test_outputs_equal_factominers_formulas(name: str, scale: bool) -> None:
    X = load(name).rows
    pca = PCA(convention="factominer", scale=scale).fit(X)
    ref = factominer(X, scale=scale)
    assert_factominer_outputs(pca, X, ref, 1e-10)


def test_supplementary_columns_and_rows() -> None:
    data = load("iris")
    X = [row[:3] for row in data.rows]
    sup = [[row[3], row[0] * row[1]] for row in data.rows]
    pca = PCA(convention="factominer").fit(X)
    ref = factominer(X, sup=sup)
    got = pca.supplementary_columns(sup)
    assert_close_arrays(got["coord"], ref["sup.coord"], 1e-10)
    assert_close_arrays(got["cor"], ref["sup.cor"], 1e-10)
    assert_close_arrays(got["cos2"], ref["sup.cor"] ** 2, 1e-10)
    # Supplementary rows are row_coordinates of new rows: FactoMineR's ind.sup with the training centre and scale.
    new = [[5.0, 3.0, 1.5], [7.0, 3.2, 6.0]]
    A = np.array(X)
    mu, et = A.mean(0), A.std(0)
    expected = ((np.array(new) - mu) / et) @ np.array(pca.components_).T
    assert_close_arrays(pca.row_coordinates(new), expected, 1e-10)
    with pytest.raises(PurePCAError, match="rows, but the model was fitted on"):
        pca.supplementary_columns(sup[:10])


def test_identities_under_any_convention() -> None:
    rng = random.Random(2)
    X = [[rng.gauss(0, 1 + j) for j in range(4)] for _ in range(25)]
    for convention in ("sklearn", "prcomp", "princomp"):
        pca = PCA(convention=convention).fit(X)
        assert all(abs(sum(col) - 100) < 1e-9 for col in zip(*pca.row_contributions_))
        assert all(abs(sum(col) - 100) < 1e-9 for col in zip(*pca.column_contributions_))
        assert all(abs(sum(row) - 1) < 1e-12 for row in pca.row_cos2(X))
        assert all(abs(sum(row) - 1) < 1e-12 for row in pca.column_cos2_)
