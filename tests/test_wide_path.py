"""The wide (Gram) path's C-loop pieces: the Householder reduction in panels and the back-transformation
in WY blocks (the kernel room's purepca.fast.panels), and the cache-blocked dot products of purepca.solvers."""

from __future__ import annotations

import math
import random

import pytest

import purepca.solvers as solvers
from purepca import FLOAT, DecimalContext
from purepca.fast.panels import _PANEL
from purepca.fast.panels import back_transform as _back_transform
from purepca.fast.panels import householder as _householder
from purepca.linalg.tridiagonal import tridiagonal_ql, tridiagonalize

#: The answers here depend on the interpreter or the mode: every stage of .ci/test runs them (conftest.py).
pytestmark = pytest.mark.interpreter

EPS = 2.0 ** -52


def _symmetric(n: int, seed: int, split: int = 0) -> list[list[float]]:
    """A random symmetric matrix; with ``split``, block diagonal (rows and columns ``< split`` and
    ``>= split``), so that the reflections of columns split - 2 and split - 1 are the identity."""
    rng = random.Random(seed)
    A = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1):
            if not split or (i < split) == (j < split):
                A[i][j] = A[j][i] = rng.gauss(0.0, 1.0)
    return A


def _exact_dot(u: list[float], v: list[float]) -> float:
    return math.fsum(a * b for a, b in zip(u, v))


@pytest.mark.parametrize("n,split", [(3, 0), (4, 0), (2 * _PANEL + 7, 0), (2 * _PANEL + 7, 41)])
def test_wide_path_panel_reduction_is_backward_stable(n: int, split: int) -> None:
    # ‖A·q_i - (T·Q)_i‖ and ‖QᵀQ - I‖ in units of eps·‖A‖: the step-by-step reduction gives 0.03 to
    # 0.25 on such matrices; a wrong sign, a missed panel update or a misplaced block gives O(1).
    A = _symmetric(n, n, split)
    d, e, reflections = _householder(A)
    if split:  # identity reflections within the second panel
        assert reflections[split - 1] == ([], 0.0) and reflections[split - 2] == ([], 0.0)
    identity = [[1.0 if i == j else 0.0 for j in range(n)] for i in range(n)]
    Q = _back_transform(reflections, identity, n)  # Q[i] = Q·e_i, the i-th column of Q
    norm = max(math.fsum(abs(x) for x in row) for row in A)
    worst = 0.0
    for i in range(n):
        Aq = [_exact_dot(row, Q[i]) for row in A]
        Tq = [d[i] * x for x in Q[i]]
        if i:
            Tq = [a + e[i - 1] * b for a, b in zip(Tq, Q[i - 1])]
        if i < n - 1:
            Tq = [a + e[i] * b for a, b in zip(Tq, Q[i + 1])]
        worst = max(worst, max(abs(a - b) for a, b in zip(Aq, Tq)))
    assert worst <= 4 * EPS * norm
    assert max(abs(_exact_dot(Q[i], Q[j]) - (i == j)) for i in range(n) for j in range(i + 1)) <= 4 * EPS
    # The eigenvalues of the step-by-step reduction's T, to their rounding (where an off-diagonal
    # entry vanishes, as in the block-diagonal case, T itself is not unique: the reflection after
    # it may fold a rounding residue or nothing at all).
    d0, e0, _ = tridiagonalize(A)
    values = []
    for diagonal, sub in ((d, e), (d0, e0)):
        v, w = list(diagonal), list(sub)
        tridiagonal_ql(v, w, [[] for _ in range(n)], FLOAT)
        values.append(sorted(v))
    assert max(abs(a - b) for a, b in zip(*values)) <= 64 * EPS * norm
    if not split:
        assert max(abs(a - b) for a, b in zip(d, d0)) <= 64 * EPS * norm


def test_wide_path_back_transform_matches_the_accumulated_q() -> None:
    n = 3 * 32 + 5  # three full WY blocks and a partial one
    A = _symmetric(n, 5)
    _, _, reflections = _householder(A)
    Qt = tridiagonalize(A)[2]
    rng = random.Random(9)
    ys = [[rng.gauss(0.0, 1.0) for _ in range(n)] for _ in range(3)]
    for y, Qy in zip(ys, _back_transform(reflections, ys, n)):
        norm = math.sqrt(_exact_dot(y, y))
        expected = [math.fsum(Qt[j][i] * y[j] for j in range(n)) for i in range(n)]
        # Two reductions of the same matrix agree to the conditioning of Q (not to eps): loose.
        assert max(abs(a - b) for a, b in zip(Qy, expected)) <= 1e-9 * norm
        assert abs(math.sqrt(_exact_dot(Qy, Qy)) - norm) <= 8 * EPS * norm


@pytest.mark.parametrize("rows,vectors", [(37, 1), (37, 16), (37, 33), (5, 40)])
def test_wide_path_blocked_dots_give_the_bits_of_one_vector_at_a_time(rows: int, vectors: int) -> None:
    rng = random.Random(rows * 100 + vectors)
    M = [[rng.gauss(0.0, 1.0) * 10.0 ** rng.randint(-8, 8) for _ in range(23)] for _ in range(rows)]
    V = [[rng.gauss(0.0, 1.0) for _ in range(23)] for _ in range(vectors)]
    assert solvers._blocked_dots(M, V, FLOAT) == [FLOAT.dots(M, v) for v in V]
    assert solvers._blocked_gram(M, FLOAT) == FLOAT.gram(M)


def test_wide_path_laid_out_keeps_every_bit() -> None:
    rows = [[-0.0, 5e-324, 1e308, -2.5], [float("inf"), 1.0 / 3.0, -1e-310, 0.0]]
    out = solvers._laid_out(rows, FLOAT)
    assert [[math.copysign(1.0, x) for x in r] for r in out] == [[math.copysign(1.0, x) for x in r] for r in rows]
    assert [[x.hex() for x in r] for r in out] == [[x.hex() for x in r] for r in rows]
    ctx = DecimalContext(20)
    assert solvers._laid_out(zip([ctx.one], [ctx.two]), ctx) == [[ctx.one, ctx.two]]


def test_wide_path_gram_schmidt_by_blocks_is_orthonormal_and_keeps_the_candidates_order(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # 70 candidates of dimension 90 (more than a block): the blocked first pass gives the rows of
    # one candidate at a time to within rounding, orthonormal, each row the i-th candidate's
    # direction off the span of those before it.
    rng = random.Random(3)
    d, n = 90, 70
    candidates = [[rng.gauss(0.0, 1.0) + (5.0 if j == i else 0.0) for j in range(d)] for i in range(n)]
    blocked = solvers._orthonormal_rows(candidates, n + 3, d, FLOAT)
    monkeypatch.setattr(solvers, "_CACHE_BLOCK", 10**9)
    plain = solvers._orthonormal_rows(candidates, n + 3, d, FLOAT)
    assert len(blocked) == len(plain) == n + 3
    assert max(abs(a - b) for u, v in zip(blocked, plain) for a, b in zip(u, v)) <= 1e-13
    assert max(abs(_exact_dot(blocked[i], blocked[j]) - (i == j)) for i in range(n + 3) for j in range(i + 1)) <= 1e-14
