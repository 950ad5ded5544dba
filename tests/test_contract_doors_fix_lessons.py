"""The doors fixed for the contract fuzzer's known findings (issue 41, acceptance 5): lessons, exercise,
certified, testing (compare, kernel, assess), micro, params, markup, cli, files.  Each hostile value is
refused with a PurePCAError naming the parameter, before any work."""

from __future__ import annotations

import math
import os
from decimal import Decimal
from typing import Any, Callable

import pytest

from purepca import cli, exercise, files, lessons, markup, micro, params
from purepca.certified import build as cbuild, check_certificate
from purepca.errors import PurePCAError
from purepca.testing import compare, kernel as tkernel
from purepca.testing.assess import assessment_report

X = [[0.0, 0.0], [1.0, 1.0], [2.0, 2.5], [3.0, 2.0]]

CASES: list[tuple[str, Callable[[], Any], str]] = [
    ("params_as_int_low", lambda: params.as_int(3, "k", low="x"), r"as_int: low \(the bound for k\) must be None or an int, got 'x'"),
    ("params_as_int_high", lambda: params.as_int(3, "k", high=[[]]), r"as_int: high \(the bound for k\) must be None or an int"),
    ("params_as_real_low", lambda: params.as_real(1.0, "tol", low=Decimal("sNaN")), r"as_real: low \(the bound for tol\) must be None or a finite real"),
    ("params_as_real_high", lambda: params.as_real(1.0, "tol", high=math.nan), r"as_real: high .* got nan"),
    ("files_file_mode", lambda: files.file_mode(None), r"file_mode: path must be a file name, got None"),
    ("files_written_in_place", lambda: files.written_in_place(b"x"), r"written_in_place: real must be a file name \(str\), got b'x'"),
    ("files_write_output", lambda: files.write_output(1e308, None), r"write_output: text must be a str or bytes, got 1e\+308"),
    ("files_text_lines", lambda: files.text_lines(set()), r"text_lines: text must be a str, got set\(\)"),
    ("markup_fill_template", lambda: markup.fill_template(None, {}), r"fill_template: template must be a str, got None"),
    ("markup_json_for_script", lambda: markup.json_for_script(b"x"), r"json_for_script: json_text must be a str, got b'x'"),
    ("lessons_variance_along_angle", lambda: lessons.variance_along([[1.0, 0.0], [0.0, 4.0]], math.nan), r"variance_along: angle must be a finite real number, got nan"),
    ("lessons_variance_along_C", lambda: lessons.variance_along([[1.0, 2.0, 3.0]], 0.0), r"variance_along: C must be a 2x2 covariance matrix, got 1x3"),
    ("lessons_variance_along_C_none", lambda: lessons.variance_along(None, 0.0), r"variance_along: C"),
    ("lessons_pc1_lesson_names", lambda: lessons.pc1_lesson(X, names=None), r"pc1_lesson: names must be a list of the two column names, got None"),
    ("lessons_pc1_page", lambda: lessons.pc1_page("x"), r"pc1_page: lesson must be a PC1Lesson \(from pc1_lesson\), got 'x'"),
    ("lessons_stopping_page", lambda: lessons.stopping_page(None), r"stopping_page: lesson must be a StoppingLesson"),
    ("lessons_stopping_text", lambda: lessons.stopping_text(7), r"stopping_text: lesson must be a StoppingLesson .*got 7"),
    ("exercise_grade_path", lambda: exercise.grade(None), r"exercise grade: path must be a file name, got None"),
    ("exercise_grade_name", lambda: exercise.grade("power_step.py", name=set()), r"exercise grade: name must be None or an exercise's name, got set\(\)"),
    ("exercise_grade_time_limit", lambda: exercise.grade("power_step.py", time_limit=math.nan), r"exercise grade: time_limit must be a finite real number > 0.0 and <= 1000000.0, got nan"),
    ("exercise_grade_time_limit_big", lambda: exercise.grade("power_step.py", time_limit=1e308), r"exercise grade: time_limit .* got 1e\+308"),
    ("exercise_report", lambda: exercise.report("p.py", None), r"exercise report: checks must be a list of Check \(from grade\), got None"),
    ("cli_main_argv", lambda: cli.main(math.nan), r"main: argv must be None or a list of str, got nan"),
    ("cli_main_argv_bytes", lambda: cli.main([b"pca"]), r"main: argv must be None or a list of str"),
    ("cli_read_result", lambda: cli.read_result(None), r"read_result: path must be a file name \(str\), got None"),
    ("cli_verify_report_checks", lambda: cli.verify_report("x", "t"), r"verify_report: checks must be a list of Check"),
    ("cli_verify_report_title", lambda: cli.verify_report([], None), r"verify_report: title must be a str, got None"),
    ("micro_transform", lambda: micro.transform(None), r"transform: source must be Python source text, got None"),
    ("micro_transform_not_python", lambda: micro.transform("/tmp/a path"), r"transform: source is not Python"),
    ("micro_build_modules", lambda: micro.build("/nonexistent-purepca-out", modules="x"), r"build: modules must be None or a list of names from micro.MODULES, got 'x'"),
    ("micro_main_argv", lambda: micro.main(-1), r"argv must be None or a list of str, got -1"),
    ("certified_case_csv_columns", lambda: cbuild.case_csv(None, []), r"case_csv: columns must be a list of column names \(str\), got None"),
    ("certified_case_csv_rows", lambda: cbuild.case_csv(("a", "b"), [("1",)]), r"case_csv: rows must be a list of rows of 2 decimal texts"),
    ("certified_certify", lambda: cbuild.certify("x"), r"certify: case must be a Case \(from build_case\), got 'x'"),
    ("certified_tier", lambda: cbuild.tier(None), r"tier: digits_at_risk must be a finite real number, got None"),
    ("certified_write_cases", lambda: cbuild.write_cases(math.nan), r"names: expected None or a list of case names, got nan"),
    ("certified_check_certificate_columns", lambda: check_certificate({}, None, 3, "toy"), r"toy: columns must be a list of column names \(str\), got None"),
    ("certified_check_certificate_n_rows", lambda: check_certificate({}, ("a",), Decimal("sNaN"), "toy"), r"toy: n_rows must be a non-negative int, got Decimal\('sNaN'\)"),
    ("compare_tolerances_ref", lambda: compare.tolerances(None, 4, 2), r"tolerances: ref must be a Reference \(from reference\(X\)\), got None"),
    ("compare_tolerances_n", lambda: compare.tolerances(compare.reference(X), math.nan, 2), r"tolerances: n must be an int between 2 and 9007199254740992, got nan"),
    ("compare_tolerances_n_one", lambda: compare.tolerances(compare.reference(X), 1, 2), r"tolerances: n must be an int between 2 and .*got 1"),
    ("compare_tolerances_d", lambda: compare.tolerances(compare.reference(X), 4, 10 ** 400), r"tolerances: d must be an int between 1 and .*got an int of 401 digits"),
    ("compare_tolerances_size", lambda: compare.tolerances(compare.reference(X), 4, 2, size=1e308), r"tolerances: size must be an int between 0 and"),
    ("compare_iterative_residuals_d", lambda: compare.iterative_residuals([2.0, 1.0], 10 ** 400), r"d must be an int >= 1 and <= 2\*\*53 \(a count a float holds\), got an int of 401 digits"),
    ("compare_iterative_residuals_n", lambda: compare.iterative_residuals([2.0, 1.0], 2, n=10 ** 400), r"n must be an int >= 1 and <= 2\*\*53"),
    ("compare_compare_pca_convention", lambda: compare.compare_pca({}, X, convention=[[]]), r"convention must be one of .*; got \[\[\]\]"),
    ("compare_assert_pca_close_convention", lambda: compare.assert_pca_close({}, X, convention=Decimal("sNaN")), r"convention must be one of .*; got Decimal\('sNaN'\)"),
    ("compare_assert_pca_close_scale", lambda: compare.assert_pca_close({}, X, scale=math.nan), r"scale must be None, True or False, got nan"),
    ("kernel_kernel_reference_digits", lambda: tkernel.kernel_reference(X, digits=None), r"kernel_reference: digits must be an int, got None"),
    ("assess_assessment_report_rows", lambda: assessment_report(None, "t"), r"assessment_report: rows must be a list of Assessed \(from assess\), got None"),
    ("assess_assessment_report_title", lambda: assessment_report([], 1.5), r"assessment_report: title must be a str, got 1.5"),
]


@pytest.mark.parametrize("call,message", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_contract_door_refuses_a_hostile_value(call: Callable[[], Any], message: str) -> None:
    with pytest.raises(PurePCAError, match=message):
        call()


def test_micro_build_into_a_fifo_is_one_purepca_error(tmp_path: Any) -> None:
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    fifo = str(tmp_path / "fifo")
    os.mkfifo(fifo)
    with pytest.raises(PurePCAError, match=r"fifo: Not a directory"):
        micro.build(fifo)


def test_write_output_bytes_to_a_text_stream_are_written_as_utf8(capsys: pytest.CaptureFixture[str]) -> None:
    files.write_output("é".encode("utf-8"), None)
    assert capsys.readouterr().out == "é"


def test_valid_calls_at_the_fixed_doors_still_compute() -> None:
    assert params.as_int(3, "k", low=1, high=5) == 3 and params.as_real(0.5, "tol", low=0, high=1) == 0.5
    captured, residual = lessons.variance_along([[1.0, 0.0], [0.0, 4.0]], math.pi / 2)
    assert captured == 4.0 and abs(residual - 1.0) < 1e-15
    assert cbuild.case_csv(["a", "b"], [["1", "2.5"]]) == "a,b\n1,2.5\n"
    assert cbuild.tier(3.9) == "lower"
    t = compare.tolerances(compare.reference(X), 4, 2)
    assert len(t) == 2 and all(math.isfinite(v) and v > 0 for v in t)
