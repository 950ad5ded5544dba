"""The player's and trace's doors under misuse (issue 41): a PurePCAError that names what is wrong, the
option's name on the command line, limits checked before any work.  Each failed on 1d257ef."""

from __future__ import annotations

import math
import pathlib
import time
from typing import Any

import pytest

from purepca import PurePCAError
from purepca.cli import main
from purepca.player import code_of, jacobi_run, player_html, power_run, teach, to_json, tridiagonal_run
from purepca.teaching import trace_jacobi, trace_power

M3 = [[4.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 2.0]]


def _cli(args: list[str], capsys: Any) -> tuple[int, str, str]:
    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


def _csv(tmp_path: pathlib.Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


# ---------------------------------------------------------------- the top of the float range
@pytest.mark.parametrize("method", ["jacobi", "tridiagonal"])
def test_teach_matrix_beyond_float_range_is_refused_with_the_way_out(method: str) -> None:
    big = [[1.0, 1.7e308], [1.7e308, 1.0]] if method == "jacobi" else [[1.7e308, 1e308], [1e308, 1.7e308]]
    with pytest.raises(PurePCAError, match="beyond the float range.*digits=N"):
        teach(method, matrix=big, replay_digits=0)


def test_teach_command_beyond_float_range_exits_with_one_line(tmp_path: pathlib.Path, capsys: Any) -> None:
    path = _csv(tmp_path, "big.csv", "1,1.7e308\n1.7e308,1\n")
    code, _, err = _cli(["teach", "--matrix", path, "-o", str(tmp_path / "o.html")], capsys)
    assert code != 0 and "beyond the float range" in err and "Traceback" not in err
    path = _csv(tmp_path, "big2.csv", "1.7e308,1e308\n1e308,1.7e308\n")
    code, _, err = _cli(["teach", "--matrix", path, "--method", "tridiagonal", "-o", str(tmp_path / "o.html")], capsys)
    assert code != 0 and "beyond the float range" in err


def test_trace_matrix_beyond_float_range_is_refused(tmp_path: pathlib.Path, capsys: Any) -> None:
    with pytest.raises(PurePCAError, match="trace_jacobi: a step on this matrix is beyond the float range"):
        trace_jacobi([[1.7e308, 1e308], [1e308, 1.7e308]])
    path = _csv(tmp_path, "big2.csv", "1.7e308,1e308\n1e308,1.7e308\n")
    code, _, err = _cli(["trace", "--matrix", path], capsys)
    assert code != 0 and "beyond the float range" in err


def test_trace_jacobi_off_norm_past_the_range_is_refused_not_printed_as_inf() -> None:
    with pytest.raises(PurePCAError, match="beyond the float range"):
        trace_jacobi([[1.0, 1.7e308], [1.7e308, 1.0]])  # off(A) = 2.4e308
    text = trace_jacobi([[1.0, 1.2e308], [1.2e308, 1.0]])  # off(A) = 1.7e308; Σ|λ| = 2.4e308 would overflow
    assert "tolerance 5.33e+292" in text and "inf" not in text


def test_teach_tridiagonal_at_30_digits_runs_near_the_top() -> None:
    page = teach("tridiagonal", matrix=[[1.7e308, 1e308], [1e308, 1.7e308]], digits=30, replay_digits=0)
    assert page.startswith("<!DOCTYPE html>")


# ---------------------------------------------------------------- misuse of the Python doors
def test_tridiagonal_run_empty_matrix_is_refused() -> None:
    with pytest.raises(PurePCAError, match="the matrix is empty"):
        tridiagonal_run([])
    with pytest.raises(PurePCAError, match="the matrix is empty"):
        jacobi_run([])


def test_player_html_not_a_run_is_refused() -> None:
    with pytest.raises(PurePCAError, match="player_html: run must be a player run .* got NoneType"):
        player_html(None)  # type: ignore[arg-type]
    with pytest.raises(PurePCAError, match="replay_table must be a replay"):
        player_html(jacobi_run([[2.0, 1.0], [1.0, 2.0]]), replay_table=[1])  # type: ignore[arg-type]


def test_to_json_value_json_cannot_write_is_refused() -> None:
    with pytest.raises(PurePCAError, match="to_json: the run holds a value JSON cannot write"):
        to_json({"a": b"x"})
    with pytest.raises(PurePCAError, match="to_json: a run is a dict"):
        to_json(None)  # type: ignore[arg-type]
    with pytest.raises(PurePCAError, match="beyond the float range"):
        to_json({"a": math.inf})


def test_code_of_unknown_method_is_refused() -> None:
    with pytest.raises(PurePCAError, match="code_of: method must be one of jacobi, power, subspace, tridiagonal, "
                                           "got 'bogus'"):
        code_of("bogus")
    with pytest.raises(PurePCAError, match="code_of: method must be one of"):
        code_of(["jacobi"])  # type: ignore[arg-type]
    with pytest.raises(PurePCAError, match="code_of: variant must be"):
        code_of("jacobi", "sideways")


@pytest.mark.parametrize("title", [b"x", math.nan, 3, ["t"]])
def test_teach_title_not_text_is_refused(title: Any) -> None:
    with pytest.raises(PurePCAError, match="teach: title must be text"):
        teach("jacobi", matrix=M3, title=title, replay_digits=0)


@pytest.mark.parametrize("components", ["3", 2.5, None.__class__, True])
def test_teach_components_not_an_int_is_refused(components: Any) -> None:
    with pytest.raises(PurePCAError, match="components must be"):
        teach("subspace", matrix=M3, components=components, replay_digits=0)


@pytest.mark.parametrize("components", [-3, 0])
@pytest.mark.parametrize("method", ["power", "subspace"])
def test_teach_components_below_one_is_refused(method: str, components: int) -> None:
    with pytest.raises(PurePCAError, match="components must be a positive int"):
        teach(method, matrix=M3, components=components, replay_digits=0)


def test_teach_components_beyond_the_order_is_refused() -> None:
    with pytest.raises(PurePCAError, match="teach: components must be at most 3, the order of the matrix, got 4"):
        teach("power", matrix=M3, components=4, replay_digits=0)


def test_teach_subspace_components_one_is_a_block_of_one() -> None:
    page = teach("subspace", matrix=M3, components=1, replay_digits=0)
    assert '"block_size":1' in page and '"k":1' in page


def test_teach_shift_with_a_matrix_is_refused_as_scale_is() -> None:
    with pytest.raises(PurePCAError, match="teach: shift moves the data's values; a matrix given has no data"):
        teach("jacobi", matrix=M3, shift=1e8)
    with pytest.raises(PurePCAError, match="teach: scale makes the correlation matrix of data"):
        teach("jacobi", matrix=M3, scale=True)


@pytest.mark.parametrize("digits", [1, 16])
def test_teach_replay_digits_below_17_is_refused(digits: int) -> None:
    with pytest.raises(PurePCAError, match="replay_digits must be 0 \\(no replay\\) or an int >= 17"):
        teach("jacobi", matrix=M3, replay_digits=digits)


def test_teach_wide_data_is_refused_before_the_covariance() -> None:
    rows = [[float(i * j % 7) for j in range(10_000)] for i in range(3)]
    start = time.perf_counter()
    with pytest.raises(PurePCAError, match="teach: the data have 10000 columns; the player draws a covariance of at most 12"):
        teach("jacobi", data=rows)
    assert time.perf_counter() - start < 0.5


def test_trace_power_k_beyond_the_order_is_refused() -> None:
    with pytest.raises(PurePCAError, match="trace_power: k = 99 is more than the 3 eigenpairs"):
        trace_power(M3, 99)


# ---------------------------------------------------------------- the commands: options named, limits first
@pytest.mark.parametrize("option, value, message", [
    ("--replay-digits", "16", "teach: --replay-digits must be 0 (no replay table) or at least 17, got 16"),
    ("--components", "0", "teach: --components must be at least 1, got 0"),
    ("--components", "-3", "teach: --components must be at least 1, got -3"),
    ("--digits", "5", "teach: --digits must be at least 17"),
    ("--shift", "1e8", "teach: --shift moves the data's values; --matrix gives no data to shift"),
    ("--scale", None, "teach: --scale makes the correlation matrix of data; --matrix gives no data to scale"),
])
def test_teach_command_option_errors_name_the_option(tmp_path: pathlib.Path, capsys: Any, option: str,
                                                     value: Any, message: str) -> None:
    path = _csv(tmp_path, "m.csv", "4,1,0\n1,3,1\n0,1,2\n")
    out = tmp_path / "o.html"
    code, _, err = _cli(["teach", "--matrix", path, option] + ([value] if value else []) + ["-o", str(out)], capsys)
    assert code != 0 and message in err and not out.exists()


def test_teach_command_components_beyond_the_order_is_refused(tmp_path: pathlib.Path, capsys: Any) -> None:
    path = _csv(tmp_path, "m.csv", "4,1,0\n1,3,1\n0,1,2\n")
    code, _, err = _cli(["teach", "--matrix", path, "--method", "power", "--components", "99", "-o",
                         str(tmp_path / "o.html")], capsys)
    assert code != 0 and "--components 99 is more than the 3 eigenpairs of a 3 x 3 matrix" in err


def test_teach_command_empty_matrix_file_exits_non_zero(tmp_path: pathlib.Path, capsys: Any) -> None:
    path = _csv(tmp_path, "empty.csv", "")
    code, _, err = _cli(["teach", "--matrix", path, "-o", str(tmp_path / "o.html")], capsys)
    assert code != 0 and err.strip()


def test_teach_command_empty_output_is_refused_before_the_work(tmp_path: pathlib.Path, capsys: Any) -> None:
    path = _csv(tmp_path, "m.csv", "4,1,0\n1,3,1\n0,1,2\n")
    code, _, err = _cli(["teach", "--matrix", path, "-o", ""], capsys)
    assert code != 0 and "--output '': an empty file name" in err  # the one file door's words


def test_trace_command_components_beyond_the_order_is_refused(tmp_path: pathlib.Path, capsys: Any) -> None:
    path = _csv(tmp_path, "m.csv", "4,1,0\n1,3,1\n0,1,2\n")
    code, out, err = _cli(["trace", "--matrix", path, "--components", "99"], capsys)
    assert code != 0 and "trace: --components 99 is more than the 3 eigenpairs of a 3 x 3 matrix" in err


def test_trace_command_significant_names_the_option(tmp_path: pathlib.Path, capsys: Any) -> None:
    path = _csv(tmp_path, "m.csv", "4,1,0\n1,3,1\n0,1,2\n")
    code, _, err = _cli(["trace", "--matrix", path, "--significant", "0"], capsys)
    assert code != 0 and "trace: --significant must be between 1 and 17, got 0" in err


@pytest.mark.parametrize("command", ["teach", "trace"])
def test_wide_csv_is_refused_before_any_matrix(tmp_path: pathlib.Path, capsys: Any, command: str) -> None:
    header = ",".join(f"c{j}" for j in range(10_000))
    body = "\n".join(",".join(str((i * j) % 7) for j in range(10_000)) for i in range(3))
    path = _csv(tmp_path, "wide.csv", header + "\n" + body + "\n")
    start = time.perf_counter()
    code, _, err = _cli([command, path] + (["-o", str(tmp_path / "o.html")] if command == "teach" else []), capsys)
    assert code != 0 and "10000" in err and ("at most 12 x 12" in err or "at most 100 x 100" in err)
    assert time.perf_counter() - start < 5  # reading the table; 1d257ef formed the 10,000 x 10,000 covariance


def test_power_run_start_of_wrong_length_is_an_error_not_a_crash() -> None:
    with pytest.raises(PurePCAError):
        power_run(M3, start=[1.0])


# ---------------------------------------------------------------- the playground's door (run in Pyodide)
def test_playground_fit_takes_a_typed_symmetric_matrix() -> None:
    import json
    from purepca.player import _playground_fit
    mpmath = pytest.importorskip("mpmath")
    text = "5,2,0,1\n2,4,1,0\n0,1,3,1\n1,0,1,2\n"
    out = json.loads(_playground_fit(text, "matrix", "jacobi"))
    assert "error" not in out and out["kind"] == "matrix" and out["rows"] == []
    assert out["covariance"] == [[5, 2, 0, 1], [2, 4, 1, 0], [0, 1, 3, 1], [1, 0, 1, 2]]
    with mpmath.workdps(40):
        truth = sorted(mpmath.eigsy(mpmath.matrix(out["covariance"]))[0], reverse=True)
        assert all(abs(mpmath.mpf(float(v)) - t) < 1e-14 * abs(t) for v, t in zip(out["variance"], truth))
    assert out["page"].startswith("<!DOCTYPE html>")


def test_playground_fit_csv_with_a_label_column_and_one_line_errors() -> None:
    import json
    from purepca.player import _playground_fit
    text = "name,x,y\na,2.5,2.4\nb,0.5,0.7\nc,2.2,2.9\nd,1.9,2.2\n"
    out = json.loads(_playground_fit(text, "data", "jacobi", 0.0, "name"))
    assert out["names"] == ["x", "y"] and len(out["rows"]) == 4
    bad = json.loads(_playground_fit(text, "data", "jacobi"))  # the label column not named: one line saying so
    assert "error" in bad and "\n" not in bad["error"] and "name" in bad["error"]
    ragged = json.loads(_playground_fit("1,2\n2\n", "matrix", "jacobi"))
    assert "error" in ragged and "\n" not in ragged["error"]
    asym = json.loads(_playground_fit("1,2\n3,1\n", "matrix", "jacobi"))
    assert "error" in asym and "symmetric" in asym["error"]
