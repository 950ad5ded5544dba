"""Rotations written for PyPy's JIT (kernels of :mod:`purepca.fast`): plain loops updating rows
in place, which the JIT compiles to machine code, where the reference builds new rows with list
comprehensions (CPython's fastest loop).  Contract: the same arithmetic in the same order, so
the same bits as the reference (tests/test_fast.py).

=================================  ===================================================
``cyclic_jacobi_in_place``         ``linalg.jacobi._cyclic_jacobi`` without a trace
``rotate_in_place(a, b, c, s)``    QL's rotation of two rows of Z (``linalg.tridiagonal``)
=================================  ===================================================
"""

from __future__ import annotations

import math
import sys
from typing import Optional

from .sums import dot2, fsum_by_sum2

__all__ = ["cyclic_jacobi_in_place", "rotate_in_place"]

#: ``FLOAT.dot`` where this kernel is bound (PyPy, not in reference mode): ``math.sumprod`` where it exists.
_dot = getattr(math, "sumprod", None) or dot2


def cyclic_jacobi_in_place(M: list[list[float]], V: list[list[float]], tol: float, max_sweeps: int
                           ) -> Optional[tuple[int, int]]:
    """``linalg.jacobi._cyclic_jacobi`` for floats without a trace, for PyPy's JIT: the same rotations
    in the same order with the same arithmetic (contract: the same bits), the float operations inline
    and the rows updated in place (1.5-2x faster than the reference loop at d = 50 to 100 there).
    ``(sweeps, rotations)``, or None when ``max_sweeps`` sweeps did not converge (the caller raises).

    >>> M, V = [[2.0, 1.0], [1.0, 2.0]], [[1.0, 0.0], [0.0, 1.0]]
    >>> cyclic_jacobi_in_place(M, V, 2.0 ** -52, 30), [M[0][0], M[1][1]]
    ((2, 1), [1.0, 3.0])
    """
    n = len(M)
    sqrt = math.sqrt
    eps = sys.float_info.epsilon
    entries = [x for row in M for x in row]
    floor = tol * eps * sqrt(_dot(entries, entries))  # the reference's floor, with FLOAT.dot's bits
    root_diag = [sqrt(abs(M[i][i])) for i in range(n)]
    threshold_factor = 0.2 / (n * n)
    rotations = 0
    indices = range(n)
    for sweep in range(1, max_sweeps + 1):
        if sweep <= 3:
            # fsum's bits from the loop the fit's means compiled already (PyPy's fsum of a
            # generator cost 0.4 ms a sweep at d = 50)
            threshold = threshold_factor * fsum_by_sum2([abs(x) for p in range(n) for x in M[p][p + 1:]])
        else:
            threshold = 0.0
        busy = False
        for p in range(n - 1):
            Mp = M[p]
            Vp = V[p]
            tol_p = tol * root_diag[p]
            for q in range(p + 1, n):
                apq = Mp[q]
                aapq = abs(apq)
                if aapq <= tol_p * root_diag[q] or aapq <= floor:
                    continue
                busy = True
                if aapq <= threshold:
                    continue
                Mq = M[q]
                app = Mp[p]
                aqq = Mq[q]
                # _rotation, inline
                theta = (aqq - app) / (2.0 * apq)
                at = abs(theta)
                if at * eps > 1.0:
                    t = 0.5 / at
                else:
                    t = 1.0 / (at + sqrt(at * at + 1.0))
                if theta < 0:
                    t = -t
                c = 1.0 / sqrt(t * t + 1.0)
                s = t * c
                tau = s / (1.0 + c)
                h = t * apq
                Vq = V[q]
                for i in indices:  # rows p and q of M, and of V (independent: one loop)
                    g = Mp[i]
                    k = Mq[i]
                    Mp[i] = g - s * (k + g * tau)
                    Mq[i] = k + s * (g - k * tau)
                    g = Vp[i]
                    k = Vq[i]
                    Vp[i] = g - s * (k + g * tau)
                    Vq[i] = k + s * (g - k * tau)
                for i in indices:
                    row = M[i]
                    row[p] = Mp[i]
                    row[q] = Mq[i]
                Mp[p] = app - h
                Mq[q] = aqq + h
                Mp[q] = Mq[p] = 0.0
                root_diag[p] = sqrt(abs(Mp[p]))
                root_diag[q] = sqrt(abs(Mq[q]))
                tol_p = tol * root_diag[p]
                rotations += 1
        if not busy:
            return sweep, rotations
    return None


def rotate_in_place(zi: list[float], zj: list[float], c: float, s: float) -> None:
    """``zj, zi = s·zi + c·zj, c·zi - s·zj``, entry by entry, in place.

    >>> a, b = [1.0, 0.0], [0.0, 1.0]
    >>> rotate_in_place(a, b, 0.0, 1.0); a, b
    ([0.0, -1.0], [1.0, 0.0])
    """
    for t in range(len(zi)):
        a = zi[t]
        b = zj[t]
        zj[t] = s * a + c * b
        zi[t] = c * a - s * b
