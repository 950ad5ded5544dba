"""The command line: ``purepca demo`` (the console script) or ``python -m purepca demo``.

>>> main(["demo"]) == 0  # doctest: +ELLIPSIS
PCA of the toy data ...
True
"""

from __future__ import annotations

import argparse
import sys
from typing import Optional, Sequence

from . import __version__
from .datasets import toy_data
from .errors import PurePCAError
from .pca import PCA
from .report import _r_decimals, format_table

__all__ = ["main"]


def demo(precision: Optional[int] = None) -> str:
    """PCA of the bundled toy data under R's ``prcomp`` convention, as text.

    Prints R's importance table, the rotation and the scores, with seven
    significant digits as R prints a vector (seed 003 shows these numbers).

    >>> print(demo())  # doctest: +ELLIPSIS
    PCA of the toy data (10 samples, 2 features), convention prcomp: divisor n - 1, no sign rule
    <BLANKLINE>
    Standard deviations (1, .., p=2):
    [1] 1.1331495 0.2215477
    <BLANKLINE>
    Rotation (n x k) = (2 x 2), solver covariance; the sign of each column is arbitrary, as in R:
             PC1        PC2
    x1 0.6778734  0.7351787
    x2 0.7351787 -0.6778734
    <BLANKLINE>
    Importance of components:
                                 PC1        PC2
    Standard deviation     1.1331495 0.22154774
    Proportion of Variance 0.9631813 0.03681869
    Cumulative Proportion  0.9631813 1.00000000
    ...
    """
    X = toy_data()
    pca = PCA(convention="prcomp", precision=precision).fit(X)
    names = pca.component_names
    out = [
        f"PCA of the toy data ({pca.n_samples_} samples, {pca.n_features_in_} features), "
        "convention prcomp: divisor n - 1, no sign rule",
        "",
        f"Standard deviations (1, .., p={pca.n_components_}):",
        "[1] " + " ".join(f"{s:.{_r_decimals(pca.sdev, 7)}f}" for s in pca.sdev),
        "",
        f"Rotation (n x k) = ({pca.n_features_in_} x {pca.n_components_}), solver {pca.solver_}; "
        "the sign of each column is arbitrary, as in R:",
        format_table(names, [(f"x{j + 1}", row) for j, row in enumerate(pca.rotation)], 7),
        "",
        pca.summary().to_string(digits=7),
        "",
        "Scores (centred data times rotation):",
        format_table(names, [(f"[{i + 1}]", row) for i, row in enumerate(pca.x)], 7),
    ]
    if precision is not None:
        out[0] += f", computed with {precision} digits"
    return "\n".join(out)


#: Digits the command accepts for ``--precision``: from the least a decimal
#: context has (more than a float's 17) to a bound that keeps a run short.
PRECISION_RANGE = (17, 10_000)


def _precision(text: str) -> int:
    """argparse type of ``--precision``: an int in :data:`PRECISION_RANGE`."""
    low, high = PRECISION_RANGE
    try:
        digits = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an int: {text!r}") from None
    if not low <= digits <= high:
        raise argparse.ArgumentTypeError(f"must be between {low} and {high} digits, got {digits}")
    return digits


def main(argv: Optional[Sequence[str]] = None, prog: str = "purepca") -> int:
    """Entry point of ``python -m purepca``; returns the exit status.

    >>> main(["--version"])
    Traceback (most recent call last):
    ...
    SystemExit: 0
    """
    parser = argparse.ArgumentParser(prog=prog, description="PCA in pure Python.")
    parser.add_argument("--version", action="version", version=f"purepca {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    p_demo = sub.add_parser("demo", help="PCA of the bundled toy data (seed 003), printed as tables")
    p_demo.add_argument("--precision", type=_precision, default=None, metavar="DIGITS",
                        help="compute with this many decimal digits (17 to 10000, e.g. 50) instead of floats")
    args = parser.parse_args(argv)
    try:
        if args.command == "demo":
            print(demo(args.precision))
    except BrokenPipeError:  # e.g. piped into head
        pass
    except PurePCAError as err:
        print(f"{parser.prog}: error: {err}", file=sys.stderr)
        return 1
    return 0
