"""``purepca verify`` and ``purepca assess``: another implementation's output against the reference.

The functions are cli.py's, moved whole (their text unchanged).
"""

from __future__ import annotations

import argparse
import json
import math
import os
from ..csvdata import StreamedRows, read_table
from ..errors import PurePCAError
from ..params import _show, check_text
from ..testing import Check, compare_pca, summary
from ..files import read_text as _read_text, text_lines as _lines, write_output as _write
from .progress import _about
from .results import _check_result, _number, _result_document, _result_folder, _result_json, _result_text, read_result
from .tables import _read_args_table

__all__: list[str] = []  # the package's own module: purepca.cli re-exports what is public


def _complete_rows_hint(command: str) -> str:
    """The way out of a missing cell ``command`` offers (it has no ``--missing``: it compares the data as the other
    library was given them, complete); csvdata says it where it finds the cell.

    >>> _complete_rows_hint("verify")
    'verify compares complete rows, as the other library was given them: remove or fill that row first'
    """
    return f"{command} compares complete rows, as the other library was given them: remove or fill that row first"


def verify_report(checks: list[Check], title: str) -> str:
    """The PASS/FAIL table of ``purepca verify``.

    >>> from purepca.testing import Check
    >>> checks = [Check("explained_variance_[0]", True, 1e-16, 1e-12, "0.7")]
    >>> print(verify_report(checks, "t"))  # doctest: +NORMALIZE_WHITESPACE
    t
    <BLANKLINE>
    quantity                 result  error      tolerance  digits lost  error/allowed
    explained_variance_[0]   PASS    1e-16      1e-12      0.7          0.0001
    <BLANKLINE>
    0 of 1 checks out; largest error/allowed 0.0001 (explained_variance_[0])
    1 passed, 0 failed
    """
    if not isinstance(checks, (list, tuple)) or not all(isinstance(c, Check) for c in checks):
        raise PurePCAError(f"verify_report: checks must be a list of Check (from compare_pca), got {_show(checks)}")
    check_text(title, "verify_report: title")
    width = max([len("quantity")] + [len(c.quantity) for c in checks]) + 2
    lines = [title, "", f"{'quantity':<{width}} result  {'error':<10} {'tolerance':<10} digits lost  error/allowed"]
    for c in checks:
        ratio = c.ratio
        lines.append(f"{c.quantity:<{width}} {'PASS' if c.passed else 'FAIL':<7} {c.error:<10.3g} {c.tolerance:<10.3g} "
                     f"{c.digits_lost:<12} {'-' if ratio != ratio else format(ratio, '.3g')}".rstrip())
    failures = [c for c in checks if not c.passed]
    if failures:
        lines += ["", "Mismatches:"] + ["  " + c.line() for c in failures]
    lines += ["", summary(checks), f"{len(checks) - len(failures)} passed, {len(failures)} failed"]
    return "\n".join(lines)


def _json_rows(value: object, source: str) -> list[list[float]]:
    """Rows of numbers from JSON: numbers, or decimal text (the golden inputs), one list per sample."""
    if not isinstance(value, list) or not value or not all(isinstance(row, list) and row for row in value):
        raise PurePCAError(f"{source}: expected the data as a non-empty list of rows (lists of numbers)")
    rows: list[list[float]] = []
    for i, row in enumerate(value):
        out = []
        for j, x in enumerate(row):
            if isinstance(x, str):
                try:
                    out.append(float(x))
                    continue
                except ValueError:
                    pass
            out.append(_number(x, f"{source}: row {i}, column {j}"))
        rows.append(out)
    if len({len(row) for row in rows}) != 1:
        raise PurePCAError(f"{source}: rows of {sorted({len(row) for row in rows})} numbers; every row needs as many")
    return rows


def verify_data(path: str, encoding: str = "utf-8") -> list[list[float]]:
    """The data of ``verify --data`` given as JSON: a list of rows, ``{"X": rows}``, or a golden case
    (``{"input": {"X": rows}, ...}``); numbers as numbers or as decimal text.

    >>> import json, os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "data.json")
    >>> with open(path, "w") as f:
    ...     json.dump({"input": {"X": [["1.5", "2"], ["3", "4.25"]]}}, f)
    >>> verify_data(path)
    [[1.5, 2.0], [3.0, 4.25]]
    """
    text = _read_text(path, encoding)  # (--encoding applies to JSON data too: the advice to pass it holds)
    try:
        document = json.loads(text)
    except ValueError as err:
        raise PurePCAError(f"{path}: not JSON ({err})") from None
    except RecursionError:
        raise PurePCAError(f"{path}: its JSON is nested too deeply to be data") from None
    if isinstance(document, dict) and isinstance(document.get("input"), dict):
        document = document["input"]
    if isinstance(document, dict):
        if "X" not in document:
            raise PurePCAError(f"{path}: a JSON object of data needs its rows under \"X\"")
        document = document["X"]
    return _json_rows(document, path)


def _verify_rows(args: argparse.Namespace) -> tuple[str, list[list[float]]]:
    """The data ``verify`` compares on: a golden case by name, a JSON file, or the CSV options' table."""
    golden = getattr(args, "golden", None)
    if golden is not None:
        from ..golden import golden_cases

        try:
            found = golden_cases(names=[golden])
        except PurePCAError:
            found = []
        if not found:
            names = [c["name"] for c in golden_cases() if c["kind"] == "pca"]
            raise PurePCAError(f"--golden {golden}: no such golden case; the PCA cases are {', '.join(names)}")
        if found[0]["kind"] != "pca":
            raise PurePCAError(f"--golden {golden}: a {found[0]['kind']} case; verify checks a PCA")
        return f"golden case {golden}", _json_rows(found[0]["input"]["X"], f"golden case {golden}")
    if args.file is not None and args.file.lower().endswith(".json"):
        if args.columns is not None:
            raise PurePCAError(f"{args.file}: --columns picks CSV columns; JSON data are used whole")
        return args.file, verify_data(args.file, getattr(args, "encoding", None) or "utf-8")
    if (args.dataset is None and args.file not in (None, "-") and args.missing in ("error", "drop", "mean")
            and getattr(args, "weights", None) is None):
        # Read row by row: the whole text, its lines and their cells held at once made a 10,000 x 50 verify
        # peak at 138 MB; streamed, only the floats stay (the same parser and messages as read_table).
        stream = StreamedRows(args.file, delimiter=args.delimiter, header=not args.no_header, columns=args.columns,
                              id_column=args.id_column, missing=args.missing, exclude=args.exclude,
                              decimal=args.decimal, encoding=args.encoding,
                              missing_hint=_complete_rows_hint("verify"))
        streamed = list(stream)
        if not streamed:
            raise PurePCAError(f"{args.file}: no rows of data")
        return args.file, streamed
    source, table = _read_args_table(args, args.columns, missing_hint=_complete_rows_hint("verify"))
    return source, table.rows


def _verify_command(args: argparse.Namespace) -> int:
    source, rows = _verify_rows(args)
    result = read_result(args.result)
    _check_result(result, len(rows[0]), args.result)
    with _about(source):
        checks = compare_pca(result, rows, convention=args.convention, method=args.method, rtol=args.rtol,
                             residual=args.residual, scale=True if args.scale else (False if args.unscaled else None),
                             ddof=args.ddof, scale_ddof=args.scale_ddof, constant_columns=args.constant_columns,
                             tol=args.tol, n_iter=args.n_iter, n_oversamples=args.n_oversamples,
                             batch_size=args.batch_size)
    tolerance = f"rtol {args.rtol:g}" if args.rtol is not None else f"method {args.method}"
    title = (f"{args.result} against purepca's reference for {source} (convention {args.convention}, "
             f"{tolerance})")
    _write(verify_report(checks, title), args.output)
    return 0 if all(c.passed for c in checks) else 1


def _assess_command(args: argparse.Namespace) -> int:
    """``purepca assess CASE ANSWER``: the LRE per quantity of another PCA's answer for a certified case (or the
    user's own data); the exit status is verify's: 0 when every verdict passes, 1 when one FAILs."""
    from ..testing.assess import assess, assessment_report

    if os.path.isdir(args.answer):
        result: dict[str, object] = dict(_result_folder(args.answer))
    else:  # the file read once (``-`` is standard input), with what assess reads beside verify's attributes
        document = _result_json(args.answer, _result_text(args.answer))
        result = dict(_result_document(document, args.answer))
        for key in ("scores", "supplementary_correlations"):
            if isinstance(document, dict) and key in document:
                result[key] = document[key]
    if _is_data_file(args.case):
        text, passed = _assess_own_data(args.case, result, args)
        _write(text, args.output)
        return 0 if passed else 1
    from ..certified import case_names

    if args.case not in case_names():
        raise PurePCAError(f"no certified case named {args.case!r} and no such data file; the cases: "
                           f"{', '.join(case_names())}. For your own data give the file: purepca assess DATA.csv "
                           f"{args.answer} (or purepca verify --data DATA.csv --result {args.answer})")
    rows = assess(args.case, result, convention=args.convention, method=args.method)
    convention = args.convention or "the case's default"
    title = (f"{args.answer} against the certified values of {args.case} (convention {convention}, method "
             f"{args.method}): LRE = correct significant digits, verdict of the method's error model")
    _write(assessment_report(rows, title), args.output)
    return 1 if any(r.verdict == "FAIL" for r in rows) else 0


def _is_data_file(case: str) -> bool:
    """Whether ``assess``'s first argument is the user's own data (a CSV or JSON file) rather than a case name
    (case names are plain words: no dot, no separator)."""
    return case == "-" or case.lower().endswith((".csv", ".json", ".tsv", ".txt")) or os.sep in case or (
        "/" in case) or os.path.isfile(case)


def _assess_own_data(path: str, result: dict[str, object], args: argparse.Namespace) -> tuple[str, bool]:
    """``purepca assess DATA.csv ANSWER``: the corpus report on the user's own data.  The LRE (correct
    digits) is counted against purepca's reference of the data (floats, refined: good to about 15 digits,
    so an LRE is at most that), the verdict is the error model's, as for a certified case."""
    from decimal import Decimal
    from ..testing import reference
    from ..testing.assess import Assessed, assessment_report, lre

    if path.lower().endswith(".json"):
        rows = verify_data(path)
    else:
        source = "<stdin>" if path == "-" else path
        rows = read_table(_lines(_read_text(path, "utf-8")), source=source,
                          delimiter="\t" if path.lower().endswith(".tsv") else ",",
                          missing_hint=_complete_rows_hint("assess")).rows
    convention = args.convention or "sklearn"
    _check_result(result, len(rows[0]), args.answer)
    with _about(path):
        checks = compare_pca(result, rows, convention=convention, method=args.method)
        ref = reference(rows, convention=convention)
    verdicts = {c.quantity: c for c in checks}
    out: list[Assessed] = []
    named = set()

    def add(name: str, digits: float) -> None:
        check = verdicts.get(name)
        named.add(name)
        note = "" if check is None or check.passed else check.line()
        out.append(Assessed(name, digits, "-" if check is None else ("PASS" if check.passed else "FAIL"), note))

    top = ref.spectrum[0] if ref.spectrum else 0.0
    for key, want in (("explained_variance_", ref.spectrum), ("explained_variance_ratio_",
                                                              ref.explained_variance_ratio_),
                      ("singular_values_", ref.singular_values_), ("mean_", ref.mean_)):
        given = result.get(key)
        if isinstance(given, list):
            for i, v in enumerate(given[:len(want)]):
                if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v):
                    scale = None if want[i] != 0 else Decimal(repr(top if key == "explained_variance_" else 1.0))
                    add(f"{key}[{i}]", lre(float(v), Decimal(repr(want[i])), scale))
    for c in checks:
        if c.quantity.startswith("components_[") and c.quantity not in named:
            angle = c.error if c.error == c.error else math.inf
            add(c.quantity, min(15.9, -math.log10(angle)) if angle > 0 else 15.9)
    for c in checks:
        if c.quantity not in named:
            out.append(Assessed(c.quantity, math.nan, "PASS" if c.passed else "FAIL", "" if c.passed else c.line()))
    title = (f"{args.answer} against purepca's reference for {path} (not a certified case: LRE counted against the "
             f"float reference, good to about 15 digits; convention {convention}, method {args.method}; "
             "`purepca verify` gives each tolerance)")
    return assessment_report(out, title) + "\n" + summary(checks), all(c.passed for c in checks)
