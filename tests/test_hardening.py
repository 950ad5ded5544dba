"""Defects an adversarial battery found (issue 9): each test failed before its fix."""

from __future__ import annotations

import copy
import math
import multiprocessing
import pickle
import random
from decimal import Decimal

import pytest

from purepca import FLOAT, KernelPCA, Moments, PCA, PurePCAError, covariance_matrix, jacobi_eigh
from purepca import lanczos, power_iteration, subspace_iteration
from purepca.params import as_int, as_real

DATA = [[1.0, 2.0, 0.5], [3.0, 5.0, -1.0], [0.0, 1.0, 2.0], [2.0, 2.0, 1.0], [4.0, -1.0, 0.0]]


# ------------------------------------------------ state across processes (item 5)


def test_float_context_survives_pickle_and_deepcopy():
    assert pickle.loads(pickle.dumps(FLOAT)) is FLOAT
    assert copy.deepcopy(FLOAT) is FLOAT
    assert copy.copy(FLOAT) is FLOAT


@pytest.mark.parametrize("trip", [lambda m: pickle.loads(pickle.dumps(m)), copy.deepcopy])
def test_moments_merge_after_a_round_trip(trip):
    a, b = Moments(), Moments()
    a.update_many(DATA[:3])
    b.update_many(DATA[3:])
    whole = Moments()
    whole.update_many(DATA)
    a.merge(trip(b))
    assert a.n == whole.n
    assert max(abs(x - y) for x, y in zip(a.mean, whole.mean)) < 1e-15
    C, W = a.covariance(), whole.covariance()
    assert max(abs(x - y) for r, s in zip(C, W) for x, y in zip(r, s)) < 1e-14


def test_partial_fit_continues_after_a_round_trip():
    for trip in (lambda m: pickle.loads(pickle.dumps(m)), copy.deepcopy):
        p = PCA().partial_fit(DATA[:3])
        q = trip(p).partial_fit(DATA[3:])
        full = PCA().fit(DATA)
        assert q.n_samples_ == 5
        assert max(abs(x - y) for x, y in zip(q.explained_variance_, full.explained_variance_)) < 1e-12


def _moments_of(rows):
    m = Moments()
    m.update_many(rows)
    return m


@pytest.mark.slow
def test_moments_from_four_worker_processes_merge_to_the_one_process_result():
    rng = random.Random(9)
    rows = [[rng.gauss(1e6, 1.0), rng.gauss(0.0, 1e-3), rng.gauss(5.0, 2.0)] for _ in range(400)]
    chunks = [rows[i::4] for i in range(4)]
    try:
        ctx = multiprocessing.get_context("spawn")
        with ctx.Pool(4) as pool:
            parts = pool.map(_moments_of, chunks)
    except (OSError, NotImplementedError) as err:  # pragma: no cover - sandboxes without processes
        pytest.skip(f"processes cannot start here: {err}")
    merged = parts[0]
    for part in parts[1:]:
        merged.merge(part)
    one = _moments_of(rows)
    C, W = merged.covariance(), one.covariance()
    for i in range(3):
        for j in range(3):
            assert abs(C[i][j] - W[i][j]) <= 1e-13 * (W[i][i] * W[j][j]) ** 0.5
        assert abs(merged.mean[i] - one.mean[i]) <= 1e-13 * abs(one.mean[i])


# --------------------------------------------------- inputs (items 3 and 4)


@pytest.mark.parametrize(
    "X, message",
    [
        ([{5, 1}, {2, 8}, {9, 4}], "row 0 is a set, whose order is not the order of columns"),
        ([{"a": 1, "b": 2}, {"a": 2, "b": 1}], "row 0 is a dict"),
        ({(1.0, 2.0), (3.0, 4.0)}, "got a set, whose order is not the order of rows"),
        ([[Decimal("1e400"), 2], [3, 4]], r"row 0, column 0 \(Decimal\('1E\+400'\)\) is too large for a float"),
        ([[1, 2], [3, 4], [5, Decimal("-1e999")]], r"row 2, column 1 .* is too large for a float"),
    ],
)
def test_unordered_rows_and_decimals_beyond_floats_are_refused(X, message):
    with pytest.raises(PurePCAError, match=message):
        covariance_matrix(X)
    with pytest.raises(PurePCAError, match=message):
        PCA().fit(X)


def test_decimals_beyond_floats_are_fine_at_high_precision():
    C = covariance_matrix([[Decimal("1e400"), 2], [Decimal("-1e400"), 4]], context=__import__("purepca").DecimalContext(30))
    assert C[1][1] == 2


# ------------------------------------------------------- parameters (items 6, 8)


def test_numpy_scalars_are_accepted_as_parameters():
    np = pytest.importorskip("numpy")
    a = PCA(2, solver="power", seed=np.int64(3)).fit(DATA)
    b = PCA(2, solver="power", seed=3).fit(DATA)
    assert a.components_ == b.components_
    k = KernelPCA(2, kernel="rbf", gamma=np.float64(0.5), seed=np.int64(1)).fit(DATA)
    assert k.n_components_ == 2
    assert jacobi_eigh([[2.0, 1.0], [1.0, 2.0]], max_sweeps=np.int32(10), tol=np.float64(1e-16)).values[0] == pytest.approx(3.0)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: jacobi_eigh([[1.0, 2.0], [3.0, 1.0]], symmetry_rtol=float("nan")), "symmetry_rtol must be a finite real number >= 0.0, got nan"),
        (lambda: jacobi_eigh([[1.0, 1.0], [1.0, 1.0]], symmetry_rtol=-1), "symmetry_rtol must be a finite real number >= 0.0, got -1"),
        (lambda: jacobi_eigh([[1.0, 1.0], [1.0, 1.0]], tol=-1), "tol must be a finite real number > 0.0, got -1"),
        (lambda: jacobi_eigh([[1.0, 1.0], [1.0, 1.0]], tol="a"), "tol must be a finite real number > 0.0, got 'a'"),
        (lambda: jacobi_eigh([[1.0]], tol=Decimal("sNaN")), r"tol must be a finite real number > 0.0, got Decimal\('sNaN'\)"),
        (lambda: jacobi_eigh([[1.0]], max_sweeps=True), "max_sweeps must be a positive int, got True"),
        (lambda: jacobi_eigh([[1.0]], context=None), "context must be a number context"),
        (lambda: covariance_matrix([[1.0]], context="float"), "context must be a number context"),
        (lambda: subspace_iteration([[1.0, 0.0], [0.0, 2.0]], k=1, tol="a"), "tol must be a finite real number > 0.0, got 'a'"),
        (lambda: subspace_iteration([[1.0, 0.0], [0.0, 2.0]], k=1, seed=[1]), r"seed must be an int, got \[1\]"),
        (lambda: power_iteration([[1.0, 0.0], [0.0, 2.0]], k=1, seed=1.5), "seed must be an int, got 1.5"),
        (lambda: lanczos([[1.0, 0.0], [0.0, 2.0]], k=1, seed="x"), "seed must be an int, got 'x'"),
        (lambda: KernelPCA(seed=None).fit(DATA), "seed must be an int, got None"),
        (lambda: PCA(seed=2.0).fit(DATA), "seed must be an int, got 2.0"),
    ],
)
def test_bad_parameters_get_a_clear_error(call, message):
    with pytest.raises(PurePCAError, match=message):
        call()


def test_the_conversion_routine():
    assert as_int(7, "k", low=1, high=9) == 7
    assert type(as_int(True + 0, "k")) is int
    assert as_real(3, "gamma") == 3.0 and type(as_real(3, "gamma")) is float
    for bad in (True, 1.0, "1", None, [1], {1}):
        with pytest.raises(PurePCAError, match="k must be"):
            as_int(bad, "k")
    for bad in (True, "1", None, float("inf"), float("nan"), 1j):
        with pytest.raises(PurePCAError, match="g must be"):
            as_real(bad, "g")
    with pytest.raises(PurePCAError, match="k must be an int between 1 and 3, got 4"):
        as_int(4, "k", low=1, high=3)


# ------------------------------------------------------------- fresh lists (10)


def test_x_is_a_fresh_copy():
    p = PCA().fit(DATA)
    x = p.x
    x[0][0] = 1e9
    x.append([0.0])
    assert p.x[0][0] != 1e9 and len(p.x) == len(DATA)


# ---------------------------------------------------- near overflow (item 13)


def test_columns_near_the_largest_float_are_centred_without_overflow():
    X = [[1.7e308, 0.0], [1.7e308, 1.0], [1.7e308, 2.0]]
    assert covariance_matrix(X) == [[0.0, 0.0], [0.0, 1.0]]
    p = PCA().fit(X)
    assert p.explained_variance_ == [1.0, 0.0]
    assert p.mean_ == [1.7e308, 1.0]
    Y = [[1.5e308, 0.0], [1.7e308, 1.0], [1.6e308, 2.0]]
    with pytest.raises(PurePCAError, match=r"the variance of column 0 \(about 2\*\*2040\) is beyond the float range"):
        covariance_matrix(Y)
    C = covariance_matrix(Y, context=__import__("purepca").DecimalContext(30))
    assert abs(C[0][0] - __import__("decimal").Decimal("1e614")) < __import__("decimal").Decimal("1e600")


def test_a_constant_column_has_variance_zero_exactly():
    # fsum(col)/n is an ulp away from 0.1 here; the column must still be constant.
    p = PCA().fit([[0.1, 0.0], [0.1, 1.0], [0.1, 2.0]])
    assert p.explained_variance_ == [1.0, 0.0]


# ------------------------------------------------------ atomic refits (item 2)


def test_a_failed_refit_leaves_the_previous_model_whole():
    X1 = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [2.0, 2.0], [1.0, 3.0]]
    X2 = [[5.0, 5.0], [5.0, 5.0], [6.0, 1.0], [2.0, 7.0]]  # a duplicate row: K(scores) is singular
    kp = KernelPCA(2, kernel="rbf", gamma=0.5, fit_inverse_transform=True, alpha=1e-3).fit(X1)
    before = (kp.X_fit_, kp.transform([[0.5, 0.5]]), kp.inverse_transform([[0.1, 0.2]]), kp.eigenvalues_)
    with pytest.raises(PurePCAError, match="increase alpha"):
        kp.set_params(alpha=0).fit(X2)
    assert (kp.X_fit_, kp.transform([[0.5, 0.5]]), kp.inverse_transform([[0.1, 0.2]]), kp.eigenvalues_) == before


@pytest.mark.parametrize("method", ["fit", "fit_transform", "partial_fit", "fit_stream"])
def test_a_pca_fit_that_fails_at_the_last_step_changes_nothing(method, monkeypatch):
    pca = PCA(2).fit(DATA)
    state = dict(pca.__dict__)
    import purepca.fitting

    finish = purepca.fitting.finish

    def finish_then_fail(*args, **kwargs):
        finish(*args, **kwargs)  # the whole new record is built by now
        raise PurePCAError("injected failure")

    monkeypatch.setattr(purepca.fitting, "finish", finish_then_fail)
    with pytest.raises(PurePCAError, match="injected failure"):
        getattr(pca, method)([[1.0, 2.0, 3.0], [2.0, 1.0, 0.0], [0.0, 0.0, 1.0], [5.0, 1.0, 1.0]])
    assert pca.__dict__.keys() == state.keys()
    assert all(pca.__dict__[k] is state[k] for k in state)


def test_a_kernel_pca_fit_that_fails_at_the_last_step_changes_nothing(monkeypatch):
    kp = KernelPCA(2, kernel="rbf", gamma=0.5, fit_inverse_transform=True).fit(DATA)
    state = dict(kp.__dict__)

    def fail(self, M):
        raise PurePCAError("injected failure")

    monkeypatch.setattr(KernelPCA, "_fit_inverse", fail)
    for method in ("fit", "fit_transform"):
        with pytest.raises(PurePCAError, match="injected failure"):
            getattr(kp, method)([[1.0, 2.0, 3.0], [2.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
        assert kp.__dict__.keys() == state.keys()
        assert all(kp.__dict__[k] is state[k] for k in state)


# ------------------------------------------------------- overflow (items 7, 13)


def test_correlation_of_columns_whose_covariance_overflows():
    from mpmath import mp, mpf, sqrt

    X = [[1e300, 1.0], [-1e300, 2.0], [0.5e300, 4.0]]
    R = __import__("purepca").correlation_matrix(X)
    mp.dps = 40
    cols = [[mpf(r[j]) for r in X] for j in range(2)]
    d = [[x - sum(c) / 3 for x in c] for c in cols]
    exact = sum(a * b for a, b in zip(*d)) / sqrt(sum(a * a for a in d[0]) * sum(b * b for b in d[1]))
    assert R[0][1] == R[1][0]
    assert abs(R[0][1] - float(exact)) < 4 * 2.2e-16 * abs(float(exact))
    assert R[0][0] == R[1][1] == 1.0


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: KernelPCA(kernel="poly", degree=400, gamma=1).fit([[1.0, 2.0], [3.0, 1.0], [0.5, 0.5]]),
         r"kernel value k\(X\[0\], X\[0\]\) = inf overflows"),
        (lambda: KernelPCA().fit([[1e200, 1e200], [1e200, -1e200], [0.0, 1.0]]),
         r"kernel value k\(X\[0\], X\[0\]\) = inf overflows"),
        (lambda: jacobi_eigh([[1e308, 1e308], [1e308, 1e308]]), r"an eigenvalue of the matrix, about 2\.000e\+308"),
        (lambda: __import__("purepca").eigh([[1e308, -1e308], [-1e308, 1e308]]), r"about 2\.000e\+308, is beyond"),
        (lambda: __import__("purepca").jacobi_svd([[1.7e308, 1e308], [1e308, -1.7e308]]), r"a singular value"),
        (lambda: __import__("purepca.linalg.cholesky").linalg.cholesky.cholesky_solve([[0.0]], [[1.0]]),
         r"L\[0\]\[0\] is 0\.0"),
        (lambda: __import__("purepca.linalg.cholesky").linalg.cholesky.cholesky_solve([[1.0, 1.0], [0.0, 1.0]], [[1.0], [1.0]]),
         r"L\[0\]\[1\] is 1\.0: a Cholesky factor is lower triangular"),
        (lambda: PCA().fit([[0, 0], [1, 1], [2, 2.5]]).transform([[1.7e308, 1.7e308]]),
         r"the score of row 0 on component 0 is beyond the float range"),
        (lambda: PCA().fit([[0, 0], [1, 1], [2, 2.5]]).inverse_transform([[1.7e308, 1.7e308]]),
         r"the reconstruction of row 0, feature 0 is beyond"),
        (lambda: PCA(1).fit([[0, 0], [1, 1], [2, 2.5]]).score_samples([[1e200, -1e200]]),
         r"log-likelihood of row 0 is beyond"),
        (lambda: PCA(1).fit([[0, 0], [1, 1], [2, 2.5]]).reconstruction_error([[1e200, -1e200]]),
         r"reconstruction error .* is beyond"),
    ],
)
def test_results_beyond_the_float_range_are_a_clear_error(call, message):
    with pytest.raises(PurePCAError, match=message):
        call()


def test_scores_that_fit_in_a_float_come_out_of_rows_near_overflow():
    from fractions import Fraction as F

    pca = PCA().fit([[0.0, 0.0], [1.0, 1.0], [2.0, 2.5]])
    for row in ([1e308, 1e308], [-1.7e308, -1.0e308], [1.7e308, 1.2e308]):
        try:
            z = pca.transform([row])[0]
        except PurePCAError:
            continue  # a score beyond the float range: checked above
        mean = [F(m) for m in pca.mean_]
        for zj, w in zip(z, pca.components_):
            exact = sum(F(wi) * (F(x) - m) for wi, x, m in zip(w, row, mean))
            assert abs(F(zj) - exact) <= abs(exact) * F(1, 2**50)
    z = pca.transform([[1e308, 1e308]])[0]
    back = pca.inverse_transform([z])[0]
    assert all(abs(b - 1e308) < 1e308 * 1e-14 for b in back)


# ------------------------------------------------------ parameters (item 8)


def test_center_kernel_in_place_still_validates():
    from purepca.kernels import center_kernel

    with pytest.raises(PurePCAError, match="NaN"):
        center_kernel([[float("nan"), 1.0], [1.0, 2.0]], overwrite=True)
    with pytest.raises(PurePCAError, match="not symmetric"):
        center_kernel([[1.0, 5.0], [1.0, 2.0]], overwrite=True)
    K = [[2.0, 1.0], [1.0, 2.0]]
    Kc, _ = center_kernel(K, overwrite=True)
    assert Kc is K and K == [[0.5, -0.5], [-0.5, 0.5]]


def test_signalling_nan_and_one_sample():
    with pytest.raises(PurePCAError, match=r"row 0, column 0 is NaN \(Decimal\('sNaN'\)\)"):
        covariance_matrix([[Decimal("sNaN"), 1], [2, 3]])
    with pytest.raises(PurePCAError, match="KernelPCA needs at least 2 samples, got n_samples = 1"):
        KernelPCA().fit([[1.0, 2.0]])


@pytest.mark.parametrize("value", ["0", "16", "-5", "abc", "1000000"])
def test_demo_precision_out_of_range_is_a_usage_error(value, capsys):
    from purepca.cli import main

    with pytest.raises(SystemExit) as exit_:
        main(["demo", "--precision", value])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "--precision" in err and "Traceback" not in err


def test_kernel_parameters_become_plain_numbers():
    np = pytest.importorskip("numpy")
    from purepca.kernels import check_kernel_params

    g, d, c = check_kernel_params(np.float64(0.5), np.int64(3), np.int32(1))
    assert (type(g), type(d), type(c)) == (float, int, float) and (g, d, c) == (0.5, 3, 1.0)
    kp = KernelPCA(2, kernel="poly", degree=np.int64(2), gamma=np.float64(0.5)).fit(DATA)
    assert all(type(v) is float for v in kp.eigenvalues_)


# ------------------------------------------ the pre-image kernel's gamma (item 14)


def test_pre_image_gamma_defaults_to_one_over_n_features():
    X = [[0.0, 0.0, 1.0], [1.0, 0.0, 0.5], [0.0, 1.0, 2.0], [1.0, 1.0, 0.0], [2.0, 0.5, 1.0], [0.5, 2.0, 1.5]]
    implicit = KernelPCA(2, kernel="rbf", fit_inverse_transform=True, alpha=0.1).fit(X)
    explicit = KernelPCA(2, kernel="rbf", gamma=1 / 3, fit_inverse_transform=True, alpha=0.1).fit(X)
    assert implicit.gamma_ == 1 / 3
    Z = implicit.transform(X)
    assert implicit.inverse_transform(Z) == explicit.inverse_transform(Z)


# ------------------------------------------------------ what the fuzz harness found


def test_fuzz_findings():
    from purepca import center, column_std, standardize, tridiagonal_eigh

    # tridiagonalize: 1/|x|^2 of a column far smaller than the matrix overflowed (NaN eigenvalues)
    A = [[1e-160, 0.0, -3e-157], [0.0, 1.0, -3e-157], [-3e-157, -3e-157, -3e-157]]
    r = tridiagonal_eigh(A)
    assert all(abs(v) < 2.0 for v in r.values) and r.values[0] == 1.0
    # QL: the shift's p = (d1 - d0)/(2e) overflowed
    r = tridiagonal_eigh([[0.0, 1e-05], [1e-05, 1.7976931348623158e303]])
    assert r.values == [1.7976931348623158e303, 0.0]
    # PCA on data whose centred Gram has a zero vector (the polarization basis)
    assert PCA().fit([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0]]).components_[0] == [1.0, 0.0, 0.0]
    # a kernel whose row sums overflow
    assert KernelPCA().fit([[9.480751908109177e153], [9.480751908109177e153], [0.0]]).n_components_ == 1
    # decimal tanh of a huge argument
    sigmoid = KernelPCA(kernel="sigmoid", negative="drop", precision=20)
    with pytest.warns(UserWarning):
        assert sigmoid.fit([[0.0, 2399262957.0], [1.0, 0.0], [2.0, 1.0]]).n_components_ >= 1
    # results beyond the float range are named
    X = [[8.423220123072927e307], [-1.7e308]]
    with pytest.raises(PurePCAError, match="the standard deviation of column 0"):
        column_std(X)
    assert standardize(X) == [[0.7071067811865476], [-0.7071067811865476]]
    with pytest.raises(PurePCAError, match="row 0, column 0 minus its mean is beyond the float range"):
        center([[1.7e308], [-8.01153432568842e307], [-1.1919259720181055e308]])
    with pytest.raises(PurePCAError, match="its standard deviation underflows to 0"):
        PCA(scale=True, convention="princomp").fit([[0.0], [5e-324]])
    # power iteration on a matrix near overflow: scaled, the eigenvalue right
    assert power_iteration([[1.7e308]]).values == [1.7e308]
    # a spread beyond the float range: fit reports the variance as inf, partial_fit refuses
    X = [[0.0, 0.0, -1.7e308], [0.0, 0.0, 1.7e308], [0.0, 0.0, 2.930794045869476e307]]
    assert PCA().fit(X).explained_variance_ == [math.inf, 0.0, 0.0]
    with pytest.raises(PurePCAError, match="column 2 spreads beyond the float range"):
        PCA().partial_fit(X)
    # Householder QR of the SVD path: vᵀv of a column far below the matrix's scale underflowed to 0
    X = [[0.0, 0.0, 0.0, 0.0]] * 4 + [[0.0, 0.0, 1.0, 5.623642243178995e161]]
    assert PCA(solver="svd").fit(X).explained_variance_ratio_ == [1.0, 0.0, 0.0, 0.0]
