"""Assessing another PCA on the certified corpus: correct digits (LRE) and the error model's verdict.

==============================================  ==========================================
``assess(case, answer, convention=, method=)``  one :class:`Assessed` row per quantity
``lre(value, certified, scale=None)``           McCullough's log relative error
``assessment_report(rows, title)``              the table ``purepca assess`` prints
==============================================  ==========================================

The log relative error (McCullough 1998, the measure of NIST's StRD) is the
number of correct significant digits, ``-log10(|x - c| / |c|)``, capped at
the digits the certificate stores and set to 0 when the answer has none
(wrong sign of an eigenvalue, wrong order, NaN).  A certified zero (an exact
zero eigenvalue of rank-deficient data) is measured against the largest
eigenvalue, and a component by the sine of its angle to the certified one
(or to the certified cluster's span, for a repeated eigenvalue or a null
space) together with its distance from unit length; scores up to sign.

The LRE says how many digits are right; whether that is all a correct
implementation of the method could give is the error model's question,
answered by :func:`~purepca.testing.compare_pca` on the case's data
rounded to floats (the verdict column).  The LRE is against the exact
decimal data, so it includes what the rounding of the input to floats costs.

>>> from purepca.certified import load_case
>>> case = load_case("toy")
>>> nearest = [float(v) for v in case.certificate["eigenvalues"]["n-1"]]   # the certified values, rounded
>>> [(a.quantity, a.lre > 16, a.verdict) for a in assess(case, {"explained_variance_": nearest})]
[('explained_variance_[0]', True, 'PASS'), ('explained_variance_[1]', True, 'PASS')]
"""

from __future__ import annotations

import decimal
import math
import numbers
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Optional, Sequence, Tuple, Union

from ..conventions import CONVENTIONS
from ..errors import PurePCAError
from ..params import check_text
from ..numeric import in_owned_decimal, owned_decimal, short_repr
from .compare import METHODS, Check, _extract, _number, compare_pca

__all__ = ["Assessed", "assess", "assessment_report", "lre"]

_CAP = 25.0  # the significant digits a certificate stores


@dataclass(frozen=True)
class Assessed:
    """One quantity of an answer: its LRE against the certificate and the error model's verdict.

    ``verdict`` is ``PASS`` or ``FAIL`` (the error model of the method), or ``-``
    where the model has no check of that quantity.

    >>> Assessed("explained_variance_[0]", 14.2, "PASS").line()
    'explained_variance_[0]: LRE 14.2, PASS'
    """

    quantity: str
    lre: float
    verdict: str
    note: str = ""

    def line(self) -> str:
        """The row as one line of text."""
        return f"{self.quantity}: LRE {self.lre:.1f}, {self.verdict}" + (f" ({self.note})" if self.note else "")


#: The digits the oracle's decimal arithmetic works at (far past the 25 a certificate stores).
_DIGITS = 60


def _int_decimal(n: int) -> Decimal:
    """``n`` as a Decimal: exactly up to 3,000 bits, beyond that to the context's digits (PyPy's decimal
    converts an int through its text, which Python refuses past 4,300 digits)."""
    shift = max(0, n.bit_length() - 3000)
    return Decimal(n) if not shift else Decimal(n >> shift) * Decimal(2) ** shift


def _exact(x: Any, what: str, *, finite: bool) -> Optional[Decimal]:
    """A real number as a Decimal, exactly (a Fraction to 60 digits; numeric text exactly); None for
    NaN or an infinity unless ``finite`` (then an error); anything else an error naming ``what``.
    Called inside the owned context."""
    if isinstance(x, (bool, complex)) or x is None:
        raise PurePCAError(f"lre: {what} must be a real number, got {short_repr(x, 60)}")
    if isinstance(x, str):
        text = x.strip()
        try:
            value = Decimal(text) if text and "_" not in text else None
        except ArithmeticError:  # not a numeral, or an exponent beyond decimal's range
            value = None
        if value is None:
            raise PurePCAError(f"lre: {what} must be a number or a decimal numeral, got {short_repr(x, 60)}")
    elif isinstance(x, Decimal):
        value = x
    elif isinstance(x, float):
        value = Decimal.from_float(x)
    elif isinstance(x, numbers.Integral):
        value = _int_decimal(int(x))
    elif isinstance(x, numbers.Rational):
        value = _int_decimal(int(x.numerator)) / _int_decimal(int(x.denominator))
    elif isinstance(x, numbers.Real):  # numpy's float32 and the like: exactly, through float
        value = Decimal.from_float(float(x))
    else:
        raise PurePCAError(f"lre: {what} must be a real number, got {type(x).__name__} {short_repr(x, 60)}")
    if not value.is_finite():
        if finite:
            raise PurePCAError(f"lre: {what} must be a finite number, got {short_repr(x, 60)}")
        return None
    return value


def lre(value: Any, certified: Union[str, Decimal], scale: Optional[Union[str, Decimal]] = None,
        cap: float = _CAP) -> float:
    """``-log10(|value - certified| / |certified|)`` (or ``/ |scale|`` when given, as for a certified
    zero), between 0 and ``cap``; 0 for a NaN or infinite value.

    ``value`` is any real number (a float, an int, a Decimal, a Fraction, a numpy scalar), taken
    exactly; ``certified`` and ``scale`` a finite real number or its decimal text.  Computed at 60
    digits in purepca's own decimal context, whatever the caller's.

    >>> round(lre(1.0000001, "1"), 6)
    7.0
    >>> lre(-2.0, "2"), lre(float("nan"), "2"), lre(3.0, "3")
    (0.0, 0.0, 25.0)
    >>> from fractions import Fraction
    >>> round(lre(Fraction(10000001, 10000000), "1"), 6), lre(10 ** 400, "1")
    (7.0, 0.0)
    >>> lre(1.0, "NaN")
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: lre: certified must be a finite number, got 'NaN'
    """
    if isinstance(cap, bool) or not isinstance(cap, (int, float)) or not 0 <= cap <= 1_000:
        raise PurePCAError(f"lre: cap must be a number of digits from 0 to 1,000, got {short_repr(cap)}")
    with owned_decimal(_DIGITS):
        c = _exact(certified, "certified", finite=True)
        s = abs(_exact(scale, "scale", finite=True) if scale is not None else c)  # type: ignore[arg-type]
        if isinstance(value, (str, bytes)):  # an answer's number is a number: '1.0' is text (as compare_pca reads it)
            raise PurePCAError(f"lre: value must be a real number, got {short_repr(value, 60)}")
        x = _exact(value, "value", finite=False)
        if x is None:
            return 0.0
        assert c is not None
        err = abs(x - c)
        if err == 0:
            return float(cap)
        if s == 0:
            return 0.0
        try:
            ratio = err / s
        except decimal.Overflow:  # past decimal's exponents (an error 10^(10^18) times the scale): no digit
            return 0.0
        if ratio == 0:  # below decimal's exponents: every digit
            return float(cap)
        digits = float(-ratio.log10())
    return max(0.0, min(float(cap), digits))


def _norm(v: Sequence[Decimal]) -> Decimal:
    return Decimal(sum(x * x for x in v)).sqrt()


def _decimals(v: Sequence[float]) -> list[Decimal]:
    """Finite floats as Decimals, exactly (no FloatOperation, even flagged)."""
    return [Decimal.from_float(t) for t in v]


def _component_lre(v: Sequence[float], cert: dict[str, Any], i: int) -> tuple[float, str]:
    """The digits of a component: of its direction (sine of the angle to the certified vector, or
    the part outside the certified cluster's span) and of its length (unit)."""
    if not all(math.isfinite(t) for t in v):
        return 0.0, "not finite"
    with owned_decimal(_DIGITS):
        x = _decimals(v)
        length = _norm(x)
        if length == 0:
            return 0.0, "zero vector"
        u = [t / length for t in x]
        key = str(i)
        if key in cert["components"]:
            c = [Decimal(t) for t in cert["components"][key]]
            dot = sum(a * b for a, b in zip(u, c))
            sign = 1 if dot >= 0 else -1
            sine = _norm([a - sign * b for a, b in zip(u, c)])  # the chord: 2 sin(θ/2), the angle to first order
            what = ""
        else:
            proj = next((p for key_, p in cert["projectors"].items() if i in map(int, key_.split(","))), None)
            if proj is None:
                return 0.0, "no certified component"
            P = [[Decimal(t) for t in row] for row in proj]
            inside = [sum(P[r][c] * u[c] for c in range(len(u))) for r in range(len(u))]
            sine = _norm([a - b for a, b in zip(u, inside)])
            what = "against the certified cluster's span"
        err = max(sine, abs(length - 1))
        digits = _CAP if err == 0 else float(-err.log10())
    return max(0.0, min(_CAP, digits)), what


def _scores_lre(column: Sequence[float], certified: Sequence[str]) -> float:
    """The digits of one column of scores, up to sign, normwise."""
    if not all(math.isfinite(t) for t in column):
        return 0.0
    with owned_decimal(_DIGITS):
        c = [Decimal(t) for t in certified]
        x = _decimals(column)
        size = _norm(c)
        err = min(_norm([a - b for a, b in zip(x, c)]), _norm([a + b for a, b in zip(x, c)]))
        if err == 0:
            return _CAP
        if size == 0:
            return 0.0
        digits = float(-(err / size).log10())
    return max(0.0, min(_CAP, digits))


def _column_sign(column: Sequence[float], certified: Sequence[str]) -> int:
    """The sign of a component for its whole column of supplementary correlations: the one that
    brings the answer's column nearer the certified one (one sign per component, never per entry)."""
    finite = [(v, c) for v, c in zip(column, certified) if math.isfinite(v)]
    with owned_decimal(_DIGITS):
        same = sum((Decimal.from_float(v) - Decimal(c)) ** 2 for v, c in finite)
        flipped = sum((Decimal.from_float(v) + Decimal(c)) ** 2 for v, c in finite)
    return -1 if flipped < same else 1


def _get(answer: Any, name: str) -> Any:
    return answer.get(name) if isinstance(answer, dict) else getattr(answer, name, None)


def _table(value: Any, name: str) -> list[list[float]]:
    """Rows of numbers (NaN kept: no digit), or an error naming the field."""
    value = value.tolist() if hasattr(value, "tolist") else value
    try:
        rows = [[_number(x) for x in row] for row in value]
    except (TypeError, ValueError, OverflowError):
        raise PurePCAError(f"{name}: expected rows of numbers (one row per supplementary column)") from None
    return rows


def _verdicts(checks: list[Check]) -> dict[str, Check]:
    """The checks by quantity, a cluster's check under each of its components' names."""
    out: dict[str, Check] = {}
    for c in checks:
        out.setdefault(c.quantity, c)
        if c.quantity.startswith("components_[") and ".." in c.quantity:
            a, b = c.quantity[len("components_["):-1].split("..")
            for i in range(int(a), int(b) + 1):
                out.setdefault(f"components_[{i}]", c)
    return out


#: A row of the assessment before its verdict: the quantity, its LRE and a note.
Row = Tuple[str, float, str]


@in_owned_decimal
def assess(case: Any, answer: Any, *, convention: Optional[str] = None, method: str = "svd") -> list[Assessed]:
    """Another implementation's answer for a corpus case, quantity by quantity: the LRE against the
    certificate and the verdict of the error model of ``method`` (:func:`compare_pca`).

    Parameters
    ----------
    case : a case name of :mod:`purepca.certified` or a :class:`~purepca.certified.CertifiedCase`
    answer : what :func:`compare_pca` reads (a fitted scikit-learn PCA, a dict of attributes,
        R's ``sdev``/``rotation``, numpy's ``eigh`` result, statsmodels' PCA), plus ``scores``
        (n x k) and, for a case with supplementary columns, ``supplementary_correlations``
        (a row per supplementary column: its correlation with each component's scores, FactoMineR's
        ``quanti.sup$coord`` of a correlation PCA), compared up to the components' signs
    convention : whose divisor and scaling the answer follows (default ``sklearn``, or ``prcomp``
        for a correlation case); one the certificate lists
    method : the error model of the answer's method (:data:`METHODS`)

    >>> rows = assess("tiny", {"explained_variance_": [3.25, 0.16]})
    >>> [(a.quantity, round(a.lre, 1), a.verdict) for a in rows]
    [('explained_variance_[0]', 2.7, 'FAIL'), ('explained_variance_[1]', 3.3, 'FAIL')]
    """
    c, convention = _certified_case(case, convention, method)
    cert = c.certificate
    use = cert["conventions"][convention]
    n, d = c.n_samples, c.n_features
    # what sums of squares (statsmodels' eigenvals) are divided by: the convention's n - ddof
    divisor = n - 1 if "n-1" in (use["eigenvalues"], use["scores"].replace("sd ", "")) else n
    theirs = _extract(answer, d, n, divisor)
    checks = compare_pca(answer, c.rows, convention=convention, method=method, scale=bool(cert["scaled"]))
    verdict = _verdicts(checks)
    rows = [*_eigenvalue_rows(theirs.get("explained_variance_") or [], cert["eigenvalues"][use["eigenvalues"]], d),
            *_ratio_rows(theirs.get("explained_variance_ratio_") or [], cert["explained_variance_ratio"], d),
            *_singular_value_rows(theirs.get("singular_values_") or [], cert, use, d),
            *_component_rows(theirs.get("components_") or [], cert, d),
            *_mean_rows(theirs.get("mean_") or [], cert["mean"], d),
            *_score_rows(theirs.get("scores"), cert["scores"][use["scores"]], c.name, n, d),
            *_supplementary_rows(_get(answer, "supplementary_correlations"), cert, c.name, d)]
    out = [_assessed(verdict, *row) for row in rows]
    named = {a.quantity for a in out}
    for check in checks:  # what the error model checked beside the certified quantities
        if check.quantity not in named and not check.quantity.startswith("components_["):
            out.append(Assessed(check.quantity, math.nan, "PASS" if check.passed else "FAIL", check.note))
    return out


def _certified_case(case: Any, convention: Optional[str], method: str) -> tuple[Any, str]:
    """The case (loaded, or one built by hand held to what :func:`load_case` checks) and the convention
    to assess under, both checked, with ``method``."""
    from ..certified import CertifiedCase, check_case, load_case

    if not isinstance(method, str) or method not in METHODS:
        raise PurePCAError(f"method must be one of {', '.join(map(repr, METHODS))}; got {short_repr(method)}")
    if convention is not None and not isinstance(convention, str):
        raise PurePCAError(f"convention must be a convention's name (a str), got {short_repr(convention, 60)}")
    if isinstance(case, CertifiedCase):
        check_case(case)  # one built by hand is held to what load_case checks
        c = case
    else:
        c = load_case(case)
    cert = c.certificate
    convention = convention if convention is not None else ("prcomp" if cert["scaled"] else "sklearn")
    if convention not in cert["conventions"]:
        known = ", ".join(map(repr, cert["conventions"]))
        if convention in CONVENTIONS:
            raise PurePCAError(f"case {c.name!r} is certified under the conventions {known}, not {convention!r}")
        raise PurePCAError(f"convention must be one of {known} for case {c.name!r}; got {convention!r}")
    return c, convention


def _assessed(verdict: dict[str, Check], name: str, digits: float, note: str) -> Assessed:
    """The row with the error model's verdict of its quantity (``-`` where the model has none); a failed
    check's line is added to the note."""
    check = verdict.get(name)
    if check is not None and not check.passed:
        note = "; ".join(filter(None, [note, check.line()]))
    return Assessed(name, digits, "-" if check is None else ("PASS" if check.passed else "FAIL"), note)


def _eigenvalue_rows(given: Sequence[float], values: Sequence[str], d: int) -> list[Row]:
    """The eigenvalues: a certified zero measured against the largest, one above the one before it
    (not the i-th largest) no digit."""
    rows: list[Row] = []
    for i, v in enumerate(given[:d]):
        zero = Decimal(values[i]) == 0
        if i and v > given[i - 1]:
            rows.append((f"explained_variance_[{i}]", 0.0, f"out of order: {v!r} follows {given[i - 1]!r}"))
            continue
        rows.append((f"explained_variance_[{i}]", lre(v, values[i], values[0] if zero else None),
                     "a certified zero: error against the largest" if zero else ""))
    return rows


def _ratio_rows(given: Sequence[float], ratios: Sequence[str], d: int) -> list[Row]:
    """The explained variance ratios; a certified zero measured against 1."""
    return [(f"explained_variance_ratio_[{i}]", lre(v, ratios[i], "1" if Decimal(ratios[i]) == 0 else None), "")
            for i, v in enumerate(given[:d])]


def _singular_value_rows(given: Sequence[float], cert: dict[str, Any], use: dict[str, str], d: int) -> list[Row]:
    """The singular values (of the convention's scaling of the scores); a certified zero against the largest."""
    sv = cert["singular_values"]
    sv = sv if isinstance(sv, list) else sv["sd n-1" if use["scores"] == "sd n-1" else "sd n"]
    return [(f"singular_values_[{i}]", lre(v, sv[i], sv[0] if Decimal(sv[i]) == 0 else None), "")
            for i, v in enumerate(given[:d])]


def _component_rows(given: Sequence[Sequence[float]], cert: dict[str, Any], d: int) -> list[Row]:
    """The components, by direction and length (:func:`_component_lre`)."""
    return [(f"components_[{i}]", *_component_lre(v, cert, i)) for i, v in enumerate(given[:d])]


def _mean_rows(given: Sequence[float], mean: Sequence[str], d: int) -> list[Row]:
    """The column means; a certified zero measured against 1."""
    return [(f"mean_[{j}]", lre(v, mean[j], "1" if Decimal(mean[j]) == 0 else None), "")
            for j, v in enumerate(given[:d])]


def _score_rows(scores: Optional[Sequence[Sequence[float]]], certified: dict[str, Any], name: str, n: int,
                d: int) -> list[Row]:
    """The columns of scores the certificate holds, up to sign; the table's shape checked first."""
    if scores is None:
        return []
    if len(scores) != n:
        raise PurePCAError(f"scores: {len(scores)} rows, but case {name!r} has {n} samples")
    widths = {len(row) for row in scores}
    if len(widths) != 1 or not 0 < len(scores[0]) <= d:
        raise PurePCAError(f"scores: rows of {' and '.join(map(str, sorted(widths)))} entries; need one "
                           f"width, one entry per component (at most {d})")
    return [(f"scores[:, {i}]", _scores_lre([row[i] for row in scores], certified[str(i)]), "")
            for i in range(len(scores[0])) if str(i) in certified]


def _supplementary_rows(sup: Any, cert: dict[str, Any], name: str, d: int) -> list[Row]:
    """The supplementary columns' correlations with the components, one sign per component (the nearer
    of the two for its whole column); the table's shape checked first."""
    if sup is None:
        return []
    if "supplementary" not in cert:
        raise PurePCAError(f"supplementary_correlations: case {name!r} has no supplementary columns")
    certified_sup = cert["supplementary"]["correlations"]
    names = cert["supplementary"]["columns"]
    table = _table(sup, "supplementary_correlations")
    if len(table) != len(names):
        raise PurePCAError(f"supplementary_correlations: {len(table)} rows, but case {name!r} has "
                           f"{len(names)} supplementary columns ({', '.join(names)}): one row each")
    widths = {len(row) for row in table}
    if len(widths) != 1 or not 0 < len(table[0]) <= d:
        raise PurePCAError(f"supplementary_correlations: rows of {' and '.join(map(str, sorted(widths)))} "
                           f"entries; need one width, one entry per component (at most {d})")
    signs = {i: _column_sign([row[i] for row in table], certified_sup[str(i)])
             for i in range(len(table[0])) if str(i) in certified_sup}
    return [(f"supplementary_correlations[{j}][{i}]", lre(signs[i] * v, certified_sup[str(i)][j]), "")
            for j, row in enumerate(table) for i, v in enumerate(row) if i in signs]


def assessment_report(rows: list[Assessed], title: str) -> str:
    """The table ``purepca assess`` prints: per quantity, the correct digits and the verdict.

    >>> print(assessment_report([Assessed("explained_variance_[0]", 14.234, "PASS")], "t"))
    t
    <BLANKLINE>
    quantity                  LRE  verdict
    explained_variance_[0]   14.2  PASS
    <BLANKLINE>
    lowest LRE 14.2; 1 passed, 0 failed
    """
    if not isinstance(rows, (list, tuple)) or not all(isinstance(r, Assessed) for r in rows):
        raise PurePCAError(f"assessment_report: rows must be a list of Assessed (from assess), got {short_repr(rows)}")
    check_text(title, "assessment_report: title")
    width = max([len("quantity")] + [len(r.quantity) for r in rows]) + 2
    lines = [title, "", f"{'quantity':<{width}} {'LRE':>4}  verdict"]
    for r in rows:
        shown = "-" if r.lre != r.lre else f"{r.lre:.1f}"
        lines.append(f"{r.quantity:<{width}} {shown:>4}  {r.verdict}" + (f"  ({r.note})" if r.note else ""))
    measured = [r.lre for r in rows if r.lre == r.lre]
    failed = sum(r.verdict == "FAIL" for r in rows)
    passed = sum(r.verdict == "PASS" for r in rows)
    lowest = f"lowest LRE {min(measured):.1f}" if measured else "no certified quantity in the answer"
    lines += ["", f"{lowest}; {passed} passed, {failed} failed"]
    return "\n".join(lines)
