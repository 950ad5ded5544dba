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
    plain = _file(tmp_path, "p.csv", "a,b\n1234,2.5\n2000.5,1\n-1500,3.25\n7,0\n")
    _, want, _ = _run(["fit", plain, "--stream", stream, "--format", "json"], capsys)
    assert json.loads(out)["importance"] == json.loads(want)["importance"]


@pytest.mark.parametrize("cell", ["1.23", "1.2345", "12.34.567", ".5", "1.234.5", "1.234,5.6"])
def test_fit_decimal_comma_refuses_a_dot_that_is_not_grouping(tmp_path: pathlib.Path, cell: str,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    data = _file(tmp_path, "d.csv", f"a;b\n1;2\n3;{cell}\n5;7\n")
    status, out, err = _run(["fit", data, "--delimiter", ";", "--decimal", ","], capsys)
    assert status == 1 and out == ""
    assert f"d.csv: line 3, column 'b': '{cell}' holds a dot, but with --decimal , the decimal mark is the comma" in err


# ------------------------------------------------------- options checked against each other

DATA = "id,a,b,c\nr1,1,2,0.5\nr2,2,1,1.5\nr3,4,5,0\nr4,3,3,1\nr5,0,1,2\n"


@pytest.mark.parametrize("top", ["-3", "-1"])
def test_plot_top_refuses_a_negative_count(tmp_path: pathlib.Path, top: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    data = _file(tmp_path, "d.csv", DATA)
    status, out, err = _run(["plot", data, "--id-column", "id", "--top", top], capsys)
    assert status == 2 and out == ""
    assert f"argument --top: how many variables to draw: an int >= 1, or 0 for all; got {top}" in err


@pytest.mark.parametrize("argv, message", [
    (["fit", "{d}", "--scores", "{t}/F", "-o", "{t}/F"], "--output {t}/F and --scores {t}/F name the same file"),
    (["fit", "{d}", "--scores", "{t}/F", "-o", "{t}/./F"], "--output {t}/./F and --scores {t}/F name the same file"),
    (["fit", "{d}", "--save", "{t}/m.json", "--scores", "{t}/m.json"],
     "--save {t}/m.json and --scores {t}/m.json name the same file"),
    (["fit", "{d}", "-o", "{d}"], "--output {d} would overwrite FILE {d}, which the command reads"),
    (["transform", "{d}", "--model", "{t}/m.json", "-o", "{t}/m.json"],
     "--output {t}/m.json would overwrite --model {t}/m.json, which the command reads"),
    (["plot", "{d}", "-o", "{t}/p.png", "--png"], "--output {t}/p.png and --png {t}/p.png name the same file"),
    (["trace", "{d}", "--id-column", "id", "-o", "{t}/link"], "--output {t}/link would overwrite FILE {d}"),
])
def test_cli_refuses_two_files_that_are_one_before_any_work(tmp_path: pathlib.Path, argv: list[str], message: str,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    data = _file(tmp_path, "d.csv", DATA)
    (tmp_path / "link").symlink_to(data)
    model = tmp_path / "m.json"
    model.write_text(pca_to_json(PCA(2).fit(X)))
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    fill = {"d": data, "t": str(tmp_path)}
    status, out, err = _run([a.format(**fill) for a in argv], capsys)
    assert status == 1 and out == ""
    assert message.format(**fill) in err
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before  # nothing written, nothing replaced


def test_cli_devices_may_be_named_twice(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = _file(tmp_path, "d.csv", DATA)
    status, _, err = _run(["fit", data, "--id-column", "id", "-o", "/dev/null", "--scores", "/dev/null"], capsys)
    assert status == 0, err


@pytest.mark.parametrize("convention", ["prcomp", "factominer"])
def test_fit_weights_leaving_one_row_say_so(tmp_path: pathlib.Path, convention: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    data = _file(tmp_path, "w.csv", "a,b,w\n1,2,0\n3,5,3\n4,4,0\n2,2,0\n")
    status, out, err = _run(["fit", data, "--weights", "w", "--convention", convention], capsys)
    assert status == 1 and out == ""
    assert "sample_weight: the weights leave one row (entry 1 is the only positive weight)" in err


def test_pca_sample_weight_leaving_one_row_says_so() -> None:
    with pytest.raises(PurePCAError, match=r"^sample_weight: the weights leave one row \(entry 2 is the only"):
        PCA().fit(X, sample_weight=[0, 0, 1.5, 0, 0])


# ---------------------------------------------------------------------------- hints

HOLES = "state,a,b,c\nA,1,2,3\nB,3,,1\nC,4,4,5\nD,5,1,2\nE,2,2,2\nF,0,1,4\n"


def test_fit_semicolon_file_without_delimiter_suggests_it(tmp_path: pathlib.Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    data = _file(tmp_path, "p.csv", "patient;age;weight\nA;31;70\nB;45;82\nC;52;77\n")
    status, out, err = _run(["fit", data, "--id-column", "patient"], capsys)
    assert status == 1 and out == ""
    assert "--id-column: no column 'patient' (columns: patient;age;weight); the first line is one field holding ';'" \
        in err and "use --delimiter ';'" in err
    assert _run(["fit", data, "--id-column", "patient", "--delimiter", ";"], capsys)[0] == 0


@pytest.mark.parametrize("command", ["fit", "plot", "trace"])
def test_missing_cell_error_names_em_where_the_command_has_it(tmp_path: pathlib.Path, command: str,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    data = _file(tmp_path, "m.csv", HOLES)
    status, out, err = _run([command, data, "--id-column", "state"], capsys)
    assert status == 1 and out == ""
    assert "m.csv: line 3, column 'b': a missing value (''); use --missing drop or --missing mean, or --missing em (iterative PCA imputation" in err


def test_missing_cell_error_leaves_em_out_where_the_command_lacks_it(tmp_path: pathlib.Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    data = _file(tmp_path, "m.csv", HOLES)
    status, out, err = _run(["kernel", data, "--id-column", "state"], capsys)
    assert status == 1 and "use --missing drop or --missing mean\n" in err


def _completed(rows: list[list[float]], k: int, **kwargs: Any) -> list[list[float]]:
    imputer = PCA(k, missing="em", **kwargs).fit(rows)
    assert imputer.imputed_ is not None
    return imputer.imputed_


def _holes_rows() -> list[list[float]]:
    return [[float("nan") if v == "" else float(v) for v in line.split(",")[1:]] for line in HOLES.splitlines()[1:]]


def test_trace_missing_em_traces_the_covariance_of_fits_imputation(tmp_path: pathlib.Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    from purepca.covariance import covariance_matrix
    from purepca.report import format_table

    data = _file(tmp_path, "m.csv", HOLES)
    status, out, err = _run(["trace", data, "--id-column", "state", "--missing", "em", "--components", "2",
                             "--method", "jacobi"], capsys)
    assert status == 0, err
    assert "m.csv: 1 missing value imputed by iterative PCA with 2 components" in err
    C = [[float(v) for v in row] for row in covariance_matrix(_completed(_holes_rows(), 2))]
    assert format_table(["a", "b", "c"], list(zip(["a", "b", "c"], C)), 7) in out


def test_plot_missing_em_draws_the_data_fit_imputes(tmp_path: pathlib.Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    data = _file(tmp_path, "m.csv", HOLES)
    done = _completed(_holes_rows(), 2, scale=True)
    ids = [line.split(",")[0] for line in HOLES.splitlines()[1:]]
    full = _file(tmp_path, "full.csv", "state,a,b,c\n" + "\n".join(
        ",".join([i] + [repr(v) for v in row]) for i, row in zip(ids, done)) + "\n")
    common = ["--id-column", "state", "--scale", "--title", "t", "--kind", "scores"]
    status, imputed, err = _run(["plot", data, "--missing", "em", "--components", "2"] + common, capsys)
    assert status == 0, err
    assert _run(["plot", full] + common, capsys)[1] == imputed


def test_plot_components_without_em_is_refused(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = _file(tmp_path, "d.csv", DATA)
    status, _, err = _run(["plot", data, "--id-column", "id", "--components", "2"], capsys)
    assert status == 2 and "--components K is the rank of --missing em's imputation" in err


def test_fit_scores_file_names_the_id_column_as_the_file_does(tmp_path: pathlib.Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    data = _file(tmp_path, "d.csv", DATA.replace("id,", "patient,"))
    scores = tmp_path / "s.csv"
    status, _, err = _run(["fit", data, "--id-column", "patient", "--scores", str(scores)], capsys)
    assert status == 0, err
    assert scores.read_text().splitlines()[0] == "patient,PC1,PC2,PC3"


def test_transform_and_kernel_csv_name_the_id_column(tmp_path: pathlib.Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    data = _file(tmp_path, "d.csv", DATA.replace("id,", "patient,"))
    model = str(tmp_path / "m.json")
    assert _run(["fit", data, "--id-column", "patient", "--save", model], capsys)[0] == 0
    status, out, _ = _run(["transform", data, "--model", model, "--id-column", "patient", "--format", "csv"], capsys)
    assert status == 0 and out.splitlines()[0] == "patient,PC1,PC2,PC3"
    status, out, _ = _run(["kernel", data, "--id-column", "patient", "--format", "csv"], capsys)
    assert status == 0 and out.splitlines()[0] == "patient,PC1,PC2"
    status, out, _ = _run(["fit", "--dataset", "decathlon", "--convention", "factominer", "--scores", "-",
                           "-o", "/dev/null"], capsys)
    assert status == 0 and out.splitlines()[0] == "name," + ",".join(f"Dim.{c}" for c in range(1, 11))


def test_transform_names_a_model_column_missing_from_the_file(tmp_path: pathlib.Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    fitted = _file(tmp_path, "s.csv", "state,s1,s2\nA,1,2\nB,3,1\nC,4,4\nD,5,1\n")
    other = _file(tmp_path, "o.csv", "state,a,s2\nA,1,2\nB,3,1\n")
    model = str(tmp_path / "m.json")
    assert _run(["fit", fitted, "--id-column", "state", "--save", model], capsys)[0] == 0
    status, out, err = _run(["transform", other, "--model", model, "--id-column", "state"], capsys)
    assert status == 1 and out == ""
    assert "o.csv: the model's column 's1' is not in the file (columns: state, a, s2); choose the file's columns " \
           "with --columns" in err and "--columns: no column" not in err
    status, _, err = _run(["transform", other, "--model", model, "--id-column", "state", "--columns", "s1,s2"], capsys)
    assert status == 1 and "o.csv: --columns: no column 's1'" in err


# ------------------------------------------------------------- FactoMineR's summary tables


def _sections(text: str) -> dict[str, dict[str, list[str]]]:
    """The tables of a printed summary.PCA, by section title: each row's cells in order across the
    wrapped blocks (the '|' separators left out)."""
    out: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] = {}
    for line in text.splitlines():
        if line in ("Eigenvalues",) or line.startswith(("Individuals", "Variables", "Supplementary")):
            current = out.setdefault(line.split(" (")[0], {})
        elif line.strip() and not line.startswith(" ") and current is not None:
            for label in ("Cumulative % of var.", "% of var.", "Variance"):
                if line.startswith(label):
                    current.setdefault(label, []).extend(line[len(label):].split())
                    break
            else:
                label, *cells = line.split()
                current.setdefault(label, []).extend(c for c in cells if c != "|")
    return out


def test_fit_factominer_prints_summary_pca_of_the_decathlon(capsys: pytest.CaptureFixture[str]) -> None:
    from purepca.datasets import load

    status, out, err = _run(["fit", "--dataset", "decathlon", "--convention", "factominer"], capsys)
    assert status == 0, err
    assert "Importance of components" not in out and "\nIndividuals (the 10 first)\n" in out
    tables = _sections(out)
    published = load("decathlon").factominer
    assert published is not None
    # FactoMineR's published summary(PCA(decathlon, quanti.sup = 11:12, quali.sup = 13)), digit for digit.
    assert tables["Eigenvalues"]["Variance"] == list(published.eigenvalues)
    assert tables["Eigenvalues"]["% of var."] == list(published.percent)
    assert tables["Eigenvalues"]["Cumulative % of var."] == list(published.cumulative)
    assert tables["Individuals"] == {name: list(row) for name, row in published.individuals.items()}
    assert tables["Variables"] == {name: list(row) for name, row in published.variables.items()}
    # quanti.sup = 11:12 and quali.sup = 13, as the published call has them.
    assert tables["Supplementary continuous variables"] == {name: list(row) for name, row in
                                                            published.supplementary_results.items()}
    assert tables["Supplementary categories"] == {name: list(row) for name, row in published.categories.items()}


def test_fit_factominer_summary_prints_the_librarys_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    from purepca.datasets import load

    data = load("decathlon")
    rows = [row[:10] for row in data.rows]
    pca = PCA(convention="factominer").fit(rows)
    status, out, _ = _run(["fit", "--dataset", "decathlon", "--convention", "factominer"], capsys)
    tables = _sections(out)
    for i, name in enumerate(data.labels[:10]):
        coord, cos2 = pca.row_coordinates([rows[i]])[0], pca.row_cos2([rows[i]])[0]
        want = [pca.row_distances([rows[i]])[0]] + [v for c in range(3)
                                                    for v in (coord[c], pca.row_contributions_[i][c], cos2[c])]
        assert [float(v) for v in tables["Individuals"][name]] == [round(v, 3) + 0.0 for v in want]
    for j, name in enumerate(data.columns[:10]):
        want = [v for c in range(3) for v in (pca.column_coordinates_[j][c], pca.column_contributions_[j][c],
                                              pca.column_cos2_[j][c])]
        assert [float(v) for v in tables["Variables"][name]] == [round(v, 3) + 0.0 for v in want]


# summary(FactoMineR::PCA(log(iris[, 1:4]), scale.unit = FALSE, ncp = 5, graph = FALSE)) as knitted in a
# public R Markdown report ("PCA vs. tSNE" on iris), printed at a width of 75 characters: the layout
# (widths, '|' columns, wrapping) and every number, as FactoMineR's summary.PCA printed them.
R_LOG_IRIS = """\
Eigenvalues
                       Dim.1   Dim.2   Dim.3   Dim.4
Variance               1.306   0.019   0.018   0.003
% of var.             97.023   1.413   1.350   0.214
Cumulative % of var.  97.023  98.436  99.786 100.000

Individuals (the 10 first)
                 Dist    Dim.1    ctr   cos2    Dim.2    ctr   cos2  
1            |  1.675 | -1.674  1.430  0.998 |  0.021  0.015  0.000 |
2            |  1.672 | -1.669  1.422  0.996 | -0.068  0.162  0.002 |
3            |  1.716 | -1.714  1.500  0.998 |  0.020  0.014  0.000 |
4            |  1.646 | -1.642  1.377  0.995 | -0.096  0.326  0.003 |
5            |  1.679 | -1.677  1.436  0.998 |  0.037  0.047  0.000 |
6            |  1.019 | -0.983  0.494  0.932 |  0.258  2.326  0.064 |
7            |  1.354 | -1.336  0.911  0.973 |  0.184  1.191  0.019 |
8            |  1.641 | -1.639  1.372  0.998 | -0.043  0.066  0.001 |
9            |  1.687 | -1.678  1.437  0.989 | -0.087  0.268  0.003 |
10           |  2.271 | -2.229  2.536  0.963 | -0.405  5.747  0.032 |
              Dim.3    ctr   cos2  
1             0.060  0.134  0.001 |
2            -0.069  0.176  0.002 |
3            -0.075  0.207  0.002 |
4            -0.047  0.082  0.001 |
5             0.071  0.184  0.002 |
6             0.067  0.165  0.004 |
7            -0.117  0.502  0.007 |
8             0.059  0.130  0.001 |
9            -0.146  0.783  0.007 |
10            0.165  1.001  0.005 |

Variables
                Dim.1    ctr   cos2    Dim.2    ctr   cos2    Dim.3    ctr
Sepal.Length |  0.115  1.018  0.671 |  0.000  0.000  0.000 |  0.066 23.928
Sepal.Width  | -0.066  0.332  0.213 |  0.079 33.006  0.309 |  0.096 50.988
Petal.Length |  0.577 25.530  0.964 | -0.095 47.210  0.026 |  0.058 18.226
Petal.Width  |  0.977 73.120  0.995 |  0.061 19.784  0.004 | -0.035  6.858
               cos2  
Sepal.Length  0.220 |
Sepal.Width   0.456 |
Petal.Length  0.010 |
Petal.Width   0.001 |"""


def test_factominer_summary_lays_out_tables_as_summary_pca() -> None:
    import math

    from purepca.cli import factominer_summary
    from purepca.datasets import load

    data = load("iris")
    rows = [[math.log(v) for v in row] for row in data.rows]
    pca = PCA(convention="factominer", scale=False).fit(rows)
    text = factominer_summary(pca, rows, None, list(data.columns), width=75)
    assert text == R_LOG_IRIS


@pytest.mark.parametrize("argv, shows", [
    (["--convention", "factominer", "--summary", "prcomp"], "Importance of components:"),
    (["--convention", "prcomp", "--summary", "factominer"], "Eigenvalues\n"),
    (["--convention", "prcomp"], "Importance of components:"),
])
def test_fit_summary_option_chooses_the_tables(argv: list[str], shows: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(["fit", "--dataset", "usarrests", "--scale"] + argv, capsys)
    assert status == 0, err
    assert shows in out
    assert ("Importance of components:" in out) != ("Eigenvalues\n" in out)


def test_fit_factominer_summary_of_a_streamed_fit_says_what_it_lacks(tmp_path: pathlib.Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    data = _file(tmp_path, "d.csv", DATA)
    status, out, err = _run(["fit", data, "--id-column", "id", "--convention", "factominer", "--stream", "always"],
                            capsys)
    assert status == 0, err
    assert "Eigenvalues\n" in out and "a streamed fit does not keep: use --stream never" in out


def test_fit_factominer_summary_after_em_uses_the_completed_rows(tmp_path: pathlib.Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    data = _file(tmp_path, "m.csv", HOLES)
    status, out, err = _run(["fit", data, "--id-column", "state", "--convention", "factominer", "--missing", "em",
                             "--components", "2"], capsys)
    assert status == 0, err
    pca = PCA(2, convention="factominer", missing="em").fit(_holes_rows())
    completed = pca.imputed_
    assert completed is not None
    got = _sections(out)["Individuals"]["B"]  # the row with the hole
    assert float(got[0]) == round(pca.row_distances([completed[1]])[0], 3)


@pytest.mark.parametrize("form", ["csv", "json"])
def test_fit_summary_with_another_format_is_refused(form: str, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(["fit", "--dataset", "toy", "--summary", "factominer", "--format", form], capsys)
    assert status == 2 and out == ""
    assert f"--summary chooses the tables of --format table; --format {form} writes its own" in err


@pytest.mark.parametrize("missing", ["drop", "mean"])
def test_fit_streamed_scores_keep_the_id_column(tmp_path: pathlib.Path, missing: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    # A streamed fit's score file numbered the rows 1, 2, ... under 'id', whatever --id-column said.
    data = _file(tmp_path, "d.csv", "patient,a,b\nx,1,2\ny,3,NA\nz,4,5\nw,0,1\n")
    got = {}
    for stream in ("never", "always"):
        status, out, err = _run(["fit", data, "--id-column", "patient", "--missing", missing, "--stream", stream,
                                 "--scores", "-", "-o", "/dev/null"], capsys)
        assert status == 0, err
        got[stream] = [line.split(",")[0] for line in out.splitlines()]
    assert got["always"] == got["never"] == ["patient"] + (["x", "z", "w"] if missing == "drop" else ["x", "y", "z", "w"])
