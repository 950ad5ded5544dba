"""The command's faces beyond fit and transform: bundled data sets, kernel, plot, trace, dataset, streaming.

Most tests run the command as a user does, in a subprocess, and read what it
prints; the numbers are compared with the published ones (R's prcomp of
USArrests and iris, seed 003) or with the API's.
"""

from __future__ import annotations

import json
import math
import os
import pathlib
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from purepca import PCA, KernelPCA
from purepca.cli import Progress, main
from purepca.datasets import DATASETS, load, toy_data

ROOT = pathlib.Path(__file__).resolve().parent.parent


def purepca(*argv: str, stdin: str = "", cwd: pathlib.Path = ROOT) -> subprocess.CompletedProcess[str]:
    """Run ``python -m purepca`` from the checkout (no install needed), no stdin unless given."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run([sys.executable, "-m", "purepca", *argv], cwd=cwd, env=env, input=stdin,
                          capture_output=True, text=True, timeout=300)


def _numbers(line: str) -> list[float]:
    return [float(v) for v in re.findall(r"-?\d+\.\d+(?:e[-+]\d+)?", line)]


def _table(text: str, first: str, rows: int) -> list[list[float]]:
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(first))
    return [_numbers(line) for line in lines[start + 1:start + 1 + rows]]


# ------------------------------------------------------------ bundled data sets

@pytest.mark.slow
def test_fit_dataset_usarrests_prints_the_published_sdev_and_loadings() -> None:
    out = purepca("fit", "--dataset", "usarrests", "--scale")
    assert out.returncode == 0 and out.stderr == ""
    published = load("usarrests").published[0]
    sdev_line = next(line for line in out.stdout.splitlines() if line.startswith("Standard deviation"))
    assert [f"{v:.7f}" for v in _numbers(sdev_line)] == list(published.sdev)
    loadings = _table(out.stdout, "Loadings (rotation)", 5)[1:]
    for got, want in zip(loadings, published.rotation):
        assert [round(abs(g), len(w) - 2) for g, w in zip(got, want)] == [float(w) for w in want]
    assert "Murder" in out.stdout and "the sign of each column is arbitrary" in out.stdout


@pytest.mark.slow
def test_the_same_table_from_a_csv_with_a_name_column(tmp_path: pathlib.Path) -> None:
    csv = purepca("dataset", "usarrests")
    assert csv.returncode == 0 and csv.stdout.startswith("name,Murder,Assault,UrbanPop,Rape\nAlabama,13.2,236.0,58.0,21.2")
    path = tmp_path / "USArrests.csv"
    path.write_text(csv.stdout)
    from_file = purepca("fit", str(path), "--scale", "--id-column", "name")
    from_data = purepca("fit", "--dataset", "usarrests", "--scale")
    assert from_file.returncode == 0
    assert from_file.stdout.splitlines()[1:] == from_data.stdout.splitlines()[1:]
    doc = json.loads(purepca("fit", str(path), "--scale", "--id-column", "name", "--format", "json").stdout)
    assert [round(v, 7) for v in doc["importance"]["Standard deviation"]] == [1.5748783, 0.9948694, 0.5971291, 0.4164494]


@pytest.mark.slow
def test_save_then_transform_reproduces_fit_transform_bit_for_bit(tmp_path: pathlib.Path) -> None:
    model = tmp_path / "model.json"
    assert purepca("fit", "--dataset", "iris", "--scale", "--save", str(model)).returncode == 0
    out = purepca("transform", "--dataset", "iris", "--model", str(model), "--format", "csv")
    assert out.returncode == 0, out.stderr
    rows = [line.split(",") for line in out.stdout.splitlines()[1:]]
    data = load("iris")
    expected = PCA(convention="prcomp", scale=True).fit_transform(data.rows)
    assert [r[0] for r in rows] == data.labels
    assert [[float(v) for v in r[1:]] for r in rows] == expected


@pytest.mark.parametrize("name", DATASETS)
def test_every_bundled_data_set_reproduces_its_published_analyses(name: str) -> None:
    data = load(name)
    assert len(data.labels) == len(data.rows) and all(len(r) == len(data.columns) for r in data.rows)
    for pub in data.published:
        pca = PCA(convention="prcomp", scale=pub.scale).fit(data.rows)
        assert [f"{v:.{len(s.split('.')[1])}f}" for v, s in zip(pca.sdev, pub.sdev)] == list(pub.sdev)
        assert [f"{v:.{len(s.split('.')[1])}f}" for v, s in zip(pca.explained_variance_ratio_, pub.proportion)] \
            == list(pub.proportion)
        for got, want in zip(pca.rotation, pub.rotation):
            assert [f"{abs(v):.{len(s.split('.')[1])}f}" for v, s in zip(got, want)] == list(want)


@pytest.mark.slow
def test_dataset_list_and_unknown_name() -> None:
    out = purepca("dataset")
    assert out.returncode == 0 and "usarrests  50 x 4" in out.stdout and "prcomp(USArrests, scale. = TRUE)" in out.stdout
    bad = purepca("fit", "--dataset", "mtcars")
    assert bad.returncode == 2 and "invalid choice: 'mtcars'" in bad.stderr


def test_iris_matches_fishers_table() -> None:
    """Samples 35 and 38 as in Fisher's paper (the UCI copy had them wrong), and the species in blocks of 50."""
    iris = load("iris")
    assert iris.rows[34] == [4.9, 3.1, 1.5, 0.2] and iris.rows[37] == [4.9, 3.6, 1.4, 0.1]
    assert [math.fsum(col) for col in zip(*iris.rows)] == pytest.approx([876.5, 458.6, 563.7, 179.9], abs=1e-9)
    assert iris.labels[49:51] == ["setosa", "versicolor"] and iris.labels[100] == "virginica"


# ------------------------------------------------------------ kernel

@pytest.mark.slow
def test_kernel_reproduces_kernlab_on_the_toy_data() -> None:
    out = purepca("kernel", "--dataset", "toy", "--kernel", "linear", "--convention", "kernlab")
    assert out.returncode == 0, out.stderr
    assert "(divided by n, as kernlab)" in out.stdout and "1.1556249" in out.stdout
    doc = json.loads(purepca("kernel", "--dataset", "toy", "--kernel", "linear", "--convention", "kernlab",
                             "--format", "json").stdout)
    assert [round(v, 8) for v in doc["eigenvalues"]] == [1.15562494, 0.04417506]  # seed 003, kernlab's eig(kpc)


@pytest.mark.slow
def test_kernel_json_equals_the_api(tmp_path: pathlib.Path) -> None:
    out = purepca("kernel", "--dataset", "iris", "--gamma", "0.5", "--components", "3", "--format", "json")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    kp = KernelPCA(3, kernel="rbf", gamma=0.5)
    scores = kp.fit_transform(load("iris").rows)
    assert doc["eigenvalues"] == kp.eigenvalues_ and doc["scores"] == scores and doc["gamma"] == 0.5
    assert doc["ids"][0] == "setosa" and doc["components"] == ["PC1", "PC2", "PC3"]


@pytest.mark.slow
def test_kernel_components_zero_keeps_every_positive_eigenvalue() -> None:
    out = purepca("kernel", "--dataset", "toy", "--kernel", "poly", "--degree", "2", "--components", "0",
                  "--format", "json")
    doc = json.loads(out.stdout)
    assert len(doc["eigenvalues"]) == KernelPCA(kernel="poly", degree=2).fit(toy_data()).n_components_


# ------------------------------------------------------------ plot

@pytest.mark.slow
@pytest.mark.parametrize("kind, panels", [("report", 4), ("scree", 0), ("scores", 0), ("biplot", 0), ("circle", 0)])
def test_plot_writes_an_svg(kind: str, panels: int, tmp_path: pathlib.Path) -> None:
    target = tmp_path / "out.svg"
    out = purepca("plot", "--dataset", "iris", "--scale", "--groups", "Species",
                  "--kind", kind, "--out", str(target))
    assert out.returncode == 0 and out.stdout == "" and out.stderr == ""
    root = ET.fromstring(target.read_text())
    ns = "{http://www.w3.org/2000/svg}"
    assert len(root.findall(ns + "svg")) == panels
    texts = {t.text for t in root.iter(ns + "text")}
    if kind in ("report", "scores", "biplot"):
        assert {"setosa", "versicolor", "virginica"} <= texts
        assert sum(e.get("class") == "point" for e in root.iter()) == (300 if kind == "report" else 150)
    if kind in ("report", "circle", "biplot"):
        assert {"Sepal.Length", "Petal.Width"} <= texts


@pytest.mark.slow
def test_plot_to_stdout_and_from_a_file(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "data.csv"
    path.write_text("name,a,b,c\nx,1,2,3\ny,2,1,0\nz,4,4,1\nw,0,1,3\n")
    out = purepca("plot", str(path), "--id-column", "name", "--kind", "scores")
    assert out.returncode == 0
    root = ET.fromstring(out.stdout)
    titles = [t.text for t in root.iter("{http://www.w3.org/2000/svg}title")]
    assert titles[0] == "PCA of data.csv: scores" and {"x", "y", "z", "w"} <= set(titles)


# ------------------------------------------------------------ trace

@pytest.mark.slow
def test_trace_of_the_toy_covariance_is_one_rotation_by_the_textbook_angle() -> None:
    out = purepca("trace", "--dataset", "toy", "--method", "jacobi")
    assert out.returncode == 0, out.stderr
    rotations = [line for line in out.stdout.splitlines() if line.strip().startswith("rotate")]
    assert len(rotations) == 1
    X = toy_data()
    n = len(X)
    mean = [math.fsum(col) / n for col in zip(*X)]
    c = [[math.fsum((r[i] - mean[i]) * (r[j] - mean[j]) for r in X) / (n - 1) for j in range(2)] for i in range(2)]
    theta = 0.5 * math.atan(2 * c[0][1] / (c[1][1] - c[0][0]))  # tan 2θ = 2·a_pq / (a_qq - a_pp)
    assert f"rotate (1, 2) by {theta: .6f} rad ({math.degrees(theta): 9.4f}°)" in rotations[0]
    assert "sweep 2: every pair passes the test, no rotation: converged" in out.stdout
    assert "eigenvalues: 1.284028 0.0490834" in out.stdout  # 1.1331495² and 0.2215477², seed 003's sdev squared


@pytest.mark.slow
def test_trace_of_a_5_by_5_matrix_shows_the_off_norm_falling_below_the_tolerance(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "m.csv"
    A = [[4.0, 1.0, 0.5, 0.2, 0.1], [1.0, 3.0, 0.3, 0.1, 0.2], [0.5, 0.3, 2.0, 0.4, 0.1],
         [0.2, 0.1, 0.4, 1.0, 0.3], [0.1, 0.2, 0.1, 0.3, 0.5]]
    path.write_text("\n".join(",".join(map(str, row)) for row in A) + "\n")
    out = purepca("trace", "--matrix", str(path))
    assert out.returncode == 0, out.stderr
    ends = [line for line in out.stdout.splitlines() if line.startswith("end of sweep")]
    norms = [float(line.split("off-diagonal norm ")[1].split()[0]) for line in ends]
    tolerance = float(ends[0].split("tolerance ")[1])
    assert len(ends) >= 3 and all(b < a for a, b in zip(norms, norms[1:]))
    assert all(" > tolerance" in line for line in ends[:-1]) and " <= tolerance" in ends[-1]
    assert norms[-1] <= tolerance < norms[-2]
    assert math.isclose(tolerance, 2.0 ** -52 * 10.5, rel_tol=1e-2)  # eps·Σ|λ| = eps·trace(A)
    assert len([line for line in out.stdout.splitlines() if line.strip().startswith("rotate")]) > 10
    # The power iterations: the residual column falls below the tolerance it states.
    stop = float(re.search(r"stop when the residual is <= (\S+)", out.stdout).group(1))  # type: ignore[union-attr]
    last = out.stdout.split("eigenpair 1: λ = ")[1]
    assert float(last.split("residual ")[1].rstrip(")\n")) <= stop


@pytest.mark.slow
def test_trace_power_with_two_components_and_sweeps_only() -> None:
    out = purepca("trace", "--dataset", "usarrests", "--scale", "--method", "power", "--components", "2")
    assert out.returncode == 0
    assert "eigenpair 2: λ = 0.9897652" in out.stdout and "Cyclic Jacobi" not in out.stdout
    out = purepca("trace", "--dataset", "usarrests", "--scale", "--method", "jacobi", "--sweeps-only")
    assert "rotate" not in out.stdout and "eigenvalues: 2.480242 0.9897652 0.3565632 0.1734301" in out.stdout


# ------------------------------------------------------------ bad input, as a user meets it

BAD = [
    (["fit", "{d}/none.csv"], 1, "none.csv: cannot read it"),
    (["fit", "{d}/empty.csv"], 1, "empty.csv: no data"),
    (["fit", "{d}/ragged.csv"], 1, "ragged.csv: line 3 has 2 fields, expected 3"),
    (["fit", "{d}/text.csv"], 1, "text.csv: line 2, column 'b': 'abc' is not a number"),
    (["fit", "{d}/hole.csv"], 1, "hole.csv: line 3, column 'c': a missing value"),
    (["fit", "{d}/good.csv", "--columns", "a,z"], 1, "--columns: no column 'z'"),
    (["fit", "{d}/good.csv", "--precision", "0"], 2, "must be between 17 and 10000 digits"),
    (["fit", "{d}/good.csv", "--components", "x"], 2, "--components: not a number"),
    (["fit", "{d}/good.csv", "--dataset", "iris"], 2, "give one of FILE, --dataset NAME (got FILE and --dataset)"),
    (["fit"], 2, "give one of FILE, --dataset NAME"),
    (["fit", "{d}/good.csv", "--stream", "always", "--missing", "error"], 0, ""),
    (["fit", "-", "--stream", "always"], 1, "--stream always needs a file"),
    (["kernel", "{d}/text.csv"], 1, "text.csv: line 2, column 'b': 'abc' is not a number"),
    (["kernel", "{d}/good.csv", "--gamma", "-1"], 1, "gamma"),
    (["kernel", "{d}/good.csv", "--components", "-2"], 2, "--components must be >= 0"),
    (["kernel", "{d}/good.csv", "--kernel", "cubic"], 2, "invalid choice: 'cubic'"),
    (["plot", "{d}/hole.csv", "--out", "{d}/x.svg"], 1, "hole.csv: line 3, column 'c': a missing value"),
    (["plot", "{d}/good.csv", "--groups", "q"], 1, "--groups: no column 'q'"),
    (["plot", "{d}/one.csv"], 1, "one.csv"),
    (["trace", "{d}/good.csv", "--matrix", "{d}/good.csv"], 2, "got FILE and --matrix"),
    (["trace", "--matrix", "{d}/ragged_m.csv"], 1, "ragged_m.csv: line 2 has 2 fields"),
    (["trace", "--matrix", "{d}/nonsym.csv"], 1, "nonsym.csv is not symmetric"),
    (["trace", "--matrix", "{d}/rect.csv"], 1, "must be square"),
    (["trace", "--dataset", "toy", "--components", "0"], 2, "--components must be >= 1"),
    (["transform", "{d}/good.csv", "--model", "{d}/none.json"], 1, "none.json: cannot read it"),
]


@pytest.fixture
def bad_files(tmp_path: pathlib.Path) -> pathlib.Path:
    files = {
        "empty.csv": "",
        "ragged.csv": "a,b,c\n1,2,3\n4,5\n",
        "text.csv": "a,b,c\n1,abc,3\n4,5,6\n",
        "hole.csv": "a,b,c\n1,2,3\n4,5,NA\n7,8,9\n",
        "good.csv": "a,b,c\n1,2,3\n4,5,7\n7,8,8\n2,9,1\n",
        "one.csv": "a,b,c\n1,2,3\n",
        "nonsym.csv": "1,2\n3,1\n",
        "ragged_m.csv": "1,2,3\n4,5\n",
        "rect.csv": "1,2,3\n4,5,6\n",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    return tmp_path


@pytest.mark.slow
@pytest.mark.parametrize("argv, status, message", BAD)
def test_bad_input_is_one_line_and_a_status(argv: list[str], status: int, message: str, bad_files: pathlib.Path) -> None:
    out = purepca(*[a.format(d=bad_files) for a in argv])
    assert out.returncode == status, (out.stdout, out.stderr)
    assert "Traceback" not in out.stderr
    if status:
        assert message in out.stderr
        assert len(out.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("command", ["fit", "transform", "kernel", "plot", "trace", "dataset", "check", "demo"])
def test_every_subcommand_has_help(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main([command, "--help"])
    assert info.value.code == 0 and "usage:" in capsys.readouterr().out


# ------------------------------------------------------------ streaming and progress

def _big_csv(path: pathlib.Path, n: int, holes: bool = False) -> list[list[float]]:
    import random

    rng = random.Random(7)
    rows = []
    lines = ["id,u,v,w"]
    for i in range(n):
        u = rng.gauss(0, 1)
        row = [u, 0.5 * u + rng.gauss(0, 0.3), rng.gauss(10, 2)]
        rows.append(row)
        cells = [repr(v) for v in row]
        if holes and i % 97 == 3:
            cells[1] = "NA"
        lines.append(",".join([f"r{i}"] + cells))
    path.write_text("\n".join(lines) + "\n")
    return rows


@pytest.mark.slow
@pytest.mark.parametrize("missing", ["error", "drop", "mean"])
def test_streamed_fit_agrees_with_the_fit_in_memory(missing: str, tmp_path: pathlib.Path) -> None:
    path = tmp_path / "big.csv"
    _big_csv(path, 3000, holes=missing != "error")
    args = ["fit", str(path), "--id-column", "id", "--missing", missing, "--format", "json"]
    whole = json.loads(purepca(*args, "--stream", "never").stdout)
    streamed = purepca(*args, "--stream", "always")
    assert streamed.returncode == 0 and streamed.stderr == ""  # stderr is a pipe here: no progress
    doc = json.loads(streamed.stdout)
    assert doc["rows_dropped"] == whole["rows_dropped"] and doc["values_imputed"] == whole["values_imputed"]
    for label in ("Standard deviation", "Proportion of Variance"):
        for a, b in zip(doc["importance"][label], whole["importance"][label]):
            assert abs(a - b) <= 1e-14 * abs(b)
    for name in ("u", "v", "w"):
        for a, b in zip(doc["loadings"][name], whole["loadings"][name]):
            assert abs(abs(a) - abs(b)) <= 1e-13


@pytest.mark.slow
def test_streamed_fit_saves_a_model_that_transform_reads(tmp_path: pathlib.Path) -> None:
    path = tmp_path / "big.csv"
    rows = _big_csv(path, 500)
    model = tmp_path / "m.json"
    assert purepca("fit", str(path), "--id-column", "id", "--stream", "always", "--save", str(model)).returncode == 0
    out = purepca("transform", str(path), "--id-column", "id", "--model", str(model), "--format", "csv")
    scores = [[float(v) for v in line.split(",")[1:]] for line in out.stdout.splitlines()[1:]]
    expected = PCA(convention="prcomp").fit_stream(rows).transform(rows)
    assert scores == expected


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_progress_shows_on_a_terminal_and_nowhere_else(tmp_path: pathlib.Path) -> None:
    import pty

    path = tmp_path / "big.csv"
    _big_csv(path, 20000)
    leader, follower = pty.openpty()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "purepca", "fit", str(path), "--id-column", "id", "--stream", "always"],
                          stdout=subprocess.PIPE, stderr=follower, env=env, timeout=300)
    os.close(follower)
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    os.close(leader)
    assert done.returncode == 0
    text = seen.decode()
    assert "purepca: read" in text and "(100 %), 20,000 rows" in text


def test_progress_counts_rows_and_bytes() -> None:
    import io

    err = io.StringIO()
    show = Progress(0, stream=err, enabled=True, every=0.0)
    show(10, 1000)
    show(20, -1)
    assert err.getvalue() == "\rpurepca: read 0.0 MB of 0.0 MB, 1,000 rows\rpurepca: read 0.0 MB of 0.0 MB, 1,000 rows\n"
    quiet = io.StringIO()
    Progress(10, stream=quiet)(5, 1000)  # a StringIO is not a terminal
    assert quiet.getvalue() == ""


@pytest.mark.slow
def test_the_readme_opens_with_the_main_job_on_bundled_data_which_runs_without_install() -> None:
    readme = (ROOT / "README.md").read_text().splitlines()
    first = readme[readme.index("```sh") + 1].split("#")[0].split()
    assert first == ["python3", "-m", "purepca", "fit", "--dataset", "usarrests", "--scale"]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    # -S: no site-packages, so an installed copy cannot be the one that runs.
    out = subprocess.run([sys.executable, "-S", *first[1:]], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0 and "Standard deviation     1.5748783 0.9948694 0.5971291 0.41644938" in out.stdout
