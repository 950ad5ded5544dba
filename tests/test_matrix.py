"""Input validation of the matrix layer: every rejected input, by message."""

from __future__ import annotations

import copy
from decimal import Decimal
from fractions import Fraction

import pytest

from purepca import PurePCAError, as_matrix
from purepca.linalg import as_symmetric, as_vector, dot, identity, matmul, matvec, norm_1, norm_fro, transpose
from purepca.numeric import DecimalContext


def test_as_matrix_accepts_lists_tuples_generators_and_rationals() -> None:
    assert as_matrix(((1, 2), (3, 4))) == [[1.0, 2.0], [3.0, 4.0]]
    assert as_matrix(([i, i + 1] for i in range(2))) == [[0.0, 1.0], [1.0, 2.0]]
    assert as_matrix([[Fraction(1, 2), Decimal("0.25")]]) == [[0.5, 0.25]]
    assert all(type(x) is float for row in as_matrix([[1, 2]]) for x in row)


def test_as_matrix_accepts_numpy_arrays() -> None:
    np = pytest.importorskip("numpy")
    a = np.arange(6, dtype=float).reshape(3, 2)
    m = as_matrix(a)
    assert m == [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]
    assert all(type(x) is float for row in m for x in row)
    with pytest.raises(PurePCAError, match=r"X: expected a 2-D input with one row per sample, got an array of shape \(3,\)"):
        as_matrix(np.zeros(3))
    with pytest.raises(PurePCAError, match=r"X: row 1, column 0 is NaN"):
        as_matrix(np.array([[1.0], [np.nan]]))
    with pytest.raises(PurePCAError, match=r"X: row 0, column 1 is a boolean"):
        as_matrix([[np.float64(1.0), np.bool_(True)]])


def test_as_matrix_returns_fresh_lists_and_never_mutates() -> None:
    data = [[1.0, 2.0], [3.0, 4.0]]
    before = copy.deepcopy(data)
    m = as_matrix(data)
    m[0][0] = 99.0
    assert data == before
    assert m[1] is not data[1]


@pytest.mark.parametrize(
    "data, message",
    [
        ([], r"X: empty input; need at least one row"),
        ([[]], r"X: row 0 has no values: 0 feature\(s\) \(shape=\(1, 0\)\) while a minimum of 1 is required"),
        ([[1, 2], [3]], r"X: row 1 has 1 value, expected 2 \(the length of row 0\)"),
        ([[1], [2, 3]], r"X: row 1 has 2 values, expected 1 \(the length of row 0\)"),
        ([[1, "2"]], r"X: row 0, column 1 is a string \('2'\); expected a real number"),
        ([[1], [True]], r"X: row 1, column 0 is a boolean \(True\); expected a real number"),
        ([[1, 2], [3, None]], r"X: row 1, column 1 is None \(a missing value\?\); expected a real number"),
        ([[1j, 2]], r"X: row 0, column 0 is complex \(1j\). Complex data not supported; expected a real number"),
        ([[1.0, float("nan")]], r"X: row 0, column 1 is NaN \(nan\); only finite numbers are allowed"),
        ([[1.0], [float("inf")]], r"X: row 1, column 0 is infinite \(inf\); only finite numbers are allowed"),
        ([[-float("inf")]], r"X: row 0, column 0 is infinite \(-inf\); only finite numbers are allowed"),
        ([[Decimal("NaN")]], r"X: row 0, column 0 is NaN"),
        ([[10**400]], r"X: row 0, column 0 \(an int of 401 digits\) is too large for a float"),
        ([[object()]], r"X: row 0, column 0 is a object"),
        ([1, 2, 3], r"X: row 0 is 1, not a sequence of numbers; expected a 2-D input"),
        (["ab"], r"X: row 0 is 'ab', not a sequence of numbers"),
        (None, r"X: got None; expected a 2-D input"),
        ("abc", r"X: got a string; expected a 2-D input"),
        (5, r"X: 5 is not a 2-D input"),
    ],
)
def test_as_matrix_rejects_bad_input(data: object, message: str) -> None:
    with pytest.raises(PurePCAError, match=message):
        as_matrix(data)


def test_as_matrix_names_the_argument_and_offsets_rows() -> None:
    with pytest.raises(PurePCAError, match=r"rows: row 12, column 0 is NaN"):
        as_matrix([[1.0], [float("nan")]], name="rows", row_offset=11)


def test_as_matrix_fast_path_still_finds_nan_and_inf() -> None:
    with pytest.raises(PurePCAError, match=r"row 0, column 2 is infinite"):
        as_matrix([[1.0, 2.0, float("inf")]])
    # Finite values whose plain sum overflows are fine.
    assert as_matrix([[1e308, 1e308]]) == [[1e308, 1e308]]


def test_as_matrix_decimal_context_converts_exactly() -> None:
    m = as_matrix([[0.1]], context=DecimalContext(50))
    assert m == [[Decimal(0.1)]]


def test_as_vector_rejects_bad_input() -> None:
    with pytest.raises(PurePCAError, match=r"x: empty; need at least one value"):
        as_vector([])
    with pytest.raises(PurePCAError, match=r"x: entry 2 is NaN"):
        as_vector([1, 2, float("nan")])
    with pytest.raises(PurePCAError, match=r"x: 3 is not a sequence of numbers"):
        as_vector(3)


def test_as_symmetric_rejects_non_square_and_non_symmetric() -> None:
    with pytest.raises(PurePCAError, match=r"A must be square, got 2 rows and 3 columns"):
        as_symmetric([[1, 2, 3], [4, 5, 6]])
    with pytest.raises(PurePCAError, match=r"A is not symmetric: A\[0\]\[2\] = 1.0 but A\[2\]\[0\] = 1.5"):
        as_symmetric([[1, 0, 1], [0, 1, 0], [1.5, 0, 1]])
    # Within the relative tolerance: accepted, upper triangle kept.
    assert as_symmetric([[1.0, 2.0], [2.0 + 1e-14, 1.0]]) == [[1.0, 2.0], [2.0, 1.0]]
    assert as_symmetric([]) == []


def test_helpers_compute_what_they_say() -> None:
    A = [[1.0, 2.0], [3.0, 4.0]]
    assert transpose(A) == [[1.0, 3.0], [2.0, 4.0]]
    assert matmul(A, identity(2)) == A
    assert matvec(A, [1.0, -1.0]) == [-1.0, -1.0]
    assert dot([1e16, 1.0, -1e16], [1.0, 1.0, 1.0]) == 1.0
    assert norm_1(A) == 6.0
    assert norm_fro([[3.0, 4.0]]) == 5.0
    with pytest.raises(PurePCAError, match=r"dot: vectors of lengths 2 and 3"):
        dot([1, 2], [1, 2, 3])
    with pytest.raises(PurePCAError, match=r"matvec: matrix has 2 columns but the vector has 3 entries"):
        matvec(A, [1, 2, 3])
    with pytest.raises(PurePCAError, match=r"matmul: shapes 2x2 and 3x1 do not match"):
        matmul(A, [[1], [2], [3]])
