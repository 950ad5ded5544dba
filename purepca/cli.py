"""The command line: ``purepca demo`` (the console script) or ``python -m purepca demo``.

>>> main(["demo"]) == 0  # doctest: +ELLIPSIS
PCA of the toy data ...
True
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import sys
import tempfile
import time
import warnings
from typing import Iterator, NoReturn, Optional, Sequence, TextIO, Union

from . import __version__
from .conventions import CONVENTIONS
from .csvdata import StreamedRows, Table, read_table
from .datasets import DATASETS, load, toy_data
from .errors import PurePCAError
from .covariance import correlation_matrix, covariance_matrix
from .kernel_pca import EIGEN_SOLVERS, KernelPCA
from .kernels import KERNELS
from .linalg.matrix import as_symmetric
from .model_io import pca_from_json, pca_to_json
from .pca import PCA, SOLVERS
from .report import _r_decimals, format_table
from .svg import pca_report
from .teaching import trace_jacobi, trace_power
from .testing import METHODS, Check, compare_pca


__all__ = ["main", "read_result", "verify_report"]


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
    rule = CONVENTIONS[pca.convention].sign if pca.sign is None else pca.sign
    signs = "; the sign of each column is arbitrary, as in R" if rule == "none" else ""
    out += ["", summary.to_string(digits=7), "", f"Loadings (rotation){signs}:", format_table(comps, loadings, 7)]
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


def _input_options(p: argparse.ArgumentParser, columns_help: str, id_help: str, file_help: Optional[str] = None) -> None:
    """Where the data come from and how to read them (every subcommand that reads a table).

    The file is the positional FILE, or, with ``file_help``, the option ``--data FILE``; then missing
    cells are always an error (the other program's answer was for complete rows)."""
    if file_help is None:
        p.add_argument("file", nargs="?", default=None, help="a CSV file, or - for standard input")
    else:
        p.add_argument("--data", dest="file", default=None, metavar="FILE", help=file_help)
    p.add_argument("--dataset", choices=DATASETS, default=None,
                   help=f"a bundled data set instead of {'FILE' if file_help is None else '--data'} "
                   "(its label column is the id column)")
    p.add_argument("--columns", default=None, metavar="COLS", help=columns_help)
    p.add_argument("--id-column", default=None, metavar="COL", help=id_help)
    p.add_argument("--no-header", action="store_true", help="the first line is data; columns are named x1, x2, ...")
    p.add_argument("--delimiter", default=",", metavar="CHAR", help="the field separator (default: ,)")
    if file_help is None:
        p.add_argument("--missing", choices=("error", "drop", "mean"), default="error",
                       help="empty, NA or NaN cells: an error naming the cell (default), drop the row, or the column mean")
    else:
        p.set_defaults(missing="error")


def _output_options(p: argparse.ArgumentParser, formats: bool = True) -> None:
    if formats:
        p.add_argument("--format", choices=("table", "csv", "json"), default="table", help="the output (default: table)")
    p.add_argument("--output", default=None, metavar="FILE",
                   help="write here (through a temporary file renamed into place) instead of standard output")


def _table_options(p: argparse.ArgumentParser, columns_help: str, id_help: str) -> None:
    """The input and output options that fit, transform and kernel share."""
    _input_options(p, columns_help, id_help)
    _output_options(p)


def _read_args_table(args: argparse.Namespace, columns: Optional[str], groups: Optional[str] = None) -> tuple[str, Table]:
    """The source's name and the table the shared options describe."""
    if args.dataset is not None:
        data = load(args.dataset)
        id_column = args.id_column if args.id_column is not None else data.label_name
        if columns is None and data.active is not None:
            columns = ",".join(data.active)  # the supplementary columns stay out unless asked for
        table = read_table(data.to_csv().splitlines(), source=args.dataset, columns=columns, id_column=id_column,
                           missing=args.missing, group_column=groups)
        return data.name, table
    source = "<stdin>" if args.file == "-" else args.file
    table = read_table(_read_text(args.file).splitlines(), source=source, delimiter=args.delimiter,
                       header=not args.no_header, columns=columns, id_column=args.id_column, missing=args.missing,
                       group_column=groups)
    return source, table


#: Files larger than this many bytes are streamed by ``fit --stream auto``.
STREAM_BYTES = 64 * 2**20


class Progress:
    """Progress of reading a file, on one line of stderr, at most every ``every`` seconds.

    Shown only when stderr is a terminal (``enabled`` None asks ``isatty``);
    a pipe or a file gets nothing.

    >>> import io
    >>> err = io.StringIO()
    >>> show = Progress(2_000_000, stream=err, enabled=True, every=0.0)
    >>> show(1_000_000, 5000); show(2_000_000, -1)
    >>> err.getvalue().split("\\r")[1:]
    ['purepca: read 1.0 MB of 2.0 MB (50 %), 5,000 rows', 'purepca: read 2.0 MB of 2.0 MB (100 %), 5,000 rows\\n']
    """

    def __init__(self, total: int, *, stream: Optional[TextIO] = None, enabled: Optional[bool] = None,
                 every: float = 0.5) -> None:
        self.total, self.every = total, every
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.last = -math.inf
        self.rows = 0

    def __call__(self, done: int, rows: int) -> None:
        if not self.enabled:
            return
        final = rows < 0
        self.rows = self.rows if final else rows
        now = time.monotonic()
        if not final and now - self.last < self.every:
            return
        self.last = now
        share = f" ({100 * done // self.total} %)" if self.total else ""
        self.stream.write(f"\rpurepca: read {done / 1e6:.1f} MB of {self.total / 1e6:.1f} MB{share}, "
                          f"{self.rows:,} rows" + ("\n" if final else ""))
        self.stream.flush()


@contextlib.contextmanager
def _about(source: str) -> Iterator[None]:
    """Errors of the analysis name the file (or data set) they are about."""
    try:
        yield
    except PurePCAError as err:
        if str(err).startswith(f"{source}:"):
            raise
        raise PurePCAError(f"{source}: {err}") from None


def _streamed(args: argparse.Namespace) -> bool:
    """Whether ``fit`` streams its file through ``fit_stream`` rather than reading it whole."""
    if args.stream == "never" or args.dataset is not None or args.file in (None, "-"):
        if args.stream == "always" and (args.dataset is not None or args.file in (None, "-")):
            raise PurePCAError("--stream always needs a file (standard input and the bundled data sets are read whole)")
        return False
    if args.stream == "always":
        return True
    try:
        return os.path.getsize(args.file) > STREAM_BYTES
    except OSError:
        return False  # reading it will say what is wrong


def _fit_command(args: argparse.Namespace) -> None:
    pca = PCA(args.components, scale=True if args.scale else None, convention=args.convention,
              solver=args.solver, precision=args.precision)
    if _streamed(args):
        size = os.path.getsize(args.file)
        stream = StreamedRows(args.file, delimiter=args.delimiter, header=not args.no_header, columns=args.columns,
                              id_column=args.id_column, missing=args.missing, progress=Progress(size))
        source = args.file
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # degenerate eigenvalues: the table shows them
            with _about(source):
                pca.fit_stream(stream)
        table = Table(stream.names, [], None, stream.dropped, stream.imputed)
    else:
        source, table = _read_args_table(args, args.columns)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # degenerate eigenvalues: the table shows them
            with _about(source):
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


def _dataset_command(args: argparse.Namespace) -> None:
    if args.name is None:
        lines = ["Bundled data sets (purepca dataset NAME prints one as CSV; fit --dataset NAME analyses it):"]
        for name in DATASETS:
            data = load(name)
            lines.append(f"  {name:<10} {len(data.rows)} x {len(data.columns)}  {data.title}")
            lines += [f"  {'':<10} published: {pub.call}" for pub in data.published]
            if data.factominer is not None:
                lines.append(f"  {'':<10} published: {data.factominer.call}")
        _write("\n".join(lines), args.output)
        return
    _write(load(args.name).to_csv().rstrip("\n"), args.output)


def kernel_report(kp: KernelPCA, scores: list[list[float]], ids: Optional[list[str]], form: str, *,
                  source: str = "") -> str:
    """A fitted Kernel PCA as text: the eigenvalues with their shares, then the scores of the rows.

    ``form`` is ``"table"``, ``"csv"`` (the scores, full precision) or
    ``"json"`` (eigenvalues, shares, scores and the settings).

    >>> from purepca.datasets import toy_data
    >>> kp = KernelPCA(2, kernel="rbf", gamma=0.5).fit(toy_data())
    >>> print(kernel_report(kp, kp.transform(toy_data()), None, "table").splitlines()[0])
    Kernel PCA of the data (10 samples, 2 features), kernel rbf (gamma 0.5), convention sklearn
    """
    names = [f"PC{i + 1}" for i in range(kp.n_components_)]
    if kp.kernel in ("rbf", "laplacian", "sigmoid", "poly"):
        settings = f"gamma {kp.gamma_:g}"
        if kp.kernel == "poly":
            settings += f", degree {kp.degree}, coef0 {kp.coef0:g}"
        elif kp.kernel == "sigmoid":
            settings += f", coef0 {kp.coef0:g}"
        described = f"{kp.kernel} ({settings})"
    else:
        described = str(kp.kernel)
    if form == "json":
        return json.dumps({"source": source, "n_samples": kp.n_samples_, "kernel": str(kp.kernel),
                           "gamma": kp.gamma_, "convention": kp.convention, "components": names,
                           "eigenvalues": kp.eigenvalues_, "explained_variance_ratio": kp.explained_variance_ratio_,
                           "ids": ids, "scores": scores}, indent=1)
    if form == "csv":
        return scores_report(names, scores, ids, "csv")
    out = [f"Kernel PCA of {source or 'the data'} ({kp.n_samples_} samples, {kp.n_features_in_} features), "
           f"kernel {described}, convention {kp.convention}", "",
           "Eigenvalues of the centred kernel matrix" + (" (divided by n, as kernlab)" if kp.convention == "kernlab"
                                                         else "") + ":",
           format_table(names, [("eigenvalue", list(kp.eigenvalues_)), ("share", list(kp.explained_variance_ratio_))], 7),
           "", "Scores:", scores_report(names, scores, ids, "table")]
    return "\n".join(out)


def _kernel_command(args: argparse.Namespace) -> None:
    source, table = _read_args_table(args, args.columns)
    # --components 0: every component with a positive eigenvalue.
    kp = KernelPCA(args.components or None, kernel=args.kernel, gamma=args.gamma, degree=args.degree, coef0=args.coef0,
                   eigen_solver=args.eigen_solver, convention=args.convention, precision=args.precision)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with _about(source):
            scores = kp.fit_transform(table.rows)
    _write(kernel_report(kp, scores, table.ids, args.format, source=source), args.output)


def _plot_command(args: argparse.Namespace) -> None:
    source, table = _read_args_table(args, args.columns, args.groups)
    pca = PCA(scale=True if args.scale else None, convention=args.convention, solver=args.solver)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with _about(source):
            pca.fit(table.rows)
    kinds = ("scree", "scores", "biplot", "circle") if args.kind == "report" else (args.kind,)
    title = args.title if args.title is not None else f"PCA of {os.path.basename(source)}"
    svg = pca_report(pca, table.rows, feature_names=table.names, groups=table.groups, names=table.ids, title=title,
                     kinds=kinds)
    _write(svg.rstrip("\n"), args.out)


def _trace_matrix(args: argparse.Namespace) -> tuple[str, list[str], list[list[float]]]:
    """The symmetric matrix ``trace`` works on, what it is, and the names of its rows."""
    if args.matrix is not None:
        table = read_table(_read_text(args.matrix).splitlines(), source=args.matrix, delimiter=args.delimiter,
                           header=False)
        M = as_symmetric(table.rows, name=args.matrix)
        return f"the matrix in {args.matrix}", table.names, [[float(v) for v in row] for row in M]
    source, table = _read_args_table(args, args.columns)
    if len(table.rows) < 2:
        raise PurePCAError(f"{source}: the covariance needs at least 2 rows, got {len(table.rows)}")
    if args.scale:
        C = correlation_matrix(table.rows)
        return f"the correlation matrix of {source}", table.names, [[float(v) for v in row] for row in C]
    C = covariance_matrix(table.rows)
    return f"the covariance matrix of {source}", table.names, [[float(v) for v in row] for row in C]


def _trace_command(args: argparse.Namespace) -> None:
    what, labels, M = _trace_matrix(args)
    out = [f"{what} ({len(M)} x {len(M)})" + (":" if len(M) <= 8 else "")]
    if len(M) <= 8:
        out.append(format_table(labels, list(zip(labels, M)), 7))
    if args.method in ("jacobi", "both"):
        out += ["", trace_jacobi(M, rotations=not args.sweeps_only)]
    if args.method in ("power", "both"):
        k = min(args.components, len(M))
        out += ["", trace_power(M, k)]
    _write("\n".join(out), args.output)


#: The attributes ``verify`` reads from another implementation's output.
RESULT_KEYS = ("components_", "explained_variance_", "explained_variance_ratio_", "singular_values_", "mean_",
               "noise_variance_", "sdev", "rotation")


def _numbers(value: object, where: str) -> object:
    """A JSON value as nested lists of floats (a list, or a list of lists), or an error naming ``where``."""
    if isinstance(value, list) and all(isinstance(v, list) for v in value) and value:
        return [[_number(x, f"{where}[{i}][{j}]") for j, x in enumerate(row)] for i, row in enumerate(value)]
    if isinstance(value, list):
        return [_number(x, f"{where}[{i}]") for i, x in enumerate(value)]
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    raise PurePCAError(f"{where}: expected a list of numbers (or of rows), got {type(value).__name__}")


def _number(x: object, where: str) -> float:
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise PurePCAError(f"{where}: not a number: {x!r}")
    return float(x)


def read_result(path: str) -> dict[str, object]:
    """Another implementation's output: a JSON object with scikit-learn's attribute names (or R's
    ``sdev`` and ``rotation``), or a directory holding one CSV file per attribute
    (``components_.csv``, ``explained_variance_.csv``, ...; numbers only, a vector as one row or one column).

    >>> import json, os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "theirs.json")
    >>> with open(path, "w") as f:
    ...     json.dump({"explained_variance_": [2.0, 0.5], "n_components_": 2}, f)
    >>> read_result(path)
    {'explained_variance_': [2.0, 0.5]}
    """
    if os.path.isdir(path):
        found: dict[str, object] = {}
        for key in RESULT_KEYS:
            file = os.path.join(path, key + ".csv")
            if not os.path.exists(file):
                continue
            rows = read_table(_read_text(file).splitlines(), source=file, header=False).rows
            if key in ("components_", "rotation"):
                found[key] = rows
            else:
                found[key] = [v for row in rows for v in row]
        if not found:
            raise PurePCAError(f"{path}: no file named after an attribute ({', '.join(k + '.csv' for k in RESULT_KEYS)})")
        return found
    text = _read_text(path)
    try:
        document = json.loads(text)
    except ValueError as err:
        raise PurePCAError(f"{path}: not JSON ({err})") from None
    if not isinstance(document, dict):
        raise PurePCAError(f"{path}: expected a JSON object of attributes, got {type(document).__name__}")
    found = {key: _numbers(document[key], f"{path}: {key}") for key in RESULT_KEYS if key in document}
    if not found:
        raise PurePCAError(f"{path}: none of the attributes {', '.join(RESULT_KEYS)}")
    return found


def verify_report(checks: list[Check], title: str) -> str:
    """The PASS/FAIL table of ``purepca verify``.

    >>> from purepca.testing import Check
    >>> print(verify_report([Check("explained_variance_[0]", True, 1e-16, 1e-12, "0.7")], "t"))  # doctest: +NORMALIZE_WHITESPACE
    t
    <BLANKLINE>
    quantity                 result  error      tolerance  digits lost
    explained_variance_[0]   PASS    1e-16      1e-12      0.7
    <BLANKLINE>
    1 passed, 0 failed
    """
    width = max([len("quantity")] + [len(c.quantity) for c in checks]) + 2
    lines = [title, "", f"{'quantity':<{width}} result  {'error':<10} {'tolerance':<10} digits lost"]
    for c in checks:
        lines.append(f"{c.quantity:<{width}} {'PASS' if c.passed else 'FAIL':<7} {c.error:<10.3g} {c.tolerance:<10.3g} "
                     f"{c.digits_lost}")
    failures = [c for c in checks if not c.passed]
    if failures:
        lines += ["", "Mismatches:"] + ["  " + c.line() for c in failures]
    lines += ["", f"{len(checks) - len(failures)} passed, {len(failures)} failed"]
    return "\n".join(lines)


def _verify_command(args: argparse.Namespace) -> int:
    source, table = _read_args_table(args, args.columns)
    result = read_result(args.result)
    with _about(source):
        checks = compare_pca(result, table.rows, convention=args.convention, method=args.method, rtol=args.rtol,
                             residual=args.residual, scale=True if args.scale else (False if args.unscaled else None),
                             ddof=args.ddof, scale_ddof=args.scale_ddof)
    tolerance = f"rtol {args.rtol:g}" if args.rtol is not None else f"method {args.method}"
    title = (f"{args.result} against purepca's 50-digit reference for {source} (convention {args.convention}, "
             f"{tolerance})")
    _write(verify_report(checks, title), args.output)
    return 0 if all(c.passed for c in checks) else 1


def _published(name: str, source: str, got: Sequence[float], expected: Sequence[str]) -> tuple[bool, str]:
    """A published number agrees when ours, rounded to the decimals printed, is the printed number."""
    rounded = [round(g, len(e.split(".")[1])) for g, e in zip(got, expected)]
    ok = len(got) == len(expected) and all(r == float(e) for r, e in zip(rounded, expected))
    shown = " ".join(expected[:4]) + (f" ... ({len(expected)} numbers)" if len(expected) > 4 else "")
    return ok, f"{name} ({source}): {shown}" + ("" if ok else f"; got {' '.join(map(repr, got))}")


def self_check() -> list[tuple[bool, str]]:
    """``purepca check``: the numbers seed 003 publishes and a few golden cases,
    with the standard library only.  Each entry is ``(passed, line)``.

    >>> all(ok for ok, _ in self_check())
    True
    """
    from .linalg import jacobi_eigh, tridiagonal_eigh

    X = toy_data()
    checks = []
    for name in DATASETS:
        data = load(name)
        for pub in data.published:
            fitted = PCA(convention="prcomp", scale=pub.scale).fit(data.rows)
            checks.append(_published(f"{name}: standard deviations", pub.call, fitted.sdev, pub.sdev))
            checks.append(_published(f"{name}: proportions of variance", f"summary({pub.call})",
                                     fitted.explained_variance_ratio_, pub.proportion))
            magnitudes = [abs(v) for row in fitted.rotation for v in row]
            checks.append(_published(f"{name}: |rotation|, {len(pub.rotation)} x {len(pub.rotation[0])}",
                                     f"{pub.call}$rotation", magnitudes, [v for row in pub.rotation for v in row]))
        fm = data.factominer
        if fm is not None:
            active = [data.columns.index(c) for c in fm.active]
            sup = [data.columns.index(c) for c in fm.supplementary]
            res = PCA(convention="factominer", scale=True).fit([[row[j] for j in active] for row in data.rows])
            eig = res.explained_variance_
            checks.append(_published(f"{name}: eigenvalues", fm.call, eig, fm.eigenvalues))
            checks.append(_published(f"{name}: percentages of variance", fm.call,
                                     [100 * v for v in res.explained_variance_ratio_], fm.percent))
            coords = res.column_coordinates_
            checks.append(_published(f"{name}: var$coord, {len(coords)} x 5", "res.pca$var$coord",
                                     [v for row in coords for v in row[:5]],
                                     [v for row in fm.coordinates.values() for v in row]))
            cor = res.supplementary_columns([[row[j] for j in sup] for row in data.rows])["cor"]
            checks.append(_published(f"{name}: supplementary correlations", "dimdesc(res.pca)$Dim.1",
                                     [cor[fm.supplementary.index(c)][0] for c in fm.correlations],
                                     list(fm.correlations.values())))
    r = PCA(convention="prcomp").fit(X)
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


def _common_fit_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--scale", action="store_true", help="scale every column to unit variance (PCA of the correlation)")
    p.add_argument("--convention", choices=sorted(CONVENTIONS), default="prcomp",
                   help="divisor, scaling and sign rule of a library (default: prcomp, as R)")
    p.add_argument("--solver", choices=SOLVERS, default="auto", help="the eigen-solver (default: auto)")


class _Parser(argparse.ArgumentParser):
    """argparse's parser with a one-line usage error (exit 2) that points to ``--help``."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _parser(prog: str) -> argparse.ArgumentParser:
    parser = _Parser(prog=prog, description="PCA in pure Python.")
    parser.add_argument("--version", action="version", version=f"purepca {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    p_demo = sub.add_parser("demo", help="PCA of the bundled toy data (seed 003), printed as tables")
    p_demo.add_argument("--precision", type=_precision, default=None, metavar="DIGITS",
                        help="compute with this many decimal digits (17 to 10000, e.g. 50) instead of floats")

    p_fit = sub.add_parser("fit", help="PCA of a CSV file: R's importance table and the loadings",
                           description="PCA of the numeric columns of a CSV file (or - for standard input, or "
                           "--dataset NAME for a bundled data set).")
    _table_options(p_fit, "the columns to analyse: names or 0-based indices, comma-separated (default: all)",
                   "a label column (name or index) kept out of the analysis, such as state names")
    p_fit.add_argument("--components", type=_components, default=None, metavar="K",
                       help="how many components: an int, or a fraction of the variance such as 0.9 (default: all)")
    _common_fit_options(p_fit)
    p_fit.add_argument("--precision", type=_precision, default=None, metavar="DIGITS",
                       help="compute with this many decimal digits (17 to 10000) instead of floats")
    p_fit.add_argument("--save", default=None, metavar="MODEL",
                       help="also write the fitted model as JSON, for purepca transform --model")
    p_fit.add_argument("--stream", choices=("auto", "always", "never"), default="auto",
                       help="read the file in one pass through fit_stream, never holding it in memory: auto does "
                       f"so for files over {STREAM_BYTES // 2**20} MiB (default: auto); progress is shown on "
                       "stderr when it is a terminal")

    p_tr = sub.add_parser("transform", help="scores of the rows of a CSV file under a saved model",
                          description="Scores of the rows of a CSV file (or -) under a model saved by fit --save; "
                          "the same bits as fitting and transforming in one run.")
    _table_options(p_tr, "the columns (default: those the model was fitted on, by name)",
                   "a label column, printed with the scores")
    p_tr.add_argument("--model", required=True, metavar="MODEL", help="the JSON model written by fit --save")

    p_k = sub.add_parser("kernel", help="Kernel PCA of a CSV file: eigenvalues and scores",
                         description="Kernel PCA of the numeric columns of a CSV file: the eigenvalues of the "
                         "centred kernel matrix and the scores of the rows (scikit-learn's KernelPCA, or kernlab's "
                         "kpca with --convention kernlab).")
    _table_options(p_k, "the columns to analyse (default: all)", "a label column kept out, printed with the scores")
    p_k.add_argument("--kernel", choices=[k for k in KERNELS if k != "precomputed"] + ["precomputed"], default="rbf",
                     help="the kernel (default: rbf); precomputed reads FILE as the n x n kernel matrix")
    p_k.add_argument("--gamma", type=float, default=None,
                     help="of rbf, laplacian, poly and sigmoid (default: 1/n_features, as scikit-learn)")
    p_k.add_argument("--degree", type=int, default=3, help="of poly (default: 3)")
    p_k.add_argument("--coef0", type=float, default=1.0, help="of poly and sigmoid (default: 1)")
    p_k.add_argument("--components", type=int, default=2, metavar="K",
                     help="how many components (default: 2; 0 for all with a positive eigenvalue)")
    p_k.add_argument("--convention", choices=("sklearn", "kernlab"), default="sklearn",
                     help="sklearn (eigenvalues of the centred kernel, largest entry of each vector positive) or "
                     "kernlab (eigenvalues / n, solver's sign)")
    p_k.add_argument("--eigen-solver", choices=EIGEN_SOLVERS, default="auto", help="(default: auto)")
    p_k.add_argument("--precision", type=_precision, default=None, metavar="DIGITS",
                     help="compute with this many decimal digits (17 to 10000) instead of floats")

    p_plot = sub.add_parser("plot", help="SVG pictures of a PCA: scree, scores, biplot, correlation circle",
                            description="Fit a PCA to a CSV file and draw it as standalone SVG: by default all four "
                            "pictures in one (--kind report).")
    _input_options(p_plot, "the columns to analyse (default: all)",
                   "a label column kept out of the analysis: the points' names (tooltips)")
    _common_fit_options(p_plot)
    p_plot.add_argument("--kind", choices=("report", "scree", "scores", "biplot", "circle"), default="report",
                        help="which picture (default: report, the four together)")
    p_plot.add_argument("--groups", default=None, metavar="COL",
                        help="a label column (kept out of the analysis) that colours the points, with a legend")
    p_plot.add_argument("--title", default=None, help="the title (default: PCA of FILE)")
    p_plot.add_argument("--out", default=None, metavar="FILE",
                        help="write the SVG here (through a temporary file renamed into place); default: stdout")

    p_trace = sub.add_parser("trace", help="watch Jacobi and power iteration work on a covariance or a matrix",
                             description="For teaching: the Jacobi sweeps (pair, angle, off-diagonal norm falling "
                             "below the tolerance) and the power iterations (Rayleigh quotient, residual) on the "
                             "covariance matrix of a CSV file (correlation with --scale), or on a symmetric matrix "
                             "given with --matrix.")
    _input_options(p_trace, "the columns (default: all)", "a label column kept out")
    p_trace.add_argument("--matrix", default=None, metavar="FILE",
                         help="a symmetric matrix as CSV (numbers only, no header) instead of data")
    p_trace.add_argument("--scale", action="store_true", help="the correlation matrix instead of the covariance")
    p_trace.add_argument("--method", choices=("jacobi", "power", "both"), default="both", help="(default: both)")
    p_trace.add_argument("--components", type=int, default=1, metavar="K",
                         help="how many eigenpairs power iteration finds (default: 1)")
    p_trace.add_argument("--sweeps-only", action="store_true", help="print Jacobi's sweeps, not every rotation")
    _output_options(p_trace, formats=False)

    p_ver = sub.add_parser("verify", help="check another implementation's PCA output against purepca's reference",
                           description="Compare another PCA's output (JSON with scikit-learn's attribute names, or "
                           "R's sdev and rotation; or a directory of CSV files, one per attribute) with purepca's "
                           "50-digit reference for the same data: a PASS/FAIL table per quantity with the error, the "
                           "tolerance of the method's error model and the digits lost; exit 0 when all pass, 1 "
                           "otherwise.")
    _input_options(p_ver, "the columns the other PCA used (default: all)", "a label column kept out",
                   file_help="the data the other PCA was fitted on (CSV)")
    p_ver.add_argument("--result", required=True, metavar="FILE",
                       help="their output: a JSON object of attributes, or a directory of ATTRIBUTE.csv files")
    p_ver.add_argument("--convention", choices=sorted(CONVENTIONS), default="sklearn",
                       help="whose divisor, scaling and sign rule the output follows (default: sklearn)")
    p_ver.add_argument("--scale", action="store_true", help="the output is of the correlation matrix (scaled columns)")
    p_ver.add_argument("--unscaled", action="store_true",
                       help="the columns were not scaled (statsmodels standardize=False, FactoMineR scale.unit=FALSE)")
    p_ver.add_argument("--ddof", type=int, default=None, help="the variance divisor is n - DDOF (default: the convention's)")
    p_ver.add_argument("--scale-ddof", type=int, default=None, dest="scale_ddof",
                       help="the scaling divided by n - SCALE_DDOF (StandardScaler + PCA: --scale --scale-ddof 0)")
    p_ver.add_argument("--method", choices=METHODS, default="svd",
                       help="the error model of their method, which sets the tolerances (default: svd)")
    p_ver.add_argument("--rtol", type=float, default=None, help="a relative tolerance instead of the error model")
    p_ver.add_argument("--residual", type=float, default=0.0, help="for --method randomized: the residual it reports")
    _output_options(p_ver, formats=False)

    p_data = sub.add_parser("dataset", help="list the bundled data sets, or print one as CSV",
                            description="Without NAME, list the bundled data sets and their published analyses; "
                            "with NAME, print that data set as CSV (its label column first).")
    p_data.add_argument("name", nargs="?", choices=DATASETS, default=None, help="the data set")
    _output_options(p_data, formats=False)

    sub.add_parser("check", help="a self-test with the standard library only: published numbers, PASS/FAIL per line",
                   description="Reproduce the numbers seed 003 publishes (R's prcomp and kernlab), R's prcomp of "
                   "USArrests and iris, and a few golden cases, with the standard library only; exit 1 if any "
                   "line fails.")
    return parser


_COMMANDS = {
    "demo": lambda args: print(demo(args.precision)),
    "fit": _fit_command,
    "transform": _transform_command,
    "kernel": _kernel_command,
    "plot": _plot_command,
    "trace": _trace_command,
    "dataset": _dataset_command,
}


def _check_args(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """What argparse cannot say alone: exactly one source of data (FILE or --dataset, or --matrix for
    trace) and the range of --components; else usage, exit 2."""
    if not hasattr(args, "dataset"):
        return
    file_name = "--data" if args.command == "verify" else "FILE"
    given = [name for name, present in ((file_name, args.file is not None), ("--dataset", args.dataset is not None),
                                        ("--matrix", getattr(args, "matrix", None) is not None)) if present]
    if len(given) != 1:
        choices = f"{file_name}, --dataset NAME" + (" or --matrix FILE" if args.command == "trace" else "")
        parser.exit(2, f"{parser.prog} {args.command}: error: give one of {choices}"
                    + (f" (got {' and '.join(given)})" if given else "") + f" (see {parser.prog} {args.command} --help)\n")
    if args.command == "kernel" and args.components < 0:
        parser.exit(2, f"{parser.prog} kernel: error: --components must be >= 0, got {args.components}\n")
    if args.command == "trace" and args.components < 1:
        parser.exit(2, f"{parser.prog} trace: error: --components must be >= 1, got {args.components}\n")


def main(argv: Optional[Sequence[str]] = None, prog: str = "purepca") -> int:
    """Entry point of ``python -m purepca``; returns the exit status.

    >>> main(["--version"])
    Traceback (most recent call last):
    ...
    SystemExit: 0
    """
    parser = _parser(prog)
    args = parser.parse_args(argv)
    _check_args(parser, args)
    try:
        if args.command == "check":
            results = self_check()
            for ok, line in results:
                print(f"{'PASS' if ok else 'FAIL'}  {line}")
            failed = sum(not ok for ok, _ in results)
            print(f"{len(results) - failed} passed, {failed} failed")
            return 1 if failed else 0
        if args.command == "verify":
            return _verify_command(args)
        _COMMANDS[args.command](args)
    except BrokenPipeError:  # e.g. piped into head
        pass
    except PurePCAError as err:
        print(f"{parser.prog}: error: {err}", file=sys.stderr)
        return 1
    return 0
