"""The classroom's pages in headless Chromium (issue 34, acceptance 1 and 2).

After each click the QL, power and subspace pages show the solver's own
numbers (taken here from the solvers' trace callbacks, independently of the
page's data) to the digits shown; the QL frames show T's diagonal and
subdiagonal; no page carries another method's table; the power arrow is at
least 40 px long on stackloss; the learner's choices (pivot order, QL shift)
give their own traces; the code beside the step highlights the statement
being run, at the line where the source has it now.  Each point of Heath's
Jacobi, QR-iteration and power-iteration modules that docs/teaching.md lists
is met by a test here (named in that table).

Run as tests/test_player_browser.py runs: once per CI run, CPython 3.11 in a
git checkout, with Debian's ``chromium``.
"""

from __future__ import annotations

import math
import os
import pathlib
import re
import sys
from fractions import Fraction
from typing import Any, Iterator

import pytest

sys.path.insert(0, os.path.dirname(__file__))
from cdp import Browser, chromium  # noqa: E402
from test_classroom import stackloss, stackloss_covariance  # noqa: E402
from test_player_browser import _page, assert_shown, exact_residual  # noqa: E402

from purepca.linalg.jacobi import JacobiStep, jacobi_eigh  # noqa: E402
from purepca.linalg.power import PowerStep, SubspaceStep, power_iteration, subspace_iteration  # noqa: E402
from purepca.linalg.tridiagonal import TridiagonalStep, tridiagonal_eigh  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent

pytestmark = [
    pytest.mark.slow,  # a real Chromium drives every page: seconds a test
    pytest.mark.skipif(sys.version_info[:2] != (3, 11) or not (ROOT / ".git").exists(),
                       reason="browser tests run once per CI run: CPython 3.11 in a git checkout"),
    pytest.mark.skipif(chromium() is None,
                       reason="no headless Chromium here (Debian: apt-get install chromium; .ci/test installs it)"),
]

OTHER_TABLES = {"jacobi": ["#naive-table"], "power": [], "subspace": [], "tridiagonal": []}


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    b = Browser(tmp_path_factory.mktemp("chromium-profile"))
    try:
        yield b
    finally:
        b.close()


def _text(browser: Browser, id_: str) -> str:
    return str(browser.evaluate(f"document.getElementById({id_!r}).textContent"))


def _tokens(text: str) -> list[str]:
    return text.split()


def _tables(browser: Browser) -> list[str]:
    """The ids of the tables the page shows (in a section that is displayed)."""
    return list(browser.evaluate("[...document.querySelectorAll('table[id]')].filter(t => t.offsetParent !== null)"
                                 ".map(t => t.id)"))


def _ql_trace(M: list[list[float]], shift: str = "wilkinson") -> list[TridiagonalStep]:
    steps: list[TridiagonalStep] = []
    tridiagonal_eigh(M, trace=steps.append, shift=shift, max_iter=None if shift == "wilkinson" else 2000)
    return [s for s in steps if s.kind == "ql"]


def _step_through_ql(browser: Browser, M: list[list[float]], shift: str) -> int:
    """Click through a QL page from its first frame; check every QL frame against the solver's trace."""
    trace = _ql_trace(M, shift)
    kinds = browser.evaluate("RUN.frames.map(f => f.kind)")
    assert [k for k in kinds if k == "ql"] == ["ql"] * len(trace)
    j = 0
    for i, kind in enumerate(kinds):
        if i:
            browser.click("#next")
        assert browser.evaluate("document.body.dataset.frame") == str(i)
        cells = browser.evaluate("[...document.querySelectorAll('#matrix text.entry')]"
                                 ".map(t => [Number(t.dataset.r), Number(t.dataset.c), t.textContent])")
        if kind == "tridiagonal":
            step = trace[0]
            assert step.before is not None
            for text, value in zip(_tokens(_text(browser, "t-diagonal")), step.before[0]):
                assert_shown(text, float(value), "T's diagonal before QL")
        if kind == "chase":  # T with the chase's rotations so far, the bulge where the solver says it is
            step = trace[j]
            k = int(browser.evaluate("RUN.frames[document.body.dataset.frame].rotation"))
            T = _explicit_chase(step, k)
            i = step.chase[k - 1][0]
            for r, c, text in cells:
                if abs(T[r][c]) <= 1e-14 * 200:  # rounding noise where T has an exact or negligible 0
                    assert abs(float(text)) <= 1e-11, (r, c, text)
                else:
                    assert_shown(text, T[r][c], f"T[{r}][{c}] after chase rotation {k} of iteration {j + 1}")
            if i > step.index:
                assert_shown(_text(browser, "bulge"), float(step.chase[k - 1][3]), "the bulge")
                assert_shown(_text(browser, "bulge"), abs(T[i - 1][i + 1]), "the bulge in T")
                lit = browser.evaluate("[...document.querySelectorAll('#matrix rect.bulge')].map(r => [Number(r.dataset.r),"
                                       " Number(r.dataset.c)])")
                assert sorted(map(tuple, lit)) == sorted([(i - 1, i + 1), (i + 1, i - 1)])
            else:
                assert _text(browser, "bulge") == "gone"
            continue
        if kind != "ql":
            continue
        step = trace[j]
        j += 1
        assert step.after is not None
        d, e = step.after
        assert_shown(_text(browser, "shift"), step.shift, f"shift of QL iteration {j}")
        assert_shown(_text(browser, "subdiagonal"), step.value, f"|e_l| after QL iteration {j}")
        shown_d, shown_e = _tokens(_text(browser, "t-diagonal")), _tokens(_text(browser, "t-subdiagonal"))
        assert len(shown_d) == len(d) and len(shown_e) == len(e)
        for text, value in zip(shown_d, d):
            assert_shown(text, float(value), f"T's diagonal after QL iteration {j}")
        for text, value in zip(shown_e, e):
            assert_shown(text, float(value), f"T's subdiagonal after QL iteration {j}")
        # the matrix panel is T: its diagonal, its subdiagonal, and zeros elsewhere
        for r, c, text in cells:
            value = float(d[r]) if r == c else float(e[min(r, c)]) if abs(r - c) == 1 else 0.0
            if value == 0:
                assert float(text) == 0, (r, c, text)
            else:
                assert_shown(text, value, f"T[{r}][{c}] after QL iteration {j}")
        assert ("yes" in _text(browser, "deflated")) == (step.value <= step.tolerance)
        _check_factors(browser, step)
        for (i_, c_, s_, bulge), part in zip(step.chase, _text(browser, "chase").split("; ")):
            assert part.startswith(f"({i_ + 1},{i_ + 2})"), (part, i_)
            if i_ > step.index:
                assert_shown(part.rsplit("= ", 1)[1], float(bulge), "the bulge")
    assert j == len(trace)
    return j


def _explicit_chase(step: TridiagonalStep, k: int) -> list[list[float]]:
    """T before the iteration with the first k rotations of its chase applied as explicit matrices, G·T·Gᵀ."""
    assert step.before is not None
    d, e = step.before
    n = len(d)
    T = [[float(d[i]) if i == j else float(e[min(i, j)]) if abs(i - j) == 1 else 0.0 for j in range(n)]
         for i in range(n)]
    for i, c, s, _ in step.chase[:k]:
        G = [[float(r == q) for q in range(n)] for r in range(n)]
        G[i][i], G[i][i + 1], G[i + 1][i], G[i + 1][i + 1] = float(c), -float(s), float(s), float(c)
        GT = [[math.fsum(G[r][q] * T[q][j] for q in range(n)) for j in range(n)] for r in range(n)]
        T = [[math.fsum(GT[r][q] * G[j][q] for q in range(n)) for j in range(n)] for r in range(n)]
    return T


def _check_factors(browser: Browser, step: TridiagonalStep) -> None:
    """The page's Q and L against T − σI = QL computed here from the trace (explicit rotation matrices)."""
    assert step.before is not None
    n = len(step.before[0])
    Q = [[float(i == j) for j in range(n)] for i in range(n)]
    for i, c, s, _ in step.chase:
        G = [[float(r == k) for k in range(n)] for r in range(n)]
        G[i][i], G[i][i + 1], G[i + 1][i], G[i + 1][i + 1] = float(c), float(s), -float(s), float(c)  # Gᵀ
        Q = [[math.fsum(Q[r][k] * G[k][j] for k in range(n)) for j in range(n)] for r in range(n)]
    T = [[float(step.before[0][i]) - step.shift if i == j else float(step.before[1][min(i, j)]) if abs(i - j) == 1
          else 0.0 for j in range(n)] for i in range(n)]
    L = [[math.fsum(Q[k][i] * T[k][j] for k in range(n)) for j in range(n)] for i in range(n)]
    for name, M in (("ql-q", Q), ("ql-l", L)):
        cells = browser.evaluate(f"[...document.querySelectorAll('#{name} tr')].slice(1)"
                                 ".map(r => [...r.children].map(td => td.textContent))")
        assert len(cells) == n
        for i in range(n):
            for j in range(n):
                if abs(M[i][j]) <= 1e-14 * 200:  # rounding noise where the factor has an exact or negligible 0
                    assert abs(float(cells[i][j])) <= 1e-11, (name, i, j, cells[i][j])
                else:
                    assert_shown(cells[i][j], M[i][j], f"{name}[{i}][{j}]")


def test_ql_page_shows_t_the_shift_and_the_bulge_per_frame(browser: Browser, tmp_path: pathlib.Path) -> None:
    C = stackloss_covariance()
    browser.open(_page(tmp_path, "ql", method="tridiagonal", data=stackloss()))
    _step_through_ql(browser, C, "wilkinson")
    # its own tables only: the QL convergence table, not Jacobi's sweep-by-sweep replay
    tables = _tables(browser)
    assert "replay-table" not in tables and "convergence-table" in tables, tables
    assert "sweep" not in _text(browser, "convergence")
    # its own replay: per QL iteration |e_l|, the digits -log10(|e_l|/‖A‖_F), the digits gained, the order
    rows = browser.evaluate("[...document.querySelectorAll('#convergence-table tr')].slice(1)"
                            ".map(r => [...r.children].map(td => td.textContent))")
    trace = _ql_trace(C)
    norm = math.sqrt(math.fsum(x * x for row in C for x in row))
    assert len(rows) == len(trace)
    last: dict[int, float] = {}
    for row, step in zip(rows, trace):
        assert row[1] == str(step.index + 1)
        if step.value == 0:
            assert row[2] == "0" and row[3] == "exact 0"
            continue
        digits = -math.log10(step.value / norm)
        if row[3] == "16+":  # past the precision: below the rounding of ‖A‖ (issue 43), no gain or order shown
            assert digits > 16 and row[4] == row[5] == "", (row, digits)
            last[step.index] = digits
            assert (row[6] == "deflated") == (step.value <= step.tolerance)
            continue
        assert abs(float(row[3]) - digits) <= 0.005 + 1e-9, (row, digits)
        if step.index in last:
            assert abs(float(row[4]) - (float(row[3]) - last[step.index])) <= 0.0101, row
            assert abs(float(row[5]) - float(row[3]) / last[step.index]) <= 0.0101, row
        last[step.index] = float(row[3])
        assert (row[6] == "deflated") == (step.value <= step.tolerance)
    assert browser.evaluate("document.getElementById('matrix-title').textContent").startswith("The matrix: A as")
    assert all(u.startswith("file://") for u in browser.requests())


@pytest.mark.parametrize("shift", ["rayleigh", "none"])
def test_ql_page_shift_choice_gives_that_shifts_trace(browser: Browser, tmp_path: pathlib.Path, shift: str) -> None:
    """Heath's QR-iteration module: the learner chooses the shift (here none, Rayleigh, Wilkinson)."""
    C = stackloss_covariance()
    browser.open(_page(tmp_path, "ql-" + shift, method="tridiagonal", matrix=C, replay_digits=0))
    options = browser.evaluate("[...document.getElementById('ql-shift').options].map(o => o.value)")
    assert options == ["wilkinson", "rayleigh", "none"]
    browser.evaluate(f"(() => {{ const s = document.getElementById('ql-shift'); s.value = {shift!r};"
                     " s.dispatchEvent(new Event('change')); })()")
    assert browser.evaluate("document.body.dataset.frame") == "0"
    count = _step_through_ql(browser, C, shift)
    assert count == len(_ql_trace(C, shift)) != len(_ql_trace(C))
    assert browser.evaluate("document.getElementById('shift').nextSibling.textContent") == \
        {"rayleigh": "Rayleigh's: d_l", "none": "no shift"}[shift]


def _arrow_length(browser: Browser) -> float:
    return float(browser.evaluate(
        "Math.max(...[...document.querySelectorAll('#cloud line.axis')].filter(l => l.getAttribute('stroke') !== '#bbbbbb')"
        ".map(l => Math.hypot(l.x2.baseVal.value - l.x1.baseVal.value, l.y2.baseVal.value - l.y1.baseVal.value)))"))


def test_power_page_on_stackloss_numbers_and_a_visible_arrow(browser: Browser, tmp_path: pathlib.Path) -> None:
    C = stackloss_covariance()
    browser.open(_page(tmp_path, "power-stackloss", method="power", data=stackloss()))
    steps: list[PowerStep] = []
    power_iteration(C, seed=0, trace=steps.append)
    assert int(browser.evaluate("document.getElementById('slider').max")) == len(steps) - 1
    for i, step in enumerate(steps):
        if i:
            browser.click("#next")
        assert_shown(_text(browser, "rayleigh"), step.value, f"Rayleigh quotient at iteration {step.iteration}")
        assert_shown(_text(browser, "residual"), exact_residual(C, step.vector), f"residual at iteration {step.iteration}")
        assert step.vector is not None
        for text, x in zip(_tokens(_text(browser, "vector")), step.vector):
            assert_shown(text, float(x), f"v at iteration {step.iteration}")
        # v at unit scale: its first two entries (|.| ~ 0.96 here) drawn on a unit circle, not at the data's scale
        length = _arrow_length(browser)
        assert length >= 40, length
        unit = float(browser.evaluate("Number(document.getElementById('cloud').dataset.unit)"))
        assert math.isclose(length, unit * math.hypot(float(step.vector[0]), float(step.vector[1])), rel_tol=1e-6)
    # every eigenvector drawn (Heath's module draws both of its 2 x 2's), the one found first darkest
    lines = browser.evaluate("[...document.querySelectorAll('#cloud line.eigenvector')].map(l => [Number(l.dataset.eigen),"
                             " l.getAttribute('stroke'), ...['x1', 'y1', 'x2', 'y2'].map(a => Number(l.getAttribute(a)))])")
    result = jacobi_eigh(C)
    assert [line[0] for line in lines] == [0, 1, 2, 3] and lines[0][1] == "#555555"
    for (_, _, x1, y1, x2, y2), u in zip(lines, result.vectors):  # jacobi_eigh: |λ| down, as power iteration finds them
        assert math.isclose(math.hypot(x2 - x1, y2 - y1), unit * math.hypot(u[0], u[1]), rel_tol=1e-9)
        assert abs((x2 - x1) * u[1] + (y2 - y1) * u[0]) <= 1e-9 * unit  # along (u0, u1), screen y down
    assert _text(browser, "rate") and "replay-table" not in _tables(browser) and "convergence-table" not in _tables(browser)
    # the naive table belongs to the Jacobi page; the run's replay (issue 43's precision control) to every page
    assert _tables(browser) == ["numbers", "run-replay-table"], _tables(browser)


def test_subspace_page_on_stackloss_numbers_and_visible_arrows(browser: Browser, tmp_path: pathlib.Path) -> None:
    C = stackloss_covariance()
    browser.open(_page(tmp_path, "subspace-stackloss", method="subspace", data=stackloss(), components=2))
    steps: list[SubspaceStep] = []
    subspace_iteration(C, k=2, block_size=2, trace=steps.append)
    assert int(browser.evaluate("document.getElementById('slider').max")) == len(steps) - 1
    for i, step in enumerate(steps):
        if i:
            browser.click("#next")
        got = [_text(browser, id_) for id_ in ("ritz-1", "ritz-2", "residual-1", "residual-2")]
        exact = [exact_residual(C, x, theta) for x, theta in zip(step.vectors, step.values)]
        for text, value in zip(got, (*step.values, *exact)):
            assert_shown(text, float(value), f"iteration {step.iteration}")
        assert _arrow_length(browser) >= 40
    assert _tables(browser) == ["numbers", "run-replay-table"], _tables(browser)


def test_jacobi_page_says_which_pair_is_skipped_and_why(browser: Browser, tmp_path: pathlib.Path) -> None:
    C = stackloss_covariance()
    browser.open(_page(tmp_path, "jacobi-stackloss", method="jacobi", data=stackloss()))
    steps: list[JacobiStep] = []
    jacobi_eigh(C, trace=steps.append)
    rotations = [s for s in steps if s.kind == "rotation"]
    for i, step in enumerate(rotations, 1):
        browser.click("#next")
        skipped = _text(browser, "skipped")
        if step.skipped:
            for p, q, a in step.skipped:
                part = re.search(rf"\({p + 1}, {q + 1}\): \|a_pq\| = (\S+) ≤ (\S+)", skipped)
                assert part, skipped
                assert_shown(part.group(1), float(a), "the skipped |a_pq|")
                assert_shown(part.group(2), float(step.threshold), "the sweep's threshold")
        else:
            assert skipped == "none"
        assert_shown(_text(browser, "threshold"), float(step.threshold), "the sweep's threshold") \
            if step.threshold else None
    assert "Rutishauser" in _text(browser, "skips") and "every pair once" not in browser.evaluate("document.body.innerText")
    tables = _tables(browser)
    assert "replay-table" in tables and "convergence-table" in tables


@pytest.mark.parametrize("pivot", ["cyclic", "classical"])
def test_jacobi_page_pivot_choice_and_the_rotation_matrix(browser: Browser, tmp_path: pathlib.Path, pivot: str) -> None:
    """Heath's Jacobi module: the pivot order changes the rotations; J is shown as a matrix with c and s."""
    C = stackloss_covariance()
    browser.open(_page(tmp_path, "jacobi-" + pivot, method="jacobi", matrix=C, replay_digits=0))
    browser.evaluate(f"(() => {{ const s = document.getElementById('pivot'); s.value = {pivot!r};"
                     " s.dispatchEvent(new Event('change')); })()")
    steps: list[JacobiStep] = []
    jacobi_eigh(C, trace=steps.append, pivot=pivot)
    rotations = [s for s in steps if s.kind == "rotation"]
    assert int(browser.evaluate("document.getElementById('slider').max")) == len(rotations)
    n = len(C)
    for i, step in enumerate(rotations, 1):
        browser.click("#next")
        assert _text(browser, "pair") == f"({step.p + 1}, {step.q + 1})"
        assert_shown(_text(browser, "theta"), math.degrees(step.angle), f"θ of rotation {i}")
        assert_shown(_text(browser, "off"), step.off_norm, f"off(A) after rotation {i}")
        J = browser.evaluate("[...document.querySelectorAll('#rotation-matrix tr')].slice(1)"
                             ".map(r => [...r.children].map(td => td.textContent))")
        for r in range(n):
            for c in range(n):
                want = (float(step.c) if r == c and r in (step.p, step.q) else 1.0 if r == c else
                        float(step.s) if (r, c) == (step.p, step.q) else -float(step.s) if (r, c) == (step.q, step.p)
                        else 0.0)
                if want in (0.0, 1.0):
                    assert float(J[r][c]) == want
                else:
                    assert_shown(J[r][c], want, f"J[{r}][{c}]")
    assert (_text(browser, "convergence").count("classical") > 0) == (pivot == "classical")


@pytest.mark.parametrize("method, statement", [
    ("jacobi", "t, c, s, tau = _rotation(app, aqq, apq, ctx)"),
    ("tridiagonal", "_chase_bulge(d, e, Z, l, m, one, zero, hypot"),
    ("power", "lam = dot(v, w)"),
])
def test_code_beside_the_step_highlights_the_line_being_run(browser: Browser, tmp_path: pathlib.Path, method: str,
                                                           statement: str) -> None:
    """The highlighted line holds the statement, numbered as the source file has it now (found here by search)."""
    C = stackloss_covariance()
    browser.open(_page(tmp_path, "code-" + method, method=method, matrix=C, replay_digits=0))
    frame = browser.evaluate("RUN.frames.findIndex(f => f.kind === 'rotation' || f.kind === 'ql' || f.kind === 'power')")
    for _ in range(frame):
        browser.click("#next")
    line, text, file = browser.evaluate(
        "(() => { const l = document.querySelector('#code .line.hl'); const pre = l.closest('pre');"
        " return [Number(l.dataset.line), l.textContent, pre.previousSibling.textContent]; })()")
    assert statement in text
    path = ROOT / file.split(",")[0]
    source = path.read_text(encoding="utf-8").splitlines()
    assert statement in source[line - 1]
    assert [i + 1 for i, s in enumerate(source) if statement in s][0] == line


# ------------------------------------------------------------ the playground: the learner's free choices

@pytest.fixture(scope="module")
def playground(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The playground served from a scratch copy, with purepca's wheel built from this checkout: its URL."""
    import shutil
    import subprocess
    from test_player_browser import PLAYGROUND, _server
    if not (PLAYGROUND / "node_modules" / "pyodide" / "pyodide.js").exists():
        pytest.skip("Pyodide is not installed: (cd docs/playground && npm ci) (.ci/test does)")
    site = tmp_path_factory.mktemp("playground") / "site"
    shutil.copytree(PLAYGROUND, site, ignore=shutil.ignore_patterns("node_modules", "wheels"))
    (site / "node_modules").symlink_to(PLAYGROUND / "node_modules")
    built = subprocess.run([sys.executable, str(PLAYGROUND / "prepare.py"), "--out", str(site / "wheels")],
                           capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr[-2000:]
    with _server(site) as port:
        yield f"http://127.0.0.1:{port}/index.html"


def _scroll(browser: Browser, selector: str, block: str = "center") -> None:
    """Bring an element into the viewport before a real click on it (the page is taller than the window)."""
    browser.evaluate(f"document.querySelector({selector!r}).scrollIntoView({{block: {block!r}}})")


def _fit_shown(browser: Browser) -> list[float]:
    return [float(x) for x in browser.evaluate("[...document.querySelectorAll('#fit td.value')].map(td => td.textContent)")]


def _fit_expected(rows: list[list[float]]) -> list[float]:
    from purepca import PCA
    pca = PCA().fit(rows)
    return [x for v, row in zip(pca.explained_variance_, pca.components_) for x in (v, *row)]


def test_playground_examples_and_random_matrices(browser: Browser, playground: str) -> None:
    """Heath's modules: the matrix from a preset example, a random draw of a chosen size, or typed in."""
    from purepca.datasets import load
    browser.open(playground)
    browser.wait_until("document.body.dataset.ready === 'yes'", timeout=180)
    browser.evaluate("(() => { const s = document.getElementById('preset'); s.value = 'usarrests';"
                     " s.dispatchEvent(new Event('change')); })()")
    browser.wait_until("document.body.dataset.done === 'yes' || document.body.dataset.error", timeout=120)
    assert browser.evaluate("document.body.dataset.error || ''") == ""
    rows = [list(r) for r in load("usarrests").rows]
    for got, want in zip(_fit_shown(browser), _fit_expected(rows)):
        assert math.isclose(got, want, rel_tol=1e-13, abs_tol=1e-15)
    assert browser.evaluate("document.querySelectorAll('#work-matrix tr').length") == 4
    draws = []
    for size in ("2", "5", "5"):
        browser.evaluate(f"document.getElementById('size').value = {size!r}")
        browser.click("#random")
        browser.wait_until("document.body.dataset.done === 'yes' || document.body.dataset.error", timeout=120)
        text = browser.evaluate("document.getElementById('data').value")
        data = [[float(v) for v in line.split(",")] for line in text.splitlines()[1:]]
        assert len(data) == 12 and all(len(r) == int(size) for r in data)
        assert browser.evaluate("document.querySelectorAll('#work-matrix tr').length") == int(size)
        for got, want in zip(_fit_shown(browser), _fit_expected(data)):
            assert math.isclose(got, want, rel_tol=1e-12, abs_tol=1e-14)
        draws.append(data)
    assert draws[1] != draws[2]  # each click a new draw


def test_playground_pivot_by_click_and_a_dragged_point(browser: Browser, playground: str) -> None:
    """Heath's Jacobi module lets the student click the pivot; Setosa's PCA lets the reader drag a point.

    Both run purepca's own Python in Pyodide: the clicked pivot's rotation equals ``pivot_step``
    here (the reference rotation), chained over two clicks; after a drag the fit equals
    ``PCA().fit`` of the edited data, and the drawn axis lies along the new first component.
    """
    from purepca import PCA
    from purepca.covariance import covariance_matrix
    from purepca.player import pivot_step
    rows = [[2.5, 2.4, 1.0], [0.5, 0.7, 0.2], [2.2, 2.9, 1.4], [1.9, 2.2, 0.8], [3.1, 3.0, 1.9], [2.3, 2.7, 1.1],
            [2.0, 1.6, 0.7], [1.0, 1.1, 0.3], [1.5, 1.6, 0.9], [1.1, 0.9, 0.4]]
    browser.open(playground)
    browser.wait_until("document.body.dataset.ready === 'yes'", timeout=180)
    csv = "x,y,z\n" + "\n".join(",".join(map(str, r)) for r in rows)
    browser.evaluate(f"document.getElementById('data').value = {csv!r}")
    browser.click("#run")
    browser.wait_until("document.body.dataset.done === 'yes' || document.body.dataset.error", timeout=120)
    assert browser.evaluate("document.body.dataset.error || ''") == ""
    # two pivots chosen by clicking, each against the reference rotation run here
    state: dict[str, Any] = {"matrix": [[float(x) for x in r] for r in covariance_matrix(rows)], "vectors": None}
    for count, (p, q) in enumerate(((0, 2), (1, 2)), 1):
        _scroll(browser, "#work-matrix")
        browser.click(f'#work-matrix td[data-r="{q}"][data-c="{p}"]')  # the lower entry: the same pair
        assert browser.evaluate("document.body.dataset.pivots") == str(count)
        step = pivot_step(state["matrix"], p, q, vectors=state["vectors"])
        state = {"matrix": step["matrix"], "vectors": step["vectors"]}
        info = _text(browser, "pivot-info")
        assert info.startswith(f"Pivot ({p + 1}, {q + 1}): θ = ")
        theta = re.search(r"θ = (\S+)° \((\S+) rad\)", info)
        assert theta
        assert_shown(theta.group(1), math.degrees(step["theta"]), "θ of the clicked pivot")
        assert_shown(theta.group(2), step["theta"], "θ in radians")
        cells = browser.evaluate("[...document.querySelectorAll('#work-matrix td')]"
                                 ".map(td => [Number(td.dataset.r), Number(td.dataset.c), td.textContent, td.className])")
        for r, c, text, cls in cells:
            value = step["matrix"][r][c]
            if value == 0:
                assert text == "0" and {r, c} == {p, q} and "zeroed" in cls
            else:
                assert_shown(text, value, f"entry ({r}, {c}) after pivot {count}")
        J = browser.evaluate("[...document.querySelectorAll('#pivot-j tr')].map(r => [...r.children].map(td => td.textContent))")
        assert_shown(J[p][p], step["c"], "c in J")
        assert_shown(J[p][q], step["s"], "s in J")
        assert_shown(J[q][p], -step["s"], "-s in J")
    # drag point 0 by 40 px to the right: the data, the fit and the axes follow
    before = [float(x) for x in browser.evaluate("[...document.querySelectorAll('#fit td.value')].map(td => td.textContent)")]
    _scroll(browser, "#cloud")
    x, y, scale = browser.evaluate(
        "(() => { const c = document.querySelector('#cloud circle[data-row=\"0\"]').getBoundingClientRect();"
        " return [c.left + c.width / 2, c.top + c.height / 2, Number(document.getElementById('cloud').dataset.scale)]; })()")
    for kind, dx in (("mousePressed", 0), ("mouseMoved", 20), ("mouseMoved", 40), ("mouseReleased", 40)):
        browser.call("Input.dispatchMouseEvent", {"type": kind, "x": x + dx, "y": y, "button": "left",
                                                  "buttons": 0 if kind == "mouseReleased" else 1, "clickCount": 1})
    browser.wait_until("document.body.dataset.dragged === '0' && document.body.dataset.done === 'yes'", timeout=120)
    text = browser.evaluate("document.getElementById('data').value")
    edited = [[float(v) for v in line.split(",")] for line in text.splitlines()[1:] if line.strip()]
    assert math.isclose(edited[0][0], rows[0][0] + 40 / scale, rel_tol=1e-5) and edited[0][1:] == rows[0][1:]
    assert edited[1:] == rows[1:]
    pca = PCA().fit(edited)
    shown = [float(x) for x in browser.evaluate("[...document.querySelectorAll('#fit td.value')].map(td => td.textContent)")]
    expected = [x for v, row in zip(pca.explained_variance_, pca.components_) for x in (v, *row)]
    assert shown != before
    for got, want in zip(shown, expected):
        assert math.isclose(got, want, rel_tol=1e-13, abs_tol=1e-15)
    x1, y1, x2, y2 = browser.evaluate("(() => { const l = document.querySelector('#cloud line[data-axis=\"0\"]');"
                                      " return ['x1', 'y1', 'x2', 'y2'].map(a => Number(l.getAttribute(a))); })()")
    u = pca.components_[0]
    cross = (x2 - x1) * u[1] - (-(y2 - y1)) * u[0]  # screen y points down
    assert abs(cross) <= 1e-9 * math.hypot(x2 - x1, y2 - y1), (x1, y1, x2, y2, u)
    assert browser.evaluate("document.getElementById('work-matrix').querySelectorAll('td.zeroed').length") == 0


@pytest.mark.parametrize("iteration", ["power", "inverse"])
def test_playground_power_iteration_from_a_clicked_start(browser: Browser, playground: str, iteration: str) -> None:
    """Heath's power-iteration module: the learner picks the start vector by clicking the plot, and power or
    inverse iteration."""
    from purepca import fast
    from purepca.covariance import covariance_matrix
    from purepca.linalg.cholesky import cholesky, cholesky_solve
    if fast.REFERENCE and iteration == "inverse":
        # Pyodide reads no environment: the page runs with its kernels bound, and inverse iteration's last
        # residuals are rounding noise (5.40059e-10 there, 5.40060e-10 in the reference's bits here).
        pytest.skip("the playground's Pyodide binds its kernels; this process runs the reference's bits")
    rows = [[2.5, 2.4, 1.0], [0.5, 0.7, 0.2], [2.2, 2.9, 1.4], [1.9, 2.2, 0.8], [3.1, 3.0, 1.9], [2.3, 2.7, 1.1],
            [2.0, 1.6, 0.7], [1.0, 1.1, 0.3], [1.5, 1.6, 0.9], [1.1, 0.9, 0.4]]
    browser.open(playground)
    browser.wait_until("document.body.dataset.ready === 'yes'", timeout=180)
    csv = "x,y,z\n" + "\n".join(",".join(map(str, r)) for r in rows)
    browser.evaluate(f"document.getElementById('data').value = {csv!r}")
    browser.click("#run")
    browser.wait_until("document.body.dataset.done === 'yes' || document.body.dataset.error", timeout=120)
    browser.evaluate(f"document.getElementById('iteration').value = {iteration!r}")
    _scroll(browser, "#cloud")
    left, top, width = browser.evaluate("(() => { const r = document.getElementById('cloud').getBoundingClientRect();"
                                        " return [r.left, r.top, r.width]; })()")
    x, y = left + width / 2 - 100, top + width / 2 - 20  # up and to the left, away from the points
    for kind in ("mousePressed", "mouseReleased"):
        browser.call("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})
    start = browser.evaluate("JSON.parse(document.body.dataset.powerStart || 'null')")
    assert start is not None and start[0] < 0 < start[1] and start[2] == 0, start
    assert browser.evaluate("document.body.dataset.error || ''") == ""
    steps: list[PowerStep] = []
    C = covariance_matrix(rows)
    if iteration == "power":
        power_iteration(C, start=start, trace=steps.append)
    else:  # power iteration on C⁻¹, the solves by the public Cholesky functions
        factor = cholesky(C)
        power_iteration(lambda v: [r[0] for r in cholesky_solve(factor, [[x] for x in v])], 3, start=start,
                        trace=steps.append)
    operator: Any = C if iteration == "power" else _exact_inverse(C)
    inner = "document.querySelector('iframe').contentDocument"
    browser.wait_until(f"{inner} && {inner}.body && {inner}.body.dataset.frame === '0'")
    _scroll(browser, "iframe", "start")
    norm = math.hypot(*start)
    assert steps[0].vector is not None
    assert [float(x) for x in steps[0].vector] == pytest.approx([s / norm for s in start], abs=1e-15)
    for i, step in enumerate(steps):
        if i:
            browser.click("#next", frame=inner)
        got = browser.evaluate(f"['vector', 'rayleigh', 'residual'].map(id => {inner}.getElementById(id).textContent)")
        for text, value in zip(got[0].split(), step.vector or ()):
            assert_shown(text, float(value), f"v at iteration {step.iteration}")
        assert_shown(got[1], step.value, f"Rayleigh quotient at iteration {step.iteration}")
        # the residual of the vector shown, exactly (issue 43: the solver's float one is rounding near eps)
        assert_shown(got[2], exact_residual(operator, step.vector), f"residual at iteration {step.iteration}")


def _exact_inverse(C: list[list[float]]) -> list[list[Fraction]]:
    """C⁻¹ in fractions, by Gauss-Jordan elimination (C symmetric positive definite: no pivoting needed)."""
    n = len(C)
    M = [[Fraction(x) for x in row] + [Fraction(int(i == j)) for j in range(n)] for i, row in enumerate(C)]
    for i in range(n):
        M[i] = [x / M[i][i] for x in M[i]]
        for r in range(n):
            if r != i:
                M[r] = [a - M[r][i] * b for a, b in zip(M[r], M[i])]
    return [row[n:] for row in M]


def test_playground_ql_shift_chosen_at_each_iteration(browser: Browser, playground: str) -> None:
    """Heath's QR-iteration module: the shift chosen at each iteration (Wilkinson's, Rayleigh's, none or a value)."""
    from purepca.covariance import covariance_matrix
    from purepca.linalg.tridiagonal import ql_step, tridiagonalize
    rows = [[2.5, 2.4, 1.0], [0.5, 0.7, 0.2], [2.2, 2.9, 1.4], [1.9, 2.2, 0.8], [3.1, 3.0, 1.9], [2.3, 2.7, 1.1],
            [2.0, 1.6, 0.7], [1.0, 1.1, 0.3], [1.5, 1.6, 0.9], [1.1, 0.9, 0.4]]
    browser.open(playground)
    browser.wait_until("document.body.dataset.ready === 'yes'", timeout=180)
    csv = "x,y,z\n" + "\n".join(",".join(map(str, r)) for r in rows)
    browser.evaluate(f"document.getElementById('data').value = {csv!r}")
    browser.click("#run")
    browser.wait_until("document.body.dataset.done === 'yes' || document.body.dataset.error", timeout=120)
    d, e, _ = tridiagonalize([[float(x) for x in r] for r in covariance_matrix(rows)])
    state: dict[str, Any] = {"diagonal": d, "subdiagonal": e[:-1], "next": 0}
    sigma = round(jacobi_eigh(covariance_matrix(rows)).values[1], 3)  # near an eigenvalue: a learner's guess
    for count, rule in enumerate(["none", "value", "rayleigh", "wilkinson", "wilkinson"], 1):
        if state["next"] >= 2:
            break
        browser.evaluate(f"document.getElementById('ql-rule').value = {rule!r}")
        if rule == "value":
            browser.evaluate(f"document.getElementById('ql-sigma').value = {repr(sigma)!r}")
        _scroll(browser, "#ql-iterate")
        browser.click("#ql-iterate")
        assert browser.evaluate("document.body.dataset.error || ''") == ""
        assert browser.evaluate("document.body.dataset.qlIterations") == str(count)
        state = ql_step(state["diagonal"], state["subdiagonal"], state["next"], sigma if rule == "value" else rule)
        shown_d = browser.evaluate("[...document.querySelectorAll('#ql-t td.ql-d')].map(td => td.textContent)")
        shown_e = browser.evaluate("[...document.querySelectorAll('#ql-t td.ql-e')].map(td => td.textContent)")
        for text, value in zip(shown_d, state["diagonal"]):
            assert_shown(text, value, f"d after iteration {count}")
        for text, value in zip(shown_e, state["subdiagonal"]):
            if value == 0:
                assert text == "0"
            else:
                assert_shown(text, value, f"e after iteration {count}")
        info = _text(browser, "ql-info")
        shift = re.search(r"shift σ = (\S+);", info)
        assert shift, info
        if state["shift"] == 0:
            assert shift.group(1) == "0"
        else:
            assert_shown(shift.group(1), state["shift"], f"shift of iteration {count}")
        if rule == "value":
            assert state["shift"] == sigma
    assert state["next"] >= 2 and "is an eigenvalue" in _text(browser, "ql-info")


def test_ql_page_says_when_an_unshifted_run_was_stopped(browser: Browser, tmp_path: pathlib.Path) -> None:
    from purepca.errors import ConvergenceError
    from purepca.player import SLOW_SHIFT_ITERATIONS
    M = [[2.0, 0.3, 0.1], [0.3, 2.001, 0.2], [0.1, 0.2, 5.0]]
    browser.open(_page(tmp_path, "ql-stopped", method="tridiagonal", matrix=M, replay_digits=0))
    assert browser.evaluate("document.getElementById('stopped')") is None
    browser.evaluate("(() => { const s = document.getElementById('ql-shift'); s.value = 'none';"
                     " s.dispatchEvent(new Event('change')); })()")
    steps: list[TridiagonalStep] = []
    with pytest.raises(ConvergenceError) as err:
        tridiagonal_eigh(M, trace=steps.append, shift="none", max_iter=SLOW_SHIFT_ITERATIONS * 3)
    assert _text(browser, "stopped") == f"This run was stopped before it converged: {err.value}."
    ql = [s for s in steps if s.kind == "ql"]
    assert browser.evaluate("RUN.frames.filter(f => f.kind === 'ql').length") == len(ql)
    browser.evaluate("document.getElementById('slider').value = document.getElementById('slider').max;"
                     " document.getElementById('slider').dispatchEvent(new Event('input'))")
    assert_shown(_text(browser, "subdiagonal"), ql[-1].value, "|e_l| at the last iteration made")
    assert "not yet" in _text(browser, "deflated")


def test_playground_drag_a_point_of_a_3d_cloud(browser: Browser, playground: str) -> None:
    """In 3-D the dragged point moves in the plane the learner looks at; purepca refits the edited rows."""
    rows = [[2.5, 2.4, 1.0], [0.5, 0.7, 0.2], [2.2, 2.9, 1.4], [1.9, 2.2, 0.8], [3.1, 3.0, 1.9], [2.3, 2.7, 1.1],
            [2.0, 1.6, 0.7], [1.0, 1.1, 0.3], [1.5, 1.6, 0.9], [1.1, 0.9, 0.4]]
    browser.open(playground)
    browser.wait_until("document.body.dataset.ready === 'yes'", timeout=180)
    csv = "x,y,z\n" + "\n".join(",".join(map(str, r)) for r in rows)
    browser.evaluate(f"document.getElementById('data').value = {csv!r}")
    browser.click("#run")
    browser.wait_until("document.body.dataset.done === 'yes' || document.body.dataset.error", timeout=120)
    azimuth, elevation = 40, 20
    browser.evaluate("(() => { const c = document.getElementById('view3d'); c.checked = true;"
                     f" document.getElementById('azimuth').value = '{azimuth}';"
                     f" document.getElementById('elevation').value = '{elevation}';"
                     " c.dispatchEvent(new Event('input')); })()")
    a, b = math.radians(azimuth), math.radians(elevation)
    E = [[math.cos(a), math.sin(a), 0.0], [-math.sin(a) * math.sin(b), math.cos(a) * math.sin(b), math.cos(b)]]
    shown = browser.evaluate("JSON.parse(document.getElementById('cloud').dataset.basis)")
    assert all(abs(g - w) <= 1e-15 for gr, wr in zip(shown, E) for g, w in zip(gr, wr)), (shown, E)
    _scroll(browser, "#cloud")
    x, y, scale = browser.evaluate(
        "(() => { const c = document.querySelector('#cloud circle[data-row=\"3\"]').getBoundingClientRect();"
        " return [c.left + c.width / 2, c.top + c.height / 2, Number(document.getElementById('cloud').dataset.scale)]; })()")
    for kind, dx, dy in (("mousePressed", 0, 0), ("mouseMoved", 15, -10), ("mouseMoved", 30, -20), ("mouseReleased", 30, -20)):
        browser.call("Input.dispatchMouseEvent", {"type": kind, "x": x + dx, "y": y + dy, "button": "left",
                                                  "buttons": 0 if kind == "mouseReleased" else 1, "clickCount": 1})
    browser.wait_until("document.body.dataset.dragged === '3' && document.body.dataset.done === 'yes'", timeout=120)
    text = browser.evaluate("document.getElementById('data').value")
    edited = [[float(v) for v in line.split(",")] for line in text.splitlines()[1:] if line.strip()]
    du, dv = 30 / scale, 20 / scale
    want = [r + du * e1 + dv * e2 for r, e1, e2 in zip(rows[3], E[0], E[1])]
    assert all(math.isclose(g, w, rel_tol=1e-5) for g, w in zip(edited[3], want)), (edited[3], want)
    assert edited[:3] == rows[:3] and edited[4:] == rows[4:]
    for got, want_ in zip(_fit_shown(browser), _fit_expected(edited)):
        assert math.isclose(got, want_, rel_tol=1e-13, abs_tol=1e-15)
    from purepca import PCA
    u = PCA().fit(edited).components_[0]
    pu, pv = (sum(e * c for e, c in zip(E[k], u)) for k in (0, 1))
    x1, y1, x2, y2 = browser.evaluate("(() => { const l = document.querySelector('#cloud line[data-axis=\"0\"]');"
                                      " return ['x1', 'y1', 'x2', 'y2'].map(a => Number(l.getAttribute(a))); })()")
    cross = (x2 - x1) * pv - (-(y2 - y1)) * pu
    assert abs(cross) <= 1e-9 * math.hypot(x2 - x1, y2 - y1)


def test_playground_fits_a_typed_matrix_and_a_csv_with_a_label_column(browser: Browser, playground: str) -> None:
    """Issue 43: the teacher types A4 (the pivot clicks then work on it), a CSV with a label column fits with
    the id column named, and an error is one line naming the field."""
    A4 = [[5.0, 2.0, 0.0, 1.0], [2.0, 4.0, 1.0, 0.0], [0.0, 1.0, 3.0, 1.0], [1.0, 0.0, 1.0, 2.0]]
    browser.open(playground)
    browser.wait_until("document.body.dataset.ready === 'yes'", timeout=180)

    def run(text: str, kind: str, id_column: str = "") -> None:
        browser.evaluate(f"document.getElementById('data').value = {text!r};"
                         f" document.getElementById('kind').value = {kind!r};"
                         f" document.getElementById('id-column').value = {id_column!r};"
                         " delete document.body.dataset.done; delete document.body.dataset.error")
        _scroll(browser, "#run")
        browser.click("#run")
        browser.wait_until("document.body.dataset.done === 'yes' || document.body.dataset.error", timeout=120)

    run("\n".join(",".join(repr(x) for x in row) for row in A4), "matrix")
    assert browser.evaluate("document.body.dataset.error || ''") == ""
    values = sorted(jacobi_eigh(A4).values, reverse=True)
    shown = [float(x) for x in browser.evaluate("[...document.querySelectorAll('#fit tr')].slice(1)"
                                                ".map(tr => tr.children[1].textContent)")]
    assert all(math.isclose(a, b, rel_tol=1e-14) for a, b in zip(shown, values)) and len(shown) == 4
    assert browser.evaluate("document.querySelectorAll('#work-matrix tr').length") == 4  # pivots on A4 itself
    text = "name,x,y\na,2.5,2.4\nb,0.5,0.7\nc,2.2,2.9\nd,1.9,2.2\ne,3.1,3.0\n"
    run(text, "data")
    error = browser.evaluate("document.body.dataset.error || ''")
    assert error and "\n" not in error and "id column" in error, error
    run(text, "data", "name")
    assert browser.evaluate("document.body.dataset.error || ''") == ""
    rows = [[float(v) for v in line.split(",")[1:]] for line in text.splitlines()[1:]]
    for got, want in zip(_fit_shown(browser), _fit_expected(rows)):
        assert math.isclose(got, want, rel_tol=1e-13, abs_tol=1e-15)
