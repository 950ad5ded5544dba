"""The classroom's pages (issue 34): every page right, the learner's choices, the code beside the step.

Convergence is measured on the runs the pages carry, against what the theory says:
Jacobi quadratic per sweep (every pivot order), QL cubic per iteration under
Wilkinson's shift.
"""

from __future__ import annotations

import csv
import math
import pathlib
from typing import Any

import pytest

from purepca.covariance import covariance_matrix
from purepca.errors import PurePCAError
from purepca.linalg.jacobi import JacobiStep, jacobi_eigh
from purepca.linalg.tridiagonal import TridiagonalStep
from purepca.teaching import trace_jacobi

DATA = pathlib.Path(__file__).resolve().parent / "data"
M5 = [[4.0, 1.0, 0.5, 0.2, 0.1], [1.0, 3.0, 0.3, 0.1, 0.2], [0.5, 0.3, 2.0, 0.4, 0.1],
      [0.2, 0.1, 0.4, 1.0, 0.3], [0.1, 0.2, 0.1, 0.3, 0.5]]


def stackloss() -> list[list[float]]:
    """statsmodels' stackloss data (21 x 4), copied into tests/data."""
    with open(DATA / "stackloss.csv", newline="") as handle:
        return [[float(x) for x in row] for row in list(csv.reader(handle))[1:]]


def stackloss_covariance() -> list[list[float]]:
    return [[float(x) for x in row] for row in covariance_matrix(stackloss())]


# ------------------------------------------------------------ Jacobi's skipped pairs

def test_jacobi_trace_records_the_pairs_the_threshold_skips() -> None:
    C = stackloss_covariance()
    steps: list[JacobiStep] = []
    jacobi_eigh(C, trace=steps.append)
    first = [s for s in steps if s.sweep == 1]
    skipped = [(p, q, float(a)) for s in first for p, q, a in s.skipped]
    # the finding: pair (2, 3) with |a23| = 1.817 skipped under the threshold 2.369
    assert [(p, q) for p, q, _ in skipped] == [(1, 2), (2, 3)]
    assert round(skipped[0][2], 3) == 1.817
    threshold = float(first[0].threshold)
    upper = sum(abs(C[p][q]) for p in range(4) for q in range(p + 1, 4))
    assert math.isclose(threshold, 0.2 / 16 * upper, rel_tol=1e-15) and round(threshold, 3) == 2.369
    assert all(a <= threshold for _, _, a in skipped)
    # every pair of the sweep is either rotated or skipped (or passes the test): none is lost
    rotated = {(s.p, s.q) for s in first if s.kind == "rotation"}
    assert rotated | {(p, q) for p, q, _ in skipped} == {(p, q) for p in range(4) for q in range(p + 1, 4)}
    # after sweep 3 the threshold is zero: nothing is skipped any more
    assert all(not s.skipped and s.threshold == 0 for s in steps if s.sweep > 3)


def test_trace_jacobi_says_when_and_why_a_pair_is_skipped() -> None:
    text = trace_jacobi(stackloss_covariance())
    assert "a sweep visits every pair once" not in text
    assert "Rutishauser" in text
    assert "skip   (2, 3): |a_pq| = 1.817 <= the sweep's threshold 2.369" in text
    assert "sweep 1 (off-diagonal norm 140 at the start, threshold 2.369)" in text


@pytest.mark.parametrize("pivot", ["threshold", "cyclic", "classical"])
def test_jacobi_eigh_pivot_orders_agree_with_the_default(pivot: str) -> None:
    default = jacobi_eigh(M5)
    other = jacobi_eigh(M5, pivot=pivot)
    assert all(math.isclose(a, b, rel_tol=1e-14) for a, b in zip(default.values, other.values))
    if pivot == "threshold":
        assert other.values == default.values and other.vectors == default.vectors


def test_jacobi_eigh_pivot_orders_visit_different_pairs() -> None:
    orders = {}
    for pivot in ("threshold", "cyclic", "classical"):
        steps: list[JacobiStep] = []
        jacobi_eigh(stackloss_covariance(), pivot=pivot, trace=steps.append)
        orders[pivot] = [(s.p, s.q) for s in steps if s.kind == "rotation"]
    assert orders["cyclic"][:6] == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    assert (1, 2) not in orders["threshold"][:4]
    C = stackloss_covariance()
    largest = max(((p, q) for p in range(4) for q in range(p + 1, 4)), key=lambda pq: abs(C[pq[0]][pq[1]]))
    assert orders["classical"][0] == largest
    assert len({tuple(v) for v in orders.values()}) == 3


def test_jacobi_eigh_unknown_pivot_is_refused() -> None:
    with pytest.raises(PurePCAError, match="pivot must be one of 'threshold', 'cyclic', 'classical', got 'random'"):
        jacobi_eigh(M5, pivot="random")


# ------------------------------------------------------------ QL: T per iteration, the shift, the bulge

def _ql_steps(M: list[list[float]], shift: str = "wilkinson") -> list[Any]:
    from purepca.linalg.tridiagonal import tridiagonal_eigh
    steps: list[Any] = []
    tridiagonal_eigh(M, trace=steps.append, shift=shift, max_iter=1000)
    return [s for s in steps if s.kind == "ql"]


def _explicit(state: Any) -> list[list[float]]:
    d, e = state
    n = len(d)
    T = [[0.0] * n for _ in range(n)]
    for i in range(n):
        T[i][i] = float(d[i])
    for i in range(n - 1):
        T[i + 1][i] = T[i][i + 1] = float(e[i])
    return T


@pytest.mark.parametrize("shift", ["wilkinson", "rayleigh", "none"])
def test_ql_trace_tridiagonal_before_and_after_are_similar_to_a(shift: str) -> None:
    C = stackloss_covariance()
    truth = jacobi_eigh(C).values
    steps = _ql_steps(C, shift)
    assert steps
    for s in steps:
        for state in (s.before, s.after):
            values = jacobi_eigh(_explicit(state)).values
            assert all(abs(a - b) <= 1e-13 * truth[0] for a, b in zip(values, truth)), (s.index, values)
        assert abs(float(s.after[1][s.index])) == s.value  # the subdiagonal the page plots is T's own
        assert s.deflated == (s.value <= s.tolerance)


def test_ql_trace_shift_is_wilkinsons_from_t() -> None:
    for s in _ql_steps(stackloss_covariance()):
        l = s.index
        a, b, c = (float(x) for x in (s.before[0][l], s.before[0][l + 1], s.before[1][l]))
        mid, rad = (a + b) / 2, math.hypot((a - b) / 2, c)
        nearer = min((mid + rad, mid - rad), key=lambda mu: abs(mu - a))
        assert math.isclose(s.shift, nearer, rel_tol=1e-12, abs_tol=1e-12 * 200), (l, s.shift, nearer)


def test_ql_trace_chase_rotations_carry_the_bulge_from_before_to_after() -> None:
    """Applying the traced rotations to T explicitly moves a bulge of the traced size and ends on T after."""
    C = stackloss_covariance()
    for s in _ql_steps(C):
        T = _explicit(s.before)
        n = len(T)
        for i, c, sn, bulge in s.chase:
            c, sn = float(c), float(sn)
            G = [[1.0 if r == k else 0.0 for k in range(n)] for r in range(n)]
            G[i][i], G[i][i + 1], G[i + 1][i], G[i + 1][i + 1] = c, -sn, sn, c
            GT = [[math.fsum(G[r][k] * T[k][j] for k in range(n)) for j in range(n)] for r in range(n)]
            T = [[math.fsum(GT[r][k] * G[j][k] for k in range(n)) for j in range(n)] for r in range(n)]
            if i > s.index:
                assert math.isclose(abs(T[i - 1][i + 1]), float(bulge), rel_tol=1e-9, abs_tol=1e-12), (i, T, bulge)
            else:
                assert float(bulge) == 0
        after = _explicit(s.after)
        assert all(abs(T[r][k] - after[r][k]) <= 1e-12 * 200 for r in range(n) for k in range(n)), (T, after)


def test_tridiagonal_eigh_unknown_shift_is_refused() -> None:
    from purepca.linalg.tridiagonal import tridiagonal_eigh
    with pytest.raises(PurePCAError, match="shift must be one of 'wilkinson', 'rayleigh', 'none', got 'exact'"):
        tridiagonal_eigh(M5, shift="exact")


def test_tridiagonal_eigh_default_shift_keeps_the_bits() -> None:
    from purepca.linalg.tridiagonal import tridiagonal_eigh
    C = stackloss_covariance()
    assert tridiagonal_eigh(C).values == tridiagonal_eigh(C, shift="wilkinson", trace=lambda s: None).values


# ------------------------------------------------------------ the pages' runs (acceptance 3: convergence)

def payload(page: str) -> dict[str, Any]:
    """The run a page carries (its JSON data block)."""
    import json
    start = page.index('id="run-data">') + len('id="run-data">')
    return dict(json.loads(page[start:page.index("</script>", start)]))


def _runs(run: dict[str, Any]) -> dict[str, dict[str, Any]]:
    own = run.get("pivot") or run.get("ql_shift")
    return {own: run, **run.get("choices", {})}


@pytest.mark.parametrize("name, M", [("stackloss", None), ("m5", M5)])
def test_jacobi_page_pivot_orders_converge_quadratically_per_sweep(name: str, M: Any) -> None:
    from purepca.player import teach
    M = stackloss_covariance() if M is None else M
    run = payload(teach("jacobi", matrix=M, digits=50, replay_digits=0))["run"]
    runs = _runs(run)
    assert sorted(runs) == ["classical", "cyclic", "threshold"]
    for pivot, r in runs.items():
        digits = [row["digits"] for row in r["convergence"]]
        assert max(d for d in digits if d is not None) >= 48, (pivot, digits)
        pairs = [(a, b) for a, b in zip(digits, digits[1:]) if a is not None and b is not None and a >= 5 and b <= 47]
        assert pairs, (pivot, digits)
        # quadratic: once off(A) is small the digits (at least) double per sweep; linear would add a constant
        assert all(b / a >= 1.9 for a, b in pairs), (pivot, digits)
        assert all(x["pivot"] == pivot for x in [r])


@pytest.mark.parametrize("name, M", [("stackloss", None), ("m5", M5)])
def test_ql_page_shifts_converge_as_the_theory_says(name: str, M: Any) -> None:
    from purepca.player import teach
    M = stackloss_covariance() if M is None else M
    run = payload(teach("tridiagonal", matrix=M, digits=50, replay_digits=0))["run"]
    runs = _runs(run)
    assert sorted(runs) == ["none", "rayleigh", "wilkinson"]
    late = {shift: [(row["index"], row["order"]) for i, row in enumerate(r["convergence"])
                    if row["order"] is not None and r["convergence"][i - 1]["digits"] >= 4]
            for shift, r in runs.items()}
    assert late["wilkinson"] and all(order >= 2.7 for _, order in late["wilkinson"]), late["wilkinson"]  # cubic
    assert late["rayleigh"] and all(order >= 1.9 for _, order in late["rayleigh"]), late["rayleigh"]
    assert late["none"] and all(order <= 1.25 for _, order in late["none"]), late["none"]  # linear
    if name == "stackloss":
        # no shift: the digits of e_1 grow by log10 of the ratio of the two smallest eigenvalues per iteration
        values = sorted(abs(v) for v in jacobi_eigh(M).values)
        rate = math.log10(values[1] / values[0])
        rows = [row for row in runs["none"]["convergence"] if row["index"] == 0 and row["digits"]]
        gains = [b["digits"] - a["digits"] for a, b in zip(rows, rows[1:])][5:]
        assert gains and all(abs(g - rate) <= 0.03 for g in gains), (rate, gains)


def test_jacobi_run_j_matrix_takes_before_to_after() -> None:
    """The page's J (c on the diagonal at p and q, s at (p, q), -s at (q, p)): JᵀAJ is the next matrix."""
    from purepca.player import jacobi_run
    run = jacobi_run(stackloss_covariance())
    n = run["n"]
    for f in run["frames"][1:]:
        J = [[1.0 if i == j else 0.0 for j in range(n)] for i in range(n)]
        p, q = f["p"], f["q"]
        J[p][p] = J[q][q] = f["c"]
        J[p][q], J[q][p] = f["s"], -f["s"]
        B = f["before"]
        BJ = [[math.fsum(B[i][k] * J[k][j] for k in range(n)) for j in range(n)] for i in range(n)]
        JtBJ = [[math.fsum(J[k][i] * BJ[k][j] for k in range(n)) for j in range(n)] for i in range(n)]
        scale = max(abs(x) for row in B for x in row)
        assert all(abs(JtBJ[i][j] - f["matrix"][i][j]) <= 1e-13 * scale for i in range(n) for j in range(n))


def test_jacobi_run_frames_carry_the_threshold_and_the_skips() -> None:
    from purepca.player import jacobi_run
    run = jacobi_run(stackloss_covariance())
    f = next(f for f in run["frames"][1:] if f["skipped"])
    assert (f["sweep"], f["p"], f["q"]) == (1, 1, 3)
    assert [x[:2] for x in f["skipped"]] == [[1, 2]] and round(f["skipped"][0][2], 3) == 1.817
    assert round(f["threshold"], 3) == 2.369
    assert [x[:2] for x in run["sweeps"][0]["skipped"]] == [[2, 3]]


def test_jacobi_run_unknown_pivot_is_refused() -> None:
    from purepca.player import jacobi_run
    with pytest.raises(PurePCAError, match="player: pivot must be one of threshold, cyclic, classical, got 'x'"):
        jacobi_run(M5, pivot="x")


def test_tridiagonal_run_unknown_shift_is_refused() -> None:
    from purepca.player import tridiagonal_run
    with pytest.raises(PurePCAError, match="player: shift must be one of wilkinson, rayleigh, none, got 'x'"):
        tridiagonal_run(M5, shift="x")


def test_tridiagonal_run_householder_frames_show_the_matrix_being_reduced() -> None:
    from purepca.player import tridiagonal_run
    C = stackloss_covariance()
    run = tridiagonal_run(C)
    truth = jacobi_eigh(C).values
    reflections = [f for f in run["frames"] if f["kind"] == "householder"]
    assert len(reflections) == 2
    for k, f in enumerate(reflections):
        M = f["matrix"]
        assert all(M[k][j] == 0 and M[j][k] == 0 for j in range(k + 2, 4))  # column k is folded
        values = jacobi_eigh(M).values  # a similarity: the same eigenvalues as A
        assert all(abs(a - b) <= 1e-13 * truth[0] for a, b in zip(values, truth))
    assert M != C


# ------------------------------------------------------------ the code beside the step

@pytest.mark.parametrize("method, variant", [("jacobi", "threshold"), ("jacobi", "classical"), ("tridiagonal", ""),
                                             ("power", ""), ("subspace", "")])
def test_code_of_finds_every_step_in_the_source(method: str, variant: str) -> None:
    """Each highlighted line is found in the source as it is now (no line number is written down anywhere)."""
    import inspect
    from purepca import player
    code = player.code_of(method, variant)
    key = f"jacobi {'classical' if variant == 'classical' else 'threshold'}" if method == "jacobi" else method
    wanted = player._CODE[key]
    assert sorted(code["marks"]) == sorted(mark for mark, _, _ in wanted)
    for mark, name, statement in wanted:
        block, line = code["marks"][mark]
        b = code["blocks"][block]
        assert b["name"] == name and statement in b["lines"][line]
        module = {"jacobi": player._jacobi_module, "tridiagonal": player._tridiagonal_module}.get(
            method, player._power_module)
        source = pathlib.Path(inspect.getsourcefile(module) or "").read_text(encoding="utf-8").splitlines()
        assert statement in source[b["first"] + line - 1], (mark, b["first"] + line)


# ------------------------------------------------------------ the learner's start vector and pivot

def test_power_iteration_start_vector_is_the_first_iterate() -> None:
    from purepca.linalg.power import PowerStep, power_iteration
    steps: list[PowerStep] = []
    r = power_iteration(M5, start=[0, 0, 0, 0, 2], trace=steps.append)
    assert steps[0].vector == (0.0, 0.0, 0.0, 0.0, 1.0)
    default = power_iteration(M5)
    assert math.isclose(r.values[0], default.values[0], rel_tol=1e-9)
    assert power_iteration(M5, start=None).values == default.values  # the default is today's bits


@pytest.mark.parametrize("start, message", [
    ([1.0, 2.0], "start: the start vector has 2 entries, the matrix is 5 x 5"),
    ([0.0] * 5, "start: the start vector is zero; it needs a direction"),
    ([1.0, float("nan"), 0.0, 0.0, 0.0], "start"),
])
def test_power_iteration_bad_start_is_refused(start: list[float], message: str) -> None:
    from purepca.linalg.power import power_iteration
    with pytest.raises(PurePCAError, match=message.replace("(", r"\(")):
        power_iteration(M5, start=start)


def test_pivot_step_is_the_sweeps_rotation() -> None:
    """The pivot a learner clicks gets the rotation a sweep would apply to the same pair: same bits."""
    from purepca.player import jacobi_run, pivot_step
    C = stackloss_covariance()
    run = jacobi_run(C, pivot="cyclic", choices=False)
    frame = run["frames"][1]
    step = pivot_step(C, frame["q"], frame["p"])  # either order of the pair
    assert (step["p"], step["q"]) == (frame["p"], frame["q"])
    assert (step["t"], step["c"], step["s"]) == (frame["t"], frame["c"], frame["s"])
    assert step["matrix"] == frame["matrix"] and step["vectors"] == frame["vectors"] and step["zeroed"] == 0
    second = run["frames"][2]
    assert (second["p"], second["q"]) == (0, 2)  # the cyclic order's next pair
    again = pivot_step(step["matrix"], 0, 2, vectors=step["vectors"])
    assert again["matrix"] == second["matrix"] and again["vectors"] == second["vectors"]
    assert C == stackloss_covariance()  # the input is not changed


def test_pivot_step_bad_pivot_or_vectors_is_refused() -> None:
    from purepca.player import pivot_step
    with pytest.raises(PurePCAError, match=r"pivot_step: the pivot must be an entry off the diagonal, \(p, q\) with "
                                           r"p != q from 0 to 4, got \(0, 7\)"):
        pivot_step(M5, 0, 7)
    with pytest.raises(PurePCAError, match="pivot_step: vectors must be 5 x 5, got 2 x 2"):
        pivot_step(M5, 0, 1, vectors=[[1.0, 0.0], [0.0, 1.0]])


def test_teaching_page_names_only_tests_that_exist() -> None:
    """docs/teaching.md's table of Heath's points names, for each point met, a browser test that exists."""
    import re
    root = DATA.parent.parent
    table = [line for line in (root / "docs" / "teaching.md").read_text(encoding="utf-8").splitlines()
             if line.startswith("| **")]
    assert len(table) == 16
    named = {name for line in table for name in re.findall(r"`(test_\w+)`", line.rsplit("|", 2)[1])}
    browser_tests = [*(root / "tests").glob("test_*browser.py"), root / "tests" / "test_player_safe.py"]
    sources = "".join(p.read_text(encoding="utf-8") for p in browser_tests)
    assert named and all(f"def {name}(" in sources for name in named), sorted(named)
    unmet = [line for line in table if line.rstrip(" |").endswith("none yet") or line.rstrip(" |").endswith("none")]
    assert not unmet, unmet  # every point of Heath's met, each by a browser test


def test_playground_prepare_says_which_setuptools_it_needs() -> None:
    import importlib.util
    root = DATA.parent.parent
    spec = importlib.util.spec_from_file_location("prepare", root / "docs" / "playground" / "prepare.py")
    assert spec is not None and spec.loader is not None
    prepare = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(prepare)
    needed = prepare.required_setuptools()
    assert needed == (77,) and '"setuptools>=77"' in (root / "pyproject.toml").read_text(encoding="utf-8")
    assert prepare.setuptools_problem("68.2.0", needed) == (
        "prepare.py: building purepca's wheel needs setuptools >= 77 (pyproject.toml's license fields, PEP 639); "
        "this Python has setuptools 68.2.0: pip install 'setuptools>=77'")
    assert prepare.setuptools_problem("77.0.3", needed) is None


# ------------------------------------------------------------ one QL iteration with the learner's shift

@pytest.mark.parametrize("shift", ["wilkinson", "rayleigh", "none"])
def test_ql_step_chained_is_the_solvers_run(shift: str) -> None:
    from purepca.linalg.tridiagonal import ql_step
    C = stackloss_covariance()
    steps = _ql_steps(C, shift)
    d, e, l = list(steps[0].before[0]), list(steps[0].before[1]), 0
    for s in steps:
        assert s.index == l
        r = ql_step(d, e, l, shift)
        got, want = r["diagonal"] + r["subdiagonal"], list(s.after[0]) + list(s.after[1])
        assert all(abs(a - b) <= 1e-15 * 200 for a, b in zip(got, want)), (got, want)
        assert r["deflated"] == s.deflated and math.isclose(r["shift"], s.shift, rel_tol=1e-13, abs_tol=1e-13)
        d, e, l = r["diagonal"], r["subdiagonal"], r["next"]
    assert l == 3  # diagonal to the tolerance


def test_ql_step_with_a_typed_shift_at_an_eigenvalue_deflates_at_once() -> None:
    from purepca.linalg.tridiagonal import ql_step
    r = ql_step([2.0, 2.0, 5.0], [1.0, 0.0], 0, 3.0)  # 3 is an eigenvalue of the leading block
    assert r["shift"] == 3.0 and r["deflated"] and r["next"] == 2
    assert sorted(round(x, 12) for x in r["diagonal"]) == [1.0, 3.0, 5.0]
    assert ql_step([2.0, 2.0, 5.0], [1.0, 0.0], 0, "none")["deflated"] is False


@pytest.mark.parametrize("args, message", [
    (([1.0, 2.0], [1.0, 0.0], 0, "none"), "ql_step: T has 2 diagonal entries and needs 1 subdiagonal ones, got 2"),
    (([1.0, 2.0], [1.0], 1, "none"), "ql_step: l must be a row from 0 to 0 with a subdiagonal entry, got 1"),
    (([1.0, 2.0], [1.0], 0, "francis"), "ql_step: shift must be one of 'wilkinson', 'rayleigh', 'none' or a number, "
                                         "got 'francis'"),
    (([1.0, 2.0], [1.0], 0, float("inf")), "ql_step: shift must be one of"),
])
def test_ql_step_bad_input_is_refused(args: tuple[Any, ...], message: str) -> None:
    from purepca.linalg.tridiagonal import ql_step
    with pytest.raises(PurePCAError, match=message):
        ql_step(*args)


@pytest.mark.parametrize("k", [1e-300, 1e300])
def test_tridiagonal_trace_is_in_the_inputs_units_when_scaled(k: float) -> None:
    """A matrix near underflow or overflow is scaled inside the solver; its trace (and the QL page) is not."""
    from purepca.linalg.tridiagonal import tridiagonal_eigh
    from purepca.player import tridiagonal_run
    M = [[4.0, 1.0, 0.5], [1.0, 3.0, 0.3], [0.5, 0.3, 2.0]]
    plain: list[TridiagonalStep] = []
    scaled: list[TridiagonalStep] = []
    tridiagonal_eigh(M, trace=plain.append)
    tridiagonal_eigh([[x * k for x in row] for row in M], trace=scaled.append)
    assert len(plain) == len(scaled)
    for a, b in zip(plain, scaled):
        pairs = [(a.value, b.value), (a.shift, b.shift), (a.tolerance, b.tolerance)]
        if a.kind == "householder":
            pairs.append((a.alpha, b.alpha))
        else:
            pairs += list(zip(a.after[0] + a.after[1], b.after[0] + b.after[1]))
        for x, y in pairs:
            if abs(x * k) > 1e-290:  # representable in the scaled units
                assert math.isclose(y, x * k, rel_tol=1e-13), (a.kind, x, y)
    run = tridiagonal_run([[x * k for x in row] for row in M], choices=False)
    ql = next(f for f in run["frames"] if f["kind"] == "ql")
    assert math.isclose(ql["diagonal"][0], 4.742005095139746 * k, rel_tol=1e-14)
    assert run["convergence"][0]["digits"] == 3.2


@pytest.mark.parametrize("shift", ["wilkinson", "rayleigh", "none"])
def test_tridiagonal_run_ql_factors(shift: str) -> None:
    """The page's Q and L: Q orthogonal, L lower triangular, L·Q + σI the next T (Heath's module shows Q and R)."""
    from purepca.player import tridiagonal_run
    run = tridiagonal_run(stackloss_covariance(), shift=shift, choices=False)
    frames = [f for f in run["frames"] if f["kind"] == "ql"]
    assert frames
    for f in frames:
        Q, L, n = f["Q"], f["L"], len(f["Q"])
        assert all(abs(math.fsum(Q[k][i] * Q[k][j] for k in range(n)) - (i == j)) <= 1e-15 * 8
                   for i in range(n) for j in range(n))
        assert all(abs(L[i][j]) <= 1e-15 * 200 for i in range(n) for j in range(i + 1, n))
        d, e = f["diagonal"], f["offdiagonal"]
        for i in range(n):
            for j in range(n):
                t = d[i] if i == j else e[min(i, j)] if abs(i - j) == 1 else 0.0
                lq = math.fsum(L[i][k] * Q[k][j] for k in range(n)) + (f["shift"] if i == j else 0.0)
                assert abs(lq - t) <= 1e-15 * 200, (i, j, lq, t)


def test_power_run_inverse_iteration_finds_the_smallest_eigenvalue() -> None:
    """Heath's power/inverse iteration module: inverse iteration is power iteration on A⁻¹ (Cholesky solves)."""
    from purepca.linalg.cholesky import cholesky, cholesky_solve
    from purepca.linalg.power import PowerStep, power_iteration
    from purepca.player import power_run
    C = stackloss_covariance()
    run = power_run(C, inverse=True)
    factor = cholesky(C)
    steps: list[PowerStep] = []
    power_iteration(lambda v: [r[0] for r in cholesky_solve(factor, [[x] for x in v])], 4, trace=steps.append)
    # the page's value is vᵀA⁻¹v formed exactly (A⁻¹ in fractions), the solver's through Cholesky solves
    assert all(math.isclose(f["value"], s.value, rel_tol=1e-12) for f, s in zip(run["frames"], steps))
    assert len(run["frames"]) == len(steps)
    smallest = min(jacobi_eigh(C).values)
    assert math.isclose(run["eigenvalues"][0], smallest, rel_tol=1e-10)
    assert math.isclose(1 / run["frames"][-1]["value"], smallest, rel_tol=1e-10)
    values = sorted(jacobi_eigh(C).values)
    assert math.isclose(run["ratios"][0], values[0] / values[1], rel_tol=1e-12)  # the rate |λ_min/λ_next|


def test_power_run_inverse_iteration_needs_a_positive_definite_matrix() -> None:
    from purepca.player import power_run
    with pytest.raises(PurePCAError, match=r"player: inverse iteration needs a positive definite matrix: A is not "
                                           r"positive definite: pivot 1 is -3.0"):
        power_run([[1.0, 2.0], [2.0, 1.0]], inverse=True)


def test_ql_page_with_close_eigenvalues_stops_the_unshifted_run_and_says_so() -> None:
    """Without a shift QL converges by the ratio of neighbouring eigenvalues: 1.001 here, thousands of
    iterations. The page keeps the run's first SLOW_SHIFT_ITERATIONS·n iterations and says it stopped."""
    from purepca.player import SLOW_SHIFT_ITERATIONS, teach, tridiagonal_run
    M = [[2.0, 0.3, 0.1], [0.3, 2.001, 0.2], [0.1, 0.2, 5.0]]
    run = tridiagonal_run(M)
    assert run["stopped"] is None and len(run["values"]) == 3
    none = run["choices"]["none"]
    assert none["stopped"].startswith(f"tridiagonal QL did not converge in {SLOW_SHIFT_ITERATIONS * 3} iterations")
    assert none["values"] == [] and len([f for f in none["frames"] if f["kind"] == "ql"]) == SLOW_SHIFT_ITERATIONS * 3
    page = payload(teach("tridiagonal", matrix=M, replay_digits=0))
    assert page["run"]["choices"]["none"]["stopped"] == none["stopped"]


def test_pages_of_large_matrices_carry_no_choices() -> None:
    from purepca.player import CHOICES_ORDER, jacobi_run, tridiagonal_run
    n = CHOICES_ORDER + 1
    M = [[float(n - abs(i - j)) if i != j else 10.0 * n for j in range(n)] for i in range(n)]
    assert "choices" not in jacobi_run(M) and "choices" not in tridiagonal_run(M)
    assert all(f["kind"] != "chase" for f in tridiagonal_run(M)["frames"])  # T per chase rotation up to 8 x 8
    small = [row[:CHOICES_ORDER] for row in M[:CHOICES_ORDER]]
    run = jacobi_run(small)
    assert sorted(run["choices"]) == ["classical", "cyclic"]
    assert all("before" not in f for r in run["choices"].values() for f in r["frames"])


def test_tridiagonal_run_chase_frames_move_the_bulge_up() -> None:
    """The bulge as it is chased: one frame per rotation, the bulge where the solver says, ending on T after."""
    from purepca.player import tridiagonal_run
    frames = tridiagonal_run(stackloss_covariance(), choices=False)["frames"]
    chased = 0
    for k, f in enumerate(frames):
        if f["kind"] != "chase":
            continue
        chased += 1
        M = f["matrix"]
        if f["at"] is None:
            assert f["bulge"] == 0 and f["rotation"] == f["rotations"] and f["i"] == f["index"]
            nxt = frames[k + 1]
            assert nxt["kind"] == "ql"
            d, e = nxt["diagonal"], nxt["offdiagonal"]
            n = len(d)
            T = [[d[i] if i == j else e[min(i, j)] if abs(i - j) == 1 else 0.0 for j in range(n)] for i in range(n)]
            assert all(abs(M[i][j] - T[i][j]) <= 1e-15 * 200 for i in range(n) for j in range(n))
        else:
            r, c = f["at"]
            assert (r, c) == (f["i"] - 1, f["i"] + 1)
            assert math.isclose(abs(M[r][c]), f["bulge"], rel_tol=1e-9)
            # outside the band and the bulge, T is zero: one bulge at a time
            assert all(abs(M[i][j]) <= 1e-15 * 200 for i in range(len(M)) for j in range(len(M))
                       if abs(i - j) > 1 and {i, j} != {r, c})
    assert chased == 20
