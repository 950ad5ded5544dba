"""Comparing another Kernel PCA with the reference, with the kernel's own rounding in the error model.

``assert_kernel_pca_close(result, X, kernel=..., gamma=...)`` reads
scikit-learn's ``KernelPCA`` (``eigenvalues_``, ``eigenvectors_``,
``transform``) or kernlab's names (``eig``: eigenvalues divided by n;
``pcv``: eigenvectors divided by ``sqrt(eig)``, whose columns therefore
have length ``sqrt(n/μ)``; ``rotated``: the training scores, ``√n`` times
scikit-learn's) and compares them with the reference computed at 30 digits
(cached per data set and kernel).

The error model: a correct implementation evaluates each kernel entry to
a few roundings *of a stable formula* (``‖x - y‖²`` from the differences,
which are exact for nearby points, not ``|x|² + |y|² - 2x·y``): for the
rbf kernel ``eps·(1 + γ‖x - y‖²)·k(x, y)``, for a polynomial one
``degree·eps·(γ|x|·|y| + |c_0|)·|base|^(degree-1)``, and so on; the
eigensolver adds ``eps·sqrt(n)·μ_1``, centring ``eps·n·max|K|``.  The
eigenvalue tolerance is the Frobenius norm of all of it (a bound on the
spectral norm of the perturbation, Weyl), the angle tolerance that over
the gap (Davis–Kahan), and eigenvalues closer than their tolerances are
compared as one subspace.

>>> X = [[0.0, 0.0], [1.0, 0.2], [0.3, 1.1], [2.0, 2.1], [1.4, 0.4]]
>>> ref = kernel_reference(X, kernel="rbf", gamma=0.5)
>>> theirs = {"eigenvalues_": ref.eigenvalues_[:2], "eigenvectors_": [list(r) for r in zip(*ref.vectors[:2])]}
>>> assert_kernel_pca_close(theirs, X, kernel="rbf", gamma=0.5)
>>> theirs["eigenvalues_"] = [ref.eigenvalues_[0] * (1 + 1e-9), ref.eigenvalues_[1]]
>>> assert_kernel_pca_close(theirs, X, kernel="rbf", gamma=0.5)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
AssertionError: Kernel PCA differs from the reference (rbf kernel, convention sklearn):
  eigenvalues_[0]: ... off by ... (tolerance ...; ... digits lost)
"""

from __future__ import annotations

import math
import warnings
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Optional

from ..errors import PurePCAError
from ..numeric import FLOAT
from ..params import _not_one_of, as_int, as_real
from .compare import _K_ANGLE, Check, _digits_lost, _model_clusters, _vector
from .geometry import _rows, subspace_distance
from .answer import _fingerprint

__all__ = ["KernelReference", "assert_kernel_pca_close", "compare_kernel_pca", "kernel_reference"]

_EPS = 2.0 ** -52
_K_KERNEL = 4.0  # safety factor over the kernel's rounding (calibrated on scikit-learn's dense and arpack solvers)
_CACHE: "OrderedDict[tuple[Any, ...], KernelReference]" = OrderedDict()
_KERNELS = ("linear", "poly", "rbf", "sigmoid", "cosine", "laplacian")


@dataclass
class KernelReference:
    """The reference Kernel PCA of X: every positive eigenvalue (scikit-learn's μ, the eigenvalues of the
    centred kernel), the unit eigenvectors as rows (n entries each), the fitted model (for the scores of
    new points) and the size of a correct implementation's error (``perturbation``, a bound on the
    spectral norm of what rounding does to the centred kernel)."""

    kernel: str
    params: dict[str, Any]
    eigenvalues_: list[float]
    vectors: list[list[float]]
    perturbation: float
    entry_error: list[list[float]]
    model: Any = field(repr=False, default=None)


def _entry_errors(X: list[list[float]], kernel: str, gamma: float, degree: int, coef0: float,
                  K: list[list[float]]) -> list[list[float]]:
    """A few roundings of a stable evaluation of each kernel entry."""
    try:
        out = _entry_errors_of(X, kernel, gamma, degree, coef0, K)
    except (OverflowError, ValueError):
        out = [[math.inf]]
    if not all(math.isfinite(e) for row in out for e in row):
        raise PurePCAError("kernel_reference: the rounding errors of the kernel entries are beyond the float range "
                           "(the data are too large for this kernel); scale the data down")
    return out


def _entry_errors_of(X: list[list[float]], kernel: str, gamma: float, degree: int, coef0: float,
                     K: list[list[float]]) -> list[list[float]]:
    n = len(X)
    out = [[0.0] * n for _ in range(n)]
    norms = [math.sqrt(math.fsum(x * x for x in row)) for row in X]
    d = len(X[0])
    for i in range(n):
        for j in range(i, n):
            k = abs(K[i][j])
            if kernel == "linear":
                e = d * _EPS * norms[i] * norms[j]
            elif kernel == "poly":
                base = gamma * math.fsum(a * b for a, b in zip(X[i], X[j])) + coef0
                e = degree * _EPS * (d * gamma * norms[i] * norms[j] + abs(coef0)) * abs(base) ** (degree - 1)
            elif kernel == "rbf":
                s = math.fsum((a - b) * (a - b) for a, b in zip(X[i], X[j]))
                e = _EPS * (1 + d * gamma * s) * k if k > 0 else 0.0  # exp(-s) underflowed to 0: exact
            elif kernel == "laplacian":
                s = math.fsum(abs(a - b) for a, b in zip(X[i], X[j]))
                e = _EPS * (1 + d * gamma * s) * k if k > 0 else 0.0
            elif kernel == "sigmoid":
                e = _EPS * (d * gamma * norms[i] * norms[j] + abs(coef0) + 1)
            else:  # cosine
                e = d * _EPS * (1 + k)
            out[i][j] = out[j][i] = e + _EPS * k
    return out


def kernel_reference(X: Any, *, kernel: str = "linear", gamma: Optional[float] = None, degree: int = 3,
                     coef0: float = 1.0, digits: int = 30) -> KernelReference:
    """The reference Kernel PCA of ``X`` at ``digits`` digits (cached per data set and kernel).

    >>> ref = kernel_reference([[0.0, 0.0], [1.0, 0.0], [0.0, 2.0]], kernel="linear")
    >>> [round(v, 12) for v in ref.eigenvalues_]
    [2.868517091821, 0.464816241512]
    """
    from ..kernel_pca import KernelPCA
    from ..kernels import check_kernel_params, kernel_matrix

    if kernel not in _KERNELS:
        raise _not_one_of("kernel", _KERNELS, kernel)
    rows = _rows(X, "X")
    gamma, degree, coef0 = check_kernel_params(gamma, degree, coef0)
    digits = as_int(digits, "kernel_reference: digits")
    key = (_fingerprint(rows), kernel, gamma, degree, coef0, digits)
    hit = _CACHE.get(key)
    if hit is not None:
        return hit
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = KernelPCA(None, kernel=kernel, gamma=gamma, degree=degree, coef0=coef0, precision=digits,
                          negative="drop", eigen_solver="jacobi").fit(rows)
    hp = model.high_precision_
    assert hp is not None
    values = [float(v) for v in hp["eigenvalues_"]]
    vectors = [[float(row[j]) for row in hp["eigenvectors_"]] for j in range(len(values))]
    fitted_gamma = getattr(model, "gamma_", None)
    g = float(fitted_gamma) if fitted_gamma is not None else (gamma or 1.0 / len(rows[0]))
    K = kernel_matrix(rows, kernel=kernel, gamma=g, degree=degree, coef0=coef0)
    E = _entry_errors(rows, kernel, g, degree, coef0, K)
    n = len(rows)
    top_e = max(e for r in E for e in r)  # the norm without a square to overflow
    frob = top_e * math.sqrt(math.fsum((e / top_e) ** 2 for r in E for e in r)) if top_e > 0 else 0.0
    top_k = max(abs(x) for r in K for x in r)
    perturbation = frob + n * _EPS * top_k + math.sqrt(n) * _EPS * (values[0] if values else 0.0)
    ref = KernelReference(kernel, {"gamma": g, "degree": degree, "coef0": coef0}, values, vectors, perturbation,
                          E, model)
    _CACHE[key] = ref
    while len(_CACHE) > 16:
        _CACHE.popitem(last=False)
    return ref


def _get(result: Any, name: str) -> Any:
    if isinstance(result, dict):
        return result.get(name)
    value = getattr(result, name, None)
    return value() if callable(value) and name in ("eig", "pcv", "rotated") else value


def _fitted_kernel(result: Any) -> dict[str, Any]:
    """The kernel a fitted estimator (scikit-learn's or purepca's ``KernelPCA``) was fitted with: kernel,
    gamma (the fitted ``gamma_`` where there is one), degree and coef0; empty for a dict or R's lists."""
    if isinstance(result, dict) or not hasattr(result, "kernel") or not hasattr(result, "eigenvalues_"):
        return {}
    name = result.kernel
    if not isinstance(name, str) or name not in _KERNELS:
        raise PurePCAError(f"the estimator's kernel is {name!r}; the reference knows {', '.join(map(repr, _KERNELS))}")
    found: dict[str, Any] = {"kernel": name}
    gamma = getattr(result, "gamma_", None)
    gamma = getattr(result, "gamma", None) if gamma is None else gamma
    if gamma is not None:
        found["gamma"] = float(gamma)
    for attr, kind in (("degree", int), ("coef0", float)):
        value = getattr(result, attr, None)
        if value is not None:
            found[attr] = kind(value)
    return found


def _kernel_params(result: Any, kernel: Optional[str], gamma: Optional[float], degree: Optional[int],
                   coef0: Optional[float]) -> tuple[str, Optional[float], int, float]:
    """The kernel to compare under: the estimator's own where it is one, the caller's (which must agree
    with it) otherwise, then the defaults (linear, gamma 1/d, degree 3, coef0 1)."""
    fitted = _fitted_kernel(result)
    given = {"kernel": kernel, "gamma": gamma, "degree": degree, "coef0": coef0}
    for name, value in given.items():
        if value is None or name not in fitted:
            continue
        if name == "gamma" and fitted["kernel"] in ("linear", "cosine"):
            continue  # not used by these kernels
        same = value == fitted[name] if name == "kernel" else math.isclose(float(value), fitted[name], rel_tol=1e-12)
        if not same:
            raise PurePCAError(f"{name}={value!r} given, but the estimator was fitted with {name}={fitted[name]!r}; "
                               f"leave {name} out to compare under the estimator's own")
    used_kernel: str = kernel if kernel is not None else fitted.get("kernel", "linear")
    used_gamma: Optional[float] = gamma if gamma is not None else fitted.get("gamma")
    used_degree: int = degree if degree is not None else fitted.get("degree", 3)
    used_coef0: float = coef0 if coef0 is not None else fitted.get("coef0", 1.0)
    return used_kernel, used_gamma, used_degree, used_coef0


def compare_kernel_pca(result: Any, X: Any, *, kernel: Optional[str] = None, gamma: Optional[float] = None,
                       degree: Optional[int] = None, coef0: Optional[float] = None, convention: str = "sklearn",
                       points: Any = None, rtol: Optional[float] = None,
                       ref: Optional[KernelReference] = None) -> list[Check]:
    """Every comparison :func:`assert_kernel_pca_close` makes, passed or not.

    A fitted estimator's own kernel, gamma, degree and coef0 are used (a
    value given that contradicts them is an error); otherwise the defaults
    are the linear kernel, gamma ``1/d``, degree 3 and coef0 1.

    >>> X = [[0.0, 0.0], [1.0, 0.0], [0.0, 2.0]]
    >>> [c.passed for c in compare_kernel_pca({"eigenvalues_": [2.86851709182133, 0.5]}, X)]
    [True, False]
    """
    kernel, gamma, degree, coef0 = _kernel_params(result, kernel, gamma, degree, coef0)
    if convention not in ("sklearn", "kernlab"):
        raise PurePCAError(f"convention must be 'sklearn' or 'kernlab'; got {convention!r}")
    rtol = None if rtol is None else as_real(rtol, "rtol", low=0.0, low_open=True)
    if ref is not None and not isinstance(ref, KernelReference):
        raise PurePCAError(f"ref must be a KernelReference (kernel_reference(X)), got {type(ref).__name__}")
    rows = _rows(X, "X")
    n = len(rows)
    r = ref if ref is not None else kernel_reference(rows, kernel=kernel, gamma=gamma, degree=degree, coef0=coef0)
    mu, vecs, scores = _their_answer(result, convention, n)
    values = r.eigenvalues_
    k = min(len(mu if mu is not None else vecs or []), len(values))
    top = values[0] if values else 0.0
    tol = [(rtol * abs(v) + rtol * _EPS * top) if rtol is not None else _K_KERNEL * r.perturbation for v in values]
    checks = _eigenvalue_checks(mu[:k] if mu is not None else [], values, tol, convention, n)
    clusters = _model_clusters(values, tol)
    allowed_of = _allowed_angles(clusters, values, tol, n)
    if vecs is not None:
        checks += _eigenvector_checks(vecs, r.vectors, clusters, allowed_of, k)
    # Scores: kernlab's rotated (training rows), or transform of the given points.
    got, P = _their_scores(result, scores, points, rows, convention, n)
    if got is not None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want_rows = r.model.transform(P) if points is not None else [
                [v[i] * math.sqrt(values[j]) for j, v in enumerate(r.vectors)] for i in range(n)]
        entry = max(max(row) for row in r.entry_error) if r.entry_error else 0.0
        for j in range(min(k, len(got[0]) if got else 0)):
            if len([c for c in clusters if j in c][0]) == 1 and values[j] > tol[j]:
                checks.append(_score_check(j, [g[j] for g in got], [w[j] for w in want_rows], values[j], tol[j],
                                           allowed_of[j], entry, n))
    return checks


def _their_answer(result: Any, convention: str, n: int) -> tuple[Optional[list[float]], Optional[list[list[float]]],
                                                                  Optional[list[list[float]]]]:
    """Their answer as μ (raw eigenvalues), unit eigenvectors (rows of n entries) and kernlab's training
    scores in scikit-learn's scale (None where the answer does not give them)."""
    if convention == "kernlab" or _get(result, "eig") is not None:
        eig = _get(result, "eig")
        mu = [v * n for v in _vector(eig, "eig")] if eig is not None else None
        pcv = _get(result, "pcv")
        vecs = None
        if pcv is not None and mu is not None:
            cols = [list(c) for c in zip(*_rows(pcv, "pcv"))]
            vecs = [[x * math.sqrt(m / n) for x in col] for col, m in zip(cols, mu)]
        rotated = _get(result, "rotated")
        scores = ([[x / math.sqrt(n) for x in row] for row in _rows(rotated, "rotated")]
                  if rotated is not None else None)
    else:
        ev = _get(result, "eigenvalues_")
        mu = _vector(ev, "eigenvalues_") if ev is not None else None
        vv = _get(result, "eigenvectors_")
        vecs = [list(c) for c in zip(*_rows(vv, "eigenvectors_"))] if vv is not None else None
        scores = None
    if mu is None and vecs is None:
        raise PurePCAError("compare_kernel_pca: the result has neither eigenvalues (eigenvalues_ or eig) nor "
                           "eigenvectors (eigenvectors_ or pcv)")
    return mu, vecs, scores


def _eigenvalue_checks(mu: list[float], values: list[float], tol: list[float], convention: str,
                       n: int) -> list[Check]:
    """One check per given eigenvalue, in the convention's units (kernlab's ``eig`` is μ/n)."""
    checks: list[Check] = []
    for i in range(len(mu)):
        err = abs(mu[i] - values[i])
        ok = err <= tol[i]
        shown = mu[i] if convention == "sklearn" else mu[i] / n
        want = values[i] if convention == "sklearn" else values[i] / n
        name = "eigenvalues_" if convention == "sklearn" else "eig"
        scale = 1.0 if convention == "sklearn" else 1.0 / n
        note = "" if ok else (f"{name}[{i}]: {shown!r} off by {err * scale:.3g} from {want!r} (tolerance "
                              f"{tol[i] * scale:.3g}; {_digits_lost(err, abs(values[i]))} digits lost)")
        checks.append(Check(f"{name}[{i}]", ok, err * scale, tol[i] * scale, _digits_lost(err, abs(values[i])), note))
    return checks


def _allowed_angles(clusters: list[list[int]], values: list[float], tol: list[float], n: int) -> dict[int, float]:
    """The angle each eigenvector (each cluster's span) may be off by: the eigenvalues' tolerances over
    the gap to the rest of the spectrum (Davis–Kahan), the zero eigenvalues of the centred kernel (the
    constant vector, and any rank deficiency) among the rest."""
    allowed_of: dict[int, float] = {}
    for cluster in clusters:
        worst = 0.0
        for i in cluster:
            for j in range(len(values)):
                if j not in cluster:
                    gap = abs(values[i] - values[j])
                    worst = max(worst, _K_ANGLE * (tol[i] + tol[j]) / gap if gap > 0 else math.inf)
        worst = max(worst, _K_ANGLE * tol[cluster[-1]] / values[cluster[-1]] if values[cluster[-1]] > 0 else math.inf)
        allowed = min(math.pi / 2, worst + 8 * _EPS * math.sqrt(n))
        for i in cluster:
            allowed_of[i] = allowed
    return allowed_of


def _eigenvector_checks(vecs: list[list[float]], reference: list[list[float]], clusters: list[list[int]],
                        allowed_of: dict[int, float], k: int) -> list[Check]:
    """One check per cluster wholly among the k given eigenvectors: the angle between the spans."""
    checks: list[Check] = []
    for cluster in clusters:
        inside = [i for i in cluster if i < k]
        if not inside or len(inside) < len(cluster):
            continue
        allowed = allowed_of[cluster[0]]
        label = f"eigenvectors_[:, {inside[0]}]" if len(inside) == 1 else f"eigenvectors_[:, {inside[0]}..{inside[-1]}]"
        try:
            angle = subspace_distance([vecs[i] for i in inside], [reference[i] for i in inside])
        except PurePCAError as problem:
            checks.append(Check(label, False, math.nan, allowed, "-", f"{label}: {problem}"))
            continue
        ok = angle <= allowed
        checks.append(Check(label, ok, angle, allowed, _digits_lost(angle, 1.0), "" if ok else (
            f"{label}: at an angle of {angle:.3g} rad from the reference (allowed {allowed:.3g})")))
    return checks


def _their_scores(result: Any, scores: Optional[list[list[float]]], points: Any, rows: list[list[float]],
                  convention: str, n: int) -> tuple[Optional[list[list[float]]], list[list[float]]]:
    """The scores to compare (kernlab's training scores, or ``result.transform(points)``) and the rows
    they are of."""
    if points is None:
        return scores, rows
    transform = result.get("transform") if isinstance(result, dict) else getattr(result, "transform", None)
    if transform is None:
        raise PurePCAError("compare_kernel_pca: points given, but the result has no transform")
    P = _rows(points, "points")
    got = _rows(transform(P), "transform(points)")
    if convention == "kernlab":
        got = [[x / math.sqrt(n) for x in row] for row in got]
    return got, P


def _score_check(j: int, got: list[float], want: list[float], mu_j: float, tol_j: float, angle: float,
                 entry: float, n: int) -> Check:
    """Column j of the scores against the reference's, up to sign, judged by its worst row relative to that
    row's tolerance (the kernel entries' rounding, the eigenvector's angle, the eigenvalue's tolerance)."""
    sgn = 1 if FLOAT.dot(got, want) >= 0 else -1
    worst_err, worst_allowed, worst_row = 0.0, 0.0, 0
    for row, (g, w) in enumerate(zip(got, want)):
        size = math.sqrt(mu_j) * 4 + abs(w)
        allowed = (_K_KERNEL * entry * math.sqrt(n) / math.sqrt(mu_j) + angle * size
                   + abs(w) * tol_j / mu_j + 8 * _EPS * size)
        e_row = abs(g - sgn * w)
        if e_row / allowed > (worst_err / worst_allowed if worst_allowed else -1.0):
            worst_err, worst_allowed, worst_row = e_row, allowed, row
    err, allowed, row = worst_err, worst_allowed, worst_row
    ok = err <= allowed
    label = f"scores[:, {j}]"
    return Check(label, ok, err, allowed, _digits_lost(err, math.sqrt(mu_j)), "" if ok else (
        f"{label}: row {row} off by {err:.3g} (tolerance {allowed:.3g}; "
        f"{_digits_lost(err, math.sqrt(mu_j))} digits lost)"))


def assert_kernel_pca_close(result: Any, X: Any, *, kernel: Optional[str] = None, gamma: Optional[float] = None,
                            degree: Optional[int] = None, coef0: Optional[float] = None, convention: str = "sklearn",
                            points: Any = None, rtol: Optional[float] = None,
                            ref: Optional[KernelReference] = None) -> None:
    """Check another Kernel PCA's answer on ``X``; raise ``AssertionError`` naming each mismatch.

    ``result``: a fitted scikit-learn ``KernelPCA`` (or a dict of its
    ``eigenvalues_``, ``eigenvectors_``), or kernlab's ``eig``, ``pcv`` and
    ``rotated`` with ``convention="kernlab"``.  ``points``: new rows whose
    ``result.transform`` is compared too.  Signs of eigenvectors are free
    (no library fixes them); a fitted estimator's own kernel, gamma, degree
    and coef0 are read from it.  Eigenvalues the kernel's rounding cannot tell
    apart are compared as one subspace.  ``rtol`` sets a relative tolerance
    instead (printed numbers).

    >>> X = [[0.0, 0.0], [1.0, 0.0], [0.0, 2.0]]
    >>> assert_kernel_pca_close({"eigenvalues_": [2.8685171]}, X, rtol=1e-7)   # printed to 8 digits
    """
    __tracebackhide__ = True  # pytest shows the failures, not this function's source and docstring
    checks = compare_kernel_pca(result, X, kernel=kernel, gamma=gamma, degree=degree, coef0=coef0,
                                convention=convention, points=points, rtol=rtol, ref=ref)
    kernel = _kernel_params(result, kernel, gamma, degree, coef0)[0]
    problems = [c.line() for c in checks if not c.passed]
    if problems:
        raise AssertionError(f"Kernel PCA differs from the reference ({kernel} kernel, convention {convention}):\n  "
                             + "\n  ".join(problems))
