"""The command on files shaped like real data sets (issue 22): wide tables, constant and label columns,
Excel's CSV, training means, kernel scaling, file permissions, option names, scores, warnings, weights.

Every test runs ``python -m purepca`` in a subprocess as a user does and compares what it prints or
writes with the library's own answer on the same rows (to the bit where the command prints full
precision).  The data are synthesised with the shapes of scikit-learn's wine (178 x 13, a text class
column), breast_cancer (569 x 30) and digits (1,797 x 64 with constant pixel columns, ten classes).
"""

from __future__ import annotations

import json
import math
import os
import re
import pathlib
import random
import shutil
import stat
import subprocess
import sys
import zipfile
from typing import Any

import pytest

from purepca import PCA, KernelPCA
from purepca.cli import standardised
from purepca.svg import text_width

ROOT = pathlib.Path(__file__).resolve().parent.parent


def purepca(*argv: str, cwd: pathlib.Path = ROOT, umask: int | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m purepca`` from the checkout, optionally under a given umask."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(ROOT)
    pre = (lambda: os.umask(umask) and None) if umask is not None else None  # type: ignore[func-returns-value]
    return subprocess.run([sys.executable, "-m", "purepca", *argv], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300, preexec_fn=pre)


def _write_csv(path: pathlib.Path, header: list[str], rows: list[list[object]], sep: str = ",") -> pathlib.Path:
    path.write_text("\n".join([sep.join(header)] + [sep.join(str(v) for v in row) for row in rows]) + "\n",
                    encoding="utf-8")
    return path


def digits_like(n: int = 300, seed: int = 7) -> tuple[list[str], list[list[float]], list[str]]:
    """64 pixel columns (three always 0, as digits' pixel_0_0, pixel_4_0 and pixel_4_7) and ten classes."""
    r = random.Random(seed)
    names = [f"pixel_{i // 8}_{i % 8}" for i in range(64)]
    constant = {0, 32, 39}
    centres = [[r.uniform(0, 16) for _ in range(64)] for _ in range(10)]
    rows, labels = [], []
    for i in range(n):
        c = i % 10
        rows.append([0.0 if j in constant else float(max(0, min(16, round(centres[c][j] + r.gauss(0, 3)))))
                     for j in range(64)])
        labels.append(str(c))
    return names, rows, labels


def wine_like(n: int = 178, seed: int = 3) -> tuple[list[str], list[list[float]], list[str]]:
    """13 columns on very different scales (proline in the hundreds, hue near 1) and a text class."""
    r = random.Random(seed)
    names = ["alcohol", "malic_acid", "ash", "alcalinity_of_ash", "magnesium", "total_phenols", "flavanoids",
             "nonflavanoid_phenols", "proanthocyanins", "color_intensity", "hue", "od280", "proline"]
    scales = [0.8, 1.1, 0.27, 3.3, 14.0, 0.63, 1.0, 0.12, 0.57, 2.3, 0.23, 0.71, 315.0]
    means = [13.0, 2.3, 2.4, 19.5, 100.0, 2.3, 2.0, 0.36, 1.6, 5.1, 0.96, 2.6, 747.0]
    rows, labels = [], []
    for i in range(n):
        c = i % 3
        rows.append([round(m + s * (0.8 * (c - 1) * (1 if j % 2 else -1) + r.gauss(0, 1)), 3)
                     for j, (m, s) in enumerate(zip(means, scales))])
        labels.append(f"class_{c}")
    return names, rows, labels


# ------------------------------------------------------------ reading ordinary files

@pytest.mark.slow
def test_fit_of_a_file_with_a_text_class_column_says_how_to_keep_it_out(tmp_path: pathlib.Path) -> None:
    names, rows, labels = wine_like()
    f = _write_csv(tmp_path / "wine.csv", names + ["class"], [row + [lab] for row, lab in zip(rows, labels)])
    out = purepca("fit", str(f))
    assert out.returncode == 1 and out.stdout == ""
    assert out.stderr.count("\n") == 1
    assert "line 2, column 'class': 'class_0' is not a number" in out.stderr
    assert "--id-column 'class'" in out.stderr and "--exclude" in out.stderr
    ok = purepca("fit", str(f), "--exclude", "class", "--format", "json")
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["features"] == names


@pytest.mark.slow
def test_excel_csv_with_a_bom_semicolons_and_decimal_commas(tmp_path: pathlib.Path) -> None:
    header = ["name", "a", "b", "c"]
    r = random.Random(5)
    rows = [[f"r{i}", r.uniform(-5, 5), r.uniform(0, 1), r.uniform(10, 20)] for i in range(12)]
    text = "\n".join([";".join(header)] + [";".join([row[0]] + [repr(v).replace(".", ",") for v in row[1:]])
                                             for row in rows])
    f = tmp_path / "excel.csv"
    f.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    out = purepca("fit", str(f), "--delimiter", ";", "--decimal", ",", "--id-column", "name", "--format", "json")
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    want = PCA(convention="prcomp").fit([row[1:] for row in rows])
    assert got["features"] == ["a", "b", "c"]
    assert got["importance"]["Standard deviation"] == list(want.sdev)
    without = purepca("fit", str(f), "--delimiter", ";", "--id-column", "name")
    assert without.returncode == 1 and "--decimal ," in without.stderr and "\\ufeff" not in without.stderr


@pytest.mark.slow
def test_scaling_constant_columns_names_them_all_and_offers_a_way_out(tmp_path: pathlib.Path) -> None:
    names, rows, labels = digits_like(200)
    f = _write_csv(tmp_path / "digits.csv", names + ["class"], [row + [lab] for row, lab in zip(rows, labels)])
    out = purepca("fit", str(f), "--id-column", "class", "--scale")
    assert out.returncode == 1 and out.stderr.count("\n") == 1, out.stderr
    for name in ("'pixel_0_0'", "'pixel_4_0'", "'pixel_4_7'"):
        assert name in out.stderr
    assert "3 columns are constant" in out.stderr and "--drop-constant" in out.stderr and "FactoMineR" in out.stderr
    assert "scale=True" not in out.stderr and "column 0 " not in out.stderr
    # With --columns the names are still the file's names, not indices into the selection.
    sub = purepca("fit", str(f), "--columns", "pixel_0_1,pixel_4_0,pixel_0_2", "--scale")
    assert sub.returncode == 1 and "'pixel_4_0'" in sub.stderr and "1 column is constant" in sub.stderr
    dropped = purepca("fit", str(f), "--id-column", "class", "--scale", "--drop-constant", "--format", "json")
    assert dropped.returncode == 0, dropped.stderr
    assert "left out 3 constant columns: pixel_0_0, pixel_4_0, pixel_4_7" in dropped.stderr
    keep = [j for j in range(64) if j not in (0, 32, 39)]
    want = PCA(convention="prcomp", scale=True).fit([[row[j] for j in keep] for row in rows])
    assert json.loads(dropped.stdout)["importance"]["Standard deviation"] == list(want.sdev)
    excluded = purepca("fit", str(f), "--id-column", "class", "--scale", "--format", "json",
                       "--exclude", "pixel_0_0,pixel_4_0,pixel_4_7")
    assert excluded.returncode == 0 and excluded.stdout == dropped.stdout


@pytest.mark.slow
def test_transform_missing_mean_fills_with_the_training_means(tmp_path: pathlib.Path) -> None:
    names, rows, _ = wine_like(60)
    train = _write_csv(tmp_path / "train.csv", names, rows)
    model = tmp_path / "m.json"
    assert purepca("fit", str(train), "--scale", "--save", str(model)).returncode == 0
    new = [list(rows[0]), list(rows[1])]
    new[0][2] = "NA"  # type: ignore[call-overload]
    one = _write_csv(tmp_path / "one.csv", names, [new[0]])
    out = purepca("transform", str(one), "--model", str(model), "--missing", "mean", "--format", "json")
    assert out.returncode == 0, out.stderr
    assert "training means (1 of 'ash')" in out.stderr
    pca = PCA(convention="prcomp", scale=True).fit(rows)
    filled = [pca.mean_[2] if j == 2 else v for j, v in enumerate(new[0])]
    assert json.loads(out.stdout)["scores"] == pca.transform([filled])
    # Two rows: still the training mean, not the mean of this file's other row.
    two = _write_csv(tmp_path / "two.csv", names, new)
    out = purepca("transform", str(two), "--model", str(model), "--missing", "mean", "--format", "json")
    assert json.loads(out.stdout)["scores"][0] == pca.transform([filled])[0]


@pytest.mark.slow
def test_kernel_scale_and_a_hint_when_gamma_does_not_suit(tmp_path: pathlib.Path) -> None:
    names, rows, labels = wine_like()
    f = _write_csv(tmp_path / "wine.csv", ["class"] + names, [[lab] + row for row, lab in zip(rows, labels)])
    raw = purepca("kernel", str(f), "--id-column", "class", "--format", "json")
    assert raw.returncode == 0, raw.stderr
    assert raw.stderr.startswith("purepca: hint: gamma 0.0769231 is large") and "--scale" in raw.stderr
    assert raw.stderr.count("\n") == 1
    scaled = purepca("kernel", str(f), "--id-column", "class", "--scale", "--format", "json")
    assert scaled.returncode == 0 and scaled.stderr == "", scaled.stderr
    want = KernelPCA(2, kernel="rbf")
    scores = want.fit_transform(standardised(rows))
    got = json.loads(scaled.stdout)
    assert got["eigenvalues"] == list(want.eigenvalues_) and got["scores"] == scores
    assert min(got["explained_variance_ratio"]) > 5 * max(json.loads(raw.stdout)["explained_variance_ratio"])


# ------------------------------------------------------------ what the command writes

@pytest.mark.slow
def test_output_files_get_the_users_umask_and_one_option_name(tmp_path: pathlib.Path) -> None:
    data = _write_csv(tmp_path / "d.csv", ["a", "b"], [[1, 2], [2, 1], [3, 5], [4, 3]])
    runs = {
        "fit.txt": ["fit", str(data), "--output", str(tmp_path / "fit.txt"), "--save", str(tmp_path / "m.json")],
        "plot.svg": ["plot", str(data), "--output", str(tmp_path / "plot.svg")],
        "old.svg": ["plot", str(data), "--out", str(tmp_path / "old.svg")],
        "k.txt": ["kernel", str(data), "-o", str(tmp_path / "k.txt")],
        "list.txt": ["dataset", "--output", str(tmp_path / "list.txt")],
    }
    for name, argv in runs.items():
        out = purepca(*argv, umask=0o022)
        assert out.returncode == 0, (name, out.stderr)
    for name in list(runs) + ["m.json"]:
        assert stat.S_IMODE(os.stat(tmp_path / name).st_mode) == 0o644, name
    assert not [p for p in os.listdir(tmp_path) if p.startswith(".purepca-")]  # no temporary file left
    assert purepca("fit", str(data), "--output", str(tmp_path / "g.txt"), umask=0o077).returncode == 0
    assert stat.S_IMODE(os.stat(tmp_path / "g.txt").st_mode) == 0o600
    for command in ("fit", "transform", "kernel", "plot", "trace", "verify", "dataset"):
        helped = purepca(command, "--help")
        # argparse writes "-o FILE, --output FILE, --out FILE" before 3.13 and "-o, --output, --out FILE" after.
        assert re.search(r"-o( FILE)?, --output( FILE)?, --out FILE", helped.stdout), command


@pytest.mark.slow
def test_a_table_of_64_components_is_wrapped_as_r_prints_it(tmp_path: pathlib.Path) -> None:
    names, rows, labels = digits_like(150)
    f = _write_csv(tmp_path / "digits.csv", names + ["class"], [row + [lab] for row, lab in zip(rows, labels)])
    out = purepca("fit", str(f), "--id-column", "class")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert max(len(line) for line in lines[1:]) <= 80  # the first line names the file
    pca = PCA(convention="prcomp").fit(rows)
    # Every component's standard deviation is printed once, in order, across the blocks.
    sdev = [float(v) for line in lines if line.startswith("Standard deviation") for v in line.split()[2:]]
    assert len(sdev) == pca.n_components_ == 64
    assert all(abs(a - b) <= 1e-6 * pca.sdev[0] for a, b in zip(sdev, pca.sdev))
    headers = [line.split() for line in lines if line.strip().startswith("PC1 ")]
    assert len(headers) == 2  # the importance table and the loadings each start a block with PC1


@pytest.mark.slow
def test_fit_scores_file_holds_the_libraries_scores(tmp_path: pathlib.Path) -> None:
    names, rows, labels = wine_like(40)
    f = _write_csv(tmp_path / "w.csv", ["class"] + names, [[lab] + row for row, lab in zip(rows, labels)])
    out = purepca("fit", str(f), "--id-column", "class", "--scale", "--components", "3",
                  "--scores", str(tmp_path / "s.csv"))
    assert out.returncode == 0, out.stderr
    lines = (tmp_path / "s.csv").read_text().splitlines()
    assert lines[0] == "class,PC1,PC2,PC3"  # the id column keeps its name (issue 36)
    want = PCA(3, convention="prcomp", scale=True).fit_transform(rows)
    assert [line.split(",")[0] for line in lines[1:]] == labels
    assert [[float(v) for v in line.split(",")[1:]] for line in lines[1:]] == want
    assert purepca("fit", str(f), "--id-column", "class", "--scores", str(tmp_path / "s.json")).returncode == 0
    assert json.loads((tmp_path / "s.json").read_text())["ids"] == labels


# ------------------------------------------------------------ what the library says, and its options

@pytest.mark.slow
def test_an_accuracy_warning_reaches_stderr_as_one_line(tmp_path: pathlib.Path) -> None:
    r = random.Random(1)
    rows = []
    for _ in range(50):
        x, y = r.gauss(0, 1), r.gauss(0, 1)
        rows.append([x, y, x + y + 1e-9 * r.gauss(0, 1)])
    f = _write_csv(tmp_path / "c.csv", ["a", "b", "c"], [[repr(v) for v in row] for row in rows])
    out = purepca("fit", str(f), "--solver", "covariance")
    assert out.returncode == 0
    lines = out.stderr.splitlines()
    assert len(lines) == 1, out.stderr
    assert lines[0].startswith("purepca: warning: solver='covariance'") and lines[0].endswith("(AccuracyWarning)")
    assert purepca("fit", str(f)).stderr == ""  # auto takes the accurate path: nothing to say
    # Degenerate eigenvalues are said too: the table shows them equal, but not that their loadings
    # are then any rotation within the tie.
    tied = _write_csv(tmp_path / "t.csv", ["a", "b"], [[1, 0], [-1, 0], [0, 1], [0, -1]])
    said = purepca("fit", str(tied)).stderr.splitlines()
    assert len(said) == 1 and said[0].endswith("(DegenerateEigenvalueWarning)") and "eigenvalues 1 and 2" in said[0]


@pytest.mark.slow
def test_fit_missing_em_equals_the_library_to_the_bit(tmp_path: pathlib.Path) -> None:
    names, rows, _ = wine_like(50)
    r = random.Random(2)
    holes = [[None if r.random() < 0.08 else v for v in row] for row in rows]
    f = _write_csv(tmp_path / "h.csv", names, [["NA" if v is None else v for v in row] for row in holes])
    out = purepca("fit", str(f), "--missing", "em", "--components", "2", "--scale", "--format", "json")
    assert out.returncode == 0, out.stderr
    want = PCA(2, convention="prcomp", scale=True, missing="em").fit(holes)
    got = json.loads(out.stdout)
    assert got["importance"]["Standard deviation"] == list(want.sdev)
    assert list(got["loadings"].values()) == want.rotation
    usage = purepca("fit", str(f), "--missing", "em")
    assert usage.returncode == 2 and "--components K" in usage.stderr


@pytest.mark.slow
def test_fit_weights_column_equals_the_library_to_the_bit(tmp_path: pathlib.Path) -> None:
    names, rows, _ = wine_like(40)
    r = random.Random(4)
    weights = [r.randint(1, 5) for _ in rows]
    f = _write_csv(tmp_path / "w.csv", ["w"] + names, [[w] + row for w, row in zip(weights, rows)])
    out = purepca("fit", str(f), "--weights", "w", "--convention", "factominer", "--format", "json")
    assert out.returncode == 0, out.stderr
    want = PCA(convention="factominer").fit(rows, sample_weight=weights)
    got = json.loads(out.stdout)
    assert got["features"] == names
    assert got["importance"]["Standard deviation"] == list(want.sdev)
    assert list(got["loadings"].values()) == want.rotation
    bad = _write_csv(tmp_path / "b.csv", ["w", "a", "b"], [[1, 1, 2], [-1, 2, 1], [1, 0, 0]])
    out = purepca("fit", str(bad), "--weights", "w")
    assert out.returncode == 1 and "line 3, column 'w': the weight '-1' is negative" in out.stderr


# ------------------------------------------------------------ packaging and the docs

@pytest.mark.slow
def test_golden_cases_load_from_a_zip(tmp_path: pathlib.Path) -> None:
    archive = tmp_path / "purepca.zip"
    with zipfile.ZipFile(archive, "w") as z:
        for path in (ROOT / "purepca").rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts:
                z.write(path, path.relative_to(ROOT).as_posix())
    code = "import purepca.golden as g; cs = g.golden_cases(); print(len(cs), cs[0]['format'])"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(archive)
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    count = len([p for p in (ROOT / "purepca" / "golden").iterdir() if p.suffix == ".json"])
    assert out.stdout.split() == [str(count), "purepca-golden"]


@pytest.mark.slow
def test_check_runs_the_golden_cases_its_help_promises() -> None:
    helped = purepca("check", "--help")
    assert "toy, integers, offset_1e6, rank_deficient" in " ".join(helped.stdout.split())
    out = purepca("check")
    assert out.returncode == 0, out.stdout
    golden = [line for line in out.stdout.splitlines() if "golden case" in line]
    assert len(golden) == 4 and all(line.startswith("PASS") for line in golden)


def test_docs_name_every_command_and_convention() -> None:
    from purepca.conventions import CONVENTIONS

    readme = (ROOT / "README.md").read_text()
    index = (ROOT / "docs" / "index.md").read_text()
    cli = (ROOT / "docs" / "cli.md").read_text()
    table = readme.split("| module | what |", 1)[1]
    cli_row = next(line for line in table.splitlines() if line.startswith("| `purepca.cli`"))
    assert "`verify`" in cli_row
    assert "`verify`" in next(line for line in index.splitlines() if line.startswith("| [cli.md]"))
    assert "purepca verify" in index
    for name in CONVENTIONS:
        assert f"`{name}`" in cli, name


def test_python_3_8_is_told_the_version_it_needs(tmp_path: pathlib.Path) -> None:
    # pyenv's own build first: its shim on PATH answers 127 where 3.8 is not the selected version.
    found = next(iter(sorted(pathlib.Path.home().glob(".pyenv/versions/3.8.*/bin/python"))), None) or (
        shutil.which("python3.8") if "shims" not in str(shutil.which("python3.8")) else None)
    if found is None:
        pytest.skip("no CPython 3.8 here")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(ROOT)
    out = subprocess.run([str(found), "-m", "purepca", "demo"], cwd=tmp_path, env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode != 0 and "requires Python >= 3.9" in out.stderr and "TypeError" not in out.stderr


# ------------------------------------------------------------ the pictures, through the command

NS = "{http://www.w3.org/2000/svg}"


def _digits_file(tmp_path: pathlib.Path) -> tuple[pathlib.Path, list[list[float]], list[str]]:
    names, rows, labels = digits_like(200)
    f = _write_csv(tmp_path / "digits.csv", names + ["class"], [row + [lab] for row, lab in zip(rows, labels)])
    return f, rows, labels


def _svg(out: subprocess.CompletedProcess[str]) -> Any:
    import xml.etree.ElementTree as ET

    assert out.returncode == 0, out.stderr
    return ET.fromstring(out.stdout)


@pytest.mark.slow
def test_plot_of_ten_classes_gives_each_its_own_colour_and_marker(tmp_path: pathlib.Path) -> None:
    f, _, labels = _digits_file(tmp_path)
    root = _svg(purepca("plot", str(f), "--groups", "class", "--kind", "scores", "--drop-constant"))
    legend = [(e.get("fill"), e.get("data-shape")) for e in root.iter() if e.get("class") == "legend-mark"]
    assert len(legend) == 10 == len(set(legend))
    points = [(e.get("fill"), e.get("data-shape")) for e in root.iter() if e.get("class") == "point"]
    assert len(set(points)) == 10 and len(points) == len(labels)


@pytest.mark.slow
def test_plot_biplot_of_64_variables_draws_the_top_15_by_contribution(tmp_path: pathlib.Path) -> None:
    f, rows, labels = _digits_file(tmp_path)
    root = _svg(purepca("plot", str(f), "--id-column", "class", "--kind", "biplot", "--drop-constant"))
    arrows = [e for e in root.iter(NS + "line") if e.get("class") == "loading"]
    assert len(arrows) == 15
    keep = [j for j in range(64) if j not in (0, 32, 39)]
    pca = PCA(convention="prcomp").fit([[row[j] for j in keep] for row in rows])
    ev = pca.explained_variance_
    ctr = sorted(range(len(keep)), key=lambda j: -(ev[0] * pca.rotation[j][0] ** 2 + ev[1] * pca.rotation[j][1] ** 2))
    want = {f"pixel_{keep[j] // 8}_{keep[j] % 8}" for j in ctr[:15]}
    assert {a.find(NS + "title").text for a in arrows} == want
    caption = next(e.text for e in root.iter(NS + "text") if e.get("class") == "caption")
    assert "the 15 of 61 variables that contribute most" in caption
    root = _svg(purepca("plot", str(f), "--id-column", "class", "--kind", "circle", "--drop-constant", "--top", "0"))
    assert len([e for e in root.iter(NS + "line") if e.get("class") == "loading"]) == 61


@pytest.mark.slow
def test_plot_scree_of_64_components_thins_its_ticks(tmp_path: pathlib.Path) -> None:
    f, _, _ = _digits_file(tmp_path)
    root = _svg(purepca("plot", str(f), "--id-column", "class", "--kind", "scree"))
    bars = [e for e in root.iter(NS + "rect") if e.get("class") == "bar"]
    ticks = [e for e in root.iter(NS + "text") if e.get("class") == "xtick"]
    assert len(bars) == 20 and len(ticks) == 10
    xs = [float(t.get("x")) for t in ticks]
    widest = max(text_width(t.text, 11) for t in ticks)
    assert min(b - a for a, b in zip(xs, xs[1:])) > widest + 4  # neighbouring labels do not touch
    assert any("PC21 to PC64" in (e.text or "") for e in root.iter(NS + "text"))


@pytest.mark.slow
def test_plot_report_scales_and_keeps_one_colour(tmp_path: pathlib.Path) -> None:
    names, rows, _ = wine_like(60)
    f = _write_csv(tmp_path / "w.csv", names, rows)
    root = _svg(purepca("plot", str(f), "--scale"))
    assert root.get("width") == "100%" and root.get("viewBox") == "0 0 1280 1000"
    fills = {e.get("fill") for e in root.iter() if e.get("class") == "point"}
    assert fills == {"#0072B2"}  # the biplot's points as the scores panel's
    biplot = next(p for p in root.findall(NS + "svg") if "biplot" in "".join(p.itertext()))
    caption = next(e for e in biplot.iter(NS + "text") if e.get("class") == "caption")
    frame = next(e for e in biplot.iter(NS + "rect") if e.get("fill") == "none" and e.get("class") is None)
    assert float(caption.get("y")) + 3 < float(frame.get("y"))  # the caption's descenders above the frame


@pytest.mark.slow
def test_plot_scores_any_two_components_equal_aspect_and_labels(tmp_path: pathlib.Path) -> None:
    names, rows, labels = wine_like(40)
    f = _write_csv(tmp_path / "w.csv", ["id"] + names, [[f"s{i}"] + row for i, row in enumerate(rows)])
    root = _svg(purepca("plot", str(f), "--id-column", "id", "--scale", "--kind", "scores", "--pcs", "1,3",
                        "--labels"))
    pca = PCA(convention="prcomp", scale=True).fit(rows)
    scores = pca.transform(rows)
    values = [tuple(float(v) for v in e.get("data-value").split(",")) for e in root.iter() if e.get("class") == "point"]
    assert values == [(s[0], s[2]) for s in scores]
    axis = {e.text for e in root.iter(NS + "text") if e.get("class") == "axis-title"}
    assert any(t.startswith("PC3 (") for t in axis)
    xt = [(float(e.get("x")), float(e.text)) for e in root.iter(NS + "text") if e.get("class") == "xtick"]
    yt = [(float(e.get("y")), float(e.text)) for e in root.iter(NS + "text") if e.get("class") == "ytick"]
    bx = (xt[-1][0] - xt[0][0]) / (xt[-1][1] - xt[0][1])
    by = (yt[-1][0] - yt[0][0]) / (yt[-1][1] - yt[0][1])
    assert abs(bx + by) < 1e-6 * bx  # one unit as long on both axes
    shown = [e.text for e in root.iter(NS + "text") if e.get("class") == "point-label"]
    assert len(shown) >= 20 and set(shown) <= {f"s{i}" for i in range(40)}
    bad = purepca("plot", str(f), "--id-column", "id", "--pcs", "1,1")
    assert bad.returncode == 2 and "two different component numbers" in bad.stderr


@pytest.mark.slow
def test_plot_png_beside_the_svg_or_a_clear_message(tmp_path: pathlib.Path) -> None:
    data = _write_csv(tmp_path / "d.csv", ["a", "b"], [[1, 2], [2, 1], [3, 5], [4, 3]])
    env_path = os.environ.get("PATH", "")
    target = tmp_path / "p.svg"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(PYTHONPATH=str(ROOT), PATH=str(tmp_path))  # no converter on this PATH
    out = subprocess.run([sys.executable, "-m", "purepca", "plot", str(data), "--png", "-o", str(target)], env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 1 and "--png needs a converter" in out.stderr and "rsvg-convert" in out.stderr
    assert not target.exists()
    if not any(shutil.which(n, path=env_path) for n in ("rsvg-convert", "chromium", "chromium-browser")):
        pytest.skip("no SVG converter here")
    if sys.version_info[:2] != (3, 11):
        pytest.skip("the browser runs under CPython 3.11 only")
    out = purepca("plot", str(data), "--kind", "scores", "--png", "-o", str(target))
    assert out.returncode == 0, out.stderr
    png = (tmp_path / "p.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and target.exists()
