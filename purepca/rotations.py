"""Rotations of a loading matrix: R's ``stats::varimax`` and ``stats::promax``, step for step.

=====================================  =====================================
``varimax(L, normalize=True, eps)``    the orthogonal rotation maximising
                                       the variance of the squared loadings
                                       (Kaiser 1958), R's algorithm and
                                       stopping rule
``promax(L, m=4)``                     varimax, then an oblique rotation
                                       towards the loadings raised to the
                                       power m (Hendrickson and White 1964)
=====================================  =====================================

``L`` is d x k (a row per variable, a column per component), as R has it;
both return a :class:`Rotation` with the rotated ``loadings`` and the
rotation matrix ``rotmat`` (k x k), so that ``loadings = L · rotmat``.

R's ``varimax`` (in ``src/library/stats/R/factanal.R``): with Kaiser's
normalisation each row is divided by its length; then, starting from the
identity T, it repeats ``Z = L·T``, ``B = Lᵀ·(Z³ − Z·diag(colSums(Z²))/p)``,
``T = U·Vᵀ`` from the SVD ``B = U·Σ·Vᵀ``, until the sum of the singular
values ``d`` grows by less than the factor ``1 + eps`` (at most 1000 times).
``promax`` fits ``Q = Z ∘ |Z|^(m−1)`` from the varimax loadings Z by least
squares, ``U = (ZᵀZ)⁻¹ZᵀQ``, and rescales its columns by
``sqrt(diag((UᵀU)⁻¹))``.

>>> r = varimax([[0.8, 0.3], [0.7, 0.4], [0.2, 0.9], [0.3, 0.8]])
>>> [[round(v, 6) for v in row] for row in r.loadings]
[[0.818163, 0.246189], [0.725027, 0.352612], [0.259349, 0.884725], [0.352485, 0.778302]]
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .errors import ConvergenceError, PurePCAError
from .linalg.jacobi import jacobi_eigh
from .linalg.matrix import as_matrix, matmul, transpose
from .params import as_int, as_real

__all__ = ["Rotation", "promax", "varimax"]


@dataclass(frozen=True)
class Rotation:
    """Rotated loadings (d x k) and the rotation matrix (k x k): ``loadings = L · rotmat``.

    >>> Rotation([[1.0]], [[1.0]]).rotmat
    [[1.0]]
    """

    loadings: list[list[float]]
    rotmat: list[list[float]]


def _spectral(S: list[list[float]], power: float, what: str) -> list[list[float]]:
    """``S^power`` of a symmetric positive definite matrix, by its eigen-decomposition."""
    eig = jacobi_eigh(S)
    k = len(S)
    if not all(v > 0 for v in eig.values):
        raise PurePCAError(what)
    V = eig.vectors  # rows are eigenvectors
    return [[math.fsum(V[t][i] * V[t][j] * eig.values[t] ** power for t in range(k)) for j in range(k)]
            for i in range(k)]


_SINGULAR_B = "rotation: the matrix of the varimax step is singular (a loading column is zero)"
_SINGULAR_LS = "promax: the least-squares problem is singular (the loadings do not have full rank)"


def _loadings(L: Any) -> list[list[float]]:
    M = [[float(v) for v in row] for row in as_matrix(L, name="loadings")]
    return M


def varimax(loadings: Any, normalize: bool = True, eps: float = 1e-5) -> Rotation:
    """R's ``varimax(x, normalize = TRUE, eps = 1e-5)``: see the module's description.

    With fewer than two columns the loadings are returned unrotated (as R
    does).  Past 1000 iterations without meeting the stopping rule,
    :class:`ConvergenceError` (R stops silently there).

    >>> r = varimax([[0.8, 0.3], [0.7, 0.4], [0.2, 0.9], [0.3, 0.8]], normalize=False)
    >>> [round(v, 6) for v in r.rotmat[0]]
    [0.999238, -0.039036]
    """
    x = _loadings(loadings)
    if not isinstance(normalize, bool):
        raise PurePCAError(f"normalize must be True or False, got {normalize!r}")
    eps = as_real(eps, "eps", low=0.0)
    p, nc = len(x), len(x[0])
    identity = [[1.0 if i == j else 0.0 for j in range(nc)] for i in range(nc)]
    if nc < 2:
        return Rotation([list(row) for row in x], identity)
    sc = [1.0] * p
    if normalize:
        sc = [math.sqrt(math.fsum(v * v for v in row)) for row in x]
        if any(s == 0 for s in sc):
            raise PurePCAError("varimax: a row of the loadings is zero; Kaiser's normalisation divides by its length")
        x = [[v / s for v in row] for row, s in zip(x, sc)]
    T = identity
    d = 0.0
    xt = transpose(x)
    for _ in range(1000):
        z = matmul(x, T)
        colsq = [math.fsum(row[j] ** 2 for row in z) / p for j in range(nc)]
        inner = [[v ** 3 - v * colsq[j] for j, v in enumerate(row)] for row in z]
        B = matmul(xt, inner)
        # T = U·Vᵀ from the SVD of B: the polar factor B·(BᵀB)^(-1/2); d = the sum of the singular values.
        BtB = matmul(transpose(B), B)
        T = matmul(B, _spectral(BtB, -0.5, _SINGULAR_B))
        d_past = d
        d = math.fsum(math.sqrt(max(v, 0.0)) for v in jacobi_eigh(BtB).values)
        if d < d_past * (1 + eps):
            break
    else:
        raise ConvergenceError(f"varimax did not converge in 1000 iterations (criterion {d!r})", iterations=1000,
                               residual=float(d))
    z = matmul(x, T)
    if normalize:
        z = [[v * s for v in row] for row, s in zip(z, sc)]
    return Rotation(z, T)


def _target(x: list[list[float]], m: int) -> list[list[float]]:
    """Promax's target ``x ∘ |x|^(m−1)``, each column divided by the m-th power of its
    largest ``|x|``: the rotation does not change when a column of the target is
    multiplied by a positive number (``U``'s column is, and then divided by the same
    in the rescaling), and ``(|x|/max)^m`` neither overflows nor loses the column's
    largest entries where ``|x|^m`` does (``m = 1000`` raised OverflowError).

    >>> _target([[2.0, -1.0], [-1.0, 0.5]], 3)
    [[1.0, -1.0], [-0.125, 0.125]]
    """
    tops = [max(abs(v) for v in col) for col in zip(*x)]
    return [[math.copysign((abs(v) / top) ** m, v) if top else 0.0 for v, top in zip(row, tops)] for row in x]


def promax(loadings: Any, m: int = 4) -> Rotation:
    """R's ``promax(x, m = 4)``: varimax (normalised), then the oblique step of the module's description.

    >>> r = promax([[0.8, 0.3], [0.7, 0.4], [0.2, 0.9], [0.3, 0.8]])
    >>> [[round(v, 6) for v in row] for row in r.loadings]
    [[0.900528, -0.07491], [0.74006, 0.097687], [-0.06228, 0.960675], [0.098188, 0.788077]]
    """
    m = as_int(m, "m", low=1, high=2 ** 53)  # (|x|/max)**m takes m as a float
    x0 = _loadings(loadings)
    if len(x0[0]) < 2:
        return Rotation([list(row) for row in x0], [[1.0]])
    vm = varimax(x0)
    x = vm.loadings
    Q = _target(x, m)
    xt = transpose(x)
    U = matmul(_spectral(matmul(xt, x), -1.0, _SINGULAR_LS), matmul(xt, Q))
    dvec = [row[i] for i, row in enumerate(_spectral(matmul(transpose(U), U), -1.0, _SINGULAR_LS))]
    U = [[v * math.sqrt(dj) for v, dj in zip(row, dvec)] for row in U]
    z = matmul(x, U)
    return Rotation(z, matmul(vm.rotmat, U))
