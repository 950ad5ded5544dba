"""Data sets bundled with purepca, as plain lists, with the analyses published for them.

``toy_data()`` is seed 003's ten points.  ``load("usarrests")`` and
``load("iris")`` are the two classic tables whose PCA textbooks print;
each :class:`Dataset` carries the published numbers and their source, which
``purepca check`` and the tests reproduce.

>>> X = toy_data()
>>> len(X), len(X[0])
(10, 2)
>>> arrests = load("usarrests")
>>> arrests.columns, len(arrests.rows), arrests.labels[:2]
(('Murder', 'Assault', 'UrbanPop', 'Rape'), 50, ['Alabama', 'Alaska'])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

__all__ = ["DATASETS", "Dataset", "Published", "load", "toy_data"]

# The toy data of R's prcomp example in seed 003 (ten points in the plane),
# stored row by row.
_TOY = (
    (2.5, 2.4), (0.5, 0.7), (2.2, 2.9), (1.9, 2.2), (3.1, 3.0),
    (2.3, 2.7), (2.0, 1.6), (1.0, 1.1), (1.5, 1.6), (1.1, 0.9),
)


def toy_data() -> list[list[float]]:
    """The 10 x 2 toy data set used to validate against R's ``prcomp`` (a fresh copy).

    >>> toy_data()[0]
    [2.5, 2.4]
    """
    return [list(row) for row in _TOY]


@dataclass(frozen=True)
class Published:
    """A published PCA of a bundled data set: what was run, where it is printed, and its numbers.

    ``sdev`` are the standard deviations of the components as printed (R
    prints seven significant digits); ``rotation`` the loadings, one row per
    column of the data, up to the sign of each component (the sign is the
    solver's and differs between LAPACK builds, which R's documentation of
    ``prcomp`` says); ``proportion`` the proportions of variance of
    ``summary()``.  Each is a string as printed, so that the number of
    decimals printed is kept.
    """

    call: str
    source: str
    scale: bool
    sdev: tuple[str, ...]
    proportion: tuple[str, ...]
    rotation: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Dataset:
    """A bundled data table: numeric columns, a label per row, and published analyses.

    >>> iris = load("iris")
    >>> iris.columns, iris.label_name, sorted(set(iris.labels))
    (('Sepal.Length', 'Sepal.Width', 'Petal.Length', 'Petal.Width'), 'Species', ['setosa', 'versicolor', 'virginica'])
    >>> print(iris.to_csv().splitlines()[1])
    setosa,5.1,3.5,1.4,0.2
    """

    name: str
    title: str
    source: str
    columns: tuple[str, ...]
    label_name: str
    labels: list[str]
    rows: list[list[float]]
    published: tuple[Published, ...]

    def to_csv(self) -> str:
        """The table as CSV text: the label column first, then the numeric columns (``repr`` of each float)."""
        lines = [",".join((self.label_name,) + self.columns)]
        for label, row in zip(self.labels, self.rows):
            lines.append(",".join([label] + [repr(v) for v in row]))
        return "\n".join(lines) + "\n"


# McNeil (1977), as R's datasets::USArrests has it: arrests per 100,000
# residents for assault, murder and rape in each of the 50 US states in 1973,
# and the percent of the population living in urban areas.
_USARRESTS = (
    ('Alabama', 13.2, 236, 58, 21.2),
    ('Alaska', 10, 263, 48, 44.5),
    ('Arizona', 8.1, 294, 80, 31),
    ('Arkansas', 8.8, 190, 50, 19.5),
    ('California', 9, 276, 91, 40.6),
    ('Colorado', 7.9, 204, 78, 38.7),
    ('Connecticut', 3.3, 110, 77, 11.1),
    ('Delaware', 5.9, 238, 72, 15.8),
    ('Florida', 15.4, 335, 80, 31.9),
    ('Georgia', 17.4, 211, 60, 25.8),
    ('Hawaii', 5.3, 46, 83, 20.2),
    ('Idaho', 2.6, 120, 54, 14.2),
    ('Illinois', 10.4, 249, 83, 24),
    ('Indiana', 7.2, 113, 65, 21),
    ('Iowa', 2.2, 56, 57, 11.3),
    ('Kansas', 6, 115, 66, 18),
    ('Kentucky', 9.7, 109, 52, 16.3),
    ('Louisiana', 15.4, 249, 66, 22.2),
    ('Maine', 2.1, 83, 51, 7.8),
    ('Maryland', 11.3, 300, 67, 27.8),
    ('Massachusetts', 4.4, 149, 85, 16.3),
    ('Michigan', 12.1, 255, 74, 35.1),
    ('Minnesota', 2.7, 72, 66, 14.9),
    ('Mississippi', 16.1, 259, 44, 17.1),
    ('Missouri', 9, 178, 70, 28.2),
    ('Montana', 6, 109, 53, 16.4),
    ('Nebraska', 4.3, 102, 62, 16.5),
    ('Nevada', 12.2, 252, 81, 46),
    ('New Hampshire', 2.1, 57, 56, 9.5),
    ('New Jersey', 7.4, 159, 89, 18.8),
    ('New Mexico', 11.4, 285, 70, 32.1),
    ('New York', 11.1, 254, 86, 26.1),
    ('North Carolina', 13, 337, 45, 16.1),
    ('North Dakota', 0.8, 45, 44, 7.3),
    ('Ohio', 7.3, 120, 75, 21.4),
    ('Oklahoma', 6.6, 151, 68, 20),
    ('Oregon', 4.9, 159, 67, 29.3),
    ('Pennsylvania', 6.3, 106, 72, 14.9),
    ('Rhode Island', 3.4, 174, 87, 8.3),
    ('South Carolina', 14.4, 279, 48, 22.5),
    ('South Dakota', 3.8, 86, 45, 12.8),
    ('Tennessee', 13.2, 188, 59, 26.9),
    ('Texas', 12.7, 201, 80, 25.5),
    ('Utah', 3.2, 120, 80, 22.9),
    ('Vermont', 2.2, 48, 32, 11.2),
    ('Virginia', 8.5, 156, 63, 20.7),
    ('Washington', 4, 145, 73, 26.2),
    ('West Virginia', 5.7, 81, 39, 9.3),
    ('Wisconsin', 2.6, 53, 66, 10.8),
    ('Wyoming', 6.8, 161, 60, 15.6),
)

# Fisher (1936) / Anderson (1935), as R's datasets::iris and scikit-learn's
# load_iris (which corrected samples 35 and 38 to Fisher's paper in 0.20)
# have it: 50 flowers of each of three species, in the order setosa,
# versicolor, virginica.
_IRIS = (
    (5.1, 3.5, 1.4, 0.2), (4.9, 3.0, 1.4, 0.2), (4.7, 3.2, 1.3, 0.2),
    (4.6, 3.1, 1.5, 0.2), (5.0, 3.6, 1.4, 0.2), (5.4, 3.9, 1.7, 0.4),
    (4.6, 3.4, 1.4, 0.3), (5.0, 3.4, 1.5, 0.2), (4.4, 2.9, 1.4, 0.2),
    (4.9, 3.1, 1.5, 0.1), (5.4, 3.7, 1.5, 0.2), (4.8, 3.4, 1.6, 0.2),
    (4.8, 3.0, 1.4, 0.1), (4.3, 3.0, 1.1, 0.1), (5.8, 4.0, 1.2, 0.2),
    (5.7, 4.4, 1.5, 0.4), (5.4, 3.9, 1.3, 0.4), (5.1, 3.5, 1.4, 0.3),
    (5.7, 3.8, 1.7, 0.3), (5.1, 3.8, 1.5, 0.3), (5.4, 3.4, 1.7, 0.2),
    (5.1, 3.7, 1.5, 0.4), (4.6, 3.6, 1.0, 0.2), (5.1, 3.3, 1.7, 0.5),
    (4.8, 3.4, 1.9, 0.2), (5.0, 3.0, 1.6, 0.2), (5.0, 3.4, 1.6, 0.4),
    (5.2, 3.5, 1.5, 0.2), (5.2, 3.4, 1.4, 0.2), (4.7, 3.2, 1.6, 0.2),
    (4.8, 3.1, 1.6, 0.2), (5.4, 3.4, 1.5, 0.4), (5.2, 4.1, 1.5, 0.1),
    (5.5, 4.2, 1.4, 0.2), (4.9, 3.1, 1.5, 0.2), (5.0, 3.2, 1.2, 0.2),
    (5.5, 3.5, 1.3, 0.2), (4.9, 3.6, 1.4, 0.1), (4.4, 3.0, 1.3, 0.2),
    (5.1, 3.4, 1.5, 0.2), (5.0, 3.5, 1.3, 0.3), (4.5, 2.3, 1.3, 0.3),
    (4.4, 3.2, 1.3, 0.2), (5.0, 3.5, 1.6, 0.6), (5.1, 3.8, 1.9, 0.4),
    (4.8, 3.0, 1.4, 0.3), (5.1, 3.8, 1.6, 0.2), (4.6, 3.2, 1.4, 0.2),
    (5.3, 3.7, 1.5, 0.2), (5.0, 3.3, 1.4, 0.2), (7.0, 3.2, 4.7, 1.4),
    (6.4, 3.2, 4.5, 1.5), (6.9, 3.1, 4.9, 1.5), (5.5, 2.3, 4.0, 1.3),
    (6.5, 2.8, 4.6, 1.5), (5.7, 2.8, 4.5, 1.3), (6.3, 3.3, 4.7, 1.6),
    (4.9, 2.4, 3.3, 1.0), (6.6, 2.9, 4.6, 1.3), (5.2, 2.7, 3.9, 1.4),
    (5.0, 2.0, 3.5, 1.0), (5.9, 3.0, 4.2, 1.5), (6.0, 2.2, 4.0, 1.0),
    (6.1, 2.9, 4.7, 1.4), (5.6, 2.9, 3.6, 1.3), (6.7, 3.1, 4.4, 1.4),
    (5.6, 3.0, 4.5, 1.5), (5.8, 2.7, 4.1, 1.0), (6.2, 2.2, 4.5, 1.5),
    (5.6, 2.5, 3.9, 1.1), (5.9, 3.2, 4.8, 1.8), (6.1, 2.8, 4.0, 1.3),
    (6.3, 2.5, 4.9, 1.5), (6.1, 2.8, 4.7, 1.2), (6.4, 2.9, 4.3, 1.3),
    (6.6, 3.0, 4.4, 1.4), (6.8, 2.8, 4.8, 1.4), (6.7, 3.0, 5.0, 1.7),
    (6.0, 2.9, 4.5, 1.5), (5.7, 2.6, 3.5, 1.0), (5.5, 2.4, 3.8, 1.1),
    (5.5, 2.4, 3.7, 1.0), (5.8, 2.7, 3.9, 1.2), (6.0, 2.7, 5.1, 1.6),
    (5.4, 3.0, 4.5, 1.5), (6.0, 3.4, 4.5, 1.6), (6.7, 3.1, 4.7, 1.5),
    (6.3, 2.3, 4.4, 1.3), (5.6, 3.0, 4.1, 1.3), (5.5, 2.5, 4.0, 1.3),
    (5.5, 2.6, 4.4, 1.2), (6.1, 3.0, 4.6, 1.4), (5.8, 2.6, 4.0, 1.2),
    (5.0, 2.3, 3.3, 1.0), (5.6, 2.7, 4.2, 1.3), (5.7, 3.0, 4.2, 1.2),
    (5.7, 2.9, 4.2, 1.3), (6.2, 2.9, 4.3, 1.3), (5.1, 2.5, 3.0, 1.1),
    (5.7, 2.8, 4.1, 1.3), (6.3, 3.3, 6.0, 2.5), (5.8, 2.7, 5.1, 1.9),
    (7.1, 3.0, 5.9, 2.1), (6.3, 2.9, 5.6, 1.8), (6.5, 3.0, 5.8, 2.2),
    (7.6, 3.0, 6.6, 2.1), (4.9, 2.5, 4.5, 1.7), (7.3, 2.9, 6.3, 1.8),
    (6.7, 2.5, 5.8, 1.8), (7.2, 3.6, 6.1, 2.5), (6.5, 3.2, 5.1, 2.0),
    (6.4, 2.7, 5.3, 1.9), (6.8, 3.0, 5.5, 2.1), (5.7, 2.5, 5.0, 2.0),
    (5.8, 2.8, 5.1, 2.4), (6.4, 3.2, 5.3, 2.3), (6.5, 3.0, 5.5, 1.8),
    (7.7, 3.8, 6.7, 2.2), (7.7, 2.6, 6.9, 2.3), (6.0, 2.2, 5.0, 1.5),
    (6.9, 3.2, 5.7, 2.3), (5.6, 2.8, 4.9, 2.0), (7.7, 2.8, 6.7, 2.0),
    (6.3, 2.7, 4.9, 1.8), (6.7, 3.3, 5.7, 2.1), (7.2, 3.2, 6.0, 1.8),
    (6.2, 2.8, 4.8, 1.8), (6.1, 3.0, 4.9, 1.8), (6.4, 2.8, 5.6, 2.1),
    (7.2, 3.0, 5.8, 1.6), (7.4, 2.8, 6.1, 1.9), (7.9, 3.8, 6.4, 2.0),
    (6.4, 2.8, 5.6, 2.2), (6.3, 2.8, 5.1, 1.5), (6.1, 2.6, 5.6, 1.4),
    (7.7, 3.0, 6.1, 2.3), (6.3, 3.4, 5.6, 2.4), (6.4, 3.1, 5.5, 1.8),
    (6.0, 3.0, 4.8, 1.8), (6.9, 3.1, 5.4, 2.1), (6.7, 3.1, 5.6, 2.4),
    (6.9, 3.1, 5.1, 2.3), (5.8, 2.7, 5.1, 1.9), (6.8, 3.2, 5.9, 2.3),
    (6.7, 3.3, 5.7, 2.5), (6.7, 3.0, 5.2, 2.3), (6.3, 2.5, 5.0, 1.9),
    (6.5, 3.0, 5.2, 2.0), (6.2, 3.4, 5.4, 2.3), (5.9, 3.0, 5.1, 1.8),
)

_USARRESTS_PCA = Published(
    call="prcomp(USArrests, scale. = TRUE)",
    source="R's example of prcomp (?prcomp); James, Witten, Hastie and Tibshirani, "
    "An Introduction to Statistical Learning, section 12.5.1 (2nd ed.)",
    scale=True,
    sdev=("1.5748783", "0.9948694", "0.5971291", "0.4164494"),
    proportion=("0.6201", "0.2474", "0.08914", "0.04336"),
    rotation=(
        ("0.5358995", "0.4181809", "0.3412327", "0.64922780"),
        ("0.5831836", "0.1879856", "0.2681484", "0.74340748"),
        ("0.2781909", "0.8728062", "0.3780158", "0.13387773"),
        ("0.5434321", "0.1673186", "0.8177779", "0.08902432"),
    ),
)

_IRIS_PCA = (
    Published(
        call="prcomp(iris[, 1:4])",
        source="R, prcomp of the four measurements of datasets::iris (covariance)",
        scale=False,
        sdev=("2.0562689", "0.4926162", "0.2796596", "0.1543862"),
        proportion=("0.9246", "0.05307", "0.01710", "0.00521"),
        rotation=(
            ("0.36138659", "0.65658877", "0.58202985", "0.3154872"),
            ("0.08452251", "0.73016143", "0.59791083", "0.3197231"),
            ("0.85667061", "0.17337266", "0.07623608", "0.4798390"),
            ("0.35828920", "0.07548102", "0.54583143", "0.7536574"),
        ),
    ),
    Published(
        call="prcomp(iris[, 1:4], scale. = TRUE)",
        source="R, prcomp of the four measurements of datasets::iris (correlation)",
        scale=True,
        sdev=("1.7083611", "0.9560494", "0.3830886", "0.1439265"),
        proportion=("0.7296", "0.2285", "0.03669", "0.00518"),
        rotation=(
            ("0.5210659", "0.37741762", "0.7195664", "0.2612863"),
            ("0.2693474", "0.92329566", "0.2443818", "0.1235096"),
            ("0.5804131", "0.02449161", "0.1421264", "0.8014492"),
            ("0.5648565", "0.06694199", "0.6342727", "0.5235971"),
        ),
    ),
)

_SPECIES = ("setosa", "versicolor", "virginica")


_TOY_PCA = Published(
    call="prcomp(X)",
    source="seed 003: R's prcomp of the ten points (sdev, rotation, summary)",
    scale=False,
    sdev=("1.1331495", "0.2215477"),
    proportion=("0.9631813", "0.03681869"),
    rotation=(("0.6778734", "0.7351787"), ("0.7351787", "0.6778734")),
)


def _toy() -> Dataset:
    return Dataset(
        name="toy",
        title="toy: the ten points in the plane of seed 003 (R's prcomp example)",
        source="seed 003",
        columns=("x1", "x2"),
        label_name="name",
        labels=[str(i + 1) for i in range(len(_TOY))],
        rows=toy_data(),
        published=(_TOY_PCA,),
    )


def _usarrests() -> Dataset:
    return Dataset(
        name="usarrests",
        title="USArrests: violent crime rates by US state, 1973",
        source="McNeil, D. R. (1977) Interactive Data Analysis. Wiley; R's datasets::USArrests",
        columns=("Murder", "Assault", "UrbanPop", "Rape"),
        label_name="name",
        labels=[row[0] for row in _USARRESTS],
        rows=[[float(v) for v in row[1:]] for row in _USARRESTS],
        published=(_USARRESTS_PCA,),
    )


def _iris() -> Dataset:
    return Dataset(
        name="iris",
        title="iris: sepal and petal measurements of 150 flowers of three species",
        source="Fisher, R. A. (1936) The use of multiple measurements in taxonomic problems. "
        "Annals of Eugenics 7, 179-188; R's datasets::iris",
        columns=("Sepal.Length", "Sepal.Width", "Petal.Length", "Petal.Width"),
        label_name="Species",
        labels=[_SPECIES[i // 50] for i in range(len(_IRIS))],
        rows=[[float(v) for v in row] for row in _IRIS],
        published=_IRIS_PCA,
    )


_MAKERS: dict[str, Callable[[], Dataset]] = {"usarrests": _usarrests, "iris": _iris, "toy": _toy}

#: The names of the bundled data sets (``load`` takes any of them).
DATASETS: tuple[str, ...] = tuple(sorted(_MAKERS))


def load(name: str) -> Dataset:
    """A bundled data set by name (``"usarrests"``, ``"iris"`` or ``"toy"``), as a fresh copy.

    >>> load("usarrests").rows[0]
    [13.2, 236.0, 58.0, 21.2]
    >>> load("mtcars")
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: dataset: no bundled data set 'mtcars' (bundled: iris, toy, usarrests)
    """
    from .errors import PurePCAError

    maker = _MAKERS.get(name.lower()) if isinstance(name, str) else None
    if maker is None:
        raise PurePCAError(f"dataset: no bundled data set {name!r} (bundled: {', '.join(sorted(_MAKERS))})")
    return maker()
