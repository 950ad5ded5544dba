"""R-style tables: ``summary(prcomp(...))``'s importance table and the formatter behind it.

=========================  ==================================================
``PCASummary``             the importance table; ``str()`` prints it as R
``format_table``           a right-aligned table, each column formatted as R's
                           ``formatReal`` would (significant digits per column)
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
from dataclasses import dataclass
from typing import Any, Sequence

from .errors import NotFittedError

__all__ = ["PCASummary", "format_table", "pca_html"]


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
        """The table with each column showing ``digits`` significant digits."""
        return "Importance of components:\n" + format_table(self.names, self.rows, digits)

    def __str__(self) -> str:
        return self.to_string()

    def to_html(self, digits: int = 4) -> str:
        """The table as HTML, each column with ``digits`` significant digits as R formats it.

        >>> from purepca import PCA
        >>> from purepca.datasets import toy_data
        >>> html = PCA(convention="prcomp").fit(toy_data()).summary().to_html()
        >>> '<th scope="row">Standard deviation</th><td>1.1331</td><td>0.22155</td>' in html
        True
        """
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
    width = max(len(label) for label, _ in rows)
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
    try:
        summary = pca.summary()
    except NotFittedError:  # its parameters, as the text repr shows them
        return f"<pre>{escape_text(repr(pca))}</pre>"
    about = (f"{type(pca).__name__} of {pca.n_samples_} samples, {pca.n_features_in_} features: "
             f"convention {pca.convention}, solver {pca.solver_}")
    return f'<div class="purepca"><p>{escape_text(about)}</p>{summary.to_html()}</div>'
