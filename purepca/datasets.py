"""Small data sets bundled with purepca, as plain lists.

>>> X = toy_data()
>>> len(X), len(X[0])
(10, 2)
"""

from __future__ import annotations

__all__ = ["toy_data"]

# The toy data of R's prcomp example in seed 003 (ten points in the plane),
# stored row by row.
_TOY = (
    (2.5, 2.4), (0.5, 0.7), (2.2, 2.9), (1.9, 2.2), (3.1, 3.0),
    (2.3, 2.7), (2.0, 1.6), (1.0, 1.1), (1.5, 1.6), (1.1, 0.9),
)


def toy_data() -> list[list[float]]:
    """The 10 x 2 toy data set used to validate against R's ``prcomp`` (a fresh copy).

    >>> toy_data()[0]
    [2.5, 2.4]
    """
    return [list(row) for row in _TOY]
