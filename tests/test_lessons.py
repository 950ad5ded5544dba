"""The lessons of issue 43 (acceptance 3): ``teach --lesson stopping`` and ``teach --lesson pc1``.

Every figure of the stopping lesson is recomputed here from mpmath's eigenvalues of the same
matrix (80 digits), independently of purepca's 50-digit run; PC1 and the variance along an axis
are checked against numpy and exact fractions.  The Chromium test drives the pc1 page: snapping
gives purepca's PC1 within 1e-12.
"""

from __future__ import annotations

import json
import math
import os
import pathlib
import re
import sys
from fractions import Fraction

import pytest

from purepca.cli import main
from purepca.errors import PurePCAError
from purepca.lessons import (ULAB_EPSILON, graded_matrix, pc1_lesson, pc1_page, stopping_lesson, stopping_page,
                             stopping_text, variance_along)
from purepca.linalg.jacobi import jacobi_eigh
from purepca.numeric import BINARY32

mpmath = pytest.importorskip("mpmath")

ROOT = pathlib.Path(__file__).resolve().parent.parent


def _mp_eigenvalues(H: list[list[float]]) -> list["mpmath.mpf"]:
    with mpmath.workdps(80):
        values = mpmath.eigsy(mpmath.matrix(H), eigvals_only=True)
        return sorted((values[i] for i in range(len(H))), reverse=True)


def _mp_digits(value: float, exact: "mpmath.mpf") -> float:
    with mpmath.workdps(80):
        err = abs((mpmath.mpf(value) - exact) / exact)
        return math.inf if err == 0 else float(-mpmath.log10(err))


@pytest.fixture(scope="module")
def lesson():  # type: ignore[no-untyped-def]
    return stopping_lesson(seed=0)


def test_lessons_stopping_every_figure_matches_mpmath(lesson) -> None:  # type: ignore[no-untyped-def]
    exact = _mp_eigenvalues(lesson.H)
    for ref, e in zip(lesson.reference, exact):  # purepca's 50-digit run, against mpmath
        with mpmath.workdps(80):
            assert abs(mpmath.mpf(str(ref)) - e) <= abs(e) * mpmath.mpf(10) ** -45
    for run in lesson.runs:
        for value, digits, e in zip(run.values, run.digits, exact):
            independent = min(max(_mp_digits(value, e), 0.0), run.cap)
            assert abs(independent - digits) < 0.01, (run.name, value, digits, independent)


def test_lessons_stopping_absolute_rules_lose_the_smallest_eigenvalue(lesson) -> None:  # type: ignore[no-untyped-def]
    exact = _mp_eigenvalues(lesson.H)
    relative, absolute, ulab = lesson.runs
    smallest = [_mp_digits(run.values[-1], exact[-1]) for run in lesson.runs]
    assert smallest[0] >= 13, smallest  # the relative rule keeps the small eigenvalue
    assert smallest[0] - smallest[1] >= 6, smallest  # the absolute rule loses at least 6 of those digits
    assert smallest[2] <= 2 and ulab.cap - smallest[2] >= 5, smallest  # ulab's keeps few of binary32's 7.2
    assert relative.precision == absolute.precision == "binary64" and ulab.precision == "binary32"
    # ulab's run: every off-diagonal entry it left is at most 1.2e-7 (or it ran out of rotations, and says so)
    assert "1.2e-7" in ulab.note or "20·n²" in ulab.note


def test_lessons_stopping_runs_are_purepcas_jacobi(lesson) -> None:  # type: ignore[no-untyped-def]
    H = lesson.H
    assert lesson.runs[0].values == [float(v) for v in jacobi_eigh(H).values]
    norm = math.sqrt(math.fsum(x * x for row in H for x in row))
    assert lesson.runs[1].values == [float(v) for v in jacobi_eigh(H, atol=2.0 ** -52 * norm).values]
    ulab = jacobi_eigh(H, context=BINARY32, atol=ULAB_EPSILON, pivot="classical", max_sweeps=48)
    assert lesson.runs[2].values == [float(v) for v in ulab.values]


def test_lessons_stopping_text_and_page_show_the_figures(lesson) -> None:  # type: ignore[no-untyped-def]
    text = stopping_text(lesson)
    page = stopping_page(lesson)
    for run in lesson.runs:
        shown = f"{math.floor(run.digits[-1] * 10) / 10:.1f}"
        assert f"{run.name} {shown}" in text
        assert f"{run.name} keeps <b>{shown}</b> digits" in page
        assert max(run.digits) <= run.cap
    assert "15.9" in text and "7.2" in text and "16.0" not in text  # never above the precision stated
    assert "<script" not in page


def test_lessons_graded_matrix_is_slapnicars_recipe() -> None:
    import random
    rng = random.Random(3)
    D = [math.exp(50 * (rng.random() - 0.5)) for _ in range(4)]  # within an ulp of the correctly rounded exp
    B = [[rng.random() for _ in range(4)] for _ in range(4)]
    H = graded_matrix(4, seed=3)
    for i in range(4):
        for j in range(4):
            a = sum(Fraction(B[k][i]) * Fraction(B[k][j]) for k in range(4))
            assert abs(Fraction(H[i][j]) - Fraction(D[i]) * a * Fraction(D[j])) <= abs(H[i][j]) * 2 ** -49
    with pytest.raises(PurePCAError, match="grading must be <= 100"):
        graded_matrix(4, grading=1000)
    with pytest.raises(PurePCAError, match="n must be <= 40"):
        graded_matrix(41)


def test_lessons_jacobi_atol_is_checked() -> None:
    with pytest.raises(PurePCAError, match="atol must be a finite real number >= 0.0, got -1"):
        jacobi_eigh([[1, 0], [0, 1]], atol=-1)


@pytest.mark.parametrize("pivot", ["threshold", "classical"])
def test_lessons_jacobi_atol_is_in_the_units_of_the_matrix(pivot: str) -> None:
    # a matrix near overflow or underflow is scaled by a power of two inside; atol is scaled with it
    A = [[4.0, 1e-3, 2e-5], [1e-3, 1.0, 1e-4], [2e-5, 1e-4, 1e-6]]
    base = jacobi_eigh(A, atol=1e-4, pivot=pivot)
    assert base.rotations < jacobi_eigh(A, pivot=pivot).rotations  # the rule stopped early: (1, 2) and (0, 2) stay
    for k in (900, -900):
        B = [[math.ldexp(x, k) for x in row] for row in A]
        scaled = jacobi_eigh(B, atol=math.ldexp(1e-4, k), pivot=pivot)
        assert [math.ldexp(x, k) for x in base.values] == scaled.values and base.rotations == scaled.rotations


def test_lessons_variance_along_against_fractions() -> None:
    C = [[2.5, -1.25], [-1.25, 0.75]]
    for angle in (0.0, 0.3, -1.2, 1.5707963267948966):
        c, s = Fraction(math.cos(angle)), Fraction(math.sin(angle))
        a, b, d = (Fraction(x) for x in (C[0][0], C[0][1], C[1][1]))
        captured, residual = variance_along(C, angle)
        assert abs(Fraction(captured) - (c * c * a + 2 * c * s * b + s * s * d)) <= 2 ** -52 * 4
        assert abs(Fraction(residual) - (s * s * a - 2 * c * s * b + c * c * d)) <= 2 ** -52 * 4


def _iris_two() -> list[list[float]]:
    from purepca.datasets import load
    rows = [line.split(",") for line in load("iris").to_csv().splitlines()[1:]]
    return [[float(r[1]), float(r[2])] for r in rows]


def test_lessons_pc1_against_numpy() -> None:
    np = pytest.importorskip("numpy")
    rows = _iris_two()
    lesson = pc1_lesson(rows, ["Sepal.Length", "Sepal.Width"], "iris")
    X = np.array(rows)
    w, V = np.linalg.eigh(np.cov(X.T))
    v = V[:, 1] * np.sign(V[np.argmax(abs(V[:, 1])), 1])
    assert max(abs(a - b) for a, b in zip(lesson.pc1, v)) < 1e-12
    assert abs(lesson.values[0] - w[1]) < 1e-12 * w[1]
    captured, residual = variance_along(lesson.C, math.atan2(lesson.pc1[1], lesson.pc1[0]))
    assert abs(captured - w[1]) < 1e-12 * w[1] and abs(residual - w[0]) < 1e-12 * w[1]
    page = pc1_page(lesson)
    data = json.loads(re.search(r'<script id="lesson-data" type="application/json">(.*?)</script>', page, re.S)
                      .group(1))  # type: ignore[union-attr]
    assert data["pc1"] == lesson.pc1 and data["C"] == lesson.C


def test_lessons_pc1_errors_name_the_problem() -> None:
    with pytest.raises(PurePCAError, match="draws a 2-D cloud: <data> has 3 columns; choose two with --columns"):
        pc1_lesson([[1, 2, 3], [4, 5, 6]])
    with pytest.raises(PurePCAError, match="needs at least 2 rows"):
        pc1_lesson([[1, 2]])
    with pytest.raises(PurePCAError, match="every row of <data> is the same point"):
        pc1_lesson([[1, 2], [1, 2]])


def test_lessons_pc1_page_escapes_names() -> None:
    page = pc1_page(pc1_lesson([[0, 0], [1, 2], [2, 3]], ["<b>x</b>", "y</script><script>alert(1)"], "<i>f</i>"))
    assert "<b>x</b>" not in page and "</script><script>alert" not in page and "<i>f</i>" not in page


def test_lessons_teach_command_stopping_and_pc1(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "stopping.html"
    assert main(["teach", "--lesson", "stopping", "-o", str(out)]) == 0
    text = capsys.readouterr().out
    assert text.startswith("Stopping rules for Jacobi") and "smallest eigenvalue" in text
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert main(["teach", "--lesson", "stopping", "--dataset", "iris"]) == 1
    assert "takes no data" in capsys.readouterr().err
    csv = tmp_path / "cloud.csv"
    csv.write_text("name,a,b,c\nu,1,2,0\nv,2,3.5,1\nw,4,5,2\nz,3,3,9\n", encoding="utf-8")
    page = tmp_path / "pc1.html"
    assert main(["teach", "--lesson", "pc1", str(csv), "--id-column", "name", "--columns", "a,c", "-o", str(page)]) == 0
    html = page.read_text(encoding="utf-8")
    assert "a against c" in html and "4 rows of" in html
    assert main(["teach", "--lesson", "pc1", str(csv), "--id-column", "name", "-o", str(page)]) == 0
    assert "a against b" in page.read_text(encoding="utf-8")  # the first two columns, named
    assert main(["teach", "--lesson", "pc1", "-o", str(page)]) == 0
    assert "Sepal.Length against Sepal.Width" in page.read_text(encoding="utf-8")
    assert main(["teach", "--lesson", "pc1", str(csv), "--dataset", "iris"]) == 1
    assert "give FILE or --dataset, not both" in capsys.readouterr().err
    assert main(["teach", "--lesson", "pc1", "--matrix", str(csv)]) == 1
    assert "--matrix is for the step player" in capsys.readouterr().err
    assert main(["teach", "--lesson", "stopping", "--method", "power"]) == 1
    assert "--method is for the step player, not a lesson" in capsys.readouterr().err


sys.path.insert(0, os.path.dirname(__file__))
from cdp import Browser, chromium  # noqa: E402


@pytest.mark.slow
@pytest.mark.skipif(chromium() is None, reason="no headless Chromium here (Debian: apt-get install chromium)")
def test_lessons_pc1_page_drag_and_snap_in_chromium(tmp_path: pathlib.Path) -> None:
    np = pytest.importorskip("numpy")
    rows = _iris_two()
    lesson = pc1_lesson(rows, ["Sepal.Length", "Sepal.Width"], "iris")
    path = tmp_path / "pc1.html"
    path.write_text(pc1_page(lesson), encoding="utf-8")
    browser = Browser(tmp_path / "profile", width=1400, height=1000)
    try:
        browser.open(path.as_uri())
        # drag: press at one point of the picture, move to another; the axis follows the pointer
        box = browser.evaluate("(() => { const r = document.getElementById('cloud').getBoundingClientRect();"
                               " return [r.left, r.top, r.width]; })()")
        cx, cy = box[0] + box[2] / 2, box[1] + box[2] / 2
        for kind, x, y in (("mousePressed", cx + 100, cy), ("mouseMoved", cx + 100, cy - 60),
                           ("mouseReleased", cx + 100, cy - 60)):
            browser.call("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})
        state = browser.evaluate("window.pc1State()")
        angle = math.atan2(state["direction"][1], state["direction"][0])
        assert abs(math.degrees(angle) - math.degrees(math.atan2(60, 100))) < 1.0
        captured, residual = variance_along(lesson.C, angle)
        assert abs(state["captured"] - captured) <= 1e-12 * captured
        assert abs(state["residual"] - residual) <= 1e-12 * captured
        assert not state["snapped"]
        browser.click("#snap")
        state = browser.evaluate("window.pc1State()")
        assert state["snapped"]
        assert max(abs(a - b) for a, b in zip(state["direction"], lesson.pc1)) <= 1e-12
        w, V = np.linalg.eigh(np.cov(np.array(rows).T))
        assert abs(abs(float(np.dot(state["direction"], V[:, 1]))) - 1) <= 1e-12
        assert abs(state["captured"] - w[1]) <= 1e-12 * w[1]
        assert browser.evaluate("document.getElementById('snapped').textContent") == "the axis is purepca's PC1"
        assert browser.requests() == [] or all(u.startswith("file:") for u in browser.requests())
    finally:
        browser.close()
