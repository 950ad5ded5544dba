"""The step player and the playground in headless Chromium, driven through the DevTools protocol.

After every click on "next" the θ, off(A) and Rayleigh quotient the page
shows must be the solver's own (from its ``trace`` callback, taken here
independently of the page's data) to the digits shown; the page must ask for
nothing over the network; the first and last frames' screenshots must show
the highlighted entry and the axes where the solver's numbers put them.  The
playground runs purepca's wheel in Pyodide from a local static server.

These run once per CI run (CPython 3.11 in a git checkout: not in the sdist,
PyPy or the other CPythons), and skip, saying why, without Debian's
``chromium`` or (for the playground) without ``docs/playground/node_modules/pyodide``
(``npm ci`` in docs/playground, as ``.ci/test`` does).
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import math
import os
import pathlib
import re
import shutil
import subprocess
import sys
import threading
from decimal import Decimal
from fractions import Fraction
from typing import Any, Iterator

import pytest

sys.path.insert(0, os.path.dirname(__file__))
from cdp import Browser, chromium  # noqa: E402
from png import read_png  # noqa: E402

from purepca import PCA  # noqa: E402
from purepca.datasets import toy_data  # noqa: E402
from purepca.linalg import jacobi_eigh  # noqa: E402
from purepca.linalg.jacobi import JacobiStep  # noqa: E402
from purepca.linalg.power import PowerStep, SubspaceStep, power_iteration, subspace_iteration  # noqa: E402
from purepca.covariance import covariance_matrix  # noqa: E402
from purepca.player import teach  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
PLAYGROUND = ROOT / "docs" / "playground"

pytestmark = [
    pytest.mark.slow,  # a real Chromium drives every page: seconds a test
    pytest.mark.skipif(sys.version_info[:2] != (3, 11) or not (ROOT / ".git").exists(),
                       reason="browser tests run once per CI run: CPython 3.11 in a git checkout"),
    pytest.mark.skipif(chromium() is None,
                       reason="no headless Chromium here (Debian: apt-get install chromium; .ci/test installs it)"),
]

M3 = [[4.0, 1.0, 0.5], [1.0, 3.0, 0.3], [0.5, 0.3, 2.0]]
M5 = [[4.0, 1.0, 0.5, 0.2, 0.1], [1.0, 3.0, 0.3, 0.1, 0.2], [0.5, 0.3, 2.0, 0.4, 0.1],
      [0.2, 0.1, 0.4, 1.0, 0.3], [0.1, 0.2, 0.1, 0.3, 0.5]]
ORANGE, GREEN, RED, BLUE = (0xFF, 0xB0, 0x00), (0x2C, 0xA0, 0x2C), (0xD6, 0x27, 0x28), (0x1F, 0x77, 0xB4)


def _close(a: tuple[int, ...], b: tuple[int, ...], tol: int = 30) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def assert_shown(text: str, value: float, what: str) -> None:
    """``text`` is ``value`` rounded to the significant digits it shows (six, or an exact 0)."""
    text = text.strip()
    if text == "0":
        assert value == 0, (what, text, value)
        return
    m = re.fullmatch(r"-?(\d+)(?:\.(\d+))?(?:e(-?\d+))?", text)
    assert m, (what, text)
    mantissa = (m.group(1) + (m.group(2) or "")).lstrip("0")
    assert len(mantissa) == 6 or (len(mantissa) < 6 and m.group(1) == "0"), (what, text)
    shown = float(text)
    exponent = math.floor(math.log10(abs(shown)))
    half_unit = 0.5 * 10.0 ** (exponent - 5)
    assert abs(shown - value) <= half_unit * (1 + 1e-9), (what, text, value)


def exact_residual(A: list[list[float]], v: Any, lam: Any = None) -> float:
    """‖A·v − λ·v‖ of the vector shown, in fractions (λ = vᵀAv unless given): the number the page shows
    (issue 43: the solver's float residual is all rounding near eps·‖A‖, 1.52139e-10 for 1.52143e-10)."""
    vs = [Fraction(x) for x in v]
    w = [sum((Fraction(a) * x for a, x in zip(row, vs)), Fraction(0)) for row in A]
    mu = sum((x * y for x, y in zip(vs, w)), Fraction(0)) if lam is None else Fraction(lam)
    r2 = sum(((y - mu * x) ** 2 for x, y in zip(vs, w)), Fraction(0))
    return math.sqrt(r2.numerator / r2.denominator) if r2 else 0.0


def click_check(browser: Browser) -> None:
    """The checker's button, brought into the viewport first (the page is taller than the window)."""
    browser.evaluate("document.getElementById('check-button').scrollIntoView({block: 'center'})")
    browser.click("#check-button")


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    b = Browser(tmp_path_factory.mktemp("chromium-profile"))
    try:
        yield b
    finally:
        b.close()


def _page(tmp: pathlib.Path, name: str, **kwargs: Any) -> str:
    path = tmp / f"{name}.html"
    path.write_text(teach(**kwargs), encoding="utf-8")
    return path.as_uri()


def _pixel(image: list[list[tuple[int, int, int]]], x: float, y: float) -> tuple[int, int, int]:
    return image[round(y)][round(x)]


def _centre(browser: Browser, selector: str) -> tuple[float, float]:
    x, y = browser.evaluate(f"(() => {{ const r = document.querySelector({selector!r}).getBoundingClientRect();"
                            " return [r.left + r.width / 2, r.top + r.height / 2]; })()")
    return x, y


def _cloud_point(browser: Browser, u: float, v: float) -> tuple[float, float]:
    """Where the data point (u, v) is on the page: the cloud's centre plus its scale."""
    left, top, width, scale = browser.evaluate(
        "(() => { const s = document.getElementById('cloud'), r = s.getBoundingClientRect();"
        " return [r.left, r.top, r.width, Number(s.dataset.scale)]; })()")
    c = width / 2
    return left + c + scale * u, top + c - scale * v


def _jacobi_trace(M: list[list[float]]) -> list[JacobiStep]:
    steps: list[JacobiStep] = []
    jacobi_eigh(M, trace=steps.append)
    return [s for s in steps if s.kind == "rotation"]


def _step_through_jacobi(browser: Browser, url: str, M: list[list[float]]) -> list[JacobiStep]:
    browser.open(url)
    rotations = _jacobi_trace(M)
    start = math.sqrt(math.fsum(M[i][j] ** 2 for i in range(len(M)) for j in range(len(M)) if i != j))
    assert_shown(browser.evaluate("document.getElementById('off').textContent"), start, "off(A) at the start")
    for i, step in enumerate(rotations, 1):
        browser.click("#next")
        got = browser.evaluate("[document.body.dataset.frame, document.getElementById('theta').textContent,"
                               " document.getElementById('off').textContent, document.getElementById('pair').textContent]")
        assert got[0] == str(i)
        assert_shown(got[1], math.degrees(step.angle), f"theta of rotation {i}")
        assert_shown(got[2], step.off_norm, f"off(A) after rotation {i}")
        assert got[3] == f"({step.p + 1}, {step.q + 1})"
    browser.click("#next")  # past the end: stays on the last frame
    assert browser.evaluate("document.body.dataset.frame") == str(len(rotations))
    return rotations


@pytest.mark.slow
def test_toy_covariance_one_rotation_and_the_axes_turn(browser: Browser, tmp_path: pathlib.Path) -> None:
    X = toy_data()
    C = covariance_matrix(X)
    url = _page(tmp_path, "toy", method="jacobi", data=X)
    browser.open(url)
    # First frame: the entry to be zeroed is orange; the axes are the coordinate axes.
    image = read_png(browser.screenshot())
    for selector in ('#matrix rect[data-r="0"][data-c="1"]', '#matrix rect[data-r="1"][data-c="0"]'):
        assert _close(_pixel(image, *_centre(browser, selector)), ORANGE), selector
    assert not _close(_pixel(image, *_centre(browser, '#matrix rect[data-r="0"][data-c="0"]')), ORANGE)
    length = [2 * math.sqrt(C[0][0]), 2 * math.sqrt(C[1][1])]
    assert _close(_pixel(image, *_cloud_point(browser, 0.7 * length[0], 0.0)), RED)
    assert _close(_pixel(image, *_cloud_point(browser, 0.0, 0.7 * length[1])), BLUE)
    rotations = _step_through_jacobi(browser, url, C)
    assert len(rotations) == 1 and round(math.degrees(rotations[0].angle), 4) == 42.6777
    assert browser.evaluate("document.getElementById('theta').textContent") == "42.6777"
    # Last frame: the zeroed entry is green, and each axis lies along the solver's eigenvector.
    image = read_png(browser.screenshot())
    assert _close(_pixel(image, *_centre(browser, '#matrix rect[data-r="0"][data-c="1"]')), GREEN)
    result = jacobi_eigh(C)
    final = rotations[0].matrix
    assert final is not None and rotations[0].vectors is not None
    for k, colour in ((0, RED), (1, BLUE)):
        v = rotations[0].vectors[k]
        reach = 0.7 * 2 * math.sqrt(final[k][k])
        assert _close(_pixel(image, *_cloud_point(browser, reach * v[0], reach * v[1])), colour), k
        # ... and no longer along the coordinate axis it started on
        assert not _close(_pixel(image, *_cloud_point(browser, *((reach, 0.0) if k == 0 else (0.0, reach)))), colour)
        assert any(abs(abs(sum(a * b for a, b in zip(v, u))) - 1) < 1e-12 for u in result.vectors)
    assert all(u.startswith("file://") for u in browser.requests()), browser.requests()


@pytest.mark.slow
@pytest.mark.parametrize("name, M", [("m3", M3), ("m5", M5)])
def test_jacobi_pages_show_the_solvers_numbers(browser: Browser, tmp_path: pathlib.Path, name: str,
                                               M: list[list[float]]) -> None:
    url = _page(tmp_path, name, method="jacobi", matrix=M)
    size = (tmp_path / f"{name}.html").stat().st_size
    assert size < 450_000, size  # three pivot orders and three precisions (issue 43)
    browser.open(url)
    first = _jacobi_trace(M)[0]
    image = read_png(browser.screenshot())
    assert _close(_pixel(image, *_centre(browser, f'#matrix rect[data-r="{first.p}"][data-c="{first.q}"]')), ORANGE)
    rotations = _step_through_jacobi(browser, url, M)
    last = rotations[-1]
    image = read_png(browser.screenshot())
    assert _close(_pixel(image, *_centre(browser, f'#matrix rect[data-r="{last.q}"][data-c="{last.p}"]')), GREEN)
    # The replay table: the 50-digit run gains more digits per sweep as it converges.
    gains = browser.evaluate("[...document.querySelectorAll('#replay-table tr')].slice(1)"
                             ".map(r => r.children[6].textContent)")
    numeric = [float(g) for g in gains if re.fullmatch(r"-?\d+\.\d", g)]
    assert max(numeric) > 2 * numeric[0], gains
    assert all(u.startswith("file://") for u in browser.requests()), browser.requests()


def test_fifty_digit_run_is_rounded_from_its_decimal_strings(browser: Browser, tmp_path: pathlib.Path) -> None:
    """At 50 digits the page rounds the solver's decimal strings itself: every entry to the 6 digits shown."""
    from purepca.player import jacobi_run
    run = jacobi_run(M3, digits=50)
    browser.open(_page(tmp_path, "m3x50", method="jacobi", matrix=M3, digits=50, replay_digits=0))
    for i, frame in enumerate(run["frames"]):
        if i:
            browser.click("#next")
        cells = browser.evaluate("[...document.querySelectorAll('#matrix text.entry')].map(t => t.textContent)")
        values = [x for row in frame["matrix"] for x in row]
        for text, value in zip(cells, values):
            exact = Decimal(value)
            if text != "0" and exact != 0:  # the half unit of the shown digits, in exact decimal
                unit = Decimal(1).scaleb(exact.adjusted() - 5)
                assert abs(Decimal(text) - exact) <= unit / 2, (i, text, value)
            else:
                assert text == "0" and exact == 0, (i, text, value)
        assert_shown(browser.evaluate("document.getElementById('off').textContent"), float(Decimal(frame["off"])),
                     f"off(A) at frame {i}")


@pytest.mark.slow
def test_power_page_rayleigh_quotient_and_the_vector_turning(browser: Browser, tmp_path: pathlib.Path) -> None:
    url = _page(tmp_path, "power", method="power", matrix=M3, replay_digits=0)
    browser.open(url)
    steps: list[PowerStep] = []
    result = power_iteration(M3, seed=0, trace=steps.append)
    for i, step in enumerate(steps):
        if i:
            browser.click("#next")
        got = browser.evaluate("[document.getElementById('rayleigh').textContent,"
                               " document.getElementById('residual').textContent]")
        assert_shown(got[0], step.value, f"Rayleigh quotient at iteration {step.iteration}")
        assert_shown(got[1], exact_residual(M3, step.vector), f"residual at iteration {step.iteration}")
        if i == 0:
            # The red arrow starts along the first vector, not along the answer.
            first = read_png(browser.screenshot())
            assert step.vector is not None
            start = [float(x) for x in step.vector[:2]]
            assert _close(_pixel(first, *_cloud_point(browser, 0.8 * start[0], 0.8 * start[1])), RED)
            answer = [float(x) for x in result.vectors[0][:2]]
            assert not _close(_pixel(first, *_cloud_point(browser, 0.8 * answer[0], 0.8 * answer[1])), RED)
    # ... and ends along the answer (the dashed grey line under it).
    last = read_png(browser.screenshot())
    assert _close(_pixel(last, *_cloud_point(browser, 0.8 * answer[0], 0.8 * answer[1])), RED)
    assert all(u.startswith("file://") for u in browser.requests())


def test_subspace_page_ritz_values(browser: Browser, tmp_path: pathlib.Path) -> None:
    browser.open(_page(tmp_path, "subspace", method="subspace", matrix=M5, components=2, replay_digits=0))
    steps: list[SubspaceStep] = []
    subspace_iteration(M5, k=2, block_size=2, trace=steps.append)
    assert int(browser.evaluate("document.getElementById('slider').max")) == len(steps) - 1
    for i, step in enumerate(steps[:25]):
        if i:
            browser.click("#next")
        got = browser.evaluate("['ritz-1', 'ritz-2', 'residual-1', 'residual-2']"
                               ".map(id => document.getElementById(id).textContent)")
        exact = [exact_residual(M5, x, theta) for x, theta in zip(step.vectors, step.values)]
        for text, value in zip(got, (*step.values, *exact)):
            assert_shown(text, value, f"iteration {step.iteration}")


def test_checker_says_whether_theta_matches(browser: Browser, tmp_path: pathlib.Path) -> None:
    browser.open(_page(tmp_path, "check", method="jacobi", data=toy_data(), replay_digits=0))
    theta = math.degrees(_jacobi_trace(covariance_matrix(toy_data()))[0].angle)
    for typed, good in ((f"{theta:.4f}", True), ("45", False)):
        browser.evaluate(f"document.getElementById('guess').value = {typed!r}")
        click_check(browser)
        cls, text, diff = browser.evaluate("(() => { const v = document.getElementById('verdict');"
                                           " return [v.className, v.textContent, Number(v.dataset.difference)]; })()")
        assert (cls == "good") == good, text
        assert abs(diff - abs(float(typed) - theta)) < 1e-12, (diff, text)


def test_naive_covariance_table_on_shifted_toy_data(browser: Browser, tmp_path: pathlib.Path) -> None:
    """Seed 003's data shifted by 1e8: the page's table shows the textbook formula losing every digit."""
    X = [[x + 1e8 for x in row] for row in toy_data()]
    browser.open(_page(tmp_path, "shifted", method="jacobi", data=toy_data(), shift=1e8, replay_digits=0))
    rows = browser.evaluate("[...document.querySelectorAll('#naive-table tr')].slice(1)"
                            ".map(r => [...r.children].map(td => td.textContent))")
    n = len(X)
    means = [sum(r[j] for r in X) / n for j in range(2)]
    exact_means = [sum(Fraction(r[j]) for r in X) / n for j in range(2)]
    C = covariance_matrix(X)
    assert [r[0] for r in rows] == ["(1, 1)", "(1, 2)", "(2, 2)"]
    for (i, j), row in zip(((0, 0), (0, 1), (1, 1)), rows):
        naive = (sum(r[i] * r[j] for r in X) - n * means[i] * means[j]) / (n - 1)
        exact = sum((Fraction(r[i]) - exact_means[i]) * (Fraction(r[j]) - exact_means[j]) for r in X) / (n - 1)
        assert float(row[1]) == float(f"{naive:.8g}")
        assert float(row[3]) == float(f"{float(C[i][j]):.8g}")
        assert abs(float(row[5]) - float(exact)) <= 1e-12 * abs(float(exact))
        assert float(row[2]) < 1.0 < 15.0 < float(row[4])  # digits: naive none, purepca all


def test_checker_says_whether_the_next_vector_matches(browser: Browser, tmp_path: pathlib.Path) -> None:
    browser.open(_page(tmp_path, "check-power", method="power", matrix=M3, replay_digits=0))
    steps: list[PowerStep] = []
    power_iteration(M3, seed=0, trace=steps.append)
    assert steps[0].vector is not None
    v = [float(x) for x in steps[0].vector]
    Av = [math.fsum(a * x for a, x in zip(row, v)) for row in M3]
    norm = math.sqrt(math.fsum(x * x for x in Av))
    by_hand = [-x / norm for x in Av]  # of the other sign: the same direction
    wrong = [v[0], v[1], v[2] + 0.1]
    unnormalised = Av  # the question asks for A·v / ‖A·v‖ (issue 43: A·v itself was "Matches")
    for typed, good in ((by_hand, True), (wrong, False), (unnormalised, False)):
        browser.evaluate(f"document.getElementById('guess').value = {', '.join(map(repr, typed))!r}")
        click_check(browser)
        cls, text = browser.evaluate("[document.getElementById('verdict').className,"
                                     " document.getElementById('verdict').textContent]")
        assert (cls == "good") == good, text


# ------------------------------------------------------------ the playground

@contextlib.contextmanager
def _server(root: pathlib.Path) -> Iterator[int]:
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

    handler = functools.partial(Quiet, directory=str(root))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield httpd.server_address[1]
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_playground_fits_edited_data_in_pyodide(browser: Browser, tmp_path: pathlib.Path) -> None:
    if not (PLAYGROUND / "node_modules" / "pyodide" / "pyodide.js").exists():
        pytest.skip("Pyodide is not installed: (cd docs/playground && npm ci) (.ci/test does)")
    site = tmp_path / "site"
    shutil.copytree(PLAYGROUND, site, ignore=shutil.ignore_patterns("node_modules", "wheels"))
    (site / "node_modules").symlink_to(PLAYGROUND / "node_modules")
    built = subprocess.run([sys.executable, str(PLAYGROUND / "prepare.py"), "--out", str(site / "wheels")],
                           capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr[-2000:]
    edited = [[2.5, 2.4], [0.5, 0.7], [2.2, 2.9], [1.9, 2.2], [3.1, 3.0], [2.3, 2.7], [2.0, 1.6], [1.0, 1.1],
              [1.5, 1.6], [1.1, 0.9], [4.0, 3.1]]  # seed 003's points and one more
    with _server(site) as port:
        base = f"http://127.0.0.1:{port}/"
        browser.open(base + "index.html")
        browser.wait_until("document.body.dataset.ready === 'yes'", timeout=180)
        csv = "x,y\n" + "\n".join(f"{a},{b}" for a, b in edited)
        browser.evaluate(f"document.getElementById('data').value = {csv!r}")
        browser.click("#run")
        browser.wait_until("document.body.dataset.done === 'yes' || document.body.dataset.error", timeout=120)
        assert browser.evaluate("document.body.dataset.error || ''") == ""
        pca = PCA().fit(edited)
        shown = browser.evaluate("[...document.querySelectorAll('#fit td.value')].map(td => td.textContent)")
        expected = [x for v, row in zip(pca.explained_variance_, pca.components_) for x in (v, *row)]
        assert len(shown) == len(expected)
        # Pyodide's Python (3.14) has math.sumprod, this CPython (3.11) the fsum fallback: a few ulps apart.
        for text, value in zip(shown, expected):
            assert math.isclose(float(text), value, rel_tol=1e-14, abs_tol=1e-15), (text, value)
        inner = "document.querySelector('iframe').contentDocument"
        browser.wait_until(f"{inner} && {inner}.body && {inner}.body.dataset.frame === '0'")
        rotations = _jacobi_trace(covariance_matrix(edited))
        for i, step in enumerate(rotations, 1):
            browser.click("#next", frame=inner)
            theta, off = browser.evaluate(f"[{inner}.getElementById('theta').textContent,"
                                          f" {inner}.getElementById('off').textContent]")
            assert_shown(theta, math.degrees(step.angle), f"theta of rotation {i}")
            assert_shown(off, step.off_norm, f"off(A) after rotation {i}")
        outside = [u for u in browser.requests() if not (u.startswith(base) or u.startswith(("data:", "blob:", "about:")))]
        assert not outside, outside
