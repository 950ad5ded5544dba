"""The command line: ``purepca demo`` (the console script) or ``python -m purepca demo``.

>>> main(["demo"]) == 0  # doctest: +ELLIPSIS
PCA of the toy data ...
True
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import math
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import time
import warnings
from typing import Any, Iterator, NoReturn, Optional, Sequence, TextIO, Union

from . import __version__
from . import files
from .conventions import CONVENTIONS
from .csvdata import StreamedRows, Table, csv_text, decode_text, read_table
from .datasets import DATASETS, load, toy_data
from .errors import DegenerateEigenvalueWarning, PurePCAError, one_line
from .covariance import correlation_matrix, covariance_matrix
from .kernel_pca import EIGEN_SOLVERS, KernelPCA
from .kernels import KERNELS
from .linalg.matrix import as_symmetric
from .model_io import pca_from_json, pca_to_json
from .pca import PCA, SOLVERS
from .params import _show, check_text
from .report import PCASummary, _r_decimals, format_rounded, format_table, print_matrix
from .svg import pca_report
from .player import add_teach_arguments, teach_command
from . import exercise as _exercise, lessons as _lessons
from .teaching import trace_jacobi, trace_power
from .teaching import NOTATIONS
from .testing import METHODS, Check, compare_pca, summary


__all__ = ["main", "read_result", "verify_data", "verify_report"]


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


#: The width R's ``print`` wraps a wide table at (``options("width")``).
WIDTH = 80


def wrapped_table(names: Sequence[str], rows: Sequence[tuple[str, Sequence[float]]], digits: int,
                  width: int = WIDTH) -> str:
    """:func:`~purepca.report.format_table` wrapped as R's ``print`` wraps a wide matrix: as many
    columns as fit in ``width`` characters, then the next block, each with the row labels.

    >>> rows = [("a", [1.0] * 12), ("b", [2.5] * 12)]
    >>> print(wrapped_table([f"PC{i + 1}" for i in range(12)], rows, 3, width=40))
      PC1 PC2 PC3 PC4 PC5 PC6 PC7 PC8 PC9
    a 1.0 1.0 1.0 1.0 1.0 1.0 1.0 1.0 1.0
    b 2.5 2.5 2.5 2.5 2.5 2.5 2.5 2.5 2.5
      PC10 PC11 PC12
    a  1.0  1.0  1.0
    b  2.5  2.5  2.5
    """
    blocks: list[str] = []
    start = 0
    while start < len(names):
        end = start + 1  # at least one column per block, however wide
        text = format_table(names[start:end], [(label, values[start:end]) for label, values in rows], digits)
        while end < len(names):
            wider = format_table(names[start:end + 1], [(label, values[start:end + 1]) for label, values in rows],
                                 digits)
            if max(len(line) for line in wider.splitlines()) > width:
                break
            text, end = wider, end + 1
        blocks.append(text)
        start = end
    return "\n".join(blocks)


def _importance(summary: PCASummary) -> str:
    """R's importance table of ``summary(prcomp(...))``, wrapped at :data:`WIDTH`."""
    return "Importance of components:\n" + wrapped_table(summary.names, summary.rows, 7)


def _pcs(text: str) -> tuple[int, int]:
    """argparse type of ``--pcs``: two different component numbers from 1, as ``1,3``."""
    parts = text.split(",")
    try:
        pair = tuple(int(p) for p in parts)
    except ValueError:
        raise argparse.ArgumentTypeError(f"two component numbers such as 1,3, got {text!r}") from None
    if len(pair) != 2 or pair[0] == pair[1] or min(pair) < 1:
        raise argparse.ArgumentTypeError(f"two different component numbers from 1, such as 1,3, got {text!r}")
    return pair[0], pair[1]


def _top(text: str) -> int:
    """argparse type of ``plot --top``: how many variables to draw, an int >= 1, or 0 for all."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an int: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"how many variables to draw: an int >= 1, or 0 for all; got {value}")
    return value


#: The options that name a file a command writes, and those that name a file it reads.
_OUTPUT_OPTIONS = ("output", "save", "scores")
_INPUT_OPTIONS = (("file", "FILE"), ("model", "--model"), ("matrix", "--matrix"), ("result", "--result"),
                  ("answer", "ANSWER"))


def _written_files(args: argparse.Namespace) -> list[tuple[str, str]]:
    """(option, path) of every file the command will write, ``plot --png``'s picture among them."""
    out = [(f"--{name}", getattr(args, name)) for name in _OUTPUT_OPTIONS
           if getattr(args, name, None) not in (None, "-")]
    if getattr(args, "png", False) and getattr(args, "output", None) not in (None, "-"):
        out.append(("--png", os.path.splitext(args.output)[0] + ".png"))
    return out


def _check_distinct_files(args: argparse.Namespace) -> None:
    """Refuse, before any work, two outputs that name one file (by real path: a link and its target
    are one file), or an output that names a file the command reads: one write would destroy the other.

    >>> _check_distinct_files(argparse.Namespace(file="d.csv", output="out.csv", scores="./out.csv"))
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: --output out.csv and --scores ./out.csv name the same file; give each its own
    """
    inputs: dict[str, tuple[str, str]] = {}
    for attribute, option in _INPUT_OPTIONS:
        path = getattr(args, attribute, None)
        if isinstance(path, str) and path != "-":
            inputs.setdefault(os.path.realpath(path), (option, path))
    seen: dict[str, tuple[str, str]] = {}
    for option, path in _written_files(args):
        real = os.path.realpath(path)
        if _written_in_place(real):  # /dev/null, /dev/stdout, a FIFO: written into, nothing is replaced
            continue
        if real in inputs:
            first, named = inputs[real]
            raise PurePCAError(f"{option} {path} would overwrite {first} {named}, which the command reads; "
                               "write elsewhere")
        if real in seen:
            first, named = seen[real]
            raise PurePCAError(f"{first} {named} and {option} {path} name the same file; give each its own")
        seen[real] = (option, path)


def fit_report(pca: PCA, names: list[str], form: str, *, source: str = "", dropped: int = 0,
               imputed: Optional[dict[str, int]] = None, tables: Optional[str] = None) -> str:
    """The fitted model as text: R's importance table and the loadings
    (``form="table"``), one rectangular CSV table (``"csv"``: the three rows
    of the importance table, then a row of loadings per feature, every
    number to full precision), or JSON.  ``tables``, when given (FactoMineR's summary from
    :func:`factominer_summary`), replaces the importance table and the loadings of ``"table"``.

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
        return csv_text([[""] + comps] + [[label] + [cell(v) for v in values]
                                          for label, values in summary.rows + loadings])
    out = [f"PCA of {source or 'the data'} ({pca.n_samples_} samples, {pca.n_features_in_} features), "
           f"convention {pca.convention}{', columns scaled' if pca.scale_ is not None else ''}, solver {pca.solver_}"]
    if dropped:
        out.append(f"({dropped} row{'s' if dropped != 1 else ''} with missing values dropped)")
    for name, count in (imputed or {}).items():
        out.append(f"({count} missing value{'s' if count != 1 else ''} of {name!r} set to the column mean)")
    rule = CONVENTIONS[pca.convention].sign if pca.sign is None else pca.sign
    signs = "; the sign of each column is arbitrary, as in R" if rule == "none" else ""
    if pca.missing == "em":
        out.append(f"(missing values imputed by iterative PCA with {pca.n_components_} components, "
                   f"{pca.n_iter_} iterations, as missMDA's imputePCA)")
    if tables is not None:
        return "\n".join(out + ["", tables])
    out += ["", _importance(summary), "", f"Loadings (rotation){signs}:", wrapped_table(comps, loadings, 7)]
    return "\n".join(out)


# The one door every command writes through, and the readers beside it, live in purepca.files
# (the face's file room); these names stay for the code here and on other branches that calls them.
_file_mode = files.file_mode
_written_in_place = files.written_in_place
_write = files.write_output
check_output_path = files.check_output_path
_read_text = files.read_text
_lines = files.text_lines


def _input_options(p: argparse.ArgumentParser, columns_help: str, id_help: str, file_help: Optional[str] = None,
                   em: bool = False) -> None:
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
    p.add_argument("--exclude", default=None, metavar="COLS",
                   help="columns left out of the analysis: names or 0-based indices, comma-separated")
    p.add_argument("--delimiter", default=",", metavar="CHAR", help="the field separator (default: ,)")
    p.add_argument("--encoding", default="utf-8", metavar="NAME",
                   help="the file's text encoding (default: utf-8; Excel's files from Windows are often cp1252)")
    p.add_argument("--decimal", choices=(".", ","), default=".",
                   help="the decimal mark (default: .); files with decimal commas usually need --delimiter ';'")
    if file_help is None:
        if em:
            p.set_defaults(missing_em=True)  # named among the ways out of a missing cell
            p.add_argument("--missing", choices=("error", "drop", "mean", "em"), default="error",
                           help="empty, NA or NaN cells: an error naming the cell (default), drop the row, the "
                           "column mean, or em: iterative PCA imputation (missMDA's imputePCA; needs an int "
                           "--components)")
        else:
            p.add_argument("--missing", choices=("error", "drop", "mean"), default="error",
                           help="empty, NA or NaN cells: an error naming the cell (default), drop the row, or the "
                           "column mean" + (" (of the training data, stored in the model)" if em is None else ""))
    else:
        p.set_defaults(missing="error")


def _output_options(p: argparse.ArgumentParser, formats: bool = True, what: str = "") -> None:
    """``--output FILE`` (also ``-o`` and, as plot first had it, ``--out``): the same name on every subcommand."""
    if formats:
        p.add_argument("--format", choices=("table", "csv", "json"), default="table", help="the output (default: table)")
    p.add_argument("-o", "--output", "--out", dest="output", default=None, metavar="FILE",
                   help=f"write {what}here (through a temporary file renamed into place, with the permissions of "
                   "your umask) instead of standard output")


def _table_options(p: argparse.ArgumentParser, columns_help: str, id_help: str, em: Optional[bool] = False) -> None:
    """The input and output options that fit, transform and kernel share."""
    _input_options(p, columns_help, id_help, em=em)  # type: ignore[arg-type]
    _output_options(p)


def _read_args_table(args: argparse.Namespace, columns: Union[None, str, Sequence[str]],
                     groups: Optional[str] = None, columns_option: str = "--columns") -> tuple[str, Table]:
    """The source's name and the table the shared options describe."""
    missing = {"em": "keep"}.get(args.missing, args.missing)  # the library fills the holes itself
    weights = getattr(args, "weights", None)
    if args.dataset is not None:
        data = load(args.dataset)
        id_column = args.id_column if args.id_column is not None else data.label_name
        if columns is None and data.active is not None:
            columns = ",".join(data.active)  # the supplementary columns stay out unless asked for
        table = read_table(data.to_csv().splitlines(), source=args.dataset, columns=columns, id_column=id_column,
                           missing=missing, group_column=groups, exclude=args.exclude, weight_column=weights,
                           columns_option=columns_option, em=getattr(args, "missing_em", False))
        return data.name, table
    source = "<stdin>" if args.file == "-" else args.file
    table = read_table(_lines(_read_text(args.file, args.encoding)), source=source, delimiter=args.delimiter,
                       header=not args.no_header, columns=columns, id_column=args.id_column, missing=missing,
                       group_column=groups, exclude=args.exclude, weight_column=weights, decimal=args.decimal,
                       columns_option=columns_option, em=getattr(args, "missing_em", False))
    return source, table


def _constant_columns(table: Table) -> list[str]:
    """The names of the columns whose values are all equal (standard deviation 0; NaN holes ignored)."""
    out = []
    for j, name in enumerate(table.names):
        present = [row[j] for row in table.rows if row[j] == row[j]]
        if present and min(present) == max(present):
            out.append(name)
    return out


def _without_constant(table: Table, source: str) -> Table:
    """``--drop-constant``: the table without its constant columns, said on stderr."""
    constant = _constant_columns(table)
    if not constant:
        return table
    if len(constant) == len(table.names):
        raise PurePCAError(f"{source}: every column is constant; there is nothing to analyse")
    keep = [j for j, name in enumerate(table.names) if name not in constant]
    print(f"purepca: {source}: left out {len(constant)} constant column{'s' if len(constant) != 1 else ''}: "
          + ", ".join(constant), file=sys.stderr)
    return Table([table.names[j] for j in keep], [[row[j] for j in keep] for row in table.rows], table.ids,
                 table.dropped, table.imputed, table.groups, table.weights, table.id_name)


def _constant_error(source: str, constant: list[str]) -> PurePCAError:
    """What to say when scaling meets constant columns: all of them by name, and the ways out."""
    plural = len(constant) != 1
    listed = ", ".join(repr(c) for c in constant)
    return PurePCAError(
        f"{source}: {len(constant)} column{'s are' if plural else ' is'} constant (standard deviation 0) and "
        f"cannot be scaled to unit variance: {listed}. Leave {'them' if plural else 'it'} out with --drop-constant "
        f"(or --exclude); FactoMineR's PCA divides such a column by 1 instead, which gives the same components as "
        "leaving it out")


@contextlib.contextmanager
def _named_constants(source: str, table: Optional[Table], names: Sequence[str]) -> Iterator[None]:
    """A fit's "column j is constant" error, told with the columns' names (every constant one)."""
    try:
        yield
    except PurePCAError as err:
        found = re.search(r"column (\d+) is constant", str(err))
        if found is None:
            raise
        constant = _constant_columns(table) if table is not None and table.rows else []
        raise _constant_error(source, constant or [names[int(found.group(1))]]) from None


@contextlib.contextmanager
def _warnings_to_stderr() -> Iterator[None]:
    """The library's warnings, each once, as one line of stderr (no source line, no file name).
    The degenerate-eigenvalue warning is among them: equal eigenvalues show in the tables, but that
    their loadings are then any rotation within the tie (not only a sign flip) shows nowhere else."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            yield
        finally:
            said: set[str] = set()
            for w in caught:
                line = f"purepca: warning: {' '.join(str(w.message).split())} ({w.category.__name__})"
                if line not in said:
                    said.add(line)
                    print(line, file=sys.stderr)


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
    whole = [flag for flag, given in (("--weights", args.weights is not None), ("--missing em", args.missing == "em"),
                                      ("--drop-constant", args.drop_constant)) if given]
    if whole:
        if args.stream == "always":
            raise PurePCAError(f"--stream always reads the file in one pass; {whole[0]} needs it whole")
        return False
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
    pca = PCA(args.components, scale=args.scale, convention=args.convention,
              solver=args.solver, precision=args.precision, missing="em" if args.missing == "em" else "error")
    scores: Optional[list[list[float]]] = None
    if _streamed(args):
        size = os.path.getsize(args.file)
        stream = StreamedRows(args.file, delimiter=args.delimiter, header=not args.no_header, columns=args.columns,
                              id_column=args.id_column, missing=args.missing, progress=Progress(size),
                              exclude=args.exclude, decimal=args.decimal, encoding=args.encoding)
        source = args.file
        with _warnings_to_stderr(), _about(source), _named_constants(source, None, stream.names):
            pca.fit_stream(stream)
            if args.scores is not None:
                scores = [[float(v) for v in row] for row in pca.transform(list(stream))]
        table = Table(stream.names, [], stream.ids, stream.dropped, stream.imputed)
        table.id_name = None if stream.layout.id_index is None else stream.layout.head[stream.layout.id_index]
    else:
        source, table = _read_args_table(args, args.columns)
        if args.drop_constant:
            table = _without_constant(table, source)
        with _warnings_to_stderr(), _about(source), _named_constants(source, table, table.names):
            if args.scores is not None:
                scores = [[float(v) for v in row] for row in pca.fit_transform(table.rows, sample_weight=table.weights)]
            else:
                pca.fit(table.rows, sample_weight=table.weights)
    if args.save is not None:
        pca.feature_names_in_ = list(table.names)  # the columns transform will read
        _write(pca_to_json(pca), args.save)
    if scores is not None:
        scores_form = "json" if args.scores.endswith(".json") else "csv"
        _write(scores_report(pca.component_names, scores, table.ids, scores_form, table.id_name), args.scores)
    _write(fit_report(pca, table.names, args.format, source=source, dropped=table.dropped, imputed=table.imputed,
                      tables=_summary_tables(args, pca, table)), args.output)


def _summary_tables(args: argparse.Namespace, pca: PCA, table: Table) -> Optional[str]:
    """``fit --summary factominer`` (the default under ``--convention factominer``): FactoMineR's
    summary tables for the text output, or None for R's importance table and loadings."""
    kind = args.summary if args.summary is not None else ("factominer" if args.convention == "factominer"
                                                          else "prcomp")
    if kind != "factominer" or args.format != "table":
        return None
    rows = pca.imputed_ if pca.missing == "em" else table.rows
    supplementary, categories = None, None
    if args.dataset is not None and args.columns is None and args.exclude is None and rows:
        # A bundled data set's supplementary columns and categories, as its published call has them
        # (decathlon: PCA(decathlon, quanti.sup = 11:12, quali.sup = 13)).
        data = load(args.dataset)
        if data.active is not None and len(data.rows) == len(rows):
            sup = [j for j, name in enumerate(data.columns) if name not in data.active]
            if sup:
                supplementary = ([data.columns[j] for j in sup], [[row[j] for j in sup] for row in data.rows])
            if data.groups is not None:
                categories = list(data.groups[1])
    return factominer_summary(pca, rows or None, table.ids, table.names, supplementary=supplementary,
                              categories=categories)


def factominer_summary(pca: PCA, rows: Optional[Sequence[Sequence[float]]], ids: Optional[Sequence[str]],
                       names: Sequence[str], ncp: int = 3, nbelements: int = 10, width: int = WIDTH,
                       supplementary: Optional[tuple[Sequence[str], list[list[float]]]] = None,
                       categories: Optional[Sequence[str]] = None) -> str:
    """FactoMineR's ``summary(PCA(...))`` of a fitted PCA: the eigenvalues with their percentages of
    variance, then the first ``nbelements`` individuals (Dist, and coordinate, ctr and cos2 on each of
    the first ``ncp`` dimensions) and the variables likewise, laid out as ``summary.PCA`` prints them
    (``nb.dec = 3``, ``|`` between the dimensions, wrapped at ``width``, R's 80 characters).  Every number is the
    library's (:meth:`PCA.row_coordinates`, :meth:`PCA.row_distances`, :meth:`PCA.row_cos2`,
    :attr:`PCA.row_contributions_`, :attr:`PCA.column_coordinates_`, :attr:`PCA.column_contributions_`,
    :attr:`PCA.column_cos2_`); ``rows`` are the training rows (None after a streamed fit, which keeps
    none: then only the eigenvalues).  ``supplementary`` (names, and an n x q table measured on the
    training rows) adds FactoMineR's ``quanti.sup`` section (coordinate and cos2,
    :meth:`PCA.supplementary_columns`), ``categories`` (a label per training row) its ``quali.sup``
    section (Dist, coordinate, cos2 and v.test, :meth:`PCA.supplementary_categories`).

    >>> X = [[1.0, 2.0], [2.0, 1.0], [4.0, 5.0], [3.0, 3.0]]
    >>> print(factominer_summary(PCA(convention="factominer").fit(X), X, ["a", "b", "c", "d"], ["x", "y"]))
    Eigenvalues
                           Dim.1   Dim.2
    Variance               1.832   0.168
    % of var.             91.576   8.424
    Cumulative % of var.  91.576 100.000
    <BLANKLINE>
    Individuals
          Dist    Dim.1    ctr   cos2    Dim.2    ctr   cos2  
    a |  1.434 | -1.307 23.326  0.831 | -0.590 51.674  0.169 |
    b |  1.265 | -1.153 18.143  0.831 |  0.520 40.191  0.169 |
    c |  2.028 |  2.024 55.939  0.996 | -0.127  2.394  0.004 |
    d |  0.478 |  0.436  2.592  0.831 |  0.197  5.742  0.169 |
    <BLANKLINE>
    Variables
         Dim.1    ctr   cos2    Dim.2    ctr   cos2  
    x |  0.957 50.000  0.916 |  0.290 50.000  0.084 |
    y |  0.957 50.000  0.916 | -0.290 50.000  0.084 |
    """
    k = pca.n_components_
    dims = [f"Dim.{c + 1}" for c in range(k)]
    eig = [list(pca.explained_variance_), [100.0 * r for r in pca.explained_variance_ratio_]]
    eig.append([math.fsum(eig[1][:c + 1]) for c in range(k)])
    out = ["Eigenvalues", print_matrix(["Variance", "% of var.", "Cumulative % of var."], dims,
                                       format_rounded(eig, 3), width)]
    if rows is None or not rows:
        out += ["", "(Individuals and Variables need the training rows, which a streamed fit does not keep: "
                "use --stream never)"]
        return "\n".join(out)
    shown = min(ncp, k)
    labels = list(ids) if ids is not None else [str(i + 1) for i in range(len(rows))]
    first = list(rows[:nbelements])
    # Each section: its title, how many it has, the names shown, the Dist column (or None) and,
    # per dimension, the statistics printed (name, a row of values per element).
    sections: list[tuple[str, int, list[str], Optional[list[float]], list[tuple[str, list[list[float]]]]]] = [
        ("Individuals", len(rows), labels[:nbelements], pca.row_distances(first),
         [("", pca.row_coordinates(first)), ("ctr", pca.row_contributions_[:nbelements]),
          ("cos2", pca.row_cos2(first))]),
        ("Variables", len(names), list(names[:nbelements]), None,
         [("", pca.column_coordinates_[:nbelements]), ("ctr", pca.column_contributions_[:nbelements]),
          ("cos2", pca.column_cos2_[:nbelements])]),
    ]
    if supplementary is not None:
        sup_names, sup_rows = supplementary
        found = pca.supplementary_columns(sup_rows)
        sections.append((f"Supplementary continuous variable{'s' if len(sup_names) != 1 else ''}", len(sup_names),
                         list(sup_names[:nbelements]), None,
                         [("", found["coord"][:nbelements]), ("cos2", found["cos2"][:nbelements])]))
    if categories is not None:
        cats = pca.supplementary_categories(categories)
        sections.append(("Supplementary categories", len(cats["levels"]), list(cats["levels"][:nbelements]),
                         cats["dist"][:nbelements], [("", cats["coord"][:nbelements]),
                                                     ("cos2", cats["cos2"][:nbelements]),
                                                     ("v.test", cats["v_test"][:nbelements])]))
    # The row names' width is shared by the sections, as summary.PCA's align.names: every
    # individual's name, and the first nbelements of each other section's.
    align = max([len(v) for v in labels] + [len(v) for _, _, who, _, _ in sections for v in who])
    for title, count, who, dist, stats in sections:
        lead = [] if dist is None else [dist]
        values = [[d[i] for d in lead] + [m[i][c] for c in range(shown) for _, m in stats] for i in range(len(who))]
        cells = format_rounded(values, 3)
        head = ["", "Dist", ""] if dist is not None else [""]
        cols = [["|", row[0], "|"] if dist is not None else ["|"] for row in cells]
        for c in range(shown):
            head += [name or dims[c] for name, _ in stats] + [""]
            start = len(lead) + len(stats) * c
            for line, row in zip(cols, cells):
                line += row[start:start + len(stats)] + ["|"]
        out += ["", title + (f" (the {nbelements} first)" if count > nbelements else ""),
                print_matrix([v.ljust(align) for v in who], head, cols, width)]
    return "\n".join(out)


def scores_report(names: list[str], scores: list[list[float]], ids: Optional[list[str]], form: str,
                  id_name: Optional[str] = None) -> str:
    """Scores as an aligned table, a CSV table (full precision) or JSON; the CSV's first column is
    named as the id column was (``id_name``), or ``id``.

    >>> print(scores_report(["PC1"], [[1.5], [-1.5]], ["a", "b"], "csv"))
    id,PC1
    a,1.5
    b,-1.5
    >>> print(scores_report(["PC1"], [[1.5]], ["Alabama"], "csv", id_name="state"))
    state,PC1
    Alabama,1.5
    """
    labels = ids if ids is not None else [str(i + 1) for i in range(len(scores))]
    if form == "json":
        return json.dumps({"components": names, "ids": labels, "scores": scores}, indent=1)
    if form == "csv":
        return csv_text([[id_name or "id"] + names] + [[label] + [repr(float(v)) for v in row]
                                            for label, row in zip(labels, scores)])
    return format_table(names, list(zip(labels, scores)), 7)


def _transform_command(args: argparse.Namespace) -> None:
    pca = pca_from_json(_read_text(args.model))
    names = pca.feature_names_in_
    columns = args.columns if args.columns is not None or args.no_header or not names else list(names)
    fill = args.missing == "mean"
    if fill:
        args.missing = "keep"  # the holes are filled below with the model's training means, not this file's
    source, table = _read_args_table(args, columns, columns_option="--columns" if columns is args.columns else
                                     "the model's column")
    if fill:
        means = [float(v) for v in pca.mean_]
        if len(means) != len(table.names):
            raise PurePCAError(f"{source}: {len(table.names)} columns, but the model was fitted on {len(means)}")
        holes = {name: sum(row[j] != row[j] for row in table.rows) for j, name in enumerate(table.names)}
        table.rows = [[means[j] if v != v else v for j, v in enumerate(row)] for row in table.rows]
        told = ", ".join(f"{count} of {name!r}" for name, count in holes.items() if count)
        if told:
            print(f"purepca: {source}: missing values set to the model's training means ({told})", file=sys.stderr)
    pca.feature_names_in_ = None  # the columns were chosen by name above
    with _about(source):
        scores = pca.transform(table.rows)
    _write(scores_report(pca.component_names, scores, table.ids, args.format, table.id_name), args.output)


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
                  source: str = "", id_name: Optional[str] = None) -> str:
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
        return scores_report(names, scores, ids, "csv", id_name)
    shape = (f"{kp.n_samples_} samples, {kp.n_features_in_} features" if kp.n_features_in_ is not None
             else f"a {kp.n_samples_} x {kp.n_samples_} kernel matrix")
    out = [f"Kernel PCA of {source or 'the data'} ({shape}), "
           f"kernel {described}, convention {kp.convention}", "",
           "Eigenvalues of the centred kernel matrix" + (" (divided by n, as kernlab)" if kp.convention == "kernlab"
                                                         else "") + ":",
           format_table(names, [("eigenvalue", list(kp.eigenvalues_)), ("share", list(kp.explained_variance_ratio_))], 7),
           "", "Scores:", scores_report(names, scores, ids, "table")]
    return "\n".join(out)


def standardised(rows: Sequence[Sequence[float]]) -> list[list[float]]:
    """Each column centred and divided by its standard deviation (divisor n - 1), as ``--scale`` does
    before a kernel; compensated sums.  A constant column raises (the command names it).

    >>> standardised([[1.0, 10.0], [2.0, 30.0], [3.0, 20.0]])
    [[-1.0, -1.0], [0.0, 1.0], [1.0, 0.0]]
    """
    n = len(rows)
    if n < 2:
        raise PurePCAError(f"--scale needs at least 2 rows, got {n}")
    out = [list(map(float, row)) for row in rows]
    for j in range(len(out[0])):
        # Near the ends of the float range the column is first divided by a power of two (exact, and
        # the standardised values do not depend on it): no sum or square overflows or underflows.
        top = max(abs(row[j]) for row in out)
        e = math.frexp(top)[1] if top > 0 and not 1e-140 < top < 1e140 else 0
        col = [math.ldexp(row[j], -e) for row in out]
        mean = math.fsum(col) / n
        sd = math.sqrt(math.fsum((x - mean) * (x - mean) for x in col) / (n - 1))
        if sd == 0:
            raise PurePCAError(f"X: column {j} is constant (standard deviation 0); it cannot be scaled")
        for row, x in zip(out, col):
            row[j] = (x - mean) / sd
    return out


def gamma_hint(kernel: str, gamma: float, rows: Sequence[Sequence[float]], scaled: bool) -> Optional[str]:
    """A hint when ``gamma`` does not suit the data's scale: for rbf and laplacian, the typical
    (median) distance between rows times gamma far above 1 (the kernel matrix is close to the identity,
    every component a sliver) or far below (the kernel nearly constant); None when it suits.

    >>> gamma_hint("rbf", 0.5, [[0.0], [1.0], [2.0]], scaled=True) is None
    True
    >>> print(gamma_hint("rbf", 0.5, [[0.0], [100.0], [200.0]], scaled=False))  # doctest: +ELLIPSIS
    gamma 0.5 is large for these data: ... try --scale, or --gamma near 0.0001
    """
    if kernel not in ("rbf", "laplacian") or len(rows) < 2:
        return None
    step = max(1, len(rows) // 100)  # 100 rows spread over the file are enough for a median
    sample = rows[::step]
    dists = []
    for i, a in enumerate(sample):
        for b in sample[i + 1:]:
            try:
                if kernel == "rbf":
                    dists.append(math.fsum((x - y) * (x - y) for x, y in zip(a, b)))
                else:
                    dists.append(math.fsum(abs(x - y) for x, y in zip(a, b)))
            except (OverflowError, ValueError):  # a distance beyond the float range
                dists.append(math.inf)
    dists.sort()
    typical = dists[len(dists) // 2]
    if typical <= 0:
        return None
    what = "squared distance" if kernel == "rbf" else "L1 distance"
    product = gamma * typical
    suggestion = f"--gamma near {1 / typical:.2g}"
    if not scaled:
        suggestion = "--scale, or " + suggestion
    if product > 10:
        return (f"gamma {gamma:g} is large for these data: the median {what} between rows is {typical:.3g}, so "
                f"most kernel values are below exp(-{product:.3g}) and the components share the variance evenly; "
                f"try {suggestion}")
    if product < 1e-3:
        return (f"gamma {gamma:g} is small for these data: the median {what} between rows is {typical:.3g}, so "
                f"the kernel is nearly constant (close to a linear PCA); try {suggestion}")
    return None


class TerminalProgress:
    """Progress of a long fit as one line on a terminal, redrawn in place (``\\r``) and erased at the end.

    Nothing is drawn before ``delay`` seconds have passed (a short run shows nothing), nor more
    often than every 0.1 s; :func:`terminal_progress` gives one only when the stream is a terminal,
    so pipes, files and CI logs never see it.  Called as ``progress(stage, done, total)``
    (:meth:`purepca.KernelPCA.fit`).

    >>> out = io.StringIO()
    >>> p = TerminalProgress(out, delay=0.0)
    >>> p("kernel matrix", 64, 128); p.close()
    >>> out.getvalue().split("\\r")[1].rstrip()
    'purepca: kernel matrix 50 % (0 s)'
    """

    def __init__(self, stream: TextIO, delay: float = 1.5) -> None:
        self.stream = stream
        self.delay = delay
        self.start = time.monotonic()
        self.drawn = 0  # width of the line on screen
        self.last = -math.inf

    def __call__(self, stage: str, done: int, total: int) -> None:
        now = time.monotonic()
        if now - self.start < self.delay or (now - self.last < 0.1 and done < total):
            return
        self.last = now
        amount = f"{100 * done // total} %" if 0 < done <= total and stage != "eigenvectors" else "..."
        line = f"purepca: {stage} {amount} ({now - self.start:.0f} s)"
        self.stream.write("\r" + line.ljust(self.drawn))
        self.stream.flush()
        self.drawn = len(line)

    def close(self) -> None:
        """Erase the line, if one was drawn."""
        if self.drawn:
            self.stream.write("\r" + " " * self.drawn + "\r")
            self.stream.flush()
            self.drawn = 0


@contextlib.contextmanager
def terminal_progress(stream: TextIO) -> Iterator[Optional[TerminalProgress]]:
    """A :class:`TerminalProgress` on ``stream`` when it is a terminal (and ``TERM`` is not ``dumb``),
    else None; the line is erased on the way out, before warnings or errors are printed.

    >>> with terminal_progress(io.StringIO()) as progress:
    ...     progress is None
    True
    """
    isatty = getattr(stream, "isatty", None)
    if not (callable(isatty) and isatty()) or os.environ.get("TERM") == "dumb":
        yield None
        return
    progress = TerminalProgress(stream)
    try:
        yield progress
    finally:
        progress.close()


def _kernel_command(args: argparse.Namespace) -> None:
    source, table = _read_args_table(args, args.columns)
    if args.drop_constant:
        table = _without_constant(table, source)
    rows: list[list[float]] = table.rows
    if args.scale:
        if args.kernel == "precomputed":
            raise PurePCAError("--scale scales the columns of data; a precomputed kernel matrix has none")
        with _named_constants(source, table, table.names):
            rows = standardised(table.rows)
    # --components 0: every component with a positive eigenvalue.
    kp = KernelPCA(args.components or None, kernel=args.kernel, gamma=args.gamma, degree=args.degree, coef0=args.coef0,
                   eigen_solver=args.eigen_solver, convention=args.convention, precision=args.precision)
    with _warnings_to_stderr(), _about(source), terminal_progress(sys.stderr) as progress:
        scores = kp.fit_transform(rows, progress=progress)
    hint = gamma_hint(str(kp.kernel), float(kp.gamma_), rows, args.scale) if kp.gamma_ is not None else None
    if hint is not None:
        print(f"purepca: hint: {hint}", file=sys.stderr)
    _write(kernel_report(kp, scores, table.ids, args.format, source=source, id_name=table.id_name), args.output)


def _em_completed(args: argparse.Namespace, table: Table, source: str) -> Table:
    """``--missing em`` for the commands that draw or trace the completed data (plot, trace): the holes
    filled by the fit ``fit --missing em`` runs (``PCA(K, missing="em")``, missMDA's imputePCA with
    ``ncp = K``) under the command's scaling and convention, said on stderr; other tables as they are."""
    if args.missing != "em":
        return table
    holes = sum(v != v for row in table.rows for v in row)
    imputer = PCA(args.components, scale=args.scale, convention=getattr(args, "convention", "prcomp"),
                  solver=getattr(args, "solver", "auto"), missing="em")
    with _warnings_to_stderr(), _about(source), _named_constants(source, table, table.names):
        imputer.fit(table.rows)
    completed = imputer.imputed_
    assert completed is not None
    k = imputer.n_components_
    print(f"purepca: {source}: {holes} missing value{'s' if holes != 1 else ''} imputed by iterative PCA with {k} "
          f"component{'s' if k != 1 else ''}, {imputer.n_iter_} iterations (missMDA's imputePCA)", file=sys.stderr)
    return Table(table.names, [list(row) for row in completed], table.ids, table.dropped, table.imputed, table.groups,
                 table.weights, table.id_name)


def _plot_command(args: argparse.Namespace) -> None:
    source, table = _read_args_table(args, args.columns, args.groups)
    if args.drop_constant:
        table = _without_constant(table, source)
    table = _em_completed(args, table, source)
    pca = PCA(scale=args.scale, convention=args.convention, solver=args.solver)
    with _warnings_to_stderr(), _about(source), _named_constants(source, table, table.names):
        pca.fit(table.rows)
    kinds = ("scree", "scores", "biplot", "circle") if args.kind == "report" else (args.kind,)
    title = args.title if args.title is not None else f"PCA of {os.path.basename(source)}"
    with _about(source):
        svg = pca_report(pca, table.rows, feature_names=table.names, groups=table.groups, names=table.ids,
                         title=title, kinds=kinds, pcs=args.pcs, top=args.top, point_labels=args.labels)
    converter = None
    if args.png:
        if args.output is None:
            raise PurePCAError("--png writes a PNG beside the SVG file: give --output FILE.svg")
        converter = png_converter()
        if converter is None:
            raise PurePCAError("--png needs a converter on this machine: Chromium (chromium, chromium-browser, "
                               "google-chrome) or rsvg-convert (librsvg); none was found on PATH. The SVG is the "
                               "dependency-free output: open it in a browser, or install one of them")
    _write(svg.rstrip("\n"), args.output)
    if converter is not None:
        assert args.output is not None
        target = os.path.splitext(args.output)[0] + ".png"
        _write(_svg_to_png(svg, converter), target)
        print(f"purepca: wrote {target} ({converter[0]})", file=sys.stderr)


def png_converter() -> Optional[tuple[str, str]]:
    """The SVG-to-PNG converter this machine has, as (kind, path): rsvg-convert first (small, exact),
    then a headless Chromium; None when there is neither.

    >>> found = png_converter()
    >>> found is None or found[0] in ("rsvg-convert", "chromium")
    True
    """
    path = shutil.which("rsvg-convert")
    if path:
        return "rsvg-convert", path
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        path = shutil.which(name)
        if path:
            return "chromium", path
    return None


def _svg_to_png(svg: str, converter: tuple[str, str], scale: int = 2) -> bytes:
    """The PNG of ``svg`` drawn by ``converter`` (from :func:`png_converter`), at ``scale`` pixels per unit."""
    head = svg.split(">", 1)[0]
    _, _, vw, vh = head.split('viewBox="')[1].split('"')[0].split()
    width, height = int(float(vw)), int(float(vh))
    kind, path = converter
    with tempfile.TemporaryDirectory(prefix="purepca-png-") as folder:
        source = os.path.join(folder, "picture.svg")
        shot = os.path.join(folder, "picture.png")
        with open(source, "w", encoding="utf-8") as handle:
            handle.write(svg)
        if kind == "rsvg-convert":
            cmd = [path, "--zoom", str(scale), "--background-color", "white", "-o", shot, source]
        else:
            cmd = [path, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                   f"--force-device-scale-factor={scale}", f"--window-size={width},{height}",
                   f"--screenshot={shot}", "file://" + source]
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=120,
                                  env={**os.environ, "HOME": folder})
        except (OSError, subprocess.TimeoutExpired) as err:
            raise PurePCAError(f"--png: {kind} failed ({err})") from None
        if not os.path.exists(shot):
            raise PurePCAError(f"--png: {kind} wrote no picture: {done.stderr.strip()[-300:]}")
        with open(shot, "rb") as handle:
            return handle.read()


def _trace_matrix(args: argparse.Namespace) -> tuple[str, list[str], list[list[float]]]:
    """The symmetric matrix ``trace`` works on, what it is, and the names of its rows."""
    if args.matrix is not None:
        table = read_table(_lines(_read_text(args.matrix, getattr(args, "encoding", "utf-8"))), source=args.matrix, delimiter=args.delimiter,
                           header=False)
        _trace_limits(args, f"--matrix {args.matrix}", len(table.rows[0]) if table.rows else 0)
        M = as_symmetric(table.rows, name=args.matrix)
        return f"the matrix in {args.matrix}", table.names, [[float(v) for v in row] for row in M]
    source, table = _read_args_table(args, args.columns)
    _trace_limits(args, source, len(table.rows[0]) if table.rows else 0)  # before the covariance is formed
    table = _em_completed(args, table, source)
    if len(table.rows) < 2:
        raise PurePCAError(f"{source}: the covariance needs at least 2 rows, got {len(table.rows)}")
    if args.scale:
        C = correlation_matrix(table.rows)
        return f"the correlation matrix of {source}", table.names, [[float(v) for v in row] for row in C]
    C = covariance_matrix(table.rows)
    return f"the covariance matrix of {source}", table.names, [[float(v) for v in row] for row in C]


def _trace_limits(args: argparse.Namespace, source: str, order: int) -> None:
    """``trace``'s limits on the matrix, checked on the table read, before any matrix is formed."""
    from .teaching import MAX_ORDER as _TRACE_ORDER
    if order > _TRACE_ORDER:
        raise PurePCAError(f"trace: {source} gives a {order} x {order} matrix; trace prints every rotation of at most "
                           f"{_TRACE_ORDER} x {_TRACE_ORDER}" + ("" if args.matrix is not None else
                                                                  " (choose columns with --columns)"))
    if args.method in ("power", "both") and order and args.components > order:
        raise PurePCAError(f"trace: --components {args.components} is more than the {order} eigenpairs of a "
                           f"{order} x {order} matrix")


def _trace_command(args: argparse.Namespace) -> None:
    if not 1 <= args.significant <= 17:  # before any work, naming the option
        raise PurePCAError(f"trace: --significant must be between 1 and 17, got {args.significant}")
    what, labels, M = _trace_matrix(args)
    out = [f"{what} ({len(M)} x {len(M)})" + (":" if len(M) <= 8 else "")]
    if len(M) <= 8:
        out.append(format_table(labels, list(zip(labels, M)), 7))
    if args.method in ("jacobi", "both"):
        out += ["", trace_jacobi(M, rotations=not args.sweeps_only, digits=args.significant, notation=args.notation)]
    if args.method in ("power", "both"):
        out += ["", trace_power(M, args.components)]
    _write("\n".join(out), args.output)


#: The attributes ``verify`` reads from another implementation's output.
RESULT_KEYS = ("components_", "explained_variance_", "explained_variance_ratio_", "singular_values_", "mean_",
               "noise_variance_", "sdev", "rotation")


#: The result's attributes that are tables (rows); the others are vectors, except the number below.
_TABLES = ("components_", "rotation")


def _numbers(value: object, where: str, key: str = "") -> object:
    """A JSON value as nested lists of floats (a list of lists for ``components_`` and ``rotation``, a
    list for the other attributes, a number for ``noise_variance_``), or an error naming ``where``."""
    if key == "noise_variance_":
        return _number(value, where)
    if key not in _TABLES and key and isinstance(value, list) and any(isinstance(v, list) for v in value):
        raise PurePCAError(f"{where}: expected a list of numbers (one per component or column), got a list "
                           "of rows")
    if isinstance(value, list) and all(isinstance(v, list) for v in value) and value:
        return [[_number(x, f"{where}[{i}][{j}]") for j, x in enumerate(row)] for i, row in enumerate(value)]
    if isinstance(value, list):
        if key in _TABLES:
            raise PurePCAError(f"{where}: expected a non-empty list of rows of numbers")
        return [_number(x, f"{where}[{i}]") for i, x in enumerate(value)]
    if isinstance(value, (int, float)) and not isinstance(value, bool) and not key:
        return _number(value, where)
    raise PurePCAError(f"{where}: expected a list of numbers (or of rows), got {type(value).__name__}")


def _number(x: object, where: str) -> float:
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise PurePCAError(f"{where}: not a number: {_short(x)}")
    try:
        return float(x)
    except OverflowError:
        raise PurePCAError(f"{where}: {_short(x)} is beyond the float range") from None


def _short(x: object) -> str:
    text = repr(x)
    return text if len(text) <= 40 else text[:37] + "..."


def _check_result(result: dict[str, object], d: int, path: str) -> None:
    """The result's shapes against the data's ``d`` columns, each fault naming the result file and field
    (the data file is not to blame for them)."""
    for key in _TABLES:
        rows = result.get(key)
        if not isinstance(rows, list):
            continue
        widths = {len(row) for row in rows}
        if not rows or 0 in widths or len(widths) != 1:
            raise PurePCAError(f"{path}: {key}: expected a non-empty rectangular table of numbers"
                               + (f" (rows of {sorted(widths)} entries)" if len(widths) > 1 else ""))
        width = len(rows) if key == "rotation" else widths.pop()
        if width != d:
            what = "rows (one per column of the data)" if key == "rotation" else "entries per component"
            raise PurePCAError(f"{path}: {key}: {width} {what}, but the data have {d} columns")
    for key, value in result.items():
        if key in _TABLES or not isinstance(value, list):
            continue
        if not value:
            raise PurePCAError(f"{path}: {key}: empty; there is nothing to compare")
        if key == "mean_" and len(value) != d:
            raise PurePCAError(f"{path}: mean_: {len(value)} entries, but the data have {d} columns")
    if not any(key in result for key in ("components_", "rotation", "explained_variance_", "sdev")):
        raise PurePCAError(f"{path}: neither components_ (or rotation) nor explained_variance_ (or sdev); "
                           "nothing to compare")
    sdev = result.get("sdev")
    if isinstance(sdev, list):
        for i, v in enumerate(sdev):
            if isinstance(v, float) and v < 0:
                raise PurePCAError(f"{path}: sdev[{i}] is {v!r}: a standard deviation is never negative (the result "
                                   "file is wrong, not the data)")


def _result_text(path: str) -> str:
    """The text of a result file; its faults are the result's, with advice for it: it is always read as
    UTF-8, so no option changes that (``--encoding`` is the data file's)."""
    try:
        return _read_text(path)
    except PurePCAError as err:
        text = str(err)
        if "; pass --encoding" in text:
            text = text.split("; pass --encoding")[0] + "; a result file is always read as UTF-8: save it as UTF-8"
        raise PurePCAError(text) from None


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
    if not isinstance(path, str):
        raise PurePCAError(f"read_result: path must be a file name (str), got {_show(path)}")
    if os.path.isdir(path):
        return _result_folder(path)
    return _result_document(_result_json(path, _result_text(path)), path)


def _result_json(path: str, text: str) -> object:
    """The JSON document of a result file's text (read once: ``-`` is standard input)."""
    try:
        return json.loads(text)
    except ValueError as err:
        raise PurePCAError(f"{path}: not JSON ({err})") from None
    except RecursionError:
        raise PurePCAError(f"{path}: its JSON is nested too deeply to be a result") from None


def _result_document(document: object, path: str) -> dict[str, object]:
    """The attributes of a result's JSON document."""
    if not isinstance(document, dict):
        raise PurePCAError(f"{path}: expected a JSON object of attributes, got {type(document).__name__}")
    found = {key: _numbers(document[key], f"{path}: {key}", key) for key in RESULT_KEYS if key in document}
    if not found:
        raise PurePCAError(f"{path}: none of the attributes {', '.join(RESULT_KEYS)}")
    return found


def _result_folder(path: str) -> dict[str, object]:
    """The attributes of a result folder: one CSV file per attribute."""
    found: dict[str, object] = {}
    for key in RESULT_KEYS:
        file = os.path.join(path, key + ".csv")
        if not os.path.exists(file):
            continue
        # A missing number in a result is a mismatch to report (NaN), as in a JSON result.
        rows = read_table(_lines(_result_text(file)), source=file, header=False, missing="keep").rows
        if key in ("components_", "rotation"):
            found[key] = rows
        elif key == "noise_variance_":
            if len(rows) != 1 or len(rows[0]) != 1:
                raise PurePCAError(f"{file}: noise_variance_: expected one number")
            found[key] = rows[0][0]
        else:
            found[key] = [v for row in rows for v in row]
    if not found:
        raise PurePCAError(f"{path}: no file named after an attribute ({', '.join(k + '.csv' for k in RESULT_KEYS)})")
    return found


def verify_report(checks: list[Check], title: str) -> str:
    """The PASS/FAIL table of ``purepca verify``.

    >>> from purepca.testing import Check
    >>> print(verify_report([Check("explained_variance_[0]", True, 1e-16, 1e-12, "0.7")], "t"))  # doctest: +NORMALIZE_WHITESPACE
    t
    <BLANKLINE>
    quantity                 result  error      tolerance  digits lost  error/allowed
    explained_variance_[0]   PASS    1e-16      1e-12      0.7          0.0001
    <BLANKLINE>
    0 of 1 checks out; largest error/allowed 0.0001 (explained_variance_[0])
    1 passed, 0 failed
    """
    if not isinstance(checks, (list, tuple)) or not all(isinstance(c, Check) for c in checks):
        raise PurePCAError(f"verify_report: checks must be a list of Check (from compare_pca), got {_show(checks)}")
    check_text(title, "verify_report: title")
    width = max([len("quantity")] + [len(c.quantity) for c in checks]) + 2
    lines = [title, "", f"{'quantity':<{width}} result  {'error':<10} {'tolerance':<10} digits lost  error/allowed"]
    for c in checks:
        ratio = c.ratio
        lines.append(f"{c.quantity:<{width}} {'PASS' if c.passed else 'FAIL':<7} {c.error:<10.3g} {c.tolerance:<10.3g} "
                     f"{c.digits_lost:<12} {'-' if ratio != ratio else format(ratio, '.3g')}".rstrip())
    failures = [c for c in checks if not c.passed]
    if failures:
        lines += ["", "Mismatches:"] + ["  " + c.line() for c in failures]
    lines += ["", summary(checks), f"{len(checks) - len(failures)} passed, {len(failures)} failed"]
    return "\n".join(lines)


def _json_rows(value: object, source: str) -> list[list[float]]:
    """Rows of numbers from JSON: numbers, or decimal text (the golden inputs), one list per sample."""
    if not isinstance(value, list) or not value or not all(isinstance(row, list) and row for row in value):
        raise PurePCAError(f"{source}: expected the data as a non-empty list of rows (lists of numbers)")
    rows: list[list[float]] = []
    for i, row in enumerate(value):
        out = []
        for j, x in enumerate(row):
            if isinstance(x, str):
                try:
                    out.append(float(x))
                    continue
                except ValueError:
                    pass
            out.append(_number(x, f"{source}: row {i}, column {j}"))
        rows.append(out)
    if len({len(row) for row in rows}) != 1:
        raise PurePCAError(f"{source}: rows of {sorted({len(row) for row in rows})} numbers; every row needs as many")
    return rows


def verify_data(path: str, encoding: str = "utf-8") -> list[list[float]]:
    """The data of ``verify --data`` given as JSON: a list of rows, ``{"X": rows}``, or a golden case
    (``{"input": {"X": rows}, ...}``); numbers as numbers or as decimal text.

    >>> import json, os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "data.json")
    >>> with open(path, "w") as f:
    ...     json.dump({"input": {"X": [["1.5", "2"], ["3", "4.25"]]}}, f)
    >>> verify_data(path)
    [[1.5, 2.0], [3.0, 4.25]]
    """
    text = _read_text(path, encoding)  # (--encoding applies to JSON data too: the advice to pass it holds)
    try:
        document = json.loads(text)
    except ValueError as err:
        raise PurePCAError(f"{path}: not JSON ({err})") from None
    except RecursionError:
        raise PurePCAError(f"{path}: its JSON is nested too deeply to be data") from None
    if isinstance(document, dict) and isinstance(document.get("input"), dict):
        document = document["input"]
    if isinstance(document, dict):
        if "X" not in document:
            raise PurePCAError(f"{path}: a JSON object of data needs its rows under \"X\"")
        document = document["X"]
    return _json_rows(document, path)


def _verify_rows(args: argparse.Namespace) -> tuple[str, list[list[float]]]:
    """The data ``verify`` compares on: a golden case by name, a JSON file, or the CSV options' table."""
    golden = getattr(args, "golden", None)
    if golden is not None:
        from .golden import golden_cases

        try:
            found = golden_cases(names=[golden])
        except PurePCAError:
            found = []
        if not found:
            names = [c["name"] for c in golden_cases() if c["kind"] == "pca"]
            raise PurePCAError(f"--golden {golden}: no such golden case; the PCA cases are {', '.join(names)}")
        if found[0]["kind"] != "pca":
            raise PurePCAError(f"--golden {golden}: a {found[0]['kind']} case; verify checks a PCA")
        return f"golden case {golden}", _json_rows(found[0]["input"]["X"], f"golden case {golden}")
    if args.file is not None and args.file.lower().endswith(".json"):
        if args.columns is not None:
            raise PurePCAError(f"{args.file}: --columns picks CSV columns; JSON data are used whole")
        return args.file, verify_data(args.file, getattr(args, "encoding", None) or "utf-8")
    if (args.dataset is None and args.file not in (None, "-") and args.missing in ("error", "drop", "mean")
            and getattr(args, "weights", None) is None):
        # Read row by row: the whole text, its lines and their cells held at once made a 10,000 x 50 verify
        # peak at 138 MB; streamed, only the floats stay (the same parser and messages as read_table).
        stream = StreamedRows(args.file, delimiter=args.delimiter, header=not args.no_header, columns=args.columns,
                              id_column=args.id_column, missing=args.missing, exclude=args.exclude,
                              decimal=args.decimal, encoding=args.encoding)
        streamed = list(stream)
        if not streamed:
            raise PurePCAError(f"{args.file}: no rows of data")
        return args.file, streamed
    source, table = _read_args_table(args, args.columns)
    return source, table.rows


def _verify_command(args: argparse.Namespace) -> int:
    source, rows = _verify_rows(args)
    result = read_result(args.result)
    _check_result(result, len(rows[0]), args.result)
    with _about(source):
        checks = compare_pca(result, rows, convention=args.convention, method=args.method, rtol=args.rtol,
                             residual=args.residual, scale=True if args.scale else (False if args.unscaled else None),
                             ddof=args.ddof, scale_ddof=args.scale_ddof, constant_columns=args.constant_columns,
                             tol=args.tol, n_iter=args.n_iter, n_oversamples=args.n_oversamples,
                             batch_size=args.batch_size)
    tolerance = f"rtol {args.rtol:g}" if args.rtol is not None else f"method {args.method}"
    title = (f"{args.result} against purepca's reference for {source} (convention {args.convention}, "
             f"{tolerance})")
    _write(verify_report(checks, title), args.output)
    return 0 if all(c.passed for c in checks) else 1


def _assess_command(args: argparse.Namespace) -> int:
    """``purepca assess CASE ANSWER``: the LRE per quantity of another PCA's answer for a certified case (or the
    user's own data); the exit status is verify's: 0 when every verdict passes, 1 when one FAILs."""
    from .testing.assess import assess, assessment_report

    if os.path.isdir(args.answer):
        result: dict[str, object] = dict(_result_folder(args.answer))
    else:  # the file read once (``-`` is standard input), with what assess reads beside verify's attributes
        document = _result_json(args.answer, _result_text(args.answer))
        result = dict(_result_document(document, args.answer))
        for key in ("scores", "supplementary_correlations"):
            if isinstance(document, dict) and key in document:
                result[key] = document[key]
    if _is_data_file(args.case):
        text, passed = _assess_own_data(args.case, result, args)
        _write(text, args.output)
        return 0 if passed else 1
    from .certified import case_names

    if args.case not in case_names():
        raise PurePCAError(f"no certified case named {args.case!r} and no such data file; the cases: "
                           f"{', '.join(case_names())}. For your own data give the file: purepca assess DATA.csv "
                           f"{args.answer} (or purepca verify --data DATA.csv --result {args.answer})")
    rows = assess(args.case, result, convention=args.convention, method=args.method)
    convention = args.convention or "the case's default"
    title = (f"{args.answer} against the certified values of {args.case} (convention {convention}, method "
             f"{args.method}): LRE = correct significant digits, verdict of the method's error model")
    _write(assessment_report(rows, title), args.output)
    return 1 if any(r.verdict == "FAIL" for r in rows) else 0


def _is_data_file(case: str) -> bool:
    """Whether ``assess``'s first argument is the user's own data (a CSV or JSON file) rather than a case name
    (case names are plain words: no dot, no separator)."""
    return case == "-" or case.lower().endswith((".csv", ".json", ".tsv", ".txt")) or os.sep in case or (
        "/" in case) or os.path.isfile(case)


def _assess_own_data(path: str, result: dict[str, object], args: argparse.Namespace) -> tuple[str, bool]:
    """``purepca assess DATA.csv ANSWER``: the corpus report on the user's own data.  The LRE (correct
    digits) is counted against purepca's reference of the data (floats, refined: good to about 15 digits,
    so an LRE is at most that), the verdict is the error model's, as for a certified case."""
    from decimal import Decimal
    from .testing import reference
    from .testing.assess import Assessed, assessment_report, lre

    if path.lower().endswith(".json"):
        rows = verify_data(path)
    else:
        source = "<stdin>" if path == "-" else path
        rows = read_table(_lines(_read_text(path, "utf-8")), source=source,
                          delimiter="\t" if path.lower().endswith(".tsv") else ",").rows
    convention = args.convention or "sklearn"
    _check_result(result, len(rows[0]), args.answer)
    with _about(path):
        checks = compare_pca(result, rows, convention=convention, method=args.method)
        ref = reference(rows, convention=convention)
    verdicts = {c.quantity: c for c in checks}
    out: list[Assessed] = []
    named = set()

    def add(name: str, digits: float) -> None:
        check = verdicts.get(name)
        named.add(name)
        note = "" if check is None or check.passed else check.line()
        out.append(Assessed(name, digits, "-" if check is None else ("PASS" if check.passed else "FAIL"), note))

    top = ref.spectrum[0] if ref.spectrum else 0.0
    for key, want in (("explained_variance_", ref.spectrum), ("explained_variance_ratio_",
                                                              ref.explained_variance_ratio_),
                      ("singular_values_", ref.singular_values_), ("mean_", ref.mean_)):
        given = result.get(key)
        if isinstance(given, list):
            for i, v in enumerate(given[:len(want)]):
                if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v):
                    scale = None if want[i] != 0 else Decimal(repr(top if key == "explained_variance_" else 1.0))
                    add(f"{key}[{i}]", lre(float(v), Decimal(repr(want[i])), scale))
    for c in checks:
        if c.quantity.startswith("components_[") and c.quantity not in named:
            angle = c.error if c.error == c.error else math.inf
            add(c.quantity, min(15.9, -math.log10(angle)) if angle > 0 else 15.9)
    for c in checks:
        if c.quantity not in named:
            out.append(Assessed(c.quantity, math.nan, "PASS" if c.passed else "FAIL", "" if c.passed else c.line()))
    title = (f"{args.answer} against purepca's reference for {path} (not a certified case: LRE counted against the "
             f"float reference, good to about 15 digits; convention {convention}, method {args.method}; "
             "`purepca verify` gives each tolerance)")
    return assessment_report(out, title) + "\n" + summary(checks), all(c.passed for c in checks)

def _published(name: str, source: str, got: Sequence[float], expected: Sequence[str]) -> tuple[bool, str]:
    """A published number agrees when ours, rounded to the decimals printed, is the printed number."""
    rounded = [round(g, len(e.split(".")[1])) for g, e in zip(got, expected)]
    ok = len(got) == len(expected) and all(r == float(e) for r, e in zip(rounded, expected))
    shown = " ".join(expected[:4]) + (f" ... ({len(expected)} numbers)" if len(expected) > 4 else "")
    return ok, f"{name} ({source}): {shown}" + ("" if ok else f"; got {' '.join(map(repr, got))}")


#: The golden cases ``purepca check`` runs: small, quick, and each a different trap.
CHECK_GOLDEN = ("toy", "integers", "offset_1e6", "rank_deficient")


def _golden_checks() -> list[tuple[bool, str]]:
    """Each case of :data:`CHECK_GOLDEN` fitted with floats under each of its conventions: every
    eigenvalue within 1e-12 of the largest from its 50-digit value in the golden file."""
    from .golden import golden_cases

    out = []
    for case in golden_cases(names=CHECK_GOLDEN):
        X = [[float(v) for v in row] for row in case["input"]["X"]]
        worst, runs = 0.0, 0
        for run in case["results"]:
            expected = run.get("expected")
            if expected is None:
                continue
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DegenerateEigenvalueWarning)  # rank_deficient's zeros tie
                got = PCA(run["n_components"], convention=run["convention"], scale=run["scale"]).fit(X)
            want = [float(v) for v in expected["explained_variance_"]]
            top = max(abs(v) for v in want) or 1.0
            worst = max([worst] + [abs(g - w) / top for g, w in zip(got.explained_variance_, want)])
            runs += 1
        out.append((worst <= 1e-12, f"golden case {case['name']}: eigenvalues under {runs} conventions against "
                    f"their 50 digits, largest error {worst:.1e} of the largest (below 1e-12)"))
    return out


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
    checks += _golden_checks()
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
    p.add_argument("--scale", action="store_true", default=None,
                   help="scale every column to unit variance (PCA of the correlation); the default is the "
                        "convention's: scaled for factominer (scale.unit = TRUE), unscaled for the others")
    p.add_argument("--no-scale", dest="scale", action="store_false",
                   help="leave the columns unscaled, also under --convention factominer (scale.unit = FALSE)")
    p.add_argument("--convention", choices=sorted(CONVENTIONS), default="prcomp",
                   help="divisor, scaling and sign rule of a library (default: prcomp, as R)")
    p.add_argument("--solver", choices=SOLVERS, default="auto", help="the eigen-solver (default: auto)")


class _Parser(argparse.ArgumentParser):
    """argparse's parser with a one-line usage error (exit 2) that points to ``--help``."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {one_line(message)} (see {self.prog} --help)\n")


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
                   "a label column (name or index) kept out of the analysis, such as state names", em=True)
    p_fit.add_argument("--weights", default=None, metavar="COL",
                       help="a column of row weights (frequencies, >= 0) kept out of the analysis: weighted means "
                       "and covariance, as FactoMineR's row.w")
    p_fit.add_argument("--scores", default=None, metavar="FILE",
                       help="also write the scores of the rows (CSV with an id column; JSON when FILE ends in .json)")
    p_fit.add_argument("--drop-constant", action="store_true",
                       help="leave out constant columns (standard deviation 0), which --scale cannot scale")
    p_fit.add_argument("--components", type=_components, default=None, metavar="K",
                       help="how many components: an int, or a fraction of the variance such as 0.9 (default: all)")
    _common_fit_options(p_fit)
    p_fit.add_argument("--precision", type=_precision, default=None, metavar="DIGITS",
                       help="compute with this many decimal digits (17 to 10000) instead of floats")
    p_fit.add_argument("--summary", choices=("factominer", "prcomp"), default=None,
                       help="the tables of --format table: factominer (summary(PCA(...)): eigenvalues, %% of "
                       "variance, and the coordinates, ctr and cos2 of the individuals and variables) or prcomp "
                       "(summary(prcomp(...)) and the loadings); default: factominer under --convention "
                       "factominer, else prcomp")
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
                   "a label column, printed with the scores", em=None)
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
    p_k.add_argument("--scale", action="store_true",
                     help="centre each column and scale it to unit variance before the kernel (as fit --scale); "
                     "rbf's default gamma suits scaled columns")
    p_k.add_argument("--drop-constant", action="store_true", help="leave out constant columns")

    p_plot = sub.add_parser("plot", help="SVG pictures of a PCA: scree, scores, biplot, correlation circle",
                            description="Fit a PCA to a CSV file and draw it as standalone SVG: by default all four "
                            "pictures in one (--kind report).")
    _input_options(p_plot, "the columns to analyse (default: all)",
                   "a label column kept out of the analysis: the points' names (tooltips)", em=True)
    p_plot.add_argument("--components", type=_components, default=None, metavar="K",
                        help="with --missing em: the components the imputation keeps, as fit --components")
    _common_fit_options(p_plot)
    p_plot.add_argument("--kind", choices=("report", "scree", "scores", "biplot", "circle"), default="report",
                        help="which picture (default: report, the four together)")
    p_plot.add_argument("--groups", default=None, metavar="COL",
                        help="a label column (kept out of the analysis) that colours the points, with a legend")
    p_plot.add_argument("--title", default=None, help="the title (default: PCA of FILE)")
    p_plot.add_argument("--pcs", type=_pcs, default=(1, 2), metavar="I,J",
                        help="the two components of the scores, biplot and circle (default: 1,2)")
    p_plot.add_argument("--top", type=_top, default=None, metavar="N",
                        help="draw the N variables that contribute most to the plane (default: all up to 15, "
                        "else the top 15); 0 for all")
    p_plot.add_argument("--labels", action="store_true",
                        help="write the id column's names beside the points of the scores plot and the biplot (joined by a leader line where one must move; labels with no room are counted in the caption)")
    p_plot.add_argument("--drop-constant", action="store_true", help="leave out constant columns")
    p_plot.add_argument("--png", action="store_true",
                        help="also write FILE.png beside --output FILE.svg, drawn by rsvg-convert or a headless "
                        "Chromium found on this machine")
    _output_options(p_plot, formats=False, what="the SVG ")

    p_trace = sub.add_parser("trace", help="watch Jacobi and power iteration work on a covariance or a matrix",
                             description="For teaching: the Jacobi sweeps (pair, angle, off-diagonal norm falling "
                             "below the tolerance) and the power iterations (Rayleigh quotient, residual) on the "
                             "covariance matrix of a CSV file (correlation with --scale), or on a symmetric matrix "
                             "given with --matrix.")
    _input_options(p_trace, "the columns (default: all)", "a label column kept out", em=True)
    p_trace.add_argument("--matrix", default=None, metavar="FILE",
                         help="a symmetric matrix as CSV (numbers only, no header) instead of data")
    p_trace.add_argument("--scale", action="store_true", help="the correlation matrix instead of the covariance")
    p_trace.add_argument("--method", choices=("jacobi", "power", "both"), default="both", help="(default: both)")
    p_trace.add_argument("--components", type=int, default=1, metavar="K",
                         help="how many eigenpairs power iteration finds, and with --missing em the components "
                         "the imputation keeps (default: 1)")
    p_trace.add_argument("--sweeps-only", action="store_true", help="print Jacobi's sweeps, not every rotation")
    p_trace.add_argument("--significant", type=int, default=6, metavar="N",
                         help="significant digits of the rotation angles (1 to 17; default: 6)")
    p_trace.add_argument("--notation", choices=NOTATIONS, default="auto",
                         help="the angles' notation: auto (as %%g), fixed or scientific (default: auto)")
    _output_options(p_trace, formats=False)

    p_ver = sub.add_parser("verify", help="check another implementation's PCA output against purepca's reference",
                           description="Compare another PCA's output (JSON with scikit-learn's attribute names, or "
                           "R's sdev and rotation; or a directory of CSV files, one per attribute) with purepca's "
                           "reference (floats refined to a few ulps, 50 digits where that is not proven enough) for the same data: a PASS/FAIL table per quantity with the error, the "
                           "tolerance of the method's error model and the digits lost; exit 0 when all pass, 1 "
                           "otherwise.")
    _input_options(p_ver, "the columns the other PCA used (default: all)", "a label column kept out",
                   file_help="the data the other PCA was fitted on (CSV)")
    p_ver.add_argument("--golden", default=None, metavar="NAME",
                       help="the data of a bundled golden case (purepca.golden) instead of --data; --data also "
                       "reads JSON (a list of rows, {\"X\": rows} or a golden case file)")
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
    p_ver.add_argument("--constant-columns", choices=("error", "unscaled"), default="error", dest="constant_columns",
                       help="with --scale, a constant column is an error (default) or left unscaled, divided by 1 "
                       "(StandardScaler + PCA: --scale --scale-ddof 0 --constant-columns unscaled)")
    p_ver.add_argument("--method", choices=METHODS, default="svd",
                       help="the error model of their method, which sets the tolerances (default: svd)")
    p_ver.add_argument("--rtol", type=float, default=None, help="a relative tolerance instead of the error model")
    p_ver.add_argument("--residual", type=float, default=0.0,
                       help="for --method iterative/randomized: a residual the run claims (it can only tighten)")
    p_ver.add_argument("--tol", type=float, default=None, help="for --method iterative: the tol it ran with (ARPACK's)")
    p_ver.add_argument("--n-iter", type=int, default=None, dest="n_iter",
                       help="for --method randomized: its power iterations (default scikit-learn's 'auto')")
    p_ver.add_argument("--n-oversamples", type=int, default=None, dest="n_oversamples",
                       help="for --method randomized: its oversampling (default 10)")
    p_ver.add_argument("--batch-size", type=int, default=None, dest="batch_size",
                       help="for --method incremental: its batch size (default 5 x the columns)")
    _output_options(p_ver, formats=False)

    p_assess = sub.add_parser("assess", help="another PCA's answer for a certified case: correct digits (LRE) per quantity",
                              description="Read another implementation's answer (JSON with scikit-learn's attribute "
                              "names or R's sdev and rotation, or a directory of ATTRIBUTE.csv files, as verify "
                              "reads) for a case of the certified corpus (python -m purepca.certified list) and print "
                              "per quantity McCullough's log relative error against the certified values and the "
                              "verdict of the method's error model (docs/certified.md); exit status 1 when a verdict FAILs, "
                              "as verify's.")
    p_assess.add_argument("case", metavar="CASE", help="the certified case, e.g. longley")
    p_assess.add_argument("answer", metavar="ANSWER", help="their output: a JSON object or a directory of CSV files")
    p_assess.add_argument("--convention", choices=sorted(CONVENTIONS), default=None,
                          help="whose divisor and scaling the answer follows (default: sklearn, prcomp for a "
                               "correlation case)")
    p_assess.add_argument("--method", choices=METHODS, default="svd", help="the error model of their method")
    _output_options(p_assess, formats=False)

    p_data = sub.add_parser("dataset", help="list the bundled data sets, or print one as CSV",
                            description="Without NAME, list the bundled data sets and their published analyses; "
                            "with NAME, print that data set as CSV (its label column first).")
    p_data.add_argument("name", nargs="?", choices=DATASETS, default=None, help="the data set")
    _output_options(p_data, formats=False)

    # teach (issue 25): the step player as one self-contained HTML page; options and work in purepca/player.py
    add_teach_arguments(sub.add_parser("teach", help="the step player: Jacobi, power iteration or QL as an HTML page",
                                       description="Write one self-contained HTML page (no network) that steps "
                                       "through a solver's own trace on the covariance of FILE / --dataset or on "
                                       "--matrix: next/previous/play, the entry being zeroed, off(A) on a log "
                                       "scale, the axes turning, a float / 50-digit replay and a checker."))
    _lessons.add_lesson_arguments(sub.choices["teach"])  # issue 43: --lesson stopping|pc1 (purepca/lessons.py)
    _exercise.add_exercise_parser(sub)  # issue 43: purepca exercise (purepca/exercise.py)

    sub.add_parser("check", help="a self-test with the standard library only: published numbers, PASS/FAIL per line",
                   description="Reproduce the numbers seed 003 publishes (R's prcomp and kernlab), R's prcomp of "
                   "the bundled data sets and FactoMineR's PCA of those it publishes, and the eigenvalues of "
                   f"{len(CHECK_GOLDEN)} golden cases ({', '.join(CHECK_GOLDEN)}) against their 50-digit values, "
                   "with the standard library only; exit 1 if any line fails.")
    return parser


_COMMANDS = {
    "demo": lambda args: print(demo(args.precision)),
    "fit": _fit_command,
    "transform": _transform_command,
    "kernel": _kernel_command,
    "plot": _plot_command,
    "trace": _trace_command,
    "dataset": _dataset_command,
    "teach": lambda args: (_lessons.lesson_command if args.lesson else teach_command)(args),
    "exercise": lambda args: _exercise.exercise_command(args),
    "assess": _assess_command,
}


def _check_args(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """What argparse cannot say alone: exactly one source of data (FILE or --dataset, or --matrix for
    trace) and the range of --components; else usage, exit 2."""
    if not hasattr(args, "dataset") or getattr(args, "lesson", None):
        return  # a lesson checks its own sources (purepca/lessons.py)
    file_name = "--data" if args.command == "verify" else "FILE"
    given = [name for name, present in ((file_name, args.file is not None), ("--dataset", args.dataset is not None),
                                        ("--matrix", getattr(args, "matrix", None) is not None),
                                        ("--golden", getattr(args, "golden", None) is not None)) if present]
    if len(given) != 1:
        choices = f"{file_name}, --dataset NAME" + (" or --matrix FILE" if args.command in ("trace", "teach") else "")
        choices += " or --golden NAME" if args.command == "verify" else ""
        parser.exit(2, f"{parser.prog} {args.command}: error: give one of {choices}"
                    + (f" (got {' and '.join(given)})" if given else "") + f" (see {parser.prog} {args.command} --help)\n")
    if args.command == "kernel" and args.components < 0:
        parser.exit(2, f"{parser.prog} kernel: error: --components must be >= 0, got {args.components}\n")
    if args.command == "trace" and args.components < 1:
        parser.exit(2, f"{parser.prog} trace: error: --components must be >= 1, got {args.components}\n")
    if getattr(args, "missing", None) == "em" and not isinstance(args.components, int):
        parser.exit(2, f"{parser.prog} {args.command}: error: --missing em imputes with the model's own components: "
                    "give their number as an int, --components K\n")
    if args.command == "fit" and args.summary is not None and args.format != "table":
        parser.exit(2, f"{parser.prog} fit: error: --summary chooses the tables of --format table; --format "
                    f"{args.format} writes its own (the importance rows and the loadings)\n")
    if args.command == "plot" and args.components is not None and args.missing != "em":
        parser.exit(2, f"{parser.prog} plot: error: --components K is the rank of --missing em's imputation; "
                    "the plot draws every component (choose two with --pcs)\n")
    if args.command == "verify":
        for option, value in (("--ddof", args.ddof), ("--scale-ddof", args.scale_ddof)):
            if value is not None and value < 0:
                parser.exit(2, f"{parser.prog} verify: error: {option} must be >= 0, got {value}\n")
        if args.scale and args.unscaled:
            parser.exit(2, f"{parser.prog} verify: error: --scale and --unscaled contradict each other; give one\n")
        for option, value, low in (("--rtol", args.rtol, "> 0"), ("--residual", args.residual, ">= 0")):
            if value is not None and not (math.isfinite(value) and (value > 0 if low == "> 0" else value >= 0)):
                parser.exit(2, f"{parser.prog} verify: error: {option} must be a finite number {low}, got {value}\n")
    if getattr(args, "weights", None) is not None and getattr(args, "stream", "never") == "always":
        parser.exit(2, f"{parser.prog} {args.command}: error: --weights is not read by --stream always\n")


def _check_argv(argv: Any, where: str) -> None:
    """A command's door: ``argv`` None (the command line) or a list of str.

    >>> _check_argv(["pca", "x.csv"], "main")
    >>> _check_argv("pca", "main")
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: main: argv must be None or a list of str, got 'pca'
    """
    if argv is not None and (not isinstance(argv, (list, tuple)) or not all(isinstance(a, str) for a in argv)):
        raise PurePCAError(f"{where}: argv must be None or a list of str, got {_show(argv)}")


def main(argv: Optional[Sequence[str]] = None, prog: str = "purepca") -> int:
    """Entry point of ``python -m purepca``; returns the exit status.

    >>> main(["--version"])
    Traceback (most recent call last):
    ...
    SystemExit: 0
    """
    _check_argv(argv, "main")
    parser = _parser(prog)
    args = parser.parse_args(argv)
    _check_args(parser, args)
    try:
        _check_distinct_files(args)
        for option in ("output", "save", "scores"):
            check_output_path(getattr(args, option, None), "--" + option)
        if args.command == "check":
            results = self_check()
            for ok, line in results:
                print(f"{'PASS' if ok else 'FAIL'}  {line}")
            failed = sum(not ok for ok, _ in results)
            print(f"{len(results) - failed} passed, {failed} failed")
            return 1 if failed else 0
        if args.command == "verify":
            return _verify_command(args)
        if args.command == "assess":  # (verify's exit status: 1 when a verdict FAILs, for CI)
            return _assess_command(args)
        _COMMANDS[args.command](args)
    except BrokenPipeError:  # e.g. piped into head
        pass
    except PurePCAError as err:
        # One line, whatever a file's names hold (a quoted header may carry a newline).
        print(f"{parser.prog}: error: {one_line(str(err))}", file=sys.stderr)
        return 1
    return 0
