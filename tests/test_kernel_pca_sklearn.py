"""KernelPCA against scikit-learn's KernelPCA: 100 random data sets per kernel.

Signs: scikit-learn makes the largest |entry| of each eigenvector u positive;
purepca does the same for every kernel except the linear one, where it applies
the rule to the feature-space axis Xcᵀu so that KernelPCA equals PCA.  So the
linear kernel is compared up to the sign of each component, the others with
signs included (except where u's two largest |entries| tie).
"""

from __future__ import annotations

import random
import warnings

import pytest

np = pytest.importorskip("numpy")
skd = pytest.importorskip("sklearn.decomposition")

from helpers import reliable  # noqa: E402

from purepca import KernelPCA, NonPSDKernelWarning, PurePCAError  # noqa: E402

KERNELS = {
    "linear": {},
    # gamma 0.1: with 0.5 the kernel of the scores reaches 1e7 and the ridge
    # system of the pre-image map has a condition number near 1e8, so two
    # correct solvers differ at 1e-8 there (measured: 2e-8 at alpha 0.1).
    "poly": {"degree": 3, "gamma": 0.1, "coef0": 1.0},
    "rbf": {"gamma": 0.7},
    "sigmoid": {"gamma": 0.05, "coef0": 0.2},
    "cosine": {},
}


def data(seed: int) -> tuple[list[list[float]], list[list[float]]]:
    rng = random.Random(seed)
    n, d = rng.randint(6, 24), rng.randint(2, 5)
    scales = [rng.uniform(0.3, 2.0) for _ in range(d)]
    X = [[rng.gauss(0, s) + 0.5 for s in scales] for _ in range(n)]
    new = [[rng.gauss(0, s) + 0.5 for s in scales] for _ in range(3)]
    return X, new


def tie(u: list[float]) -> bool:
    mags = sorted((abs(x) for x in u), reverse=True)
    return len(mags) > 1 and mags[0] - mags[1] <= 1e-9 * mags[0]


@pytest.mark.parametrize("seed", range(100))
@pytest.mark.parametrize("kernel", list(KERNELS))
def test_kernel_pca_agrees_with_scikit_learn(kernel: str, seed: int) -> None:
    X, new = data(seed)
    params = KERNELS[kernel]
    k = min(3, len(X) - 1)
    ref = skd.KernelPCA(k, kernel=kernel, eigen_solver="dense", fit_inverse_transform=True, alpha=1.0, **params)
    ref.fit(np.array(X))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NonPSDKernelWarning)  # sigmoid: negative eigenvalues beyond the top k
        ours = KernelPCA(k, kernel=kernel, fit_inverse_transform=True, alpha=1.0, **params).fit(X)
    values = ref.eigenvalues_.tolist()
    assert len(ours.eigenvalues_) == len(values)
    assert all(abs(a - b) <= 1e-9 * values[0] for a, b in zip(ours.eigenvalues_, values))
    T = ref.transform(np.array(new)).tolist()
    Z = ours.transform(new)
    scale = max(abs(v) for row in T for v in row)
    U = ref.eigenvectors_.T.tolist()
    for i in range(k):
        if not reliable(values, i):
            continue
        mine = [row[i] for row in Z]
        theirs = [row[i] for row in T]
        if kernel == "linear" or tie(U[i]):
            s = 1.0 if sum(a * b for a, b in zip(mine, theirs)) >= 0 else -1.0
        else:
            s = 1.0
        assert all(abs(s * a - b) <= 1e-9 * scale for a, b in zip(mine, theirs)), (kernel, i)
    # The pre-image map (kernel ridge regression with the same alpha) is
    # invariant to the signs of the components.
    back = ours.inverse_transform(Z)
    ref_back = ref.inverse_transform(np.array(T)).tolist()
    big = max(abs(v) for row in ref_back for v in row)
    assert all(abs(a - b) <= 1e-8 * big for r, s in zip(back, ref_back) for a, b in zip(r, s)), kernel


@pytest.mark.parametrize("seed", range(10))
def test_pre_image_with_default_gamma_matches_scikit_learn(seed):
    # gamma=None: 1/n_features for the kernel on X and for the pre-image
    # kernel on the scores (scikit-learn >= 1.3, PR #26337); before the fix
    # the latter used 1/n_components and differed by about 0.07.
    X, Y = data(seed)
    ours = KernelPCA(2, kernel="rbf", fit_inverse_transform=True, alpha=0.1).fit(X)
    theirs = skd.KernelPCA(2, kernel="rbf", fit_inverse_transform=True, alpha=0.1).fit(np.array(X))
    Z = ours.transform(Y)
    back = np.array(ours.inverse_transform(Z))
    expected = theirs.inverse_transform(np.array(Z))
    assert np.max(np.abs(back - expected)) < 1e-9 * max(1.0, np.max(np.abs(expected)))


@pytest.mark.parametrize("solver", ["auto", "jacobi", "tridiagonal", "krylov", "power"])
def test_kernel_pca_precomputed_non_symmetric_as_scikit_learn(solver):
    # scikit-learn's test_kernel_pca_precomputed_non_symmetric: a kernel matrix that is not symmetric but
    # whose centred form is gives the same model as that centred form.
    K = [[1, 2], [3, 40]]
    Kc = [[9, -9], [-9, 9]]
    a = KernelPCA(1, kernel="precomputed", eigen_solver=solver).fit(K)
    b = KernelPCA(1, kernel="precomputed", eigen_solver=solver).fit(Kc)
    assert a.eigenvalues_ == b.eigenvalues_ == [18.0]
    assert a.eigenvectors_ == b.eigenvectors_
    assert a.gamma_ == 0.5  # 1/n_features of the matrix fit was given, as scikit-learn
    with pytest.raises(PurePCAError, match=r"K is not symmetric: K\[0\]\[1\] = 1.0 but K\[1\]\[0\] = 0.0, and its centred form"):
        KernelPCA(1, kernel="precomputed").fit([[0, 1, 0], [0, 0, 0], [0, 0, 0]])


def test_kernel_pca_precomputed_non_symmetric_agrees_with_scikit_learn_on_new_rows():
    sk = pytest.importorskip("sklearn.decomposition")
    import numpy as np

    rng = np.random.default_rng(3)
    X = rng.standard_normal((12, 3))
    K = X @ X.T + 1.0
    # Make K non-symmetric without changing its centred form: add a row constant and a column constant.
    Kn = K + rng.standard_normal((12, 1)) + rng.standard_normal((1, 12))
    ours = KernelPCA(3, kernel="precomputed").fit(Kn.tolist())
    theirs = sk.KernelPCA(3, kernel="precomputed", eigen_solver="dense").fit(Kn)
    assert np.allclose(ours.eigenvalues_, theirs.eigenvalues_, rtol=1e-12)
    ref = np.abs(theirs.eigenvectors_)
    assert np.allclose(np.abs(np.array(ours.eigenvectors_)), ref, atol=1e-12)
