"""purepca.testing: the oracle's half of another library's tests (issue 8).

Both ways: a correct answer passes (scikit-learn's full SVD, sign flips
where the convention leaves the sign free, any basis of a degenerate
subspace), a wrong one fails with a message naming the quantity, the
component, the size and the digits lost.
"""

from __future__ import annotations

import math
import random

import pytest

import os
import sys

from purepca import PurePCAError
sys.path.insert(0, os.path.dirname(__file__))
from helpers import random_orthogonal  # noqa: E402
from purepca.testing import (
    align_signs,
    assert_pca_close,
    compare_pca,
    eigen_clusters,
    reference,
    residual_bound,
    sign_determined,
    subspace_distance,
)


@pytest.mark.parametrize("angle", [1e-12, 1e-9, 1e-6, 0.3, 1.2])
def test_subspace_distance_returns_a_known_angle(angle: float) -> None:
    Q = random_orthogonal(10, random.Random(1))
    A = Q[:3]
    # B: A with its second vector turned by `angle` towards Q[7], outside span(A).
    B = [Q[0], [math.cos(angle) * a + math.sin(angle) * b for a, b in zip(Q[1], Q[7])], Q[2]]
    got = subspace_distance(A, B)
    assert abs(got - angle) <= 0.01 * angle
    # Mixed bases of the same spans give the same angle.
    mixed = [[a + 2 * b for a, b in zip(B[0], B[2])], B[1], [a - b for a, b in zip(B[0], B[2])]]
    assert abs(subspace_distance(A, mixed) - angle) <= 0.01 * angle


def test_subspace_distance_errors() -> None:
    with pytest.raises(PurePCAError, match="same dimension"):
        subspace_distance([[1.0, 0.0]], [[1.0, 0.0], [0.0, 1.0]])
    with pytest.raises(PurePCAError, match="row 1 lies in the span"):
        subspace_distance([[1.0, 0.0], [2.0, 0.0]], [[1.0, 0.0], [0.0, 1.0]])


def test_clusters_signs_and_residuals() -> None:
    assert eigen_clusters([3.0, 1.0, 1.0, 1.0 - 1e-12, 0.0]) == [[0], [1, 2, 3], [4]]
    assert align_signs([[-1.0, 0.0], [0.0, 1.0]], [[1.0, 0.0], [0.0, -1.0]]) == [[1.0, -0.0], [-0.0, -1.0]]
    assert sign_determined([0.1, -0.99], "max_abs_positive", 1e-3)
    assert not sign_determined([0.7, 0.7 + 1e-6], "max_abs_positive", 1e-5)
    assert sign_determined([0.3, 0.9], "first_positive", 0.1) and not sign_determined([1e-9, 1.0], "first_positive", 1e-8)
    assert not sign_determined([0.6, 0.8], "none", 0.0)
    X = [[2.5, 2.4], [0.5, 0.7], [2.2, 2.9], [1.9, 2.2], [3.1, 3.0]]
    ref = reference(X)
    as_data = residual_bound(X, ref.explained_variance_, ref.components_)
    assert max(as_data) < 1e-15
    off = residual_bound(X, [ref.explained_variance_[0] + 1e-6], ref.components_[:1], kind="data")
    assert abs(off[0] - 1e-6) < 1e-12  # the residual of a shifted value is the shift


# ---------------------------------------------------------------- against scikit-learn

sklearn = pytest.importorskip("sklearn.decomposition")
np = pytest.importorskip("numpy")


def cases() -> dict[str, list[list[float]]]:
    rng = random.Random(3)
    out = {
        "toy": [[2.5, 2.4], [0.5, 0.7], [2.2, 2.9], [1.9, 2.2], [3.1, 3.0], [2.3, 2.7], [2.0, 1.6], [1.0, 1.1],
                [1.5, 1.6], [1.1, 0.9]],
        "random": [[rng.gauss(0, 1) * (j + 1) for j in range(5)] for _ in range(40)],
        "offset 1e6": [[1e6 + rng.gauss(0, 1) * (j + 1) for j in range(4)] for _ in range(60)],
        "wide": [[rng.gauss(0, 1) for _ in range(12)] for _ in range(6)],
        "integers": [[rng.randint(-5, 9) for _ in range(4)] for _ in range(30)],
    }
    t = [rng.gauss(0, 1) for _ in range(80)]
    out["collinear"] = [[a + 1e-7 * rng.gauss(0, 1), a + 1e-7 * rng.gauss(0, 1), rng.gauss(0, 1)] for a in t]
    return out


@pytest.mark.parametrize("name", sorted(cases()))
def test_scikit_learns_full_svd_passes(name: str) -> None:
    X = cases()[name]
    k = min(len(X), len(X[0]))
    if name == "wide":
        k -= 1  # the last component of centred wide data is not determined
    fitted = sklearn.PCA(k, svd_solver="full").fit(np.array(X))
    assert_pca_close(fitted, X, convention="sklearn", method="svd")


def test_covariance_eigh_at_an_offset_of_1e9_fails_naming_what_it_lost() -> None:
    rng = random.Random(5)
    X = [[1e9 + rng.gauss(0, 1) * s for s in (3.0, 1.0, 0.5)] for _ in range(100)]
    fitted = sklearn.PCA(3, svd_solver="covariance_eigh").fit(np.array(X))
    ref = reference(X)
    if max(abs(a - b) / b for a, b in zip(fitted.explained_variance_, ref.explained_variance_)) < 1e-6:
        pytest.skip("this scikit-learn's covariance_eigh is accurate at an offset of 1e9 (fixed upstream)")
    with pytest.raises(AssertionError) as info:
        assert_pca_close(fitted, X, convention="sklearn", method="svd", ref=ref)
    text = str(info.value)
    assert "explained_variance_[0]" in text and "digits lost" in text
    lost = float(text.split("explained_variance_[0]")[1].split("; ")[1].split(" digits lost")[0])
    assert lost > 3


def test_sign_flips_pass_where_the_convention_leaves_the_sign_free_and_fail_where_it_fixes_it() -> None:
    X = cases()["random"]
    ref = reference(X, convention="prcomp")
    flipped = {"explained_variance_": ref.explained_variance_,
               "components_": [[-x for x in row] if i % 2 else row for i, row in enumerate(ref.components_)]}
    assert_pca_close(flipped, X, convention="prcomp")
    sk = reference(X, convention="sklearn")
    flipped = {"explained_variance_": sk.explained_variance_,
               "components_": [[-x for x in row] if i == 1 else row for i, row in enumerate(sk.components_)]}
    with pytest.raises(AssertionError, match=r"components_\[1\]: the sign is flipped; convention 'sklearn'"):
        assert_pca_close(flipped, X, convention="sklearn")


def _degenerate() -> list[list[float]]:
    # Points of a regular 8-gon in the (x, y) plane plus a small z: the first two eigenvalues are equal.
    return [[math.cos(2 * math.pi * i / 8), math.sin(2 * math.pi * i / 8), 0.1 * (-1) ** i] for i in range(8)]


def test_any_basis_of_a_degenerate_subspace_passes_and_a_different_subspace_fails() -> None:
    X = _degenerate()
    ref = reference(X)
    assert ref.clusters[0] == [0, 1]
    t = 0.7
    c0, c1 = ref.components_[0], ref.components_[1]
    turned = [[math.cos(t) * a + math.sin(t) * b for a, b in zip(c0, c1)],
              [-math.sin(t) * a + math.cos(t) * b for a, b in zip(c0, c1)], ref.components_[2]]
    assert_pca_close({"explained_variance_": ref.explained_variance_, "components_": turned}, X)
    wrong = [[math.cos(0.01) * a + math.sin(0.01) * b for a, b in zip(turned[0], ref.components_[2])],
             turned[1], [-math.sin(0.01) * a + math.cos(0.01) * b for a, b in zip(turned[0], ref.components_[2])]]
    with pytest.raises(AssertionError) as info:
        assert_pca_close({"explained_variance_": ref.explained_variance_, "components_": wrong}, X)
    text = str(info.value)
    assert "components_[0..1] (eigenvalues the method cannot tell apart: compared as a subspace): at an angle of 0.01 rad" in text
    assert "components_[2]: at an angle of 0.01 rad" in text


def test_svd_angle_tolerance_follows_each_components_own_gap() -> None:
    # Singular values 1, 1 - 1e-4, 0.3, 0.05 (exactly, up to rounding): the close pair is allowed ~1e4 times
    # the angle of the isolated last component, and a turn just past each one's own tolerance is flagged.
    rng = random.Random(4)
    n, d = 30, 4
    Q = random_orthogonal(d, rng)
    rows = [[rng.gauss(0, 1) for _ in range(d)] for _ in range(n)]
    means = [sum(c) / n for c in zip(*rows)]
    rows = [[x - m for x, m in zip(r, means)] for r in rows]
    # Orthonormal columns by Gram-Schmidt, then X = U·diag(s)·Qᵀ.
    cols: list[list[float]] = []
    for c in zip(*rows):
        v = list(c)
        for u in cols:
            t = sum(a * b for a, b in zip(u, v))
            v = [a - t * b for a, b in zip(v, u)]
        norm = math.sqrt(sum(a * a for a in v))
        cols.append([a / norm for a in v])
    s = [1.0, 1.0 - 1e-4, 0.3, 0.05]
    X = [[sum(cols[k][i] * s[k] * Q[j][k] for k in range(d)) for j in range(d)] for i in range(n)]
    ref = reference(X)
    exact = {"explained_variance_": ref.explained_variance_, "components_": ref.components_}
    allowed = {c.quantity: c.tolerance for c in compare_pca(exact, X, ref=ref) if c.quantity.startswith("comp")}
    assert allowed["components_[0]"] > 1e3 * allowed["components_[3]"]
    eps = 2.0 ** -52
    assert allowed["components_[3]"] < 200 * eps  # sqrt(n + d)·eps·σ_1/(σ_3 - σ_4) and a unit vector's rounding
    for i, j in ((3, 2), (0, 1)):
        for factor, ok in ((0.5, True), (2.0, False)):
            t = factor * allowed[f"components_[{i}]"]
            turned = [list(c) for c in ref.components_]
            turned[i] = [math.cos(t) * a + math.sin(t) * b for a, b in zip(ref.components_[i], ref.components_[j])]
            turned[j] = [-math.sin(t) * a + math.cos(t) * b for a, b in zip(ref.components_[i], ref.components_[j])]
            checks = compare_pca({"components_": turned}, X, ref=ref)
            assert next(c for c in checks if c.quantity == f"components_[{i}]").passed is ok, (i, factor)


def test_r_values_as_a_dict_and_a_bad_result() -> None:
    X = cases()["toy"]
    r_out = {"sdev": [1.1331495, 0.2215477], "rotation": [[-0.6778734, 0.7351787], [-0.7351787, -0.6778734]]}
    assert_pca_close(r_out, X, convention="prcomp", rtol=1e-6)
    with pytest.raises(AssertionError, match=r"explained_variance_\[1\]"):
        assert_pca_close({"sdev": [1.1331495, 0.2216]}, X, convention="prcomp", rtol=1e-6)
    with pytest.raises(PurePCAError, match="nothing to compare"):
        assert_pca_close({"means": [1.0]}, X)
    with pytest.raises(PurePCAError, match="method must be one of"):
        assert_pca_close(r_out, X, method="magic")


# ---------------------------------------------------------------- purepca verify

def _verify_files(tmp_path):  # type: ignore[no-untyped-def]
    import json

    rng = random.Random(1)
    X = [[rng.gauss(0, 1) * (j + 1) + 100 for j in range(4)] for _ in range(40)]
    (tmp_path / "X.csv").write_text("a,b,c,d\n" + "\n".join(",".join(repr(v) for v in r) for r in X) + "\n")
    fitted = sklearn.PCA(svd_solver="full").fit(np.array(X))
    doc = {k: getattr(fitted, k).tolist() for k in ("components_", "explained_variance_", "explained_variance_ratio_",
                                                     "singular_values_", "mean_")}
    (tmp_path / "theirs.json").write_text(json.dumps(doc))
    flipped = json.loads(json.dumps(doc))
    flipped["components_"][1] = [-x for x in flipped["components_"][1]]
    (tmp_path / "flipped.json").write_text(json.dumps(flipped))
    wrong = json.loads(json.dumps(doc))
    wrong["explained_variance_"][2] *= 1.001
    (tmp_path / "wrong.json").write_text(json.dumps(wrong))
    folder = tmp_path / "csv"
    folder.mkdir()
    np.savetxt(folder / "components_.csv", fitted.components_, delimiter=",")
    np.savetxt(folder / "explained_variance_.csv", fitted.explained_variance_, delimiter=",")
    (tmp_path / "bad.json").write_text("{not json")
    (tmp_path / "list.json").write_text("[1, 2]")
    (tmp_path / "text.json").write_text(json.dumps({"explained_variance_": [1.0, "x"]}))
    return tmp_path


def _verify(tmp_path, *argv):  # type: ignore[no-untyped-def]
    import os
    import pathlib
    import subprocess
    import sys

    root = pathlib.Path(__file__).resolve().parent.parent
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run([sys.executable, "-m", "purepca", "verify", *argv], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)


@pytest.mark.slow
def test_verify_passes_scikit_learns_output_and_names_what_is_wrong(tmp_path) -> None:  # type: ignore[no-untyped-def]
    d = _verify_files(tmp_path)
    ok = _verify(d, "--data", "X.csv", "--result", "theirs.json", "--convention", "sklearn")
    assert ok.returncode == 0 and ok.stdout.rstrip().endswith("20 passed, 0 failed"), ok.stdout + ok.stderr
    assert "explained_variance_[0]         PASS" in ok.stdout
    folder = _verify(d, "--data", "X.csv", "--result", "csv")
    assert folder.returncode == 0 and "8 passed, 0 failed" in folder.stdout
    flipped = _verify(d, "--data", "X.csv", "--result", "flipped.json")
    assert flipped.returncode == 1
    assert "components_[1]: the sign is flipped; convention 'sklearn' (max_abs_positive) determines it" in flipped.stdout
    assert _verify(d, "--data", "X.csv", "--result", "flipped.json", "--convention", "prcomp").returncode == 0
    wrong = _verify(d, "--data", "X.csv", "--result", "wrong.json")
    assert wrong.returncode == 1 and "explained_variance_[2]         FAIL" in wrong.stdout and "digits lost" in wrong.stdout


@pytest.mark.slow
@pytest.mark.parametrize("argv, status, message", [
    (["--data", "X.csv", "--result", "bad.json"], 1, "bad.json: not JSON"),
    (["--data", "X.csv", "--result", "list.json"], 1, "list.json: expected a JSON object of attributes, got list"),
    (["--data", "X.csv", "--result", "text.json"], 1, "text.json: explained_variance_[1]: not a number: 'x'"),
    (["--data", "X.csv", "--result", "none.json"], 1, "none.json: cannot read it"),
    (["--data", "none.csv", "--result", "theirs.json"], 1, "none.csv: cannot read it"),
    (["--result", "theirs.json"], 2, "give one of --data, --dataset NAME"),
    (["--data", "X.csv"], 2, "the following arguments are required: --result"),
])
def test_verify_bad_files_are_one_line(argv, status, message, tmp_path) -> None:  # type: ignore[no-untyped-def]
    d = _verify_files(tmp_path)
    out = _verify(d, *argv)
    assert out.returncode == status and message in out.stderr and len(out.stderr.strip().splitlines()) == 1
    assert "Traceback" not in out.stderr


# ---------------------------------------------------------------- statsmodels and numpy conventions

def test_statsmodels_convention_reproduces_statsmodels() -> None:
    sm = pytest.importorskip("statsmodels.multivariate.pca")
    from purepca import PCA
    from purepca.conventions import as_statsmodels

    X = cases()["random"]
    for standardize in (True, False):
        theirs = sm.PCA(np.array(X), standardize=standardize, demean=True)
        ours = as_statsmodels(PCA(convention="statsmodels", scale=standardize).fit(X), X)
        top = float(np.asarray(theirs.eigenvals)[0])
        assert max(abs(a - b) for a, b in zip(ours["eigenvals"], np.asarray(theirs.eigenvals))) < 1e-12 * top
        for name in ("loadings", "factors", "coeff"):
            mine, other = np.array(ours[name]), np.asarray(getattr(theirs, name))
            cols = mine.shape[1] if name != "coeff" else mine.shape[0]
            for c in range(cols):  # LAPACK's signs: compare up to the sign of each component
                a = mine[:, c] if name != "coeff" else mine[c]
                b = other[:, c] if name != "coeff" else other[c]
                assert min(np.abs(a - b).max(), np.abs(a + b).max()) < 1e-9 * max(1.0, np.abs(b).max())
        assert_pca_close(theirs, X, convention="statsmodels", scale=standardize, method="svd")


def test_numpy_convention_and_eigh_of_cov() -> None:
    from purepca import PCA
    from purepca.conventions import as_numpy

    X = cases()["random"]
    w, v = np.linalg.eigh(np.cov(np.array(X), rowvar=False))
    ours_w, ours_v = as_numpy(PCA(convention="numpy").fit(X))
    assert np.abs(np.array(ours_w) - w).max() < 1e-12 * w[-1]
    assert np.abs(np.abs(np.array(ours_v)) - np.abs(v)).max() < 1e-10
    assert_pca_close(np.linalg.eigh(np.cov(np.array(X), rowvar=False)), X, convention="numpy", method="covariance")
    assert_pca_close((w, v), X, convention="numpy", method="covariance")
    wrong = (w * np.array([1.0] * (len(w) - 1) + [1.001]), v)
    with pytest.raises(AssertionError, match=r"explained_variance_\[0\]"):
        assert_pca_close(wrong, X, convention="numpy", method="covariance")


# ---------------------------------------------------------------- the float reference (issue 21)

def _hard_inputs() -> dict[str, list[list[float]]]:
    rng = random.Random(11)
    out: dict[str, list[list[float]]] = {}
    out["offset 1e9"] = [[1e9 + rng.gauss(0, 1) * (j + 1) for j in range(4)] for _ in range(30)]
    rows = []
    for _ in range(30):
        t = rng.gauss(0, 1)
        rows.append([t + 1e-7 * rng.gauss(0, 1), t + 1e-7 * rng.gauss(0, 1), rng.gauss(0, 1)])
    out["collinear"] = rows
    half = [[rng.gauss(0, 1), rng.gauss(0, 1), rng.gauss(0, 0.3)] for _ in range(10)]
    out["clustered"] = half + [[-x for x in r] for r in half]
    out["wide"] = [[rng.gauss(0, 1) * (1 + j) for j in range(9)] for _ in range(5)]
    out["graded"] = [[rng.gauss(0, 1) * 10.0 ** (-2 * j) for j in range(5)] for _ in range(30)]
    out["x1e150"] = [[rng.gauss(0, 1) * 1e150 * (j + 1) for j in range(3)] for _ in range(20)]
    out["x1e-150"] = [[rng.gauss(0, 1) * 1e-150 * (j + 1) for j in range(3)] for _ in range(20)]
    return out


@pytest.mark.parametrize("kind", list(_hard_inputs()))
@pytest.mark.parametrize("scale", [False, True])
def test_reference_in_floats_agrees_with_the_50_digit_one(kind: str, scale: bool) -> None:
    X = _hard_inputs()[kind]
    if scale and kind == "wide":
        return
    fast = reference(X, scale=scale)
    exact = reference(X, digits=50, scale=scale)
    assert fast.computed == "float, refined" and exact.computed == "50 digits"
    top = max(exact.unit_spectrum)
    for a, b in zip(fast.unit_spectrum, exact.unit_spectrum):
        # A few ulps relative; the centring of the float data (x - mean, rounded) costs eps·|x|·sqrt(λ_i)
        # absolute, far below what any float PCA can reach (eps·sqrt(λ_1·λ_i)).
        assert abs(a - b) <= 8e-16 * abs(b) + 4e-16 * math.sqrt(top * max(b, 0.0)) + 1e-30 * top
    n_determined = [i for i in range(len(exact.unit_spectrum)) if exact.unit_spectrum[i] > 1e-12 * top
                    and all(abs(exact.unit_spectrum[i] - exact.unit_spectrum[j]) > 1e-6 * top
                            for j in range(len(exact.unit_spectrum)) if j != i)]
    for i in n_determined:
        assert subspace_distance([fast.all_components[i]], [exact.all_components[i]]) < 3e-14
    assert max(abs(a - b) for a, b in zip(fast.mean_, exact.mean_)) <= 2e-16 * max(abs(b) for b in exact.mean_) + 1e-300


def test_reference_is_cached_on_the_data_fingerprint() -> None:
    from purepca.testing import clear_cache, fingerprint

    X = [[1.0, 2.0], [2.0, 3.5], [4.0, 1.0]]
    clear_cache()
    first = reference(X)
    assert reference([list(r) for r in X]) is first  # equal bits, same reference
    assert reference(X, ddof=0) is not first
    assert fingerprint(X) != fingerprint([[1.0, 2.0], [2.0, 3.5], [4.0, 1.0 + 2 ** -40]])


@pytest.mark.parametrize("size", [1.0, 1e6, 1e-6, 1e150])
def test_a_passed_check_has_its_error_within_its_tolerance_in_the_same_units(size: float) -> None:
    # Check.tolerance of the variances was in units of 4**lift while Check.error was in the data's: verify
    # printed "PASS 6.25e-17 5.01e-17" on the toy data, and at x1e6 an error of 1.5e-3 passed beside a
    # tolerance of 2.7e-16 (a hostile battery's find).
    from purepca import PCA
    from purepca.datasets import toy_data

    X = [[x * size for x in row] for row in toy_data()]
    fit = PCA(1).fit(X)
    result = {"explained_variance_": [v * (1 + 3e-16) for v in fit.explained_variance_],
              "components_": fit.components_, "noise_variance_": fit.noise_variance_ * (1 + 3e-16),
              "mean_": fit.mean_, "singular_values_": fit.singular_values_}
    checks = compare_pca(result, X)
    assert checks and all(c.passed for c in checks), [c.line() for c in checks if not c.passed]
    assert all(c.error <= c.tolerance for c in checks), [(c.quantity, c.error, c.tolerance) for c in checks]
