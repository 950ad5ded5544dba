"""``eigh``: one door to the symmetric eigensolvers, and the rule that picks one.

====================  =======================================================
``eigh(A)``           eigenvalues (descending) and eigenvectors (rows)
``EIGH_METHODS``      ``"auto"``, ``"jacobi"``, ``"tridiagonal"``
``JACOBI_MAX_N``      the size up to which ``"auto"`` takes Jacobi anyway
====================  =======================================================

Two methods, two kinds of accuracy:

* ``"jacobi"`` (:func:`~purepca.linalg.jacobi.jacobi_eigh`) stops on the
  relative test of Demmel and Veselić, so every eigenvalue of a positive
  definite matrix given *exactly* (a graded matrix, the small triangle of an
  SVD) keeps its relative accuracy.  It costs several sweeps of ``n²/2``
  rotations: about 17 s at n = 200 in CPython.
* ``"tridiagonal"`` (:func:`~purepca.linalg.tridiagonal.tridiagonal_eigh`)
  reaches an absolute accuracy of about ``n·eps·‖A‖`` in several times fewer
  operations.  A matrix that was itself formed in floating point (a
  covariance, a kernel) carries an error of that size already, so on it the
  two methods are equally accurate.

``"auto"`` takes Jacobi when relative accuracy is asked for
(``relative=True``) or the matrix is small (n <= ``JACOBI_MAX_N``, where
either takes a few milliseconds and Jacobi's extra accuracy is free), and the
tridiagonal method otherwise.

>>> eigh([[2, 1], [1, 2]]).values
[3.0, 1.0]
>>> r = eigh([[4, 1, 0], [1, 3, 1], [0, 1, 2]], method="tridiagonal")
>>> [round(v, 10) for v in r.values]
[4.7320508076, 3.0, 1.2679491924]
"""

from __future__ import annotations

from typing import Any

from ..errors import PurePCAError
from .. import fast
from ..numeric import FLOAT, Context, Scalar
from .jacobi import EighResult, _jacobi_eigh
from .matrix import as_symmetric
from ..params import as_int
from .tridiagonal import _tridiagonal_eigh

__all__ = ["EIGH_METHODS", "JACOBI_MAX_N", "choose_eigh_method", "eigh"]

EIGH_METHODS = ("auto", "jacobi", "tridiagonal")
#: Up to this size ``"auto"`` takes Jacobi: both need under 5 ms in CPython (the kernel room may
#: raise it: PyPy's JIT runs Jacobi as fast as QL up to 128).
JACOBI_MAX_N = fast.JACOBI_MAX_N


def choose_eigh_method(n: int, method: str = "auto", relative: bool = False) -> str:
    """The method ``eigh`` runs for an n x n matrix.

    >>> choose_eigh_method(10), choose_eigh_method(300), choose_eigh_method(300, relative=True)
    ('jacobi', 'tridiagonal', 'jacobi')
    """
    n = as_int(n, "n", low=0)
    if not isinstance(method, str) or method not in EIGH_METHODS:
        raise PurePCAError(f"method must be one of {', '.join(map(repr, EIGH_METHODS))}; got {method!r:.60}")
    return method if method != "auto" else _auto_method(n, relative)


def _auto_method(n: int, relative: bool = False) -> str:
    """What ``method="auto"`` runs for an n x n matrix: Jacobi for small n or relative accuracy."""
    return "jacobi" if relative or n <= JACOBI_MAX_N else "tridiagonal"


def eigh(
    A: Any,
    *,
    method: str = "auto",
    relative: bool = False,
    context: Context = FLOAT,
    symmetry_rtol: float = 1e-10,
) -> EighResult:
    """Eigenvalues (descending) and eigenvectors (rows) of a symmetric matrix.

    Parameters
    ----------
    A : n x n symmetric matrix (any sequence of rows; never modified)
    method : ``"auto"``, ``"jacobi"`` or ``"tridiagonal"``; see the module
        docstring for what each promises.
    relative : ask for relative accuracy of small eigenvalues (``"auto"``
        then takes Jacobi).
    context : number context; ``DecimalContext(50)`` gives 50 digits.
    symmetry_rtol : symmetry is checked to this times the largest entry.

    >>> r = eigh([[1e-12, 0], [0, 1]], relative=True)
    >>> r.values
    [1.0, 1e-12]
    """
    if not isinstance(relative, bool):
        raise PurePCAError(f"relative must be True or False, got {relative!r}")
    M = as_symmetric(A, name="A", context=context, rtol=symmetry_rtol)
    return _eigh(M, choose_eigh_method(len(M), method, relative), context)


def _eigh(M: list[list[Scalar]], method: str, ctx: Context) -> EighResult:
    """The worker: M validated and symmetric, ``method`` already resolved."""
    with ctx.local():
        if method == "jacobi":
            return _jacobi_eigh(M, None, 50, ctx, None)
        return _tridiagonal_eigh(M, ctx, None, None)
