"""Plain-list matrices: validation in, small helpers out.

A matrix is a ``list`` of rows, each a ``list`` of numbers; a vector is a
``list`` of numbers.  Nothing here knows about statistics.

``as_matrix`` takes a list or tuple of rows, a generator of rows, a numpy
array, a data frame, a scipy sparse matrix, or anything iterable row by row
whose rows are iterables of real numbers (``int``, ``float``, ``Fraction``,
``Decimal``, numpy scalars).  The result never shares a list with the input
(with ``copy=False``, for a caller that only reads it, a list of float rows
may come back as it is).  ``row_offset`` is added to the row numbers in
messages (chunks).  Empty input, zero columns, ragged rows, strings, booleans,
``None``, complex numbers, NaN and infinities raise :class:`PurePCAError`
naming the first offending row and column.

=========================  ===============================================
``as_matrix(data)``        validate any 2-D input into fresh lists
``as_vector(data)``        the same for 1-D input
``transpose(A)``           rows become columns
``matmul(A, B)``           ``A @ B`` with compensated dot products
``matvec(A, x)``           ``A @ x``
``dot(x, y)``              compensated inner product
``identity(n)``            the n x n identity
``norm_fro(A)``            Frobenius norm, safe against overflow
``norm_1(A)``              largest absolute column sum (LAPACK's 1-norm)
``max_abs(A)``             largest absolute entry
=========================  ===============================================

>>> as_matrix([(1, 2), (3, 4)])
[[1.0, 2.0], [3.0, 4.0]]
>>> matmul([[1, 2], [3, 4]], [[0, 1], [1, 0]])
[[2.0, 1.0], [4.0, 3.0]]
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from decimal import Decimal
from typing import Any, Iterable, Sequence

from ..errors import PurePCAError, PurePCATypeError
from ..fast import float_rows as _fast_float_rows
from ..numeric import FLOAT, Context, Scalar, check_context
from ..params import _show, as_int, as_real

__all__ = [
    "as_matrix",
    "as_symmetric",
    "as_vector",
    "dot",
    "identity",
    "matmul",
    "matvec",
    "max_abs",
    "norm_1",
    "norm_fro",
    "transpose",
]

def _describe(value: Any) -> str:
    """A short repr for messages (at most 40 characters; a huge int by its digits).

    >>> _describe("x" * 50), _describe(10 ** 5000)
    ("'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...", 'an int of 5001 digits')
    """
    return _show(value, 40)


def _length(data: Any) -> str:
    return str(len(data)) if hasattr(data, "__len__") else "n"


def _convert_entry(value: Any, name: str, where: str, context: Context) -> Scalar:
    """Check one entry and convert it; ``where`` is "row i, column j"."""
    if isinstance(value, bool) or type(value).__name__ in ("bool_", "bool"):
        raise PurePCAError(f"{name}: {where} is a boolean ({value!r}); expected a real number")
    if isinstance(value, (str, bytes)):
        raise PurePCAError(f"{name}: {where} is a string ({_describe(value)}); expected a real number")
    if value is None:
        raise PurePCAError(f"{name}: {where} is None (a missing value?); expected a real number")
    if isinstance(value, complex) or (
        isinstance(value, numbers.Complex) and not isinstance(value, numbers.Real)
    ):
        raise PurePCAError(f"{name}: {where} is complex ({value!r}). Complex data not supported; "
                           "expected a real number")
    if not isinstance(value, (numbers.Real, Decimal)):
        raise PurePCATypeError(
            f"{name}: {where} is a {type(value).__name__} ({_describe(value)}); expected a real number "
            f"(float() argument must be a string or a real number, not {type(value).__name__!r}; "
            "strings are refused here too)"
        )
    if isinstance(value, Decimal):
        finite = value.is_finite()
    else:
        try:
            finite = math.isfinite(value)
        except OverflowError:
            raise PurePCAError(f"{name}: {where} ({_describe(value)}) is too large for a float") from None
    if not finite:
        nan = value.is_nan() if isinstance(value, Decimal) else value != value  # sNaN != sNaN would raise
        if not nan and value == value * 2 and value != 0:
            kind = "infinite"
        elif not nan:  # finite in its own type (np.longdouble('1e400')), but not as a float
            raise PurePCAError(f"{name}: {where} ({_describe(value)}) is beyond the float range (about 1.8e308); "
                               "scale the data down, or give it as a Decimal with precision=N")
        else:
            kind = "NaN"
        raise PurePCAError(f"{name}: {where} is {kind} ({value!r}); only finite numbers are allowed")
    try:
        converted = context.convert(value)
    except OverflowError:
        converted = math.inf
    if type(converted) is float and math.isinf(converted):
        # float(Decimal("1e400")) is inf without an error: never let it in.
        raise PurePCAError(
            f"{name}: {where} ({_describe(value)}) is too large for a float; use precision=N for such numbers"
        )
    return converted


_FLOATS_ONLY = {float}


def _check_row_kind(row: Any, i: int, name: str) -> None:
    """Refuse a row that is not a sequence of numbers in the columns' order (a string, a set, a mapping)."""
    if isinstance(row, (str, bytes)) or not isinstance(row, Iterable):
        raise PurePCAError(f"{name}: row {i} is {_describe(row)}, not a sequence of numbers; "
                           "expected a 2-D input with one row per sample")
    if isinstance(row, (AbstractSet, Mapping)):
        raise PurePCAError(f"{name}: row {i} is a {type(row).__name__}, whose order is not the order of "
                           "columns; expected a sequence of numbers (a list or tuple)")


def _width_error(name: str, i: int, width: int, got: int, data: Any, first: int) -> PurePCAError:
    """The error of row ``i`` with ``got`` values where the rows before it have ``width`` (-1: none yet)."""
    if width < 0:
        return PurePCAError(f"{name}: row {i} has no values: 0 feature(s) (shape=({_length(data)}, 0)) "
                            "while a minimum of 1 is required.")
    return PurePCAError(f"{name}: row {i} has {got} value{'' if got == 1 else 's'}, expected {width} (the length "
                        f"of row {first})")


def _convert_row(row: Any, i: int, name: str, context: Context) -> list[Scalar]:
    if type(row) is not list and type(row) is not tuple:  # (lists and tuples skip the ABC checks: slow per row)
        _check_row_kind(row, i, name)
    values = list(row)
    if context is FLOAT and set(map(type, values)) == _FLOATS_ONLY:  # Python floats: a finite sum proves them finite
        total = sum(values)
        if total - total == 0.0:
            return values
    return [_convert_entry(v, name, f"row {i}, column {j}", context) for j, v in enumerate(values)]


def as_matrix(
    data: Any, *, name: str = "X", context: Context = FLOAT, row_offset: int = 0, copy: bool = True
) -> list[list[Scalar]]:
    """Validate a 2-D input (rows of real numbers: see the module's docstring) into fresh lists, or
    raise :class:`PurePCAError` naming the first offending row and column.

    >>> as_matrix([[1, 2.5], (3, 4)])
    [[1.0, 2.5], [3.0, 4.0]]
    >>> as_matrix([[1, 2], [3]])
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: X: row 1 has 1 value, expected 2 (the length of row 0)
    """
    if context is not FLOAT:
        context = check_context(context)
    if type(data) is not list:
        data = _rows_source(data, name)
    if _fast_float_rows is not None and context is FLOAT and type(data) is list and data:
        fast = _fast_float_rows(data, copy)  # the kernel room's (purepca.fast): the same rows, or None
        if fast is not None:
            return fast
    rows: list[list[Scalar]] = []
    width = -1
    for i, row in enumerate(data, start=row_offset):
        converted = _convert_row(row, i, name, context)
        if len(converted) != width:  # the first row sets the width
            if width >= 0 or not converted:
                raise _width_error(name, i, width, len(converted), data, row_offset)
            width = len(converted)
        rows.append(converted)
    if not rows:
        raise PurePCAError(f"{name}: empty input; need at least one row")
    return rows


def _rows_source(data: Any, name: str) -> Any:
    """What :func:`as_matrix` iterates over for ``data`` that is not a list: a numpy array's or a data
    frame's rows as lists, a sparse matrix densified; None, strings, sets, mappings and arrays that are
    not 2-D are refused.

    >>> _rows_source(((1, 2),), "X")
    ((1, 2),)
    >>> as_matrix([[1, float("nan")]])
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: X: row 0, column 1 is NaN (nan); only finite numbers are allowed
    """
    if data is None:
        raise PurePCAError(f"{name}: got None; expected a 2-D input with one row per sample")
    if isinstance(data, (str, bytes)):
        raise PurePCAError(f"{name}: got a string; expected a 2-D input with one row per sample")
    if hasattr(data, "toarray") and hasattr(data, "nnz"):
        # scipy sparse matrices and arrays (every format): densified, so the implicit zeros are zeros.
        data = data.toarray()
    elif not hasattr(data, "shape") and not isinstance(data, Iterable) and hasattr(data, "__array__"):
        data = data.__array__()  # an object exposing only the array protocol
    if getattr(data, "ndim", 2) != 2 and hasattr(data, "shape"):
        raise PurePCAError(
            f"{name}: expected a 2-D input with one row per sample, got an array of shape {data.shape}. "
            "Reshape your data: [[x] for x in data] if it is one feature, [data] if it is one sample"
        )
    if hasattr(data, "columns") and hasattr(data, "to_numpy"):
        # Data frames (pandas, polars) iterate over column names, not rows.
        data = data.to_numpy()
    tolist = getattr(data, "tolist", None)
    if tolist is not None and hasattr(data, "shape"):
        # numpy arrays: tolist() gives Python scalars in one C call.
        data = tolist()
    if not isinstance(data, Iterable):
        raise PurePCAError(f"{name}: {_describe(data)} is not a 2-D input (one row per sample)")
    if isinstance(data, (AbstractSet, Mapping)):
        raise PurePCAError(
            f"{name}: got a {type(data).__name__}, whose order is not the order of rows; "
            "expected a sequence of rows (a list or tuple)"
        )
    return data


def as_symmetric(
    data: Any, *, name: str = "A", context: Context = FLOAT, rtol: float = 1e-10
) -> list[list[Scalar]]:
    """Validate a square, symmetric matrix into fresh lists.

    Symmetry is checked, never imposed silently: ``|a_ij - a_ji|`` may not
    exceed ``rtol`` times the largest absolute entry.  Within that tolerance
    the upper triangle is kept and copied into the lower one, so the result is
    exactly symmetric.  An empty sequence gives the 0 x 0 matrix ``[]``.

    >>> as_symmetric([[2, 1], [1, 2]])
    [[2.0, 1.0], [1.0, 2.0]]
    >>> as_symmetric([[2, 1], [0, 2]])
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: A is not symmetric: A[0][1] = 1.0 but A[1][0] = 0.0
    """
    context = check_context(context)
    if isinstance(data, Sequence) and not isinstance(data, (str, bytes)) and len(data) == 0:
        return []
    M = as_matrix(data, name=name, context=context)
    n = len(M)
    if len(M[0]) != n:
        raise PurePCAError(f"{name} must be square, got {n} rows and {len(M[0])} columns")
    with context.local():
        limit = context.convert(as_real(rtol, "symmetry_rtol", low=0.0)) * _max_abs(M)
        for i in range(n):
            row = M[i]
            for j in range(i + 1, n):
                if abs(row[j] - M[j][i]) > limit:
                    raise PurePCAError(
                        f"{name} is not symmetric: {name}[{i}][{j}] = {row[j]!r} but {name}[{j}][{i}] = {M[j][i]!r}"
                    )
                M[j][i] = row[j]
    return M


def as_vector(data: Any, *, name: str = "x", context: Context = FLOAT) -> list[Scalar]:
    """Validate a 1-D input into a fresh list of numbers.

    >>> as_vector((1, 2, 3))
    [1.0, 2.0, 3.0]
    >>> as_vector([1, None])
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: x: entry 1 is None (a missing value?); expected a real number
    """
    context = check_context(context)
    if data is None or isinstance(data, (str, bytes)) or not isinstance(data, Iterable):
        raise PurePCAError(f"{name}: {_describe(data)} is not a sequence of numbers")
    if isinstance(data, (AbstractSet, Mapping)):
        raise PurePCAError(f"{name}: got a {type(data).__name__}, whose order is not the order of the entries; "
                           "expected a sequence of numbers (a list or tuple)")
    values = [_convert_entry(v, name, f"entry {j}", context) for j, v in enumerate(data)]
    if not values:
        raise PurePCAError(f"{name}: empty; need at least one value")
    return values


def transpose(A: Sequence[Sequence[Scalar]]) -> list[list[Scalar]]:
    """The transpose as a new list of lists.

    >>> transpose([[1, 2, 3], [4, 5, 6]])
    [[1, 4], [2, 5], [3, 6]]
    >>> transpose([[1, 2], [3]])
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: A: row 1 has 1 value, expected 2 (the length of row 0)
    """
    if isinstance(A, (str, bytes)) or not isinstance(A, Iterable):
        raise PurePCAError(f"A: expected a sequence of rows, got {type(A).__name__}")
    rows = []
    for i, row in enumerate(A):
        if isinstance(row, (str, bytes)) or not isinstance(row, Iterable):
            raise PurePCAError(f"A: row {i} ({_describe(row)}) is not a sequence of values")
        rows.append(list(row))
    for i, row in enumerate(rows):
        if len(row) != len(rows[0]):
            raise PurePCAError(f"A: row {i} has {len(row)} value{'' if len(row) == 1 else 's'}, expected "
                               f"{len(rows[0])} (the length of row 0)")
    return [list(col) for col in zip(*rows)]


def dot(x: Sequence[Scalar], y: Sequence[Scalar], context: Context = FLOAT) -> Scalar:
    """Inner product with a compensated sum.

    >>> dot([1e16, 1.0, -1e16], [1, 1, 1])
    1.0
    """
    context = check_context(context)
    if isinstance(x, Sequence) and isinstance(y, Sequence) and not x and not y:
        return context.zero
    # Validated into the context's numbers: a triple-length dot (3.12+) would keep
    # ints as ints, and a Decimal must not meet a float.
    u = as_vector(x, name="x", context=context)
    v = as_vector(y, name="y", context=context)
    if len(u) != len(v):
        raise PurePCAError(f"dot: vectors of lengths {len(u)} and {len(v)}")
    with context.local():
        return context.dot(u, v)


def matvec(A: Sequence[Sequence[Scalar]], x: Sequence[Scalar], context: Context = FLOAT) -> list[Scalar]:
    """``A @ x`` for a matrix given as rows.

    >>> matvec([[1, 2], [3, 4]], [1, 1])
    [3.0, 7.0]
    """
    context = check_context(context)
    if isinstance(A, Sequence) and not isinstance(A, (str, bytes)) and not A:
        return []
    M = as_matrix(A, name="A", context=context)
    v = as_vector(x, name="x", context=context)
    if len(M[0]) != len(v):
        raise PurePCAError(f"matvec: matrix has {len(M[0])} columns but the vector has {len(v)} entries")
    with context.local():
        return context.dots(M, v)


def matmul(A: Sequence[Sequence[Scalar]], B: Sequence[Sequence[Scalar]],
           context: Context = FLOAT) -> list[list[Scalar]]:
    """``A @ B``; every entry is a compensated dot product.

    >>> matmul([[1, 2, 3]], [[1], [1], [1]])
    [[6.0]]
    """
    context = check_context(context)
    if isinstance(A, Sequence) and not isinstance(A, (str, bytes)) and not A:
        return []
    M = as_matrix(A, name="A", context=context)
    N = as_matrix(B, name="B", context=context)
    if len(M[0]) != len(N):
        raise PurePCAError(f"matmul: shapes {len(M)}x{len(M[0])} and {len(N)}x{len(N[0])} do not match")
    cols = transpose(N)
    with context.local():
        return [context.dots(cols, row) for row in M]


def identity(n: int, context: Context = FLOAT) -> list[list[Scalar]]:
    """The ``n`` x ``n`` identity.

    >>> identity(2)
    [[1.0, 0.0], [0.0, 1.0]]
    """
    context = check_context(context)
    n = as_int(n, "n", low=0, high=IDENTITY_MAX_N)  # the limit before the n * n entries, not after
    one, zero = context.one, context.zero
    return [[one if i == j else zero for j in range(n)] for i in range(n)]


#: The largest n :func:`identity` makes (n * n entries: 10**9 at most).
IDENTITY_MAX_N = 31622


def max_abs(A: Sequence[Sequence[Scalar]]) -> Scalar:
    """Largest absolute entry (0 for an empty matrix).

    >>> max_abs([[1, -5], [2, 3]])
    5.0
    """
    return _max_abs(as_matrix(A, name="A", copy=False))


def _max_abs(M: Sequence[Sequence[Scalar]]) -> Scalar:
    """:func:`max_abs` of rows already validated (the solvers' scaling, in any context)."""
    return max((max(map(abs, row), default=0) for row in M), default=0)


def norm_fro(A: Sequence[Sequence[Scalar]], context: Context = FLOAT) -> Scalar:
    """Frobenius norm, rescaled by a power of two when squares would overflow.

    >>> norm_fro([[3e200, 0.0], [0.0, 4e200]]) > 4.99e200
    True
    """
    context = check_context(context)
    M = as_matrix(A, name="A", context=context, copy=False)
    with context.local():
        return context.norm([x for row in M for x in row])


def norm_1(A: Sequence[Sequence[Scalar]], context: Context = FLOAT) -> Scalar:
    """Largest absolute column sum, the 1-norm LAPACK's tests use.

    >>> norm_1([[1, -2], [3, 4]])
    6.0
    """
    context = check_context(context)
    if isinstance(A, Sequence) and not isinstance(A, (str, bytes)) and not A:
        return context.zero
    M = as_matrix(A, name="A", context=context, copy=False)
    with context.local():
        return max(context.sum(map(abs, col)) for col in zip(*M))
