"""The kernel room: every fast path that depends on the interpreter, bound once at import.

The rest of purepca (the *reference rooms*) holds each algorithm as the docs derive it and the
same statements on every interpreter.  Speed that depends on the interpreter lives here, and
only here: ``math.sumprod`` (CPython 3.12+), loops PyPy's JIT compiles, CPython's C-loop
idioms.  Each kernel below is bound once, when this module is first imported, and called from
one place in a reference room; a kernel that is ``None`` (or returns ``None``) means "take the
reference".  This room imports nothing of purepca's, so any room may call it.

With ``PUREPCA_REFERENCE=1`` (or ``true``, ``yes``, ``on``; anything else leaves the kernels bound) in
the environment when purepca is first imported (in Python:
``os.environ["PUREPCA_REFERENCE"] = "1"`` before ``import purepca``; the variable is read
once), no kernel is bound: every interpreter runs the same statements and gives the same bits,
and a learner can step through the reference anywhere.

Each kernel: where it is bound; the one place that calls it; its contract against the reference.

``fsum``
    PyPy: ``sums.fsum_by_sum2``; ``numeric.FloatContext.sum``; the same bits as ``math.fsum``.
``hypot``, ``dist``
    every interpreter: ``math.hypot``, ``math.dist``; ``numeric.float_hypot``, ``float_dist`` (rbf kernels);
    within an ulp of the reference's.
``dot``
    3.12+: ``math.sumprod``; PyPy: Dot2; ``numeric.FloatContext.dot``; within ``u·|a·b| + 3n³u³·Σ|a_k b_k|``
    (sumprod), ``u·|a·b| + γ²_n·Σ|a_k b_k|`` (Dot2); the reference rounds the products' sum exactly.
``dots``
    CPython < 3.12: ``sums.fsum_dots``, else ``dot`` mapped; ``numeric.FloatContext.dots``; the same bits as
    ``[dot(u, v) ...]``.
``triple_dot``
    3.12+: ``math.sumprod``; ``linalg.stein``, ``exact``; as ``dot``; exact on ints.
``float_rows``
    PyPy / CPython: ``rows.*``; ``linalg.matrix.as_matrix``; the same rows, or None.
``float_columns``
    PyPy; CPython 3.12+ (tall data); ``pca.PCA.fit``; the same values, as columns.
``columns``
    PyPy: ``rows.columns``; ``fitting.fit_rows``; the same values.
``gram``
    see ``grams`` (polar, blocked, extended); ``numeric.GramWork(fast=True)``; each entry within
    ``32·eps·‖u‖‖v‖`` (a bound, proven in ``gram``).
``polar_rows``
    CPython < 3.12, MicroPython; ``numeric.PolarRows``; within ``32·eps·‖r‖·‖v‖``.
``centring``
    3.12+ ("sumprod"), PyPy ("fused"); ``covariance._centred_columns``; see ``centre``; ``hi + lo`` the mean
    to twice the precision.
``residual_squares``
    3.12+; ``fitting.discarded_variance``; within ``u`` + ``3m³u³·2‖z‖²``.
``jacobi``
    PyPy: ``in_place.cyclic_jacobi_in_place``; ``linalg.jacobi._jacobi_eigh``; the same bits.
``rotate``
    PyPy: ``in_place.rotate_in_place``; ``linalg.tridiagonal`` (QL); the same bits.
``householder``, ``back_transform``
    CPython: ``panels.*``; ``linalg.stein``; backward stable as the reference.
``laid_out``
    CPython 3.12+; ``solvers`` (wide data); the same bits (a copy of each float).
``JACOBI_MAX_N``
    PyPy: 128 (else 16); ``linalg.eigen._auto_method``; a choice of solver, not of bits.

tests/test_fast.py holds each contract as a test; docs/architecture.md says how to add a kernel.

>>> REFERENCE in (True, False), IMPLEMENTATION == sys.implementation.name
(True, True)
"""

from __future__ import annotations

import itertools
import math
import operator
import os
import sys
from typing import Any, Callable, Optional, Sequence

from . import centre as _centrings
from . import grams as _grams
from . import panels as _householders
from . import in_place as _in_place
from . import rows as _rows
from . import sums as _sums

__all__ = ["IMPLEMENTATION", "REFERENCE"]

#: The interpreter's name: ``"cpython"``, ``"pypy"``, ``"micropython"``, ...
IMPLEMENTATION: str = sys.implementation.name
#: Whether the reference switch was on at import: then every kernel below is None.
_SWITCH = str(getattr(os, "environ", {}).get("PUREPCA_REFERENCE", "")).strip().lower()
REFERENCE: bool = _SWITCH in ("1", "true", "yes", "on")

_CPYTHON = not REFERENCE and IMPLEMENTATION == "cpython"
_PYPY = not REFERENCE and IMPLEMENTATION == "pypy"
_MICRO = not REFERENCE and IMPLEMENTATION == "micropython"
#: ``math.sumprod`` (Python 3.12+: a dot product summed in triple length), or None.
triple_dot: Any = None if REFERENCE else getattr(math, "sumprod", None)
#: The polarization Gram is faster only where a compensated dot product is a Python-level loop
#: over products (CPython before 3.12; MicroPython, whose fsum is Python).
_POLAR = (_CPYTHON or _MICRO) and triple_dot is None

fsum: Optional[Callable[[Any], float]] = _sums.fsum_by_sum2 if _PYPY else None
#: ``math.hypot`` (its algorithm differs between CPython 3.9 / PyPy and 3.10+: ulp differences).
hypot: Optional[Callable[..., float]] = None if REFERENCE else math.hypot
dist: Optional[Callable[[Sequence[float], Sequence[float]], float]] = None if REFERENCE else math.dist
dot: Optional[Callable[[Sequence[float], Sequence[float]], float]] = (
    triple_dot if triple_dot is not None else _sums.dot2 if _PYPY else None)


def _mapped_dots(vectors: Any, v: Sequence[float]) -> list[float]:
    assert dot is not None
    return list(map(dot, vectors, itertools.repeat(v)))


dots: Optional[Callable[[Any, Sequence[float]], list[float]]] = (
    _mapped_dots if dot is not None else _sums.fsum_dots if _CPYTHON or _MICRO else None)

float_rows: Optional[Callable[[list[Any], bool], Optional[list[list[float]]]]] = (
    _rows.float_rows if _PYPY else _rows.float_rows_at_once if _CPYTHON else None)


def _tall_columns(data: Any) -> Optional[list[tuple[float, ...]]]:
    """CPython 3.12+: tall data only, whose covariance the fit forms (wide data are read by rows)."""
    if type(data) is list and data and type(data[0]) is list and len(data) >= len(data[0]):
        return _rows.float_columns_at_once(data)
    return None


float_columns: Optional[Callable[[Any], Optional[Sequence[Sequence[float]]]]] = (
    _rows.float_columns if _PYPY else _tall_columns if _CPYTHON and triple_dot is not None else None)
columns: Optional[Callable[[list[list[float]], int], Sequence[Sequence[float]]]] = _rows.columns if _PYPY else None


def _gram(vectors: Sequence[Sequence[float]]) -> Any:
    """The fast Gram kernel for these float vectors (``row(i)``, ``compute()``), or None."""
    if triple_dot is not None and isinstance(vectors, _grams.DeviationColumns) and vectors.extended is not None:
        return _grams.ExtendedGram(vectors, triple_dot)
    if _PYPY:
        return _grams.BlockedGram(vectors)
    if _POLAR:
        return _grams.PolarGram(vectors)
    return None


gram: Optional[Callable[[Sequence[Sequence[float]]], Any]] = None if REFERENCE else _gram
polar_rows: Optional[Callable[[Sequence[Sequence[float]]], Any]] = _grams.PolarRows if _POLAR else None
DeviationColumns = _grams.DeviationColumns


def _centring(cols: Sequence[Sequence[float]], lazy: bool, column: Any, correction: Any) -> Any:
    how = "sumprod" if triple_dot is not None else "fused"
    return _centrings.centring(cols, lazy, how, triple_dot, column, correction)


centring: Optional[Callable[..., Any]] = _centring if triple_dot is not None or _PYPY else None


def _residual_squares(Z: list[list[float]], V: list[list[float]]) -> Optional[list[float]]:
    return _centrings.residual_squares(Z, V, triple_dot)


residual_squares: Optional[Callable[[list[list[float]], list[list[float]]], Optional[list[float]]]] = (
    _residual_squares if triple_dot is not None else None)
jacobi: Optional[Callable[..., Optional[tuple[int, int]]]] = _in_place.cyclic_jacobi_in_place if _PYPY else None
rotate: Optional[Callable[[list[float], list[float], float, float], None]] = (
    _in_place.rotate_in_place if _PYPY else None)
householder: Optional[Callable[..., Any]] = _householders.householder if _CPYTHON else None
back_transform: Optional[Callable[..., Any]] = _householders.back_transform if _CPYTHON else None


def _laid_out(rows: Any) -> list[list[float]]:
    """The rows as lists of fresh float objects allocated row after row (``x * 1.0`` is ``x``,
    signed zeros included): ``math.sumprod`` over objects allocated in order took 9.6 ns a pair
    against 16 ns over a transposed matrix's (CPython 3.13)."""
    mul, one = operator.mul, itertools.repeat(1.0)
    return [list(map(mul, r, one)) for r in rows]


laid_out: Optional[Callable[[Any], list[list[float]]]] = _laid_out if _CPYTHON and not _POLAR else None
#: Up to this order ``eigh(method="auto")`` takes Jacobi.  Under PyPy's JIT Jacobi's one loop nest
#: compiles sooner than the Householder reduction's and QL's loops and runs as fast (in a fresh
#: process 18 against 25 ms at 50 x 50, 54 against 71 ms at 120 x 120); at 200 x 200 QL is faster.
JACOBI_MAX_N: int = 128 if _PYPY else 16
