"""Moments(exact=True): correctly rounded, bit-identical over partitionings and
merge trees; from_rows, merged, the serialised state, and merging across processes."""

from __future__ import annotations

import math
import multiprocessing
import random
from decimal import Decimal
from fractions import Fraction
from typing import Any, List, Sequence

import pytest

from purepca import Moments, PCA
from purepca.distributed import offset_rows
from purepca.errors import PurePCAError
from purepca.numeric import FLOAT, DecimalContext


# ----------------------------------------------------------------- the truth

def _exact_mean_cov(rows: Sequence[Sequence[float]], ddof: Any, center: bool) -> tuple[list[Fraction], list[list[Fraction]]]:
    F = [[Fraction(x) for x in r] for r in rows]
    n, d = len(F), len(F[0])
    mean = [sum(r[j] for r in F) / n for j in range(d)]
    div = n - Fraction(ddof)
    if center:
        dev = [[r[j] - mean[j] for j in range(d)] for r in F]
    else:
        dev = F
    C = [[sum(r[i] * r[j] for r in dev) / div for j in range(d)] for i in range(d)]
    return mean, C


def _correctly_rounded(r: float, q: Fraction) -> bool:
    """``r`` is ``q`` rounded to nearest, ties to even: checked against both neighbours."""
    if not math.isfinite(r):
        return False
    e = abs(Fraction(r) - q)
    for nb in (math.nextafter(r, math.inf), math.nextafter(r, -math.inf)):
        if not math.isfinite(nb):
            continue
        en = abs(Fraction(nb) - q)
        if en < e:
            return False
        if en == e and (math.frexp(r)[0] * 2 ** 53) % 2:  # a tie must land on the even mantissa
            return False
    return True


def _check_correctly_rounded(m: Moments, rows: Sequence[Sequence[float]], ddof: Any = 1, center: bool = True) -> None:
    mean, C = _exact_mean_cov(rows, ddof, center)
    got_mean, got_C = m.mean, m.covariance(ddof, center=center)
    for j, (g, t) in enumerate(zip(got_mean, mean)):
        assert _correctly_rounded(g, t), f"mean {j}: {g!r} is not {t} rounded"
    for i, (grow, trow) in enumerate(zip(got_C, C)):
        for j, (g, t) in enumerate(zip(grow, trow)):
            assert _correctly_rounded(g, t), f"C[{i}][{j}] = {g!r} is not {float(t)!r} (exact {t}) rounded"


def _kinds(seed: int) -> List[List[float]]:
    """Random data of the issue's kind with other offsets and spreads, plus hard columns."""
    rng = random.Random(seed)
    n = rng.randrange(30, 200)
    off = [rng.choice([1.7e9, -3e7, 1e15, 0.0, 123.456]) for _ in range(3)]
    spread = [10.0 ** rng.randrange(-9, 3) for _ in range(3)]
    rows = []
    for _ in range(n):
        z = rng.gauss(0, 1)
        row = [off[k] + spread[k] * (z + rng.gauss(0, 0.3)) for k in range(3)]
        row.append(float(rng.randrange(2)))                      # 0/1
        row.append(rng.choice([1e-300, 3e-310, 0.0]) * rng.random())  # tiny, subnormal
        row.append(rng.choice([-1.0, 1.0]) * 1e150 * rng.random())    # huge (squares beyond the range)
        row.append(2.5)                                                # constant
        rows.append(row)
    return rows


def _random_parts(rows: List[Any], rng: random.Random) -> List[List[Any]]:
    k = rng.choice([1, 2, 3, 5, 8, 16, 64])
    cuts = sorted(rng.randrange(len(rows) + 1) for _ in range(k - 1))
    bounds = [0] + cuts + [len(rows)]
    return [rows[a:b] for a, b in zip(bounds, bounds[1:])]  # empty parts included


def _random_tree(states: List[Moments], rng: random.Random) -> Moments:
    states = list(states)
    while len(states) > 1:
        i, j = rng.sample(range(len(states)), 2)
        a, b = states[i], states[j]
        joined = a + b if rng.random() < 0.5 else a.merge(b)
        states = [s for k, s in enumerate(states) if k not in (i, j)] + [joined]
    return states[0]


# ------------------------------------------------------------------- tests

@pytest.mark.parametrize("seed", [0, 1, 2])
def test_exact_moments_correctly_rounded_on_offset_rows(seed: int) -> None:
    rows = offset_rows(300, seed=seed)
    m = Moments.from_rows(rows, exact=True, chunk_size=64)
    _check_correctly_rounded(m, rows)


@pytest.mark.parametrize("seed", range(6))
def test_exact_moments_correctly_rounded_on_hard_columns(seed: int) -> None:
    rows = _kinds(seed)
    m = Moments.from_rows(rows, exact=True, chunk_size=17)
    for ddof, center in [(1, True), (0, True), (0.5, True), (1, False), (0, False)]:
        mean, C = _exact_mean_cov(rows, ddof, center)
        got = m.covariance(ddof, center=center)
        for i in range(len(C)):
            for j in range(len(C)):
                if abs(C[i][j]) > Fraction(2) ** 1023:
                    continue  # beyond the float range: checked by the error test below
                assert _correctly_rounded(got[i][j], C[i][j]), (ddof, center, i, j)
        assert all(_correctly_rounded(g, t) for g, t in zip(m.mean, mean))


@pytest.mark.slow
def test_exact_moments_bit_identical_over_1000_partitionings_and_merge_trees() -> None:
    rng = random.Random(23)
    rows = offset_rows(60, seed=5)
    one = Moments.from_rows(rows, exact=True)
    _check_correctly_rounded(one, rows)
    want = (one.mean, one.covariance(1), one.covariance(0, center=False))
    for trial in range(1000):
        parts = _random_parts(rows, rng)
        states = [Moments.from_rows(p, exact=True, chunk_size=rng.choice([1, 3, 4096])) for p in parts]
        got = _random_tree(states, rng)
        assert got.n == len(rows)
        assert (got.mean, got.covariance(1), got.covariance(0, center=False)) == want, f"partitioning {trial}"


def test_exact_moments_bit_identical_on_hard_columns() -> None:
    rng = random.Random(4)
    rows = _kinds(3)
    want = Moments.from_rows(rows, exact=True).covariance(1)
    for _ in range(50):
        states = [Moments.from_rows(p, exact=True, chunk_size=5) for p in _random_parts(rows, rng)]
        assert _random_tree(states, rng).covariance(1) == want


def test_float_moments_are_not_bit_identical_but_exact_ones_are() -> None:
    # Why exact mode exists: float moments of the same rows differ in their last bits by partitioning.
    rows = offset_rows(2000, seed=3)
    one = Moments.from_rows(rows).covariance()
    many = Moments()
    for k in range(0, 2000, 31):
        many.merge(Moments.from_rows(rows[k:k + 31]))
    assert many.covariance() != one
    exact_many = Moments(exact=True)
    for k in range(0, 2000, 31):
        exact_many.merge(Moments.from_rows(rows[k:k + 31], exact=True))
    assert exact_many.covariance() == Moments.from_rows(rows, exact=True).covariance()


def test_exact_moments_decimal_context_correctly_rounded() -> None:
    ctx = DecimalContext(30)
    rows = offset_rows(50, seed=9)
    m = Moments.from_rows(rows[:20], exact=True, context=ctx).merge(Moments.from_rows(rows[20:], exact=True, context=ctx))
    mean, C = _exact_mean_cov(rows, 1, True)
    got = m.covariance(1)
    dc = ctx._context
    for i in range(10):
        for j in range(10):
            g = got[i][j]
            assert isinstance(g, Decimal)
            e = abs(Fraction(g) - C[i][j])
            assert e <= abs(Fraction(dc.next_plus(g)) - C[i][j]) and e <= abs(Fraction(dc.next_minus(g)) - C[i][j])
    assert Moments.from_bytes(m.to_bytes()).covariance(1) == got


def test_exact_moments_overflowing_covariance_names_the_entry() -> None:
    m = Moments.from_rows([[1e200, 0.0], [-1e200, 1.0]], exact=True)
    with pytest.raises(PurePCAError, match="the variance of column 0 is beyond the float range"):
        m.covariance()


def test_from_rows_empty_partition_merges_as_nothing() -> None:
    a = Moments.from_rows([], exact=True)
    assert a.n == 0 and a.d is None
    b = Moments.from_rows([[1.0, 2.0], [3.0, 4.0]], exact=True)
    assert (a + b).mean == b.mean and (b + a).covariance() == b.covariance()
    assert a.merge(b).n == 2


def test_merged_and_add_do_not_mutate() -> None:
    a = Moments.from_rows([[1.0], [2.0]], exact=True)
    b = Moments.from_rows([[4.0]], exact=True)
    before = (a.to_bytes(), b.to_bytes())
    c = a.merged(b)
    assert c.n == 3 and (a.to_bytes(), b.to_bytes()) == before
    assert (a + b).covariance() == c.covariance()


@pytest.mark.parametrize("exact", [False, True])
def test_to_bytes_round_trips_to_the_same_bits(exact: bool) -> None:
    rows = offset_rows(500, seed=2)
    m = Moments.from_rows(rows, exact=exact)
    back = Moments.from_bytes(m.to_bytes())
    assert back.exact == exact and back.n == m.n and back.d == m.d
    assert back.mean == m.mean and back.covariance(1) == m.covariance(1)
    assert back.covariance(0, center=False) == m.covariance(0, center=False)
    assert back.to_bytes() == m.to_bytes()
    extra = Moments.from_rows(offset_rows(10, seed=4), exact=exact)
    if exact:
        assert back.merge(extra).covariance() == m.merge(extra).covariance()
    else:  # float mode ships M2 rounded once (without the rounding errors its folds kept aside)
        for r1, r2 in zip(back.merge(extra).covariance(), m.merge(extra).covariance()):
            assert all(abs(a - b) <= 1e-15 * abs(b) for a, b in zip(r1, r2))


@pytest.mark.parametrize("d", [1, 10, 50])
def test_to_bytes_float_mode_size_within_the_bound(d: int) -> None:
    rng = random.Random(d)
    m = Moments.from_rows([[rng.random() for _ in range(d)] for _ in range(20)])
    size = len(m.to_bytes())
    assert size == 18 + 8 * (d * (d + 1) // 2 + 2 * d)
    assert size <= 8 * d * (d + 1) // 2 + 16 * d + 18  # the packed triangle plus O(d)


def test_to_bytes_empty_states_round_trip() -> None:
    for m in (Moments(), Moments(exact=True), Moments(exact=True, context=DecimalContext(20))):
        back = Moments.from_bytes(m.to_bytes())
        assert back.n == 0 and back.exact == m.exact and back.context == m.context


def test_from_bytes_bad_input_errors() -> None:
    good = Moments.from_rows([[1.0, 2.0], [3.0, 5.0]], exact=True).to_bytes()
    with pytest.raises(PurePCAError, match="bad magic"):
        Moments.from_bytes(b"XXXX" + good[4:])
    with pytest.raises(PurePCAError, match="version 9 is not supported"):
        Moments.from_bytes(good[:4] + b"\x09" + good[5:])
    with pytest.raises(PurePCAError, match="truncated at byte"):
        Moments.from_bytes(good[:-1])
    with pytest.raises(PurePCAError, match="left over"):
        Moments.from_bytes(good + b"\x00")
    with pytest.raises(PurePCAError, match="expected bytes, got str"):
        Moments.from_bytes("PPCM")  # type: ignore[arg-type]
    fl = Moments.from_rows([[1.0, 2.0], [3.0, 5.0]]).to_bytes()
    with pytest.raises(PurePCAError, match="bytes, expected 74 for d = 2"):
        Moments.from_bytes(fl[:-8])
    with pytest.raises(PurePCAError, match="float mode stores doubles, but this state is in decimal"):
        Moments.from_rows([[1.0]], context=DecimalContext(20)).to_bytes()


def test_merge_errors_name_the_mismatch() -> None:
    ex = Moments.from_rows([[1.0, 2.0]], exact=True)
    with pytest.raises(PurePCAError, match="exact=True and exact=False cannot be merged"):
        ex.merge(Moments.from_rows([[1.0, 2.0]]))
    with pytest.raises(PurePCAError, match="merge: 3 columns, expected 2"):
        ex.merge(Moments.from_rows([[1.0, 2.0, 3.0]], exact=True))
    with pytest.raises(PurePCAError, match="contexts differ"):
        ex.merge(Moments.from_rows([[1.0, 2.0]], exact=True, context=DecimalContext(20)))
    with pytest.raises(PurePCAError, match="expected a Moments, got int"):
        ex.merge(3)  # type: ignore[arg-type]
    with pytest.raises(PurePCAError, match="exact must be True or False, got 1"):
        Moments(exact=1)  # type: ignore[arg-type]
    with pytest.raises(PurePCAError, match="context must be a number context"):
        Moments.from_rows([[1.0]], context="float")  # type: ignore[arg-type]
    with pytest.raises(PurePCAError, match="row 1 has 3 values, expected 2"):
        Moments.from_rows([[1.0, 2.0], [1.0, 2.0, 3.0]], exact=True)
    with pytest.raises(PurePCAError, match="row 1, column 0"):
        Moments.from_rows([[1.0], [float("nan")]], exact=True)
    assert ex.n == 1


def _partition_bytes(args: tuple[int, int]) -> bytes:
    seed, k = args
    rows = offset_rows(4000, seed=seed)
    return Moments.from_rows(rows[k * 1000:(k + 1) * 1000], exact=True).to_bytes()


@pytest.mark.slow
def test_four_processes_merge_to_one_process() -> None:
    with multiprocessing.get_context("spawn").Pool(4) as pool:
        parts = pool.map(_partition_bytes, [(11, k) for k in range(4)])
    merged = Moments(exact=True)
    for b in reversed(parts):
        merged.merge(Moments.from_bytes(b))
    one = Moments.from_rows(offset_rows(4000, seed=11), exact=True)
    assert merged.to_bytes() != b"" and merged.covariance() == one.covariance() and merged.mean == one.mean


def test_exact_moments_feed_a_pca_fit() -> None:
    rows = offset_rows(400, seed=6)
    parts = [Moments.from_rows(rows[k:k + 100], exact=True) for k in range(0, 400, 100)]
    merged = parts[3] + parts[1] + parts[0] + parts[2]
    a = PCA(3).fit_moments(merged)
    b = PCA(3).fit_moments(Moments.from_rows(rows, exact=True))
    assert a.components_ == b.components_ and a.explained_variance_ == b.explained_variance_
    c = PCA(3).fit(rows)
    for u, v in zip(a.components_, c.components_):
        assert abs(abs(math.fsum(x * y for x, y in zip(u, v))) - 1.0) < 1e-9


# --------------------------------------------------------- random data (hypothesis)

from hypothesis import HealthCheck, given, settings  # noqa: E402
from helpers import examples  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_finite = st.floats(min_value=-1e150, max_value=1e150, allow_nan=False, allow_infinity=False)


@st.composite
def _rows_and_cuts(draw: Any) -> tuple[List[List[float]], List[int], int]:
    d = draw(st.integers(1, 4))
    n = draw(st.integers(2, 25))
    rows = draw(st.lists(st.lists(_finite, min_size=d, max_size=d), min_size=n, max_size=n))
    cuts = sorted(draw(st.lists(st.integers(0, n), max_size=6)))
    return rows, cuts, draw(st.integers(0, 2 ** 32))


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_rows_and_cuts())
def test_exact_moments_any_floats_correctly_rounded_and_partition_free(case: Any) -> None:
    rows, cuts, seed = case
    bounds = [0] + cuts + [len(rows)]
    states = [Moments.from_rows(rows[a:b], exact=True) for a, b in zip(bounds, bounds[1:])]
    merged = _random_tree(states, random.Random(seed))
    one = Moments.from_rows(rows, exact=True)
    _check_correctly_rounded(merged, rows, ddof=1)
    assert merged.covariance(0, center=False) == one.covariance(0, center=False)
    assert Moments.from_bytes(merged.to_bytes()).covariance() == one.covariance()


@pytest.mark.parametrize("exact", [True, False])
def test_mean_pair_carries_twice_the_precision(exact: bool) -> None:
    rows = offset_rows(3000, seed=8)
    m = Moments(exact=exact, chunk_size=500)
    m.update_many(rows)
    hi, lo = m.mean_pair
    assert hi == m.mean
    truth = [sum(Fraction(r[j]) for r in rows) / len(rows) for j in range(10)]
    for j, (h, l, t) in enumerate(zip(hi, lo, truth)):
        err = abs(Fraction(h) + Fraction(l) - t)
        if exact:
            # lo is the remainder rounded once: the pair is good to an ulp of lo
            assert _correctly_rounded(l, t - Fraction(h)), j
        else:
            # good to rounding relative to the spread, not to the offset (1.7e9)
            spread = max(abs(r[j] - rows[0][j]) for r in rows)
            assert err <= Fraction(spread) * Fraction(2) ** -50, (j, float(err))
            assert err <= abs(Fraction(h) - t), j  # lo never makes it worse
