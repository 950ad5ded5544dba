"""The command line as data: each command's options, in the order ``--help`` lists them (as httpie's
``cli/definition.py``), and the one function that builds argparse's parser from them.

=======================  ==================================================
``Arg``                  one option: its flags and argparse's settings
``Defaults``             values a command sets without an option
``Hook``                 options another module adds (teach's, a lesson's)
``Command``              a command: its help, description and options
``COMMANDS``             every command, in ``purepca --help``'s order
``build_parser``         argparse's parser of :data:`COMMANDS`
=======================  ==================================================

An option shared by several commands (``--precision``, ``--drop-constant``,
the input and output options) is declared once here; a command that words
its help otherwise says so with :meth:`Arg.but`.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from typing import Any, Callable, NoReturn, Optional, Union

from .. import __version__
from .. import exercise as _exercise, lessons as _lessons
from ..conventions import CONVENTIONS
from ..datasets import DATASETS
from ..errors import one_line
from ..kernel_pca import EIGEN_SOLVERS
from ..kernels import KERNELS
from ..pca import SOLVERS
from ..player import add_teach_arguments
from ..teaching import NOTATIONS
from ..testing import METHODS
from .options import _components, _pcs, _precision, _top
from .selfcheck import CHECK_GOLDEN
from .tables import STREAM_BYTES

__all__: list[str] = []


@dataclass(frozen=True)
class Arg:
    """One option: the flags (or a positional's name) and argparse's ``add_argument`` settings."""

    flags: tuple[str, ...]
    settings: dict[str, Any]

    def but(self, **changes: Any) -> "Arg":
        """This option with some settings changed (a command's own help text).

        >>> DROP_CONSTANT.but(help="x").settings["help"], DROP_CONSTANT.settings["help"]
        ('x', 'leave out constant columns')
        """
        return Arg(self.flags, {**self.settings, **changes})


@dataclass(frozen=True)
class Defaults:
    """Values a command's namespace holds without an option (argparse's ``set_defaults``)."""

    values: dict[str, Any]


@dataclass(frozen=True)
class Hook:
    """Options another module declares: ``add(parser)`` adds them (teach's in player.py, a lesson's)."""

    add: Callable[[argparse.ArgumentParser], None]


Item = Union[Arg, Defaults, Hook]


def arg(*flags: str, **settings: Any) -> Arg:
    """An :class:`Arg`.

    >>> arg("--top", type=int).flags
    ('--top',)
    """
    return Arg(flags, settings)


@dataclass(frozen=True)
class Command:
    """A command: ``purepca NAME``'s one-line help, its description and its options, in order."""

    name: str
    help: str
    description: Optional[str] = None
    options: tuple[Item, ...] = ()
    #: A command another module declares whole (``exercise``): it adds its own subparser.
    adder: Optional[Callable[[Any], None]] = field(default=None)


# ------------------------------------------------------------------ options several commands share

PRECISION = arg("--precision", type=_precision, default=None, metavar="DIGITS",
                help="compute with this many decimal digits (17 to 10000) instead of floats")
DROP_CONSTANT = arg("--drop-constant", action="store_true", help="leave out constant columns")
COMPONENTS = arg("--components", type=_components, default=None, metavar="K",
                 help="how many components: an int, or a fraction of the variance such as 0.9 (default: all)")
FORMAT = arg("--format", choices=("table", "csv", "json"), default="table", help="the output (default: table)")
_OUTPUT_HELP = ("write {what}here (through a temporary file renamed into place, with the permissions of your umask) "
                "instead of standard output")
OUTPUT = arg("-o", "--output", "--out", dest="output", default=None, metavar="FILE", help=_OUTPUT_HELP.format(what=""))
FIT_OPTIONS = (
    arg("--scale", action="store_true", default=None,
        help="scale every column to unit variance (PCA of the correlation); the default is the "
             "convention's: scaled for factominer (scale.unit = TRUE), unscaled for the others"),
    arg("--no-scale", dest="scale", action="store_false",
        help="leave the columns unscaled, also under --convention factominer (scale.unit = FALSE)"),
    arg("--convention", choices=sorted(CONVENTIONS), default="prcomp",
        help="divisor, scaling and sign rule of a library (default: prcomp, as R)"),
    arg("--solver", choices=SOLVERS, default="auto", help="the eigen-solver (default: auto)"),
)
_MISSING_HELP = "empty, NA or NaN cells: an error naming the cell (default), drop the row, "


def _missing(em: Optional[bool]) -> tuple[Item, ...]:
    """``--missing``: with ``em`` True, iterative PCA imputation among the ways out; None: transform's."""
    if em:
        return (Defaults({"missing_em": True}),  # named among the ways out of a missing cell
                arg("--missing", choices=("error", "drop", "mean", "em"), default="error",
                    help=_MISSING_HELP + "the column mean, or em: iterative PCA imputation (missMDA's imputePCA; "
                    "needs an int --components)"))
    return (arg("--missing", choices=("error", "drop", "mean"), default="error",
                help=_MISSING_HELP + "or the column mean"
                + (" (of the training data, stored in the model)" if em is None else "")),)


def input_options(columns_help: str, id_help: str, file_help: Optional[str] = None,
                  em: Optional[bool] = False) -> tuple[Item, ...]:
    """Where the data come from and how to read them (every command that reads a table).

    The file is the positional FILE, or, with ``file_help``, the option ``--data FILE``; then missing
    cells are always an error (the other program's answer was for complete rows).

    >>> [item.flags[0] for item in input_options("c", "i")[:3]]
    ['file', '--dataset', '--columns']
    """
    source = (arg("file", nargs="?", default=None, help="a CSV file, or - for standard input") if file_help is None
              else arg("--data", dest="file", default=None, metavar="FILE", help=file_help))
    reading = (
        source,
        arg("--dataset", choices=DATASETS, default=None,
            help=f"a bundled data set instead of {'FILE' if file_help is None else '--data'} "
            "(its label column is the id column)"),
        arg("--columns", default=None, metavar="COLS", help=columns_help),
        arg("--id-column", default=None, metavar="COL", help=id_help),
        arg("--no-header", action="store_true", help="the first line is data; columns are named x1, x2, ..."),
        arg("--exclude", default=None, metavar="COLS",
            help="columns left out of the analysis: names or 0-based indices, comma-separated"),
        arg("--delimiter", default=",", metavar="CHAR", help="the field separator (default: ,)"),
        arg("--encoding", default="utf-8", metavar="NAME",
            help="the file's text encoding (default: utf-8; Excel's files from Windows are often cp1252)"),
        arg("--decimal", choices=(".", ","), default=".",
            help="the decimal mark (default: .); files with decimal commas usually need --delimiter ';'"),
    )
    return reading + (_missing(em) if file_help is None else (Defaults({"missing": "error"}),))


def output_options(formats: bool = True, what: str = "") -> tuple[Item, ...]:
    """``--output FILE`` (also ``-o`` and, as plot first had it, ``--out``), after ``--format`` where the
    command has one: the same names on every command.

    >>> [item.flags[0] for item in output_options()]
    ['--format', '-o']
    """
    output = OUTPUT.but(help=_OUTPUT_HELP.format(what=what)) if what else OUTPUT
    return ((FORMAT,) if formats else ()) + (output,)


def table_options(columns_help: str, id_help: str, em: Optional[bool] = False) -> tuple[Item, ...]:
    """The input and output options that fit, transform and kernel share."""
    return input_options(columns_help, id_help, em=em) + output_options()


# ------------------------------------------------------------------ the commands, in --help's order

DEMO = Command("demo", "PCA of the bundled toy data (seed 003), printed as tables", options=(
    PRECISION.but(help="compute with this many decimal digits (17 to 10000, e.g. 50) instead of floats"),
))

FIT = Command(
    "fit", "PCA of a CSV file: R's importance table and the loadings",
    "PCA of the numeric columns of a CSV file (or - for standard input, or --dataset NAME for a bundled data set).",
    table_options("the columns to analyse: names or 0-based indices, comma-separated (default: all)",
                  "a label column (name or index) kept out of the analysis, such as state names", em=True) + (
        arg("--weights", default=None, metavar="COL",
            help="a column of row weights (frequencies, >= 0) kept out of the analysis: weighted means "
            "and covariance, as FactoMineR's row.w"),
        arg("--scores", default=None, metavar="FILE",
            help="also write the scores of the rows (CSV with an id column; JSON when FILE ends in .json)"),
        DROP_CONSTANT.but(help="leave out constant columns (standard deviation 0), which --scale cannot scale"),
        COMPONENTS,
    ) + FIT_OPTIONS + (
        PRECISION,
        arg("--summary", choices=("factominer", "prcomp"), default=None,
            help="the tables of --format table: factominer (summary(PCA(...)): eigenvalues, %% of "
            "variance, and the coordinates, ctr and cos2 of the individuals and variables) or prcomp "
            "(summary(prcomp(...)) and the loadings); default: factominer under --convention "
            "factominer, else prcomp"),
        arg("--save", default=None, metavar="MODEL",
            help="also write the fitted model as JSON, for purepca transform --model"),
        arg("--stream", choices=("auto", "always", "never"), default="auto",
            help="read the file in one pass through fit_stream, never holding it in memory: auto does "
            f"so for files over {STREAM_BYTES // 2**20} MiB (default: auto); progress is shown on "
            "stderr when it is a terminal"),
    ))

TRANSFORM = Command(
    "transform", "scores of the rows of a CSV file under a saved model",
    "Scores of the rows of a CSV file (or -) under a model saved by fit --save; "
    "the same bits as fitting and transforming in one run.",
    table_options("the columns (default: those the model was fitted on, by name)",
                  "a label column, printed with the scores", em=None) + (
        arg("--model", required=True, metavar="MODEL", help="the JSON model written by fit --save"),
    ))

KERNEL = Command(
    "kernel", "Kernel PCA of a CSV file: eigenvalues and scores",
    "Kernel PCA of the numeric columns of a CSV file: the eigenvalues of the "
    "centred kernel matrix and the scores of the rows (scikit-learn's KernelPCA, or kernlab's "
    "kpca with --convention kernlab).",
    table_options("the columns to analyse (default: all)", "a label column kept out, printed with the scores") + (
        arg("--kernel", choices=[k for k in KERNELS if k != "precomputed"] + ["precomputed"], default="rbf",
            help="the kernel (default: rbf); precomputed reads FILE as the n x n kernel matrix"),
        arg("--gamma", type=float, default=None,
            help="of rbf, laplacian, poly and sigmoid (default: 1/n_features, as scikit-learn)"),
        arg("--degree", type=int, default=3, help="of poly (default: 3)"),
        arg("--coef0", type=float, default=1.0, help="of poly and sigmoid (default: 1)"),
        arg("--components", type=int, default=2, metavar="K",
            help="how many components (default: 2; 0 for all with a positive eigenvalue)"),
        arg("--convention", choices=("sklearn", "kernlab"), default="sklearn",
            help="sklearn (eigenvalues of the centred kernel, largest entry of each vector positive) or "
            "kernlab (eigenvalues / n, solver's sign)"),
        arg("--eigen-solver", choices=EIGEN_SOLVERS, default="auto", help="(default: auto)"),
        PRECISION,
        arg("--scale", action="store_true",
            help="centre each column and scale it to unit variance before the kernel (as fit --scale); "
            "rbf's default gamma suits scaled columns"),
        DROP_CONSTANT,
    ))

PLOT = Command(
    "plot", "SVG pictures of a PCA: scree, scores, biplot, correlation circle",
    "Fit a PCA to a CSV file and draw it as standalone SVG: by default all four pictures in one (--kind report).",
    input_options("the columns to analyse (default: all)",
                  "a label column kept out of the analysis: the points' names (tooltips)", em=True) + (
        COMPONENTS.but(help="with --missing em: the components the imputation keeps, as fit --components"),
    ) + FIT_OPTIONS + (
        arg("--kind", choices=("report", "scree", "scores", "biplot", "circle"), default="report",
            help="which picture (default: report, the four together)"),
        arg("--groups", default=None, metavar="COL",
            help="a label column (kept out of the analysis) that colours the points, with a legend"),
        arg("--title", default=None, help="the title (default: PCA of FILE)"),
        arg("--pcs", type=_pcs, default=(1, 2), metavar="I,J",
            help="the two components of the scores, biplot and circle (default: 1,2)"),
        arg("--top", type=_top, default=None, metavar="N",
            help="draw the N variables that contribute most to the plane (default: all up to 15, "
            "else the top 15); 0 for all"),
        arg("--labels", action="store_true",
            help="write the id column's names beside the points of the scores plot and the biplot (joined by a "
            "leader line where one must move; labels with no room are counted in the caption)"),
        DROP_CONSTANT,
        arg("--png", action="store_true",
            help="also write FILE.png beside --output FILE.svg, drawn by rsvg-convert or a headless "
            "Chromium found on this machine"),
    ) + output_options(formats=False, what="the SVG "))

TRACE = Command(
    "trace", "watch Jacobi and power iteration work on a covariance or a matrix",
    "For teaching: the Jacobi sweeps (pair, angle, off-diagonal norm falling "
    "below the tolerance) and the power iterations (Rayleigh quotient, residual) on the "
    "covariance matrix of a CSV file (correlation with --scale), or on a symmetric matrix "
    "given with --matrix.",
    input_options("the columns (default: all)", "a label column kept out", em=True) + (
        arg("--matrix", default=None, metavar="FILE",
            help="a symmetric matrix as CSV (numbers only, no header) instead of data"),
        arg("--scale", action="store_true", help="the correlation matrix instead of the covariance"),
        arg("--method", choices=("jacobi", "power", "both"), default="both", help="(default: both)"),
        arg("--components", type=int, default=1, metavar="K",
            help="how many eigenpairs power iteration finds, and with --missing em the components "
            "the imputation keeps (default: 1)"),
        arg("--sweeps-only", action="store_true", help="print Jacobi's sweeps, not every rotation"),
        arg("--significant", type=int, default=6, metavar="N",
            help="significant digits of the rotation angles (1 to 17; default: 6)"),
        arg("--notation", choices=NOTATIONS, default="auto",
            help="the angles' notation: auto (as %%g), fixed or scientific (default: auto)"),
    ) + output_options(formats=False))

VERIFY = Command(
    "verify", "check another implementation's PCA output against purepca's reference",
    "Compare another PCA's output (JSON with scikit-learn's attribute names, or "
    "R's sdev and rotation; or a directory of CSV files, one per attribute) with purepca's "
    "reference (floats refined to a few ulps, 50 digits where that is not proven enough) for the same data: "
    "a PASS/FAIL table per quantity with the error, the "
    "tolerance of the method's error model and the digits lost; exit 0 when all pass, 1 "
    "otherwise.",
    input_options("the columns the other PCA used (default: all)", "a label column kept out",
                  file_help="the data the other PCA was fitted on (CSV)") + (
        arg("--golden", default=None, metavar="NAME",
            help="the data of a bundled golden case (purepca.golden) instead of --data; --data also "
            "reads JSON (a list of rows, {\"X\": rows} or a golden case file)"),
        arg("--result", required=True, metavar="FILE",
            help="their output: a JSON object of attributes, or a directory of ATTRIBUTE.csv files"),
        arg("--convention", choices=sorted(CONVENTIONS), default="sklearn",
            help="whose divisor, scaling and sign rule the output follows (default: sklearn)"),
        arg("--scale", action="store_true", help="the output is of the correlation matrix (scaled columns)"),
        arg("--unscaled", action="store_true",
            help="the columns were not scaled (statsmodels standardize=False, FactoMineR scale.unit=FALSE)"),
        arg("--ddof", type=int, default=None, help="the variance divisor is n - DDOF (default: the convention's)"),
        arg("--scale-ddof", type=int, default=None, dest="scale_ddof",
            help="the scaling divided by n - SCALE_DDOF (StandardScaler + PCA: --scale --scale-ddof 0)"),
        arg("--constant-columns", choices=("error", "unscaled"), default="error", dest="constant_columns",
            help="with --scale, a constant column is an error (default) or left unscaled, divided by 1 "
            "(StandardScaler + PCA: --scale --scale-ddof 0 --constant-columns unscaled)"),
        arg("--method", choices=METHODS, default="svd",
            help="the error model of their method, which sets the tolerances (default: svd)"),
        arg("--rtol", type=float, default=None, help="a relative tolerance instead of the error model"),
        arg("--residual", type=float, default=0.0,
            help="for --method iterative/randomized: a residual the run claims (it can only tighten)"),
        arg("--tol", type=float, default=None, help="for --method iterative: the tol it ran with (ARPACK's)"),
        arg("--n-iter", type=int, default=None, dest="n_iter",
            help="for --method randomized: its power iterations (default scikit-learn's 'auto')"),
        arg("--n-oversamples", type=int, default=None, dest="n_oversamples",
            help="for --method randomized: its oversampling (default 10)"),
        arg("--batch-size", type=int, default=None, dest="batch_size",
            help="for --method incremental: its batch size (default 5 x the columns)"),
    ) + output_options(formats=False))

ASSESS = Command(
    "assess", "another PCA's answer for a certified case: correct digits (LRE) per quantity",
    "Read another implementation's answer (JSON with scikit-learn's attribute "
    "names or R's sdev and rotation, or a directory of ATTRIBUTE.csv files, as verify "
    "reads) for a case of the certified corpus (python -m purepca.certified list) and print "
    "per quantity McCullough's log relative error against the certified values and the "
    "verdict of the method's error model (docs/certified.md); exit status 1 when a verdict FAILs, "
    "as verify's.", (
        arg("case", metavar="CASE", help="the certified case, e.g. longley"),
        arg("answer", metavar="ANSWER", help="their output: a JSON object or a directory of CSV files"),
        arg("--convention", choices=sorted(CONVENTIONS), default=None,
            help="whose divisor and scaling the answer follows (default: sklearn, prcomp for a "
                 "correlation case)"),
        arg("--method", choices=METHODS, default="svd", help="the error model of their method"),
    ) + output_options(formats=False))

DATASET = Command(
    "dataset", "list the bundled data sets, or print one as CSV",
    "Without NAME, list the bundled data sets and their published analyses; "
    "with NAME, print that data set as CSV (its label column first).", (
        arg("name", nargs="?", choices=DATASETS, default=None, help="the data set"),
    ) + output_options(formats=False))

# teach (issue 25): the step player as one self-contained HTML page; options and work in purepca/player.py
TEACH = Command(
    "teach", "the step player: Jacobi, power iteration or QL as an HTML page",
    "Write one self-contained HTML page (no network) that steps "
    "through a solver's own trace on the covariance of FILE / --dataset or on "
    "--matrix: next/previous/play, the entry being zeroed, off(A) on a log "
    "scale, the axes turning, a float / 50-digit replay and a checker.",
    (Hook(add_teach_arguments),
     Hook(_lessons.add_lesson_arguments)))  # issue 43: --lesson stopping|pc1 (purepca/lessons.py)

EXERCISE = Command("exercise", "", adder=_exercise.add_exercise_parser)  # issue 43: purepca/exercise.py

CHECK = Command(
    "check", "a self-test with the standard library only: published numbers, PASS/FAIL per line",
    "Reproduce the numbers seed 003 publishes (R's prcomp and kernlab), R's prcomp of "
    "the bundled data sets and FactoMineR's PCA of those it publishes, and the eigenvalues of "
    f"{len(CHECK_GOLDEN)} golden cases ({', '.join(CHECK_GOLDEN)}) against their 50-digit values, "
    "with the standard library only; exit 1 if any line fails.")

#: Every command, in the order ``purepca --help`` lists them.
COMMANDS = (DEMO, FIT, TRANSFORM, KERNEL, PLOT, TRACE, VERIFY, ASSESS, DATASET, TEACH, EXERCISE, CHECK)


class _Parser(argparse.ArgumentParser):
    """argparse's parser with a one-line usage error (exit 2) that points to ``--help``."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {one_line(message)} (see {self.prog} --help)\n")


def _add(parser: argparse.ArgumentParser, items: tuple[Item, ...]) -> None:
    """A command's options added in order, its defaults set after them."""
    defaults: dict[str, Any] = {}
    for item in items:
        if isinstance(item, Arg):
            parser.add_argument(*item.flags, **item.settings)
        elif isinstance(item, Hook):
            item.add(parser)
        else:
            defaults.update(item.values)
    if defaults:
        parser.set_defaults(**defaults)


def build_parser(prog: str) -> argparse.ArgumentParser:
    """argparse's parser of every command in :data:`COMMANDS`.

    >>> build_parser("purepca").parse_args(["fit", "x.csv", "--precision", "50"]).precision
    50
    """
    parser = _Parser(prog=prog, description="PCA in pure Python.")
    parser.add_argument("--version", action="version", version=f"purepca {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    for command in COMMANDS:
        if command.adder is not None:
            command.adder(sub)
            continue
        settings: dict[str, Any] = {"help": command.help}
        if command.description is not None:
            settings["description"] = command.description
        _add(sub.add_parser(command.name, **settings), command.options)
    return parser
