"""R-style tables: ``summary(prcomp(...))``'s importance table and the formatter behind it.

=========================  ==================================================
``PCASummary``             the importance table; ``str()`` prints it as R
``format_table``           a right-aligned table, each column formatted as R's
                           ``formatReal`` would (significant digits per column)
``format_rounded``         R's ``format(round(x, dec))`` of a whole matrix: one
                           number of decimals and one width for every cell
``print_matrix``           R's ``print(m, quote = FALSE, right = TRUE)`` of a
                           matrix of strings, wrapped at 80 characters as R does
``pca_html(pca)``          a PCA as Jupyter shows it (``PCA._repr_html_``): R's
                           importance table as an HTML table, every text
                           through :func:`purepca.markup.escape_text`
=========================  ==================================================

>>> print(format_table(["PC1", "PC2"], [("Standard deviation", [1.13315, 0.221548])], 4))
                     PC1    PC2
Standard deviation 1.133 0.2215
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Any, Sequence

from .errors import NotFittedError, PurePCAError

__all__ = ["PCASummary", "format_rounded", "format_table", "pca_html", "print_matrix"]


@dataclass(frozen=True)
class PCASummary:
    """The importance table of R's ``summary(prcomp(...))``.

    ``str()`` prints it as R does (four significant digits, each column
    formatted on its own); :meth:`to_string` takes other ``digits``.

    >>> from purepca import PCA
    >>> from purepca.datasets import toy_data
    >>> print(PCA(convention="prcomp").fit(toy_data()).summary())
    Importance of components:
                              PC1     PC2
    Standard deviation     1.1331 0.22155
    Proportion of Variance 0.9632 0.03682
    Cumulative Proportion  0.9632 1.00000
    """

    names: list[str]
    standard_deviation: list[float]
    proportion_of_variance: list[float]
    cumulative_proportion: list[float]

    @property
    def rows(self) -> list[tuple[str, list[float]]]:
        """The table as ``(label, values)`` rows."""
        return [
            ("Standard deviation", self.standard_deviation),
            ("Proportion of Variance", self.proportion_of_variance),
            ("Cumulative Proportion", self.cumulative_proportion),
        ]

    def to_string(self, digits: int = 4) -> str:
        """The table with each column showing ``digits`` significant digits (a whole number from 1 to
        22, as R's ``print`` takes).

        >>> from purepca import PCA
        >>> PCA(convention="prcomp").fit([[0.0, 1.0], [2.0, 2.0], [4.0, 4.5]]).summary().to_string(0)
        Traceback (most recent call last):
        ...
        purepca.errors.PurePCAError: digits: expected a whole number from 1 to 22 (significant digits), got 0
        """
        return "Importance of components:\n" + format_table(self.names, self.rows, _digits(digits))

    def __str__(self) -> str:
        return self.to_string()

    def to_html(self, digits: int = 4) -> str:
        """The table as HTML, each column with ``digits`` significant digits as R formats it.

        >>> from purepca import PCA
        >>> from purepca.datasets import toy_data
        >>> html = PCA(convention="prcomp").fit(toy_data()).summary().to_html()
        >>> '<th scope="row">Standard deviation</th><td>1.1331</td><td>0.22155</td>' in html
        True
        >>> PCA(convention="prcomp").fit(toy_data()).summary().to_html(-1)
        Traceback (most recent call last):
        ...
        purepca.errors.PurePCAError: digits: expected a whole number from 1 to 22 (significant digits), got -1
        """
        digits = _digits(digits)
        from .markup import escape_text  # the one escaper; HTML is not on the MicroPython bundle (micro.NOT_ON_DEVICE)
        head = "".join(f'<th scope="col">{escape_text(name)}</th>' for name in self.names)
        columns = [[f"{v:.{_r_decimals(col, digits)}f}" for v in col]
                   for col in zip(*(values for _, values in self.rows))]
        body = []
        for i, (label, _) in enumerate(self.rows):
            cells = "".join(f"<td>{escape_text(column[i])}</td>" for column in columns)
            body.append(f'<tr><th scope="row">{escape_text(label)}</th>{cells}</tr>')
        return ('<table class="purepca-summary"><caption>Importance of components</caption>'
                f"<thead><tr><th></th>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>")

    def _repr_html_(self) -> str:
        return self.to_html()


def _digits(digits: Any) -> int:
    """``digits`` checked: a whole number from 1 to 22 (R's ``print(digits=)`` range), not a bool."""
    if isinstance(digits, bool) or not isinstance(digits, numbers.Integral) or not 1 <= int(digits) <= 22:
        raise PurePCAError(f"digits: expected a whole number from 1 to 22 (significant digits), got {digits!r:.60}")
    return int(digits)


def _strings(values: Any, where: str) -> list[str]:
    """A sequence of strings, checked (an error naming the entry otherwise)."""
    if isinstance(values, (str, bytes, dict, set, frozenset)) or not hasattr(values, "__iter__"):
        raise PurePCAError(f"{where}: expected a list of strings, got {type(values).__name__} {values!r:.60}")
    out = list(values)
    for i, v in enumerate(out):
        if not isinstance(v, str):
            raise PurePCAError(f"{where}[{i}]: expected a string, got {type(v).__name__} {v!r:.60}")
    return out


def _reals(values: Any, where: str) -> list[float]:
    """A sequence of real numbers (not bools) as floats, checked."""
    if isinstance(values, (str, bytes, dict, set, frozenset)) or not hasattr(values, "__iter__"):
        raise PurePCAError(f"{where}: expected a list of numbers, got {type(values).__name__} {values!r:.60}")
    out = []
    for i, v in enumerate(values):
        try:
            if isinstance(v, bool) or not isinstance(v, numbers.Real):
                raise TypeError
            out.append(float(v))
        except (TypeError, ValueError, OverflowError):
            raise PurePCAError(f"{where}[{i}]: expected a real number (in the float range), got {v!r:.60}") from None
    return out


def _table_rows(rows: Any, width: int) -> list[tuple[str, list[float]]]:
    """``(label, values)`` rows of ``width`` numbers each, checked."""
    if isinstance(rows, (str, bytes, dict, set, frozenset)) or not hasattr(rows, "__iter__"):
        raise PurePCAError(f"rows: expected a list of (label, numbers) rows, got {type(rows).__name__} {rows!r:.60}")
    out = []
    for i, row in enumerate(rows):
        if not isinstance(row, (tuple, list)) or len(row) != 2 or not isinstance(row[0], str):
            raise PurePCAError(f"rows[{i}]: expected a (label, numbers) pair, got {row!r:.60}")
        values = _reals(row[1], f"rows[{i}] ({row[0]!r:.30})")
        if len(values) != width:
            raise PurePCAError(f"rows[{i}] ({row[0]!r:.30}): {len(values)} numbers for {width} names; every row "
                               "needs one per name")
        out.append((row[0], values))
    return out


def _r_decimals(values: Sequence[float], digits: int) -> int:
    """Decimal places for a column, as R's ``formatReal``: each value needs
    enough to show ``digits`` significant digits, less its trailing zeros; the
    column takes the most any value needs."""
    most = 0
    for v in values:
        if v == 0 or not math.isfinite(v):
            continue
        places = min(15, max(0, digits - 1 - math.floor(math.log10(abs(v)))))
        text = f"{abs(v):.{places}f}"
        if "." in text:
            places = len(text.rstrip("0").split(".")[1])
        most = max(most, places)
    return most


def format_table(names: Sequence[str], rows: Sequence[tuple[str, Sequence[float]]], digits: int) -> str:
    """A right-aligned text table whose columns are formatted like R's.

    >>> print(format_table(["A", "B"], [("x", [1.5, 0.25]), ("y", [2.0, 1.0])], 3))
        A    B
    x 1.5 0.25
    y 2.0 1.00
    """
    digits = _digits(digits)
    names, rows = _strings(names, "names"), _table_rows(rows, len(names))
    width = max((len(label) for label, _ in rows), default=0)
    columns = list(zip(*(values for _, values in rows)))
    formatted = []
    for name, col in zip(names, columns):
        places = _r_decimals(col, digits)
        cells = [f"{v:.{places}f}" for v in col]
        w = max([len(name)] + [len(c) for c in cells])
        formatted.append((name.rjust(w), [c.rjust(w) for c in cells]))
    lines = [" " * width + "".join(" " + name for name, _ in formatted)]
    for i, (label, _) in enumerate(rows):
        lines.append(label.ljust(width) + "".join(" " + cells[i] for _, cells in formatted))
    return "\n".join(lines)


def format_rounded(values: Sequence[Sequence[float]], decimals: int) -> list[list[str]]:
    """R's ``format(round(m, decimals))`` of a matrix: every value rounded to ``decimals`` places, then
    all shown with the most places any of them needs (R's seven significant digits at most, trailing
    zeros dropped) and right-justified to one width.  FactoMineR's ``summary.PCA`` formats its tables
    so (``nb.dec = 3``).

    >>> format_rounded([[3.2719, 100.0], [-0.00004, 12.3456]], 3)
    [['  3.272', '100.000'], ['  0.000', ' 12.346']]
    >>> format_rounded([[1.0, 2.5]], 3)
    [['1.0', '2.5']]
    """
    if isinstance(decimals, bool) or not isinstance(decimals, int) or not 0 <= decimals <= 15:
        raise PurePCAError(f"decimals: expected a whole number from 0 to 15, got {decimals!r:.60}")
    if isinstance(values, (str, bytes, dict, set, frozenset)) or not hasattr(values, "__iter__"):
        raise PurePCAError(f"values: expected a matrix (rows of numbers), got {type(values).__name__} {values!r:.60}")
    values = [_reals(row, f"values[{i}]") for i, row in enumerate(values)]
    rounded = [[round(float(v), decimals) + 0.0 for v in row] for row in values]  # + 0.0: R prints -0 as 0
    places = min(decimals, _r_decimals([v for row in rounded for v in row], 7))
    cells = [[f"{v:.{places}f}" for v in row] for row in rounded]
    width = max((len(c) for row in cells for c in row), default=0)
    return [[c.rjust(width) for c in row] for row in cells]


def print_matrix(row_names: Sequence[str], col_names: Sequence[str], cells: Sequence[Sequence[str]],
                 width: int = 80) -> str:
    """A matrix of strings as R's ``print(m, quote = FALSE, right = TRUE)`` shows it: the row names
    left-justified, each column right-justified to the wider of its name and its cells, one space
    between columns, and the columns wrapped into blocks no wider than ``width`` (R's
    ``options("width")``), each block with the row names.

    >>> print(print_matrix(["a", "bb"], ["x", "", "long"], [["1.0", "|", "2"], ["-3.5", "|", "4"]], width=12))
          x
    a   1.0 |
    bb -3.5 |
       long
    a     2
    bb    4
    """
    row_names, col_names = _strings(row_names, "row_names"), _strings(col_names, "col_names")
    if isinstance(width, bool) or not isinstance(width, int) or width < 1:
        raise PurePCAError(f"width: expected a whole number of characters >= 1, got {width!r:.60}")
    if isinstance(cells, (str, bytes, dict, set, frozenset)) or not hasattr(cells, "__iter__"):
        raise PurePCAError(f"cells: expected rows of strings, got {type(cells).__name__} {cells!r:.60}")
    cells = [_strings(row, f"cells[{i}]") for i, row in enumerate(cells)]
    if len(cells) != len(row_names) or any(len(row) != len(col_names) for row in cells):
        raise PurePCAError(f"cells: expected {len(row_names)} rows (one per row name) of {len(col_names)} strings "
                           "(one per column name)")
    label = max((len(name) for name in row_names), default=0)
    columns = []
    for j, name in enumerate(col_names):
        column = [row[j] for row in cells]
        w = max([len(name)] + [len(c) for c in column])
        columns.append([name.rjust(w)] + [c.rjust(w) for c in column])
    blocks: list[str] = []
    start = 0
    while start < len(columns):
        end, used = start + 1, label + 1 + len(columns[start][0])  # at least one column per block
        while end < len(columns) and used + 1 + len(columns[end][0]) <= width:
            used += 1 + len(columns[end][0])
            end += 1
        heads = [" " * label] + [name.ljust(label) for name in row_names]
        blocks.append("\n".join(head + "".join(" " + col[i] for col in columns[start:end])
                                for i, head in enumerate(heads)))
        start = end
    return "\n".join(blocks)
def pca_html(pca: Any) -> str:
    """A PCA as Jupyter shows it: what was fitted, and R's importance table; before a fit, its
    parameters (the ``repr``).  Every text is escaped by the one escaper.

    >>> from purepca import PCA
    >>> from purepca.datasets import toy_data
    >>> html = pca_html(PCA(convention="prcomp").fit(toy_data()))
    >>> html.startswith("<div"), "10 samples, 2 features" in html, "<caption>Importance of components" in html
    (True, True, True)
    >>> pca_html(PCA(n_components=2))
    '<pre>PCA(n_components=2)</pre>'
    """
    from .markup import escape_text  # the one escaper; HTML is not on the MicroPython bundle (micro.NOT_ON_DEVICE)

    # The estimator's own reader (pca.py imports this module: no import of pca here, lazy or not).
    if not all(callable(getattr(pca, name, None)) for name in ("summary", "get_params", "fit")):
        raise PurePCAError(f"pca_html: expected a purepca.PCA, got {type(pca).__name__}")
    try:
        summary = pca.summary()
    except NotFittedError:  # its parameters, as the text repr shows them
        return f"<pre>{escape_text(repr(pca))}</pre>"
    about = (f"{type(pca).__name__} of {pca.n_samples_} samples, {pca.n_features_in_} features: "
             f"convention {pca.convention}, solver {pca.solver_}")
    return f'<div class="purepca"><p>{escape_text(about)}</p>{summary.to_html()}</div>'
