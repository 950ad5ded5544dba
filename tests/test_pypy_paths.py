"""The kernel room's loops written for PyPy's JIT (purepca.fast): each against exact arithmetic.

They are plain Python, so they run, and are checked, on every interpreter; under PyPy the fit
takes them (``FloatContext.sum``, ``GramWork(fast=True)``, the centring, the rows' validation),
except in reference mode (PUREPCA_REFERENCE=1).
"""

from __future__ import annotations

import math
import random
import sys
from fractions import Fraction
from typing import Any

import pytest

from purepca import FLOAT, PCA, PurePCAError
from purepca import fast
from purepca.fast.centre import deviation_sums
from purepca.fast.grams import BlockedGram, DeviationColumns
from purepca.fast.rows import float_columns as _float_columns
from purepca.fast.rows import float_rows as _float_rows
from purepca.fast.rows import float_rows_at_once as _float_rows_at_once
from purepca.fast.sums import _U
from purepca.fast.sums import blocked_dot as _blocked_dot
from purepca.fast.sums import blocked_dot_about as _blocked_dot_about
from purepca.fast.sums import dot2 as _dot2
from purepca.fast.sums import fsum_by_sum2 as _fsum_by_sum2
from purepca.linalg.matrix import as_matrix
from purepca.numeric import GramWork

#: The answers here depend on the interpreter or the mode: every stage of .ci/test runs them (conftest.py).
pytestmark = pytest.mark.interpreter

PYPY = sys.implementation.name == "pypy" and not fast.REFERENCE


def _centre_compensated(col: list[float], m: float) -> tuple[list[float], float, float]:
    s, low, _ = deviation_sums(col, m)
    return [x - m for x in col], s, low


def _lists(seed: int, count: int) -> list[list[float]]:
    """Ordinary, offset, cancelling, wide-range, tiny and tie-making lists of floats."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        n = rng.choice([2, 3, 7, 100, 1000])
        kind = rng.randrange(7)
        if kind == 0:
            v = [rng.gauss(0, 1) for _ in range(n)]
        elif kind == 1:
            off = 10.0 ** rng.uniform(0, 15)
            v = [off + rng.gauss(0, 1) for _ in range(n)]
        elif kind == 2:  # cancelling: x, -x pairs plus a small remainder
            half = [rng.gauss(0, 1) * 10.0 ** rng.uniform(-5, 15) for _ in range(n // 2)]
            v = half + [-x for x in half] + [rng.gauss(0, 1e-9)]
            rng.shuffle(v)
        elif kind == 3:
            v = [rng.choice([-1, 1]) * 10.0 ** rng.uniform(-300, 300) for _ in range(n)]
        elif kind == 4:
            v = [rng.gauss(0, 1) * 1e-310 for _ in range(n)]
        elif kind == 5:  # exact ties and near ties of the final rounding
            v = [1.0, 2.0 ** -53, rng.choice([0.0, 2.0 ** -110, -(2.0 ** -110)])] + [0.0] * (n - 3 if n > 3 else 0)
        else:  # integers: exact sums
            v = [float(rng.randrange(-10 ** 6, 10 ** 6)) for _ in range(n)]
        out.append(v)
    return out


def test_pypy_fsum_by_sum2_gives_fsums_bits_everywhere() -> None:
    for v in _lists(1, 600):
        assert repr(_fsum_by_sum2(v)) == repr(math.fsum(v)), v[:5]
        assert repr(_fsum_by_sum2(iter(v))) == repr(math.fsum(v))
    big = sys.float_info.max
    edge = ([big, 2.0 ** 970 - 2.0 ** 917] + [2.0 ** 915] * 4, [big, 2.0 ** 969, 2.0 ** 969, -2.0 ** 969, -2.0 ** 969],
            [-big, -2.0 ** 969, -2.0 ** 969, 2.0 ** 969, 2.0 ** 969], [big, -1.0], [10 ** 400, 1.0], [1, 2, 3])
    for v in ([], [0.0], [-0.0, -0.0], [1e308, 1e308, -1e308], [math.inf, 1.0], [math.nan, 1.0], [5e-324] * 3, *edge):
        try:
            want: object = math.fsum(v)
        except (OverflowError, ValueError) as exc:
            with pytest.raises(type(exc)):
                _fsum_by_sum2(v)
            continue
        got = _fsum_by_sum2(v)
        assert repr(got) == repr(want), v
    # What fsum converts, the loop leaves to fsum: Decimals (float + Decimal is an error) and
    # Fractions (the loop would sum them as Fractions) give fsum's float.
    from decimal import Decimal

    assert _fsum_by_sum2([Decimal("0.1"), Decimal("0.2")]) == math.fsum([Decimal("0.1"), Decimal("0.2")])
    got = _fsum_by_sum2([Fraction(1, 3), 0.5])
    assert type(got) is float and got == math.fsum([Fraction(1, 3), 0.5])


def test_pypy_fsum_by_sum2_certifies_ordinary_sums_without_fsum(monkeypatch: pytest.MonkeyPatch) -> None:
    # The point of the loop: on ordinary data the certificate holds and fsum is not called.
    import purepca.fast.sums as numeric

    calls = []
    real = math.fsum

    class Spy:
        def __getattr__(self, name: str) -> object:
            return getattr(math, name)

        @staticmethod
        def fsum(values: object) -> float:
            calls.append(1)
            return real(values)  # type: ignore[arg-type]

    monkeypatch.setattr(numeric, "math", Spy())
    rng = random.Random(2)
    for _ in range(50):
        v = [rng.gauss(5, 1) for _ in range(1000)]
        assert numeric.fsum_by_sum2(v) == real(v)
    assert not calls
    assert numeric.fsum_by_sum2([1.0, 2.0 ** -53]) == 1.0 and calls  # an exact tie: fsum decides


@pytest.mark.slow
def test_pypy_blocked_dot_within_its_bound_of_the_exact_dot() -> None:
    rng = random.Random(3)
    # A long vector whose blocks' sums must be compensated: 1e16, then 198 blocks summing to 1.0
    # each (every one lost against 1e16 by a plain sum, whose ulp there is 2), then -1e16.
    a = [1e16] + [0.0] * 31 + [1.0 / 32] * (32 * 198) + [-1e16] + [0.0] * 31
    assert _blocked_dot(a, [1.0] * len(a)) == 198.0
    for a in _lists(4, 300):
        b = [rng.gauss(0, 1) * 10.0 ** rng.uniform(-3, 3) for _ in a]
        if any(abs(x) > 1e150 or abs(x) < 1e-150 for x in a if x):
            continue  # products beyond the range: fsum's fallback (below)
        exact = sum((Fraction(x) * Fraction(y) for x, y in zip(a, b)), Fraction(0))
        bound = (_BLOCK_BOUND * _U) * math.fsum(abs(x * y) for x, y in zip(a, b))
        got = _blocked_dot(a, b)
        assert abs(Fraction(got) - exact) <= Fraction(bound) * (1 + 1e-12), (len(a), got, float(exact))
    # Overflowing products: the fsum of the products answers, as it does for Dot2.
    assert _blocked_dot([1e300, 1.0], [1e10, 1.0]) == _dot2([1e300, 1.0], [1e10, 1.0]) == math.inf
    with pytest.raises(ValueError):
        _blocked_dot([1e300, 1e300], [1e10, -1e10])


_BLOCK_BOUND = 34  # 32 plain products and sums per block, then TwoSum: (32 + 2)·u·Σ|a_k·b_k|


def _blocks_of_32(a: list[float], b: list[float]) -> float:
    """The blocked dot as its definition reads: a plain sum per block of 32 products, the blocks'
    sums added by TwoSum (without the overflow fallback)."""
    s = c = 0.0
    for i in range(0, len(a), 32):
        p = 0.0
        for x, y in zip(a[i:i + 32], b[i:i + 32]):
            p += x * y
        t = s + p
        z = t - s
        c += (s - (t - z)) + (p - z)
        s = t
    return s + c


def test_pypy_blocked_dot_is_its_definition_to_the_bit() -> None:
    # One loop with the block's end as a branch: the same operations in the same order as the
    # nested loops of the definition, at every length around the blocks' ends.
    rng = random.Random(11)
    for n in list(range(0, 70)) + [95, 96, 97, 1000, 10_001]:
        a = [rng.gauss(0, 1) * 10.0 ** rng.uniform(-8, 8) for _ in range(n)]
        b = [rng.gauss(3, 1) * rng.choice([1.0, -1.0]) for _ in range(n)]
        got, want = _blocked_dot(a, b), _blocks_of_32(a, b)
        assert got == want and math.copysign(1.0, got) == math.copysign(1.0, want), n


def test_pypy_gram_work_takes_the_blocked_dot_only_on_pypy() -> None:
    vectors = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 10.0]]
    assert isinstance(GramWork(vectors, FLOAT, fast=True).kernel, BlockedGram) is PYPY
    assert GramWork(vectors, FLOAT).kernel is None
    assert GramWork(vectors, FLOAT, fast=True).compute() == [[14.0, 32.0, 53.0], [32.0, 77.0, 128.0],
                                                             [53.0, 128.0, 213.0]]


def test_pypy_centre_compensated_sums_within_their_bounds() -> None:
    rng = random.Random(5)
    for n, off in ((10, 0.0), (1000, 1e12), (1000, 1e-3), (5000, 3.0), (200, -7e15)):
        col = [off + rng.gauss(0, 1) for _ in range(n)]
        m = math.fsum(col) / n
        c, s, low = _centre_compensated(col, m)
        assert c == [x - m for x in col]
        g = n * _U / (1 - n * _U)
        spread = math.fsum(map(abs, c))
        exact_s = sum(map(Fraction, c), Fraction(0))
        exact_low = sum((Fraction(x) - Fraction(m) for x in col), Fraction(0))
        assert abs(Fraction(s) - exact_s) <= Fraction(_U) * abs(exact_s) + Fraction(3 * g * g * spread)
        assert abs(Fraction(low) - exact_low) <= Fraction(_U) * abs(exact_low) + Fraction(3 * g * g * spread)


@pytest.mark.parametrize("at_once", [_float_rows, _float_rows_at_once])
def test_row_validation_at_once_names_the_cell_and_copies(at_once: Any) -> None:
    # _float_rows: PyPy's one loop; _float_rows_at_once: CPython's C loops over all entries (both
    # checked on every interpreter)
    rows = [[1.0, 2.0], [3.0, 4.0]]
    for M in (as_matrix(rows), at_once(rows)):
        assert M == rows and all(a is not b for a, b in zip(M, rows))
    for bad, what in ((True, "bool"), (math.nan, "NaN"), (math.inf, "inf"), ("1", "str"), (None, "None")):
        assert at_once([[1.0, 2.0], [bad, 4.0]]) is None  # the general path then names the cell
        with pytest.raises(PurePCAError, match=r"row 1, column 0") as info:
            as_matrix([[1.0, 2.0], [bad, 4.0]])
        assert what in str(info.value)
    assert at_once([[1.0, 2.0], [3.0]]) is None and at_once([[1.0], (2.0,)]) is None
    assert at_once([[], []]) is None
    if at_once is _float_rows_at_once:
        assert at_once([[1e308, 1.0], [1e308, 2.0]]) is None  # a sum beyond the range: the general path decides
    assert as_matrix([[1e308, 1.0], [1e308, 2.0]]) == [[1e308, 1.0], [1e308, 2.0]]  # finite: taken by the general path
    assert as_matrix([[1, 2.0], [3.0, 4.0]]) == [[1.0, 2.0], [3.0, 4.0]]  # ints are taken as floats


def test_pypy_deviations_made_where_read_give_the_bits_of_those_stored() -> None:
    # PyPy's fit centres its columns lazily (DeviationColumns) and takes the Gram from the raw
    # columns and means (_blocked_dot_about): every entry must be the blocked dot of the stored
    # deviations, bit for bit, and the centred record otherwise the same.
    from purepca.covariance import _centred_columns, _constant_columns, _cross_products

    rng = random.Random(17)
    for n, off in ((1, 0.0), (31, 1e12), (64, -3.0), (100, 1e-7), (1000, 7e15), (333, 0.0)):
        raw = [[off * (1 + j) + rng.gauss(0, 1) * 10.0 ** rng.uniform(-6, 6) for _ in range(n)] for j in range(4)]
        raw.append([off] * n)  # a constant column
        means = [math.fsum(col) / n for col in raw]
        stored = [[x - m for x in col] for col, m in zip(raw, means)]
        for j in range(len(raw)):
            for i in range(len(raw)):
                a, b = _blocked_dot_about(raw[j], means[j], raw[i], means[i]), _blocked_dot(stored[j], stored[i])
                assert a == b and math.copysign(1.0, a) == math.copysign(1.0, b), (n, off, i, j)
        lazy = DeviationColumns(raw, means)
        assert GramWork(lazy, FLOAT, fast=True).compute() == GramWork(stored, FLOAT, fast=True).compute()
        assert list(lazy) == stored and lazy[1:3] == stored[1:3] and len(lazy) == len(stored)
        plain, late = _centred_columns(raw, FLOAT), _centred_columns(raw, FLOAT, lazy=True)
        assert (late.hi, late.lo, late.sums, late.exps) == (plain.hi, plain.lo, plain.sums, plain.exps)
        assert _constant_columns(late) == _constant_columns(plain) == 1 + (n == 1) * 4
        assert _cross_products(late, FLOAT, None, rows=n) == _cross_products(plain, FLOAT, None)  # the fit gives n
        assert list(late.cols) == plain.cols


def test_pypy_float_columns_validate_and_transpose_in_one_pass() -> None:
    rows = [[1.0, -0.0], [3.0, 4.5], [5.0, 6.0]]
    cols = _float_columns(rows)
    assert cols == [[1.0, 3.0, 5.0], [-0.0, 4.5, 6.0]] and math.copysign(1.0, cols[1][0]) == -1.0
    for bad in (True, math.nan, -math.inf, "1", 1, None):
        assert _float_columns([[1.0, 2.0], [bad, 4.0]]) is None  # the general path then names the cell
    for shape in ([], [[]], [[1.0], [2.0, 3.0]], [[1.0], (2.0,)], ((1.0,),), [(1.0,)]):
        assert _float_columns(shape) is None


def test_pypy_fit_from_columns_is_the_fit_from_rows() -> None:
    # PyPy's PCA.fit validates a list of float rows into columns and keeps them (ColumnRows): the
    # record, and the training rows built from the columns, are those of the fit of the rows.
    from purepca.fitting import ColumnRows, Settings, fit_rows

    rng = random.Random(13)
    for n, d, off in ((50, 4, 0.0), (300, 7, 1e12), (40, 3, -3e-200), (20, 5, 1e150)):
        rows = [[off + rng.gauss(0, 1) * (1 + j) * (abs(off) or 1.0) * 1e-6 for j in range(d)] for _ in range(n)]
        rows[3][1] = -0.0
        for settings in (Settings(), Settings(n_components=2), Settings(scale=True)):
            kept = ColumnRows(_float_columns(rows))  # type: ignore[arg-type]
            a, b = fit_rows(settings, kept), fit_rows(settings, as_matrix(rows))
            assert a == b
            assert kept.rows() == rows and all(x is not y for x, y in zip(kept.rows(), rows))
        pca, general = PCA().fit(rows), PCA().fit([tuple(row) for row in rows])  # tuples: the general path
        assert pca.components_ == general.components_ and pca.mean_ == general.mean_
        assert pca.x == general.x and pca.explained_variance_ == general.explained_variance_
        rows[0][0] = 7.0  # the model's rows are its own
        assert pca.x == general.x


def test_pypy_spreads_give_the_scale_exponent_of_the_columns_themselves() -> None:
    # Centred.spreads (measured while centring, by one sumprod on 3.12+) must choose the exponent
    # the largest deviations themselves choose, near both ends of the range as in the middle.
    from purepca.covariance import _centred_columns, _largest
    from purepca.fitting import _scale_exponent

    rng = random.Random(7)
    for scale in (1.0, 1e-140, 1e-146, 1e-150, 1e140, 1e146, 1e150, 1e-300, 1e300):
        for n in (2, 3, 50):
            cols = [[scale * rng.gauss(0, 1) * f for _ in range(n)] for f in (1.0, 3.0, 0.5)]
            cols.append([scale] * n)  # a constant column
            c = _centred_columns(cols, FLOAT)
            spread = max(math.ldexp(_largest(col), e) for col, e in zip(c.cols, c.exps))
            assert _scale_exponent(c, FLOAT) == FLOAT.scale_exponent(spread), (scale, n)


def test_an_int_too_long_to_print_is_named_by_its_digits() -> None:
    # repr of an int past 4,300 digits raises ValueError (3.11+): the message must not
    for value, digits in ((10 ** 400, 401), (10 ** 5000, 5001), (-(10 ** 20000) + 1, 20000)):
        with pytest.raises(PurePCAError, match=rf"row 0, column 1 \(an int of {digits} digits\) is too large for a float"):
            as_matrix([[1.0, value], [2.0, 3.0]])
