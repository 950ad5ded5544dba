"""Issue 43 in headless Chromium at 1400 x 1000: QL's step 0 is A as given, the code beside the step within
the first 1000 px, a power page that says it does not converge, and checkers that ask for what they say
(the power checker wants A·v normalised; QL asks for the shift, subspace for a residual)."""

from __future__ import annotations

import math
import os
import pathlib
import sys
from typing import Any, Iterator

import pytest

sys.path.insert(0, os.path.dirname(__file__))
from cdp import Browser, chromium  # noqa: E402

from purepca.player import teach  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(chromium() is None,
                       reason="no headless Chromium here (Debian: apt-get install chromium; .ci/test installs it)"),
]

A4 = [[5.0, 2.0, 0.0, 1.0], [2.0, 4.0, 1.0, 0.0], [0.0, 1.0, 3.0, 1.0], [1.0, 0.0, 1.0, 2.0]]


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    b = Browser(tmp_path_factory.mktemp("chromium-profile"), width=1400, height=1000)
    try:
        yield b
    finally:
        b.close()


def _open(browser: Browser, tmp: pathlib.Path, name: str, **kwargs: Any) -> None:
    path = tmp / f"{name}.html"
    path.write_text(teach(**kwargs), encoding="utf-8")
    browser.open(path.as_uri())


def _text(browser: Browser, id_: str) -> str:
    return str(browser.evaluate(f"document.getElementById({id_!r}).textContent"))


def _check(browser: Browser, typed: str) -> tuple[str, str]:
    browser.evaluate(f"document.getElementById('guess').value = {typed!r};"
                     " document.getElementById('check-button').scrollIntoView({block: 'center'})")
    browser.click("#check-button")
    return tuple(browser.evaluate("[document.getElementById('verdict').className,"  # type: ignore[return-value]
                                  " document.getElementById('verdict').textContent]"))


def test_ql_page_step_zero_shows_a_as_given(browser: Browser, tmp_path: pathlib.Path) -> None:
    _open(browser, tmp_path, "ql-a4", method="tridiagonal", matrix=A4, replay_digits=0)
    assert browser.evaluate("document.body.dataset.frame") == "0"
    cells = browser.evaluate("[...document.querySelectorAll('#matrix text.entry')]"
                             ".map(t => [Number(t.dataset.r), Number(t.dataset.c), t.textContent])")
    assert len(cells) == 16
    for r, c, text in cells:
        assert float(text) == A4[r][c], (r, c, text)
    assert "A as given" in _text(browser, "numbers")


@pytest.mark.parametrize("method", ["jacobi", "tridiagonal", "power", "subspace"])
def test_code_panel_beside_the_matrix_within_the_first_1000_px(browser: Browser, tmp_path: pathlib.Path,
                                                               method: str) -> None:
    _open(browser, tmp_path, "code-" + method, method=method, matrix=A4, replay_digits=0)
    browser.click("#next")
    code, matrix = browser.evaluate(
        "[document.getElementById('code').getBoundingClientRect().toJSON(),"
        " document.getElementById('matrix').getBoundingClientRect().toJSON()]")
    assert code["top"] < 1000 and code["height"] > 100, code
    assert code["left"] >= matrix["right"], (code, matrix)  # beside it, not below
    assert browser.evaluate("document.querySelector('#code .line.hl') !== null")
    if method == "jacobi":  # the code's names against the page's, and the identity of the two forms, said once
        note = _text(browser, "notation")
        assert "cot 2θ" in note and "τ = s/(1 + c)" in note and "c·a − s·b" in note


def test_power_page_on_a_swap_says_it_does_not_converge(browser: Browser, tmp_path: pathlib.Path) -> None:
    _open(browser, tmp_path, "power-swap", method="power", matrix=[[0.0, 1.0], [1.0, 0.0]], replay_digits=0)
    text = _text(browser, "stopped")
    assert "ratio 1" in text and "oscillates" in text and "did not converge" in text
    assert "does not converge" in _text(browser, "convergence")
    # the vector oscillates: every second iterate is the same, the one between is another direction
    vectors = browser.evaluate("RUN.frames.map(f => f.vector)")
    assert len(vectors) >= 3
    assert all(math.isclose(abs(sum(a * b for a, b in zip(vectors[i], vectors[i + 2]))), 1.0, rel_tol=1e-12)
               for i in range(len(vectors) - 2))
    assert abs(sum(a * b for a, b in zip(vectors[0], vectors[1]))) < 0.99


def test_power_checker_wants_the_normalised_vector(browser: Browser, tmp_path: pathlib.Path) -> None:
    _open(browser, tmp_path, "power-check", method="power", matrix=A4, replay_digits=0)
    v = browser.evaluate("RUN.frames[0].vector")
    Av = [math.fsum(a * x for a, x in zip(row, v)) for row in A4]
    norm = math.sqrt(math.fsum(x * x for x in Av))
    cls, text = _check(browser, ", ".join(repr(x) for x in Av))
    assert cls == "bad" and text.startswith("Not normalised"), text
    cls, text = _check(browser, ", ".join(repr(-x / norm) for x in Av))  # the other sign: the same direction
    assert cls == "good", text


def test_ql_checker_asks_for_the_shift(browser: Browser, tmp_path: pathlib.Path) -> None:
    _open(browser, tmp_path, "ql-check", method="tridiagonal", matrix=A4, replay_digits=0)
    kinds = browser.evaluate("RUN.frames.map(f => f.kind)")
    before = kinds.index("tridiagonal")
    for _ in range(before):
        browser.click("#next")
    assert "compute its shift σ" in _text(browser, "check-what")
    sigma = browser.evaluate("RUN.frames.find(f => f.kind === 'ql').shift")
    cls, text = _check(browser, repr(sigma))
    assert cls == "good", text
    cls, text = _check(browser, repr(sigma + 0.5))
    assert cls == "bad", text


def test_subspace_checker_asks_for_a_residual(browser: Browser, tmp_path: pathlib.Path) -> None:
    _open(browser, tmp_path, "subspace-check", method="subspace", matrix=A4, replay_digits=0)
    assert "residual" in _text(browser, "check-what")
    x, theta = browser.evaluate("[RUN.frames[0].vectors[0], RUN.frames[0].values[0]]")
    Ax = [math.fsum(a * y for a, y in zip(row, x)) for row in A4]
    residual = math.sqrt(math.fsum((a - theta * y) ** 2 for a, y in zip(Ax, x)))
    cls, text = _check(browser, repr(residual))
    assert cls == "good", text
    cls, text = _check(browser, repr(residual * 1.1))
    assert cls == "bad", text


def test_precision_control_steps_a4_in_binary32_binary64_and_50_digits(browser: Browser, tmp_path: pathlib.Path) -> None:
    """The same Jacobi page of A4 switched to binary32 replays to about 7 correct digits, to 50 digits to
    about 50; each digit count here recomputed from the run shown against mpmath's eigenvalues."""
    mpmath = pytest.importorskip("mpmath")
    _open(browser, tmp_path, "precision-a4", method="jacobi", matrix=A4)
    with mpmath.workdps(80):
        truth = sorted(mpmath.eigsy(mpmath.matrix(A4))[0], reverse=True)

    def last_digits() -> tuple[float, float, Any]:
        shown = float(browser.evaluate("[...document.querySelectorAll('#run-replay-table tr')].slice(-1)[0]"
                                       ".lastChild.textContent"))
        diag = browser.evaluate("(() => { const f = RUN.frames[RUN.frames.length - 1];"
                                " return f.matrix.map((r, i) => String(r[i])); })()")
        with mpmath.workdps(80):
            # a float as its exact binary value (a decimal string of 50 digits as itself)
            mine = sorted((mpmath.mpf(x) if len(x) > 25 else mpmath.mpf(float(x)) for x in diag), reverse=True)
            digits = min(float(-mpmath.log10(abs((a - t) / t))) if a != t else 80.0 for a, t in zip(mine, truth))
        return shown, digits, diag

    for label, low, high in (("binary32", 6.0, 8.5), ("50 digits", 45.0, 52.0), ("binary64", 14.5, 17.0)):
        browser.evaluate(f"(() => {{ const s = document.getElementById('precision'); s.value = {label!r};"
                         " s.dispatchEvent(new Event('change')); })()")
        assert browser.evaluate("RUN.precision") == label
        shown, digits, diag = last_digits()
        assert low <= shown <= high, (label, shown)
        assert abs(shown - digits) <= 0.01, (label, shown, digits, diag)
        assert label in _text(browser, "run-replay")
