"""A fitted PCA as plain, versioned, human-readable JSON, and back.

The file holds the constructor's parameters, the public attributes, and the
internal state that ``transform`` uses (the mean as the pair ``hi + lo``, the
components, scales and standard deviations at the fit's precision), so a
model read back transforms new rows to the same bits as the model that was
saved.  Finite floats are JSON numbers written with ``repr`` (which reads back
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

from .conventions import CONVENTIONS
from .errors import PurePCAError
from .numeric import Context, get_context
from .fitting import PCAState
from .pca import PCA

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


def _decode(value: Any, ctx: Context, where: str) -> Any:
    if value is None:
        return None
    if isinstance(value, list):
        return [_decode(v, ctx, where) for v in value]
    if ctx.name == "float":
        if isinstance(value, str) and value in ("inf", "-inf"):
            return float(value)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
        raise PurePCAError(f"model: {where}: {value!r} is not a number")
    try:
        return ctx.convert(Decimal(str(value)))
    except InvalidOperation:
        raise PurePCAError(f"model: {where}: {value!r} is not a number") from None


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
            "rest": state.rest,
            "n_dropped": state.n_dropped_,
            "n_iter": state.n_iter_,
            **{key: _encode(getattr(state, field)) for key, field in _STATE.items()},
        },
    }
    return json.dumps(document, indent=1, allow_nan=False)


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
    if document.get("version") != VERSION:
        raise PurePCAError(f"model: version {document.get('version')!r}; this purepca reads version {VERSION}")
    try:
        precision: Optional[int] = document["precision"]
        pca = PCA(**document["params"], precision=precision)
        pca._assign(_state(document, get_context(precision), pca), None)
    except (KeyError, TypeError, ValueError, AttributeError) as err:
        raise PurePCAError(f"model: a field is missing or malformed ({err})") from None
    return pca


def _state(document: dict[str, Any], ctx: Context, pca: PCA) -> PCAState:
    """The fitted record a model file describes."""
    state, attributes = document["state"], document["attributes"]
    floats = get_context(None)
    public = {name: attributes[name] if name in ("n_components_", "n_samples_", "n_features_in_", "solver_",
                                                 "feature_names_in_")
              else _decode(attributes[name], floats, name) for name in _PUBLIC}
    inner = {field: _decode(state[key], ctx, key) for key, field in _STATE.items() if key in state}
    # Models written before these fields existed: their float values, and an unweighted fit's.
    inner.setdefault("ratios", [ctx.convert(v) for v in public["explained_variance_ratio_"]])
    inner.setdefault("singular", [ctx.convert(v) for v in public["singular_values_"]])
    ddof = int(state["ddof"])
    column_weight = state.get("column_weight")
    rest = state.get("rest")
    if pca.convention not in CONVENTIONS:
        raise PurePCAError(f"model: params: convention {pca.convention!r} is not one of {', '.join(CONVENTIONS)}")
    inner.setdefault("mean", [h + l for h, l in zip(inner["mean_hi"], inner["mean_lo"])])
    del public["n_components_"]
    return PCAState(
        ctx=ctx, convention=pca.convention, sign=state["sign"], ddof=ddof,
        div=float(state.get("div", public["n_samples_"] - ddof)), center=bool(pca.center),
        scaled=bool(state.get("scaled", public["scale_"] is not None)),
        rest=[float(v) for v in rest] if rest is not None else None,
        column_weight=[float(v) for v in column_weight] if column_weight is not None else None,
        n_dropped_=int(state.get("n_dropped", 0)), n_iter_=int(state.get("n_iter", 0)), source="model file",
        **inner, **public,
    )
