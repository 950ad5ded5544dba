"""Gram matrices by methods written for an interpreter (kernels of :mod:`purepca.fast`).

The reference (:meth:`purepca.numeric.Context.gram`, and ``GramWork`` with no kernel) computes
each entry as a compensated dot product.  ``Context.fast_gram``, through ``GramWork(fast=True)``
(the fit's Gram, whose entries an eigensolver
will perturb by ``n·eps·‖G‖`` anyway) may take one of these instead; each promises a bound, not
the same bits:

=================  ==========================================================  ======================
kernel             how                                                         each entry within
=================  ==========================================================  ======================
``PolarGram``      CPython < 3.12, MicroPython: ``u·v = (‖u‖² + ‖v‖² -          ``32·eps·‖u‖·‖v‖``
                   ‖u - v‖²)/2`` on vectors scaled to norms in [1/2, 1), with
                   ``‖u - v‖`` from ``math.dist`` (one C loop)
``BlockedGram``    PyPy: :func:`~purepca.fast.sums.blocked_dot`                 ``17·eps·‖u‖·‖v‖``
``ExtendedGram``   CPython 3.12+, deviations never made: ``sumprod`` of raw     ``u·|G_ij| +
                   columns extended by four terms (fast.centre)               (u/4)·‖c_i‖·‖c_j‖``
=================  ==========================================================  ======================

Each has ``row(i)`` (``[v_i·v_j for j >= i]``, the unit of work processes share) and
``compute()`` (the whole matrix, or None: assemble the rows).  tests/test_fast.py checks every
bound against exact Fractions.
"""

from __future__ import annotations

import itertools
import math
import operator
from typing import Any, Optional, Sequence

from .sums import blocked_dot, blocked_dot_about

__all__ = ["BlockedGram", "DeviationColumns", "ExtendedGram", "PolarGram", "PolarRows"]


class DeviationColumns:
    """The columns ``x - m`` of raw columns about their means, each made when it is first read
    and then kept (``made[j]``, given for the columns made already).  PyPy's fit hands them to
    the Gram, which reads the raw columns and the means directly (:func:`~purepca.fast.sums.blocked_dot_about`):
    the fit then holds no centred copy of the data beside the one it keeps, and stays under the
    collector's next major collection more often.  Reads as a list of columns (indexing,
    slices, ``len``, iteration); the raw columns are never changed.

    >>> cols = DeviationColumns([[1.0, 3.0], [2.0, 6.0]], [2.0, 4.0])
    >>> len(cols), cols[1], cols[:1], [sum(c) for c in cols]
    (2, [-2.0, 2.0], [[-1.0, 1.0]], [0.0, 0.0])
    """

    def __init__(self, raw: Sequence[Sequence[float]], means: Sequence[float],
                 made: Optional[list[Optional[list[float]]]] = None,
                 extended: Optional[tuple[list[list[float]], list[list[float]], list[float]]] = None) -> None:
        self.raw = raw
        self.means = means
        self.made: list[Optional[list[float]]] = [None] * len(raw) if made is None else made
        #: CPython 3.12+: ``(lefts, rights, diagonal)``, each raw column extended by four terms so
        #: that ``sumprod(lefts[i], rights[j])`` is ``Σ(x_i - m_i)(x_j - m_j)`` with no deviation
        #: made (``fast.centre.extended_centring``), and the diagonal so computed.
        self.extended = extended

    def __len__(self) -> int:
        return len(self.raw)

    def __getitem__(self, j: Any) -> Any:
        if isinstance(j, slice):
            return [self[i] for i in range(*j.indices(len(self.raw)))]
        col = self.made[j]
        if col is None:
            m = self.means[j]
            col = self.made[j] = [x - m for x in self.raw[j]]
        return col

    def __iter__(self) -> Any:
        return (self[j] for j in range(len(self.raw)))


class PolarGram:
    """The Gram by polarization (see the module's table): each vector scaled by a power of two
    (exactly) to a norm in [1/2, 1), the squared norms from ``fsum``.  The cancellation leaves an
    absolute error of at most about ``16·eps`` in the scaled units.

    >>> [[round(x, 12) for x in PolarGram([[1.0, 2.0], [3.0, 4.0]]).row(i)] for i in (0, 1)]
    [[5.0, 11.0], [25.0]]
    """

    def __init__(self, vectors: Sequence[Sequence[float]]) -> None:
        # Tuples: math.dist converts any other sequence to a tuple on every call, which on
        # long vectors costs more than the distance itself (the same bits either way).
        self.units: list[tuple[float, ...]] = []
        self.exps: list[int] = []
        self.squares: list[float] = []
        for v in vectors:
            norm = math.hypot(*v)
            e = math.frexp(norm)[1] if norm > 0 and math.isfinite(norm) else 0
            self.add(_scaled(v, e), e)

    def add(self, u: Sequence[float], e: int = 0) -> None:
        """One more vector ``u·2**e`` (``u`` of norm near one)."""
        u = tuple(u)
        self.units.append(u)
        self.exps.append(e)
        self.squares.append(math.fsum(map(operator.mul, u, u)))

    def row(self, i: int) -> list[float]:
        """``[v_i·v_j for j in range(i, k)]``."""
        ui, ni, ei = self.units[i], self.squares[i], self.exps[i]
        dist, ldexp = math.dist, math.ldexp
        units, squares, exps = self.units, self.squares, self.exps
        out = [ni * 2.0 ** (2 * ei) if -500 < ei < 500 else ldexp(ni, 2 * ei)]
        for j in range(i + 1, len(units)):
            nj = squares[j]
            if nj and ni:
                r = dist(ui, units[j])
                out.append(ldexp((ni + nj - r * r) * 0.5, ei + exps[j]))
            else:  # a zero vector: exactly zero, not a rounding residue
                out.append(0.0)
        return out

    def compute(self) -> None:
        """None: the matrix is assembled from :meth:`row`."""
        return None


def _scaled(v: Sequence[float], e: int) -> tuple[float, ...]:
    """``v·2**-e`` exactly (a power of two), as a tuple."""
    if -1000 < e < 1000:
        return tuple(map(operator.mul, v, itertools.repeat(2.0 ** -e)))
    return tuple([math.ldexp(x, -e) for x in v])


class PolarRows:
    """Many inner products with a fixed (or growing) set of rows by polarization: the rows
    scaled once, each query vector likewise; each product within about ``32·eps·‖r‖·‖v‖``.

    >>> [round(x, 12) for x in PolarRows([[1.0, 2.0], [3.0, 4.0]]).dots([1.0, 1.0])]
    [3.0, 7.0]
    """

    def __init__(self, rows: Sequence[Sequence[float]]) -> None:
        self.gram = PolarGram(rows)

    def add_unit(self, u: Sequence[float]) -> None:
        """One more row, of norm near one (a basis vector)."""
        self.gram.add(u)

    def dots(self, v: Sequence[float]) -> Optional[list[float]]:
        """``[r·v for r in rows]``, or None where ``v`` is not finite (the reference answers)."""
        w = self.gram
        norm = math.hypot(*v)
        if norm == 0:
            return [0.0] * len(w.units)  # a zero vector, against however many rows the work holds
        if not math.isfinite(norm):
            return None
        e = math.frexp(norm)[1]
        u = _scaled(v, e)
        nu = math.fsum(map(operator.mul, u, u))
        dist, ldexp = math.dist, math.ldexp
        return [
            ldexp((nr + nu - r * r) * 0.5, er + e) if nr else 0.0
            for nr, er, r in zip(w.squares, w.exps, map(dist, w.units, itertools.repeat(u)))
        ]


class BlockedGram:
    """The Gram by :func:`~purepca.fast.sums.blocked_dot` (PyPy), in one loop nest; of
    :class:`DeviationColumns`, from their raw columns and means (the same entries).

    >>> BlockedGram([[1.0, 2.0], [3.0, 4.0]]).compute()
    [[5.0, 11.0], [11.0, 25.0]]
    """

    def __init__(self, vectors: Sequence[Sequence[float]]) -> None:
        self.vectors = vectors

    def row(self, i: int) -> list[float]:
        """``[v_i·v_j for j in range(i, k)]``."""
        vs, vi = self.vectors, self.vectors[i]
        return [blocked_dot(vs[j], vi) for j in range(i, len(vs))]

    def compute(self) -> list[list[float]]:
        """The whole matrix."""
        if isinstance(self.vectors, DeviationColumns):
            return self._about()
        # One loop nest straight into the matrix (the same entries): a comprehension per row,
        # a generator of rows and enumerate cost PyPy's JIT three more loops to compile.
        vs = self.vectors
        k = len(vs)
        G = [[0.0] * k for _ in range(k)]
        for i in range(k):
            vi, Gi = vs[i], G[i]
            for j in range(i, k):
                v = blocked_dot(vs[j], vi)
                Gi[j] = v
                G[j][i] = v
        return G

    def _about(self) -> list[list[float]]:
        vs = self.vectors
        assert isinstance(vs, DeviationColumns)
        k = len(vs)
        raw, means = vs.raw, vs.means
        G = [[0.0] * k for _ in range(k)]
        for i in range(k):
            ri, mi, Gi = raw[i], means[i], G[i]
            for j in range(i, k):
                v = blocked_dot_about(raw[j], means[j], ri, mi)
                if v - v != 0.0:  # an overflow: the deviations themselves, as blocked_dot takes them
                    v = blocked_dot(vs[j], vs[i])
                Gi[j] = v
                G[j][i] = v
        return G


class ExtendedGram:
    """The Gram of :class:`DeviationColumns` whose raw columns were extended by four terms
    (``fast.centre.extended_centring``): ``sumprod(lefts[i], rights[j])`` (CPython 3.12+).

    >>> from purepca.fast.centre import extended_centring
    >>> got = extended_centring([[1.0, 2.0, 6.0], [0.5, -0.5, 3.0]], math.sumprod) if hasattr(math, "sumprod") else None
    >>> ExtendedGram(got[2], math.sumprod).row(0) if got else [14.0, 8.5]
    [14.0, 8.5]
    """

    def __init__(self, cols: DeviationColumns, sumprod: Any) -> None:
        assert cols.extended is not None
        self.extended = cols.extended
        self.sumprod = sumprod

    def row(self, i: int) -> list[float]:
        """``[c_i·c_j for j in range(i, k)]``."""
        lefts, rights, diagonal = self.extended
        return [diagonal[i]] + list(map(self.sumprod, itertools.repeat(lefts[i]), rights[i + 1:]))

    def compute(self) -> None:
        """None: the matrix is assembled from :meth:`row`."""
        return None
