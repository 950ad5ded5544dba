"""Validation of a list of float rows by loops written for an interpreter (kernels of :mod:`purepca.fast`).

Each answers "every row a list of one length, every entry a finite float" and returns the
fresh copy ``linalg.matrix.as_matrix`` would (or the columns a fit works on), or None, meaning
"take the reference": the general loop, which also names the offending cell.  Contract: the
same values, bit for bit, as the reference's rows (tests/test_fast.py).

==============================  ============================================================
``float_rows(data)``            PyPy: one loop its JIT compiles
``float_rows_at_once(data)``    CPython: C loops over all the entries at once
``float_columns(data)``         PyPy: the columns, filled in one compiled loop
``float_columns_at_once(data)`` CPython 3.12+: the columns as tuples of floats side by side
``columns(M, d)``               PyPy: ``zip(*M)`` as one comprehension per column
==============================  ============================================================
"""

from __future__ import annotations

import itertools
from array import array
from typing import Any, Optional, Sequence

__all__ = ["columns", "float_columns", "float_columns_at_once", "float_lists", "float_rows", "float_rows_at_once"]

_FLOATS_ONLY = {float}


def float_rows(data: list[Any], copy: bool = True) -> Optional[list[list[float]]]:
    """Copies of the rows when every row is a list of the first row's length holding finite
    floats only (always a copy: ``copy`` is for the signature's sake), else None (then the reference loop of
    ``linalg.matrix.as_matrix`` validates, and names what is wrong): one loop
    PyPy's JIT compiles, half the time of the general one there.

    >>> float_rows([[1.0, 2.0], [3.0, 4.0]]), float_rows([[1.0, 2.0], [3.0, True]])
    ([[1.0, 2.0], [3.0, 4.0]], None)
    """
    first = data[0]
    if type(first) is not list or not first:
        return None
    width = len(first)
    out = []
    for row in data:
        if type(row) is not list or len(row) != width:
            return None
        for x in row:
            if type(x) is not float or x - x != 0.0:  # x - x is 0 for finite floats only
                return None
        out.append(row[:])
    return out


def float_rows_at_once(data: list[Any], copy: bool = True) -> Optional[list[list[float]]]:
    """What :func:`float_rows` decides, by C loops over all the entries at once (CPython): the
    rows' types and lengths, the entries' types (exact floats only), and one ``sum`` whose finite
    value proves every entry finite (an overflowing sum, or anything else, goes to the general
    loop, which names the cell).  10,000 x 50: 13 ms against 19 ms row by row.  Without ``copy``
    the rows are ``data`` itself (for a caller that only reads them: no 10,000 new lists for the
    collector to walk, which cost a transform of 10,000 x 50 about 30 ms).

    >>> float_rows_at_once([[1.0, 2.0], [3.0, 4.0]]), float_rows_at_once([[1.0, 2.0], [3.0, True]])
    ([[1.0, 2.0], [3.0, 4.0]], None)
    >>> float_rows_at_once([[1.0], [2.0, 3.0]]), float_rows_at_once([[1e308], [1e308]])
    (None, None)
    """
    if not float_lists(data):
        return None
    total = sum(itertools.chain(*data))
    if not total - total == 0.0:
        return None
    return list(map(list, data)) if copy else data


_LISTS_ONLY = {list}


def float_lists(data: list[Any]) -> bool:
    """Whether the non-empty list ``data`` holds non-empty lists of one length whose entries are all
    exact floats, by C loops over all the entries at once (their finiteness is the caller's).

    >>> float_lists([[1.0, 2.0], [3.0, 4.0]]), float_lists([[1.0], [2.0, 3.0]]), float_lists([[1.0], (2.0,)])
    (True, False, False)
    """
    if set(map(type, data)) != _LISTS_ONLY or set(map(len, data)) != {len(data[0])} or not data[0]:
        return False
    return set(map(type, itertools.chain(*data))) == _FLOATS_ONLY


def float_columns_at_once(data: Any) -> Optional[list[tuple[float, ...]]]:
    """:func:`float_columns` by C loops (CPython): the rows checked at once (:func:`float_lists`),
    the values copied into one array of doubles in the rows' order (``fromlist``) and each column
    read out of it as a tuple of new floats, which lie side by side in memory (the rows' own
    floats, read down a column, lie a row apart: a pass over such a column costs two to three
    times as much).  A non-finite value (a column's sum not finite: also a sum that overflows)
    gives None, and the general loop names the cell.  Tuples: the model keeps them, and the
    collector stops walking a tuple of floats once it has seen it.  10,000 x 50: about 28 ms,
    where the fit's passes over the columns then save about twice that.

    >>> float_columns_at_once([[1.0, 2.0], [3.0, 4.0]]), float_columns_at_once([[1.0, 2.0], [3.0, True]])
    ([(1.0, 3.0), (2.0, 4.0)], None)
    >>> float_columns_at_once([[1.0], [2.0, 3.0]]), float_columns_at_once([[1e308], [1e308]])
    (None, None)
    """
    if type(data) is not list or not data or not float_lists(data):
        return None
    width = len(data[0])
    flat = array("d")
    for row in data:
        flat.fromlist(row)
    view: Any = memoryview(flat)  # (typeshed reads a memoryview as bytes)
    cols = [tuple(view[j::width].tolist()) for j in range(width)]
    total = sum(map(sum, cols))
    if not total - total == 0.0:
        return None
    return cols


def float_columns(data: Any) -> Optional[list[list[float]]]:
    """The columns of ``data`` when it is a non-empty list of lists of one length holding finite
    floats only, else None (then :func:`as_matrix` validates, and names what is wrong).

    One pass over the rows that PyPy's JIT compiles, filling columns allocated at their full
    length: a fit on PyPy keeps these as its copy of the data (``fitting.ColumnRows``), so that
    neither a copy of every row (n small lists, which cost PyPy's collector more than the copy
    itself) nor a second pass to transpose them is made.

    >>> float_columns([[1.0, 2.0], [3.0, 4.0]]), float_columns([[1.0, 2.0], [3.0, 4]])
    ([[1.0, 3.0], [2.0, 4.0]], None)
    """
    if type(data) is not list or not data:
        return None
    first = data[0]
    if type(first) is not list or not first:
        return None
    width = len(first)
    n = len(data)
    cols = [[0.0] * n for _ in range(width)]
    i = 0
    for row in data:
        if type(row) is not list or len(row) != width:
            return None
        j = 0
        for x in row:
            if type(x) is not float or x - x != 0.0:  # x - x is 0 for finite floats only
                return None
            cols[j][i] = x
            j += 1
        i += 1
    return cols


def columns(M: list[list[float]], d: int) -> Sequence[Sequence[float]]:
    """The columns of the rows ``M`` as a comprehension per column, which PyPy's JIT runs about
    six times as fast as ``zip`` with 10,000 arguments (the reference: ``list(zip(*M))``, the
    same values).

    >>> [list(c) for c in columns([[1.0, 2.0], [3.0, 4.0]], 2)]
    [[1.0, 3.0], [2.0, 4.0]]
    """
    return [[row[j] for row in M] for j in range(d)]
