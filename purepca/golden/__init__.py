"""The golden cases: inputs and their PCA and Kernel PCA computed at 50 digits, as JSON files.

A corpus for testing any PCA, in any language: each file in this folder is
one case (its data, and the expected results under every convention where
they apply), written as plain JSON with numbers as decimal strings, so that
a reader needs no Python (the format is described in ``docs/golden.md``).

================================  ==========================================
``golden_cases()``                the cases, read from the files
``build_cases()``                 the cases computed afresh at 50 digits
``write_cases(folder)``           write them (``python -m purepca.golden``)
================================  ==========================================

The files are generated, never edited: ``python -m purepca.golden`` writes
them again, and a test checks that it gives the same bytes.

>>> cases = golden_cases()
>>> toy = next(c for c in cases if c["name"] == "toy")
>>> toy["format"], toy["version"], toy["kind"], len(toy["input"]["X"])
('purepca-golden', 1, 'pca', 10)
>>> sk = next(r for r in toy["results"] if r["convention"] == "sklearn")
>>> sk["expected"]["explained_variance_"][0][:22]
'1.28402771217278381127'
"""

from __future__ import annotations

import json
import os
import pathlib
import random
import warnings
from decimal import Decimal, localcontext
from importlib import resources
from typing import Any, Callable, Optional, Sequence

from ..datasets import toy_data
from ..errors import PurePCAError
from ..numeric import owned_context

__all__ = ["FORMAT", "VERSION", "build_cases", "golden_cases", "write_cases"]

FORMAT = "purepca-golden"
#: Bumped whenever the layout of a file changes (not when a number does).
VERSION = 1
DIGITS = 50
FOLDER = os.path.dirname(os.path.abspath(__file__))

# The conventions each PCA case is computed under, with the scaling each
# applies; (convention, scale) pairs.
_PCA_RUNS = (
    ("sklearn", False), ("prcomp", False), ("prcomp", True), ("princomp", False), ("factominer", True),
    ("statsmodels", True), ("numpy", False),
)


def _text(value: Any) -> Any:
    """Decimals as strings of their 50 digits; lists element by element."""
    if isinstance(value, list):
        return [_text(v) for v in value]
    if value is None:
        return None
    return str(value) if isinstance(value, Decimal) else repr(float(value))


def _rows_text(X: list[list[float]]) -> list[list[str]]:
    return [[repr(float(v)) for v in row] for row in X]


def _clusters(values: list[Decimal]) -> list[list[int]]:
    """Eigenvalues equal to within 1e-30 of the largest: their vectors are a subspace, not vectors.
    The rule of :func:`purepca.testing.eigen_clusters` (neighbours within tol times the largest), on
    the 50-digit values themselves: eigen_clusters reads floats, which cannot tell 1e-30 apart."""
    if not values:
        return []
    limit = Decimal("1e-30") * max(abs(v) for v in values)
    out = [[0]]
    for i in range(1, len(values)):
        if abs(values[i - 1] - values[i]) <= limit:
            out[-1].append(i)
        else:
            out.append([i])
    return out


def _pca_result(X: list[list[float]], convention: str, scale: bool) -> dict[str, Any]:
    from ..pca import PCA

    entry: dict[str, Any] = {"convention": convention, "scale": scale, "n_components": None}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fitted = PCA(convention=convention, scale=scale, precision=DIGITS).fit(X)
    except PurePCAError as err:
        entry["error"] = str(err)
        return entry
    hp = fitted.high_precision_
    assert hp is not None
    keys = ("explained_variance_", "explained_variance_ratio_", "singular_values_", "mean_", "components_",
            "noise_variance_")
    entry["expected"] = {key: _text(hp[key]) for key in keys}
    if hp.get("scale_") is not None:
        entry["expected"]["scale_"] = _text(hp["scale_"])
    entry["clusters"] = _clusters(list(hp["explained_variance_"]))
    return entry


def _kernel_result(X: list[list[float]], params: dict[str, Any], convention: str) -> dict[str, Any]:
    from ..kernel_pca import KernelPCA

    entry: dict[str, Any] = {"convention": convention, "params": params}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fitted = KernelPCA(convention=convention, precision=DIGITS, negative="drop", **params).fit(X)
    hp = fitted.high_precision_
    assert hp is not None
    values = list(hp["eigenvalues_"])
    vectors = hp["eigenvectors_"]  # n x k
    # The scores of the training rows, sqrt(eigenvalue) times the unit eigenvectors (scikit-learn's
    # fit_transform; kernlab's rotated is the same with its eigenvalues times n).
    n = len(X)
    with localcontext(owned_context()) as ctx:  # a fresh context: none of the caller's traps or limits
        ctx.prec = DIGITS
        mu = values if convention == "sklearn" else [v * n for v in values]
        roots = [m.sqrt() for m in mu]
        scores = [[vectors[i][j] * roots[j] for j in range(len(values))] for i in range(n)]
    entry["expected"] = {"eigenvalues_": _text(values), "eigenvectors_": _text(vectors), "scores": _text(scores)}
    entry["clusters"] = _clusters(values)
    return entry


def _gauss_rows(seed: int, n: int, d: int, f: Callable[[random.Random, int], float]) -> list[list[float]]:
    rng = random.Random(seed)
    return [[f(rng, j) for j in range(d)] for _ in range(n)]


def _pca_inputs() -> list[tuple[str, str, list[list[float]]]]:
    """(name, description, X) of every PCA case."""
    cases: list[tuple[str, str, list[list[float]]]] = [
        ("toy", "seed 003's ten points in the plane (R's prcomp example)", toy_data()),
    ]
    rng = random.Random(1)
    basis = [[rng.gauss(0, 1) for _ in range(5)] for _ in range(2)]
    rank2 = [[round(a * u + b * v, 6) for u, v in zip(*basis)] for a, b in
             ((rng.gauss(0, 2), rng.gauss(0, 1)) for _ in range(12))]
    cases.append(("rank_deficient", "12 x 5 of rank 2 (rounded to 6 decimals, so nearly): three eigenvalues are "
                  "(nearly) zero", rank2))
    wide = _gauss_rows(2, 6, 9, lambda r, j: round(r.gauss(0, 1 + j), 3))
    cases.append(("wide", "6 x 9: fewer rows than columns", wide))
    const = _gauss_rows(3, 10, 4, lambda r, j: 7.5 if j == 1 else round(r.gauss(0, 1), 4))
    cases.append(("constant_column", "10 x 4 with column 1 constant (7.5): no scaling possible", const))
    near = _gauss_rows(4, 10, 3, lambda r, j: 7.5 + (1e-13 * r.gauss(0, 1) if j == 1 else 0) + (
        round(r.gauss(0, 1), 4) if j != 1 else 0))
    cases.append(("nearly_constant_column", "10 x 3 with column 1 varying by about 1e-13", near))
    for exponent in (6, 9, 12):
        offset = 10.0 ** exponent
        X = _gauss_rows(5, 15, 3, lambda r, j: offset + round(r.gauss(0, j + 1), 3))  # noqa: B023 (called now)
        cases.append((f"offset_1e{exponent}", f"15 x 3 at an offset of 1e{exponent} (spread 1 to 3)", X))
    t_rng = random.Random(6)
    collinear = []
    for _ in range(20):
        t = t_rng.gauss(0, 1)
        collinear.append([t + 1e-7 * t_rng.gauss(0, 1), t + 1e-7 * t_rng.gauss(0, 1), t_rng.gauss(0, 1)])
    cases.append(("nearly_collinear", "20 x 3: two columns equal to 1e-7", collinear))
    s_rng = random.Random(7)
    dirs = [[s_rng.gauss(0, 1) for _ in range(6)] for _ in range(2)]
    strong = []
    for _ in range(25):
        a, b = s_rng.gauss(0, 1e3), s_rng.gauss(0, 10)
        strong.append([a * dirs[0][j] + b * dirs[1][j] + 1e-3 * s_rng.gauss(0, 1) for j in range(6)])
    cases.append(("small_noise_strong_directions", "25 x 6: two strong directions (1e3, 10) and noise 1e-3", strong))
    square = [[1.0, 0.0, 0.0], [-1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, 0.5], [0.0, 0.0, -0.5]]
    cases.append(("repeated_eigenvalues", "6 x 3, symmetric: the first two eigenvalues are equal (compare the "
                  "subspace they span)", square))
    base = _gauss_rows(8, 8, 3, lambda r, j: round(r.gauss(0, 1), 3))
    cases.append(("near_overflow", "8 x 3 scaled by 1e150: variances near 1e300",
                  [[v * 1e150 for v in row] for row in base]))
    cases.append(("near_underflow", "8 x 3 scaled by 1e-150: variances near 1e-300",
                  [[v * 1e-150 for v in row] for row in base]))
    cases.append(("integers", "12 x 4 of small integers", _gauss_rows(9, 12, 4, lambda r, j: float(r.randint(-5, 9)))))
    return cases


_KERNELS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("linear", {"kernel": "linear"}),
    ("poly", {"kernel": "poly", "degree": 2, "gamma": 0.5, "coef0": 1.0}),
    ("rbf", {"kernel": "rbf", "gamma": 0.5}),
    ("sigmoid", {"kernel": "sigmoid", "gamma": 0.1, "coef0": 0.0}),
    ("cosine", {"kernel": "cosine"}),
    ("laplacian", {"kernel": "laplacian", "gamma": 0.5}),
)


def build_cases() -> list[dict[str, Any]]:
    """Every case, computed afresh at 50 digits (a few seconds)."""
    out = []
    for name, description, X in _pca_inputs():
        out.append({
            "format": FORMAT, "version": VERSION, "name": name, "kind": "pca", "description": description,
            "digits": DIGITS, "input": {"X": _rows_text(X)},
            "results": [_pca_result(X, convention, scale) for convention, scale in _PCA_RUNS],
        })
    X = toy_data()
    for label, params in _KERNELS:
        out.append({
            "format": FORMAT, "version": VERSION, "name": f"kernel_{label}", "kind": "kernel_pca",
            "description": f"Kernel PCA of seed 003's ten points, {label} kernel", "digits": DIGITS,
            "input": {"X": _rows_text(X)},
            "results": [_kernel_result(X, dict(params, n_components=2), conv) for conv in ("sklearn", "kernlab")],
        })
    shifted = [[v + 1e6 for v in row] for row in X]
    out.append({
        "format": FORMAT, "version": VERSION, "name": "kernel_rbf_offset_1e6", "kind": "kernel_pca",
        "description": "rbf Kernel PCA of seed 003's points moved by 1e6: |x|^2 + |y|^2 - 2xy loses 4 digits here",
        "digits": DIGITS, "input": {"X": _rows_text(shifted)},
        "results": [_kernel_result(shifted, {"kernel": "rbf", "gamma": 0.5, "n_components": 2}, "sklearn")],
    })
    return out


def _dump(case: dict[str, Any]) -> str:
    return json.dumps(case, indent=1, sort_keys=False) + "\n"


def write_cases(folder: Optional[str] = None) -> list[str]:
    """Write every case as ``<name>.json`` in ``folder`` (this package's folder by default) through the one
    file door (:func:`purepca.files.write_output`, its targets checked by :func:`~purepca.files.folder_targets`,
    as the certified corpus's :func:`~purepca.certified.build.write_cases`); the paths written.

    >>> import tempfile
    >>> paths = write_cases(tempfile.mkdtemp())   # doctest: +SKIP
    """
    folder = FOLDER if folder is None else folder
    if not isinstance(folder, str) or not os.path.isdir(folder):  # before 50 digits of work, not after
        raise PurePCAError(f"golden: the folder must be an existing directory, got {folder!r}")
    from ..files import folder_targets, write_output

    cases = build_cases()
    paths = folder_targets(folder, [case["name"] + ".json" for case in cases], "the golden cases")
    for case, path in zip(cases, paths):
        write_output(_dump(case).encode("utf-8"), path)  # bytes: written as they are
    return paths


def golden_cases(folder: Optional[str] = None, names: Optional[Sequence[str]] = None) -> list[dict[str, Any]]:
    """The golden cases as dicts, read from the JSON files (sorted by name).

    Each has ``name``, ``kind`` (``"pca"`` or ``"kernel_pca"``),
    ``description``, ``digits``, ``input`` (``X`` as decimal strings, each the
    shortest text that reads back as the float used) and ``results``: one
    per convention, with ``expected`` (the attributes as 50-digit strings),
    ``clusters`` (groups of equal eigenvalues, whose vectors are to be
    compared as a subspace) or ``error`` (what purepca says instead).

    The files are read through :mod:`importlib.resources`, so the cases load
    from a wheel, a zip file or a zipapp as from a folder; ``folder`` reads
    another folder instead, ``names`` only the cases named.

    >>> len(golden_cases()) >= 20
    True
    >>> [c["name"] for c in golden_cases(names=["toy", "wide"])]
    ['toy', 'wide']
    """
    if folder is not None and not isinstance(folder, (str, os.PathLike)):
        raise PurePCAError(f"golden_cases: folder must be a folder's name (a str or a path), got {folder!r:.60}")
    if names is not None and (isinstance(names, str) or not isinstance(names, (list, tuple, set, frozenset))
                              or not all(isinstance(n, str) for n in names)):
        raise PurePCAError(f"golden_cases: names must be a list of case names (str), got {names!r:.60}")
    if folder is None:
        entries = [(e.name, e) for e in resources.files(__name__).iterdir()]
    else:
        try:
            entries = [(name, pathlib.Path(folder, name)) for name in os.listdir(folder)]
        except OSError as err:
            raise PurePCAError(f"golden_cases: cannot read the folder {str(folder)!r:.60} ({err.strerror or err})") \
                from None
    wanted = None if names is None else {n + ".json" for n in names}
    cases = []
    for name, entry in sorted(entries, key=lambda e: e[0]):
        if not name.endswith(".json") or (wanted is not None and name not in wanted):
            continue
        case = json.loads(entry.read_text(encoding="utf-8"))
        if case.get("format") != FORMAT or case.get("version") != VERSION:
            raise PurePCAError(f"{name}: not a {FORMAT} file of version {VERSION}")
        cases.append(case)
    if wanted is not None and len(cases) != len(wanted):
        missing = sorted(w[:-5] for w in wanted - {c["name"] + ".json" for c in cases})
        raise PurePCAError(f"no golden case named {', '.join(missing)}")
    return cases
