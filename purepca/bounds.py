"""Rigorous error bounds for computed eigenpairs of a symmetric positive semidefinite operator.

The question an oracle must answer: how far can a float eigenvalue or
eigenvector be from the *exact* one of the *exact* matrix (the covariance of
the input as given, with its exact mean; the kernel matrix of the input; or
a matrix passed as it is)?  The answer here is computed, not estimated, and
rounding cannot make it too small:

1. The computed vectors are orthonormalised at 60 significant digits
   (Gram–Schmidt, twice) and completed to a basis ``U`` of the whole space;
   the completion is turned towards the remaining eigenvectors by a float
   Jacobi step on its block, then orthonormalised again.
2. ``H = U·C·Uᵀ`` is formed at 60 digits, applying the exact operator (the
   data are exact; the mean, the scales and the products are rounded at
   60 digits), with an entrywise bound ``B`` on what that rounding can do.
3. Gershgorin's theorem on H, whose off-diagonal entries are tiny when the
   vectors are good: discs that touch form a *cluster*, whose union holds
   exactly as many eigenvalues as discs; an isolated disc is then shrunk by
   a diagonal similarity (Wilkinson's scaling), so its radius is of the
   order of the squared off-diagonal entries over the gap.  Since ``U`` is
   orthogonal to 1e-57, Ostrowski's theorem carries the intervals over to C
   with a relative widening of that size.
4. For a lone eigenvalue the angle between the computed vector and the
   exact eigenvector is at most ``asin(‖r‖/δ)`` (the single-vector
   Davis–Kahan bound: ``r = C·u - ρ·u``, ``δ`` the distance from the
   Rayleigh quotient ρ to every other eigenvalue's interval); for a cluster
   the same bound holds for the subspace it spans, with ``‖R‖_F`` and the
   gap to the eigenvalues outside it.

Intervals and angles are returned as floats rounded outwards.

>>> from purepca.bounds import matrix_bounds
>>> b = matrix_bounds([[2.0, 1.0], [1.0, 2.0]], [[2 ** -0.5, 2 ** -0.5], [2 ** -0.5, -(2 ** -0.5)]])
>>> [lo <= v <= hi for (lo, hi), v in zip(b.values, [3.0, 1.0])], [a < 1e-15 for a in b.angles]
([True, True], [True, True])
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal, localcontext
from itertools import repeat
from operator import mul, sub
from typing import Callable, Optional, Sequence

from .errors import PurePCAError
from .numeric import owned_context

__all__ = ["Bounds", "data_operator", "enclose", "kernel_entry_error", "kernel_operator", "matrix_bounds"]

#: Working digits of the enclosure (the rounding at this precision is
#: bounded explicitly; it is 40 orders of magnitude below a float's).
DIGITS = 60
_U = Decimal(10) ** (1 - DIGITS) / 2  # unit roundoff at DIGITS digits
#: Digits of the orthonormal basis the enclosure works in (see :func:`_orthonormalize` for why
#: fewer are enough there: the basis's departure from orthonormality is measured, not assumed).
BASIS_DIGITS = 34

Vector = list[Decimal]
Operator = Callable[[Vector], Vector]


@dataclass(frozen=True)
class Bounds:
    """Rigorous bounds for the computed eigenpairs, in the order given.

    ``values[i]`` is ``(low, high)``: the i-th largest exact eigenvalue lies
    in it.  ``angles[i]`` (radians) bounds the angle between the i-th given
    vector and the exact eigenvector of the i-th eigenvalue; within a
    cluster (``clusters``, groups of indices whose intervals could not be
    separated), between the span of the cluster's given vectors and the
    exact invariant subspace.  An angle of ``π/2`` says nothing could be
    proved (the gap is not resolved).
    """

    values: list[tuple[float, float]]
    angles: list[float]
    clusters: list[list[int]]


def _down(x: Decimal) -> float:
    f = float(x)
    return math.nextafter(f, -math.inf) if Decimal(f) > x else f


def _up(x: Decimal) -> float:
    f = float(x)
    return math.nextafter(f, math.inf) if Decimal(f) < x else f


def _dot(a: Sequence[Decimal], b: Sequence[Decimal]) -> Decimal:
    # The products and the sum in one C-level loop, in the order of the textbook loop (same bits).
    return sum(map(mul, a, b), Decimal(0))


def _orthonormalize(vectors: list[Vector]) -> list[Vector]:
    """Modified Gram–Schmidt at :data:`BASIS_DIGITS` digits; a vector is orthogonalised a second time
    only when the first pass left less than half of its length ("twice is enough": Giraud, Langou
    and Rozložník, 2005).

    Why fewer digits than :data:`DIGITS` are enough here: no bound relies on this basis being
    orthonormal.  :func:`enclose` measures ``η = ‖UᵀU - I‖_F`` at :data:`DIGITS` digits (with its
    own rounding added) and pays for it: every interval is widened by the factors ``1 ± η``
    (Ostrowski), every angle by ``η + 3η·‖C‖/(gap - 3η·‖C‖)`` (H = U·C·Uᵀ is within 3η·‖C‖ of a
    matrix orthogonally similar to C).  Modified Gram–Schmidt on vectors as well conditioned as
    computed eigenvectors (orthonormal to about 1e-15) leaves them orthonormal to about
    ``d·10^(1-BASIS_DIGITS)`` (Björck), below 1e-29 for d up to 10^4.  A relative widening of
    1e-29 is 13 orders of magnitude below the half ulp by which an interval's float ends are
    rounded outwards; and ``3η·‖C‖/gap`` is 13 orders below ``eps·‖C‖/gap``, the angle to which a
    float eigenvector is determined at all (the rounding of C's entries alone moves the exact
    eigenvector that far).  So the bounds are as tight as at :data:`DIGITS` digits for everything
    a float can resolve; a badly conditioned input shows in η, and in the bounds, rather than
    hiding.  And 34 digits fit in two words of libmpdec (19 digits each), where a product costs
    two thirds of one at 60 digits (measured: 0.28 against 0.42 µs on CPython 3.13)."""
    with localcontext() as ctx:
        ctx.prec = BASIS_DIGITS
        return _gram_schmidt(vectors)


def _project_out(w: Vector, basis: list[Vector]) -> Vector:
    """One pass of modified Gram–Schmidt: ``w`` less its component along each (unit) vector of
    ``basis`` in turn.  The one orthogonalisation of this module (:func:`_gram_schmidt`,
    :func:`_complete`)."""
    for q in basis:
        c = _dot(q, w)
        w = list(map(sub, w, map(mul, repeat(c), q)))
    return w


def _gram_schmidt(vectors: list[Vector]) -> list[Vector]:
    out: list[Vector] = []
    for v in vectors:
        w = [+x for x in v]  # rounded to the context's digits (a float's exact decimal has up to 767)
        before = _dot(w, w)
        for _ in range(2):
            w = _project_out(w, out)
            if 4 * _dot(w, w) > before:
                break
            before = _dot(w, w)
        norm = _dot(w, w).sqrt()
        if norm == 0:
            raise PurePCAError("error bounds: the computed vectors are linearly dependent")
        out.append([x / norm for x in w])
    return out


def _complete(basis: list[Vector], d: int, apply: Operator) -> list[Vector]:
    """``basis`` completed to d orthonormal vectors, the new ones turned towards eigenvectors."""
    from .linalg.jacobi import jacobi_eigh

    if len(basis) == d:
        return basis
    extra: list[Vector] = []
    for j in range(d):
        if len(basis) + len(extra) == d:
            break
        w = [Decimal(1) if i == j else Decimal(0) for i in range(d)]
        for _ in range(2):
            w = _project_out(w, basis + extra)
        norm = _dot(w, w).sqrt()
        if norm > Decimal("1e-3"):
            extra.append([x / norm for x in w])
    images = [apply(v) for v in extra]
    block = [[float(_dot(a, b)) for b in images] for a in extra]
    eig = jacobi_eigh([[(x + y) / 2 for x, y in zip(r, c)] for r, c in zip(block, zip(*block))])
    turned = [[sum((Decimal(q) * v[t] for q, v in zip(vec, extra)), Decimal(0)) for t in range(d)]
              for vec in eig.vectors]
    return basis + _orthonormalize(turned)


def enclose(apply: Operator, d: int, vectors: Sequence[Sequence[float]], entry_error: Decimal,
            psd: bool = True) -> Bounds:
    """Bounds for the given (computed) eigenvectors of the exact symmetric operator ``apply``.

    ``apply`` maps a vector of Decimals to the operator applied to it at
    :data:`DIGITS` digits; ``entry_error`` bounds the error of one entry of
    ``uᵀ·apply(v)`` for unit vectors u, v (what the caller's rounding can
    do).  The vectors are the k computed eigenvectors in order of decreasing
    eigenvalue; the result is for the k largest exact eigenvalues.  ``psd``
    says the operator is positive semidefinite (then no interval reaches
    below 0).

    >>> from decimal import Decimal
    >>> A = [[4.0, 1.0], [1.0, 3.0]]
    >>> apply = lambda v: [sum((Decimal(a) * x for a, x in zip(row, v)), Decimal(0)) for row in A]
    >>> b = enclose(apply, 2, [[0.85065080835204, 0.52573111211913]], Decimal("1e-55"))
    >>> lo, hi = b.values[0]
    >>> lo <= (7 + 5 ** 0.5) / 2 <= hi, hi - lo <= 2 * 2.0 ** -50   # two ulps: the float interval around a 60-digit one
    (True, True)
    """
    k = len(vectors)
    if k == 0:
        return Bounds([], [], [])
    with localcontext(owned_context()) as ctx:  # a fresh context: none of the caller's traps or limits
        ctx.prec = DIGITS
        given = [[Decimal(float(x)) for x in v] for v in vectors]
        U = _complete(_orthonormalize(given), d, apply)
        H = _projected(apply, U, d)
        eta = _basis_error(U, d)
        B = entry_error * (1 + eta) + d * 4 * _U * max((abs(H[i][i]) for i in range(d)), default=Decimal(0))
        discs = _discs(H, B, d)
        # Ostrowski: the eigenvalues of C are those of H divided by factors in [1 - eta, 1 + eta].
        low_f, high_f = 1 - eta, 1 + eta

        def carried(lo: Decimal, hi: Decimal) -> tuple[Decimal, Decimal]:
            new_lo = lo / high_f if lo >= 0 else lo / low_f
            new_hi = hi / low_f if hi >= 0 else hi / high_f
            return (max(new_lo, Decimal(0)) if psd else new_lo), new_hi  # a PSD operator: no negative eigenvalue

        intervals = [carried(lo, hi) for lo, hi in discs.position_interval]
        clusters: list[list[int]] = []
        for comp in discs.components:
            given_here = sorted(v for v in comp if v < k)
            if given_here:
                clusters.append(given_here)
        # U = (I + F)·Q with Q orthogonal and ‖F‖ <= η (η < 1/2), so H = U·C·Uᵀ is
        # H0 = Q·C·Qᵀ (orthogonally similar to C) moved by at most (2η + η²)·‖C‖ <= 3η·‖C‖ =: skew:
        # the eigenvectors of H are those of H0 to within skew over the gap (Davis–Kahan).
        top = max((max(abs(lo), abs(hi)) for lo, hi in intervals), default=Decimal(0))
        skew = 3 * eta * top
        angles = _angles(k, d, H, discs, skew, eta, given, U)
        values = [(_down(lo), _up(hi)) for lo, hi in intervals[:k]]
    return Bounds(values, angles, clusters)


def _projected(apply: Operator, U: list[list[Decimal]], d: int) -> list[list[Decimal]]:
    """``H = U·C·Uᵀ``, the operator in the basis U.  C is symmetric: so is H.  Each computed entry
    U_i·C(U_j) is within B of the exact one (in :func:`enclose`), so the upper triangle, mirrored,
    is too: the lower one would only repeat the work."""
    if isinstance(apply, _DataProducts):
        H = apply.gram(U)  # the same entries from Z·U_i, with fewer products
    else:
        images = [apply(u) for u in U]
        H = [[_dot(U[i], images[j]) if j >= i else Decimal(0) for j in range(d)] for i in range(d)]
    for i in range(d):
        for j in range(i):
            H[i][j] = H[j][i]
    return H


def _basis_error(U: list[list[Decimal]], d: int) -> Decimal:
    """η, how far U is from orthonormal (Ostrowski), with the rounding of G = U·Uᵀ's entries added."""
    # U_i·U_j and U_j·U_i are the same products summed in the same order: the same number, computed once.
    # At BASIS_DIGITS + 4 digits: U's entries have BASIS_DIGITS, so G - I is about 10^-BASIS_DIGITS
    # and a rounding 10^4 times smaller is all it needs; the rounding is added to η below.
    with localcontext() as gram_ctx:
        gram_ctx.prec = BASIS_DIGITS + 4
        G = [[_dot(U[i], U[j]) if j >= i else Decimal(0) for j in range(d)] for i in range(d)]
    for i in range(d):
        for j in range(i):
            G[i][j] = G[j][i]
    eta = sum(((G[i][j] - (1 if i == j else 0)) ** 2 for i in range(d) for j in range(d)), Decimal(0)).sqrt()
    # Each entry of G is a sum of d products, rounded within (d + 1)·u'·‖U_i‖·‖U_j‖ (u' at
    # BASIS_DIGITS + 4 digits, ‖U_i‖² <= 1 + η < 4): over the d² entries, d·(d + 1)·4u'.
    return eta + (d * (d + 1) * 4 * (Decimal(10) ** (-3 - BASIS_DIGITS) / 2) + d * d * _U)


@dataclass(frozen=True)
class _Discs:
    """H's Gershgorin discs (each off-diagonal entry widened by B) as disjoint components, in
    decreasing order, and the interval each position (eigenvalue index) gets from its component."""

    diag: list[Decimal]
    off: list[list[Decimal]]
    B: Decimal
    components: list[list[int]]
    position_interval: list[tuple[Decimal, Decimal]]
    component_of_position: list[int]
    positions_of_component: list[list[int]]


def _discs(H: list[list[Decimal]], B: Decimal, d: int) -> _Discs:
    """The discs of H and their components: a component of m discs holds exactly m eigenvalues
    (Gershgorin), so the components, in decreasing order, give each position its interval."""
    diag = [H[i][i] for i in range(d)]
    off = [[abs(H[i][j]) + B if i != j else Decimal(0) for j in range(d)] for i in range(d)]
    row_sums = [sum(off[i], Decimal(0)) for i in range(d)]
    radius = [r + B for r in row_sums]
    lows = [diag[i] - radius[i] for i in range(d)]
    highs = [diag[i] + radius[i] for i in range(d)]
    by_low = sorted(range(d), key=lambda i: lows[i])
    components: list[list[int]] = [[by_low[0]]]
    reach = highs[by_low[0]]
    for i in by_low[1:]:
        if lows[i] <= reach:
            components[-1].append(i)
            reach = max(reach, highs[i])
        else:
            components.append([i])
            reach = highs[i]
    components.reverse()
    position_interval: list[tuple[Decimal, Decimal]] = []
    component_of_position: list[int] = []
    positions_of_component: list[list[int]] = []
    for ci, comp in enumerate(components):
        lo = min(lows[j] for j in comp)
        hi = max(highs[j] for j in comp)
        if len(comp) == 1:
            lo, hi = _isolated(comp[0], diag, off, B, lo, hi, row_sums)
        positions_of_component.append(list(range(len(position_interval), len(position_interval) + len(comp))))
        for _ in comp:
            position_interval.append((lo, hi))
            component_of_position.append(ci)
    return _Discs(diag, off, B, components, position_interval, component_of_position, positions_of_component)


def _angles(k: int, d: int, H: list[list[Decimal]], discs: _Discs, skew: Decimal, eta: Decimal,
            given: list[list[Decimal]], U: list[list[Decimal]]) -> list[float]:
    """The angle bound of each given vector: π/2 where the vector is not determined."""
    diag, off, B = discs.diag, discs.off, discs.B
    components, position_interval = discs.components, discs.position_interval
    component_of_vector = {v: ci for ci, comp in enumerate(components) for v in comp}
    cached_norm: list[Decimal] = []

    def off_norm() -> Decimal:
        """‖F‖_F over every off-diagonal bound (computed once, when a lone vector needs it)."""
        if not cached_norm:
            cached_norm.append(sum((off[a][b] ** 2 for a in range(d) for b in range(d) if a != b),
                                   Decimal(0)).sqrt())
        return cached_norm[0]

    angles: list[float] = []
    for i in range(k):
        ci = component_of_vector[i]
        members = components[ci]
        # The given vectors of the component must be exactly the component's positions: then their
        # span is compared with the exact invariant subspace of those eigenvalues.
        if sorted(members) != discs.positions_of_component[ci] or max(members) >= k:
            # Out of order, or sharing its eigenvalues with directions that were not given
            # (a cluster cut by the kept components): the vector is not determined.
            angles.append(math.pi / 2)
            continue
        inside = set(members)
        res2 = sum((H[j][m] ** 2 for m in members for j in range(d) if j not in inside), Decimal(0))
        res = res2.sqrt() + len(members) * d * B
        ritz_lo = min(diag[m] - sum((off[m][q] for q in members if q != m), Decimal(0)) for m in members) - B
        ritz_hi = max(diag[m] + sum((off[m][q] for q in members if q != m), Decimal(0)) for m in members) + B
        others = [position_interval[q] for q in range(d) if discs.component_of_position[q] != ci]
        gap = min((max(lo - ritz_hi, ritz_lo - hi) for lo, hi in others), default=Decimal("Infinity"))
        if gap <= skew:
            angles.append(math.pi / 2)
            continue
        s = res / gap
        if len(members) == 1:
            s = min(s, _lone_angle(i, position_interval[discs.positions_of_component[ci][0]], diag, off, B,
                                   off_norm()))
        # s bounds the angle of H's invariant subspace; H0's is within skew/(gap - skew) of it, and
        # U maps coordinates to the space within η of an isometry.
        s += skew / (gap - skew) + eta + _drift(given[i], U[i])
        angles.append(math.pi / 2 if s >= 1 else math.nextafter(math.asin(_up(s)) * (1 + 1e-15), math.inf))
    return angles

def _lone_angle(i: int, interval: tuple[Decimal, Decimal], diag: list[Decimal], off: list[list[Decimal]],
                B: Decimal, f_norm: Decimal) -> Decimal:
    """tan of the angle between e_i and the eigenvector of H whose eigenvalue is alone in ``interval``,
    with each coupling divided by its own gap (Davis–Kahan divides the whole residual by the smallest).

    The eigenvector x satisfies, for every j != i, ``(h_jj - λ)·x_j = -h_ji·x_i - Σ_m h_jm·x_m``: with G the
    diagonal of ``h_jj - λ`` (each at least ``dist_j``) and F the off-diagonal part among j != i,
    ``‖x_rest‖ <= ‖G⁻¹h‖·|x_i| / (1 - ‖G⁻¹F‖)``, and ``‖G⁻¹F‖ <= ‖F‖_F / min dist``.  A nearly collinear
    column's small eigenvector, coupled weakly to a far eigenvalue and not at all to its near neighbour,
    gets the error it has, not that coupling over the near gap.  An unresolved case returns 1 (no bound).
    """
    lo, hi = interval
    total = Decimal(0)
    nearest = Decimal("Infinity")
    for j in range(len(diag)):
        if j == i:
            continue
        dist = max(diag[j] - hi, lo - diag[j]) - B
        if dist <= 0:
            return Decimal(1)
        nearest = min(nearest, dist)
        total += (off[j][i] / dist) ** 2
    q = f_norm / nearest if nearest != Decimal("Infinity") else Decimal(0)
    if q >= Decimal("0.5"):
        return Decimal(1)
    return total.sqrt() / (1 - q)


def _drift(v: Vector, u: Vector) -> Decimal:
    """An upper bound on the sin of the angle between v and u (neither need be unit).

    The sine is ``‖r‖/‖v‖`` with ``r = v - (v·u/u·u)·u``, the part of v orthogonal to u: no
    cancellation, so u's length may be off by the rounding of its basis (``1 - c²`` with
    ``c = v·u/‖v‖`` turned a length error of 1e-34 into 1e-18 of the sine of an angle of 1e-16).
    The rounding: each entry of r within ``2u·(|c·u_j| + |r_j|)`` (the product, the difference),
    so ``‖Δr‖ <= 4u·‖v‖``; the norms and the quotient add ``(d + 4)·u`` relative.
    """
    vv, uu = _dot(v, v), _dot(u, u)
    if vv == 0 or uu == 0:
        return Decimal(1)
    c = _dot(v, u) / uu
    r = list(map(sub, v, map(mul, repeat(c), u)))
    return _dot(r, r).sqrt() / vv.sqrt() + (len(v) + 10) * _U


def _isolated(i: int, diag: list[Decimal], off: list[list[Decimal]], B: Decimal, lo: Decimal,
              hi: Decimal, row_sums: list[Decimal]) -> tuple[Decimal, Decimal]:
    """A tighter interval for the isolated disc i: scale row and column i by ε < 1 (a similarity), which
    shrinks disc i to ``B + ε·Σ_j O_ij`` and grows disc j by ``O_ji/ε``; the smallest ε that keeps the
    discs apart still isolates one eigenvalue.  ``row_sums[j]`` is ``Σ_q O_jq`` (``O_jj = 0``)."""
    d = len(diag)
    row = row_sums[i]
    if row == 0:
        return diag[i] - B, diag[i] + B
    # Σ_{q ≠ i, j} O_jq, as the row sum less O_ji: the row sum of d terms carries at most d·u of
    # rounding relative to itself and the subtraction one more u, so adding (d + 2)·u·row_sums[j]
    # makes each ``rest`` at least the exact sum (an O(d) sum per pair made this O(d³)).
    rests = [row_sums[j] - off[j][i] + (d + 2) * _U * row_sums[j] + B for j in range(d)]
    eps = Decimal(0)
    for j in range(d):
        if j == i:
            continue
        rest = rests[j]
        g = abs(diag[i] - diag[j]) - B - rest
        if g <= 0:
            return lo, hi
        disc = g * g - 4 * row * off[j][i]
        if disc < 0:
            return lo, hi
        eps = max(eps, (g - disc.sqrt()) / (2 * row))
    eps = min(Decimal(1), eps * (1 + Decimal("1e-20")) + Decimal("1e-300"))
    # Check the separation at this ε (rounding-safe by the margin above).
    for j in range(d):
        if j == i:
            continue
        if abs(diag[i] - diag[j]) <= B + eps * row + rests[j] + off[j][i] / eps:
            return lo, hi
    r = B + eps * row
    return max(lo, diag[i] - r), min(hi, diag[i] + r)


def matrix_bounds(A: Sequence[Sequence[float]], vectors: Sequence[Sequence[float]]) -> Bounds:
    """Bounds for computed eigenvectors (rows, in order of decreasing eigenvalue) of a symmetric
    positive semidefinite matrix of floats, taken exactly as given.

    >>> b = matrix_bounds([[2.0, 0.0], [0.0, 1.0]], [[1.0, 0.0]])
    >>> b.values[0][0] <= 2.0 <= b.values[0][1]
    True
    """
    from .linalg.matrix import as_symmetric

    M = as_symmetric(A, rtol=0.0)
    d = len(M)
    Md = [[Decimal(x) for x in row] for row in M]

    def apply(v: Vector) -> Vector:
        return [_dot(row, v) for row in Md]

    scale = max((sum(abs(x) for x in row) for row in Md), default=Decimal(0))
    return enclose(apply, d, vectors, Decimal(2 * d + 4) * _U * scale)


def data_operator(rows: Sequence[Sequence[float]], ddof: int, scale: bool,
                  center: bool = True, weights: Optional[Sequence[float]] = None,
                  column_weights: Optional[Sequence[float]] = None) -> tuple[Operator, Decimal]:
    """The exact covariance (correlation when ``scale``) of the rows as an operator at 60 digits, and
    the bound on the error of one entry ``uᵀ·C·v`` for unit u, v.

    With row weights ``w`` (frequencies) the means are ``Σw·x/Σw`` and the divisor ``Σw - ddof``; with
    column weights ``c`` the operator is ``D_c^½·C·D_c^½`` (:mod:`purepca.weights`).

    >>> apply, err = data_operator([[0.0, 1.0], [2.0, 3.0]], 1, False)
    >>> [float(x) for x in apply([Decimal(1), Decimal(0)])], err < Decimal("1e-50")
    ([2.0, 2.0], True)
    >>> apply, err = data_operator([[0.0, 1.0], [2.0, 3.0]], 0, False, weights=[3.0, 1.0])
    >>> [float(x) for x in apply([Decimal(1), Decimal(0)])]
    [0.75, 0.75]
    """
    n, d = len(rows), len(rows[0])
    with localcontext(owned_context()) as ctx:  # a fresh context: none of the caller's traps or limits
        ctx.prec = DIGITS
        X = [[Decimal(float(x)) for x in row] for row in rows]
        w = [Decimal(float(v)) for v in weights] if weights is not None else [Decimal(1)] * n
        total = sum(w, Decimal(0))  # rounded at 60 digits: relative error below n·u
        if center:
            means = [sum((wi * r[j] for wi, r in zip(w, X)), Decimal(0)) / total for j in range(d)]
        else:
            means = [Decimal(0)] * d
        Z = [[x - m for x, m in zip(r, means)] for r in X]
        div = total - ddof
        biggest = max((abs(x) for r in X for x in r), default=Decimal(0))
        mean_error = (n + 3) * _U * biggest
        if scale:
            sd = [(sum((wi * r[j] * r[j] for wi, r in zip(w, Z)), Decimal(0)) / div).sqrt() for j in range(d)]
            if any(s == 0 for s in sd):
                raise PurePCAError("error bounds: a constant column cannot be scaled")
            Z = [[z / s for z, s in zip(r, sd)] for r in Z]
            # Relative rounding of the scales, and the mean's error relative to each column's spread.
            relative = max(mean_error * total.sqrt() / (s * div.sqrt()) for s in sd) + 8 * _U
        else:
            relative = Decimal(0)
        if weights is not None:
            relative += (n + 4) * _U  # the weight total's rounding, in the means and the divisor
        grow = Decimal(1)  # the largest factor the column weights put on a column
        if column_weights is not None:
            roots = [Decimal(float(c)).sqrt() for c in column_weights]
            Z = [[z * r for z, r in zip(row, roots)] for row in Z]
            grow = max(roots)
            relative += 4 * _U  # the square roots, each within an ulp
        frob2 = sum((wi * z * z for wi, r in zip(w, Z) for z in r), Decimal(0))

        apply = _DataProducts(Z, None if weights is None else w, div)

        # An entry uᵀ·C·v for unit u, v: the products and sums at 60 digits ((n + 2d + 10)·u·‖Y‖²/div,
        # Y = D_w^½·Z·D_c^½; either way: uᵀ·(Zᵀ·(w·Z·v)) or (Z·u)ᵀ·(w·Z·v), see _DataProducts), the
        # mean's error (2·‖Y‖·sqrt(W)·δ + W·δ², δ per entry, times the largest column factor) and the
        # scales' rounding.
        norm = frob2.sqrt()
        if scale:  # the mean's error is in data units; the operator's columns are divided by the scales
            delta = sum(((mean_error / s) ** 2 for s in sd), Decimal(0)).sqrt() * grow
        else:
            delta = mean_error * Decimal(d).sqrt() * grow
        error = ((n + 2 * d + 10) * _U * frob2 + 2 * norm * total.sqrt() * delta + total * delta * delta) / div
        error += 4 * relative * frob2 / div
    return apply, error


class _DataProducts:
    """``v -> Zᵀ·D_w·Z·v / div`` at the working precision (the caller's), and :meth:`gram`, the whole
    of ``U·C·Uᵀ`` from the products ``Z·u``: ``n·d·k + n·k²/2`` multiplications rather than the
    ``2·n·d·k + d·k²/2`` of applying C to every u and taking dot products.

    Each entry of either form is a sum of d products (``Z·v``; rounding at most ``d·u`` relative to
    ``Σ|z·v|``), weighted, then a sum of n or d products: by Cauchy–Schwarz both stay within
    ``(n + 2d + 10)·u·‖Y‖²/div`` of the exact ``uᵀ·C·v`` for unit u, v, the term
    :func:`data_operator` puts in its bound.
    """

    def __init__(self, Z: list[Vector], w: Optional[list[Decimal]], div: Decimal) -> None:
        self.Z, self.w, self.div = Z, w, div
        self.ZT = [list(col) for col in zip(*Z)]

    def _row_products(self, v: Vector) -> tuple[Vector, Vector]:
        t = [_dot(r, v) for r in self.Z]
        return t, (t if self.w is None else list(map(mul, self.w, t)))

    def __call__(self, v: Vector) -> Vector:
        t = self._row_products(v)[1]
        return [_dot(col, t) / self.div for col in self.ZT]  # Σ_r Z[r][j]·t[r], as the loop over rows

    def gram(self, U: list[Vector]) -> list[list[Decimal]]:
        """``H[i][j] = (Z·U_i)ᵀ·D_w·(Z·U_j)/div`` for ``j >= i``; the lower triangle is left 0."""
        plain, weighted = zip(*(self._row_products(u) for u in U))
        k = len(U)
        return [[_dot(weighted[i], plain[j]) / self.div if j >= i else Decimal(0) for j in range(k)]
                for i in range(k)]


def covariance_operator(C: Sequence[Sequence[float]]) -> tuple[Operator, Decimal]:
    """The operator of a covariance given correctly rounded (each entry within half an ulp of the exact
    covariance, as exact :class:`~purepca.Moments` give it), and the error that rounding can make in
    ``uᵀ·C·v`` for unit u, v: at most ``‖ΔC‖_F``, the root of the sum of the squared half ulps.

    >>> apply, error = covariance_operator([[2.0, 1.0], [1.0, 2.0]])
    >>> [float(x) for x in apply([Decimal(1), Decimal(0)])], float(error) < 1e-15
    ([2.0, 1.0], True)
    """
    with localcontext(owned_context()) as ctx:
        ctx.prec = DIGITS
        A = [[Decimal(float(v)) for v in row] for row in C]
        half_ulps = sum((Decimal(math.ulp(float(v))) / 2) ** 2 for row in C for v in row)
        error = half_ulps.sqrt() if half_ulps else Decimal(0)

    def apply(v: Vector) -> Vector:
        with localcontext(owned_context()) as inner:
            inner.prec = DIGITS
            return [sum((a * x for a, x in zip(row, v)), Decimal(0)) for row in A]

    return apply, error


def kernel_operator(K: Sequence[Sequence[Decimal]], entry_error: Decimal) -> tuple[Operator, Decimal]:
    """The exactly centred kernel matrix ``(I - 1/n)·K·(I - 1/n)`` as an operator at 60 digits, from
    kernel values known to ``entry_error`` each, and the bound on one entry of ``uᵀ·K̃·v``.

    >>> apply, err = kernel_operator([[Decimal(1), Decimal(0)], [Decimal(0), Decimal(1)]], Decimal(0))
    >>> [float(x) for x in apply([Decimal(1), Decimal(-1)])]
    [1.0, -1.0]
    """
    n = len(K)
    with localcontext(owned_context()) as ctx:  # a fresh context: none of the caller's traps or limits
        ctx.prec = DIGITS
        rows = [sum(r, Decimal(0)) / n for r in K]
        total = sum(rows, Decimal(0)) / n
        Kc = [[K[i][j] - rows[i] - rows[j] + total for j in range(n)] for i in range(n)]
        scale = max((sum(abs(x) for x in r) for r in K), default=Decimal(0))

        def apply(v: Vector) -> Vector:
            return [_dot(r, v) for r in Kc]

        error = (4 * n + 8) * _U * scale + 4 * n * entry_error
    return apply, error



def kernel_entry_error(kernel: str, X: Sequence[Sequence[float]], gamma: float, degree: int, coef0: float,
                       K: Sequence[Sequence[Decimal]]) -> Decimal:
    """A bound on the error of every entry of the kernel matrix computed at 60 digits from the exact rows.

    Each kernel is a few sums of products (rounded at 60 digits: at most
    ``(m + 4)·u`` relative to the sum of absolute terms) followed by one
    correctly rounded function (``exp``, ``tanh`` through ``exp``, a power,
    a square root); the bound propagates the first through the second.

    >>> from decimal import Decimal
    >>> kernel_entry_error("linear", [[1.0, 2.0]], 1.0, 3, 1.0, [[Decimal(5)]]) < Decimal("1e-57")
    True
    """
    n, d = len(X), len(X[0])
    worst = Decimal(0)
    with localcontext(owned_context()) as ctx:  # a fresh context: none of the caller's traps or limits
        ctx.prec = DIGITS
        rows = [[Decimal(float(x)) for x in r] for r in X]
        g = abs(Decimal(float(gamma)))
        c0 = abs(Decimal(float(coef0)))
        for i in range(n):
            for j in range(i, n):
                a, b = rows[i], rows[j]
                kij = abs(K[i][j])
                prods = sum((abs(x * y) for x, y in zip(a, b)), Decimal(0))
                if kernel == "linear":
                    e = (d + 4) * _U * prods
                elif kernel == "cosine":
                    e = (2 * d + 12) * _U * (kij + 1)
                elif kernel == "poly":
                    base_err = (d + 4) * _U * (g * prods + c0)
                    base = g * prods + c0
                    e = degree * (base + base_err) ** max(degree - 1, 0) * base_err + 4 * degree * _U * kij
                elif kernel == "sigmoid":
                    e = (d + 4) * _U * (g * prods + c0) + 8 * _U
                else:  # rbf, laplacian: K = exp(-arg), arg >= 0 rounded to (2d + 6)·u relative
                    if kernel == "rbf":
                        arg = g * sum(((x - y) ** 2 for x, y in zip(a, b)), Decimal(0))
                    else:
                        arg = g * sum((abs(x - y) for x, y in zip(a, b)), Decimal(0))
                    e = kij * (3 * (2 * d + 6) * _U * arg + 4 * _U)
                worst = max(worst, e)
    return worst * 2 + Decimal(10) ** (-DIGITS - 20)
