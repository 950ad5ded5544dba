"""The one reader of another library's results: a JSON object of attributes or a folder of CSV files.

=======================  ==================================================
``read_result``          the attributes of a JSON file or a directory of
                         ATTRIBUTE.csv files, checked as numbers
``RESULT_KEYS``          the attributes it reads (scikit-learn's and R's)
=======================  ==================================================
"""

from __future__ import annotations

import json
import os
from ..csvdata import read_table
from ..errors import PurePCAError
from ..params import _show
from ..files import read_text, text_lines

__all__: list[str] = []  # the package's own module: purepca.cli re-exports what is public


#: The attributes ``verify`` reads from another implementation's output.
RESULT_KEYS = ("components_", "explained_variance_", "explained_variance_ratio_", "singular_values_", "mean_",
               "noise_variance_", "sdev", "rotation")


#: The result's attributes that are tables (rows); the others are vectors, except the number below.
_TABLES = ("components_", "rotation")


def _numbers(value: object, where: str, key: str = "") -> object:
    """A JSON value as nested lists of floats (a list of lists for ``components_`` and ``rotation``, a
    list for the other attributes, a number for ``noise_variance_``), or an error naming ``where``."""
    if key == "noise_variance_":
        return _number(value, where)
    if key not in _TABLES and key and isinstance(value, list) and any(isinstance(v, list) for v in value):
        raise PurePCAError(f"{where}: expected a list of numbers (one per component or column), got a list "
                           "of rows")
    if isinstance(value, list) and all(isinstance(v, list) for v in value) and value:
        return [[_number(x, f"{where}[{i}][{j}]") for j, x in enumerate(row)] for i, row in enumerate(value)]
    if isinstance(value, list):
        if key in _TABLES:
            raise PurePCAError(f"{where}: expected a non-empty list of rows of numbers")
        return [_number(x, f"{where}[{i}]") for i, x in enumerate(value)]
    if isinstance(value, (int, float)) and not isinstance(value, bool) and not key:
        return _number(value, where)
    raise PurePCAError(f"{where}: expected a list of numbers (or of rows), got {type(value).__name__}")


def _number(x: object, where: str) -> float:
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise PurePCAError(f"{where}: not a number: {_short(x)}")
    try:
        return float(x)
    except OverflowError:
        raise PurePCAError(f"{where}: {_short(x)} is beyond the float range") from None


def _short(x: object) -> str:
    text = repr(x)
    return text if len(text) <= 40 else text[:37] + "..."


def _check_result(result: dict[str, object], d: int, path: str) -> None:
    """The result's shapes against the data's ``d`` columns, each fault naming the result file and field
    (the data file is not to blame for them)."""
    for key in _TABLES:
        rows = result.get(key)
        if not isinstance(rows, list):
            continue
        widths = {len(row) for row in rows}
        if not rows or 0 in widths or len(widths) != 1:
            raise PurePCAError(f"{path}: {key}: expected a non-empty rectangular table of numbers"
                               + (f" (rows of {sorted(widths)} entries)" if len(widths) > 1 else ""))
        width = len(rows) if key == "rotation" else widths.pop()
        if width != d:
            what = "rows (one per column of the data)" if key == "rotation" else "entries per component"
            raise PurePCAError(f"{path}: {key}: {width} {what}, but the data have {d} columns")
    for key, value in result.items():
        if key in _TABLES or not isinstance(value, list):
            continue
        if not value:
            raise PurePCAError(f"{path}: {key}: empty; there is nothing to compare")
        if key == "mean_" and len(value) != d:
            raise PurePCAError(f"{path}: mean_: {len(value)} entries, but the data have {d} columns")
    if not any(key in result for key in ("components_", "rotation", "explained_variance_", "sdev")):
        raise PurePCAError(f"{path}: neither components_ (or rotation) nor explained_variance_ (or sdev); "
                           "nothing to compare")
    sdev = result.get("sdev")
    if isinstance(sdev, list):
        for i, v in enumerate(sdev):
            if isinstance(v, float) and v < 0:
                raise PurePCAError(f"{path}: sdev[{i}] is {v!r}: a standard deviation is never negative (the result "
                                   "file is wrong, not the data)")


def _result_text(path: str) -> str:
    """The text of a result file; its faults are the result's, with advice for it: it is always read as
    UTF-8, so no option changes that (``--encoding`` is the data file's)."""
    try:
        return read_text(path)
    except PurePCAError as err:
        text = str(err)
        if "; pass --encoding" in text:
            text = text.split("; pass --encoding")[0] + "; a result file is always read as UTF-8: save it as UTF-8"
        raise PurePCAError(text) from None


def read_result(path: str) -> dict[str, object]:
    """Another implementation's output: a JSON object with scikit-learn's attribute names (or R's
    ``sdev`` and ``rotation``), or a directory holding one CSV file per attribute
    (``components_.csv``, ``explained_variance_.csv``, ...; numbers only, a vector as one row or one column).

    >>> import json, os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "theirs.json")
    >>> with open(path, "w") as f:
    ...     json.dump({"explained_variance_": [2.0, 0.5], "n_components_": 2}, f)
    >>> read_result(path)
    {'explained_variance_': [2.0, 0.5]}
    """
    if not isinstance(path, str):
        raise PurePCAError(f"read_result: path must be a file name (str), got {_show(path)}")
    if os.path.isdir(path):
        return _result_folder(path)
    return _result_document(_result_json(path, _result_text(path)), path)


def _result_json(path: str, text: str) -> object:
    """The JSON document of a result file's text (read once: ``-`` is standard input)."""
    try:
        return json.loads(text)
    except ValueError as err:
        raise PurePCAError(f"{path}: not JSON ({err})") from None
    except RecursionError:
        raise PurePCAError(f"{path}: its JSON is nested too deeply to be a result") from None


def _result_document(document: object, path: str) -> dict[str, object]:
    """The attributes of a result's JSON document."""
    if not isinstance(document, dict):
        raise PurePCAError(f"{path}: expected a JSON object of attributes, got {type(document).__name__}")
    found = {key: _numbers(document[key], f"{path}: {key}", key) for key in RESULT_KEYS if key in document}
    if not found:
        raise PurePCAError(f"{path}: none of the attributes {', '.join(RESULT_KEYS)}")
    return found


def _result_folder(path: str) -> dict[str, object]:
    """The attributes of a result folder: one CSV file per attribute."""
    found: dict[str, object] = {}
    for key in RESULT_KEYS:
        file = os.path.join(path, key + ".csv")
        if not os.path.exists(file):
            continue
        # A missing number in a result is a mismatch to report (NaN), as in a JSON result.
        rows = read_table(text_lines(_result_text(file)), source=file, header=False, missing="keep").rows
        if key in ("components_", "rotation"):
            found[key] = rows
        elif key == "noise_variance_":
            if len(rows) != 1 or len(rows[0]) != 1:
                raise PurePCAError(f"{file}: noise_variance_: expected one number")
            found[key] = rows[0][0]
        else:
            found[key] = [v for row in rows for v in row]
    if not found:
        raise PurePCAError(f"{path}: no file named after an attribute ({', '.join(k + '.csv' for k in RESULT_KEYS)})")
    return found
