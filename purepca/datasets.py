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
from typing import Callable, Optional

__all__ = ["DATASETS", "Dataset", "Published", "PublishedFactoMineR", "load", "toy_data"]

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
class PublishedFactoMineR:
    """FactoMineR's ``summary(PCA(...))`` of a bundled data set, as printed (strings keep the decimals).

    ``eigenvalues``, ``percent`` and ``cumulative`` are the table of
    eigenvalues; ``individuals`` maps the first rows' labels to
    ``(dist, coord, ctr, cos2, coord, ctr, cos2, ...)`` for the printed
    dimensions; ``variables`` maps each active column to ``(coord, ctr,
    cos2, ...)``; ``supplementary`` each supplementary column to ``(coord,
    cos2, ...)``; ``categories`` each category of the supplementary
    categorical column to ``(dist, coord, cos2, v.test, ...)``; ``coordinates`` is ``res.pca$var$coord`` printed with
    more digits (the first five dimensions); ``correlations`` the
    correlations of ``dimdesc`` for the first dimension.  Signs are
    FactoMineR's own (its sign rule, ``convention="factominer"``).
    """

    call: str
    source: str
    active: tuple[str, ...]
    supplementary: tuple[str, ...]
    eigenvalues: tuple[str, ...]
    percent: tuple[str, ...]
    cumulative: tuple[str, ...]
    individuals: dict[str, tuple[str, ...]]
    variables: dict[str, tuple[str, ...]]
    supplementary_results: dict[str, tuple[str, ...]]
    coordinates: dict[str, tuple[str, ...]]
    correlations: dict[str, str]
    #: The supplementary categories: ``(dist, coord, cos2, v.test, coord, cos2, v.test, ...)``.
    categories: dict[str, tuple[str, ...]]


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
    #: The columns analysed by default (None: all); the others are supplementary.
    active: Optional[tuple[str, ...]] = None
    #: A categorical column, ``(name, values)``, written last by ``to_csv``.
    groups: Optional[tuple[str, tuple[str, ...]]] = None
    factominer: Optional[PublishedFactoMineR] = None

    def to_csv(self) -> str:
        """The table as CSV text: the label column first, then the numeric columns (``repr`` of each float)."""
        group = (self.groups[0],) if self.groups is not None else ()
        values = self.groups[1] if self.groups is not None else [None] * len(self.rows)
        lines = [",".join((self.label_name,) + self.columns + group)]
        for label, row, value in zip(self.labels, self.rows, values):
            lines.append(",".join([label] + [repr(v) for v in row] + ([value] if value is not None else [])))
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


# FactoMineR's data(decathlon), read from its data/decathlon.rda: 41 decathletes
# at the 2004 Olympic Games in Athens and at the Decastar meeting a month later
# (nine took part in both): the ten events in the order they were run, the
# rank and the points of each, and the competition.
_DECATHLON_COLUMNS = ("100m", "Long.jump", "Shot.put", "High.jump", "400m", "110m.hurdle", "Discus", "Pole.vault",
                      "Javeline", "1500m", "Rank", "Points")
_DECATHLON = (
    ('SEBRLE', 11.04, 7.58, 14.83, 2.07, 49.81, 14.69, 43.75, 5.02, 63.19, 291.7, 1, 8217, 'Decastar'),
    ('CLAY', 10.76, 7.4, 14.26, 1.86, 49.37, 14.05, 50.72, 4.92, 60.15, 301.5, 2, 8122, 'Decastar'),
    ('KARPOV', 11.02, 7.3, 14.77, 2.04, 48.37, 14.09, 48.95, 4.92, 50.31, 300.2, 3, 8099, 'Decastar'),
    ('BERNARD', 11.02, 7.23, 14.25, 1.92, 48.93, 14.99, 40.87, 5.32, 62.77, 280.1, 4, 8067, 'Decastar'),
    ('YURKOV', 11.34, 7.09, 15.19, 2.1, 50.42, 15.31, 46.26, 4.72, 63.44, 276.4, 5, 8036, 'Decastar'),
    ('WARNERS', 11.11, 7.6, 14.31, 1.98, 48.68, 14.23, 41.1, 4.92, 51.77, 278.1, 6, 8030, 'Decastar'),
    ('ZSIVOCZKY', 11.13, 7.3, 13.48, 2.01, 48.62, 14.17, 45.67, 4.42, 55.37, 268.0, 7, 8004, 'Decastar'),
    ('McMULLEN', 10.83, 7.31, 13.76, 2.13, 49.91, 14.38, 44.41, 4.42, 56.37, 285.1, 8, 7995, 'Decastar'),
    ('MARTINEAU', 11.64, 6.81, 14.57, 1.95, 50.14, 14.93, 47.6, 4.92, 52.33, 262.1, 9, 7802, 'Decastar'),
    ('HERNU', 11.37, 7.56, 14.41, 1.86, 51.1, 15.06, 44.99, 4.82, 57.19, 285.1, 10, 7733, 'Decastar'),
    ('BARRAS', 11.33, 6.97, 14.09, 1.95, 49.48, 14.48, 42.1, 4.72, 55.4, 282.0, 11, 7708, 'Decastar'),
    ('NOOL', 11.33, 7.27, 12.68, 1.98, 49.2, 15.29, 37.92, 4.62, 57.44, 266.6, 12, 7651, 'Decastar'),
    ('BOURGUIGNON', 11.36, 6.8, 13.46, 1.86, 51.16, 15.67, 40.49, 5.02, 54.68, 291.7, 13, 7313, 'Decastar'),
    ('Sebrle', 10.85, 7.84, 16.36, 2.12, 48.36, 14.05, 48.72, 5.0, 70.52, 280.01, 1, 8893, 'OlympicG'),
    ('Clay', 10.44, 7.96, 15.23, 2.06, 49.19, 14.13, 50.11, 4.9, 69.71, 282.0, 2, 8820, 'OlympicG'),
    ('Karpov', 10.5, 7.81, 15.93, 2.09, 46.81, 13.97, 51.65, 4.6, 55.54, 278.11, 3, 8725, 'OlympicG'),
    ('Macey', 10.89, 7.47, 15.73, 2.15, 48.97, 14.56, 48.34, 4.4, 58.46, 265.42, 4, 8414, 'OlympicG'),
    ('Warners', 10.62, 7.74, 14.48, 1.97, 47.97, 14.01, 43.73, 4.9, 55.39, 278.05, 5, 8343, 'OlympicG'),
    ('Zsivoczky', 10.91, 7.14, 15.31, 2.12, 49.4, 14.95, 45.62, 4.7, 63.45, 269.54, 6, 8287, 'OlympicG'),
    ('Hernu', 10.97, 7.19, 14.65, 2.03, 48.73, 14.25, 44.72, 4.8, 57.76, 264.35, 7, 8237, 'OlympicG'),
    ('Nool', 10.8, 7.53, 14.26, 1.88, 48.81, 14.8, 42.05, 5.4, 61.33, 276.33, 8, 8235, 'OlympicG'),
    ('Bernard', 10.69, 7.48, 14.8, 2.12, 49.13, 14.17, 44.75, 4.4, 55.27, 276.31, 9, 8225, 'OlympicG'),
    ('Schwarzl', 10.98, 7.49, 14.01, 1.94, 49.76, 14.25, 42.43, 5.1, 56.32, 273.56, 10, 8102, 'OlympicG'),
    ('Pogorelov', 10.95, 7.31, 15.1, 2.06, 50.79, 14.21, 44.6, 5.0, 53.45, 287.63, 11, 8084, 'OlympicG'),
    ('Schoenbeck', 10.9, 7.3, 14.77, 1.88, 50.3, 14.34, 44.41, 5.0, 60.89, 278.82, 12, 8077, 'OlympicG'),
    ('Barras', 11.14, 6.99, 14.91, 1.94, 49.41, 14.37, 44.83, 4.6, 64.55, 267.09, 13, 8067, 'OlympicG'),
    ('Smith', 10.85, 6.81, 15.24, 1.91, 49.27, 14.01, 49.02, 4.2, 61.52, 272.74, 14, 8023, 'OlympicG'),
    ('Averyanov', 10.55, 7.34, 14.44, 1.94, 49.72, 14.39, 39.88, 4.8, 54.51, 271.02, 15, 8021, 'OlympicG'),
    ('Ojaniemi', 10.68, 7.5, 14.97, 1.94, 49.12, 15.01, 40.35, 4.6, 59.26, 275.71, 16, 8006, 'OlympicG'),
    ('Smirnov', 10.89, 7.07, 13.88, 1.94, 49.11, 14.77, 42.47, 4.7, 60.88, 263.31, 17, 7993, 'OlympicG'),
    ('Qi', 11.06, 7.34, 13.55, 1.97, 49.65, 14.78, 45.13, 4.5, 60.79, 272.63, 18, 7934, 'OlympicG'),
    ('Drews', 10.87, 7.38, 13.07, 1.88, 48.51, 14.01, 40.11, 5.0, 51.53, 274.21, 19, 7926, 'OlympicG'),
    ('Parkhomenko', 11.14, 6.61, 15.69, 2.03, 51.04, 14.88, 41.9, 4.8, 65.82, 277.94, 20, 7918, 'OlympicG'),
    ('Terek', 10.92, 6.94, 15.15, 1.94, 49.56, 15.12, 45.62, 5.3, 50.62, 290.36, 21, 7893, 'OlympicG'),
    ('Gomez', 11.08, 7.26, 14.57, 1.85, 48.61, 14.41, 40.95, 4.4, 60.71, 269.7, 22, 7865, 'OlympicG'),
    ('Turi', 11.08, 6.91, 13.62, 2.03, 51.67, 14.26, 39.83, 4.8, 59.34, 290.01, 23, 7708, 'OlympicG'),
    ('Lorenzo', 11.1, 7.03, 13.22, 1.85, 49.34, 15.38, 40.22, 4.5, 58.36, 263.08, 24, 7592, 'OlympicG'),
    ('Karlivans', 11.33, 7.26, 13.3, 1.97, 50.54, 14.98, 43.34, 4.5, 52.92, 278.67, 25, 7583, 'OlympicG'),
    ('Korkizoglou', 10.86, 7.07, 14.81, 1.94, 51.16, 14.96, 46.07, 4.7, 53.05, 317.0, 26, 7573, 'OlympicG'),
    ('Uldal', 11.23, 6.99, 13.53, 1.85, 50.95, 15.09, 43.01, 4.5, 60.0, 281.7, 27, 7495, 'OlympicG'),
    ('Casarsa', 11.36, 6.68, 14.92, 1.94, 53.2, 15.39, 48.66, 4.4, 58.62, 296.12, 28, 7404, 'OlympicG'),
)

_DECATHLON_FACTOMINER = PublishedFactoMineR(
    call="summary(PCA(decathlon, quanti.sup = 11:12, quali.sup = 13))",
    source="FactoMineR's summary.PCA of its decathlon example (Le, Josse and Husson (2008), FactoMineR: an R "
    "package for multivariate analysis, J. Stat. Softw. 25(1); Husson, Le and Pagès, Exploratory Multivariate "
    "Analysis by Example Using R, ch. 1), as printed in a public R Markdown report of that example by Clement "
    "Ponsonnet (decathlon_full_analysis.md), with res.pca$var$coord and dimdesc(res.pca) from the same report",
    active=_DECATHLON_COLUMNS[:10],
    supplementary=("Rank", "Points"),
    eigenvalues=("3.272", "1.737", "1.405", "1.057", "0.685", "0.599", "0.451", "0.397", "0.215", "0.182"),
    percent=("32.719", "17.371", "14.049", "10.569", "6.848", "5.993", "4.512", "3.969", "2.148", "1.822"),
    cumulative=("32.719", "50.090", "64.140", "74.708", "81.556", "87.548", "92.061", "96.030", "98.178",
                "100.000"),
    individuals={
        "SEBRLE": ("2.369", "0.792", "0.467", "0.112", "0.772", "0.836", "0.106", "0.827", "1.187", "0.122"),
        "CLAY": ("3.507", "1.235", "1.137", "0.124", "0.575", "0.464", "0.027", "2.141", "7.960", "0.373"),
        "KARPOV": ("3.396", "1.358", "1.375", "0.160", "0.484", "0.329", "0.020", "1.956", "6.644", "0.332"),
        "BERNARD": ("2.763", "-0.610", "0.277", "0.049", "-0.875", "1.074", "0.100", "0.890", "1.375", "0.104"),
        "YURKOV": ("3.018", "-0.586", "0.256", "0.038", "2.131", "6.376", "0.499", "-1.225", "2.606", "0.165"),
        "WARNERS": ("2.428", "0.357", "0.095", "0.022", "-1.685", "3.986", "0.482", "0.767", "1.020", "0.100"),
        "ZSIVOCZKY": ("2.563", "0.272", "0.055", "0.011", "-1.094", "1.680", "0.182", "-1.283", "2.857", "0.250"),
        "McMULLEN": ("2.561", "0.588", "0.257", "0.053", "0.231", "0.075", "0.008", "-0.418", "0.303", "0.027"),
        "MARTINEAU": ("3.742", "-1.995", "2.968", "0.284", "0.561", "0.442", "0.022", "-0.730", "0.925", "0.038"),
        "HERNU": ("2.794", "-1.546", "1.782", "0.306", "0.488", "0.335", "0.031", "0.841", "1.227", "0.091"),
    },
    variables={
        "100m": ("-0.775", "18.344", "0.600", "0.187", "2.016", "0.035", "-0.184", "2.420", "0.034"),
        "Long.jump": ("0.742", "16.822", "0.550", "-0.345", "6.869", "0.119", "0.182", "2.363", "0.033"),
        "Shot.put": ("0.623", "11.844", "0.388", "0.598", "20.607", "0.358", "-0.023", "0.039", "0.001"),
        "High.jump": ("0.572", "9.998", "0.327", "0.350", "7.064", "0.123", "-0.260", "4.794", "0.067"),
        "400m": ("-0.680", "14.116", "0.462", "0.569", "18.666", "0.324", "0.131", "1.230", "0.017"),
        "110m.hurdle": ("-0.746", "17.020", "0.557", "0.229", "3.013", "0.052", "-0.093", "0.611", "0.009"),
        "Discus": ("0.552", "9.328", "0.305", "0.606", "21.162", "0.368", "0.043", "0.131", "0.002"),
        "Pole.vault": ("0.050", "0.077", "0.003", "-0.180", "1.873", "0.033", "0.692", "34.061", "0.479"),
        "Javeline": ("0.277", "2.347", "0.077", "0.317", "5.784", "0.100", "-0.390", "10.807", "0.152"),
        "1500m": ("-0.058", "0.103", "0.003", "0.474", "12.946", "0.225", "0.782", "43.543", "0.612"),
    },
    supplementary_results={
        "Rank": ("-0.671", "0.450", "0.051", "0.003", "-0.058", "0.003"),
        "Points": ("0.956", "0.914", "-0.017", "0.000", "-0.066", "0.004"),
    },
    coordinates={
        "100m": ("-0.77471983", "0.1871420", "-0.18440714", "-0.03781826", "0.30219639"),
        "Long.jump": ("0.74189974", "-0.3454213", "0.18221105", "0.10178564", "0.03667805"),
        "Shot.put": ("0.62250255", "0.5983033", "-0.02337844", "0.19059161", "0.11115082"),
        "High.jump": ("0.57194530", "0.3502936", "-0.25951193", "-0.13559420", "0.55543957"),
        "400m": ("-0.67960994", "0.5694378", "0.13146970", "0.02930198", "-0.08769157"),
        "110m.hurdle": ("-0.74624532", "0.2287933", "-0.09263738", "0.29083103", "0.16432095"),
        "Discus": ("0.55246652", "0.6063134", "0.04295225", "-0.25967143", "-0.10482712"),
        "Pole.vault": ("0.05034151", "-0.1803569", "0.69175665", "0.55153397", "0.32995932"),
        "Javeline": ("0.27711085", "0.3169891", "-0.38965541", "0.71227728", "-0.30512892"),
        "1500m": ("-0.05807706", "0.4742238", "0.78214280", "-0.16108904", "-0.15356189"),
    },
    correlations={"Points": "0.9561543", "Rank": "-0.6705104"},
    categories={
        "Decastar": ("0.946", "-0.600", "0.403", "-1.430", "-0.038", "0.002", "-0.123", "0.289", "0.093", "1.050"),
        "OlympicG": ("0.439", "0.279", "0.403", "1.430", "0.017", "0.002", "0.123", "-0.134", "0.093", "-1.050"),
    },
)


def _decathlon() -> Dataset:
    return Dataset(
        name="decathlon",
        title="decathlon: ten events of 41 decathletes, Athens 2004 and Decastar 2004 (FactoMineR's example)",
        source="FactoMineR's data(decathlon) (Husson, Le and Pagès, Exploratory Multivariate Analysis by Example "
        "Using R, CRC Press)",
        columns=_DECATHLON_COLUMNS,
        label_name="name",
        labels=[row[0] for row in _DECATHLON],
        rows=[[float(v) for v in row[1:13]] for row in _DECATHLON],
        published=(),
        active=_DECATHLON_COLUMNS[:10],
        groups=("Competition", tuple(str(row[13]) for row in _DECATHLON)),
        factominer=_DECATHLON_FACTOMINER,
    )


_MAKERS: dict[str, Callable[[], Dataset]] = {"usarrests": _usarrests, "iris": _iris, "toy": _toy,
                                              "decathlon": _decathlon}

#: The names of the bundled data sets (``load`` takes any of them).
DATASETS: tuple[str, ...] = tuple(sorted(_MAKERS))


def load(name: str) -> Dataset:
    """A bundled data set by name (``"usarrests"``, ``"iris"``, ``"decathlon"`` or ``"toy"``), as a fresh copy.

    >>> load("usarrests").rows[0]
    [13.2, 236.0, 58.0, 21.2]
    >>> load("mtcars")
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: dataset: no bundled data set 'mtcars' (bundled: decathlon, iris, toy, usarrests)
    """
    from .errors import PurePCAError

    maker = _MAKERS.get(name.lower()) if isinstance(name, str) else None
    if maker is None:
        raise PurePCAError(f"dataset: no bundled data set {name!r} (bundled: {', '.join(sorted(_MAKERS))})")
    return maker()
