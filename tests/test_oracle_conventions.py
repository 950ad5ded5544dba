"""The oracle on the pipelines people run (issue 21): scikit-learn's PCA of the digits (constant pixels),
StandardScaler + PCA with the divisor given, statsmodels unscaled, a divisor off by exactly n/(n-1); float32;
wide data; Kernel PCA against scikit-learn and kernlab's published numbers (seed 003).

CPython only in effect: everything here needs numpy and scikit-learn and skips without them."""

from __future__ import annotations

import json
import os

import pytest

np = pytest.importorskip("numpy")
sk_decomposition = pytest.importorskip("sklearn.decomposition")

from purepca.cli import main  # noqa: E402
from purepca.datasets import toy_data  # noqa: E402
from purepca.testing import (assert_kernel_pca_close, assert_pca_close, compare_kernel_pca,  # noqa: E402
                             compare_pca, reference)


def _dump(fitted: object, path: str) -> None:
    keys = ("components_", "explained_variance_", "explained_variance_ratio_", "singular_values_", "mean_",
            "noise_variance_")
    with open(path, "w") as f:
        json.dump({k: np.asarray(getattr(fitted, k)).tolist() for k in keys}, f)


def _csv(X: object, path: str) -> None:
    A = np.asarray(X)
    np.savetxt(path, A, delimiter=",", header=",".join(f"c{i}" for i in range(A.shape[1])), comments="")


@pytest.mark.slow
def test_verify_passes_sklearn_on_the_digits_with_constant_pixels(tmp_path: object, capsys: object) -> None:
    datasets = pytest.importorskip("sklearn.datasets")
    X = datasets.load_digits().data
    data, result = os.path.join(str(tmp_path), "d.csv"), os.path.join(str(tmp_path), "r.json")
    _csv(X, data)
    _dump(sk_decomposition.PCA(svd_solver="full").fit(X), result)
    assert main(["verify", "--data", data, "--result", result]) == 0
    # PCA() picks covariance_eigh on these tall data (n >= 10·d): its constant pixels' eigenvalues come out at
    # 1e-15 (eps·λ_1, a formed covariance's error), which is a covariance answer, not an SVD's (c²·λ_1 ~ 1e-26).
    fitted = sk_decomposition.PCA().fit(X)
    _dump(fitted, result)
    assert main(["verify", "--data", data, "--result", result, "--method", "covariance"]) == 0
    if getattr(fitted, "_fit_svd_solver", "") == "covariance_eigh":
        assert main(["verify", "--data", data, "--result", result]) == 1


@pytest.fixture(scope="module")
def Y() -> object:
    rng = np.random.default_rng(0)
    return rng.standard_normal((178, 5)) * [1, 2, 3, 4, 5] + 10


def test_verify_standard_scaler_pipeline_with_its_divisor_and_names_n_over_n_minus_1(Y: object, tmp_path: object,
                                                                                     capsys: object) -> None:
    preprocessing = pytest.importorskip("sklearn.preprocessing")
    pca = sk_decomposition.PCA().fit(preprocessing.StandardScaler().fit_transform(Y))
    data, result = os.path.join(str(tmp_path), "y.csv"), os.path.join(str(tmp_path), "r.json")
    _csv(Y, data)
    _dump(pca, result)
    assert main(["verify", "--data", data, "--result", result, "--scale", "--scale-ddof", "0"]) == 0
    capsys.readouterr()  # type: ignore[attr-defined]
    assert main(["verify", "--data", data, "--result", result, "--scale"]) == 1
    out = capsys.readouterr().out  # type: ignore[attr-defined]
    assert "a mismatch by exactly n/(n-1)" in out and "178/177" in out


def test_verify_statsmodels_unscaled(Y: object, tmp_path: object) -> None:
    sm = pytest.importorskip("statsmodels.multivariate.pca")
    res = sm.PCA(Y, standardize=False, demean=True, normalize=False)
    data, result = os.path.join(str(tmp_path), "y.csv"), os.path.join(str(tmp_path), "r.json")
    _csv(Y, data)
    with open(result, "w") as f:
        json.dump({"explained_variance_": (np.asarray(res.eigenvals) / len(Y)).tolist(),
                   "components_": np.asarray(res.loadings).T.tolist()}, f)
    assert main(["verify", "--data", data, "--result", result, "--convention", "statsmodels", "--unscaled"]) == 0
    assert_pca_close(res, Y, convention="statsmodels", scale=False)


def test_a_divisor_of_n_is_named_in_assert_pca_close(Y: object) -> None:
    fitted = sk_decomposition.PCA(svd_solver="full").fit(Y)
    wrong = {"explained_variance_": fitted.explained_variance_ * (len(Y) - 1) / len(Y),
             "components_": fitted.components_}
    with pytest.raises(AssertionError, match=r"a mismatch by exactly n/\(n-1\).*pass ddof=0"):
        assert_pca_close(wrong, Y)
    assert_pca_close(wrong, Y, ddof=0)


def test_float32_fits_are_compared_at_float32_precision_means_included() -> None:
    rng = np.random.default_rng(3)
    Y32 = (rng.standard_normal((200, 6)) * [1, 2, 3, 4, 5, 6] + 100).astype(np.float32)
    fitted = sk_decomposition.PCA(svd_solver="full").fit(Y32)
    assert fitted.components_.dtype == np.float32
    assert_pca_close(fitted, Y32.astype(np.float64), method="float32", points=Y32[:10].astype(np.float64))
    worse = {"explained_variance_": fitted.explained_variance_ * np.float32(1 + 1e-3)}
    with pytest.raises(AssertionError, match="explained_variance_"):
        assert_pca_close(worse, Y32.astype(np.float64), method="float32")
    # covariance_eigh (what "auto" picks for n >= 10 d) forms XᵀX - n·μμᵀ in float32: 4 digits lost at offset 100.
    cov = sk_decomposition.PCA(svd_solver="covariance_eigh").fit(Y32)
    with pytest.raises(AssertionError, match="explained_variance_"):
        assert_pca_close(cov, Y32.astype(np.float64), method="float32")


def test_float32_is_read_from_every_answer_shape_numpy_tuple_statsmodels_and_r() -> None:
    """numpy's eigh of a float32 covariance, as a (w, v) tuple or its result object, and statsmodels' and R's
    names: each is a float32 answer by its dtype (a held-out matrix found numpy's tuple judged at float64's eps:
    error/allowed 84 to 1.4e7 on correct answers)."""
    rng = np.random.default_rng(5)
    Y32 = (rng.standard_normal((300, 5)) * [5, 4, 3, 2, 1] + 10).astype(np.float32)
    Y = Y32.astype(np.float64).tolist()
    C32 = np.cov(Y32, rowvar=False).astype(np.float32)
    w, v = np.linalg.eigh(C32)
    assert w.dtype == np.float32
    assert_pca_close((w, v), Y, convention="numpy", method="covariance")
    assert_pca_close(np.linalg.eigh(C32), Y, convention="numpy", method="covariance")
    order = np.argsort(w)[::-1]
    sm = {"eigenvals": w[order] * np.float32(len(Y) - 1), "loadings": v[:, order]}
    assert_pca_close(sm, Y, convention="statsmodels", scale=False, method="covariance")
    r = {"sdev": np.sqrt(w[order]), "rotation": v[:, order]}
    assert_pca_close(r, Y, convention="prcomp", method="covariance")
    # The same numbers claimed as float64 are float32's, and named so.
    with pytest.raises(AssertionError, match="float32"):
        assert_pca_close((w.astype(np.float64), v.astype(np.float64)), Y, convention="numpy", method="covariance")


def test_wide_data_null_space_and_exact_zeros() -> None:
    W = np.random.default_rng(0).standard_normal((5, 8))
    assert_pca_close(sk_decomposition.PCA(svd_solver="full").fit(W), W)
    w, v = np.linalg.eigh(np.cov(W, rowvar=False))  # all 8 eigenpairs, 4 of them the null space
    assert_pca_close((w, v), W, convention="numpy", method="covariance")
    checks = compare_pca({"explained_variance_ratio_": [0.0] * 2, "explained_variance_": [0.0] * 2}, [[1.0, 2.0]] * 3
                         + [[1.0, 2.0 + 2.0 ** -40]])
    assert all(c.tolerance == c.tolerance for c in checks)  # never a nan tolerance


def test_values_beyond_the_float_range_and_subnormal_ones() -> None:
    X = [[v * 1e160 for v in row] for row in toy_data()]
    ref = reference(X)
    assert ref.explained_variance_[0] == float("inf")
    assert_pca_close({"explained_variance_": ref.explained_variance_, "components_": ref.components_}, X)
    tiny = [[v * 1e-160 for v in row] for row in toy_data()]
    fitted = sk_decomposition.PCA(svd_solver="full").fit(np.array(tiny))
    assert_pca_close(fitted, tiny)


def test_noise_variance_and_whitened_scores_are_compared() -> None:
    rng = np.random.default_rng(5)
    X = rng.standard_normal((80, 6)) * [5, 4, 3, 1e-4, 1e-4, 1e-4]
    fitted = sk_decomposition.PCA(3, svd_solver="full", whiten=True).fit(X)
    assert_pca_close(fitted, X, points=X[:7])
    bad = {"explained_variance_": fitted.explained_variance_, "components_": fitted.components_,
           "noise_variance_": -1.0e-7}
    with pytest.raises(AssertionError, match="noise_variance_: -1e-07 off by"):
        assert_pca_close(bad, X)


@pytest.mark.slow
def test_kernel_pca_flags_sklearn_rbf_at_an_offset_of_1e6_and_passes_it_at_0() -> None:
    X = np.random.default_rng(0).standard_normal((40, 3))
    for solver in ("dense", "arpack"):
        at0 = sk_decomposition.KernelPCA(3, kernel="rbf", gamma=0.5, eigen_solver=solver, random_state=0).fit(X)
        assert_kernel_pca_close(at0, X, kernel="rbf", gamma=0.5, points=X[:5] + 0.1)
        far = sk_decomposition.KernelPCA(3, kernel="rbf", gamma=0.5, eigen_solver=solver, random_state=0).fit(X + 1e6)
        with pytest.raises(AssertionError, match=r"eigenvalues_\[0\]: .* off by"):
            assert_kernel_pca_close(far, X + 1e6, kernel="rbf", gamma=0.5)


def test_kernel_pca_passes_kernlab_published_numbers_seed_003() -> None:
    T = toy_data()
    means = [sum(c) / len(c) for c in zip(*T)]
    Xc = [[x - m for x, m in zip(row, means)] for row in T]  # seed 003 passes the centred data to kpca
    published = {  # seed 003: pcv(kpc), eig(kpc), rotated(kpc) of kpca(Xc, kernel=vanilladot())
        "eig": [1.15562494, 0.04417506],
        "pcv": [[0.22656759, 1.2535653], [-0.48642101, -1.0226454], [0.27150712, -2.7515536],
                [0.07503555, -0.9335934], [0.45857001, 1.4996976], [0.24982141, -1.2547618],
                [-0.02712053, 2.5042249], [-0.31320326, -0.3322786], [-0.11986791, -0.1271683],
                [-0.33488896, 1.1645133]],
        "rotated": [[2.6182716, 0.55376322], [-5.6212026, -0.45175422], [3.1376040, -1.21550044],
                    [0.8671295, -0.41241542], [5.2993494, 0.66249230], [2.8869986, -0.55429176],
                    [-0.3134116, 1.10624283], [-3.6194550, -0.14678426], [-1.3852235, -0.05617669],
                    [-3.8700604, 0.51442443]],
    }
    assert_kernel_pca_close(published, Xc, kernel="linear", convention="kernlab", rtol=1e-6)
    wrong = dict(published, eig=[1.15562494 * 1.001, 0.04417506])
    assert any(not c.passed for c in compare_kernel_pca(wrong, Xc, kernel="linear", convention="kernlab",
                                                        rtol=1e-6))


def test_scores_of_given_points_nan_and_wrong_ones_flagged() -> None:
    rng = np.random.default_rng(6)
    X = rng.standard_normal((50, 4)) * [4, 3, 2, 1]
    fitted = sk_decomposition.PCA(svd_solver="full").fit(X)
    good = {"components_": fitted.components_, "explained_variance_": fitted.explained_variance_,
            "transform": fitted.transform}
    assert_pca_close(good, X, points=X[:6])
    for broken in (np.where(np.arange(4) == 2, np.nan, 1.0), np.where(np.arange(4) == 1, 1 + 1e-9, 1.0)):
        bad = dict(good, transform=lambda P, b=broken: fitted.transform(P) * b)
        with pytest.raises(AssertionError, match=r"scores\[:, \d\]: row \d+ off by"):
            assert_pca_close(bad, X, points=X[:6])
