"""FactoMineR's published PCA of its decathlon example (issue 11, acceptance 1): every number that
``summary(PCA(decathlon, quanti.sup = 11:12, quali.sup = 13))`` prints, to the digits it prints,
signs included, from ``PCA(convention="factominer", scale=True)``."""

from __future__ import annotations

from typing import Optional

import pytest

from purepca import PCA
from purepca.datasets import PublishedFactoMineR, load


def _printed(value: float, shown: str) -> bool:
    """``value`` printed with the decimals of ``shown`` is ``shown`` (R prints -0.000 as 0.000)."""
    decimals = len(shown.split(".")[1])
    text = f"{value:.{decimals}f}"
    return text == shown or (text == "-" + shown and float(shown) == 0.0)


def _mismatches(pca: PCA, data_rows: list[list[float]], labels: list[str], fm: PublishedFactoMineR,
                seen: Optional[list[str]] = None) -> list[str]:
    X = [row[:10] for row in data_rows]
    S = [row[10:] for row in data_rows]
    bad = []

    def check(what: str, got: float, shown: str) -> None:
        if seen is not None:
            seen.append(what)
        if not _printed(got, shown):
            bad.append(f"{what}: {got!r} printed {shown}")

    ratios = pca.explained_variance_ratio_
    for i, (e, p, c) in enumerate(zip(fm.eigenvalues, fm.percent, fm.cumulative)):
        check(f"eigenvalue {i + 1}", pca.explained_variance_[i], e)
        check(f"% of var. {i + 1}", 100 * ratios[i], p)
        check(f"cumulative % {i + 1}", 100 * sum(ratios[: i + 1]), c)
    coords, dists, cos2 = pca.row_coordinates(X), pca.row_distances(X), pca.row_cos2(X)
    ctr = pca.row_contributions_
    for name, shown in fm.individuals.items():
        i = labels.index(name)
        got = [dists[i]] + [v for k in range(3) for v in (coords[i][k], ctr[i][k], cos2[i][k])]
        for what, g, s in zip(["Dist"] + [f"{t} {k + 1}" for k in range(3) for t in ("Dim", "ctr", "cos2")], got,
                              shown):
            check(f"{name} {what}", g, s)
    vc, vctr, vcos2 = pca.column_coordinates_, pca.column_contributions_, pca.column_cos2_
    for j, (name, shown) in enumerate(fm.variables.items()):
        got = [v for k in range(3) for v in (vc[j][k], vctr[j][k], vcos2[j][k])]
        for g, s in zip(got, shown):
            check(f"variable {name}", g, s)
    for j, (name, shown) in enumerate(fm.coordinates.items()):
        for k, s in enumerate(shown):
            check(f"var$coord {name} Dim.{k + 1}", vc[j][k], s)
    sup = pca.supplementary_columns(S)
    for j, (name, shown) in enumerate(fm.supplementary_results.items()):
        got = [v for k in range(3) for v in (sup["coord"][j][k], sup["cos2"][j][k])]
        for g, s in zip(got, shown):
            check(f"supplementary {name}", g, s)
        check(f"dimdesc {name}", sup["cor"][j][0], fm.correlations[name])
    groups = load("decathlon").groups
    assert groups is not None
    cats = pca.supplementary_categories(list(groups[1]))
    for name, shown in fm.categories.items():
        c = cats["levels"].index(name)
        got = [cats["dist"][c]] + [v for k in range(3)
                                   for v in (cats["coord"][c][k], cats["cos2"][c][k], cats["v_test"][c][k])]
        for g, s in zip(got, shown):
            check(f"category {name}", g, s)
    return bad


def test_every_printed_number_of_factominers_decathlon_pca() -> None:
    data = load("decathlon")
    fm = data.factominer
    assert fm is not None and data.columns[:10] == fm.active and data.columns[10:] == fm.supplementary
    X = [row[:10] for row in data.rows]
    pca = PCA(convention="factominer", scale=True).fit(X)
    seen: list[str] = []
    assert _mismatches(pca, data.rows, data.labels, fm, seen) == []
    # Every printed number was compared: 3 x 10 eigenvalue lines, 10 individuals x 10, 10 variables x 9,
    # 10 x 5 of var$coord, 2 supplementary columns x 6 and their 2 correlations of dimdesc, and the
    # 2 supplementary categories x 10.
    assert len(seen) == 30 + 100 + 90 + 50 + 12 + 2 + 20


@pytest.mark.parametrize("kwargs", [dict(convention="sklearn", scale=True),  # ddof 1: other eigenvalues
                                    dict(convention="factominer", scale=True, sign="first_positive"),
                                    dict(convention="factominer", scale=False)])
def test_the_comparison_fails_for_other_analyses(kwargs: dict) -> None:
    data = load("decathlon")
    pca = PCA(**kwargs).fit([row[:10] for row in data.rows])
    assert data.factominer is not None
    assert len(_mismatches(pca, data.rows, data.labels, data.factominer)) > 10


def test_decathlon_csv_and_cli_default_to_the_active_columns() -> None:
    data = load("decathlon")
    header = data.to_csv().splitlines()[0].split(",")
    assert header[0] == "name" and header[-1] == "Competition" and len(header) == 14
    assert data.groups is not None and sorted(set(data.groups[1])) == ["Decastar", "OlympicG"]
    assert len(data.rows) == 41 and data.labels[:2] == ["SEBRLE", "CLAY"]
