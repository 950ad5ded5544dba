"""Reading the table a command's options describe: the source, constant columns, imputation.

=======================  ==================================================
``_read_args_table``     the source's name and the table (FILE, -, or a
                         bundled data set)
``_without_constant``    ``--drop-constant``: constant columns left out
``_streamed``            whether ``fit`` streams its file
``_em_completed``        ``--missing em``: the library's imputation
``standardised``         the rows scaled as ``--scale`` scales them
``gamma_hint``           a word on rbf's gamma and unscaled columns
=======================  ==================================================
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import re
import sys
from typing import Iterator, Optional, Sequence, Union
from ..csvdata import Table, read_table
from ..datasets import load
from ..errors import PurePCAError
from ..pca import PCA
from ..files import read_text, text_lines
from .progress import _about, _warnings_to_stderr

__all__: list[str] = []  # the package's own module: purepca.cli re-exports what is public


def _read_args_table(args: argparse.Namespace, columns: Union[None, str, Sequence[str]],
                     groups: Optional[str] = None, columns_option: str = "--columns",
                     missing_hint: Optional[str] = None) -> tuple[str, Table]:
    """The source's name and the table the shared options describe (``missing_hint``: the command's way out
    of a missing cell where it has no ``--missing``)."""
    missing = {"em": "keep"}.get(args.missing, args.missing)  # the library fills the holes itself
    weights = getattr(args, "weights", None)
    if args.dataset is not None:
        data = load(args.dataset)
        id_column = args.id_column if args.id_column is not None else data.label_name
        if columns is None and data.active is not None:
            columns = ",".join(data.active)  # the supplementary columns stay out unless asked for
        table = read_table(data.to_csv().splitlines(), source=args.dataset, columns=columns, id_column=id_column,
                           missing=missing, group_column=groups, exclude=args.exclude, weight_column=weights,
                           columns_option=columns_option, em=getattr(args, "missing_em", False),
                       missing_hint=missing_hint)
        return data.name, table
    source = "<stdin>" if args.file == "-" else args.file
    table = read_table(text_lines(read_text(args.file, args.encoding)), source=source, delimiter=args.delimiter,
                       header=not args.no_header, columns=columns, id_column=args.id_column, missing=missing,
                       group_column=groups, exclude=args.exclude, weight_column=weights, decimal=args.decimal,
                       columns_option=columns_option, em=getattr(args, "missing_em", False),
                       missing_hint=missing_hint)
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


#: Files larger than this many bytes are streamed by ``fit --stream auto``.
STREAM_BYTES = 64 * 2**20


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
