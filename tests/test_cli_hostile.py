"""The command on hostile files and paths: the right answer or one clear line (issue 20, lines 3-6, 16-18, 24).

Each case runs the command as ``python -m purepca`` does (``purepca.cli.main`` in this interpreter, with
standard streams over bytes as a pipe gives, warnings shown as a fresh process shows them, the exit status of
a usage error included: a process of its own per run cost 0.2 s on CPython and 0.7 s on PyPy, 100 s of the
test command) and failed before: a quoted cell holding a newline
read as the number 12, ids and headers with commas written unquoted, a duplicate column name read
twice, a row of empty cells dropped without a word, tracebacks for bytes that are not UTF-8, for an
output in a missing directory or naming a directory, and for a field over 131,072 characters, and a
header-only file blamed on --missing drop.
"""

from __future__ import annotations

import contextlib
import csv
import io
import os
import pathlib
import subprocess
import sys
import warnings

import pytest

from purepca import PCA
from purepca.cli import main

#: The answers here depend on the interpreter or the mode: every stage of .ci/test runs them (conftest.py).
pytestmark = pytest.mark.interpreter

ROOT = pathlib.Path(__file__).resolve().parent.parent


def run(*args: str, cwd: pathlib.Path) -> subprocess.CompletedProcess:
    """``python -m purepca ARGS`` in ``cwd``: its exit status, standard output and standard error."""
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    here = os.getcwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), warnings.catch_warnings():
            warnings.resetwarnings()  # a fresh process's filters, and warnings printed to its standard error
            for category in (DeprecationWarning, PendingDeprecationWarning, ImportWarning, ResourceWarning):
                warnings.simplefilter("ignore", category)
            warnings.showwarning = _show_warning
            try:
                code = main(list(args), prog="python -m purepca")
            except SystemExit as stop:  # argparse's usage errors and --version
                code = stop.code if isinstance(stop.code, int) else 1
    finally:
        os.chdir(here)
    out.flush()
    err.flush()
    return subprocess.CompletedProcess(["purepca", *args], code, out.buffer.getvalue().decode("utf-8"),
                                       err.buffer.getvalue().decode("utf-8"))


def _show_warning(message: Warning | str, category: type, filename: str, lineno: int, file: object = None,
                  line: str | None = None) -> None:
    """What a process shows of a warning: its formatted line on standard error (pytest records them instead)."""
    sys.stderr.write(warnings.formatwarning(message, category, filename, lineno, line))


def one_error_line(out: subprocess.CompletedProcess, *needles: str) -> None:
    assert out.returncode == 1, out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in out.stderr, out.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]


def test_cli_hostile_a_quoted_newline_stays_in_its_cell(tmp_path: pathlib.Path) -> None:
    (tmp_path / "f.csv").write_bytes(b'a,b\n"1\n2",3\n4,5\n6,9\n')
    one_error_line(run("fit", "f.csv", cwd=tmp_path), "line 2, column 'a'", "'1\\n2' is not a number")
    (tmp_path / "g.csv").write_bytes(b'id,a,b\n"two\nlines",1,3\nx,4,5\ny,6,9\n')
    out = run("fit", "g.csv", "--id-column", "id", "--save", "m.json", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    out = run("transform", "g.csv", "--model", "m.json", "--id-column", "id", "--format", "csv", cwd=tmp_path)
    assert [row[0] for row in csv.reader(io.StringIO(out.stdout))] == ["id", "two\nlines", "x", "y"]


def test_cli_hostile_csv_output_is_quoted(tmp_path: pathlib.Path) -> None:
    (tmp_path / "n.csv").write_text('name,"a,1",b\n"Smith, John",1,2\nB,2,3\nC,4,1\nD,0,0\n', encoding="utf-8")
    out = run("fit", "n.csv", "--id-column", "name", "--format", "csv", "--save", "m.json", cwd=tmp_path)
    rows = list(csv.reader(io.StringIO(out.stdout)))
    assert {len(r) for r in rows} == {3} and rows[-2][0] == "a,1"
    out = run("transform", "n.csv", "--model", "m.json", "--id-column", "name", "--format", "csv", cwd=tmp_path)
    rows = list(csv.reader(io.StringIO(out.stdout)))
    assert {len(r) for r in rows} == {3} and rows[1][0] == "Smith, John"


def test_cli_hostile_duplicate_column_names_are_refused(tmp_path: pathlib.Path) -> None:
    (tmp_path / "d.csv").write_text("a,a,b\n1,2,3\n2,1,5\n3,3,1\n4,0,2\n", encoding="utf-8")
    one_error_line(run("fit", "d.csv", cwd=tmp_path), "the column name 'a' appears twice (columns 0 and 1")


def test_cli_hostile_a_row_of_empty_cells_is_a_row_of_missing_values(tmp_path: pathlib.Path) -> None:
    (tmp_path / "e.csv").write_text("a,b\n1,2\n,\n2,5\n3,3\n", encoding="utf-8")
    one_error_line(run("fit", "e.csv", cwd=tmp_path), "line 3, column 'a': a missing value")
    out = run("fit", "e.csv", "--missing", "mean", "--format", "json", cwd=tmp_path)
    assert out.returncode == 0 and '"n_samples": 4' in out.stdout, out.stdout
    expected = PCA(convention="prcomp", missing="mean").fit([[1, 2], [None, None], [2, 5], [3, 3]])
    assert f"{expected.sdev[0]!r}" in out.stdout or f"{expected.sdev[0]:.7f}"[:8] in out.stdout


@pytest.mark.parametrize("data", [b"a,b\n1,\xe9\n", "a,b\n1,2\n3,4\n".encode("utf-16"), b"\x89PNG\r\n\x1a\n\x00\x00"])
@pytest.mark.parametrize("command", [["fit"], ["fit", "--stream", "always"], ["kernel"], ["plot"], ["trace"]])
def test_cli_hostile_bytes_that_are_not_utf8_are_one_line(tmp_path: pathlib.Path, data: bytes,
                                                          command: list[str]) -> None:
    (tmp_path / "x.csv").write_bytes(data)
    args = [command[0], "x.csv", *command[1:]]
    one_error_line(run(*args, cwd=tmp_path), "x.csv", "is not utf-8 text", "--encoding")


def test_cli_hostile_encoding_option_reads_latin1(tmp_path: pathlib.Path) -> None:
    (tmp_path / "l.csv").write_bytes("nom,a,b\nél,1,2\nça,2,5\nou,3,3\n".encode("latin-1"))
    out = run("fit", "l.csv", "--id-column", "nom", "--encoding", "latin-1", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    one_error_line(run("fit", "l.csv", "--encoding", "klingon", cwd=tmp_path), "--encoding 'klingon'")


@pytest.mark.parametrize("option", ["--output", "--save", "--scores"])
def test_cli_hostile_output_paths_are_checked_before_the_work(tmp_path: pathlib.Path, option: str) -> None:
    one_error_line(run("fit", "--dataset", "toy", option, str(tmp_path / "no" / "out.txt"), cwd=tmp_path),
                   option, "does not exist")
    one_error_line(run("fit", "--dataset", "toy", option, str(tmp_path), cwd=tmp_path), option, "is a directory")
    assert os.listdir(tmp_path) == []  # nothing half-written


def test_cli_hostile_a_huge_field_is_one_line(tmp_path: pathlib.Path) -> None:
    (tmp_path / "h.csv").write_text('a,b\n"' + "x" * 200_000 + '",1\n', encoding="utf-8")
    one_error_line(run("fit", "h.csv", cwd=tmp_path), "line 2", "not readable as CSV", "a quote left open?")


def test_cli_hostile_a_header_only_file_says_so(tmp_path: pathlib.Path) -> None:
    (tmp_path / "h.csv").write_text("a,b\n", encoding="utf-8")
    one_error_line(run("fit", "h.csv", cwd=tmp_path), "no data rows (only the header line)")


def test_cli_hostile_teach_takes_the_shared_output_and_encoding_options(tmp_path: pathlib.Path) -> None:
    (tmp_path / "l.csv").write_bytes("nom,a,b\nél,1,2\nça,2,3.5\nou,3,3\nzé,5,1\n".encode("latin-1"))
    one_error_line(run("teach", "l.csv", "--id-column", "nom", "-o", "t.html", cwd=tmp_path), "is not utf-8 text")
    out = run("teach", "l.csv", "--id-column", "nom", "--encoding", "latin-1", "-o", "t.html", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "t.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    one_error_line(run("teach", "l.csv", "-o", str(tmp_path / "no" / "t.html"), cwd=tmp_path), "does not exist")


@pytest.mark.parametrize("brk", list("\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"))
def test_cli_hostile_every_line_break_in_a_message_is_escaped(tmp_path: pathlib.Path, brk: str,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    # str.splitlines() breaks at ten characters; the error line escaped only \n and \r, so PyPy's json
    # message naming a form feed (assess toy data.csv, data b'\x0c3\n') came out as two lines (fuzz).
    from purepca.cli import main

    name = str(tmp_path / f"a{brk}b.csv")
    assert main(["fit", name]) == 1
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and repr(brk)[1:-1] in lines[0], lines


def test_cli_hostile_a_usage_error_quoting_a_line_break_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    # argparse quotes an unknown argument as given: '--bo\ngus' made a usage error of two lines.
    from purepca.cli import main

    with pytest.raises(SystemExit) as exit_:
        main(["fit", "--dataset", "toy", "--bo\ngus\u2028x"])
    lines = capsys.readouterr().err.strip().splitlines()
    assert exit_.value.code == 2 and len(lines) == 1 and "--bo\\ngus\\u2028x" in lines[0], lines
