"""Textbook pure-Python linear algebra for the benchmarks: the code a student
writes first, correct but with no care for rounding or speed.  It imports
nothing from purepca, so a benchmark worker can load any version of purepca
beside it.
"""

from __future__ import annotations

import math


def textbook_jacobi(
    A: list[list[float]], tol: float = 1e-15, max_sweeps: int = 50
) -> tuple[list[float], list[list[float]]]:
    """Cyclic Jacobi as in a linear-algebra course: for each (p, q), build the
    rotation and update the whole matrix entry by entry (A ← JᵀAJ, V ← VJ)."""
    n = len(A)
    a = [row[:] for row in A]
    v = [[1.0 if i == j else 0.0 for j in range(n)] for i in range(n)]
    for _ in range(max_sweeps):
        off = math.sqrt(sum(a[i][j] ** 2 for i in range(n) for j in range(n) if i != j))
        norm = math.sqrt(sum(a[i][j] ** 2 for i in range(n) for j in range(n)))
        if off <= tol * norm:
            break
        for p in range(n - 1):
            for q in range(p + 1, n):
                if a[p][q] == 0.0:
                    continue
                theta = (a[q][q] - a[p][p]) / (2 * a[p][q])
                t = (1.0 if theta >= 0 else -1.0) / (abs(theta) + math.sqrt(theta * theta + 1))
                c = 1 / math.sqrt(t * t + 1)
                s = t * c
                for k in range(n):  # A ← A·J (columns p and q)
                    akp, akq = a[k][p], a[k][q]
                    a[k][p] = c * akp - s * akq
                    a[k][q] = s * akp + c * akq
                for k in range(n):  # A ← Jᵀ·A (rows p and q)
                    apk, aqk = a[p][k], a[q][k]
                    a[p][k] = c * apk - s * aqk
                    a[q][k] = s * apk + c * aqk
                for k in range(n):  # V ← V·J
                    vkp, vkq = v[k][p], v[k][q]
                    v[k][p] = c * vkp - s * vkq
                    v[k][q] = s * vkp + c * vkq
    values = [a[i][i] for i in range(n)]
    order = sorted(range(n), key=values.__getitem__, reverse=True)
    return [values[i] for i in order], [[v[k][i] for k in range(n)] for i in order]
