"""The oracle's holes (issue 35): binary32 answers far from the origin, components checked by more than
their angle, the messages and the inputs.  Each test of a fix fails on the comparison as it was (768b701);
the guards (correct answers pass) pass there too."""

from __future__ import annotations

import math
import random

import pytest

from purepca import PurePCAError
from purepca.covariance import covariance_matrix
from purepca.testing import assert_pca_close, compare_pca, reference, tolerances
from tests.helpers import random_orthogonal

SPREADS = (5.0, 3.0, 2.0, 1.0, 0.5)


def offset_data(offset: float, n: int = 200, seed: int = 35) -> list[list[float]]:
    rng = random.Random(seed)
    return [[offset + rng.gauss(0.0, 1.0) * s for s in SPREADS] for _ in range(n)]


def failures(result: object, X: list[list[float]], **kwargs: object) -> list[str]:
    return [c.line() for c in compare_pca(result, X, **kwargs) if not c.passed]  # type: ignore[arg-type]


def exact_answer(X: list[list[float]], **kwargs: object) -> dict[str, object]:
    ref = reference(X, **kwargs)  # type: ignore[arg-type]
    return {"explained_variance_": list(ref.explained_variance_), "components_": [list(v) for v in ref.components_],
            "mean_": list(ref.mean_)}


# ------------------------------------------------------------------ binary32 at an offset


def test_float32_random_components_at_an_offset_fail_saying_why() -> None:
    X = offset_data(1e6)
    Q = random_orthogonal(5, random.Random(1))
    bogus = {"explained_variance_": [12.0] * 5, "components_": Q}
    lines = failures(bogus, X, method="float32")
    assert any(line.startswith("explained_variance_[0]: 12.0 off by") for line in lines), lines
    assert any("components_[0]" in line and "at an angle of" in line for line in lines), lines
    with pytest.raises(AssertionError, match=r"explained_variance_\[0\]: 12.0 off by"):
        assert_pca_close(bogus, X, method="float32")


def test_float32_tolerance_at_an_offset_follows_the_data() -> None:
    # The tolerance of λ_1 at 1e6: reading the data into binary32 and centring them, not 31.4 > λ_1.
    X = offset_data(1e6)
    ref = reference(X)
    t = tolerances(ref, 200, 5, "float32", magnitudes=[max(abs(x) for x in c) for c in zip(*X)])
    assert t[0] < 0.03 * ref.spectrum[0], (t[0], ref.spectrum[0])
    # Given the other side's mean (what it centred with), the mean's share is its own: tighter still.
    t_mean = tolerances(ref, 200, 5, "float32", magnitudes=[max(abs(x) for x in c) for c in zip(*X)],
                        mean=ref.mean_)
    assert t_mean[0] < 0.005 * ref.spectrum[0]
    # Data that are binary32 numbers lose nothing when read: at offset 0 only the arithmetic is left.
    Y = offset_data(0.0)
    ref0 = reference(Y)
    assert tolerances(ref0, 200, 5, "float32", exact32=True)[0] < 40 * 2.0 ** -23 * ref0.spectrum[0]


def test_float32_ddof_defect_at_an_offset_fails() -> None:
    X = offset_data(1e6)
    answer = exact_answer(X)
    n = len(X)
    answer["explained_variance_"] = [v * (n - 1) / n for v in answer["explained_variance_"]]  # type: ignore[attr-defined]
    lines = failures(answer, X, method="float32")
    assert any(line.startswith("explained_variance_[0]") for line in lines), lines
    assert any(line.startswith("divisor: every variance is (n-1)/n") for line in lines), lines


def test_float32_unsorted_components_are_named_unsorted() -> None:
    X = offset_data(1e6)
    answer = exact_answer(X)
    values, comps = answer["explained_variance_"], answer["components_"]
    answer["explained_variance_"] = [values[1], values[0]] + values[2:]  # type: ignore[index, operator]
    answer["components_"] = [comps[1], comps[0]] + comps[2:]  # type: ignore[index, operator]
    for method in ("float32", "svd"):
        lines = failures(answer, X, method=method)
        assert any(line.startswith("order: the components are unsorted: explained_variance_[1] = ") for line in lines)


def test_float32_precision_that_cannot_tell_the_variances_from_zero_fails() -> None:
    # Spread 0.01 at 1e6: binary32's steps there are 0.0625, so nothing of the spread survives.
    rng = random.Random(3)
    X = [[1e6 + rng.gauss(0.0, 0.01) * (j + 1) for j in range(3)] for _ in range(100)]
    answer = exact_answer(X)
    lines = failures(answer, X, method="float32")
    assert any(line.startswith("precision: binary32 cannot tell explained_variance_[0] = ") and "from 0" in line
               for line in lines), lines


def _circle(b: float, n: int = 300) -> list[list[float]]:
    """Variances 4.5 and b²/2 by design (times n/(n-1)), and 0.5: cos, sin and cos of twice the angle."""
    return [[1e5 + 3.0 * math.cos(2 * math.pi * t / n), 1e5 + b * math.sin(2 * math.pi * t / n),
             1e5 + math.cos(4 * math.pi * t / n)] for t in range(n)]


def test_float32_precision_that_cannot_tell_eigenvalues_apart_fails() -> None:
    X = _circle(3.00001)
    assert reference(X).clusters == [[0], [1], [2]]
    lines = failures(exact_answer(X), X, method="float32")
    assert any(line.startswith("precision: binary32 cannot tell explained_variance_[0..1] apart on these data: "
                               "explained_variance_[0] and [1] are ") for line in lines), lines
    assert not failures(exact_answer(X), X)  # float64 tells them apart


def test_float32_verify_golden_offset_turned_components_fail(tmp_path, capsys) -> None:
    import json

    from purepca.cli import main
    from purepca.golden import golden_cases

    case = golden_cases(names=["offset_1e6"])[0]
    X = [[float(x) for x in row] for row in case["input"]["X"]]
    expected = next(r for r in case["results"] if r["convention"] == "sklearn")["expected"]
    comps = [[float(x) for x in row] for row in expected["components_"]]
    c, s = math.cos(0.7), math.sin(0.7)
    turned = [[c * a + s * b for a, b in zip(comps[0], comps[1])], [-s * a + c * b for a, b in zip(comps[0], comps[1])]]
    result = {"explained_variance_": [float(v) for v in expected["explained_variance_"]],
              "components_": turned + comps[2:]}
    data = tmp_path / "data.csv"
    data.write_text("\n".join(",".join(repr(x) for x in row) for row in X) + "\n")
    path = tmp_path / "theirs.json"
    path.write_text(json.dumps(result))
    code = main(["verify", "--data", str(data), "--no-header", "--result", str(path), "--method", "float32"])
    out = capsys.readouterr().out
    assert code == 1, out
    assert "components_[0]" in out and "FAIL" in out


@pytest.mark.parametrize("offset", [0.0, 1e5, 1e6])
def test_float32_correct_answers_pass_within_30x_of_their_error(offset: float) -> None:
    np = pytest.importorskip("numpy")
    X = offset_data(offset)
    A = np.array(X)
    A32 = A.astype(np.float32)
    n = len(X)
    w, v = np.linalg.eigh(np.cov(A32, rowvar=False).astype(np.float32))
    mean32 = A32.mean(axis=0)
    _, s, vt = np.linalg.svd(A32 - mean32, full_matrices=False)
    answers = [
        {"explained_variance_": w[::-1], "components_": v[:, ::-1].T, "mean_": A.mean(axis=0)},  # np.cov: float64 mean
        {"explained_variance_": s * s / np.float32(n - 1), "components_": vt, "mean_": mean32},
        {"explained_variance_": w[::-1], "components_": v[:, ::-1].T},  # no mean given: its model
        {"explained_variance_": s * s / np.float32(n - 1), "components_": vt},
    ]
    ref = reference(X)
    worst = max(abs(float(a) - b) for ans in answers for a, b in zip(ans["explained_variance_"], ref.spectrum))
    for answer in answers:
        checks = compare_pca(answer, X, method="float32", convention="numpy")
        assert all(c.passed for c in checks), [c.line() for c in checks if not c.passed]
        # within 30x of the observed binary32 error (the tighter with mean_)
        top = next(c for c in checks if c.quantity == "explained_variance_[0]")
        assert top.tolerance <= 30 * worst, (offset, top.tolerance, worst)


# ------------------------------------------------------------------ components by more than their angle


def _data(seed: int = 5, n: int = 60) -> list[list[float]]:
    rng = random.Random(seed)
    return [[rng.gauss(0.0, 1.0) * s for s in (6.0, 4.0, 2.5, 1.5, 1.0, 0.5)] for _ in range(n)]


def test_components_twice_as_long_fail_by_length() -> None:
    X = _data()
    answer = exact_answer(X)
    answer["components_"] = [[2 * x for x in v] for v in answer["components_"]]  # type: ignore[attr-defined]
    lines = failures(answer, X)
    assert any(line.startswith("length of components_[0]: 2") and "components are unit vectors" in line
               for line in lines), lines


def test_components_more_than_eigenvalues_fail_by_count() -> None:
    X = _data()
    answer = exact_answer(X)
    answer["components_"] = answer["components_"][:3]  # type: ignore[index]
    answer["explained_variance_"] = answer["explained_variance_"][:2]  # type: ignore[index]
    with pytest.raises(AssertionError, match=r"n_components: 3 components but 2 values of explained_variance_"):
        assert_pca_close(answer, X)
    # R's prcomp(rank. = 2) gives every sdev and two columns of rotation: not a mismatch.
    ref = reference(X, convention="prcomp")
    r_output = {"sdev": [math.sqrt(v) for v in ref.spectrum], "rotation": [list(c) for c in zip(*ref.all_components[:2])]}
    assert_pca_close(r_output, X, convention="prcomp")


def _deflated_power(C: list[list[float]], k: int, stop: float = 1e-13) -> tuple[list[float], list[list[float]]]:
    """Power iteration with Hotelling deflation and no re-orthogonalisation, stopped at a residual of
    ``stop·‖C‖``: the teaching method, which loses orthogonality and backward accuracy."""
    A = [row[:] for row in C]
    d = len(A)
    norm = max(math.fsum(abs(x) for x in row) for row in A)
    rng = random.Random(0)
    values, vectors = [], []
    for _ in range(k):
        v = [rng.gauss(0.0, 1.0) for _ in range(d)]
        for _ in range(10000):
            w = [math.fsum(a * b for a, b in zip(row, v)) for row in A]
            size = math.sqrt(math.fsum(x * x for x in w))
            v = [x / size for x in w]
            Av = [math.fsum(a * b for a, b in zip(row, v)) for row in A]
            rho = math.fsum(a * b for a, b in zip(Av, v))
            if math.sqrt(math.fsum((a - rho * b) ** 2 for a, b in zip(Av, v))) <= stop * norm:
                break
        values.append(rho)
        vectors.append(v)
        A = [[A[i][j] - rho * v[i] * v[j] for j in range(d)] for i in range(d)]
    return values, vectors


def test_components_of_power_iteration_without_reorthogonalisation_are_flagged() -> None:
    X = _data(n=2000)
    C = covariance_matrix(X)
    values, vectors = _deflated_power(C, 4)
    answer = {"explained_variance_": values, "components_": vectors}
    lines = failures(answer, X, method="covariance", convention="prcomp")
    assert not any("at an angle of" in line for line in lines)  # the forward model alone passes it
    assert any(line.startswith("orthogonality: components_[2] and components_[3] have a dot product of ")
               for line in lines), lines
    assert any(line.startswith("backward error of components_[1]: ‖Cv - ρv‖ = ") for line in lines), lines


def test_components_of_a_correct_covariance_eigensolver_pass_the_new_checks() -> None:
    X = _data()
    answer = exact_answer(X)
    assert not failures(answer, X, method="covariance")
    assert not failures(answer, X, method="svd")


# ------------------------------------------------------------------ messages


@pytest.mark.slow
def test_messages_a_failing_assert_pca_close_prints_only_the_failures(tmp_path) -> None:
    import os
    import subprocess
    import sys

    test = tmp_path / "test_theirs.py"
    test.write_text(
        "from purepca.testing import assert_pca_close, reference\n"
        "X = [[0.0, 0.0, 1.0], [1.0, 1.0, 0.0], [2.0, 2.5, 1.0], [3.0, 2.0, 0.5], [1.0, 0.0, 2.0]]\n"
        "def test_theirs():\n"
        "    ref = reference(X)\n"
        "    assert_pca_close({'explained_variance_': [v * 1.5 for v in ref.explained_variance_]}, X)\n")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=root)
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(test)],
                         capture_output=True, text=True, env=env, cwd=str(tmp_path), timeout=300)
    out = run.stdout
    assert "AssertionError: PCA differs from the reference" in out, out
    assert "``method`` picks the error model" not in out  # the docstring is not reprinted
    assert len(out.splitlines()) < 40, out


def test_messages_noise_variance_names_the_value_compared_with() -> None:
    rng = random.Random(8)
    X = [[rng.gauss(0.0, 1.0) * s for s in (3.0, 2.0, 1.5, 1.0)] for _ in range(30)]
    ref = reference(X)
    compared = math.fsum(ref.spectrum[2:]) / 2
    answer = {"explained_variance_": ref.spectrum[:2], "components_": ref.all_components[:2],
              "noise_variance_": compared * 1.5}
    line = next(line for line in failures(answer, X) if line.startswith("noise_variance_"))
    shown = float(line.split(" from ")[1].split(" ")[0])
    assert math.isclose(shown, compared, rel_tol=1e-12), (line, compared)
    assert ref.noise_variance_ == 0.0  # what the message printed before


def _verify(tmp_path, capsys, result: str, *extra: str) -> tuple[int, str, str]:
    from purepca.cli import main

    data = tmp_path / "d.csv"
    data.write_text("1,2\n3,4\n5,7\n2,2\n")
    path = tmp_path / "r.json"
    path.write_bytes(result.encode("latin-1"))
    code = main(["verify", "--data", str(data), "--no-header", "--result", str(path), *extra])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_messages_verify_blames_the_result_for_a_negative_sdev(tmp_path, capsys) -> None:
    code, _, err = _verify(tmp_path, capsys, '{"sdev": [-1.0, 0.5]}', "--convention", "prcomp")
    assert code == 1
    assert "r.json: sdev[0] is -1.0: a standard deviation is never negative (the result file is wrong" in err
    assert "d.csv" not in err


def test_messages_verify_gives_advice_for_the_result_file(tmp_path, capsys) -> None:
    code, _, err = _verify(tmp_path, capsys, '{"explained_variance_": [1.0]} \xe9')
    assert code == 1
    assert "r.json: line 1: byte 0xe9 is not utf-8 text; a result file is always read as UTF-8: save it as UTF-8" in err
    assert "--encoding" not in err


@pytest.mark.slow
def test_messages_kernel_pca_reads_the_kernel_of_the_estimator() -> None:
    np = pytest.importorskip("numpy")
    decomposition = pytest.importorskip("sklearn.decomposition")
    from purepca import KernelPCA
    from purepca.testing import assert_kernel_pca_close

    rng = random.Random(2)
    X = [[rng.gauss(0.0, 1.0) for _ in range(3)] for _ in range(25)]
    fitted = decomposition.KernelPCA(3, kernel="rbf", gamma=0.5).fit(np.array(X))
    assert_kernel_pca_close(fitted, X)  # compared under its own rbf kernel, gamma 0.5
    assert_kernel_pca_close(fitted, X, kernel="rbf", gamma=0.5)
    with pytest.raises(PurePCAError, match=r"kernel='linear' given, but the estimator was fitted with kernel='rbf'"):
        assert_kernel_pca_close(fitted, X, kernel="linear")
    auto = decomposition.KernelPCA(3, kernel="poly", degree=2, coef0=0.5).fit(np.array(X))  # gamma None: 1/d
    assert_kernel_pca_close(auto, X)
    ours = KernelPCA(3, kernel="rbf", gamma=0.25).fit(X)
    assert_kernel_pca_close(ours, X)
    wrong = {"eigenvalues_": [v * 1.01 for v in fitted.eigenvalues_]}
    with pytest.raises(AssertionError, match=r"Kernel PCA differs from the reference \(rbf kernel"):
        assert_kernel_pca_close(wrong, X, kernel="rbf", gamma=0.5)


# ------------------------------------------------------------------ inputs


def test_inputs_are_refused_with_what_is_wrong() -> None:
    from purepca.testing import align_signs, residual_bound

    X = [[1.0, 2.0], [2.0, 1.0], [4.0, 5.0], [3.0, 3.0]]
    with pytest.raises(PurePCAError, match=r"residual_bound: ddof must be a non-negative int .* got -1"):
        residual_bound(X, [1.0], [[1.0, 0.0]], kind="data", ddof=-1)
    with pytest.raises(PurePCAError, match=r"n_components=10, but X \(4 x 2\) has at most 2 components"):
        reference(X, n_components=10)
    with pytest.raises(PurePCAError, match=r"align_signs: 1 components but 2 reference rows; give one reference row"):
        align_signs([[1.0, 0.0]], [[1.0, 0.0], [0.0, 1.0]])
    with pytest.raises(PurePCAError, match=r"eigenvectors: 1 x 3, but numpy's eigh gives one column per eigenvalue"):
        assert_pca_close(([1.0, 2.0], [[1.0, 0.0, 0.0]]), X, convention="numpy")
    with pytest.raises(PurePCAError, match=r"eigenvectors: 2 x 2, but .* expected 2 x 3"):
        assert_pca_close(([1.0, 2.0, 3.0], [[1.0, 0.0], [0.0, 1.0]]), X, convention="numpy")


@pytest.mark.parametrize("extra, message", [
    (("--scale", "--unscaled"), "--scale and --unscaled contradict each other"),
    (("--ddof", "-1"), "--ddof must be >= 0, got -1"),
    (("--scale", "--scale-ddof", "-2"), "--scale-ddof must be >= 0, got -2"),
])
def test_inputs_verify_contradictions_are_usage_errors(tmp_path, capsys, extra, message) -> None:
    with pytest.raises(SystemExit) as stop:
        _verify(tmp_path, capsys, '{"explained_variance_": [1.0]}', *extra)
    assert stop.value.code == 2
    assert message in capsys.readouterr().err


def test_inputs_verify_a_nan_in_a_result_fails_the_same_in_csv_and_json(tmp_path, capsys) -> None:
    from purepca.cli import main

    data = tmp_path / "d.csv"
    data.write_text("1,2\n3,4\n5,7\n2,2\n")
    folder = tmp_path / "res"
    folder.mkdir()
    outs = []
    for cell in ("nan", ""):
        (folder / "explained_variance_.csv").write_text(f"{cell},1.0\n")
        code = main(["verify", "--data", str(data), "--no-header", "--result", str(folder)])
        outs.append((code, capsys.readouterr().out))
    code_json, out_json, _ = _verify(tmp_path, capsys, '{"explained_variance_": [NaN, 1.0]}')
    for code, out in outs + [(code_json, out_json)]:
        assert code == 1
        assert "explained_variance_[0] is NaN in the result" in out, out


# ------------------------------------------------------------------ StandardScaler's constant columns


def _with_constant_column() -> list[list[float]]:
    rng = random.Random(6)
    return [[rng.gauss(0.0, 1.0) * 2, rng.gauss(5.0, 1.0), rng.gauss(0.0, 0.5), 7.25, rng.gauss(1.0, 3.0)]
            for _ in range(40)]


def test_standard_scaler_constant_column_is_left_unscaled() -> None:
    X = _with_constant_column()
    with pytest.raises(PurePCAError, match=r"column 3 is constant \(standard deviation 0\) .* pass "
                                           r"constant_columns='unscaled'"):
        reference(X, scale=True, scale_ddof=0)
    ref = reference(X, scale=True, scale_ddof=0, constant_columns="unscaled")
    assert ref.scale_[3] == 1.0 and ref.mean_[3] == 7.25
    assert ref.spectrum[-1] == 0.0 and ref.all_components[-1] == [0.0, 0.0, 0.0, 1.0, 0.0]
    other = reference([row[:3] + row[4:] for row in X], scale=True, scale_ddof=0)
    assert ref.spectrum[:4] == other.spectrum
    with pytest.raises(PurePCAError, match=r"constant_columns must be 'error' or 'unscaled'; got 'drop'"):
        reference(X, scale=True, constant_columns="drop")


def test_standard_scaler_then_pca_with_a_constant_column_is_checked() -> None:
    np = pytest.importorskip("numpy")
    pytest.importorskip("sklearn")
    from sklearn.decomposition import PCA as SkPCA
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X = _with_constant_column()
    pipe = make_pipeline(StandardScaler(), SkPCA(svd_solver="full")).fit(np.array(X))
    pca = pipe[-1]
    assert_pca_close(pca, X, scale=True, scale_ddof=0, constant_columns="unscaled")
    wrong = {"explained_variance_": pca.explained_variance_ * 1.001, "components_": pca.components_}
    with pytest.raises(AssertionError, match=r"explained_variance_\[0\]"):
        assert_pca_close(wrong, X, scale=True, scale_ddof=0, constant_columns="unscaled")


def test_standard_scaler_verify_constant_columns_option(tmp_path, capsys) -> None:
    import json

    from purepca.cli import main

    X = _with_constant_column()
    ref = reference(X, scale=True, scale_ddof=0, constant_columns="unscaled")
    data = tmp_path / "d.csv"
    data.write_text("\n".join(",".join(repr(x) for x in row) for row in X) + "\n")
    path = tmp_path / "r.json"
    path.write_text(json.dumps({"explained_variance_": ref.spectrum[:4], "components_": ref.all_components[:4]}))
    args = ["verify", "--data", str(data), "--no-header", "--result", str(path), "--scale", "--scale-ddof", "0"]
    assert main(args) == 1
    assert "column 3 is constant" in capsys.readouterr().err
    assert main(args + ["--constant-columns", "unscaled"]) == 0, capsys.readouterr().out


# ------------------------------------------------------------------ verify --golden and JSON data


def _golden_result(name: str, tmp_path, scale: float = 1.0) -> str:
    import json

    from purepca.golden import golden_cases

    case = golden_cases(names=[name])[0]
    expected = next(r for r in case["results"] if r["convention"] == "sklearn")["expected"]
    path = tmp_path / "theirs.json"
    path.write_text(json.dumps({"explained_variance_": [float(v) * scale for v in expected["explained_variance_"]],
                                "components_": [[float(x) for x in row] for row in expected["components_"]]}))
    return str(path)


def test_verify_golden_case_by_name(tmp_path, capsys) -> None:
    from purepca.cli import main

    assert main(["verify", "--golden", "toy", "--result", _golden_result("toy", tmp_path)]) == 0
    assert "against purepca's reference for golden case toy" in capsys.readouterr().out
    assert main(["verify", "--golden", "toy", "--result", _golden_result("toy", tmp_path, 1.001)]) == 1
    assert "explained_variance_[0]   FAIL" in capsys.readouterr().out
    assert main(["verify", "--golden", "nope", "--result", _golden_result("toy", tmp_path)]) == 1
    assert "--golden nope: no such golden case; the PCA cases are " in capsys.readouterr().err
    assert main(["verify", "--golden", "kernel_rbf", "--result", _golden_result("toy", tmp_path)]) == 1
    assert "--golden kernel_rbf: a kernel_pca case; verify checks a PCA" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        main(["verify", "--golden", "toy", "--data", "x.csv", "--result", "r.json"])
    assert stop.value.code == 2
    assert "give one of --data, --dataset NAME or --golden NAME (got --data and --golden)" in capsys.readouterr().err


def test_verify_data_as_json(tmp_path, capsys) -> None:
    import json
    import os

    from purepca.cli import main
    from purepca.golden import FOLDER

    result = _golden_result("toy", tmp_path)
    golden_file = os.path.join(FOLDER, "toy.json")
    assert main(["verify", "--data", golden_file, "--result", result]) == 0  # a golden case file as it is
    rows = [[float(x) for x in row] for row in json.load(open(golden_file))["input"]["X"]]
    for document in (rows, {"X": rows}):
        data = tmp_path / "data.json"
        data.write_text(json.dumps(document))
        assert main(["verify", "--data", str(data), "--result", result]) == 0
    capsys.readouterr()
    for document, message in (([[1.0, 2.0], [3.0]], "rows of [1, 2] numbers; every row needs as many"),
                              ({"Y": rows}, 'a JSON object of data needs its rows under "X"'),
                              ([[1.0, True]], "row 0, column 1: not a number: True"),
                              ([], "expected the data as a non-empty list of rows")):
        data = tmp_path / "bad.json"
        data.write_text(json.dumps(document))
        assert main(["verify", "--data", str(data), "--result", result]) == 1
        assert message in capsys.readouterr().err
