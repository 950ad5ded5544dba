"""Defects an adversarial battery found (issue 9): each test failed before its fix."""

from __future__ import annotations

import copy
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
    with pytest.raises(PurePCAError, match=r"the covariance of columns 0 and 0 \(about 2\*\*2040\) is beyond the float range"):
        covariance_matrix(Y)
    C = covariance_matrix(Y, context=__import__("purepca").DecimalContext(30))
    assert abs(C[0][0] - __import__("decimal").Decimal("1e614")) < __import__("decimal").Decimal("1e600")


def test_a_constant_column_has_variance_zero_exactly():
    # fsum(col)/n is an ulp away from 0.1 here; the column must still be constant.
    p = PCA().fit([[0.1, 0.0], [0.1, 1.0], [0.1, 2.0]])
    assert p.explained_variance_ == [1.0, 0.0]
