"""The reports: a fit, scores and a kernel PCA as text tables, CSV or JSON.

=======================  ==================================================
``fit_report``           R's importance table and the loadings (table, CSV,
                         JSON)
``factominer_summary``   FactoMineR's ``summary(PCA(...))`` tables
``scores_report``        the rows' scores, with their ids
``kernel_report``        a Kernel PCA's eigenvalues and scores
``wrapped_table``        a table cut into blocks of columns that fit 80
                         characters
=======================  ==================================================
"""

from __future__ import annotations

import json
import math
from typing import Optional, Sequence
from ..conventions import CONVENTIONS
from ..csvdata import csv_text
from ..kernel_pca import KernelPCA
from ..pca import PCA
from ..report import PCASummary, format_rounded, format_table, print_matrix

__all__: list[str] = []  # the package's own module: purepca.cli re-exports what is public


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


def factominer_summary(pca: PCA, rows: Optional[Sequence[Sequence[float]]], ids: Optional[Sequence[str]],
                       names: Sequence[str], ncp: int = 3, nbelements: int = 10, width: int = WIDTH,
                       supplementary: Optional[tuple[Sequence[str], list[list[float]]]] = None,
                       categories: Optional[Sequence[str]] = None) -> str:
    """FactoMineR's ``summary(PCA(...))`` of a fitted PCA: the eigenvalues with their percentages of
    variance, then the first ``nbelements`` individuals (Dist, and coordinate, ctr and cos2 on each of
    the first ``ncp`` dimensions) and the variables likewise, laid out as ``summary.PCA`` prints them
    (``nb.dec = 3``, ``|`` between the dimensions, wrapped at ``width``, R's 80 characters).  Every number
    is the library's (:meth:`PCA.row_coordinates`, :meth:`PCA.row_distances`, :meth:`PCA.row_cos2`,
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
    sections = _summary_sections(pca, rows, labels, names, nbelements, supplementary, categories)
    # The row names' width is shared by the sections, as summary.PCA's align.names: every
    # individual's name, and the first nbelements of each other section's.
    align = max([len(v) for v in labels] + [len(v) for _, _, who, _, _ in sections for v in who])
    for section in sections:
        out += ["", *_summary_section(section, shown, dims, align, nbelements, width)]
    return "\n".join(out)


#: A section of FactoMineR's summary: its title, how many it has, the names shown, the Dist column (or
#: None) and, per dimension, the statistics printed (name, a row of values per element).
_Section = tuple[str, int, list[str], Optional[list[float]], list[tuple[str, list[list[float]]]]]


def _summary_sections(pca: PCA, rows: Sequence[Sequence[float]], labels: list[str], names: Sequence[str],
                      nbelements: int, supplementary: Optional[tuple[Sequence[str], list[list[float]]]],
                      categories: Optional[Sequence[str]]) -> list[_Section]:
    """The sections of :func:`factominer_summary`, every number the library's."""
    first = list(rows[:nbelements])
    sections: list[_Section] = [
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
    return sections


def _summary_section(section: _Section, shown: int, dims: list[str], align: int, nbelements: int,
                     width: int) -> list[str]:
    """One section of :func:`factominer_summary` as summary.PCA prints it: its title and its table."""
    title, count, who, dist, stats = section
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
    return [title + (f" (the {nbelements} first)" if count > nbelements else ""),
            print_matrix([v.ljust(align) for v in who], head, cols, width)]


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
           format_table(names, [("eigenvalue", list(kp.eigenvalues_)),
                                ("share", list(kp.explained_variance_ratio_))], 7),
           "", "Scores:", scores_report(names, scores, ids, "table")]
    return "\n".join(out)
