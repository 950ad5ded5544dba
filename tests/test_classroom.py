"""The classroom's pages (issue 34): every page right, the learner's choices, the code beside the step.

Convergence is measured on the runs the pages carry, against what the theory says:
Jacobi quadratic per sweep (every pivot order), QL cubic per iteration under
Wilkinson's shift.
"""

from __future__ import annotations

import csv
import math
import pathlib
from typing import Any

import pytest

from purepca.covariance import covariance_matrix
from purepca.errors import PurePCAError
from purepca.linalg.jacobi import JacobiStep, jacobi_eigh
from purepca.teaching import trace_jacobi

DATA = pathlib.Path(__file__).resolve().parent / "data"
M5 = [[4.0, 1.0, 0.5, 0.2, 0.1], [1.0, 3.0, 0.3, 0.1, 0.2], [0.5, 0.3, 2.0, 0.4, 0.1],
      [0.2, 0.1, 0.4, 1.0, 0.3], [0.1, 0.2, 0.1, 0.3, 0.5]]


def stackloss() -> list[list[float]]:
    """statsmodels' stackloss data (21 x 4), copied into tests/data."""
    with open(DATA / "stackloss.csv", newline="") as handle:
        return [[float(x) for x in row] for row in list(csv.reader(handle))[1:]]


def stackloss_covariance() -> list[list[float]]:
    return [[float(x) for x in row] for row in covariance_matrix(stackloss())]


# ------------------------------------------------------------ Jacobi's skipped pairs

def test_jacobi_trace_records_the_pairs_the_threshold_skips() -> None:
    C = stackloss_covariance()
    steps: list[JacobiStep] = []
    jacobi_eigh(C, trace=steps.append)
    first = [s for s in steps if s.sweep == 1]
    skipped = [(p, q, float(a)) for s in first for p, q, a in s.skipped]
    # the finding: pair (2, 3) with |a23| = 1.817 skipped under the threshold 2.369
    assert [(p, q) for p, q, _ in skipped] == [(1, 2), (2, 3)]
    assert round(skipped[0][2], 3) == 1.817
    threshold = float(first[0].threshold)
    upper = sum(abs(C[p][q]) for p in range(4) for q in range(p + 1, 4))
    assert math.isclose(threshold, 0.2 / 16 * upper, rel_tol=1e-15) and round(threshold, 3) == 2.369
    assert all(a <= threshold for _, _, a in skipped)
    # every pair of the sweep is either rotated or skipped (or passes the test): none is lost
    rotated = {(s.p, s.q) for s in first if s.kind == "rotation"}
    assert rotated | {(p, q) for p, q, _ in skipped} == {(p, q) for p in range(4) for q in range(p + 1, 4)}
    # after sweep 3 the threshold is zero: nothing is skipped any more
    assert all(not s.skipped and s.threshold == 0 for s in steps if s.sweep > 3)


def test_trace_jacobi_says_when_and_why_a_pair_is_skipped() -> None:
    text = trace_jacobi(stackloss_covariance())
    assert "a sweep visits every pair once" not in text
    assert "Rutishauser" in text
    assert "skip   (2, 3): |a_pq| = 1.817 <= the sweep's threshold 2.369" in text
    assert "sweep 1 (off-diagonal norm 140 at the start, threshold 2.369)" in text


@pytest.mark.parametrize("pivot", ["threshold", "cyclic", "classical"])
def test_jacobi_eigh_pivot_orders_agree_with_the_default(pivot: str) -> None:
    default = jacobi_eigh(M5)
    other = jacobi_eigh(M5, pivot=pivot)
    assert all(math.isclose(a, b, rel_tol=1e-14) for a, b in zip(default.values, other.values))
    if pivot == "threshold":
        assert other.values == default.values and other.vectors == default.vectors


def test_jacobi_eigh_pivot_orders_visit_different_pairs() -> None:
    orders = {}
    for pivot in ("threshold", "cyclic", "classical"):
        steps: list[JacobiStep] = []
        jacobi_eigh(stackloss_covariance(), pivot=pivot, trace=steps.append)
        orders[pivot] = [(s.p, s.q) for s in steps if s.kind == "rotation"]
    assert orders["cyclic"][:6] == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    assert (1, 2) not in orders["threshold"][:4]
    C = stackloss_covariance()
    largest = max(((p, q) for p in range(4) for q in range(p + 1, 4)), key=lambda pq: abs(C[pq[0]][pq[1]]))
    assert orders["classical"][0] == largest
    assert len({tuple(v) for v in orders.values()}) == 3


def test_jacobi_eigh_unknown_pivot_is_refused() -> None:
    with pytest.raises(PurePCAError, match="pivot must be one of 'threshold', 'cyclic', 'classical', got 'random'"):
        jacobi_eigh(M5, pivot="random")


# ------------------------------------------------------------ QL: T per iteration, the shift, the bulge

def _ql_steps(M: list[list[float]], shift: str = "wilkinson") -> list[Any]:
    from purepca.linalg.tridiagonal import tridiagonal_eigh
    steps: list[Any] = []
    tridiagonal_eigh(M, trace=steps.append, shift=shift, max_iter=1000)
    return [s for s in steps if s.kind == "ql"]


def _explicit(state: Any) -> list[list[float]]:
    d, e = state
    n = len(d)
    T = [[0.0] * n for _ in range(n)]
    for i in range(n):
        T[i][i] = float(d[i])
    for i in range(n - 1):
        T[i + 1][i] = T[i][i + 1] = float(e[i])
    return T


@pytest.mark.parametrize("shift", ["wilkinson", "rayleigh", "none"])
def test_ql_trace_tridiagonal_before_and_after_are_similar_to_a(shift: str) -> None:
    C = stackloss_covariance()
    truth = jacobi_eigh(C).values
    steps = _ql_steps(C, shift)
    assert steps
    for s in steps:
        for state in (s.before, s.after):
            values = jacobi_eigh(_explicit(state)).values
            assert all(abs(a - b) <= 1e-13 * truth[0] for a, b in zip(values, truth)), (s.index, values)
        assert abs(float(s.after[1][s.index])) == s.value  # the subdiagonal the page plots is T's own
        assert s.deflated == (s.value <= s.tolerance)


def test_ql_trace_shift_is_wilkinsons_from_t() -> None:
    for s in _ql_steps(stackloss_covariance()):
        l = s.index
        a, b, c = (float(x) for x in (s.before[0][l], s.before[0][l + 1], s.before[1][l]))
        mid, rad = (a + b) / 2, math.hypot((a - b) / 2, c)
        nearer = min((mid + rad, mid - rad), key=lambda mu: abs(mu - a))
        assert math.isclose(s.shift, nearer, rel_tol=1e-12, abs_tol=1e-12 * 200), (l, s.shift, nearer)


def test_ql_trace_chase_rotations_carry_the_bulge_from_before_to_after() -> None:
    """Applying the traced rotations to T explicitly moves a bulge of the traced size and ends on T after."""
    C = stackloss_covariance()
    for s in _ql_steps(C):
        T = _explicit(s.before)
        n = len(T)
        for i, c, sn, bulge in s.chase:
            c, sn = float(c), float(sn)
            G = [[1.0 if r == k else 0.0 for k in range(n)] for r in range(n)]
            G[i][i], G[i][i + 1], G[i + 1][i], G[i + 1][i + 1] = c, -sn, sn, c
            GT = [[math.fsum(G[r][k] * T[k][j] for k in range(n)) for j in range(n)] for r in range(n)]
            T = [[math.fsum(GT[r][k] * G[j][k] for k in range(n)) for j in range(n)] for r in range(n)]
            if i > s.index:
                assert math.isclose(abs(T[i - 1][i + 1]), float(bulge), rel_tol=1e-9, abs_tol=1e-12), (i, T, bulge)
            else:
                assert float(bulge) == 0
        after = _explicit(s.after)
        assert all(abs(T[r][k] - after[r][k]) <= 1e-12 * 200 for r in range(n) for k in range(n)), (T, after)


def test_tridiagonal_eigh_unknown_shift_is_refused() -> None:
    from purepca.linalg.tridiagonal import tridiagonal_eigh
    with pytest.raises(PurePCAError, match="shift must be one of 'wilkinson', 'rayleigh', 'none', got 'exact'"):
        tridiagonal_eigh(M5, shift="exact")


def test_tridiagonal_eigh_default_shift_keeps_the_bits() -> None:
    from purepca.linalg.tridiagonal import tridiagonal_eigh
    C = stackloss_covariance()
    assert tridiagonal_eigh(C).values == tridiagonal_eigh(C, shift="wilkinson", trace=lambda s: None).values
