"""python -m purepca demo: the README's first command."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

import pytest

from purepca.cli import demo, main

ROOT = pathlib.Path(__file__).resolve().parent.parent

# Published in seed 003 (R's prcomp and the eigen-decomposition of cov(X)).
SEED_003 = ["1.1331495", "0.2215477", "0.03681869", "0.6778734", "0.7351787"]


def test_demo_reproduces_the_published_numbers() -> None:
    text = demo()
    for number in SEED_003:
        assert number in text
    assert "0.9631813" in text  # the proportion of variance of PC1, as printed by R


def test_demo_at_50_digits_prints_the_same_table() -> None:
    assert demo(50).splitlines()[1:] == demo().splitlines()[1:]
    assert demo(50).splitlines()[0].endswith("computed with 50 digits")


@pytest.mark.slow
def test_python_m_purepca_demo_runs_from_a_checkout_without_install(tmp_path: pathlib.Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    # -S: no site-packages, so an installed copy cannot be the one that runs.
    out = subprocess.run([sys.executable, "-S", "-m", "purepca", "demo"], cwd=ROOT, env=env,
                         capture_output=True, text=True, check=True)
    assert "[1] 1.1331495 0.2215477" in out.stdout


def test_cli_rejects_unknown_commands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["frobnicate"])
    assert info.value.code == 2
    assert "invalid choice: 'frobnicate'" in capsys.readouterr().err


# ------------------------------------------------------------ purepca fit FILE

CSV = "state,Murder,Assault,UrbanPop\nA,13.2,236,58\nB,10.0,263,48\nC,8.1,294,80\nD,8.8,190,50\nE,9.0,NA,91\nF,2.1,120,60\n"


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        status = main(argv)
    except SystemExit as exit_:
        status = int(exit_.code or 0)
    out = capsys.readouterr()
    return status, out.out, out.err


@pytest.fixture
def data_file(tmp_path: pathlib.Path) -> pathlib.Path:
    path = tmp_path / "arrests.csv"
    path.write_text(CSV)
    return path


def test_fit_prints_the_same_numbers_as_the_api(data_file: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from purepca import PCA

    rows = [[13.2, 236, 58], [10.0, 263, 48], [8.1, 294, 80], [8.8, 190, 50], [2.1, 120, 60]]
    pca = PCA(convention="prcomp", scale=True).fit(rows)
    status, out, err = _run(["fit", str(data_file), "--id-column", "state", "--missing", "drop", "--scale",
                             "--format", "json"], capsys)
    assert status == 0 and err == ""
    doc = json.loads(out)
    assert doc["features"] == ["Murder", "Assault", "UrbanPop"] and doc["rows_dropped"] == 1
    assert doc["importance"]["Standard deviation"] == pca.sdev
    assert [doc["loadings"][name] for name in doc["features"]] == pca.rotation
    status, out, _ = _run(["fit", str(data_file), "--id-column", "0", "--missing", "drop", "--scale"], capsys)
    assert status == 0 and "(1 row with missing values dropped)" in out and "Importance of components" in out
    assert f"{pca.sdev[0]:.7f}" in out


def test_fit_csv_output_reads_back_exactly(data_file: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    import csv as csvmod

    status, out, _ = _run(["fit", str(data_file), "--columns", "Murder,UrbanPop", "--format", "csv"], capsys)
    assert status == 0
    table = list(csvmod.reader(out.splitlines()))
    assert table[0] == ["", "PC1", "PC2"] and [r[0] for r in table[4:]] == ["Murder", "UrbanPop"]
    from purepca import PCA

    pca = PCA(convention="prcomp").fit([[13.2, 58], [10.0, 48], [8.1, 80], [8.8, 50], [9.0, 91], [2.1, 60]])
    assert [[float(v) for v in r[1:]] for r in table[4:]] == pca.rotation


def test_fit_missing_mean_stdin_and_output_file(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO(CSV.replace(",", ";")))
    target = tmp_path / "report.txt"
    status, out, err = _run(["fit", "-", "--delimiter", ";", "--id-column", "state", "--missing", "mean",
                             "--output", str(target)], capsys)
    assert status == 0 and out == "" and err == ""
    text = target.read_text()
    assert "(1 missing value of 'Assault' set to the column mean)" in text
    assert [p.name for p in tmp_path.iterdir()] == ["report.txt"]  # no temporary file left behind


@pytest.mark.parametrize(
    "argv, status, message",
    [
        (["fit", "{f}"], 1, "{f}: line 2, column 'state': 'A' is not a number"),
        (["fit", "{f}", "--id-column", "state"], 1, "{f}: line 6, column 'Assault': a missing value ('NA'); use --missing drop or --missing mean"),
        (["fit", "{f}", "--columns", "Murder,Rape"], 1, "{f}: --columns: no column 'Rape'"),
        (["fit", "{f}.missing"], 1, "{f}.missing: cannot read it"),
        (["fit", "{f}", "--components", "0"], 2, "--components: an int >= 1 or a fraction"),
        (["fit", "{f}", "--missing", "zero"], 2, "invalid choice: 'zero'"),
        (["fit", "{f}", "--id-column", "state", "--missing", "drop", "--components", "4"], 1, "n_components=4 must be at most"),
    ],
)
def test_fit_errors_are_one_line_without_traceback(argv: list[str], status: int, message: str,
                                                   data_file: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    got, out, err = _run([a.format(f=data_file) for a in argv], capsys)
    assert got == status
    assert message.format(f=data_file) in err and "Traceback" not in err
    if status == 1:
        assert len(err.strip().splitlines()) == 1


def test_fit_has_help(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(["fit", "--help"], capsys)
    assert status == 0 and "--id-column" in out and "--missing" in out


# ------------------------------------------- fit --save, transform --model

def test_transform_with_a_saved_model_reproduces_fit_transform_bit_for_bit(
        data_file: pathlib.Path, tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    import csv as csvmod

    from purepca import PCA

    model = tmp_path / "model.json"
    status, _, err = _run(["fit", str(data_file), "--id-column", "state", "--missing", "drop", "--scale",
                           "--save", str(model)], capsys)
    assert status == 0 and err == "" and model.exists()
    # the new file has its columns in another order: transform picks them by name
    moved = tmp_path / "moved.csv"
    moved.write_text("UrbanPop,state,Assault,Murder\n58,A,236,13.2\n48,B,263,10.0\n80,C,294,8.1\n50,D,190,8.8\n60,F,120,2.1\n")
    status, out, err = _run(["transform", str(moved), "--model", str(model), "--id-column", "state",
                             "--format", "csv"], capsys)
    assert status == 0 and err == ""
    table = list(csvmod.reader(out.splitlines()))
    assert table[0] == ["state", "PC1", "PC2", "PC3"] and [r[0] for r in table[1:]] == ["A", "B", "C", "D", "F"]
    rows = [[13.2, 236, 58], [10.0, 263, 48], [8.1, 294, 80], [8.8, 190, 50], [2.1, 120, 60]]
    expected = PCA(convention="prcomp", scale=True).fit_transform(rows)
    assert [[float(v) for v in r[1:]] for r in table[1:]] == expected


@pytest.mark.parametrize("content, message", [
    ("not json", "model: not JSON"),
    ('{"format": "other"}', "model: not a purepca.PCA model (format 'other')"),
    ('{"format": "purepca.PCA", "version": 99}', "model: version 99; this purepca reads version 1"),
    ('{"format": "purepca.PCA", "version": 1}', "model: a field is missing or malformed"),
])
def test_transform_refuses_a_bad_model(content: str, message: str, data_file: pathlib.Path,
                                       tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    model = tmp_path / "bad.json"
    model.write_text(content)
    status, _, err = _run(["transform", str(data_file), "--model", str(model)], capsys)
    assert status == 1 and message in err and len(err.strip().splitlines()) == 1


def test_model_round_trip_at_high_precision() -> None:
    from purepca import PCA
    from purepca.model_io import pca_from_json, pca_to_json

    X = [[1.0, 2.0, 0.5], [3.0, 5.0, -1.0], [0.0, 1.0, 2.0], [2.0, 2.0, 1.0], [4.0, -1.0, 0.0]]
    for params in ({"precision": 30}, {"whiten": True}, {"n_components": 2, "convention": "factominer"}):
        pca = PCA(**params)
        Z = pca.fit_transform(X)
        back = pca_from_json(pca_to_json(pca))
        assert back.transform(X) == Z and back.inverse_transform(Z) == pca.inverse_transform(Z)
        assert back.get_params() == pca.get_params() and back.components_ == pca.components_


# ------------------------------------------------------------- purepca check

@pytest.mark.slow
def test_check_passes_with_the_standard_library_only(tmp_path: pathlib.Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    out = subprocess.run([sys.executable, "-S", "-m", "purepca", "check"], cwd=ROOT, env=env,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    lines = out.stdout.splitlines()
    assert lines[-1] == "25 passed, 0 failed" and all(line.startswith("PASS") for line in lines[:-1])
    assert "usarrests: standard deviations (prcomp(USArrests, scale. = TRUE)): 1.5748783 0.9948694" in out.stdout
    assert "1.1331495 0.2215477" in out.stdout and "1.15562494 0.04417506" in out.stdout


def test_check_fails_when_a_number_is_off(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import purepca.cli.selfcheck as selfcheck
    import purepca.datasets as datasets
    from purepca.datasets import toy_data

    rows = toy_data()
    rows[0] = [rows[0][0] + 1e-4, rows[0][1]]  # a perturbation below the printed digits of most numbers
    monkeypatch.setattr(selfcheck, "toy_data", lambda: rows)
    monkeypatch.setattr(datasets, "_TOY", tuple(tuple(r) for r in rows))
    assert main(["check"]) == 1
    out = capsys.readouterr().out
    assert "FAIL  toy: standard deviations" in out and "FAIL  kernlab eigenvalues" in out and "; got " in out
    assert "PASS  usarrests: standard deviations" in out
