"""The command line: ``python -m purepca demo``.

>>> main(["demo"]) == 0  # doctest: +ELLIPSIS
Principal components of the toy data ...
True
"""

from __future__ import annotations

import argparse
import math
from typing import Optional, Sequence

from . import __version__
from .covariance import center, covariance_matrix
from .datasets import toy_data
from .linalg.jacobi import jacobi_eigh
from .linalg.matrix import matmul, transpose
from .numeric import get_context

__all__ = ["main"]


def _decimals(values: Sequence[float], digits: int) -> int:
    """Decimal places that give the smallest non-zero value ``digits`` significant
    digits: R's rule for printing a numeric vector."""
    nonzero = [abs(v) for v in values if v != 0]
    if not nonzero:
        return 0
    return min(15, max(0, digits - 1 - math.floor(math.log10(min(nonzero)))))


def _table(header: Sequence[str], rows: Sequence[tuple[str, Sequence[float]]], digits: int, by_row: bool = True) -> str:
    """A right-aligned text table; numbers formatted as R formats a vector (per row, or all alike)."""
    width = max(len(label) for label, _ in rows)
    if by_row:
        cells = [[f"{v:.{_decimals(values, digits)}f}" for v in values] for _, values in rows]
    else:
        places = _decimals([v for _, values in rows for v in values], digits)
        cells = [[f"{v:.{places}f}" for v in values] for _, values in rows]
    col = max([len(h) for h in header] + [len(c) for r in cells for c in r])
    lines = [" " * width + "".join(f" {h:>{col}}" for h in header)]
    for (label, _), r in zip(rows, cells):
        lines.append(f"{label:<{width}}" + "".join(f" {c:>{col}}" for c in r))
    return "\n".join(lines)


def demo(precision: Optional[int] = None) -> str:
    """PCA of the bundled toy data by covariance + Jacobi, as text.

    >>> print(demo())  # doctest: +ELLIPSIS
    Principal components of the toy data (10 samples, 2 features), covariance divisor n - 1
    <BLANKLINE>
    Importance of components:
                                  PC1        PC2
    Standard deviation      1.1331495  0.2215477
    Proportion of Variance 0.96318131 0.03681869
    Cumulative Proportion   0.9631813  1.0000000
    ...
    """
    ctx = get_context(precision)
    X = toy_data()
    n, d = len(X), len(X[0])
    C = covariance_matrix(X, context=ctx)
    eig = jacobi_eigh(C, context=ctx)
    values = [ctx.to_float(v) for v in eig.values]
    total = math.fsum(values)
    sdev = [math.sqrt(max(v, 0.0)) for v in values]
    prop = [v / total for v in values]
    cum = [math.fsum(prop[: i + 1]) for i in range(d)]
    names = [f"PC{i + 1}" for i in range(d)]
    rotation = [[ctx.to_float(x) for x in row] for row in transpose(eig.vectors)]  # d x k, as R prints it
    scores = matmul(center(X), rotation)
    out = [
        f"Principal components of the toy data ({n} samples, {d} features), covariance divisor n - 1",
        "",
        "Importance of components:",
        _table(names, [("Standard deviation", sdev), ("Proportion of Variance", prop),
                       ("Cumulative Proportion", cum)], 7),
        "",
        f"Rotation (eigenvectors of the covariance as columns; {eig.sweeps} Jacobi sweeps, "
        f"{eig.rotations} rotations; the sign of each column is arbitrary):",
        _table(names, [(f"x{j + 1}", row) for j, row in enumerate(rotation)], 7, by_row=False),
        "",
        "Scores (centred data times rotation):",
        _table(names, [(f"[{i + 1}]", row) for i, row in enumerate(scores)], 7, by_row=False),
    ]
    return "\n".join(out)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Entry point of ``python -m purepca``; returns the exit status.

    >>> main(["--version"])
    Traceback (most recent call last):
    ...
    SystemExit: 0
    """
    parser = argparse.ArgumentParser(prog="python -m purepca", description="PCA in pure Python.")
    parser.add_argument("--version", action="version", version=f"purepca {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    p_demo = sub.add_parser("demo", help="PCA of the bundled toy data (seed 003), printed as tables")
    p_demo.add_argument("--precision", type=int, default=None,
                        help="compute with this many decimal digits (e.g. 50) instead of floats")
    args = parser.parse_args(argv)
    if args.command == "demo":
        try:
            print(demo(args.precision))
        except BrokenPipeError:  # e.g. piped into head
            pass
    return 0
