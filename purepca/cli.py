"""The command line: ``purepca demo`` (the console script) or ``python -m purepca demo``.

>>> main(["demo"]) == 0  # doctest: +ELLIPSIS
PCA of the toy data ...
True
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import warnings
from typing import Optional, Sequence, Union

from . import __version__
from .conventions import CONVENTIONS
from .csvdata import Table, read_table
from .datasets import toy_data
from .errors import PurePCAError
from .model_io import pca_from_json, pca_to_json
from .pca import PCA, SOLVERS
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


def _components(text: str) -> Union[int, float]:
    """argparse type of ``--components``: an int >= 1, or a fraction of the variance in (0, 1)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if value.is_integer() and value >= 1 and "." not in text:
        return int(value)
    if 0.0 < value < 1.0:
        return value
    raise argparse.ArgumentTypeError(f"an int >= 1 or a fraction strictly between 0 and 1, got {text!r}")


def fit_report(pca: PCA, names: list[str], form: str, *, source: str = "", dropped: int = 0,
               imputed: Optional[dict[str, int]] = None) -> str:
    """The fitted model as text: R's importance table and the loadings
    (``form="table"``), one rectangular CSV table (``"csv"``: the three rows
    of the importance table, then a row of loadings per feature, every
    number to full precision), or JSON.

    >>> from purepca.datasets import toy_data
    >>> pca = PCA(convention="prcomp").fit(toy_data())
    >>> lines = fit_report(pca, ["x1", "x2"], "csv").splitlines()
    >>> [line.split(",")[0] for line in lines]
    ['', 'Standard deviation', 'Proportion of Variance', 'Cumulative Proportion', 'x1', 'x2']
    >>> lines[0], [round(float(v), 7) for v in lines[1].split(",")[1:]]
    (',PC1,PC2', [1.1331495, 0.2215477])
    """
    comps = pca.component_names
    summary = pca.summary()
    loadings = [(name, list(row)) for name, row in zip(names, pca.rotation)]
    if form == "json":
        document = {
            "source": source,
            "n_samples": pca.n_samples_,
            "features": names,
            "components": comps,
            "convention": pca.convention,
            "solver": pca.solver_,
            "importance": {label: values for label, values in summary.rows},
            "loadings": {name: row for name, row in loadings},
            "rows_dropped": dropped,
            "values_imputed": imputed or {},
        }
        return json.dumps(document, indent=2)
    if form == "csv":
        def cell(v: float) -> str:
            return repr(float(v))  # the shortest text that reads back to the same float
        lines = [",".join([""] + comps)]
        for label, values in summary.rows + loadings:
            lines.append(",".join([label] + [cell(v) for v in values]))
        return "\n".join(lines)
    out = [f"PCA of {source or 'the data'} ({pca.n_samples_} samples, {pca.n_features_in_} features), "
           f"convention {pca.convention}, solver {pca.solver_}"]
    if dropped:
        out.append(f"({dropped} row{'s' if dropped != 1 else ''} with missing values dropped)")
    for name, count in (imputed or {}).items():
        out.append(f"({count} missing value{'s' if count != 1 else ''} of {name!r} set to the column mean)")
    out += ["", summary.to_string(digits=7), "", "Loadings (rotation):", format_table(comps, loadings, 7)]
    return "\n".join(out)


def _write(text: str, output: Optional[str]) -> None:
    """Print, or write to ``output`` through a temporary file renamed into place (never half-written)."""
    if output is None:
        print(text)
        return
    directory = os.path.dirname(os.path.abspath(output))
    fd, temporary = tempfile.mkstemp(prefix=".purepca-", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text + "\n")
        os.replace(temporary, output)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def _read_text(name: str) -> str:
    source = "<stdin>" if name == "-" else name
    try:
        if name == "-":
            return sys.stdin.read()
        with open(name, encoding="utf-8", newline="") as handle:
            return handle.read()
    except OSError as err:
        raise PurePCAError(f"{source}: cannot read it ({err.strerror or err})") from None


def _table_options(p: argparse.ArgumentParser, columns_help: str, id_help: str) -> None:
    """The input and output options that fit and transform share."""
    p.add_argument("file", help="a CSV file, or - for standard input")
    p.add_argument("--columns", default=None, metavar="COLS", help=columns_help)
    p.add_argument("--id-column", default=None, metavar="COL", help=id_help)
    p.add_argument("--no-header", action="store_true", help="the first line is data; columns are named x1, x2, ...")
    p.add_argument("--delimiter", default=",", metavar="CHAR", help="the field separator (default: ,)")
    p.add_argument("--missing", choices=("error", "drop", "mean"), default="error",
                   help="empty, NA or NaN cells: an error naming the cell (default), drop the row, or the column mean")
    p.add_argument("--format", choices=("table", "csv", "json"), default="table", help="the output (default: table)")
    p.add_argument("--output", default=None, metavar="FILE",
                   help="write here (through a temporary file renamed into place) instead of standard output")


def _read_args_table(args: argparse.Namespace, columns: Optional[str]) -> tuple[str, Table]:
    """The source's name and the table the shared options describe."""
    source = "<stdin>" if args.file == "-" else args.file
    table = read_table(_read_text(args.file).splitlines(), source=source, delimiter=args.delimiter,
                       header=not args.no_header, columns=columns, id_column=args.id_column, missing=args.missing)
    return source, table


def _fit_command(args: argparse.Namespace) -> None:
    source, table = _read_args_table(args, args.columns)
    pca = PCA(args.components, scale=True if args.scale else None, convention=args.convention,
              solver=args.solver, precision=args.precision)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # degenerate eigenvalues: the table shows them
        pca.fit(table.rows)
    if args.save is not None:
        pca.feature_names_in_ = list(table.names)  # the columns transform will read
        _write(pca_to_json(pca), args.save)
    _write(fit_report(pca, table.names, args.format, source=source, dropped=table.dropped, imputed=table.imputed),
           args.output)


def scores_report(names: list[str], scores: list[list[float]], ids: Optional[list[str]], form: str) -> str:
    """Scores as an aligned table, a CSV table (full precision) or JSON.

    >>> print(scores_report(["PC1"], [[1.5], [-1.5]], ["a", "b"], "csv"))
    id,PC1
    a,1.5
    b,-1.5
    """
    labels = ids if ids is not None else [str(i + 1) for i in range(len(scores))]
    if form == "json":
        return json.dumps({"components": names, "ids": labels, "scores": scores}, indent=1)
    if form == "csv":
        lines = [",".join(["id"] + names)]
        lines += [",".join([label] + [repr(float(v)) for v in row]) for label, row in zip(labels, scores)]
        return "\n".join(lines)
    return format_table(names, list(zip(labels, scores)), 7)


def _transform_command(args: argparse.Namespace) -> None:
    pca = pca_from_json(_read_text(args.model))
    names = pca.feature_names_in_
    columns = args.columns if args.columns is not None or args.no_header or not names else ",".join(names)
    _, table = _read_args_table(args, columns)
    pca.feature_names_in_ = None  # the columns were chosen by name above
    _write(scores_report(pca.component_names, pca.transform(table.rows), table.ids, args.format), args.output)


def _published(name: str, source: str, got: Sequence[float], expected: Sequence[str]) -> tuple[bool, str]:
    """A published number agrees when ours, rounded to the decimals printed, is the printed number."""
    rounded = [round(g, len(e.split(".")[1])) for g, e in zip(got, expected)]
    ok = len(got) == len(expected) and all(r == float(e) for r, e in zip(rounded, expected))
    return ok, f"{name} ({source}): {' '.join(expected)}" + ("" if ok else f"; got {' '.join(map(repr, got))}")


def self_check() -> list[tuple[bool, str]]:
    """``purepca check``: the numbers seed 003 publishes and a few golden cases,
    with the standard library only.  Each entry is ``(passed, line)``.

    >>> all(ok for ok, _ in self_check())
    True
    """
    import math

    from .kernel_pca import KernelPCA
    from .linalg import jacobi_eigh, tridiagonal_eigh

    X = toy_data()
    checks = []
    r = PCA(convention="prcomp").fit(X)
    checks.append(_published("prcomp standard deviations", "seed 003, prcomp(X)$sdev", r.sdev, ["1.1331495", "0.2215477"]))
    checks.append(_published("proportions of variance", "seed 003, eigen(cov(X))", r.explained_variance_ratio_,
                             ["0.9631813", "0.03681869"]))
    checks.append(_published("|rotation| of PC1", "seed 003, prcomp(X)$rotation",
                             [abs(v) for v in r.components_[0]], ["0.6778734", "0.7351787"]))
    kp = KernelPCA(convention="kernlab").fit(X)
    checks.append(_published("kernlab eigenvalues", "seed 003, eig(kpca(X, kernel='vanilladot'))", kp.eig,
                             ["1.15562494", "0.04417506"]))
    checks.append(_published("|rotated| of row 1", "seed 003, rotated(kpc)", [abs(v) for v in kp.rotated[0]],
                             ["2.6182716", "0.55376322"]))
    fifty = PCA(convention="prcomp", precision=50).fit(X)
    gap = max(abs(a - b) for a, b in zip(fifty.sdev, r.sdev))
    checks.append((gap < 1e-15, f"floats agree with 50 digits: largest difference of sdev {gap:.1e} (below 1e-15)"))
    A = [[2.0, -1.0, 0.0], [-1.0, 2.0, -1.0], [0.0, -1.0, 2.0]]
    exact = [2 + math.sqrt(2), 2.0, 2 - math.sqrt(2)]  # the second difference matrix: 2 - 2cos(jπ/4)
    for solver in (jacobi_eigh, tridiagonal_eigh):
        err = max(abs(a - b) for a, b in zip(solver(A).values, exact))
        checks.append((err < 1e-15, f"{solver.__name__} on the 3 x 3 second difference matrix: error {err:.1e} (below 1e-15)"))
    return checks


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
    p_fit = sub.add_parser("fit", help="PCA of a CSV file: R's importance table and the loadings",
                           description="PCA of the numeric columns of a CSV file (or - for standard input).")
    _table_options(p_fit, "the columns to analyse: names or 0-based indices, comma-separated (default: all)",
                   "a label column (name or index) kept out of the analysis, such as state names")
    p_fit.add_argument("--components", type=_components, default=None, metavar="K",
                       help="how many components: an int, or a fraction of the variance such as 0.9 (default: all)")
    p_fit.add_argument("--scale", action="store_true", help="scale every column to unit variance (PCA of the correlation)")
    p_fit.add_argument("--convention", choices=sorted(CONVENTIONS), default="prcomp",
                       help="divisor, scaling and sign rule of a library (default: prcomp, as R)")
    p_fit.add_argument("--solver", choices=SOLVERS, default="auto", help="the eigen-solver (default: auto)")
    p_fit.add_argument("--precision", type=_precision, default=None, metavar="DIGITS",
                       help="compute with this many decimal digits (17 to 10000) instead of floats")
    p_fit.add_argument("--save", default=None, metavar="MODEL",
                       help="also write the fitted model as JSON, for purepca transform --model")
    p_tr = sub.add_parser("transform", help="scores of the rows of a CSV file under a saved model",
                          description="Scores of the rows of a CSV file (or -) under a model saved by fit --save; "
                          "the same bits as fitting and transforming in one run.")
    _table_options(p_tr, "the columns (default: those the model was fitted on, by name)",
                   "a label column, printed with the scores")
    p_tr.add_argument("--model", required=True, metavar="MODEL", help="the JSON model written by fit --save")
    sub.add_parser("check", help="a self-test with the standard library only: published numbers, PASS/FAIL per line",
                   description="Reproduce the numbers seed 003 publishes (R's prcomp and kernlab) and a few golden "
                   "cases, with the standard library only; exit 1 if any line fails.")
    args = parser.parse_args(argv)
    try:
        if args.command == "check":
            results = self_check()
            for ok, line in results:
                print(f"{'PASS' if ok else 'FAIL'}  {line}")
            failed = sum(not ok for ok, _ in results)
            print(f"{len(results) - failed} passed, {failed} failed")
            return 1 if failed else 0
        if args.command == "demo":
            print(demo(args.precision))
        elif args.command == "fit":
            _fit_command(args)
        elif args.command == "transform":
            _transform_command(args)
    except BrokenPipeError:  # e.g. piped into head
        pass
    except PurePCAError as err:
        print(f"{parser.prog}: error: {err}", file=sys.stderr)
        return 1
    return 0
