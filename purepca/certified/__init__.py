"""The certified PCA corpus: exact decimal inputs and their certificates, in three tiers.

NIST's Statistical Reference Datasets certify regressions and univariate
statistics; this corpus does the same for PCA.  Each case is a CSV file of
exact decimal numbers (the certified problem is those numbers, not their
nearest floats) and a JSON certificate: eigenvalues under each divisor,
explained-variance ratios, singular values, components or cluster projectors
and scores up to sign, each to 25 significant digits and certified twice
(docs/certified.md; :mod:`purepca.certified.build` says how).

======================================  ===========================================
``case_names()``                        the cases, sorted
``load_case(name)``                     a case: its rows (text and floats), certificate
``python -m purepca.certified build``   regenerate every file, bit for bit
======================================  ===========================================

>>> case = load_case("longley")
>>> case.tier, case.n_samples, case.n_features
('higher', 16, 7)
>>> case.certificate["eigenvalues"]["n-1"][0][:12]
'9.9392326980'
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
from dataclasses import dataclass
from decimal import MAX_EMAX, MIN_EMIN, Decimal
from typing import Any, Optional

from ..errors import PurePCAError
from ..numeric import in_owned_decimal, short_repr

__all__ = ["CertifiedCase", "DATA", "case_names", "check_case", "check_certificate", "load_case"]

#: The folder of the corpus's files (``NAME.csv`` and ``NAME.json``).
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")


@dataclass(frozen=True)
class CertifiedCase:
    """A corpus case as read from its files: ``text`` rows as in the CSV, ``rows`` as floats."""

    name: str
    columns: tuple[str, ...]
    text: tuple[tuple[str, ...], ...]
    certificate: dict[str, Any]

    @property
    def rows(self) -> list[list[float]]:
        """The data as floats (each decimal rounded once)."""
        return [[float(v) for v in row] for row in self.text]

    @property
    def tier(self) -> str:
        """``lower``, ``average`` or ``higher`` (docs/certified.md gives the rule)."""
        return str(self.certificate["tier"])

    @property
    def n_samples(self) -> int:
        """The number of rows."""
        return int(self.certificate["n_samples"])

    @property
    def n_features(self) -> int:
        """The number of columns."""
        return int(self.certificate["n_features"])


#: The largest corpus file read (the largest stored is under 100 KB): a limit checked before reading.
MAX_FILE_BYTES = 16 * 2 ** 20

_NUMERAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\Z")


def _folder(folder: Any) -> str:
    """The corpus folder: ``DATA`` for None (or ""), else an existing directory."""
    if folder is None or folder == "":
        return DATA
    if not isinstance(folder, (str, os.PathLike)):
        raise PurePCAError(f"folder: expected a directory's path, got {short_repr(folder)}")
    path = os.fspath(folder)
    if not isinstance(path, str) or "\0" in path:
        raise PurePCAError(f"folder: expected a directory's path, got {short_repr(folder)}")
    if not os.path.exists(path):
        raise PurePCAError(f"folder {path}: no such directory")
    if not os.path.isdir(path):
        raise PurePCAError(f"folder {path}: is a file, not a directory")
    return path


def case_names(folder: Optional[str] = None) -> list[str]:
    """The names of the cases in the corpus (each ``NAME.json`` in ``folder``, default :data:`DATA`), sorted.

    >>> "wampler1" in case_names()
    True
    >>> case_names("/no/such/folder")
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: folder /no/such/folder: no such directory
    """
    path = _folder(folder)
    try:
        entries = os.listdir(path)
    except OSError as err:
        raise PurePCAError(f"folder {path}: cannot list it ({err.strerror or err})") from None
    return sorted(f[:-5] for f in entries if f.endswith(".json") and len(f) > 5)


def _read(path: str, what: str) -> str:
    """The ASCII text of a regular file of the corpus, or an error naming it (checked before reading:
    a FIFO or device would block or never end, a huge file is no certificate)."""
    try:
        info = os.stat(path)
    except OSError as err:
        raise PurePCAError(f"{what} {path}: cannot read it ({err.strerror or err})") from None
    if not stat.S_ISREG(info.st_mode):
        raise PurePCAError(f"{what} {path}: not a regular file")
    if info.st_size > MAX_FILE_BYTES:
        raise PurePCAError(f"{what} {path}: {info.st_size:,} bytes, more than a corpus file's "
                           f"{MAX_FILE_BYTES:,}")
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as err:
        raise PurePCAError(f"{what} {path}: cannot read it ({err.strerror or err})") from None
    try:
        return data.decode("ascii")
    except UnicodeDecodeError as err:
        line = data[:err.start].count(b"\n") + 1
        raise PurePCAError(f"{what} {path}: byte {data[err.start]:#04x} on line {line} is not ASCII "
                           f"(corpus files are ASCII)") from None


def _no_constant(word: str) -> Any:
    raise ValueError(f"{word} is not a number of a certificate")


def _read_certificate(path: str) -> dict[str, Any]:
    """The certificate's JSON object, or an error naming the file."""
    text = _read(path, "certificate")
    try:
        cert = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise PurePCAError(f"certificate {path}: nested too deeply to be a certificate") from None
    except ValueError as err:
        raise PurePCAError(f"certificate {path}: not JSON ({err})") from None
    if not isinstance(cert, dict):
        raise PurePCAError(f"certificate {path}: a certificate is a JSON object, got {type(cert).__name__}")
    return cert


def _read_csv(path: str) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    """The header and the rows of decimal numerals of a corpus CSV file, or an error naming the file."""
    lines = [line.rstrip("\r") for line in _read(path, "data").split("\n") if line.strip()]
    if not lines:
        raise PurePCAError(f"data {path}: empty (a header of column names, then a row per sample)")
    header = tuple(lines[0].split(","))
    rows = tuple(tuple(line.split(",")) for line in lines[1:])
    if not rows:
        raise PurePCAError(f"data {path}: a header and no rows")
    _check_text(header, rows, f"data {path}")
    return header, rows


def _check_text(header: Any, rows: Any, where: str) -> None:
    """Refuse rows that are not a table of finite decimal numerals under ``header``."""
    if not isinstance(header, tuple) or not header or not all(isinstance(h, str) for h in header):
        raise PurePCAError(f"{where}: the columns must be a tuple of names")
    if not isinstance(rows, tuple) or not rows:
        raise PurePCAError(f"{where}: no rows")
    for i, row in enumerate(rows, start=2):
        if not isinstance(row, tuple) or len(row) != len(header):
            raise PurePCAError(f"{where}: line {i} has {len(row) if isinstance(row, tuple) else 'no'} cells, "
                               f"the header {len(header)}")
        for j, cell in enumerate(row):
            if not isinstance(cell, str) or not _NUMERAL.match(cell) or not math.isfinite(float(cell)):
                raise PurePCAError(f"{where}: line {i}, column {j + 1} ({header[j]!r}): {short_repr(cell, 40)} is not "
                                   f"a finite decimal numeral")


@in_owned_decimal
def check_case(case: CertifiedCase) -> None:
    """Refuse a :class:`CertifiedCase` built by hand whose rows or certificate :func:`load_case` would refuse.

    >>> check_case(CertifiedCase("x", ("a",), (("1",), ("abc",)), {}))
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: case 'x': line 3, column 1 ('a'): 'abc' is not a finite decimal numeral
    """
    if not isinstance(case, CertifiedCase):
        raise PurePCAError(f"expected a CertifiedCase, got {type(case).__name__}")
    where = f"case {short_repr(case.name, 60)}"
    _check_text(case.columns, case.text, where)
    check_certificate(case.certificate, case.columns, len(case.text), where)


def _numbers(value: Any, size: Optional[int], where: str) -> list[Decimal]:
    """A list of ``size`` decimal strings (any length for None), as finite Decimals."""
    if not isinstance(value, list) or (size is not None and len(value) != size):
        want = "a list" if size is None else f"a list of {size}"
        raise PurePCAError(f"{where}: expected {want} decimal strings")
    out = []
    for i, x in enumerate(value):
        if not isinstance(x, str) or not _NUMERAL.match(x):
            raise PurePCAError(f"{where}[{i}]: expected a decimal string, got {short_repr(x, 60)}")
        try:
            number = Decimal(x)  # a numeral: exact, and finite
        except ArithmeticError:  # an exponent beyond decimal's range (C's decimal; the pure-Python one takes it)
            number = None
        if number is None or not MIN_EMIN <= number.adjusted() <= MAX_EMAX:
            raise PurePCAError(f"{where}[{i}]: {short_repr(x, 60)} is beyond the range of a decimal") from None
        out.append(number)
    return out


def _keyed(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise PurePCAError(f"{where}: expected a JSON object")
    return value


def _indices(key: Any, d: int, where: str) -> list[int]:
    """The component indices a key names (``"2"``, or ``"1,2"`` for a cluster), each below d."""
    parts = key.split(",") if isinstance(key, str) else []
    if not parts or not all(p.isdigit() and p.isascii() and int(p) < d for p in parts):
        raise PurePCAError(f"{where}: key {short_repr(key, 40)} is not a component index below {d}")
    return [int(p) for p in parts]


@in_owned_decimal
def check_certificate(cert: Any, columns: tuple[str, ...], n_rows: int, where: str) -> None:
    """Refuse a certificate that does not fit its data (``n_rows`` rows of ``columns``) or lacks what
    :func:`~purepca.testing.assess` and the ``list`` command read, naming ``where`` and the field.

    >>> case = load_case("toy")
    >>> check_certificate(dict(case.certificate, n_samples=99), case.columns, len(case.text), "toy")
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: toy: n_samples is 99, but the data have 10 rows
    """
    from ..params import as_int
    if not isinstance(columns, (list, tuple)) or not all(isinstance(c, str) for c in columns):
        raise PurePCAError(f"{where}: columns must be a list of column names (str), got {short_repr(columns, 60)}")
    as_int(n_rows, f"{where}: n_rows", low=0)
    cert = _keyed(cert, where)
    d = len(columns)
    rank = _check_header(cert, columns, n_rows, where)
    _numbers(cert.get("mean"), d, f"{where}: mean")
    eigenvalues = _keyed(cert.get("eigenvalues"), f"{where}: eigenvalues")
    if not eigenvalues:
        raise PurePCAError(f"{where}: eigenvalues: no list")
    for key, values in eigenvalues.items():
        _numbers(values, d, f"{where}: eigenvalues[{key!r}]")
    _numbers(cert.get("explained_variance_ratio"), d, f"{where}: explained_variance_ratio")
    sv = cert.get("singular_values")
    for key, values in (sv.items() if isinstance(sv, dict) else [("", sv)]):
        _numbers(values, d, f"{where}: singular_values" + (f"[{key!r}]" if key else ""))
    for key, vector in _keyed(cert.get("components"), f"{where}: components").items():
        if len(_indices(key, d, f"{where}: components")) != 1:
            raise PurePCAError(f"{where}: components: key {short_repr(key, 40)} names more than one component")
        _numbers(vector, d, f"{where}: components[{key!r}]")
    for key, matrix in _keyed(cert.get("projectors"), f"{where}: projectors").items():
        _indices(key, d, f"{where}: projectors")
        if not isinstance(matrix, list) or len(matrix) != d:
            raise PurePCAError(f"{where}: projectors[{key!r}]: expected {d} rows")
        for r, row in enumerate(matrix):
            _numbers(row, d, f"{where}: projectors[{key!r}][{r}]")
    scores = _keyed(cert.get("scores"), f"{where}: scores")
    for label, columns_ in scores.items():
        for key, column in _keyed(columns_, f"{where}: scores[{label!r}]").items():
            if len(_indices(key, d, f"{where}: scores[{label!r}]")) != 1:
                raise PurePCAError(f"{where}: scores[{label!r}]: key {short_repr(key, 40)} names more than one "
                                   f"component")
            _numbers(column, n_rows, f"{where}: scores[{label!r}][{key!r}]")
    conventions = _keyed(cert.get("conventions"), f"{where}: conventions")
    if not conventions:
        raise PurePCAError(f"{where}: conventions: none listed")
    for name, use in conventions.items():
        use = _keyed(use, f"{where}: conventions[{name!r}]")
        if use.get("eigenvalues") not in eigenvalues or use.get("scores") not in scores:
            raise PurePCAError(f"{where}: conventions[{name!r}] names lists the certificate does not have")
        if isinstance(sv, dict) and use["scores"] not in sv:
            raise PurePCAError(f"{where}: conventions[{name!r}]: no singular values for {use['scores']!r}")
    _check_enclosures(cert, rank, d, where)


def _check_header(cert: dict[str, Any], columns: tuple[str, ...], n_rows: int, where: str) -> int:
    """A certificate's shape, header, tier and difficulty against its data; the rank it states."""
    d = len(columns)
    for field, size in (("n_samples", n_rows), ("n_features", d)):
        value = cert.get(field)
        if type(value) is not int or value != size:
            what = "rows" if field == "n_samples" else "columns"
            raise PurePCAError(f"{where}: {field} is {short_repr(value, 40)}, but the data have {size} {what}")
    if cert.get("columns") != list(columns):
        raise PurePCAError(f"{where}: columns {short_repr(cert.get('columns'), 80)} are not the data's header "
                           f"{short_repr(list(columns), 80)}")
    if type(cert.get("scaled")) is not bool:
        raise PurePCAError(f"{where}: scaled must be true or false, got {short_repr(cert.get('scaled'), 40)}")
    rank = cert.get("rank")
    if type(rank) is not int or not 0 <= rank <= d:
        raise PurePCAError(f"{where}: rank must be an int from 0 to {d}, got {short_repr(rank, 40)}")
    if cert.get("tier") not in ("lower", "average", "higher"):
        raise PurePCAError(f"{where}: tier must be lower, average or higher, got {short_repr(cert.get('tier'), 40)}")
    risk = _keyed(cert.get("difficulty"), f"{where}: difficulty").get("digits_at_risk")
    if not isinstance(risk, (int, float)) or isinstance(risk, bool) or not math.isfinite(risk):
        raise PurePCAError(f"{where}: difficulty.digits_at_risk must be a number, got {short_repr(risk, 40)}")
    return rank


def _check_enclosures(cert: dict[str, Any], rank: int, d: int, where: str) -> None:
    """A certificate's enclosures (one per nonzero eigenvalue) and its supplementary columns, if any."""
    enclosures = cert.get("enclosures")
    if not isinstance(enclosures, list) or len(enclosures) != rank:
        raise PurePCAError(f"{where}: enclosures: expected one [lo, hi] per nonzero eigenvalue ({rank})")
    for i, pair in enumerate(enclosures):
        lo, hi = _numbers(pair, 2, f"{where}: enclosures[{i}]")
        if not lo < hi:
            raise PurePCAError(f"{where}: enclosures[{i}]: lo {lo} is not below hi {hi}")
    if "supplementary" in cert:
        sup = _keyed(cert["supplementary"], f"{where}: supplementary")
        names = sup.get("columns")
        if not isinstance(names, list) or not names or not all(isinstance(x, str) for x in names):
            raise PurePCAError(f"{where}: supplementary.columns: expected a list of column names")
        for key, values in _keyed(sup.get("correlations"), f"{where}: supplementary.correlations").items():
            if len(_indices(key, d, f"{where}: supplementary.correlations")) != 1:
                raise PurePCAError(f"{where}: supplementary.correlations: key {short_repr(key, 40)} names more "
                                   f"than one component")
            _numbers(values, len(names), f"{where}: supplementary.correlations[{key!r}]")


@in_owned_decimal
def load_case(name: str, folder: Optional[str] = None) -> CertifiedCase:
    """The case called ``name`` (in ``folder``, default the corpus :data:`DATA`): its CSV and its
    certificate, each checked (ASCII, numerals, the certificate's fields against the data).

    >>> load_case("wampler1").columns
    ('x', 'x2', 'x3', 'x4', 'x5', 'y')
    >>> load_case("nope")
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: no certified case named 'nope'; the cases: ...
    """
    where = _folder(folder)
    if not isinstance(name, str) or not name or os.sep in name or "/" in name or "\0" in name \
            or name in (".", ".."):
        raise PurePCAError(f"no certified case named {short_repr(name, 80)}; the cases: {', '.join(case_names(where))}")
    path = os.path.join(where, name + ".json")
    if not os.path.lexists(path):
        raise PurePCAError(f"no certified case named {short_repr(name, 80)}; the cases: {', '.join(case_names(where))}")
    cert = _read_certificate(path)
    data = cert.get("data")
    if not isinstance(data, str) or not data or os.sep in data or "/" in data or "\0" in data or data in (".", ".."):
        raise PurePCAError(f"certificate {path}: \"data\" must name a CSV file beside it, got {short_repr(data, 80)}")
    columns, text = _read_csv(os.path.join(where, data))
    check_certificate(cert, columns, len(text), f"certificate {path}")
    return CertifiedCase(name, columns, text, cert)
