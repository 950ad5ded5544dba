"""Covariance, scaling and streaming moments against exact rational arithmetic."""

from __future__ import annotations

import copy
import math
import random
from decimal import Decimal, localcontext
from fractions import Fraction

import pytest
from helpers import covariance_error, exact_covariance

from purepca import (
    DecimalContext,
    Moments,
    PurePCAError,
    center,
    column_means,
    column_std,
    correlation_matrix,
    covariance_matrix,
    standardize,
)


def offset_data(offset: float, n: int = 1000, d: int = 4, seed: int = 0) -> list[list[float]]:
    rng = random.Random(seed)
    base = [[rng.gauss(0, 1) for _ in range(d)] for _ in range(n)]
    # Correlated columns, different spreads.
    return [[offset + r[0], offset + r[0] + 0.1 * r[1], offset - 3 * r[2], offset + 1e-3 * r[3]] for r in base]


def textbook_covariance(X: list[list[float]]) -> list[list[float]]:
    """(XᵀX - n·μμᵀ)/(n-1): what the module docstring warns against."""
    n, d = len(X), len(X[0])
    mu = [sum(r[j] for r in X) / n for j in range(d)]
    return [[(sum(r[i] * r[j] for r in X) - n * mu[i] * mu[j]) / (n - 1) for j in range(d)] for i in range(d)]


@pytest.mark.parametrize("offset", [0.0, 1e6, 1e9, 1e12])
def test_covariance_matrix_matches_exact_arithmetic_at_any_offset(offset: float) -> None:
    X = offset_data(offset)
    exact = exact_covariance(X)
    assert covariance_error(covariance_matrix(X), exact) < 1e-13
    if offset >= 1e9:
        # The check can fail: the one-pass formula loses everything here.
        assert covariance_error(textbook_covariance(X), exact) > 1e-3


@pytest.mark.slow
@pytest.mark.parametrize("offset", [0.0, 1e6, 1e9, 1e12])
def test_moments_equal_two_pass_however_rows_are_split(offset: float) -> None:
    X = offset_data(offset)
    two_pass = covariance_matrix(X)
    exact = exact_covariance(X)
    for order in (X, X[::-1]):
        for chunks in (1, 7, 1000):
            size = math.ceil(len(order) / chunks)
            parts = [order[i : i + size] for i in range(0, len(order), size)]
            assert len(parts) == chunks
            # Sequential updates.
            seq = Moments()
            for part in parts:
                seq.update_many(part)
            # One accumulator per chunk, merged.
            merged = Moments()
            for part in parts:
                m = Moments()
                m.update_many(part)
                merged.merge(m)
            for acc in (seq, merged):
                assert acc.n == len(X)
                C = acc.covariance()
                assert covariance_error(C, exact) < 1e-13
                assert max(
                    abs(a - b) / math.sqrt(two_pass[i][i] * two_pass[j][j])
                    for i, (ra, rb) in enumerate(zip(C, two_pass))
                    for j, (a, b) in enumerate(zip(ra, rb))
                ) < 1e-13
                mean = acc.mean
                exact_mean = [sum(Fraction(r[j]) for r in X) / len(X) for j in range(4)]
                # The streaming mean is as good as the covariance: its error is
                # tiny against the spread of each column (and an ulp of the offset).
                for j, (a, b) in enumerate(zip(mean, exact_mean)):
                    spread = math.sqrt(float(exact[j][j]))
                    assert abs(Fraction(a) - b) <= 1e-13 * spread + 4 * 2**-52 * abs(b)


def test_moments_row_by_row_and_small_chunk_size() -> None:
    X = offset_data(1e9, n=300)
    m = Moments(chunk_size=5)
    m.update_many(iter(X))
    one = Moments()
    for row in X:
        one.update(row)
    exact = exact_covariance(X)
    assert covariance_error(m.covariance(), exact) < 1e-13
    assert covariance_error(one.covariance(), exact) < 1e-13


def test_moments_memory_does_not_grow_with_rows() -> None:
    m = Moments(chunk_size=64)
    m.update_many(([float(i % 7), float(i % 5)] for i in range(10_000)))
    state = [v for v in vars(m).values() if isinstance(v, list)]
    assert sum(len(v) for v in state) <= 4 * 2  # shift, mean, M2 rows and their rounding errors
    assert m.n == 10_000


def test_moments_correlation_and_ddof() -> None:
    X = offset_data(0.0, n=50)
    m = Moments()
    m.update_many(X)
    for a, b in zip(m.correlation(), correlation_matrix(X)):
        assert all(abs(x - y) < 1e-14 for x, y in zip(a, b))
    for a, b in zip(m.covariance(ddof=0), covariance_matrix(X, ddof=0)):
        assert all(abs(x - y) <= 1e-14 * abs(y) + 1e-300 for x, y in zip(a, b))


def test_moments_errors_name_the_row_and_problem() -> None:
    m = Moments()
    m.update_many([[1.0, 2.0], [3.0, 4.0]])
    with pytest.raises(PurePCAError, match=r"rows: row 2 has 3 values, expected 2 \(as before\)"):
        m.update([1.0, 2.0, 3.0])
    with pytest.raises(PurePCAError, match=r"rows: row 3, column 1 is NaN"):
        m.update_many([[1.0, 2.0], [1.0, float("nan")]])
    assert m.n == 2  # a chunk with a bad row is rejected whole: nothing half-added
    with pytest.raises(PurePCAError, match=r"Moments: need at least 1 row\(s\), have 0"):
        Moments().covariance()
    with pytest.raises(PurePCAError, match=r"ddof=1 needs more than 1 rows"):
        one = Moments()
        one.update([1.0])
        one.covariance()
    with pytest.raises(PurePCAError, match=r"merge: contexts differ"):
        Moments().merge(Moments(context=DecimalContext(30)))
    with pytest.raises(PurePCAError, match=r"merge: expected a Moments, got list"):
        Moments().merge([])  # type: ignore[arg-type]
    with pytest.raises(PurePCAError, match=r"chunk_size must be a positive int"):
        Moments(chunk_size=0)
    other = Moments()
    other.update([1.0])
    with pytest.raises(PurePCAError, match=r"merge: 1 columns, expected 2"):
        m.merge(other)


def test_moments_merge_leaves_other_unchanged() -> None:
    a, b = Moments(), Moments()
    a.update_many([[1.0], [2.0]])
    b.update_many([[5.0], [7.0]])
    before = (b.n, b.mean, b.covariance())
    a.merge(b)
    assert (b.n, b.mean, b.covariance()) == before
    assert a.covariance() == covariance_matrix([[1.0], [2.0], [5.0], [7.0]])


def test_covariance_decimal_context_is_exact_to_50_digits() -> None:
    X = offset_data(1e9, n=40)
    exact = exact_covariance(X)
    ctx = DecimalContext(50)
    C = covariance_matrix(X, context=ctx)
    for i in range(4):
        for j in range(4):
            with localcontext() as wide:
                wide.prec = 80
                ref = Decimal(exact[i][j].numerator) / Decimal(exact[i][j].denominator)
            assert abs(C[i][j] - ref) <= Decimal("1e-46") * abs(ref) + Decimal("1e-60")
    m = Moments(context=ctx, chunk_size=7)
    m.update_many(X)
    assert all(abs(a - b) <= Decimal("1e-45") for ra, rb in zip(m.covariance(), C) for a, b in zip(ra, rb))


def test_covariance_survives_squares_that_overflow() -> None:
    rng = random.Random(2)
    X = [[1e153 * rng.gauss(0, 1), 1e153 * rng.gauss(0, 1)] for _ in range(300)]
    C = covariance_matrix(X)
    assert all(math.isfinite(v) for row in C for v in row)
    exact = exact_covariance(X)
    assert covariance_error(C, exact) < 1e-13
    tiny = [[x * 1e-300 for x in row] for row in X]  # entries ~1e-147, products ~1e-294
    Ct = covariance_matrix(tiny)
    assert covariance_error(Ct, exact_covariance(tiny)) < 1e-13


def test_covariance_ddof_and_divisor_errors() -> None:
    X = [[1.0, 2.0], [3.0, 5.0], [4.0, 4.0]]
    c1, c0 = covariance_matrix(X, ddof=1), covariance_matrix(X, ddof=0)
    assert abs(c1[0][1] * 2 - c0[0][1] * 3) < 1e-15
    with pytest.raises(PurePCAError, match=r"ddof=3 needs more than 3 rows \(the divisor is n - ddof\), got n = 3"):
        covariance_matrix(X, ddof=3)
    with pytest.raises(PurePCAError, match=r"ddof must be a non-negative number, got -1"):
        covariance_matrix(X, ddof=-1)
    with pytest.raises(PurePCAError, match=r"ddof must be a non-negative number, got True"):
        covariance_matrix(X, ddof=True)


def test_scaling_functions() -> None:
    X = [[1.0, 10.0], [2.0, 20.0], [4.0, 30.0]]
    assert column_means(X) == [7 / 3, 20.0]
    assert center(X, [1.0, 10.0]) == [[0.0, 0.0], [1.0, 10.0], [3.0, 20.0]]
    sd = column_std(X)
    assert abs(sd[1] - 10.0) < 1e-14
    Z = standardize(X)
    C = covariance_matrix(Z)
    assert all(abs(C[i][i] - 1.0) < 1e-14 for i in range(2))
    R = correlation_matrix(X)
    assert all(abs(a - b) < 1e-14 for ra, rb in zip(R, C) for a, b in zip(ra, rb))
    with pytest.raises(PurePCAError, match=r"means: 1 values for 2 columns"):
        center(X, [1.0])


def test_constant_columns_are_errors_not_divisions_by_zero() -> None:
    X = [[1.0, 5.0], [2.0, 5.0], [3.0, 5.0]]
    with pytest.raises(PurePCAError, match=r"X: column 1 is constant \(standard deviation 0\); it cannot be scaled"):
        standardize(X)
    with pytest.raises(PurePCAError, match=r"X: column 1 is constant \(variance 0\); its correlation is undefined"):
        correlation_matrix(X)
    assert column_std(X)[1] == 0.0


def test_covariance_functions_do_not_mutate_input() -> None:
    X = offset_data(1e6, n=20)
    before = copy.deepcopy(X)
    covariance_matrix(X)
    correlation_matrix(X)
    standardize(X)
    center(X)
    Moments().update_many(X)
    assert X == before


def test_covariance_rejects_bad_rows() -> None:
    with pytest.raises(PurePCAError, match=r"X: row 1, column 0 is None"):
        covariance_matrix([[1.0], [None]])
    with pytest.raises(PurePCAError, match=r"X: empty input"):
        covariance_matrix([])


def test_mean_correction_is_the_exact_residual_rounded_once_on_both_paths() -> None:
    # lo = (Σx - n·hi)/n: the residual summed exactly and rounded once (Fractions here), then divided;
    # the reference sums it as it is, the kernels' callback by Dekker's n·hi = p + q: the same bits.
    from purepca.covariance import _float_correction, _mean_correction
    from purepca.numeric import FLOAT

    rng = random.Random(45)
    for _ in range(400):
        n = rng.randint(1, 200)
        off = 10 ** rng.uniform(-290, 290) * rng.choice([-1, 1])
        col = [off + rng.gauss(0, 1) * abs(off) * 10 ** rng.uniform(-17, 0) for _ in range(n)]
        m = math.fsum(col) / n
        s = math.fsum(x - m for x in col)
        want = float(sum(map(Fraction, col)) - n * Fraction(m)) / float(n)
        assert _mean_correction(col, m, float(n), FLOAT) == want == _float_correction(col, m, s), (n, off)


@pytest.mark.parametrize("context", ["float", "binary32", "decimal"])
def test_covariance_cross_products_of_the_reference_dot_equal_the_context_gram(context: str) -> None:
    """The fit's reference path forms ``Σc_i·c_j`` with ``ctx.dot`` pair by pair (no Gram matrix first):
    the same numbers, bit for bit, as the context's own Gram (each dot product is exact-then-rounded
    once, so its order of arguments cannot matter), on centred columns near and far from the ends of
    the float range."""
    from purepca.covariance import _centred_columns, _cross_products
    from purepca.numeric import BINARY32, FLOAT

    ctx = {"float": FLOAT, "binary32": BINARY32, "decimal": DecimalContext(30)}[context]
    rng = random.Random(7)
    for spread in (1.0, 1e-18, 1e18) if context == "binary32" else (1.0, 1e-150, 1e150):
        cols = [[ctx.convert(spread * (1e3 + rng.gauss(0, j + 1))) for _ in range(40)] for j in range(4)]
        with ctx.local():
            c = _centred_columns(cols, ctx)
            mine = _cross_products(c, ctx, ctx.convert(39))
            gram = _cross_products(c, ctx, ctx.convert(39), gram=ctx.gram)
        assert [[str(x) for x in row] for row in mine] == [[str(x) for x in row] for row in gram]
        assert all(mine[i][j] == mine[j][i] for i in range(4) for j in range(4))
