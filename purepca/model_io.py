"""A fitted PCA as plain, versioned, human-readable JSON, and back.

The file holds the constructor's parameters, the public attributes, and the
internal state that ``transform`` uses (the mean as the pair ``hi + lo``, the
components, scales and standard deviations at the fit's precision), so a
model read back transforms new rows to the same bits as the model that was
saved.  The public attributes are the float values of those fields; a file
whose two copies of a number disagree (one edited by hand) is refused, naming
the field, rather than read one way by some methods and the other by others.
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
from .pca import PCA, SOLVERS

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
    if solver not in SOLVERS[1:]:
        raise PurePCAError(f"solver_: expected one of {', '.join(SOLVERS[1:])}, got {solver!r}")
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
    return PCAState(
        ctx=ctx, convention=settings.convention, sign=sign, ddof=ddof,
        div=float(_number(state.get("div", n - ddof), floats, "div", positive=True)), center=settings.center,
        scaled=_flag(state.get("scaled", scale is not None), "scaled"),
        rest=None if rest is None else [float(v) for v in _vector(rest, len(rest) if isinstance(rest, list) and
                                                                   len(rest) <= d else d, floats, "rest", low=0.0,
                                                                   infinite=True)],
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


def _flag(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise PurePCAError(f"{where}: expected true or false, got {value!r}")
    return value
