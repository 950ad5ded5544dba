"""The step player's runs without a browser: they are the solvers' own traces, the page is self-contained.

The browser tests (test_player_browser.py) check what the page shows; these
check what it is given: every frame against the solver's trace and against
the algebra (the rotation zeroes its entry, V stays orthogonal and
V·A·Vᵀ is the working matrix, at 50 digits to 45), the 50-digit replay
against mpmath-free exact arithmetic (Fractions), the naive covariance, the
page's size and that it names nothing outside itself, and the errors.
"""

from __future__ import annotations

import json
import math
import pathlib
import re
from decimal import Decimal
from fractions import Fraction

import pytest

from purepca import PurePCAError
from purepca.cli import main
from purepca.covariance import covariance_matrix
from purepca.datasets import toy_data
from purepca.linalg import jacobi_eigh
from purepca.linalg.jacobi import JacobiStep
from purepca.linalg.power import PowerStep, SubspaceStep, power_iteration, subspace_iteration
from purepca.linalg.tridiagonal import TridiagonalStep, tridiagonal_eigh
from purepca.player import (
    SCHEMA,
    data_run,
    jacobi_run,
    naive_covariance,
    player_html,
    power_run,
    replay,
    subspace_run,
    teach,
    to_json,
    tridiagonal_run,
)

M3 = [[4.0, 1.0, 0.5], [1.0, 3.0, 0.3], [0.5, 0.3, 2.0]]
M5 = [[4.0, 1.0, 0.5, 0.2, 0.1], [1.0, 3.0, 0.3, 0.1, 0.2], [0.5, 0.3, 2.0, 0.4, 0.1],
      [0.2, 0.1, 0.4, 1.0, 0.3], [0.1, 0.2, 0.1, 0.3, 0.5]]


def _fr(x: object) -> Fraction:
    return Fraction(Decimal(x)) if isinstance(x, str) else Fraction(x)  # type: ignore[arg-type]


@pytest.mark.parametrize("M", [M3, M5])
def test_jacobi_frames_are_the_solvers_trace(M: list[list[float]]) -> None:
    steps: list[JacobiStep] = []
    result = jacobi_eigh(M, trace=steps.append)
    rotations = [s for s in steps if s.kind == "rotation"]
    run = jacobi_run(M)
    frames = run["frames"]
    assert run["schema"] == SCHEMA and frames[0]["kind"] == "start" and frames[0]["matrix"] == M
    assert len(frames) == len(rotations) + 1 == run["rotations"] + 1
    for frame, step in zip(frames[1:], rotations):
        assert (frame["p"], frame["q"], frame["sweep"], frame["theta"]) == (step.p, step.q, step.sweep, step.angle)
        assert frame["off"] == step.off_norm
        assert frame["c"] == step.c and frame["s"] == step.s and frame["t"] == step.t
        assert math.isclose(math.atan(frame["t"]), frame["theta"], rel_tol=1e-15)
    for before, after in zip(frames, frames[1:]):
        assert after["before"] == before["matrix"]
        assert after["matrix"][after["p"]][after["q"]] == 0.0
    assert run["values"] == [float(v) for v in result.values]
    assert [f["frame"] for f in run["sweeps"]][-1] == len(frames) - 1
    assert json.loads(to_json(run)) == run  # floats read back to the same bits


@pytest.mark.budget(2)  # 0.6-0.9 s measured on a busy 2-core machine: 1 s left no room for its noise
def test_jacobi_at_50_digits_frames_obey_the_algebra() -> None:
    run = jacobi_run(M5, digits=50)
    assert run["digits"] == 50
    A = [[Fraction(x) for x in row] for row in M5]
    n = len(A)
    for frame in run["frames"][1:]:
        c, s = _fr(frame["c"]), _fr(frame["s"])
        assert abs(c * c + s * s - 1) < Fraction(1, 10 ** 48)
        V = [[_fr(x) for x in row] for row in frame["vectors"]]
        W = [[_fr(x) for x in row] for row in frame["matrix"]]
        VAVt = [[sum(V[i][k] * A[k][m] * V[j][m] for k in range(n) for m in range(n)) for j in range(n)]
                for i in range(n)]
        assert max(abs(VAVt[i][j] - W[i][j]) for i in range(n) for j in range(n)) < Fraction(1, 10 ** 45)
        off = sum(W[i][j] ** 2 for i in range(n) for j in range(n) if i != j)
        assert abs(_fr(frame["off"]) ** 2 - off) <= Fraction(1, 10 ** 45) * max(off, Fraction(1, 10 ** 40)) + \
            Fraction(1, 10 ** 90)


def test_power_frames_are_the_solvers_trace() -> None:
    steps: list[PowerStep] = []
    result = power_iteration(M3, k=2, seed=3, trace=steps.append)
    run = power_run(M3, 2, seed=3)
    assert len(run["frames"]) == len(steps) == result.iterations
    for frame, step in zip(run["frames"], steps):
        # the page's value and residual are formed exactly from the vector shown (the solver's, in floats,
        # are all rounding near convergence): the same value to rounding; the residual is checked in
        # test_classroom_frames.py against mpmath
        assert (frame["pair"], frame["iteration"]) == (step.eigenpair, step.iteration)
        assert math.isclose(frame["value"], step.value, rel_tol=1e-14)
        assert frame["vector"] == list(step.vector or ())
        v = frame["vector"]
        Av = [math.fsum(a * x for a, x in zip(row, v)) for row in M3]
        if frame["pair"] == 1:  # the Rayleigh quotient of the vector shown
            assert math.isclose(frame["value"], math.fsum(a * b for a, b in zip(v, Av)), rel_tol=1e-14)
    ratio = run["ratios"][0]
    values = sorted(jacobi_eigh(M3).values, key=abs, reverse=True)
    assert math.isclose(ratio, abs(values[1] / values[0]), rel_tol=1e-15)
    last = [f for f in run["frames"] if f["pair"] == 1][-1]
    assert last["angle"] < 1e-4 and math.isclose(last["rate"], ratio ** (last["iteration"] - 1))


def test_subspace_frames_are_the_solvers_trace() -> None:
    steps: list[SubspaceStep] = []
    result = subspace_iteration(M5, k=2, block_size=2, trace=steps.append)
    run = subspace_run(M5, 2)
    assert len(run["frames"]) == len(steps) == result.iterations and run["block_size"] == 2
    for frame, step in zip(run["frames"], steps):
        # the residuals are formed exactly from the x and θ shown (checked against mpmath in
        # test_classroom_frames.py); the solver's, in floats, agree until they near eps·‖A‖
        assert frame["values"] == list(step.values)
        assert all(math.isclose(a, b, rel_tol=1e-6) for a, b in zip(frame["residuals"], step.residuals) if b > 1e-9)
        for x, theta in zip(frame["vectors"], frame["values"]):  # a Ritz value is its vector's Rayleigh quotient
            Ax = [math.fsum(a * y for a, y in zip(row, x)) for row in M5]
            assert math.isclose(math.fsum(a * b for a, b in zip(x, Ax)), theta, rel_tol=1e-13)
    assert run["frames"][-1]["values"] == result.values
    values = sorted(jacobi_eigh(M5).values, key=abs, reverse=True)
    assert run["ratios"] == [abs(values[2] / values[0]), abs(values[2] / values[1])]


def test_tridiagonal_frames_are_the_solvers_trace() -> None:
    steps: list[TridiagonalStep] = []
    tridiagonal_eigh(M5, trace=steps.append)
    run = tridiagonal_run(M5)
    assert run["frames"][0]["kind"] == "start" and run["frames"][0]["matrix"] == [[float(x) for x in row] for row in M5]
    frames = [f for f in run["frames"] if f["kind"] not in ("start", "tridiagonal", "chase")]  # A, T, T mid-chase
    assert [f["kind"] for f in frames] == [s.kind for s in steps]
    for frame, step in zip(frames, steps):
        if step.kind == "householder":
            v = frame["reflector"]
            if v:  # H = I - beta v vᵀ is orthogonal: beta·‖v‖² = 2
                assert math.isclose(frame["beta"] * math.fsum(x * x for x in v), 2.0, rel_tol=1e-14)
                assert math.isclose(abs(frame["alpha"]), frame["norm"], rel_tol=1e-15)
        else:
            assert (frame["subdiagonal"], frame["shift"]) == (step.value, step.shift)


def test_traced_and_untraced_runs_give_the_same_bits() -> None:
    for solve in (jacobi_eigh, tridiagonal_eigh):
        a, b = solve(M5), solve(M5, trace=lambda step: None)
        assert a.values == b.values and a.vectors == b.vectors
    a, b = power_iteration(M3, k=2), power_iteration(M3, k=2, trace=lambda step: None)
    assert a.values == b.values and a.vectors == b.vectors
    a, b = subspace_iteration(M5, k=2), subspace_iteration(M5, k=2, trace=lambda step: None)
    assert a.values == b.values and a.vectors == b.vectors


def test_scaled_matrix_traces_in_the_input_units() -> None:
    """A matrix near overflow is scaled by a power of two inside: the trace says its numbers unscaled."""
    big = [[x * 1e300 for x in row] for row in M3]
    steps: list[JacobiStep] = []
    jacobi_eigh(big, trace=steps.append)
    small = jacobi_run(M3)
    for step, frame in zip([s for s in steps if s.kind == "rotation"], small["frames"][1:]):
        assert math.isclose(step.off_norm, frame["off"] * 1e300, rel_tol=1e-12)
        assert step.matrix is not None
        assert math.isclose(step.matrix[0][0], frame["matrix"][0][0] * 1e300, rel_tol=1e-12)
    traced: list[list[SubspaceStep]] = [[], []]
    subspace_iteration(big, k=2, block_size=2, trace=traced[0].append)
    subspace_iteration(M3, k=2, block_size=2, trace=traced[1].append)
    for a, b in zip(*traced):
        assert all(math.isclose(x, y * 1e300, rel_tol=1e-12) for x, y in zip(a.values, b.values))
        assert math.isclose(a.tolerance, b.tolerance * 1e300, rel_tol=1e-12)


def test_toy_data_run_is_one_rotation_by_42_6777_degrees() -> None:
    run = data_run(toy_data())
    assert len(run["frames"]) == 2
    assert round(math.degrees(run["frames"][1]["theta"]), 4) == 42.6777
    C = covariance_matrix(toy_data())
    assert run["frames"][0]["matrix"] == [[float(x) for x in row] for row in C]
    assert len(run["data"]) == 10 and abs(math.fsum(p[0] for p in run["data"])) < 1e-14


def test_replay_gains_digits_quadratically_and_floats_stop() -> None:
    r = replay(M5, 50)
    exact = [row["exact_gain"] for row in r["sweeps"] if row.get("exact_gain")]
    assert exact[-1] > 2 * exact[-2] > 0  # the gain per sweep grows: quadratic convergence
    floats = [row["float_value_digits"] for row in r["sweeps"] if "float_value_digits" in row]
    assert 14.5 < max(floats) < 17
    # The 50-digit eigenvalues against the exact characteristic residual: det(A - λI) tiny.
    for value in r["values"][:1]:
        lam = Fraction(Decimal(value))
        A = [[Fraction(x) - (lam if i == j else 0) for j, x in enumerate(row)] for i, row in enumerate(M5)]
        # Gaussian elimination in exact arithmetic
        det = Fraction(1)
        for k in range(5):
            pivot = max(range(k, 5), key=lambda i: abs(A[i][k]))
            A[k], A[pivot] = A[pivot], A[k]
            det *= A[k][k] * (1 if pivot == k else -1)
            for i in range(k + 1, 5):
                f = A[i][k] / A[k][k]
                A[i] = [a - f * b for a, b in zip(A[i], A[k])]
        assert abs(det) < Fraction(1, 10 ** 45)


def test_naive_covariance_loses_every_digit_on_shifted_toy_data() -> None:
    X = [[x + 1e8 for x in row] for row in toy_data()]
    r = naive_covariance(X)
    assert r["offset"] > 9e7
    assert all(e["naive_digits"] < 1 for e in r["entries"])
    assert all(e["purepca_digits"] > 15 for e in r["entries"])
    plain = naive_covariance(toy_data())
    assert all(e["naive_digits"] > 13 for e in plain["entries"])


def test_page_is_self_contained_and_small(tmp_path: pathlib.Path) -> None:
    page = teach("jacobi", matrix=M5)
    assert len(page.encode()) < 450_000  # with the three pivot orders and the three precisions (issue 43)
    assert not re.search(r"""(src|href)\s*=\s*["'](?!data:)""", page)  # no file, font or script from elsewhere
    assert "@import" not in page and "url(" not in page and "fetch(" not in page
    assert re.findall(r"https?://[^\s\"'<>]+", page) == ["http://www.w3.org/2000/svg"] * len(
        re.findall(r"https?://[^\s\"'<>]+", page))
    blob = re.search(r'<script type="application/json" id="run-data">(.*?)</script>', page, re.S)
    assert blob is not None
    payload = json.loads(blob.group(1))
    assert payload["run"]["frames"] == jacobi_run(M5)["frames"] and payload["replay"] == replay(M5)


def test_script_end_tag_in_a_title_cannot_break_the_page() -> None:
    run = jacobi_run(M3, title="</script><b>x</b>")
    page = player_html(run)
    assert page.count("</script>") == 2 and "&lt;/script&gt;" in page


@pytest.mark.budget(2)  # 0.6-0.9 s measured on a busy 2-core machine: 1 s left no room for its noise
def test_teach_command_writes_the_page(tmp_path: pathlib.Path) -> None:
    out = tmp_path / "toy.html"
    assert main(["teach", "--dataset", "toy", "--shift", "1e8", "--output", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    payload = json.loads(re.search(r'id="run-data">(.*?)</script>', page, re.S).group(1))  # type: ignore[union-attr]
    assert payload["run"]["shift"] == 1e8 and payload["run"]["naive"]["entries"][0]["naive_digits"] < 1
    matrix = tmp_path / "m.csv"
    matrix.write_text("\n".join(",".join(map(str, row)) for row in M3) + "\n")
    assert main(["teach", "--matrix", str(matrix), "--method", "power", "--output", str(out)]) == 0
    assert '"method":"power"' in out.read_text(encoding="utf-8")
    assert main(["teach", "--matrix", str(matrix), "--method", "tridiagonal", "--digits", "30",
                 "--replay-digits", "0", "--output", str(out)]) == 0
    assert '"digits":30' in out.read_text(encoding="utf-8")
    assert main(["teach", "--matrix", str(matrix), "--method", "subspace", "--output", str(out)]) == 0
    assert '"method":"subspace","title":"Subspace iteration","n":3,"k":2' in out.read_text(encoding="utf-8")


@pytest.mark.parametrize("call, message", [
    (lambda: jacobi_run([[1.0, 2.0], [3.0, 1.0]]), "symmetric"),
    (lambda: jacobi_run([[float(i == j) for j in range(13)] for i in range(13)]), "at most 12 x 12"),
    (lambda: jacobi_run(M3, digits=10), "digits"),
    (lambda: power_run(M3, 4), "k"),
    (lambda: data_run([[1.0, 2.0]]), "at least 2 rows"),
    (lambda: data_run([[1.0, 2.0], [1.0, float("nan")]]), "row 1, column 1"),
    (lambda: teach("lanczos", matrix=M3), "method must be one of jacobi, power, subspace, tridiagonal"),
    (lambda: subspace_run(M3, 2, block_size=1), "block_size"),
    (lambda: teach("jacobi"), "give a matrix or data"),
    (lambda: player_html({"schema": "x"}), "not a player run"),
    (lambda: replay(M3, 5), "digits"),
])
def test_bad_input_is_named(call: object, message: str) -> None:
    with pytest.raises(PurePCAError, match=message):
        call()  # type: ignore[operator]


def test_teach_command_reports_an_unreadable_file(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["teach", "--matrix", str(tmp_path / "absent.csv")]) == 1
    assert "absent.csv: cannot read it" in capsys.readouterr().err
