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
from .pca import PCA

__all__ = ["FORMAT", "VERSION", "pca_from_json", "pca_to_json"]

FORMAT = "purepca.PCA"
VERSION = 1

_PUBLIC = (
    "components_", "explained_variance_", "explained_variance_ratio_", "singular_values_", "mean_", "scale_",
    "n_components_", "n_samples_", "n_features_in_", "noise_variance_", "solver_", "feature_names_in_",
)
_STATE = ("_mean", "_mean_hi", "_mean_lo", "_sd", "_variance", "_roots", "_components", "_noise")


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
    pca._fitted()
    ctx = pca._ctx
    document = {
        "format": FORMAT,
        "version": VERSION,
        "precision": None if ctx.name == "float" else getattr(ctx, "digits", None),
        "params": {k: v for k, v in pca.get_params().items() if k != "precision"},
        "attributes": {name: _encode(getattr(pca, name, None)) for name in _PUBLIC},
        "state": {
            "sign": pca._sign,
            "ddof": pca._ddof,
            # The variance divisor (n - ddof, or the sum of the sample weights less ddof), whether the
            # columns were scaled, the column weights, and the discarded eigenvalues (for spe_limit).
            "div": pca._div,
            "scaled": pca._scaled,
            "column_weight": pca._weights[1],
            "rest": pca._rest,
            **{name.lstrip("_"): _encode(getattr(pca, name)) for name in _STATE},
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
    try:
        document = json.loads(text)
    except ValueError as err:
        raise PurePCAError(f"model: not JSON ({err})") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        kind = document.get("format") if isinstance(document, dict) else type(document).__name__
        raise PurePCAError(f"model: not a {FORMAT} model (format {kind!r})")
    if document.get("version") != VERSION:
        raise PurePCAError(f"model: version {document.get('version')!r}; this purepca reads version {VERSION}")
    try:
        precision: Optional[int] = document["precision"]
        pca = PCA(**document["params"], precision=precision)
        ctx = get_context(precision)
        state, attributes = document["state"], document["attributes"]
        for name in _STATE:
            setattr(pca, name, _decode(state[name.lstrip("_")], ctx, name.lstrip("_")))
        for name in _PUBLIC:
            value = attributes[name]
            if name in ("n_components_", "n_samples_", "n_features_in_", "solver_", "feature_names_in_"):
                setattr(pca, name, value)
            else:
                setattr(pca, name, _decode(value, get_context(None), name))
        pca._ctx = ctx
        pca._sign = state["sign"]
        pca._ddof = int(state["ddof"])
        # Models written before these fields existed: an unweighted fit's values.
        pca._div = float(state.get("div", pca.n_samples_ - pca._ddof))
        pca._scaled = bool(state.get("scaled", pca.scale_ is not None))
        column_weight = state.get("column_weight")
        pca._weights = (None, [float(v) for v in column_weight] if column_weight is not None else None)
        rest = state.get("rest")
        pca._rest = [float(v) for v in rest] if rest is not None else None
        pca._convention = CONVENTIONS[pca.convention]
    except (KeyError, TypeError) as err:
        raise PurePCAError(f"model: a field is missing or malformed ({err})") from None
    pca.high_precision_ = None
    pca._x = None
    pca._train = None
    return pca
