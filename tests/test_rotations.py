"""Varimax and promax reproduce R's stats::varimax and stats::promax (issue 11, acceptance 2).

R is not installed here: the reference is a line-by-line numpy transcription of R's source
(``src/library/stats/R/factanal.R``), with LAPACK's SVD and least squares, to 1e-10.
"""

from __future__ import annotations

import random

import pytest

from purepca import PCA, PurePCAError
from purepca.datasets import load
from purepca.rotations import promax, varimax

np = pytest.importorskip("numpy")


def r_varimax(x, normalize=True, eps=1e-5):  # type: ignore[no-untyped-def]
    x = np.array(x, dtype=float)
    nc = x.shape[1]
    if nc < 2:
        return x, np.eye(nc)
    if normalize:
        sc = np.sqrt((x ** 2).sum(axis=1))
        x = x / sc[:, None]
    p = x.shape[0]
    TT = np.eye(nc)
    d = 0.0
    for _ in range(1000):
        z = x @ TT
        B = x.T @ (z ** 3 - z @ np.diag((z ** 2).sum(axis=0)) / p)
        u, s, vt = np.linalg.svd(B)
        TT = u @ vt
        dpast, d = d, s.sum()
        if d < dpast * (1 + eps):
            break
    z = x @ TT
    if normalize:
        z = z * sc[:, None]
    return z, TT


def r_promax(x, m=4):  # type: ignore[no-untyped-def]
    z0, rot = r_varimax(np.array(x, dtype=float))
    Q = z0 * np.abs(z0) ** (m - 1)
    U = np.linalg.lstsq(z0, Q, rcond=None)[0]  # R: lm.fit(x, Q)$coefficients
    d = np.diag(np.linalg.inv(U.T @ U))
    U = U @ np.diag(np.sqrt(d))
    return z0 @ U, rot @ U


def _loadings(name: str, k: int, scale: bool) -> list[list[float]]:
    pca = PCA(k, convention="prcomp", scale=scale).fit(load(name).rows)
    return [[c[j] * s for c, s in zip(pca.components_, pca.sdev)] for j in range(pca.n_features_in_)]


def _random_loadings() -> list[list[float]]:
    rng = random.Random(3)
    return [[rng.uniform(-1, 1) for _ in range(3)] for _ in range(8)]


MATRICES = {
    "usarrests": _loadings("usarrests", 2, True),
    "iris": _loadings("iris", 3, False),
    "random 8 x 3": _random_loadings(),
}


@pytest.mark.parametrize("name", sorted(MATRICES))
@pytest.mark.parametrize("normalize", [True, False])
def test_varimax_equals_r(name: str, normalize: bool) -> None:
    L = MATRICES[name]
    ours = varimax(L, normalize=normalize)
    z, T = r_varimax(L, normalize=normalize)
    assert np.abs(np.array(ours.loadings) - z).max() < 1e-10
    assert np.abs(np.array(ours.rotmat) - T).max() < 1e-10
    # The rotation is orthogonal and the loadings are L times it.
    R = np.array(ours.rotmat)
    assert np.abs(R.T @ R - np.eye(R.shape[0])).max() < 1e-12
    assert np.abs(np.array(L) @ R - np.array(ours.loadings)).max() < 1e-12


@pytest.mark.parametrize("name", sorted(MATRICES))
@pytest.mark.parametrize("m", [4, 3])
def test_promax_equals_r(name: str, m: int) -> None:
    L = MATRICES[name]
    ours = promax(L, m=m)
    z, U = r_promax(L, m=m)
    assert np.abs(np.array(ours.loadings) - z).max() < 1e-10
    assert np.abs(np.array(ours.rotmat) - U).max() < 1e-10


def test_a_fitted_pca_gives_rotated_loadings() -> None:
    pca = PCA(2, convention="prcomp", scale=True).fit(load("usarrests").rows)
    z, _ = r_varimax(MATRICES["usarrests"])
    assert np.abs(np.array(pca.rotated_loadings().loadings) - z).max() < 1e-10
    assert np.abs(np.array(pca.rotated_loadings("promax").loadings) - r_promax(MATRICES["usarrests"])[0]).max() < 1e-10
    with pytest.raises(PurePCAError, match="method must be 'varimax' or 'promax'"):
        pca.rotated_loadings("quartimax")


def test_edge_cases() -> None:
    assert varimax([[0.5], [0.7]]).loadings == [[0.5], [0.7]]  # one column: as R, unrotated
    with pytest.raises(PurePCAError, match="a row of the loadings is zero"):
        varimax([[0.0, 0.0], [0.5, 0.2], [0.1, 0.9]])
    with pytest.raises(PurePCAError, match="m must be"):
        promax([[0.5, 0.1], [0.1, 0.5]], m=0)
    with pytest.raises(PurePCAError, match="loadings"):
        varimax([[0.5, "x"]])
