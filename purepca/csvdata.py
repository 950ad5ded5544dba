"""Reading a data table from CSV text: the columns to analyse, an id column, missing values.

What the command line reads.  Every problem is a :class:`PurePCAError` that
names the source, the line and the column, so a user's mistake gets one
line, never a traceback.

>>> table = read_table(["state,a,b", "x,1,2", "y,3,NA", "z,5,7"], source="t.csv", id_column="state", missing="drop")
>>> table.names, table.rows, table.ids, table.dropped
(['a', 'b'], [[1.0, 2.0], [5.0, 7.0]], ['x', 'z'], 1)
"""

from __future__ import annotations

import csv
import math
from dataclasses import dataclass, field
from typing import Iterable, Optional

from .errors import PurePCAError

__all__ = ["MISSING", "Table", "read_table"]

#: Cells read as a missing value (case-insensitive), besides the empty cell.
MISSING = ("na", "nan", "n/a", "null", "none", "?", ".")


@dataclass
class Table:
    """Numeric rows with their column names, row ids and what was done about missing cells."""

    names: list[str]
    rows: list[list[float]]
    ids: Optional[list[str]] = None
    dropped: int = 0
    imputed: dict[str, int] = field(default_factory=dict)


def _select(header: list[str], spec: Optional[str], what: str, source: str) -> list[int]:
    """Column indices from a comma-separated list of names or 0-based indices."""
    if spec is None:
        return list(range(len(header)))
    out = []
    for item in (s.strip() for s in spec.split(",")):
        if item in header:
            out.append(header.index(item))
        elif item.lstrip("-").isdigit() and 0 <= int(item) < len(header):
            out.append(int(item))
        else:
            raise PurePCAError(f"{source}: {what}: no column {item!r} (columns: {', '.join(header)})")
    return out


def read_table(
    lines: Iterable[str],
    *,
    source: str = "<data>",
    delimiter: str = ",",
    header: bool = True,
    columns: Optional[str] = None,
    id_column: Optional[str] = None,
    missing: str = "error",
) -> Table:
    """Parse CSV lines into a :class:`Table`.

    ``columns`` and ``id_column`` name columns (or give 0-based indices);
    the id column is kept out of the analysis.  ``missing``: ``"error"``
    names the first missing cell; ``"drop"`` removes incomplete rows
    (listwise) and counts them; ``"mean"`` puts the mean of the column's
    present values in each missing cell and counts them per column.

    >>> read_table(["a,b", "1,x"], source="f.csv")
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: f.csv: line 2, column 'b': 'x' is not a number
    """
    if missing not in ("error", "drop", "mean"):
        raise PurePCAError(f"missing must be 'error', 'drop' or 'mean'; got {missing!r}")
    if len(delimiter) != 1:
        raise PurePCAError(f"the delimiter must be one character, got {delimiter!r}")
    records = [(n, r) for n, r in enumerate(csv.reader(lines, delimiter=delimiter), start=1) if r and any(c.strip() for c in r)]
    if not records:
        raise PurePCAError(f"{source}: no data")
    if header:
        head = [c.strip() for c in records[0][1]]
        records = records[1:]
    else:
        head = [f"x{j + 1}" for j in range(len(records[0][1]))]
    width = len(head)
    id_index = None if id_column is None else _select(head, id_column, "--id-column", source)[0]
    chosen = [j for j in _select(head, columns, "--columns", source) if j != id_index]
    if not chosen:
        raise PurePCAError(f"{source}: no column left to analyse")
    rows: list[list[Optional[float]]] = []
    ids: list[str] = []
    for line, record in records:
        if len(record) != width:
            raise PurePCAError(f"{source}: line {line} has {len(record)} fields, expected {width} (as the first line)")
        row: list[Optional[float]] = []
        for j in chosen:
            cell = record[j].strip()
            if cell == "" or cell.lower() in MISSING:
                if missing == "error":
                    raise PurePCAError(
                        f"{source}: line {line}, column {head[j]!r}: a missing value ({cell!r}); "
                        "use --missing drop or --missing mean"
                    )
                row.append(None)
                continue
            try:
                value = float(cell)
            except ValueError:
                raise PurePCAError(f"{source}: line {line}, column {head[j]!r}: {cell!r} is not a number") from None
            if not math.isfinite(value):
                raise PurePCAError(f"{source}: line {line}, column {head[j]!r}: {cell!r} is not a finite number")
            row.append(value)
        rows.append(row)
        if id_index is not None:
            ids.append(record[id_index].strip())
    names = [head[j] for j in chosen]
    table = Table(names, [], ids if id_index is not None else None)
    if missing == "drop":
        keep = [i for i, r in enumerate(rows) if all(v is not None for v in r)]
        table.dropped = len(rows) - len(keep)
        table.rows = [[float(v) for v in rows[i] if v is not None] for i in keep]
        table.ids = [ids[i] for i in keep] if table.ids is not None else None
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
    if not table.rows:
        raise PurePCAError(f"{source}: no complete row left (--missing drop removed {table.dropped})")
    return table
