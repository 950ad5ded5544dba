"""KernelPCA: seed 003's kernlab output, equality with PCA, worst cases and errors."""

from __future__ import annotations

import math
import random
import warnings

import pytest

from purepca import PCA, DegenerateEigenvalueWarning, KernelPCA, NonPSDKernelWarning, NotFittedError, PurePCAError, center_kernel, kernel_matrix
from purepca.datasets import toy_data
from purepca.kernels import center_test_kernel

# kernlab's kpca(Xc, kernel=vanilladot()) on seed 003's toy data, as printed.
EIG = ["1.15562494", "0.04417506"]
PCV = [
    [0.22656759, 1.2535653], [-0.48642101, -1.0226454], [0.27150712, -2.7515536], [0.07503555, -0.9335934],
    [0.45857001, 1.4996976], [0.24982141, -1.2547618], [-0.02712053, 2.5042249], [-0.31320326, -0.3322786],
    [-0.11986791, -0.1271683], [-0.33488896, 1.1645133],
]
ROTATED = [
    [2.6182716, 0.55376322], [-5.6212026, -0.45175422], [3.1376040, -1.21550044], [0.8671295, -0.41241542],
    [5.2993494, 0.66249230], [2.8869986, -0.55429176], [-0.3134116, 1.10624283], [-3.6194550, -0.14678426],
    [-1.3852235, -0.05617669], [-3.8700604, 0.51442443],
]


def digits_after_point(x: float) -> int:
    text = repr(x)
    return len(text.split(".")[1]) if "." in text else 0


def matches_printed_table(got: list[list[float]], printed: list[list[float]]) -> list[float]:
    """Compare column by column, as printed (same decimals), up to the sign of
    each column; returns the sign found for each column."""
    signs = []
    for j in range(len(printed[0])):
        col = [row[j] for row in got]
        want = [row[j] for row in printed]
        s = 1.0 if col[0] * want[0] > 0 else -1.0
        for a, b in zip(col, want):
            places = digits_after_point(b)
            assert f"{s * a:.{places}f}" == f"{b:.{places}f}", (j, a, b)
        signs.append(s)
    return signs


def test_kernlab_convention_reproduces_seed_003() -> None:
    X = toy_data()
    kp = KernelPCA(convention="kernlab").fit(X)
    assert [f"{v:.8f}" for v in kp.eig] == EIG
    assert [f"{v:.8f}" for v in kp.eigenvalues_] == EIG
    pcv_signs = matches_printed_table(kp.pcv, PCV)
    rotated_signs = matches_printed_table(kp.rotated, ROTATED)
    # The sign of each column is free (kernlab keeps LAPACK's, purepca's "none"
    # keeps Jacobi's), but pcv and rotated agree with each other.
    assert pcv_signs == rotated_signs
    # predict() on the training points is rotated.
    assert matches_printed_table(kp.transform(X), ROTATED) == rotated_signs
    # The same fit from a centred copy, as the seed ran it (kpca(Xc, ...)).
    mean = [sum(c) / len(c) for c in zip(*X)]
    Xc = [[x - m for x, m in zip(row, mean)] for row in X]
    assert [f"{v:.8f}" for v in KernelPCA(convention="kernlab").fit(Xc).eig] == EIG


def test_kernlab_scores_are_sqrt_n_times_sklearn_scores() -> None:
    X = toy_data()
    a = KernelPCA(convention="kernlab", sign="max_abs_positive").fit_transform(X)
    b = KernelPCA(convention="sklearn").fit_transform(X)
    n = len(X)
    assert all(abs(x - math.sqrt(n) * y) < 1e-13 for r, s in zip(a, b) for x, y in zip(r, s))


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize("sign", ["max_abs_positive", "first_positive", "sum_positive"])
def test_linear_kernel_pca_equals_pca_signs_included(seed: int, sign: str) -> None:
    rng = random.Random(seed)
    n, d = rng.randint(4, 30), rng.randint(2, 6)
    spreads = [rng.uniform(0.5, 4.0) * (j + 1) for j in range(d)]
    X = [[rng.gauss(0, s) + 3.0 for s in spreads] for _ in range(n)]
    k = min(n - 1, d)  # the centred data have rank <= n - 1
    pca = PCA(k, sign=sign).fit(X)
    kp = KernelPCA(k, sign=sign).fit(X)
    values = pca.explained_variance_
    new = [[x + 0.25 for x in row] for row in X[:4]]
    for P, Q in ((pca.x, kp.fit_transform(X)), (pca.transform(new), kp.transform(new))):
        scale = max(abs(v) for row in P for v in row)
        for i in range(k):
            gaps = [abs(values[i] - values[j]) for j in (i - 1, i + 1) if 0 <= j < k]
            if values[i] < 1e-8 * values[0] or any(g < 1e-6 * values[0] for g in gaps):
                continue
            assert all(abs(p[i] - q[i]) <= 1e-12 * scale for p, q in zip(P, Q)), (i, sign)


# -------------------------------------------------------------- non-linear


def circles(n: int, seed: int) -> tuple[list[list[float]], list[int]]:
    """scikit-learn's make_circles, written out: an inner ring (radius 0.3)
    and an outer ring (radius 1), with a little noise."""
    rng = random.Random(seed)
    X, ring = [], []
    for i in range(n):
        outer = i % 2
        t = 2 * math.pi * rng.random()
        r = 1.0 if outer else 0.3
        X.append([r * math.cos(t) + rng.gauss(0, 0.05), r * math.sin(t) + rng.gauss(0, 0.05)])
        ring.append(outer)
    return X, ring


@pytest.mark.parametrize("seed", range(3))
def test_rbf_kernel_separates_concentric_circles(seed: int) -> None:
    # gamma = 5 (scikit-learn's example uses 10 on 1,000 points; on 160 points
    # its top two eigenvalues nearly tie and the first component is not the
    # radial one, so the test would measure luck).
    X, ring = circles(160, seed=seed)
    kp = KernelPCA(2, kernel="rbf", gamma=5.0)
    Z = kp.fit_transform(X)
    assert kp._solver == "krylov"  # auto: 2 components of a 160 x 160 kernel
    inner = [z[0] for z, r in zip(Z, ring) if r == 0]
    outer = [z[0] for z, r in zip(Z, ring) if r == 1]
    assert max(inner) < min(outer) or max(outer) < min(inner)
    # Linear PCA cannot: the rings overlap on every linear direction.
    L = PCA(1).fit_transform(X)
    li = [z[0] for z, r in zip(L, ring) if r == 0]
    lo = [z[0] for z, r in zip(L, ring) if r == 1]
    assert not (max(li) < min(lo) or max(lo) < min(li))


# ------------------------------------------------------------- worst cases


def finite(rows: list[list[float]]) -> bool:
    return all(math.isfinite(v) for row in rows for v in row)


def test_duplicate_rows_and_two_samples() -> None:
    X = [[1.0, 2.0], [1.0, 2.0], [3.0, 1.0], [3.0, 1.0]]
    kp = KernelPCA(kernel="rbf", gamma=0.5).fit(X)
    assert kp.n_components_ == 1  # one non-zero direction: the two distinct points
    assert finite(kp.transform(X)) and finite(kp.transform([[0.0, 0.0]]))
    two = KernelPCA().fit([[0.0, 0.0], [1.0, 1.0]])
    assert two.n_components_ == 1 and finite(two.transform([[5.0, -5.0]]))
    # Equal rows: a zero spectrum, no component (scikit-learn's test_remove_zero_eig).
    same = KernelPCA().fit([[1.0, 1.0], [1.0, 1.0]])
    assert same.n_components_ == 0 and same.transform([[3.0, 0.0]]) == [[]]
    assert KernelPCA(2).fit([[1.0, 1.0], [1.0, 1.0]]).transform([[3.0, 0.0]]) == [[0.0, 0.0]]
    with pytest.raises(PurePCAError, match=r"not positive semidefinite"):
        KernelPCA(kernel="precomputed").fit([[-1.0, 0.0], [0.0, -3.0]])


def test_rank_one_kernel_and_zero_eigenvalues_give_no_inf_or_nan() -> None:
    X = [[0.0], [1.0], [2.0], [4.0]]  # linear kernel of 1-D data: rank one
    kp = KernelPCA(3).fit(X)
    assert kp.n_components_ == 3 and kp.eigenvalues_[1:] == [0.0, 0.0]
    Z = kp.transform([[3.0], [-1.0]])
    assert finite(Z) and all(row[1] == 0.0 and row[2] == 0.0 for row in Z)
    assert KernelPCA(3, remove_zero_eig=True).fit(X).n_components_ == 1
    assert KernelPCA().fit(X).n_components_ == 1


def test_non_psd_precomputed_kernel() -> None:
    # Centred, this kernel has eigenvalues 2.61, 1.39, 0 and -2.5.
    K = [[2.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 0.5, 3.0], [0.0, 0.0, 3.0, 0.5]]
    with pytest.raises(PurePCAError, match=r"not positive semidefinite: 1 of the 4 components asked for have significantly negative eigenvalues \(smallest -2.500e\+00"):
        KernelPCA(kernel="precomputed").fit(K)
    with pytest.warns(NonPSDKernelWarning, match=r"they are dropped"):
        kp = KernelPCA(kernel="precomputed", negative="drop").fit(K)
    assert kp.n_components_ == 2 and all(v > 0 for v in kp.eigenvalues_)
    assert finite(kp.transform(K))
    assert kp.negative_eigenvalues_ == [pytest.approx(-2.5, rel=1e-14)]
    with pytest.warns(NonPSDKernelWarning, match=r"none of them is among the kept components"):
        two = KernelPCA(2, kernel="precomputed").fit(K)
    assert two.negative_eigenvalues_ == [pytest.approx(-2.5, rel=1e-14)] and two.n_components_ == 2


def test_precomputed_kernel_matches_the_kernel_it_was_computed_from() -> None:
    X, _ = circles(30, seed=1)
    K = kernel_matrix(X, kernel="rbf", gamma=2.0)
    a = KernelPCA(3, kernel="rbf", gamma=2.0).fit(X)
    b = KernelPCA(3, kernel="precomputed").fit(K)
    assert a.eigenvalues_ == b.eigenvalues_
    new = [[0.1, 0.2], [0.5, -0.4]]
    Kt = kernel_matrix(new, X, kernel="rbf", gamma=2.0)
    assert a.transform(new) == b.transform(Kt)


def test_centring_formulas() -> None:
    X = [[1.0, 2.0], [0.0, 1.0], [3.0, -1.0], [2.0, 2.0]]
    K = kernel_matrix(X, kernel="poly", degree=2, gamma=0.5)
    Kc, stats = center_kernel(K)
    n = len(K)
    # K̃ = S·K·S with S = I - 1/n (seed 003), computed directly.
    S = [[(1.0 if i == j else 0.0) - 1.0 / n for j in range(n)] for i in range(n)]
    SK = [[math.fsum(S[i][k] * K[k][j] for k in range(n)) for j in range(n)] for i in range(n)]
    SKS = [[math.fsum(SK[i][k] * S[k][j] for k in range(n)) for j in range(n)] for i in range(n)]
    assert all(abs(a - b) < 1e-13 for r, s in zip(Kc, SKS) for a, b in zip(r, s))
    assert center_test_kernel(K, stats) == Kc
    assert K == kernel_matrix(X, kernel="poly", degree=2, gamma=0.5)  # not overwritten


def test_fit_never_mutates_input_and_fit_transform_equals_transform() -> None:
    X, _ = circles(20, seed=2)
    before = [row[:] for row in X]
    kp = KernelPCA(4, kernel="rbf", gamma=1.0, fit_inverse_transform=True)
    Z = kp.fit_transform(X)
    assert X == before
    assert Z == kp.transform(X)
    assert KernelPCA(4, kernel="rbf", gamma=1.0).fit_transform(row for row in X) == Z  # a generator, read once


def test_precision_mode_agrees_with_floats() -> None:
    X = toy_data()
    a = KernelPCA(convention="kernlab", precision=40).fit(X)
    b = KernelPCA(convention="kernlab").fit(X)
    assert all(abs(x - y) < 1e-14 for x, y in zip(a.eig, b.eig))
    assert a.high_precision_ is not None


# ------------------------------------------------------------------ errors


@pytest.mark.parametrize(
    "params, X, message",
    [
        ({"kernel": "precomputed"}, [[1.0, 2.0, 3.0], [2.0, 1.0, 0.0]], r"K must be square, got 2 rows and 3 columns"),
        # (Every 2 x 2 kernel is symmetric once centred, and scikit-learn accepts it: see test_kernel_pca_sklearn.)
        ({"kernel": "precomputed"}, [[1.0, 2.0, 0.0], [0.5, 1.0, 0.0], [0.0, 0.0, 1.0]],
         r"K is not symmetric: K\[0\]\[1\] = 2.0 but K\[1\]\[0\] = 0.5"),
        ({"kernel": "rbf", "gamma": 0.0}, [[1.0], [2.0]], r"gamma must be a positive finite number"),
        ({"kernel": "rbf", "gamma": -1.0}, [[1.0], [2.0]], r"gamma must be a positive finite number"),
        ({"kernel": "poly", "degree": 2.5}, [[1.0], [2.0]], r"degree must be a positive int, got 2.5"),
        ({"kernel": "spline"}, [[1.0], [2.0]], r"kernel must be one of 'linear', 'poly', 'rbf'"),
        ({"n_components": 3}, [[1.0], [2.0]], r"n_components=3 must be at most n_samples = 2"),
        ({"n_components": 0}, [[1.0], [2.0]], r"n_components must be None or an int >= 1, got 0"),
        ({"convention": "R"}, [[1.0], [2.0]], r"convention must be 'sklearn' or 'kernlab'; got 'R'"),
        ({"alpha": -1.0}, [[1.0], [2.0]], r"alpha must be a finite real number >= 0.0"),
        ({"kernel": "precomputed", "fit_inverse_transform": True}, [[1.0]], r"Cannot fit_inverse_transform with a precomputed kernel"),
        ({}, [[1.0, float("inf")], [2.0, 1.0]], r"X: row 0, column 1 is infinite"),
    ],
)
def test_kernel_pca_rejects_bad_input(params: dict, X: list, message: str) -> None:
    with pytest.raises(PurePCAError, match=message):
        KernelPCA(**params).fit(X)


def test_transform_checks_shapes_and_fitting() -> None:
    with pytest.raises(NotFittedError, match=r"this KernelPCA is not fitted yet"):
        KernelPCA().transform([[1.0]])
    K = kernel_matrix([[0.0], [1.0], [3.0]])
    kp = KernelPCA(kernel="precomputed").fit(K)
    with pytest.raises(PurePCAError, match=r"a precomputed test kernel needs one column per training sample \(3\); got 2"):
        kp.transform([[1.0, 2.0]])
    lin = KernelPCA().fit([[0.0, 1.0], [1.0, 0.0], [2.0, 2.0]])
    with pytest.raises(PurePCAError, match=r"X has 1 features, but KernelPCA is expecting 2 features as input"):
        lin.transform([[1.0]])
    with pytest.raises(NotFittedError, match=r"inverse_transform needs KernelPCA\(fit_inverse_transform=True\)"):
        lin.inverse_transform([[1.0, 2.0]])


def test_kernels_near_overflow() -> None:
    X = [[1e160 * a, 1e160 * b] for a, b in [(1, 2), (2, 3.5), (3, 1), (0.5, 0.2)]]
    with pytest.raises(PurePCAError, match=r"the kernel value k\(X\[0\], X\[0\]\) = inf overflows a float; scale the data down"):
        KernelPCA().fit(X)
    # Distances that overflow give rbf values of 0, not an error; cosines never overflow.
    with pytest.warns(DegenerateEigenvalueWarning, match="eigenvalues 1 and 2 .* equal"):  # every rbf value 0 but k(x, x)
        assert KernelPCA(kernel="rbf").fit(X).n_components_ == 3
    small = [[a, b] for a, b in [(1, 2), (2, 3.5), (3, 1), (0.5, 0.2)]]
    big = KernelPCA(kernel="cosine").fit(X).eigenvalues_
    assert all(abs(a - b) < 1e-14 for a, b in zip(big, KernelPCA(kernel="cosine").fit(small).eigenvalues_))


def test_callable_kernel() -> None:
    def k(x: list[float], y: list[float]) -> float:
        return sum(a * b for a, b in zip(x, y))

    X = [[0.0, 1.0], [1.0, 0.0], [2.0, 2.0], [3.0, 1.0]]
    a = KernelPCA(2, kernel=k).fit(X)
    b = KernelPCA(2, kernel="linear").fit(X)
    assert all(abs(x - y) < 1e-13 for x, y in zip(a.eigenvalues_, b.eigenvalues_))
    with pytest.raises(PurePCAError, match=r"the kernel callable returned nan"):
        KernelPCA(kernel=lambda x, y: float("nan")).fit(X)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        KernelPCA(2, kernel=k).fit(X)  # a PSD callable raises no warning


def test_high_precision_has_the_shapes_of_the_float_attributes() -> None:
    # issue 8: high_precision_["eigenvectors_"] was k x n where eigenvectors_ is n x k
    X = [[0.0, 1.0], [1.0, 0.5], [2.0, 2.5], [3.0, 1.0], [0.5, 0.0]]
    kp = KernelPCA(2, kernel="rbf", gamma=0.5, precision=30).fit(X)
    hp = kp.high_precision_
    assert hp is not None
    assert len(hp["eigenvectors_"]) == len(kp.eigenvectors_) == 5
    assert all(len(row) == 2 for row in hp["eigenvectors_"])
    assert all(abs(float(a) - b) < 1e-15 for r, s in zip(hp["eigenvectors_"], kp.eigenvectors_) for a, b in zip(r, s))
    assert [float(v) for v in hp["eigenvalues_"]] == kp.eigenvalues_



# ---------------------------------------------------------------- speed paths (issue 24)


@pytest.mark.parametrize("kernel", ["rbf", "linear", "poly", "sigmoid", "laplacian", "cosine"])
def test_kernel_matrix_rows_have_the_bits_of_the_kernel_function(kernel: str) -> None:
    """The row-at-a-time kernel (math.dist / dot products in C loops, one triangle mirrored, rows packed
    as arrays for the fit) gives every entry exactly as k(x, y) on the pair does."""
    from purepca import FLOAT
    from purepca.kernels import _kernel_matrix, kernel_function

    rng = random.Random(24)
    X = [[rng.uniform(-2, 2) for _ in range(5)] for _ in range(23)]
    Y = [[rng.uniform(-2, 2) for _ in range(5)] for _ in range(7)]
    k = kernel_function(kernel, 5, gamma=0.3, degree=3, coef0=0.5)
    want = [[k(x, y) for y in X] for x in X]
    for packed in (False, True):
        K = _kernel_matrix(X, None, kernel, 0.3, 3, 0.5, FLOAT, packed=packed)
        assert [list(row) for row in K] == want
    assert _kernel_matrix(Y, X, kernel, 0.3, 3, 0.5, FLOAT) == [[k(y, x) for x in X] for y in Y]


@pytest.mark.slow
@pytest.mark.parametrize("list_entries", [0, 150 * 40, 10**9])  # rows as arrays, mixed, lists
def test_fit_transform_reuses_the_centred_kernel_bit_for_bit_and_reports_progress(
    list_entries: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    from purepca import kernels

    monkeypatch.setattr(kernels, "LIST_ENTRIES", list_entries)
    rng = random.Random(7)
    X = [[rng.gauss(0, 1) for _ in range(4)] for _ in range(150)]
    calls: list[tuple[str, int, int]] = []
    kp = KernelPCA(3, kernel="rbf", gamma=0.2, eigen_solver="krylov")
    Z = kp.fit_transform(X, progress=lambda *a: calls.append(a))
    assert Z == kp.transform(X)
    # Progress changes nothing.
    assert Z == KernelPCA(3, kernel="rbf", gamma=0.2, eigen_solver="krylov").fit_transform(X)
    assert [c for c in calls if c[0] == "kernel matrix"] == [("kernel matrix", 64 * 236, 150 * 150),
                                                             ("kernel matrix", 128 * 172, 150 * 150)]
    assert calls[-2:] == [("eigenvectors", 0, 1), ("eigenvectors", 1, 1)]
    kp_lists = KernelPCA(3, kernel="rbf", gamma=0.2, eigen_solver="krylov")
    monkeypatch.setattr(kernels, "LIST_ENTRIES", 10**9)
    assert kp_lists.fit_transform(X) == Z and kp_lists.eigenvalues_ == kp.eigenvalues_  # the same bits


def test_terminal_progress_only_on_a_terminal_and_erased_at_the_end() -> None:
    import io

    from purepca.cli import TerminalProgress, terminal_progress

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    with terminal_progress(io.StringIO()) as progress:
        assert progress is None  # a pipe or a file: nothing
    screen = Terminal()
    with terminal_progress(screen) as progress:
        assert isinstance(progress, TerminalProgress)
        progress.delay = 0.0
        progress("kernel matrix", 10, 100)
        progress.last = -math.inf  # past the 0.1 s between two lines
        progress("eigenvectors", 0, 1)
    text = screen.getvalue()
    assert "purepca: kernel matrix 10 %" in text and "purepca: eigenvectors ..." in text
    assert text.endswith("\r") and text.split("\r")[-2].strip() == ""  # the line is erased
