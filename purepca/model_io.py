"""A fitted PCA as plain, versioned, human-readable JSON, and back.

The file holds the constructor's parameters, the public attributes, and the
internal state that ``transform`` uses (the mean as the pair ``hi + lo``, the
components, scales and standard deviations at the fit's precision), so a
model read back transforms new rows to the same bits as the model that was
saved.  The public attributes are the float values of those fields; a file
whose two copies of a number disagree (one edited by hand) is refused, naming
the field, rather than read one way by some methods and the other by others.
Every number held twice, or computed from others, is checked against them
(the mean is ``mean_hi + mean_lo`` to the bit, each root the square root of its
variance to the bit, singular values, ratios and the noise variance against the
variances), and the whole against what a PCA is: variances in descending order,
unit and orthogonal components (to ``64·d·eps``), the discarded eigenvalues below
the kept ones.  What no copy constrains cannot be checked: ``mean_lo`` is the
rounding error of the mean, which only the data know, so an edit of it within
half an ulp of the mean (a change of the scores below that) is read as written.
Finite floats are JSON numbers written with ``repr`` (which reads back
to the same float); ``inf`` is the string ``"inf"``; the numbers of a model
fitted with ``precision=N`` are strings of N-digit decimals.

>>> from purepca import PCA
>>> pca = PCA(1).fit([[0.0, 1.0], [2.0, 2.0], [4.0, 4.5]])
>>> back = pca_from_json(pca_to_json(pca))
>>> back.transform([[1.0, 1.0]]) == pca.transform([[1.0, 1.0]])
True
"""

from __future__ import annotations

import json
import math
from decimal import Decimal, InvalidOperation
from typing import Any, Optional

from .conventions import SIGN_RULES
from .errors import PurePCAError
from .numeric import Context, Scalar, get_context
from .numeric import in_owned_decimal
from .fitting import PCAState
from .pca import PCA
from .solvers import SOLVER_TABLE

__all__ = ["FORMAT", "VERSION", "pca_from_json", "pca_to_json"]

FORMAT = "purepca.PCA"
VERSION = 1

_PUBLIC = (
    "components_", "explained_variance_", "explained_variance_ratio_", "singular_values_", "mean_", "scale_",
    "n_components_", "n_samples_", "n_features_in_", "noise_variance_", "solver_", "feature_names_in_",
)
#: The record's fields at the fit's precision, as the file names them.
_STATE = {"mean": "mean", "mean_hi": "mean_hi", "mean_lo": "mean_lo", "sd": "sd", "variance": "variance",
          "roots": "roots", "components": "components", "noise": "noise", "ratios": "ratios", "singular": "singular"}


def _encode(value: Any) -> Any:
    if isinstance(value, list):
        return [_encode(v) for v in value]
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)  # "inf" or "-inf": JSON has no such number
    return value


def _number(value: Any, ctx: Context, where: str, *, low: Optional[float] = None, positive: bool = False,
            infinite: bool = False) -> Scalar:
    """One number of the file at the context's precision, checked: finite (or +inf where ``infinite``),
    at least ``low``, positive where ``positive``; an error naming the field otherwise."""
    if isinstance(value, bool) or not (isinstance(value, (int, float)) or (isinstance(value, str) and value)):
        raise PurePCAError(f"{where}: {value!r} is not a number")
    if isinstance(value, str) and ctx.name == "float" and value not in ("inf", "-inf"):
        raise PurePCAError(f"{where}: {value!r} is not a number")
    try:
        x = ctx.convert(Decimal(value) if isinstance(value, str) else value)
        f = ctx.to_float(x)
    except (InvalidOperation, ValueError, OverflowError, ArithmeticError):
        raise PurePCAError(f"{where}: {value!r} is not a number (or beyond the float range)") from None
    if f != f or (math.isinf(f) and not (infinite and f > 0)):
        raise PurePCAError(f"{where}: {value!r} is not a finite number")
    if (low is not None and f < low) or (positive and not f > 0):
        raise PurePCAError(f"{where}: {value!r} must be {'positive' if positive else f'at least {low:g}'}")
    return x


def _vector(value: Any, size: int, ctx: Context, where: str, **rule: Any) -> list[Scalar]:
    """A list of ``size`` numbers (see :func:`_number`)."""
    if not isinstance(value, list) or len(value) != size:
        got = f"{len(value)} entries" if isinstance(value, list) else type(value).__name__
        raise PurePCAError(f"{where}: expected a list of {size} numbers, got {got}")
    return [_number(v, ctx, f"{where}[{i}]", **rule) for i, v in enumerate(value)]


def _matrix(value: Any, rows: int, cols: int, ctx: Context, where: str) -> list[list[Scalar]]:
    """``rows`` lists of ``cols`` finite numbers."""
    if not isinstance(value, list) or len(value) != rows:
        got = f"{len(value)} rows" if isinstance(value, list) else type(value).__name__
        raise PurePCAError(f"{where}: expected {rows} rows of {cols} numbers, got {got}")
    return [_vector(row, cols, ctx, f"{where}[{i}]") for i, row in enumerate(value)]


def _rows_weighed(state: dict[str, Any], n: int) -> int:
    """How many rows a fit stood for: ``n``, or more for integer sample weights (the rows repeated: the
    divisor plus ddof), which bounds how many components it can keep (``div`` is checked later)."""
    div, ddof = state.get("div"), state.get("ddof")
    if isinstance(div, float) and math.isfinite(div) and isinstance(ddof, int) and not isinstance(ddof, bool) \
            and 0 <= ddof < 2 ** 62:
        return max(n, int(min(div + ddof, 2.0 ** 62)))
    return n


def _count(value: Any, where: str, low: int = 0, high: Optional[int] = None) -> int:
    """A whole number between ``low`` and ``high``."""
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
        limit = f"between {low} and {high}" if high is not None else f"at least {low}"
        raise PurePCAError(f"{where}: expected a whole number {limit}, got {value!r}")
    return value


@in_owned_decimal
def pca_to_json(pca: PCA) -> str:
    """The fitted model as JSON text (see the module's docstring).

    >>> from purepca import PCA
    >>> text = pca_to_json(PCA(1).fit([[0.0, 1.0], [2.0, 2.0], [4.0, 4.5]]))
    >>> import json; json.loads(text)["format"], json.loads(text)["version"]
    ('purepca.PCA', 1)
    """
    if not isinstance(pca, PCA):
        raise PurePCAError(f"pca_to_json: expected a fitted purepca.PCA, got {type(pca).__name__}")
    state = pca._fitted_state()
    document = {
        "format": FORMAT,
        "version": VERSION,
        "precision": None if state.ctx.name == "float" else getattr(state.ctx, "digits", None),
        "params": {k: v for k, v in pca.get_params().items() if k != "precision"},
        "attributes": {name: _encode(getattr(state, name)) for name in _PUBLIC},
        "state": {
            "sign": state.sign,
            "ddof": state.ddof,
            # The variance divisor (n - ddof, or the sum of the sample weights less ddof), whether the
            # columns were scaled, the column weights, and the discarded eigenvalues (for spe_limit).
            "div": state.div,
            "scaled": state.scaled,
            "column_weight": state.column_weight,
            "rest": _encode(state.rest),
            "n_dropped": state.n_dropped_,
            "n_iter": state.n_iter_,
            **{key: _encode(getattr(state, field)) for key, field in _STATE.items()},
        },
    }
    return json.dumps(document, indent=1, allow_nan=False)


@in_owned_decimal
def pca_from_json(text: str) -> PCA:
    """A fitted :class:`~purepca.PCA` from :func:`pca_to_json`'s text; a file of
    another format or version is an error that says so.

    >>> pca_from_json('{"format": "something else"}')
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: model: not a purepca.PCA model (format 'something else')
    """
    if not isinstance(text, (str, bytes, bytearray)):
        raise PurePCAError(f"model: expected the JSON text of a model, got {type(text).__name__}")
    try:
        document = json.loads(text)
    except (ValueError, RecursionError) as err:
        raise PurePCAError(f"model: not JSON ({err})") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        kind = document.get("format") if isinstance(document, dict) else type(document).__name__
        raise PurePCAError(f"model: not a {FORMAT} model (format {kind!r})")
    if document.get("version") != VERSION or isinstance(document.get("version"), bool):  # true == 1
        raise PurePCAError(f"model: version {document.get('version')!r}; this purepca reads version {VERSION}")
    params, precision = document.get("params"), document.get("precision")
    if not isinstance(params, dict) or not set(params) <= set(PCA._PARAMS) - {"precision"}:
        unknown = sorted(set(params) - set(PCA._PARAMS)) if isinstance(params, dict) else params
        raise PurePCAError(f"model: a field is missing or malformed: params: expected the PCA's parameters, got "
                           f"{unknown!r}")
    if precision is not None and (isinstance(precision, bool) or not isinstance(precision, int)):
        raise PurePCAError(f"model: a field is missing or malformed: precision: expected null or a whole number, "
                           f"got {precision!r}")
    pca = PCA(**params, precision=precision)
    try:
        ctx = get_context(precision)
        pca._assign(_state(document, ctx, pca), None)
    except KeyError as err:
        raise PurePCAError(f"model: a field is missing or malformed: {err} is missing") from None
    except PurePCAError as err:
        raise PurePCAError(f"model: a field is missing or malformed: {err}") from None
    return pca


def _state(document: dict[str, Any], ctx: Context, pca: PCA) -> PCAState:
    """The fitted record a model file describes, every field checked (type, shape, range) and named."""
    state, attributes = document["state"], document["attributes"]
    if not isinstance(state, dict) or not isinstance(attributes, dict):
        raise PurePCAError("'state' and 'attributes' must be JSON objects")
    settings = pca._settings()  # every parameter checked, named as the constructor names it
    floats = get_context(None)
    d = _count(attributes["n_features_in_"], "n_features_in_", 1)
    n = _count(attributes["n_samples_"], "n_samples_", 2)
    k = _count(attributes["n_components_"], "n_components_", 0, min(_rows_weighed(state, n), d))
    solver = attributes["solver_"]
    if not isinstance(solver, str) or solver not in SOLVER_TABLE:  # purepca's solvers and any registered since
        raise PurePCAError(f"solver_: expected one of {', '.join(map(str, SOLVER_TABLE))}, got {solver!r:.60}")
    names = attributes["feature_names_in_"]
    if names is not None and (not isinstance(names, list) or len(names) != d
                              or not all(isinstance(v, str) for v in names)):
        raise PurePCAError(f"feature_names_in_: expected null or {d} strings, got {names!r}")
    sign = state["sign"]
    if sign not in SIGN_RULES:
        raise PurePCAError(f"sign: expected one of {', '.join(SIGN_RULES)}, got {sign!r}")
    ddof = _count(state["ddof"], "ddof", 0, 2 ** 31)
    scale, sd = attributes["scale_"], state.get("sd")
    inner = {
        "mean_hi": _vector(state["mean_hi"], d, ctx, "mean_hi"),
        "mean_lo": _vector(state["mean_lo"], d, ctx, "mean_lo"),
        "sd": None if sd is None else _vector(sd, d, ctx, "sd", positive=True),
        "components": _matrix(state["components"], k, d, ctx, "components"),
        "variance": _vector(state["variance"], k, ctx, "variance", low=0.0, infinite=True),
        "roots": _vector(state["roots"], k, ctx, "roots", low=0.0, infinite=True),
        "noise": _number(state["noise"], ctx, "noise", low=0.0, infinite=True),
    }
    # Models written before these fields existed: their float values, and an unweighted fit's.
    inner["mean"] = (_vector(state["mean"], d, ctx, "mean") if "mean" in state else
                     [h + l for h, l in zip(inner["mean_hi"], inner["mean_lo"])])
    public = {
        "components_": [[ctx.to_float(v) for v in row] for row in _matrix(attributes["components_"], k, d, floats,
                                                                          "components_")],
        "explained_variance_": _vector(attributes["explained_variance_"], k, floats, "explained_variance_",
                                       low=0.0, infinite=True),
        "explained_variance_ratio_": _vector(attributes["explained_variance_ratio_"], k, floats,
                                             "explained_variance_ratio_", low=0.0),
        "singular_values_": _vector(attributes["singular_values_"], k, floats, "singular_values_", low=0.0,
                                    infinite=True),
        "mean_": _vector(attributes["mean_"], d, floats, "mean_"),
        "scale_": None if scale is None else _vector(scale, d, floats, "scale_", positive=True),
        "noise_variance_": _number(attributes["noise_variance_"], floats, "noise_variance_", low=0.0, infinite=True),
    }
    if (scale is None) != (sd is None):
        raise PurePCAError("scale_ and sd: one is null and the other is not")
    inner["ratios"] = (_vector(state["ratios"], k, ctx, "ratios", low=0.0) if "ratios" in state
                       else [ctx.convert(v) for v in public["explained_variance_ratio_"]])
    inner["singular"] = (_vector(state["singular"], k, ctx, "singular", low=0.0, infinite=True) if "singular" in state
                         else [ctx.convert(v) for v in public["singular_values_"]])
    _agree(public, inner, ctx)
    column_weight, rest = state.get("column_weight"), state.get("rest")
    rest_values = None if rest is None else [float(v) for v in _vector(
        rest, len(rest) if isinstance(rest, list) and len(rest) <= d else d, floats, "rest", low=0.0, infinite=True)]
    div = float(_number(state.get("div", n - ddof), floats, "div", positive=True))
    _invariants(inner, rest_values, div, ctx, d)
    return PCAState(
        ctx=ctx, convention=settings.convention, sign=sign, ddof=ddof,
        div=div, center=settings.center, scaled=_flag(state.get("scaled", scale is not None), "scaled"),
        rest=rest_values,
        column_weight=None if column_weight is None else [
            float(v) for v in _vector(column_weight, d, floats, "column_weight", positive=True)],
        n_dropped_=_count(state.get("n_dropped", 0), "n_dropped"), n_iter_=_count(state.get("n_iter", 0), "n_iter"),
        source="model file", solver_=solver, n_samples_=n, n_features_in_=d, feature_names_in_=names,
        **inner, **public,
    )


#: Each public attribute and the field at the fit's precision it is the float value of.
_COPIES = (("components_", "components"), ("mean_", "mean"), ("scale_", "sd"),
           ("explained_variance_", "variance"), ("explained_variance_ratio_", "ratios"),
           ("singular_values_", "singular"), ("noise_variance_", "noise"))


def _agree(public: dict[str, Any], inner: dict[str, Any], ctx: Context) -> None:
    """Refuse a file whose public attributes are not the float values of the fields ``transform`` computes
    with: the file holds one number twice (the attribute for the reader, the field at the fit's
    precision), so a hand edit of one copy would be read by some methods and not by others."""
    def flat(value: Any) -> list[Any]:
        if isinstance(value, list):
            return [x for v in value for x in flat(v)]
        return [value]

    def where(value: Any, at: int) -> str:
        if isinstance(value, list) and value and isinstance(value[0], list):
            width = len(value[0])
            return f"[{at // width}][{at % width}]"
        return f"[{at}]" if isinstance(value, list) else ""

    for name, field in _COPIES:
        shown, kept = public[name], inner[field]
        if shown is None or kept is None:
            continue
        for at, (a, b) in enumerate(zip(flat(shown), flat(kept))):
            if float(a) != ctx.to_float(b):
                raise PurePCAError(f"{name}{where(shown, at)} is {float(a)!r} but state.{field}{where(shown, at)} "
                                   f"is {ctx.to_float(b)!r}: the file holds each number twice and the copies "
                                   "disagree (edited by hand?); fit and save the model again")


#: Components are refused when ``|v_i·v_j - δ_ij|`` exceeds this many ``d·eps`` (d features, eps the
#: model's precision): purepca's fits stay below 0.75 (every convention, scale, whiten, weights, missing,
#: the six solvers, precision=30; data spreads of 1e-3 to 1e150), and a component written by hand to
#: 17 digits is within 1.
ORTHONORMAL_TOLERANCE = 64
#: Numbers the file holds that are computed from others in ways that round (singular values from the
#: variances and the divisor, ratios from the variances and the total, the noise from the discarded
#: eigenvalues) must agree with them to this many float eps, relative: fits stay below 1.3.
DERIVED_TOLERANCE = 8
#: Above this many multiplications (k·k·d) the orthogonality of the components is checked by products
#: with fixed ±1 vectors (each pair's defect is seen in them), not pair by pair: loading stays quick.
PAIRWISE_LIMIT = 4_000_000


def _invariants(inner: dict[str, Any], rest: Optional[list[float]], div: float, ctx: Context, d: int) -> None:
    """Refuse a file whose numbers, each well formed, cannot be one fitted PCA: every number the file holds
    twice, or computes from others, must agree with them (the mean is ``mean_hi + mean_lo`` to the bit,
    each of ``roots`` the square root of its variance to the bit), and the model must be a PCA's:
    variances in descending order, components of unit length and orthogonal to
    :data:`ORTHONORMAL_TOLERANCE` ``·d·eps``, the discarded eigenvalues below the kept ones.  A hand edit
    of one copy (``mean_hi`` by 1e-9), or a consistent edit of an impossible model (a component doubled,
    two equal components, ascending variances), is an error naming the field."""
    f = ctx.to_float
    with ctx.local():
        for j, (m, h, lo) in enumerate(zip(inner["mean"], inner["mean_hi"], inner["mean_lo"])):
            if m != h + lo:
                raise PurePCAError(f"state.mean_hi[{j}] + state.mean_lo[{j}] is {f(h + lo)!r} but state.mean[{j}] is "
                                   f"{f(m)!r}: the mean is held as the pair hi + lo and their sum, and they disagree "
                                   "(edited by hand?); fit and save the model again")
        variance, roots = inner["variance"], inner["roots"]
        for i, (v, r) in enumerate(zip(variance, roots)):
            if i and v > variance[i - 1]:
                raise PurePCAError(f"state.variance[{i}] = {f(v)!r} is above state.variance[{i - 1}] = "
                                   f"{f(variance[i - 1])!r}: a PCA's variances are in descending order")
            _root_agrees(v, r, i, ctx)
        _orthonormal(inner["components"], ctx, d)
    eps = f(ctx.eps) if ctx.name != "float" else 2.0 ** -52
    tol = DERIVED_TOLERANCE * max(eps, 2.0 ** -52)
    var = [f(v) for v in inner["variance"]]
    for i, (v, s) in enumerate(zip(var, (f(x) for x in inner["singular"]))):
        want = math.sqrt(v) * math.sqrt(div)
        if math.isfinite(want) and math.isfinite(s) and not abs(s - want) <= tol * want + 2.0 ** -1074 * 4:
            raise PurePCAError(f"state.singular[{i}] is {s!r} but sqrt(variance · div) is {want!r}: the singular value "
                               "disagrees with the variance it is computed from (edited by hand?)")
    if rest is not None:
        for i, v in enumerate(rest):
            above = var[-1] if i == 0 and var else (rest[i - 1] if i else math.inf)
            if v > above * (1 + tol):
                raise PurePCAError(f"rest[{i}] = {v!r} is above {above!r}: the discarded eigenvalues are below "
                                   "the kept ones, in descending order")
        noise = f(inner["noise"])
        want = math.fsum(rest) / len(rest) if rest else 0.0
        if noise != want and not abs(noise - want) <= tol * want:
            raise PurePCAError(f"state.noise is {noise!r} but the mean of the discarded eigenvalues (rest) "
                               f"is {want!r}: the noise variance disagrees with them (edited by hand?)")
        total = math.fsum(var + rest)
        for i, (v, r) in enumerate(zip(var, (f(x) for x in inner["ratios"]))):
            want = v / total if total > 0 else 0.0
            if math.isfinite(total) and not abs(r - want) <= tol * want + 2.0 ** -1074 * 4:
                raise PurePCAError(f"state.ratios[{i}] is {r!r} but variance / total is {want!r}: the ratio disagrees "
                                   "with the variances (edited by hand?)")
    ratios = [f(x) for x in inner["ratios"]]
    if math.fsum(ratios) > 1 + tol * max(1, len(ratios)):
        raise PurePCAError(f"state.ratios add up to {math.fsum(ratios)!r}: the ratios of explained variance are "
                           "fractions of one total, at most 1")
    for i in range(1, len(ratios)):
        # ratio_i / ratio_0 = variance_i / variance_0 (one total), to the rounding of each
        if math.isfinite(var[0]) and math.isfinite(var[i]) and \
                not abs(ratios[i] * var[0] - ratios[0] * var[i]) <= 2 * tol * ratios[0] * var[i] + 2.0 ** -1074 * 4:
            raise PurePCAError(f"state.ratios[{i}] is {ratios[i]!r}: the ratios are not in proportion to the variances "
                               "(one total divides them all; edited by hand?)")


def _root_agrees(v: Scalar, r: Scalar, i: int, ctx: Context) -> None:
    """``roots[i]`` is the square root of ``variance[i]`` (both at the fit's precision): to the bit,
    except where the variance, a float subnormal or inf, lost the bits the root keeps (a fit computes
    both from the spectrum before it is scaled back by a power of two)."""
    fv, fr = ctx.to_float(v), ctx.to_float(r)
    if ctx.name != "float" or 2.0 ** -1022 <= fv < math.inf:
        if r != ctx.sqrt(v):
            raise PurePCAError(f"state.roots[{i}] is {fr!r} but the square root of state.variance[{i}] is "
                               f"{ctx.to_float(ctx.sqrt(v))!r}: each root is computed from its variance, and they "
                               "disagree (edited by hand?)")
        return
    if fv == math.inf:
        ok = fr >= 2.0 ** 511
    else:  # a subnormal variance: its root to the bits the variance kept
        want = math.sqrt(fv)
        ok = abs(fr - want) <= want * (2.0 ** -52 + 2.0 ** -1074 / fv) if fv > 0 else fr < 2.0 ** -511
    if not ok:
        raise PurePCAError(f"state.roots[{i}] is {fr!r} but the square root of state.variance[{i}] is "
                           f"{math.sqrt(fv)!r}: each root is computed from its variance, and they disagree")


def _orthonormal(components: list[list[Scalar]], ctx: Context, d: int) -> None:
    """Refuse components that are not of unit length and orthogonal (:data:`ORTHONORMAL_TOLERANCE`)."""
    eps = ctx.to_float(ctx.eps)
    tol = ORTHONORMAL_TOLERANCE * d * eps
    dot, one, f, k = ctx.dot, ctx.one, ctx.to_float, len(components)
    for i, u in enumerate(components):
        off = f(dot(u, u) - one)
        if not abs(off) <= tol:
            raise PurePCAError(f"state.components[{i}] is not a unit vector (its squared length is 1 {off:+.3g}; "
                               f"{ORTHONORMAL_TOLERANCE}·d·eps = {tol:.2g} allowed): a PCA's components are")
    if k * k * d <= PAIRWISE_LIMIT:
        for i, u in enumerate(components):
            for j in range(i):
                off = f(dot(u, components[j]))
                if not abs(off) <= tol:
                    raise PurePCAError(f"state.components[{j}] and state.components[{i}] are not orthogonal (their "
                                       f"product is {off:.3g}; {tol:.2g} allowed): a PCA's components are")
        return
    # Products V·(Vᵀ·z) - z = (VVᵀ - I)·z with fixed ±1 vectors z: a pair (i, j) out of true by θ moves
    # entry i by ±θ on top of what the other pairs add (each within tol), so it shows in one of them.
    columns = [list(col) for col in zip(*components)]
    for seed in (1, 2, 3):
        z = [one if (i * 2654435761 + seed * 40503) >> 7 & 1 else -one for i in range(k)]
        w = [dot(col, z) for col in columns]
        for i, u in enumerate(components):
            off = f(dot(u, w) - z[i])
            if not abs(off) <= tol * k:
                raise PurePCAError(f"state.components[{i}] is not orthogonal to the others (V·Vᵀ·z - z is {off:.3g} "
                                   f"for a ±1 vector z; {tol * k:.2g} allowed): a PCA's components are")


def _flag(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise PurePCAError(f"{where}: expected true or false, got {value!r}")
    return value
