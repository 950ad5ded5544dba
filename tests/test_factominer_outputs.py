"""FactoMineR's individual and variable outputs (issue 11), against a numpy transcription of
FactoMineR's PCA.R (uniform row weights 1/n, column weights 1) and against their own identities."""

from __future__ import annotations

import random

import pytest

from purepca import PCA, PurePCAError
from purepca.datasets import load

np = pytest.importorskip("numpy")


def factominer(X, scale=True, sup=None):  # type: ignore[no-untyped-def]
    """PCA.R and svd.triplet.R, transcribed: row.w = 1/n, col.w = 1, ncp = all."""
    X = np.array(X, dtype=float)
    n, p = X.shape
    w = np.full(n, 1.0 / n)
    centre = w @ X
    Xc = X - centre
    if scale:
        et = np.sqrt(w @ (Xc ** 2))
        et[et <= 1e-16] = 1
        Xc = Xc / et
    dist2_ind = (Xc ** 2).sum(1)
    dist2_var = w @ (Xc ** 2)
    ncp = min(n - 1, p)
    Xs = Xc * np.sqrt(w)[:, None]
    u, s, vt = np.linalg.svd(Xs, full_matrices=False)
    U, V = u[:, :ncp], vt[:ncp].T
    mult = np.sign(V.sum(0))
    mult[mult == 0] = 1
    if ncp > 1 or n <= p:
        U, V = U * mult, V * mult
    U = U / np.sqrt(w)[:, None]
    eig = s[:ncp] ** 2
    coord_ind = U * np.sqrt(eig)
    coord_var = V * np.sqrt(eig)
    out = {
        "eig": eig,
        "ind.coord": coord_ind,
        "ind.dist": np.sqrt(dist2_ind),
        "ind.cos2": coord_ind ** 2 / dist2_ind[:, None],
        "ind.contrib": 100 * coord_ind ** 2 * w[:, None] / eig,
        "var.coord": coord_var,
        "var.cor": coord_var / np.sqrt(dist2_var)[:, None],
        "var.cos2": (coord_var / np.sqrt(dist2_var)[:, None]) ** 2,
        "var.contrib": 100 * coord_var ** 2 / eig,
    }
    if sup is not None:
        S = np.array(sup, dtype=float)
        S = S - w @ S
        if scale:
            S = S / np.sqrt(w @ (S ** 2))
        coord = (S * w[:, None]).T @ U
        d2 = w @ (S ** 2)
        out["sup.coord"] = coord
        out["sup.cor"] = coord / np.sqrt(d2)[:, None]
    return out


def _close(a, b, tol=1e-10):  # type: ignore[no-untyped-def]
    a, b = np.array(a, dtype=float), np.array(b, dtype=float)
    assert a.shape == b.shape, (a.shape, b.shape)
    assert np.abs(a - b).max() <= tol * max(1.0, np.abs(b).max()), np.abs(a - b).max()


@pytest.mark.parametrize("name, scale", [("usarrests", True), ("iris", True), ("iris", False)])
def test_outputs_equal_factominers_formulas(name: str, scale: bool) -> None:
    X = load(name).rows
    pca = PCA(convention="factominer", scale=scale).fit(X)
    ref = factominer(X, scale=scale)
    k = pca.n_components_
    _close(pca.explained_variance_, ref["eig"][:k])
    _close(pca.row_coordinates(X), ref["ind.coord"][:, :k])
    _close(pca.row_distances(X), ref["ind.dist"])
    _close(pca.row_cos2(X), ref["ind.cos2"][:, :k])
    _close(pca.row_contributions_, ref["ind.contrib"][:, :k])
    _close(pca.column_coordinates_, ref["var.coord"][:, :k])
    _close(pca.column_correlations_, ref["var.cor"][:, :k])
    _close(pca.column_cos2_, ref["var.cos2"][:, :k])
    _close(pca.column_contributions_, ref["var.contrib"][:, :k])


def test_supplementary_columns_and_rows() -> None:
    data = load("iris")
    X = [row[:3] for row in data.rows]
    sup = [[row[3], row[0] * row[1]] for row in data.rows]
    pca = PCA(convention="factominer").fit(X)
    ref = factominer(X, sup=sup)
    got = pca.supplementary_columns(sup)
    _close(got["coord"], ref["sup.coord"])
    _close(got["cor"], ref["sup.cor"])
    _close(got["cos2"], ref["sup.cor"] ** 2)
    # Supplementary rows are row_coordinates of new rows: FactoMineR's ind.sup with the training centre and scale.
    new = [[5.0, 3.0, 1.5], [7.0, 3.2, 6.0]]
    A = np.array(X)
    mu, et = A.mean(0), A.std(0)
    expected = ((np.array(new) - mu) / et) @ np.array(pca.components_).T
    _close(pca.row_coordinates(new), expected)
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
