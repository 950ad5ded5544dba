"""The classroom's foundations: hostile titles and numbers, the one writer door, the one escaper.

A title holding a template marker or ``<!--<script>`` must stay text and the
player must still run; the replay must give the right digits or one clear
error on matrices near the ends of the float range; ``teach -o`` must write
as ``fit -o`` does (``-``, links, devices, FIFOs, ``/dev/stdout`` as a link to
``/proc/self/fd/1``), in a scratch directory, never in the machine's /dev.
"""

from __future__ import annotations

import ast
import json
import os
import pathlib
import re
import stat
import subprocess
import sys
import threading

import pytest

from purepca.cli import main
from purepca.markup import escape_text, fill_template, json_for_script
from purepca.player import jacobi_run, player_html, teach

ROOT = pathlib.Path(__file__).resolve().parent.parent
M3 = [[4.0, 1.0, 0.5], [1.0, 3.0, 0.3], [0.5, 0.3, 2.0]]
HOSTILE = ["%CSS%", "%SCRIPT%", "%DATA%", "%TITLE%", "<!--<script>", "</script><!--<script>", "a & 'b' \"c\""]


def _blob(page: str) -> str:
    match = re.search(r'<script type="application/json" id="run-data">(.*?)</script>', page, re.S)
    assert match is not None
    return match.group(1)


@pytest.mark.parametrize("title", HOSTILE)
def test_player_html_title_with_markers_or_markup_stays_text(title: str) -> None:
    # On 768b701 %SCRIPT% in a title became the page's script (three copies of it), %CSS% its style sheet,
    # and <!--<script> opened an escaped comment in the data block, so that </script> did not end it.
    page = player_html(jacobi_run(M3, title=title))
    assert page.count("<script") == 2 and page.count("</script>") == 2
    assert page.count('"use strict"') == 1 and page.count("<style>") == 1
    assert f"<title>{escape_text(title)}</title>" in page and f'<h1 id="title">{escape_text(title)}</h1>' in page
    blob = _blob(page)
    assert "<" not in blob and json.loads(blob)["run"]["title"] == title


def test_escape_text_escapes_the_five_characters_and_nothing_else() -> None:
    assert escape_text("<a href='x' title=\"y\">&amp;</a>é") == \
        "&lt;a href=&#x27;x&#x27; title=&quot;y&quot;&gt;&amp;amp;&lt;/a&gt;é"


def test_fill_template_never_rescans_a_value() -> None:
    assert fill_template("%A%|%B%|%A%", {"A": "%B%", "B": "%A%"}) == "%B%|%A%|%B%"


def test_fill_template_names_a_marker_without_value() -> None:
    from purepca import PurePCAError
    with pytest.raises(PurePCAError, match=r"the template marker %DATA% has no value"):
        fill_template("<p>%DATA%</p>", {})


def test_json_for_script_reads_back_the_same_value() -> None:
    value = {"t": "<!--<script></script>\u2028\u2029"}
    text = json_for_script(json.dumps(value))
    assert "<" not in text and "\u2028" not in text and json.loads(text) == value


def test_svg_escapes_through_the_one_escaper() -> None:
    import purepca.svg as svg
    assert svg.escape is escape_text


def test_player_imports_nothing_from_the_command_line() -> None:
    # player.teach_command imported cli's reader, cli imports player: a circle across the house's layers.
    tree = ast.parse((ROOT / "purepca" / "player.py").read_text(encoding="utf-8"))
    modules = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert "cli" not in modules and "purepca.cli" not in modules, modules


def test_teach_output_dash_prints(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str],
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # On 768b701 'teach -o -' wrote a file named '-' (fit prints).
    monkeypatch.chdir(tmp_path)
    assert main(["teach", "--dataset", "toy", "--replay-digits", "0", "-o", "-"]) == 0
    assert not (tmp_path / "-").exists()
    out = capsys.readouterr().out
    assert out.startswith("<!DOCTYPE html>") and out.endswith("</html>\n")


def test_teach_output_link_replaces_its_target_and_keeps_the_link(tmp_path: pathlib.Path) -> None:
    target = tmp_path / "page.html"
    target.write_text("old\n")
    os.chmod(target, 0o640)
    link = tmp_path / "link.html"
    link.symlink_to(target)
    assert main(["teach", "--dataset", "toy", "--replay-digits", "0", "-o", str(link)]) == 0
    assert link.is_symlink() and target.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.html", "page.html"]  # no page.html.tmp left


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs as on POSIX")
def test_teach_output_fifo_is_written_into(tmp_path: pathlib.Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    assert main(["teach", "--dataset", "toy", "--replay-digits", "0", "-o", str(fifo)]) == 0
    reader.join(10)
    assert fifo.is_fifo() and got and got[0].startswith(b"<!DOCTYPE html>")


@pytest.mark.skipif(not hasattr(os, "mknod") or os.geteuid() != 0, reason="a device node needs root")
def test_teach_output_device_in_a_scratch_directory_stays_a_device(tmp_path: pathlib.Path) -> None:
    null = tmp_path / "null"
    try:
        os.mknod(null, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # a /dev/null of our own, not the machine's
    except OSError as err:
        pytest.skip(f"cannot make a device node here: {err}")
    assert main(["teach", "--dataset", "toy", "--replay-digits", "0", "-o", str(null)]) == 0
    assert stat.S_ISCHR(null.stat().st_mode)


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists("/proc/self/fd/1"), reason="/proc/self/fd as on Linux")
def test_teach_output_link_to_proc_self_fd_1_prints(tmp_path: pathlib.Path) -> None:
    # What /dev/stdout is: on 768b701, as root, the page replaced the link by a regular file.
    link = tmp_path / "stdout"
    link.symlink_to("/proc/self/fd/1")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "purepca", "teach", "--dataset", "toy", "--replay-digits", "0",
                           "-o", str(link)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert link.is_symlink() and os.readlink(link) == "/proc/self/fd/1"
    assert done.stdout.startswith("<!DOCTYPE html>") and sorted(p.name for p in tmp_path.iterdir()) == ["stdout"]


M5 = [[4.0, 1.0, 0.5, 0.2, 0.1], [1.0, 3.0, 0.3, 0.1, 0.2], [0.5, 0.3, 2.0, 0.4, 0.1],
      [0.2, 0.1, 0.4, 1.0, 0.3], [0.1, 0.2, 0.1, 0.3, 0.5]]


def _last_digits(r: dict[str, object], key: str) -> float:
    return max(row[key] or 0.0 for row in r["sweeps"] if row.get(key) is not None)  # type: ignore[attr-defined]


def test_replay_three_precisions_stop_near_7_16_and_50_digits() -> None:
    from purepca.player import replay
    r = replay(M5, 50)
    assert 6.3 < _last_digits(r, "binary32_value_digits") < 8.2
    assert 14.5 < _last_digits(r, "float_value_digits") < 17.5
    assert 6.0 < _last_digits(r, "binary32_digits") < 11.0 and 14.5 < _last_digits(r, "float_digits") < 20.0
    assert _last_digits(r, "exact_digits") > 45


M5_INTEGERS = [[40.0, 10.0, 5.0, 2.0, 1.0], [10.0, 30.0, 3.0, 1.0, 2.0], [5.0, 3.0, 20.0, 4.0, 1.0],
               [2.0, 1.0, 4.0, 10.0, 3.0], [1.0, 2.0, 1.0, 3.0, 5.0]]


@pytest.mark.parametrize("M, scale", [(M5, 1e-300), (M5, 1e-200), (M5, 1e200), (M5, 1e300), (M5, 1.7e308 / 4.6),
                                      (M5_INTEGERS, 2.0 ** -1074), (M5_INTEGERS, 2.0 ** 1017)])
def test_replay_near_the_ends_of_the_float_range_gives_the_digits_of_the_unscaled_matrix(
        M: list[list[float]], scale: float) -> None:
    # On 768b701: ValueError (math domain error) at 1e-300 and with subnormal entries, OverflowError at
    # 1e200, 1e300 and 1.7e308, and at 1e-200 the float run "diagonal to 220 digits" (the norm's squares underflowed).
    from purepca.player import replay
    plain = replay(M, 50)
    r = replay([[x * scale for x in row] for row in M], 50)
    for key in ("float_digits", "exact_digits", "binary32_digits"):
        assert abs(_last_digits(r, key) - _last_digits(plain, key)) < 1.0, (key, r["sweeps"])
    assert 14.5 < _last_digits(r, "float_value_digits") < 17.5 and 6.3 < _last_digits(r, "binary32_value_digits") < 8.2
    json.dumps(r, allow_nan=False)  # every number on the page is finite (or a decimal string)


def test_replay_at_the_largest_float_shows_values_beyond_it_as_decimal_strings() -> None:
    from purepca.player import replay
    big = 1.7976931348623157e308
    r = replay([[big, big / 2], [big / 2, big]], 30)
    assert r["values"][0].startswith("2.6965397022934") and isinstance(r["norm"], str)
    assert _last_digits(r, "float_value_digits") > 15 and json.dumps(r, allow_nan=False)


def test_data_run_shift_beyond_the_squares_range_reports_the_naive_overflow() -> None:
    # On 768b701 data_run(X, shift=1e200) raised ValueError: cannot convert NaN to integer ratio.
    from purepca.player import data_run
    r = data_run([[1.0, 2.0], [2.0, 3.5], [3.0, 1.0]], shift=1e200)
    assert all(e["naive"] == "nan (overflow)" and e["naive_digits"] == 0.0 for e in r["naive"]["entries"])
    assert json.dumps(r, allow_nan=False)


@pytest.mark.parametrize("shift, message", [
    (float("inf"), r"shift must be a finite real number, got inf"),
    (1.7e308, r"shift: 1.7e\+308 added to the data overflows the float range at row 2, column 1"),
])
def test_data_run_shift_that_is_not_finite_is_named(shift: float, message: str) -> None:
    from purepca import PurePCAError
    from purepca.player import data_run
    with pytest.raises(PurePCAError, match=message):
        data_run([[1.0, 2.0], [2.0, 3.5], [3.0, 1.7e308]], shift=shift)


def _browser_or_skip() -> object:
    sys.path.insert(0, os.path.dirname(__file__))
    from cdp import chromium
    if sys.version_info[:2] != (3, 11) or not (ROOT / ".git").exists():
        pytest.skip("browser tests run once per CI run: CPython 3.11 in a git checkout")
    if chromium() is None:
        pytest.skip("no headless Chromium here (Debian: apt-get install chromium; .ci/test installs it)")
    return chromium


@pytest.mark.slow
def test_player_with_a_hostile_title_runs_and_shows_three_precisions_in_chromium(tmp_path: pathlib.Path) -> None:
    # On 768b701 the title '<!--<script>' kept the data block open: the page showed no step and no table.
    _browser_or_skip()
    from cdp import Browser
    title = "<!--<script> %SCRIPT% %DATA% %CSS%"
    page = tmp_path / "hostile.html"
    page.write_text(teach("jacobi", matrix=M5, title=title), encoding="utf-8")
    browser = Browser(tmp_path / "profile")
    try:
        browser.open(page.as_uri())
        assert browser.evaluate("document.getElementById('title').textContent") == title
        assert browser.evaluate("document.title") == title
        assert browser.evaluate("document.body.dataset.frame") == "0"
        browser.click("#next")
        assert browser.evaluate("document.body.dataset.frame") == "1"
        heads = browser.evaluate("[...document.querySelectorAll('#replay-table th')].map(t => t.textContent)")
        assert heads[-4:] == ["off(A) binary32", "digits", "gained", "eigenvalue digits (binary32)"], heads
        single = browser.evaluate("[...document.querySelectorAll('#replay-table tr')].slice(1)"
                                  ".map(r => r.children[11].textContent)")
        shown = [float(x) for x in single if x]
        assert 6.3 < max(shown) < 8.2, single
        text = browser.evaluate("document.getElementById('replay').textContent")
        assert "binary32" in text and "near 7 digits" in text and "near 16" in text
    finally:
        browser.close()


@pytest.mark.slow
def test_player_number_format_control_and_cells_that_fit_in_chromium(tmp_path: pathlib.Path) -> None:
    # On 768b701 the page showed six significant digits whatever --digits was, and entries such as
    # -9.01591e-42 ran out of their 64 px cells.
    _browser_or_skip()
    from cdp import Browser
    M = [[4.0, -9.015906e-42, 0.5], [-9.015906e-42, 3.0, 1e-30], [0.5, 1e-30, 2.0]]
    page = tmp_path / "format.html"
    page.write_text(teach("jacobi", matrix=M, digits=30, replay_digits=0), encoding="utf-8")
    browser = Browser(tmp_path / "profile")
    try:
        browser.open(page.as_uri())
        options = browser.evaluate("[...document.querySelectorAll('#format-digits option')].map(o => o.value)")
        assert options == ["6", "10", "17", "30"]
        fits = ("[...document.querySelectorAll('#matrix text.entry')].every(t => {"
                " const r = t.previousSibling.getBBox(), b = t.getBBox();"
                " return b.x >= r.x && b.x + b.width <= r.x + r.width; })")
        for digits, notation in (("6", "auto"), ("17", "scientific"), ("30", "fixed"), ("30", "scientific")):
            browser.evaluate(f"(() => {{ const d = document.getElementById('format-digits'); d.value = '{digits}';"
                             " d.onchange(); const n = document.getElementById('format-notation');"
                             f" n.value = '{notation}'; n.onchange(); }})()")
            assert browser.evaluate(fits), (digits, notation)
            entry = browser.evaluate("document.querySelector('#matrix text.entry[data-r=\"0\"][data-c=\"1\"]').textContent")
            mantissa = re.sub(r"e-?\d+$", "", entry).replace("-", "").replace(".", "").lstrip("0")
            assert len(mantissa) == int(digits), (digits, notation, entry)
            if notation == "scientific":
                assert entry.endswith("e-42"), entry
            if notation == "fixed":
                assert entry.startswith("-0.0000000000") and "e" not in entry, entry
        browser.click("#next")
        theta = browser.evaluate("document.getElementById('theta').textContent")
        assert len(re.sub(r"e-?\d+$", "", theta).replace("-", "").replace(".", "").lstrip("0")) == 30, theta
    finally:
        browser.close()


def test_teach_scale_diagonalises_the_correlation_matrix(tmp_path: pathlib.Path) -> None:
    # On 768b701 teach had no --scale (trace had): "unrecognized arguments: --scale".
    from purepca.covariance import correlation_matrix
    from purepca.datasets import toy_data
    out = tmp_path / "corr.html"
    assert main(["teach", "--dataset", "toy", "--scale", "--replay-digits", "0", "-o", str(out)]) == 0
    run = json.loads(_blob(out.read_text(encoding="utf-8")))["run"]
    assert run["frames"][0]["matrix"] == correlation_matrix(toy_data()) and run["scale"] is True
    assert run["title"] == "Jacobi's method on a correlation matrix"
    assert abs(sum(x * x for x, _ in run["data"]) / (len(run["data"]) - 1) - 1.0) < 1e-12  # standardised cloud
    for method in ("power", "tridiagonal"):
        assert main(["teach", "--dataset", "toy", "--scale", "--method", method, "--replay-digits", "0",
                     "-o", str(out)]) == 0
        assert json.loads(_blob(out.read_text(encoding="utf-8")))["run"]["matrix"][0][0] == 1.0


def test_teach_scale_of_a_matrix_is_named() -> None:
    from purepca import PurePCAError
    with pytest.raises(PurePCAError, match="teach: scale makes the correlation matrix of data; a matrix given"):
        teach("jacobi", matrix=M3, scale=True)


def test_trace_prints_late_rotations_to_their_significant_digits(capsys: pytest.CaptureFixture[str],
                                                                 tmp_path: pathlib.Path) -> None:
    # On 768b701 the late rotations of this matrix were printed as "0.000000 rad (   0.0000°)".
    matrix = tmp_path / "m5.csv"
    matrix.write_text("\n".join(",".join(map(repr, row)) for row in M5) + "\n")
    assert main(["trace", "--matrix", str(matrix), "--method", "jacobi"]) == 0
    text = capsys.readouterr().out
    assert "0.000000 rad" not in text and " 0.0000°" not in text
    assert "rotate (2, 3) by 1.00622e-12 rad (5.76524e-11°)" in text
    assert main(["trace", "--matrix", str(matrix), "--method", "jacobi", "--significant", "10",
                 "--notation", "scientific"]) == 0
    assert "rotate (2, 3) by 1.006224289e-12 rad (5.765240497e-11°)" in capsys.readouterr().out
    assert main(["trace", "--matrix", str(matrix), "--significant", "18"]) == 1
    assert "--significant must be between 1 and 17, got 18" in capsys.readouterr().err


def test_playground_prepare_names_the_setuptools_it_needs(tmp_path: pathlib.Path) -> None:
    # On 768b701 prepare.py with setuptools < 77 failed inside the build backend (license = "MIT" is
    # PEP 639, read from setuptools 77 on) without saying which version it needs.
    fake = tmp_path / "fake" / "setuptools"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text('__version__ = "65.5.0"\n')
    env = dict(os.environ, PYTHONPATH=str(tmp_path / "fake"))
    done = subprocess.run([sys.executable, str(ROOT / "docs" / "playground" / "prepare.py"), "--out",
                           str(tmp_path / "wheels")], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert "needs setuptools >= 77" in done.stderr and "this Python has setuptools 65.5.0" in done.stderr
    assert "pip install 'setuptools>=77'" in done.stderr and not (tmp_path / "wheels" / "purepca.whl").exists()


def test_jacobi_run_past_the_float_range_is_one_clear_error() -> None:
    # On 768b701 a page of M3 scaled by 4e307 (eigenvalues near 1.9e308) raised OverflowError: math range error.
    from purepca import PurePCAError
    scaled = [[x * 4.0476e307 for x in row] for row in M3]
    with pytest.raises(PurePCAError, match=r"player: a step of Jacobi on this matrix is beyond the float range"):
        jacobi_run(scaled)
    run = jacobi_run(scaled, digits=30)  # at N digits there is no range to leave
    assert run["values"][0].startswith("1.9") and run["values"][0].endswith("E+308")


def test_teach_command_title_with_every_marker_is_text_in_the_file(tmp_path: pathlib.Path) -> None:
    # purepca teach --title '%CSS%%SCRIPT%%DATA%%TITLE%<!--<script>': on 768b701 the page's own parts.
    out = tmp_path / "t.html"
    title = "%CSS%%SCRIPT%%DATA%%TITLE%<!--<script>"
    assert main(["teach", "--dataset", "toy", "--title", title, "--replay-digits", "0", "-o", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert page.count('"use strict"') == 1 and page.count("</script>") == 2 and "<!--" not in page
    assert json.loads(_blob(page))["run"]["title"] == title and f"<title>{escape_text(title)}</title>" in page
