"""Seed 003's toy data: R's prcomp and eigen output, exactly as published."""

from __future__ import annotations

import math

import pytest

from purepca import PCA, jacobi_eigh
from purepca.datasets import toy_data

# As printed in seed 003.
SDEV = ["1.1331495", "0.2215477"]
ROTATION = [["-0.6778734", "0.7351787"], ["-0.7351787", "-0.6778734"]]  # rows x1, x2; columns PC1, PC2
PROPORTIONS = ["0.9631813", "0.03681869"]


def printed(value: float, text: str) -> bool:
    """Does ``value`` print as ``text`` with the same number of significant digits?"""
    digits = len(text.replace("-", "").replace("0.", "", 1).lstrip("0").replace(".", ""))
    return f"{value:.{digits}g}" == text.lstrip("+")


@pytest.mark.parametrize("solver", ["jacobi", "gram", "svd", "power"])
def test_prcomp_convention_reproduces_seed_003(solver: str) -> None:
    pca = PCA(2, convention="prcomp", solver=solver).fit(toy_data())
    assert [printed(s, t) for s, t in zip(pca.sdev, SDEV)] == [True, True], pca.sdev
    assert [printed(r, t) for r, t in zip(pca.explained_variance_ratio_, PROPORTIONS)] == [True, True]
    # Rotation: the same as printed up to the sign of each column (prcomp's
    # signs are LAPACK's; the "none" rule keeps purepca's own).
    R = pca.rotation
    for k in range(2):
        column = [R[j][k] for j in range(2)]
        want = [float(ROTATION[j][k]) for j in range(2)]
        sign = 1.0 if column[0] * want[0] > 0 else -1.0
        assert [f"{sign * x:.7f}" for x in column] == [ROTATION[j][k] for j in range(2)]


def test_seed_003_normalized_components_and_remark_1() -> None:
    X = toy_data()
    n = len(X)
    pca = PCA(convention="prcomp").fit(X)
    lam = pca.explained_variance_
    # Z = Xc·V·Λ^(-1/2)/sqrt(n-1) is orthonormal: ZᵀZ = I.
    Z = [[s / math.sqrt((n - 1) * l) for s, l in zip(row, lam)] for row in pca.x]
    for i in range(2):
        for j in range(2):
            g = math.fsum(Z[r][i] * Z[r][j] for r in range(n))
            assert abs(g - (1.0 if i == j else 0.0)) < 1e-14
    # Remark 1: Z's columns are eigenvectors of XcXcᵀ/(n-1) with the same eigenvalues.
    Xc = [[x - m for x, m in zip(row, pca.mean_)] for row in X]
    G = [[math.fsum(a * b for a, b in zip(Xc[i], Xc[j])) / (n - 1) for j in range(n)] for i in range(n)]
    gram = jacobi_eigh(G)
    assert [round(v, 6) for v in gram.values[:2]] == [round(v, 6) for v in lam]
    for k in range(2):
        u = gram.vectors[k]
        zk = [Z[r][k] for r in range(n)]
        sign = 1.0 if math.fsum(a * b for a, b in zip(u, zk)) > 0 else -1.0
        assert [round(sign * a, 6) for a in u] == [round(b, 6) for b in zk]
        GZ = [math.fsum(G[r][c] * zk[c] for c in range(n)) for r in range(n)]
        assert max(abs(a - lam[k] * b) for a, b in zip(GZ, zk)) < 1e-14


def test_sklearn_convention_equals_scikit_learn_on_seed_003() -> None:
    np = pytest.importorskip("numpy")
    sk = pytest.importorskip("sklearn.decomposition")
    X = toy_data()
    ref = sk.PCA(svd_solver="full").fit(np.array(X))
    for solver in ("jacobi", "gram", "svd"):
        pca = PCA(convention="sklearn", solver=solver).fit(X)
        for name in ("explained_variance_", "explained_variance_ratio_", "singular_values_", "mean_"):
            ours, theirs = getattr(pca, name), getattr(ref, name).tolist()
            assert all(abs(a - b) <= 1e-12 * abs(b) for a, b in zip(ours, theirs)), (solver, name)
        for a_row, b_row in zip(pca.components_, ref.components_.tolist()):
            assert all(abs(a - b) <= 1e-12 * max(map(abs, b_row)) for a, b in zip(a_row, b_row)), solver
        T = ref.transform(np.array(X)).tolist()
        assert all(abs(a - b) <= 1e-12 * 2 for ra, rb in zip(pca.transform(X), T) for a, b in zip(ra, rb))


def test_summary_prints_like_r() -> None:
    text = str(PCA(convention="prcomp").fit(toy_data()).summary())
    assert text == (
        "Importance of components:\n"
        "                          PC1     PC2\n"
        "Standard deviation     1.1331 0.22155\n"
        "Proportion of Variance 0.9632 0.03682\n"
        "Cumulative Proportion  0.9632 1.00000"
    )
