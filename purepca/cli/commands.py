"""The commands' bodies: demo, fit, transform, kernel, plot, trace, dataset.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Optional
from ..csvdata import StreamedRows, Table, read_table
from ..datasets import DATASETS, load, toy_data
from ..errors import PurePCAError
from ..covariance import correlation_matrix, covariance_matrix
from ..kernel_pca import KernelPCA
from ..linalg.matrix import as_symmetric
from ..model_io import pca_from_json, pca_to_json
from ..pca import PCA
from ..report import _r_decimals, format_table
from ..svg import pca_report
from ..teaching import trace_jacobi, trace_power
from ..files import read_text, text_lines, write_output
from .png import _svg_to_png, png_converter
from .progress import Progress, _about, _warnings_to_stderr, terminal_progress
from .reports import factominer_summary, fit_report, kernel_report, scores_report
from .tables import (_em_completed, _named_constants, _read_args_table, _streamed, _without_constant, gamma_hint,
                     standardised)

__all__: list[str] = []  # the package's own module: purepca.cli re-exports what is public


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
        write_output(pca_to_json(pca), args.save)
    if scores is not None:
        scores_form = "json" if args.scores.endswith(".json") else "csv"
        write_output(scores_report(pca.component_names, scores, table.ids, scores_form, table.id_name), args.scores)
    write_output(fit_report(pca, table.names, args.format, source=source, dropped=table.dropped, imputed=table.imputed,
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


def _transform_command(args: argparse.Namespace) -> None:
    pca = pca_from_json(read_text(args.model))
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
    write_output(scores_report(pca.component_names, scores, table.ids, args.format, table.id_name), args.output)


def _dataset_command(args: argparse.Namespace) -> None:
    if args.name is None:
        lines = ["Bundled data sets (purepca dataset NAME prints one as CSV; fit --dataset NAME analyses it):"]
        for name in DATASETS:
            data = load(name)
            lines.append(f"  {name:<10} {len(data.rows)} x {len(data.columns)}  {data.title}")
            lines += [f"  {'':<10} published: {pub.call}" for pub in data.published]
            if data.factominer is not None:
                lines.append(f"  {'':<10} published: {data.factominer.call}")
        write_output("\n".join(lines), args.output)
        return
    write_output(load(args.name).to_csv().rstrip("\n"), args.output)


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
    write_output(kernel_report(kp, scores, table.ids, args.format, source=source, id_name=table.id_name), args.output)


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
    write_output(svg.rstrip("\n"), args.output)
    if converter is not None:
        assert args.output is not None
        target = os.path.splitext(args.output)[0] + ".png"
        write_output(_svg_to_png(svg, converter), target)
        print(f"purepca: wrote {target} ({converter[0]})", file=sys.stderr)


def _trace_matrix(args: argparse.Namespace) -> tuple[str, list[str], list[list[float]]]:
    """The symmetric matrix ``trace`` works on, what it is, and the names of its rows."""
    if args.matrix is not None:
        text = read_text(args.matrix, getattr(args, "encoding", "utf-8"))
        table = read_table(text_lines(text), source=args.matrix, delimiter=args.delimiter, header=False)
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
    from ..teaching import MAX_ORDER as _TRACE_ORDER
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
    write_output("\n".join(out), args.output)
