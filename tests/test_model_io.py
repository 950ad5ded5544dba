"""Model files: every field of a model read back is checked (type, shape, range) and named when wrong.

The malformed models of issue 20 (lines 8, 19 and 25): each used to load and answer, or raise a raw
Python exception, or blame the data.
"""

from __future__ import annotations

import json
from typing import Any, Callable

import pytest

from purepca import PCA, KernelPCA, PurePCAError
from purepca.model_io import pca_from_json, pca_to_json

X = [[1.0, 2.0, 0.5], [2.0, 1.0, 1.5], [4.0, 5.0, 0.0], [3.0, 3.0, 1.0], [0.0, 1.0, 2.0]]


def document(**kwargs: Any) -> dict[str, Any]:
    return json.loads(pca_to_json(PCA(2, **kwargs).fit(X)))


def broken(change: Callable[[dict[str, Any]], None], **kwargs: Any) -> str:
    doc = document(**kwargs)
    change(doc)
    return json.dumps(doc)


def setter(section: str, field: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        doc[section][field] = value
    return change


CASES = [
    # (what is broken, the change, the field the message must name)
    ("a component row short", lambda d: d["attributes"]["components_"][0].pop(), r"components_\[0\]"),
    ("a component row long", lambda d: d["attributes"]["components_"][1].append(0.5), r"components_\[1\]"),
    ("an extra component", lambda d: d["state"]["components"].append([0.0, 0.0, 1.0]), "components"),
    ("100,000 component rows", setter("state", "components", [[1.0, 0.0, 0.0]] * 100_000), "components"),
    ("no components", setter("state", "components", []), "components"),
    ("mean_hi short", lambda d: d["state"]["mean_hi"].pop(), "mean_hi"),
    ("a negative sd", setter("attributes", "scale_", [1.0, -1.0, 1.0]), r"scale_\[1\]"),
    ("n_components_ over the columns", setter("attributes", "n_components_", 5), "n_components_"),
    ("whiten a string", lambda d: d["params"].update(whiten="yes"), "whiten"),
    ("NaN in components_", setter("attributes", "components_", [[float("nan"), 0.0, 0.0], [0.0, 1.0, 0.0]]),
     r"components_\[0\]\[0\]"),
    ("an explained variance of -1", setter("attributes", "explained_variance_", [-1.0, 0.5]),
     r"explained_variance_\[0\]"),
    ("a 400-digit int", setter("state", "noise", 10 ** 400), "noise"),
    ("a null", setter("state", "mean_lo", None), "mean_lo"),
    ("a nested list", setter("state", "roots", [[1.0], [2.0]]), r"roots\[0\]"),
    ("sd all 0", setter("state", "sd", [0.0, 0.0, 0.0]), r"sd\[0\]"),
    ("a string ddof", setter("state", "ddof", "1"), "ddof"),
    ("a string div", setter("state", "div", "four"), "div"),
    ("a string in rest", setter("state", "rest", ["x"]), r"rest\[0\]"),
    ("a string column weight", setter("state", "column_weight", ["a", 1.0, 1.0]), r"column_weight\[0\]"),
    ("inf in the mean", setter("state", "mean_hi", ["inf", 0.0, 0.0]), r"mean_hi\[0\]"),
    ("a bogus convention", lambda d: d["params"].update(convention="matlab"), "convention"),
    ("n_features_in_ of 'x'", setter("attributes", "n_features_in_", "x"), "n_features_in_"),
    ("an unknown parameter", lambda d: d["params"].update(colour="red"), "colour"),
    ("a bogus solver", setter("attributes", "solver_", "magic"), "solver_"),
    ("a bogus sign rule", setter("state", "sign", "upwards"), "sign"),
]


@pytest.mark.parametrize("what, change, field", CASES, ids=[c[0] for c in CASES])
def test_model_io_refuses_a_malformed_model_naming_the_field(what: str, change: Callable[[dict[str, Any]], None],
                                                             field: str) -> None:
    text = broken(change, scale=True)
    with pytest.raises(PurePCAError, match=rf"^model: .*{field}"):
        pca_from_json(text)


def test_model_io_refuses_what_is_not_a_model() -> None:
    with pytest.raises(PurePCAError, match="expected the JSON text of a model, got NoneType"):
        pca_from_json(None)  # type: ignore[arg-type]
    with pytest.raises(PurePCAError, match="not JSON"):
        pca_from_json("[" * 100_000 + "]" * 100_000)
    with pytest.raises(PurePCAError, match="expected a fitted purepca.PCA, got KernelPCA"):
        pca_to_json(KernelPCA())  # type: ignore[arg-type]
    with pytest.raises(PurePCAError, match="field is missing or malformed: 'state' is missing"):
        doc = document()
        del doc["state"]
        pca_from_json(json.dumps(doc))


@pytest.mark.parametrize("kwargs", [{}, {"scale": True}, {"precision": 30}, {"whiten": True}])
def test_model_io_round_trip_of_good_models_still_loads(kwargs: dict[str, Any]) -> None:
    pca = PCA(2, **kwargs).fit(X)
    back = pca_from_json(pca_to_json(pca))
    assert back.transform(X) == pca.transform(X)
    assert back.hotelling_t2(X) == pca.hotelling_t2(X) and back.spe_limit(0.05) == pca.spe_limit(0.05)


def test_model_io_keeps_variances_beyond_the_float_range() -> None:
    big = [[v * 1e200 for v in row] for row in X]
    pca = PCA(2).fit(big)
    assert pca.explained_variance_[0] == float("inf")
    back = pca_from_json(pca_to_json(pca))
    assert back.explained_variance_ == pca.explained_variance_
    assert back.transform(big) == pca.transform(big)
