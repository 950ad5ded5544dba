"""Issue 36, the command and model files: the battery's findings on ``purepca fit``, ``transform``,
``plot`` and ``trace``, the hints, and FactoMineR's summary tables.  Each test failed on 768b701."""

from __future__ import annotations

import json
import pathlib
from typing import Any

import pytest

from purepca import PCA, PurePCAError
from purepca.cli import main
from purepca.model_io import pca_from_json, pca_to_json

X = [[1.0, 2.0, 0.5], [2.0, 1.0, 1.5], [4.0, 5.0, 0.0], [3.0, 3.0, 1.0], [0.0, 1.0, 2.0]]


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        status = main(argv)
    except SystemExit as exit_:
        status = int(exit_.code or 0)
    out = capsys.readouterr()
    return status, out.out, out.err


def _file(tmp_path: pathlib.Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


# ------------------------------------------------------------------------- model files


@pytest.mark.parametrize("field, edit, message", [
    ("components_", lambda d: d["attributes"]["components_"][0].__setitem__(1, 0.25), r"components_\[0\]\[1\]"),
    ("mean_", lambda d: d["attributes"]["mean_"].__setitem__(2, 9.0), r"mean_\[2\]"),
    ("scale_", lambda d: d["attributes"]["scale_"].__setitem__(0, 2.0), r"scale_\[0\]"),
    ("explained_variance_", lambda d: d["attributes"]["explained_variance_"].__setitem__(1, 0.01),
     r"explained_variance_\[1\]"),
    ("noise_variance_", lambda d: d["attributes"].__setitem__("noise_variance_", 0.5), "noise_variance_"),
])
def test_model_io_refuses_public_attributes_that_disagree_with_the_state(field: str, edit: Any,
                                                                          message: str) -> None:
    document = json.loads(pca_to_json(PCA(2, scale=True).fit(X)))
    edit(document)
    with pytest.raises(PurePCAError, match=rf"^model: .*{message} is .* but state\..* disagree"):
        pca_from_json(json.dumps(document))


@pytest.mark.parametrize("kwargs", [{}, {"scale": True}, {"precision": 30}, {"convention": "factominer"}])
def test_model_io_round_trip_passes_the_agreement_check(kwargs: dict[str, Any]) -> None:
    pca = PCA(**kwargs).fit(X)
    back = pca_from_json(pca_to_json(pca))
    assert back.components_ == pca.components_ and back.transform(X) == pca.transform(X)


def test_transform_command_refuses_an_edited_model_file(tmp_path: pathlib.Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    data = _file(tmp_path, "d.csv", "a,b,c\n" + "\n".join(",".join(map(str, r)) for r in X) + "\n")
    model = str(tmp_path / "m.json")
    assert _run(["fit", data, "--save", model], capsys)[0] == 0
    document = json.loads(pathlib.Path(model).read_text())
    document["attributes"]["mean_"][0] += 1.0
    pathlib.Path(model).write_text(json.dumps(document))
    status, out, err = _run(["transform", data, "--model", model], capsys)
    assert status == 1 and out == "" and "mean_[0]" in err and "disagree" in err


# ---------------------------------------------------------------- decimal commas


@pytest.mark.parametrize("stream", ["never", "always"])
def test_fit_decimal_comma_reads_dots_as_thousands_groups(tmp_path: pathlib.Path, stream: str,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    data = _file(tmp_path, "d.csv", "a;b\n1.234;2,5\n2.000,5;1\n-1.500;3,25\n7;0\n")
    status, out, err = _run(["fit", data, "--delimiter", ";", "--decimal", ",", "--stream", stream,
                             "--format", "json"], capsys)
    assert status == 0, err
    want = PCA(convention="prcomp").fit([[1234.0, 2.5], [2000.5, 1.0], [-1500.0, 3.25], [7.0, 0.0]])
    assert json.loads(out)["importance"]["Standard deviation"] == list(want.sdev)


@pytest.mark.parametrize("cell", ["1.23", "1.2345", "12.34.567", ".5", "1.234.5", "1.234,5.6"])
def test_fit_decimal_comma_refuses_a_dot_that_is_not_grouping(tmp_path: pathlib.Path, cell: str,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    data = _file(tmp_path, "d.csv", f"a;b\n1;2\n3;{cell}\n5;7\n")
    status, out, err = _run(["fit", data, "--delimiter", ";", "--decimal", ","], capsys)
    assert status == 1 and out == ""
    assert f"d.csv: line 3, column 'b': '{cell}' holds a dot, but with --decimal , the decimal mark is the comma" in err
