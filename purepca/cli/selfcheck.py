"""``purepca check``: the published numbers and golden cases, with the standard library only.
"""

from __future__ import annotations

import math
import warnings
from typing import Sequence
from ..datasets import DATASETS, load, toy_data
from ..errors import DegenerateEigenvalueWarning
from ..kernel_pca import KernelPCA
from ..pca import PCA

__all__: list[str] = []  # the package's own module: purepca.cli re-exports what is public


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
    from ..golden import golden_cases

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
    from ..linalg import jacobi_eigh, tridiagonal_eigh

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
        checks.append((err < 1e-15, f"{solver.__name__} on the 3 x 3 second difference matrix: error {err:.1e} "
                                    "(below 1e-15)"))
    return checks
