"""Certifying a case twice and writing its files: ``python -m purepca.certified build``.

======================================  ================================================
``certify(case)``                       the certificate of one case (a dict, JSON-ready)
``case_csv(case)``                      its input as CSV text (the exact decimals)
``write_cases(names, folder)``          regenerate the files, bit for bit
======================================  ================================================

Every eigenvalue comes from two computations that share nothing but the
input: (a) bisection on exact inertia counts of the integer moment matrix
(:mod:`purepca.certified.inertia`), a rigorous enclosure 10^-34 wide; (b)
purepca's cyclic Jacobi (:func:`purepca.linalg.jacobi_eigh`) at
:data:`DIGITS` digits on the covariance rounded to that many digits.  The
certificate is written only when they agree to :data:`AGREE` digits; the
digits of agreement are stored.  Eigenvectors, projectors and scores come
from (b) and are checked against the exact matrix: the residual
``‖C·V - V·Λ‖_F`` of each cluster divided by its gap to the rest of the
spectrum bounds the sine of the largest principal angle between the
computed and the exact invariant subspace (Davis and Kahan, 1970).

The gap is measured from the computed eigenvalues of the cluster to the
enclosures of the others (rigorous), the residual against the exact
rational matrix in Fractions (for a correlation matrix, irrational, at
120 digits); the bound is to first order in the computed vectors' distance
from orthonormal (below 10^-80, asserted, and added to it).

Clusters are eigenvalues equal to the enclosure's digits (a repeated
eigenvalue, or the exact zeros of rank-deficient data); the certificate
gives a cluster's projector, not vectors that only a rotation fixes.
"""

from __future__ import annotations

import json
import math
import os
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal, localcontext
from fractions import Fraction
from typing import Any, Optional, Sequence

from ..conventions import CONVENTIONS
from ..errors import PurePCAError
from ..linalg import jacobi_eigh
from ..params import as_real
from ..numeric import DecimalContext, in_owned_decimal, owned_context, short_repr
from .cases import CASES, Case, build_case
from .inertia import enclose, exact_rank, moment_matrix, scaled_integers

__all__ = ["AGREE", "DIGITS", "STORED", "case_csv", "certify", "tier", "write_cases"]

#: Digits of the Jacobi computation (b); the enclosures (a) are 10^-ENCLOSE wide.
DIGITS = 100
ENCLOSE = 34
#: The digits (a) and (b) must agree to, and the significant digits stored.
AGREE = 30
STORED = 25

FORMAT = "purepca-certified/1"


def _s(x: Any) -> str:
    """A number as text with STORED significant digits (exact zeros as 0)."""
    x = Decimal(x.numerator) / Decimal(x.denominator) if isinstance(x, Fraction) else Decimal(x)
    if x == 0:
        return "0"
    return format(x, f".{STORED - 1}e")


#: How the certificate's enclosures and bounds are rounded to STORED digits (the certificate says so).
ROUNDING = (f"outward, to {STORED} significant digits: each enclosure's lo rounded toward -infinity and hi "
            f"toward +infinity, so that lo < exact < hi; each angle bound rounded toward +infinity")


def _directed(x: Fraction, rounding: str, digits: int = STORED) -> str:
    """``x`` as text with ``digits`` significant digits, rounded in one direction (``ROUND_FLOOR``:
    the largest such number <= x; ``ROUND_CEILING``: the smallest >= x); exact zeros as 0.

    >>> _directed(Fraction(1, 3), ROUND_FLOOR, 4), _directed(Fraction(1, 3), ROUND_CEILING, 4)
    ('3.333e-1', '3.334e-1')
    >>> _directed(Fraction(-1, 3), ROUND_FLOOR, 4), _directed(Fraction(2), ROUND_CEILING, 4)
    ('-3.334e-1', '2.000e+0')
    """
    if x == 0:
        return "0"
    ctx = owned_context(digits)
    ctx.rounding = rounding
    # one correctly rounded division of two exact integers: the directed rounding of x itself
    value = ctx.divide(Decimal(x.numerator), Decimal(x.denominator))
    with localcontext(ctx):
        return format(value, f".{digits - 1}e")  # value has at most `digits` digits: no rounding here


def _outward(lo: Fraction, hi: Fraction) -> list[str]:
    """The enclosure ``[lo, hi]`` stored: lo rounded down, hi up, at STORED digits (so it encloses
    whatever [lo, hi] encloses, and lo < hi whenever lo < hi)."""
    return [_directed(lo, ROUND_FLOOR), _directed(hi, ROUND_CEILING)]


def _width(stored: list[str]) -> str:
    """``hi - lo`` of a stored enclosure, rounded up to two significant digits (exact subtraction first)."""
    return _directed(Fraction(Decimal(stored[1])) - Fraction(Decimal(stored[0])), ROUND_CEILING, 2)


def _frac_decimal(x: Fraction) -> Decimal:
    return Decimal(x.numerator) / Decimal(x.denominator)


def tier(digits_at_risk: float) -> str:
    """The tier of a case from the digits a backward-stable double-precision PCA can lose on it
    (``log10`` of the largest of the condition number, the inverse relative gap and the
    offset-to-spread ratio): lower below 4, average below 8, higher from 8.

    >>> tier(1.5), tier(5.0), tier(12.0)
    ('lower', 'average', 'higher')
    """
    as_real(digits_at_risk, "tier: digits_at_risk")  # checked, not converted: a Fraction is compared as it is
    return "lower" if digits_at_risk < 4 else ("average" if digits_at_risk < 8 else "higher")


def _clusters(enclosures: list[tuple[Fraction, Fraction]], rank: int, d: int) -> list[list[int]]:
    """Eigenvalues whose enclosures touch form one cluster; the exact zeros form the last."""
    out: list[list[int]] = []
    for i in range(rank):
        if out and enclosures[i][1] >= enclosures[out[-1][-1]][0]:
            out[-1].append(i)
        else:
            out.append([i])
    if rank < d:
        out.append(list(range(rank, d)))
    return out


@in_owned_decimal
def certify(case: Case) -> dict[str, Any]:
    """The certificate of one case: eigenvalues certified twice, vectors checked by residual.

    >>> cert = certify(build_case("tiny"))
    >>> cert["eigenvalues"]["n-1"][0][:12], cert["agreement_digits"] >= 30
    ('3.2567420146', True)
    """
    if not isinstance(case, Case):
        raise PurePCAError(f"certify: case must be a Case (from build_case), got {short_repr(case)}")
    X, k = scaled_integers(case.rows)
    n, d = len(X), len(X[0])
    M = moment_matrix(X)
    rank = exact_rank(M)
    scaled = case.scaled
    unit = n * (n - 1) * 10 ** (2 * k)  # covariance (n - 1) = M / unit
    # (a) exact enclosures of the nonzero eigenvalues (of M, or of M against diag(M) when scaled)
    enclosures = [enclose(M, i, ENCLOSE, scaled) for i in range(rank)]
    if not scaled:
        enclosures = [(lo / unit, hi / unit) for lo, hi in enclosures]
    mids = [(lo + hi) / 2 for lo, hi in enclosures] + [Fraction(0)] * (d - rank)
    ctx = DecimalContext(DIGITS)
    with localcontext() as local:
        local.prec = DIGITS + 20
        if scaled:
            sd = [Decimal(M[j][j]).sqrt() for j in range(d)]
            C = [[Decimal(M[i][j]) / (sd[i] * sd[j]) for j in range(d)] for i in range(d)]
        else:
            C = [[Decimal(M[i][j]) / Decimal(unit) for j in range(d)] for i in range(d)]
        # (b) Jacobi at DIGITS digits
        eig = jacobi_eigh(C, context=ctx)
        values = [Decimal(v) for v in eig.values]
        vectors = [[Decimal(x) for x in v] for v in eig.vectors]
        agree_digits = _agreement(case.name, values, mids, rank)
        widths = [(hi - lo) / hi for lo, hi in enclosures]
        clusters = _clusters(enclosures, rank, d)
        resid = _residuals(C, M, unit, values, vectors, scaled)
        angle_bounds = _angle_bounds(case.name, clusters, resid, values, vectors, enclosures)
        _sign_by_largest(vectors)
        total = sum(mids[:rank], Fraction(0))
        sums = [sum(row[j] for row in X) for j in range(d)]
        centred = [[Decimal(n * row[j] - sums[j]) / Decimal(n * 10 ** k) for j in range(d)] for row in X]
        # vectors of the simple eigenvalues (a lone exact zero too: its null vector); scores of the nonzero ones
        single = [cl[0] for cl in clusters if len(cl) == 1]
        simple = [i for i in single if i < rank]
        cert: dict[str, Any] = {
            "format": FORMAT,
            "name": case.name,
            "description": case.description,
            "source": case.source,
            "data": case.name + ".csv",
            "n_samples": n,
            "n_features": d,
            "columns": list(case.columns),
            "scaled": scaled,
            "rank": rank,
            "mean": [_s(Fraction(sums[j], n * 10 ** k)) for j in range(d)],
        }
        cert.update(_spectrum(mids, n, scaled))
        cert["explained_variance_ratio"] = [_s(m / total) if total else "0" for m in mids]
        cert["enclosures"] = [_outward(lo, hi) for lo, hi in enclosures]
        cert["enclosure_widths"] = [_width(e) for e in cert["enclosures"]]
        cert["enclosure_rounding"] = ROUNDING
        cert["agreement_digits"] = agree_digits
        cert["clusters"] = clusters
        cert["components"] = {str(i): [_s(x) for x in vectors[i]] for i in single}
        cert["projectors"] = _projectors(vectors, clusters)
        # upper bounds, rounded up (past the 120-digit rounding of their own arithmetic, too)
        cert["angle_bounds"] = [_directed(Fraction(b) * (1 + Fraction(1, 10 ** (DIGITS - 10))), ROUND_CEILING)
                                for b in angle_bounds]
        cert["scores"] = _scores(M, unit, n, vectors, centred, simple, scaled)
        if case.supplementary_columns:
            cert["supplementary"] = _supplementary(case, M, unit, n, vectors, centred, simple)
        cert["difficulty"], at_risk = _difficulty(M, mids, rank, clusters, sums, n, k, widths, scaled)
        cert["tier"] = tier(at_risk)
        cert["conventions"] = _conventions(scaled)
    return cert


def _projectors(vectors: list[list[Decimal]], clusters: list[list[int]]) -> dict[str, list[list[str]]]:
    """The orthogonal projector onto each cluster's span (its vectors are not determined, the span is)."""
    d = len(vectors)
    return {",".join(map(str, cl)): [[_s(sum(vectors[i][r] * vectors[i][c] for i in cl))
                                      for c in range(d)] for r in range(d)]
            for cl in clusters if len(cl) > 1}


def _conventions(scaled: bool) -> dict[str, dict[str, str]]:
    """Each library's divisor picks the lists (scikit-learn has no scaling of its own: not for correlation)."""
    return {
        name: ({"eigenvalues": "correlation", "scores": "sd n-1" if conv.ddof == 1 else "sd n"} if scaled else
               {"eigenvalues": "n-1" if conv.ddof == 1 else "n", "scores": "centred"})
        for name, conv in CONVENTIONS.items() if not (scaled and name == "sklearn")}


def _agreement(name: str, values: list[Decimal], mids: list[Fraction], rank: int) -> int:
    """The digits to which Jacobi's eigenvalues agree with the exact enclosures' midpoints (the zeros
    against the largest); fewer than ``AGREE`` is a defect of the build."""
    top = _frac_decimal(mids[0]) if rank else Decimal(1)
    agreement = Decimal(10) ** 99
    for i in range(len(values)):
        exact = _frac_decimal(mids[i])
        scale = abs(exact) if i < rank else top  # the zeros: against the largest
        diff = abs(values[i] - exact)
        agreement = min(agreement, Decimal(10) ** 99 if diff == 0 else scale / diff)
    agree_digits = int(math.floor(float(agreement.log10())))
    if agree_digits < AGREE:
        raise RuntimeError(f"{name}: the two computations agree to {agree_digits} digits only")
    return agree_digits


def _residuals(C: list[list[Decimal]], M: list[list[int]], unit: int, values: list[Decimal],
               vectors: list[list[Decimal]], scaled: bool) -> list[Decimal]:
    """Residuals ``‖C·v - λ·v‖²`` of each computed pair: against the exact matrix M / unit, in Fractions (a
    correlation matrix is irrational: there, against R at DIGITS + 20 digits)."""
    d = len(values)
    resid: list[Any] = []
    for i in range(d):
        if scaled:
            Cv = [sum(C[r][c] * vectors[i][c] for c in range(d)) for r in range(d)]
            resid.append(sum((Cv[r] - values[i] * vectors[i][r]) ** 2 for r in range(d)))
            continue
        vec = [Fraction(x) for x in vectors[i]]
        lam_i = Fraction(values[i])
        r2: Any = sum(((sum(Fraction(M[r][c]) * vec[c] for c in range(d)) / unit - lam_i * vec[r]) ** 2
                      for r in range(d)), Fraction(0))
        resid.append(_frac_decimal(r2))
    return resid


def _angle_bounds(name: str, clusters: list[list[int]], resid: list[Decimal], values: list[Decimal],
                  vectors: list[list[Decimal]], enclosures: list[tuple[Fraction, Fraction]]) -> list[Decimal]:
    """Each cluster's angle bound ``‖R‖/gap`` plus how far the computed vectors are from orthonormal
    (the bound is to first order in it); a bound above ``10^-AGREE`` is a defect of the build."""
    d = len(values)
    skew = max(abs(Decimal(sum(a * b for a, b in zip(vectors[i], vectors[j]))) - (1 if i == j else 0))
               for i in range(d) for j in range(i, d))
    if skew > Decimal(10) ** (20 - DIGITS):
        raise RuntimeError(f"{name}: the computed vectors are {skew:.1e} from orthonormal")
    # the exact spectrum outside a cluster lies in the other clusters' enclosures (the zeros: exactly 0)
    spans = [(lo, hi) for lo, hi in enclosures] + [(Fraction(0), Fraction(0))] * (d - len(enclosures))

    def distance(x: Fraction, span: tuple[Fraction, Fraction]) -> Fraction:
        return max(span[0] - x, x - span[1], Fraction(0))

    angle_bounds = []
    for cl in clusters:
        R = Decimal(sum((resid[i] for i in cl), Decimal(0))).sqrt()
        gap = min((_frac_decimal(distance(Fraction(values[i]), spans[j])) for i in cl for j in range(d)
                   if j not in cl), default=Decimal(0))
        bound = (R / gap if gap > 0 else Decimal(0)) + skew
        if bound > Decimal(10) ** -AGREE:
            raise RuntimeError(f"{name}: cluster {cl}: angle bound {bound:.3e} above 1e-{AGREE}")
        angle_bounds.append(bound)
    return angle_bounds


def _sign_by_largest(vectors: list[list[Decimal]]) -> None:
    """Signs: scikit-learn's rule (the largest |entry| positive), for reading; certified up to sign."""
    for i, v in enumerate(vectors):
        big = max(range(len(v)), key=lambda j: abs(v[j]))
        if v[big] < 0:
            vectors[i] = [-x for x in v]


def _spectrum(mids: list[Fraction], n: int, scaled: bool) -> dict[str, Any]:
    """The eigenvalues and singular values under each divisor (correlation: the sd's divisor)."""
    lam = [_frac_decimal(m) for m in mids]
    if scaled:
        return {"eigenvalues": {"correlation": [_s(v) for v in lam]},
                "singular_values": {"sd n-1": [_s((v * (n - 1)).sqrt()) for v in lam],
                                    "sd n": [_s((v * n).sqrt()) for v in lam]}}
    return {"eigenvalues": {"n-1": [_s(v) for v in lam], "n": [_s(v * (n - 1) / n) for v in lam]},
            "singular_values": [_s((v * (n - 1)).sqrt()) for v in lam]}


def _scores(M: list[list[int]], unit: int, n: int, vectors: list[list[Decimal]], centred: list[list[Decimal]],
            simple: list[int], scaled: bool) -> dict[str, Any]:
    """The scores of the simple nonzero eigenvalues: centred, or standardised under each divisor."""
    d = len(vectors)
    if scaled:
        sd_n1 = [(Decimal(M[j][j]) / Decimal(unit)).sqrt() for j in range(d)]
        sd_n = [s * Decimal(n - 1).sqrt() / Decimal(n).sqrt() for s in sd_n1]
        return {label: {str(i): [_s(sum(row[j] / sds[j] * vectors[i][j] for j in range(d)))
                                 for row in centred] for i in simple}
                for label, sds in (("sd n-1", sd_n1), ("sd n", sd_n))}
    return {"centred": {str(i): [_s(sum(row[j] * vectors[i][j] for j in range(d)))
                                 for row in centred] for i in simple}}


def _supplementary(case: Case, M: list[list[int]], unit: int, n: int, vectors: list[list[Decimal]],
                   centred: list[list[Decimal]], simple: list[int]) -> dict[str, Any]:
    """The supplementary columns' correlations with the standardised scores of the simple components."""
    d = len(vectors)
    S, ks = scaled_integers(case.supplementary_rows)
    ssum = [sum(row[j] for row in S) for j in range(len(S[0]))]
    sup = [[Decimal(n * row[j] - ssum[j]) for j in range(len(S[0]))] for row in S]
    sd_n1 = [(Decimal(M[j][j]) / Decimal(unit)).sqrt() for j in range(d)]
    coords = {}
    for i in simple:
        score = [sum(row[j] / sd_n1[j] * vectors[i][j] for j in range(d)) for row in centred]
        norm_s = Decimal(sum(v * v for v in score)).sqrt()
        coords[str(i)] = [_s(sum(a[j] * b for a, b in zip(sup, score))
                             / (Decimal(sum(a[j] ** 2 for a in sup)).sqrt() * norm_s))
                          for j in range(len(S[0]))]
    return {"columns": list(case.supplementary_columns), "data": case.name + ".sup.csv", "correlations": coords}


def _difficulty(M: list[list[int]], mids: list[Fraction], rank: int, clusters: list[list[int]], sums: list[int],
                n: int, k: int, widths: list[Fraction], scaled: bool) -> tuple[dict[str, Any], float]:
    """What a backward-stable double-precision PCA can lose on these data, and the digits at risk."""
    d = len(mids)
    lam_nz = [m for m in mids[:rank] if m > 0]
    kappa = float(lam_nz[0] / lam_nz[-1]) if lam_nz else 1.0
    gaps = [float((mids[a[-1]] - mids[b[0]]) / mids[0]) for a, b in zip(clusters, clusters[1:]) if mids[0] > 0]
    min_gap = min(gaps) if gaps else 1.0
    if scaled:
        offset = max(abs(Fraction(sums[j], n)) / Fraction(M[j][j], n * (n - 1)) ** 0.5 for j in range(d))
    else:
        offset = max(abs(Fraction(sums[j], n * 10 ** k)) for j in range(d)) / (float(lam_nz[-1]) ** 0.5
                                                                                if lam_nz else 1.0)
    at_risk = min(16.0, math.log10(max(kappa, 1.0 / min_gap, float(offset), 1.0)))
    return {
        "condition_number": f"{kappa:.3e}",
        "smallest_relative_gap": f"{min_gap:.3e}",
        "offset_to_spread": f"{float(offset):.3e}",
        "digits_at_risk": round(at_risk, 2),
        "enclosure_width": _directed(max(widths, default=Fraction(0)), ROUND_CEILING, 2),  # a width: up
    }, at_risk


def case_csv(columns: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """The input as CSV: a header of column names, then the decimal text of each row.

    >>> case_csv(("a", "b"), [("1", "2.5")])
    'a,b\\n1,2.5\\n'
    """
    if not isinstance(columns, (list, tuple)) or not all(isinstance(c, str) for c in columns):
        raise PurePCAError(f"case_csv: columns must be a list of column names (str), got {short_repr(columns)}")
    if not isinstance(rows, (list, tuple)) or not all(
            isinstance(r, (list, tuple)) and len(r) == len(columns) and all(isinstance(x, str) for x in r)
            for r in rows):
        raise PurePCAError(f"case_csv: rows must be a list of rows of {len(columns)} decimal texts (str), "
                           f"got {short_repr(rows)}")
    return "".join(",".join(r) + "\n" for r in [tuple(columns)] + [tuple(r) for r in rows])


def certificate_json(cert: dict[str, Any]) -> str:
    """The certificate as JSON text: one fixed layout, so a rebuild gives the same bytes."""
    return json.dumps(cert, indent=1, ensure_ascii=True) + "\n"


@in_owned_decimal
def write_cases(names: Optional[Sequence[str]] = None, folder: Optional[str] = None) -> list[str]:
    """Build and write the files of the named cases (all by default) into ``folder`` (default the
    corpus's own, :data:`purepca.certified.DATA`), through the one file door
    (:func:`purepca.files.write_output`: a temporary file renamed into place, the user's umask);
    returns the paths written.  Every target is checked before any work: the folder must be a
    directory (it is created when missing), and each file absent or a regular file.

    >>> import os, tempfile
    >>> write_cases(["tiny"], os.path.join(tempfile.mkdtemp(), "new"))  # doctest: +ELLIPSIS
    ['.../new/tiny.csv', '.../new/tiny.json']
    >>> write_cases(["tiny"], __file__)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: folder .../build.py: is a file, not a directory
    """
    from ..files import folder_targets, write_output
    from . import DATA

    if folder is not None and not isinstance(folder, (str, os.PathLike)):
        raise PurePCAError(f"folder: expected a directory's path, got {short_repr(folder)}")
    where = os.fspath(folder) if folder else DATA
    if not isinstance(where, str):
        raise PurePCAError(f"folder: expected a directory's path, got {short_repr(folder)}")
    if os.path.lexists(where) and not os.path.isdir(where):
        raise PurePCAError(f"folder {where}: is a file, not a directory")
    if names is not None and (not isinstance(names, (list, tuple)) or not all(isinstance(n, str) for n in names)):
        raise PurePCAError(f"names: expected None or a list of case names, got {short_repr(names)}")
    chosen = sorted(CASES) if names is None else list(names)
    cases = [build_case(name) for name in chosen]
    planned = []
    for case in cases:
        planned += [case.name + ".csv", case.name + ".json"] + ([case.name + ".sup.csv"] if case.supplementary_columns
                                                                else [])
    folder_targets(where, planned, "the corpus")  # before any work
    try:
        os.makedirs(where, exist_ok=True)
    except OSError as err:
        raise PurePCAError(f"folder {where}: cannot create it ({err.strerror or err})") from None
    written = []
    for case in cases:
        cert = certify(case)
        files = {case.name + ".csv": case_csv(case.columns, case.rows), case.name + ".json": certificate_json(cert)}
        if case.supplementary_columns:
            files[case.name + ".sup.csv"] = case_csv(case.supplementary_columns, case.supplementary_rows)
        for path, text in zip(folder_targets(where, list(files), "the corpus"), files.values()):
            write_output(text.encode("ascii"), path)  # bytes: written as they are
            written.append(path)
    return written
