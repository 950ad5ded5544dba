"""Reading a data table from CSV text: the columns to analyse, an id column, missing values.

What the command line reads.  Every problem is a :class:`PurePCAError` that
names the source, the line and the column, so a user's mistake gets one
line, never a traceback.

>>> table = read_table(["state,a,b", "x,1,2", "y,3,NA", "z,5,7"], source="t.csv", id_column="state", missing="drop")
>>> table.names, table.rows, table.ids, table.dropped
(['a', 'b'], [[1.0, 2.0], [5.0, 7.0]], ['x', 'z'], 1)
"""

from __future__ import annotations

import codecs
import csv
import io
import math
import os
import re
from dataclasses import dataclass, field
from typing import IO, Callable, Iterable, Iterator, Optional, Sequence, Union

from .errors import PurePCAError
from .params import _show

__all__ = ["MISSING", "StreamedRows", "Table", "csv_text", "decode_text", "read_table"]

#: Cells read as a missing value (case-insensitive), besides the empty cell.
MISSING = ("na", "nan", "n/a", "null", "none", "?", ".")


@dataclass
class Table:
    """Numeric rows with their column names, row ids, group labels and what was done about missing cells."""

    names: list[str]
    rows: list[list[float]]
    ids: Optional[list[str]] = None
    dropped: int = 0
    imputed: dict[str, int] = field(default_factory=dict)
    groups: Optional[list[str]] = None
    weights: Optional[list[float]] = None
    #: The id column's name in the file (None without one), for the files written from the table.
    id_name: Optional[str] = None


def _select(header: list[str], spec: Union[None, str, Sequence[str]], what: str, source: str) -> list[int]:
    """Column indices from a comma-separated list of names or 0-based indices, or from a list of
    names (which may hold commas: a model's saved column names)."""
    if spec is None:
        return list(range(len(header)))
    out = []
    if not isinstance(spec, str) and not (isinstance(spec, (list, tuple)) and all(isinstance(c, str) for c in spec)):
        raise PurePCAError(f"{source}: {what} must be column names (a str, or a list of str), got {_show(spec)}")
    for item in (s.strip() for s in (spec.split(",") if isinstance(spec, str) else spec)):
        if item in header:
            out.append(header.index(item))
        elif item.lstrip("-").isdigit() and 0 <= int(item) < len(header):
            out.append(int(item))
        else:
            if not what.startswith("-"):  # names that came from elsewhere (a model), not from an option
                raise PurePCAError(f"{source}: {what} {item!r} is not in the file (columns: {', '.join(header)}); "
                                   "choose the file's columns with --columns" + _delimiter_hint(header))
            raise PurePCAError(f"{source}: {what}: no column {item!r} (columns: {', '.join(header)})"
                               + _delimiter_hint(header))
    return out


def _delimiter_hint(head: list[str]) -> str:
    """When the first line is one field holding a ';', a tab or a '|', the file is most likely
    separated by that character (Excel writes ';' where the decimal mark is a comma).

    >>> _delimiter_hint(["patient;age;weight"])
    "; the first line is one field holding ';': if it separates the fields, use --delimiter ';' (and --decimal , if the
    numbers have decimal commas)"
    """
    if len(head) != 1:
        return ""
    for sep, flag in ((";", "--delimiter ';' (and --decimal , if the numbers have decimal commas)"),
                      ("\t", "--delimiter $'\\t' (a tab)"), ("|", "--delimiter '|'")):
        if sep in head[0]:
            return f"; the first line is one field holding {sep!r}: if it separates the fields, use {flag}"
    return ""


class _Layout:
    """The columns of a CSV table, from its first line: names, the ones chosen, the id and group columns."""

    def __init__(self, first: list[str], *, source: str, header: bool, columns: Union[None, str, Sequence[str]],
                 id_column: Optional[str], group_column: Optional[str], exclude: Optional[str] = None,
                 weight_column: Optional[str] = None, decimal: str = ".", columns_option: str = "--columns",
                 em: bool = False, missing_hint: Optional[str] = None) -> None:
        self.source, self.decimal, self.picked = source, decimal, columns is not None
        self.em = em
        #: The asking command's way out of a missing cell, where it offers no --missing (None: the options).
        self.missing_hint = missing_hint
        self.head = [c.strip() for c in first] if header else [f"x{j + 1}" for j in range(len(first))]
        self.width = len(self.head)
        seen: dict[str, int] = {}
        for j, name in enumerate(self.head):
            if name in seen:
                raise PurePCAError(f"{source}: the column name {name!r} appears twice (columns {seen[name]} and {j}, "
                                   "counting from 0); columns are chosen and saved by name: rename one")
            seen[name] = j
        for what, one in (("--id-column", id_column), ("--groups", group_column), ("--weights", weight_column)):
            if one is not None and not isinstance(one, str):
                raise PurePCAError(f"{source}: {what} must be one column's name (a str), got {_show(one)}")
        self.id_index = None if id_column is None else _select(self.head, id_column, "--id-column", source)[0]
        self.group_index = None if group_column is None else _select(self.head, group_column, "--groups", source)[0]
        self.weight_index = (None if weight_column is None
                             else _select(self.head, weight_column, "--weights", source)[0])
        kept_out = {self.id_index, self.group_index, self.weight_index}
        if exclude is not None:
            kept_out.update(_select(self.head, exclude, "--exclude", source))
        self.chosen = [j for j in _select(self.head, columns, columns_option, source) if j not in kept_out]
        if not self.chosen:
            raise PurePCAError(f"{source}: no column left to analyse")
        self.names = [self.head[j] for j in self.chosen]

    def number(self, line: int, j: int, cell: str) -> float:
        """One cell as a finite float (with ``decimal`` read as the decimal point), or an error naming it."""
        text = cell.replace(self.decimal, ".") if self.decimal != "." else cell
        if self.decimal == "," and "." in cell:
            text = self._grouped(line, j, cell)
        try:
            value = _float(text)
        except ValueError:
            hint = self._delimiter_hint()
            if hint:
                pass
            elif self.decimal == "." and _is_number(cell.replace(",", ".", 1)):
                hint = "; for decimal commas use --decimal ,"
            elif not self.picked and j not in (self.id_index, self.weight_index):
                hint = (f"; if it is a label column, keep it out with --id-column {self.head[j]!r} "
                        "(or choose the numeric columns with --columns, or leave it out with --exclude)")
            raise PurePCAError(f"{self.source}: line {line}, column {self.head[j]!r}: {cell!r} is not a number"
                               + hint) from None
        if not math.isfinite(value):
            raise PurePCAError(f"{self.source}: line {line}, column {self.head[j]!r}: {cell!r} is not a finite number")
        return value

    def _grouped(self, line: int, j: int, cell: str) -> str:
        """A decimal-comma cell holding dots: there a dot groups thousands (``1.234,5`` is 1234.5, as
        Excel writes it in German or French), so the dots go where the grouping is valid (groups of
        three digits) and any other dot is an error, never a decimal point read silently."""
        if _GROUPED.match(cell):
            return cell.replace(".", "").replace(",", ".")
        raise PurePCAError(f"{self.source}: line {line}, column {self.head[j]!r}: {cell!r} holds a dot, but with "
                           "--decimal , the decimal mark is the comma and a dot can only group thousands "
                           "(1.234,5 for 1234.5); if the file's decimal mark is the dot, leave out --decimal ,")

    def _delimiter_hint(self) -> str:
        return _delimiter_hint(self.head)

    def weight(self, line: int, record: list[str]) -> float:
        """The row's weight from the --weights column: a finite number >= 0."""
        assert self.weight_index is not None
        cell = record[self.weight_index].strip()
        value = self.number(line, self.weight_index, cell)
        if value < 0:
            raise PurePCAError(f"{self.source}: line {line}, column {self.head[self.weight_index]!r}: "
                               f"the weight {cell!r} is negative")
        return value

    def _ways_out(self) -> str:
        """What the asking command offers for a missing cell: its own words, or its --missing values.

        >>> read_table(["a,b", "1,"], source="f.csv", missing_hint="fill it first")
        Traceback (most recent call last):
        ...
        purepca.errors.PurePCAError: f.csv: line 2, column 'b': a missing value (''); fill it first
        >>> read_table(["a,b", "1,"], source="f.csv", em=True)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        purepca.errors.PurePCAError: f.csv: ...; use --missing drop or --missing mean, or --missing em (iterative ...
        """
        if self.missing_hint is not None:
            return self.missing_hint
        return "use --missing drop or --missing mean" + (
            ", or --missing em (iterative PCA imputation, as missMDA's imputePCA)" if self.em else "")

    def parse(self, line: int, record: list[str], missing: str) -> list[Optional[float]]:
        """The chosen cells of one record as floats (None for a missing cell unless ``missing`` is "error")."""
        if len(record) != self.width:
            raise PurePCAError(f"{self.source}: line {line} has {len(record)} fields, expected {self.width} "
                               "(as the first line)" + self._delimiter_hint())
        row: list[Optional[float]] = []
        for j in self.chosen:
            cell = record[j].strip()
            if cell == "" or cell.lower() in MISSING:
                if missing == "error":
                    raise PurePCAError(f"{self.source}: line {line}, column {self.head[j]!r}: a missing value "
                                       f"({cell!r}); {self._ways_out()}")
                row.append(None)
                continue
            row.append(self.number(line, j, cell))
        return row


#: A number with its thousands grouped by dots and a decimal comma: 1.234 or -12.345.678,25.
_GROUPED = re.compile(r"[+-]?[0-9]{1,3}(\.[0-9]{3})+(,[0-9]+)?\Z")


def _float(text: str) -> float:
    """``float(text)`` for the numbers a CSV file holds.  float() also reads Python's 1_000 and
    non-ASCII digits ('١٢' is 12.0); R and pandas read such cells as text, and so do we."""
    if "_" in text or not text.isascii():
        raise ValueError(text)
    return float(text)


def _is_number(text: str) -> bool:
    try:
        _float(text)
    except ValueError:
        return False
    return True


def _check_options(missing: str, delimiter: str, decimal: str = ".", missing_hint: Optional[str] = None) -> None:
    for name, value in (("missing", missing), ("delimiter", delimiter), ("decimal", decimal)):
        if not isinstance(value, str):
            raise PurePCAError(f"{name} must be a str, got {_show(value)}")
    if missing_hint is not None and not isinstance(missing_hint, str):
        raise PurePCAError(f"missing_hint must be None or a str (a command's way out of a missing cell), "
                           f"got {_show(missing_hint)}")
    if missing not in ("error", "drop", "mean", "keep"):
        raise PurePCAError(f"missing must be 'error', 'drop', 'mean' or 'keep'; got {missing!r}")
    if len(delimiter) != 1:
        raise PurePCAError(f"the delimiter must be one character, got {delimiter!r}")
    if decimal not in (".", ","):
        raise PurePCAError(f"the decimal mark must be '.' or ',', got {decimal!r}")
    if decimal == delimiter:
        raise PurePCAError(f"the decimal mark and the delimiter are both {decimal!r}; "
                           "files with decimal commas separate fields with ';' (use --delimiter ';')")


def _without_bom(lines: Iterable[str], source: str = "<data>") -> Iterator[str]:
    """The lines, the first without the byte order mark Excel writes in front of "CSV UTF-8" files
    (a line that is not a str is an error naming it: csv would name no line)."""
    for number, line in enumerate(lines, start=1):
        if not isinstance(line, str):
            raise PurePCAError(f"{source}: line {number} is not text (a str), got {_show(line)}")
        yield line[1:] if number == 1 and line.startswith("\ufeff") else line


def _records(lines: Iterable[str], delimiter: str, source: str = "<data>") -> Iterator[tuple[int, list[str]]]:
    """(line number, fields) of every record but blank lines; a record of empty cells (``,,``) is a row
    of missing values, as R and pandas read it.  The line is where the record starts (a quoted cell
    may hold a newline).  Malformed CSV is an error naming the line."""
    reader = csv.reader(_without_bom(lines, source), delimiter=delimiter)
    start = 1
    while True:
        try:
            record = next(reader)
        except StopIteration:
            return
        except csv.Error as err:
            line = reader.line_num
            hint = " (a quote left open?)" if "field larger than field limit" in str(err) else ""
            raise PurePCAError(f"{source}: line {line}: not readable as CSV: {err}{hint}") from None
        number, start = start, reader.line_num + 1
        if len(record) > 1 or (record and record[0].strip()):
            yield number, record


#: Files that are not text, by their first bytes, and what they are.
_SAVE_AS_CSV = "save the sheet as CSV (in Excel: File > Save As > CSV UTF-8)"
_NOT_TEXT = (
    (b"PK\x03\x04", "a zip archive (an Excel .xlsx or OpenDocument .ods workbook?)", _SAVE_AS_CSV),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "an OLE2 compound file (an Excel .xls workbook?)", _SAVE_AS_CSV),
    (b"\x1f\x8b", "gzip-compressed", "decompress it first (gunzip -k FILE)"),
)


def decode_text(data: bytes, encoding: str, source: str) -> str:
    """``data`` decoded with ``encoding``: an unknown encoding, or bytes that are not text in it, is an
    error naming the byte and its line (and what to try).

    >>> decode_text(b"a,b\\n1,\\xe9", "utf-8", "f.csv")
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: f.csv: line 2: byte 0xe9 is not utf-8 text; pass --encoding with the file's encoding
    (cp1252 or latin-1 for most Western European files saved by Excel), or save the file as UTF-8
    """
    if not isinstance(data, (bytes, bytearray)):
        raise PurePCAError(f"{source}: decode_text: data must be bytes, got {_show(data)}")
    if not isinstance(encoding, str):
        raise PurePCAError(f"--encoding must be an encoding's name (a str), got {_show(encoding)}")
    for signature, what, advice in _NOT_TEXT:
        if data.startswith(signature):
            raise PurePCAError(f"{source}: {what}, not text: purepca reads delimited text (CSV); {advice}")
    try:
        text_encoding = getattr(codecs.lookup(encoding), "_is_text_encoding", True)
    except (LookupError, TypeError):
        raise PurePCAError(f"--encoding {encoding!r}: not an encoding Python knows (utf-8, cp1252, latin-1, ...)") \
            from None
    if not text_encoding:  # rot13, hex, base64, zlib...: bytes-to-bytes or str-to-str codecs
        raise PurePCAError(f"--encoding {encoding!r}: not a text encoding (utf-8, cp1252, latin-1, ...)")
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        raise PurePCAError(f"{source}: line {line}: byte 0x{data[err.start]:02x} is not {encoding} text; pass "
                           "--encoding with the file's encoding (cp1252 or latin-1 for most Western European files "
                           "saved by Excel), or save the file as UTF-8") from None


def csv_text(rows: list[list[str]]) -> str:
    """Rows as CSV text, each cell quoted where it must be (a comma, a quote, a line end in it).

    >>> print(csv_text([["id", "PC1"], ["Smith, John", "1.5"]]))
    id,PC1
    "Smith, John",1.5
    """
    if not isinstance(rows, (list, tuple)) or not all(isinstance(r, (list, tuple)) for r in rows):
        raise PurePCAError(f"csv_text: rows must be a list of lists of cells, got {_show(rows)}")
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue().rstrip("\n")


def read_table(
    lines: Iterable[str],
    *,
    source: str = "<data>",
    delimiter: str = ",",
    header: bool = True,
    columns: Union[None, str, Sequence[str]] = None,
    id_column: Optional[str] = None,
    missing: str = "error",
    group_column: Optional[str] = None,
    exclude: Optional[str] = None,
    weight_column: Optional[str] = None,
    decimal: str = ".",
    columns_option: str = "--columns",
    em: bool = False,
    missing_hint: Optional[str] = None,
) -> Table:
    """Parse CSV lines into a :class:`Table`.

    ``columns``, ``id_column`` and ``group_column`` name columns (or give
    0-based indices); the id and group columns are kept out of the analysis.
    ``missing``: ``"error"`` names the first missing cell; ``"drop"``
    removes incomplete rows (listwise) and counts them; ``"mean"`` puts the
    mean of the column's present values in each missing cell and counts
    them per column; ``"keep"`` leaves NaN in each missing cell (for a model
    that fills them itself, such as ``PCA(missing="em")``).  ``exclude``
    names columns left out; ``weight_column`` a column of row weights (kept
    out, read into :attr:`Table.weights`); ``decimal`` is ``"."`` or ``","``.
    A byte order mark in front of the first line is dropped.  ``columns_option``
    is how a missing column of ``columns`` is named (``--columns``, or where the
    names came from), and ``em`` adds ``--missing em`` to the ways out of a
    missing cell, where the caller offers it; ``missing_hint`` replaces
    them all, for a caller that offers no ``--missing`` (``verify``).

    >>> read_table(["a,b", "1,x"], source="f.csv")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: f.csv: line 2, column 'b': 'x' is not a number; if it is a label column, keep ...
    >>> read_table(["a,b,kind", "1,2,u", "3,4,v"], group_column="kind").groups
    ['u', 'v']
    >>> t = read_table(["\ufeffa;b;w", "1,5;2;1", "3;4,25;2"], delimiter=";", decimal=",", weight_column="w")
    >>> t.names, t.rows, t.weights
    (['a', 'b'], [[1.5, 2.0], [3.0, 4.25]], [1.0, 2.0])

    With ``decimal=","`` a dot groups thousands, and only where the grouping is valid:

    >>> read_table(["a;b", "1.234;1.234,5", "2;-12.345.678,25"], delimiter=";", decimal=",").rows
    [[1234.0, 1234.5], [2.0, -12345678.25]]
    >>> read_table(["a;b", "1.23;2", "2;3"], delimiter=";", decimal=",", source="f.csv")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: f.csv: line 2, column 'a': '1.23' holds a dot, but with --decimal , the decimal ...
    """
    _check_options(missing, delimiter, decimal, missing_hint)
    if isinstance(lines, (str, bytes, bytearray)) or not hasattr(lines, "__iter__"):
        raise PurePCAError(f"{source}: read_table: lines must be an iterable of str (a list, a file), "
                           f"got {_show(lines)}")
    records = list(_records(lines, delimiter, source))
    if not records:
        raise PurePCAError(f"{source}: no data")
    if header and len(records) == 1:
        raise PurePCAError(f"{source}: no data rows (only the header line)")
    layout = _Layout(records[0][1], source=source, header=header, columns=columns, id_column=id_column,
                     group_column=group_column, exclude=exclude, weight_column=weight_column, decimal=decimal,
                     columns_option=columns_option, em=em, missing_hint=missing_hint)
    if header:
        records = records[1:]
    rows, ids, groups, weights = _parsed(layout, records, missing)
    names = layout.names
    table = Table(names, [], ids if layout.id_index is not None else None)
    table.id_name = layout.head[layout.id_index] if layout.id_index is not None else None
    table.groups = groups if layout.group_index is not None else None
    table.weights = weights if layout.weight_index is not None else None
    _apply_missing(table, rows, ids, groups, weights, missing, source)
    if not table.rows:
        raise PurePCAError(f"{source}: no complete row left (--missing drop removed {table.dropped})")
    return table


def _parsed(layout: _Layout, records: list[tuple[int, list[str]]], missing: str
            ) -> tuple[list[list[Optional[float]]], list[str], list[str], list[float]]:
    """Each record's cells (None where missing), and its id, group and weight where the layout has them."""
    rows: list[list[Optional[float]]] = []
    ids: list[str] = []
    groups: list[str] = []
    weights: list[float] = []
    for line, record in records:
        rows.append(layout.parse(line, record, missing))
        if layout.weight_index is not None:
            weights.append(layout.weight(line, record))
        if layout.id_index is not None:
            ids.append(record[layout.id_index].strip())
        if layout.group_index is not None:
            groups.append(record[layout.group_index].strip())
    return rows, ids, groups, weights


def _apply_missing(table: Table, rows: list[list[Optional[float]]], ids: list[str], groups: list[str],
                   weights: list[float], missing: str, source: str) -> None:
    """Put the parsed rows into ``table`` as ``missing`` says: drop incomplete rows (and their ids,
    groups and weights), keep NaN, fill with the column's mean, or (``"error"``: no hole was let
    through) take them as they are."""
    names = table.names
    if missing == "drop":
        keep = [i for i, r in enumerate(rows) if all(v is not None for v in r)]
        table.dropped = len(rows) - len(keep)
        table.rows = [[float(v) for v in rows[i] if v is not None] for i in keep]
        table.ids = [ids[i] for i in keep] if table.ids is not None else None
        table.groups = [groups[i] for i in keep] if table.groups is not None else None
        table.weights = [weights[i] for i in keep] if table.weights is not None else None
    elif missing == "keep":
        table.rows = [[math.nan if v is None else float(v) for v in r] for r in rows]
    elif missing == "mean":
        filled = [list(r) for r in rows]
        for j, name in enumerate(names):
            present = [r[j] for r in rows if r[j] is not None]
            holes = len(rows) - len(present)
            if not holes:
                continue
            if not present:
                raise PurePCAError(f"{source}: column {name!r} has no value at all; it cannot be imputed")
            mean = math.fsum(present) / len(present)  # type: ignore[arg-type]
            for r in filled:
                if r[j] is None:
                    r[j] = mean
            table.imputed[name] = holes
        table.rows = [[float(v) for v in r if v is not None] for r in filled]
    else:
        table.rows = [[float(v) for v in r if v is not None] for r in rows]


class StreamedRows:
    """The numeric rows of a CSV file, read lazily (for :meth:`purepca.PCA.fit_stream`).

    Iterating reads the file once from the start, parses each record as
    :func:`read_table` does (the same messages), and yields the chosen cells
    as floats.  With ``missing="drop"`` incomplete rows are skipped and
    counted in :attr:`dropped`; with ``"mean"`` the iteration first reads
    the file once to find the means of the present values (compensated
    sums), then fills each missing cell with its column's mean, counting
    them in :attr:`imputed`.  ``progress(bytes_read, rows)`` is called as
    the file is read; ``missing_hint`` is the asking command's way out of a
    missing cell, as :func:`read_table` takes it.

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "t.csv")
    >>> with open(path, "w") as f:
    ...     _ = f.write("a,b\\n1,2\\n3,NA\\n5,7\\n")
    >>> stream = StreamedRows(path, missing="drop")
    >>> list(stream), stream.names, stream.dropped
    ([[1.0, 2.0], [5.0, 7.0]], ['a', 'b'], 1)
    >>> stream = StreamedRows(path, missing="mean")
    >>> list(stream), stream.imputed
    ([[1.0, 2.0], [3.0, 4.5], [5.0, 7.0]], {'b': 1})
    >>> stream = StreamedRows(path, missing="drop", id_column="a")
    >>> list(stream), stream.ids
    ([[2.0], [7.0]], ['1', '5'])
    """

    def __init__(self, path: str, *, delimiter: str = ",", header: bool = True, columns: Optional[str] = None,
                 id_column: Optional[str] = None, missing: str = "error",
                 progress: Optional[Callable[[int, int], None]] = None, exclude: Optional[str] = None,
                 decimal: str = ".", encoding: str = "utf-8", missing_hint: Optional[str] = None) -> None:
        if not isinstance(path, (str, os.PathLike)):
            raise PurePCAError(f"path must be a file's name (a str or a path), got {_show(path)}")
        _check_options(missing, delimiter, decimal, missing_hint)
        decode_text(b"", encoding, path)  # an encoding Python knows
        self.encoding = encoding
        if missing == "keep":
            raise PurePCAError("missing='keep' is for a whole table (read_table); a stream drops or fills its holes")
        self.path, self.delimiter, self.header, self.missing, self.progress = path, delimiter, header, missing, progress
        self.dropped = 0
        self.imputed: dict[str, int] = {}
        #: The id column's cells of the rows the last iteration yielded (None without an id column).
        self.ids: Optional[list[str]] = None
        self._id: Optional[str] = None
        with self._open() as handle:
            first = next(_records(self._lines(handle), delimiter, path), None)
        if first is None:
            raise PurePCAError(f"{path}: no data")
        self.layout = _Layout(first[1], source=path, header=header, columns=columns, id_column=id_column,
                              group_column=None, exclude=exclude, decimal=decimal, missing_hint=missing_hint)
        self.names = self.layout.names

    def _open(self) -> IO[str]:
        try:
            return open(self.path, encoding=self.encoding, newline="")
        except OSError as err:
            raise PurePCAError(f"{self.path}: cannot read it ({err.strerror or err})") from None

    def _lines(self, lines: Iterable[str]) -> Iterator[str]:
        """The lines as read, with bytes that are not text in the encoding turned into the error
        :func:`decode_text` gives (naming the line)."""
        number = 0
        try:
            for number, line in enumerate(lines, start=1):  # noqa: B007 (number names the line in the except)
                yield line
        except UnicodeDecodeError as err:
            raise PurePCAError(f"{self.path}: near line {number + 1}: byte 0x{err.object[err.start]:02x} is not "
                               f"{self.encoding} text; pass --encoding with the file's encoding (cp1252 or latin-1 "
                               "for most Western European files saved by Excel), or save the file as UTF-8") from None

    def _parsed(self, missing: str) -> Iterator[list[Optional[float]]]:
        with self._open() as handle:
            counted = _Counting(handle)
            records = _records(self._lines(counted), self.delimiter, self.path)
            if self.header:
                next(records, None)
            for rows, (line, record) in enumerate(records, start=1):
                row = self.layout.parse(line, record, missing)
                self._id = None if self.layout.id_index is None else record[self.layout.id_index].strip()
                yield row
                if self.progress is not None and rows % 1000 == 0:
                    self.progress(counted.read, rows)
            if self.progress is not None:
                self.progress(counted.read, -1)

    def __iter__(self) -> Iterator[list[float]]:
        self.dropped = 0
        self.imputed = {}
        self.ids = None if self.layout.id_index is None else []
        if self.missing == "mean":
            d = len(self.names)
            sums = [_Neumaier() for _ in range(d)]
            counts = [0] * d
            rows = 0
            for row in self._parsed("mean"):
                rows += 1
                for j, v in enumerate(row):
                    if v is not None:
                        sums[j].add(v)
                        counts[j] += 1
            holes = {self.names[j]: rows - counts[j] for j in range(d) if counts[j] < rows}
            for name, count in holes.items():
                if count == rows:
                    raise PurePCAError(f"{self.path}: column {name!r} has no value at all; it cannot be imputed")
            means = [sums[j].total / counts[j] if counts[j] else 0.0 for j in range(d)]
            self.imputed = holes
            for row in self._parsed("mean"):
                self._keep_id()
                yield [means[j] if v is None else v for j, v in enumerate(row)]
            return
        for row in self._parsed(self.missing):
            if any(v is None for v in row):
                self.dropped += 1
                continue
            self._keep_id()
            yield [v for v in row if v is not None]

    def _keep_id(self) -> None:
        if self.ids is not None and self._id is not None:
            self.ids.append(self._id)


class _Counting:
    """A text file's lines, counting the characters read (the progress of a stream)."""

    def __init__(self, handle: IO[str]) -> None:
        self.handle = handle
        self.read = 0

    def __iter__(self) -> Iterator[str]:
        for line in self.handle:
            self.read += len(line)
            yield line


class _Neumaier:
    """A running compensated sum (Neumaier's variant of Kahan's), for one pass over a stream."""

    def __init__(self) -> None:
        self.sum = 0.0
        self.carry = 0.0

    def add(self, v: float) -> None:
        t = self.sum + v
        if abs(self.sum) >= abs(v):
            self.carry += (self.sum - t) + v
        else:
            self.carry += (v - t) + self.sum
        self.sum = t

    @property
    def total(self) -> float:
        return self.sum + self.carry
