"""The doors of purepca.sensor the contract fuzzer found open (tests/contract_known.txt): each hostile
value is refused with a PurePCAError naming the parameter, nothing built or changed."""

from __future__ import annotations

import array
import math
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest

from purepca.errors import PurePCAError
from purepca.sensor import MAX_COLUMNS, SensorModel, Streaming

VALID: dict[str, Any] = dict(n=5, mean_hi=[0.0, 0.0], mean_lo=[0.0, 0.0], sd=None, components=[[1.0, 0.0]],
                             variance=[2.0], rest=[0.5])


def _model(**change: Any) -> SensorModel:
    return SensorModel(**{**VALID, **change})


@pytest.mark.parametrize("change, message", [
    ({"mean_hi": None}, r"mean_hi: expected a list of 1 to 4096 numbers, got None"),
    ({"mean_hi": []}, r"mean_hi: expected a list of 1 to 4096 numbers, got \[\]"),
    ({"mean_hi": 1e308}, r"mean_hi: expected a list of 1 to 4096 numbers, got 1e\+308"),
    ({"mean_hi": [math.nan, 0.0]}, r"mean_hi\[0\]: expected a finite number, got nan"),
    ({"mean_hi": [0.0, "x"]}, r"mean_hi\[1\]: expected a finite number, got 'x'"),
    ({"mean_hi": [True, 0.0]}, r"mean_hi\[0\]: expected a finite number, got True"),
    ({"mean_lo": [0.0]}, r"mean_lo: expected a list of 2 numbers, got \[0.0\]"),
    ({"mean_lo": [0.0, Decimal("sNaN")]}, r"mean_lo\[1\]: expected a finite number, got Decimal\('sNaN'\)"),
    ({"sd": [0.0, 1.0]}, r"sd\[0\]: expected a positive finite number, got 0.0"),
    ({"sd": [1.0, math.inf]}, r"sd\[1\]: expected a positive finite number, got inf"),
    ({"components": None}, r"components: expected a list of 1 to 2 rows of 2 numbers, got None"),
    ({"components": []}, r"components: expected a list of 1 to 2 rows of 2 numbers, got \[\]"),
    ({"components": [[1.0]] * 7}, r"components: expected a list of 1 to 2 rows of 2 numbers"),
    ({"components": [[]]}, r"components\[0\]: expected a list of 2 numbers, got \[\]"),
    ({"components": [[1.0, -math.inf]]}, r"components\[0\]\[1\]: expected a finite number, got -inf"),
    ({"variance": [-1.0]}, r"variance\[0\]: expected a finite number, at least 0, got -1.0"),
    ({"variance": [2.0, 1.0]}, r"variance: expected a list of 1 numbers, got \[2.0, 1.0\]"),
    ({"rest": None}, r"rest: expected a list of 0 to 4096 numbers, got None"),
    ({"rest": [0.5, 0.1]}, r"rest: expected at most 1 discarded variances, got \[0.5, 0.1\]"),
    ({"rest": [math.nan]}, r"rest\[0\]: expected a finite number, at least 0, got nan"),
    ({"n": True}, r"n: expected a whole number from 2 to 4611686018427387904, got True"),
    ({"n": 1}, r"n: expected a whole number from 2 to 4611686018427387904, got 1"),
    ({"n": 5.0}, r"n: expected a whole number from 2 to 4611686018427387904, got 5.0"),
    ({"n": 10 ** 400}, r"n: expected a whole number from 2 to 4611686018427387904, got 1000"),
    ({"sweeps": -1}, r"sweeps: expected a whole number from 0 to 4611686018427387904, got -1"),
])
def test_sensor_model_refuses_a_hostile_model(change: dict[str, Any], message: str) -> None:
    with pytest.raises(PurePCAError, match=message):
        _model(**change)


def test_sensor_model_message_is_short() -> None:
    with pytest.raises(PurePCAError) as err:
        _model(mean_hi=[[1.0] * 1000])
    assert len(str(err.value)) < 120


def test_sensor_model_takes_a_context_s_numbers_and_an_empty_rest() -> None:
    full = _model(components=[[1.0, 0.0], [0.0, 1.0]], variance=[2.0, 1.0], rest=[], mean_hi=(Fraction(1), 0))
    assert full.k == 2 and full.d == 2


@pytest.mark.parametrize("row", [None, math.nan, 1e308, 10 ** 400, True, -1, Fraction(1, 3), Decimal("sNaN"),
                                 iter([1.0, 2.0]), {1.0, 2.0}, {0: 1.0}])
def test_sensor_model_score_refuses_what_is_not_a_sequence(row: Any) -> None:
    with pytest.raises(PurePCAError, match=r"row: expected a sequence of 2 numbers, got |row: expected 2 values"):
        _model().score(row)


def test_sensor_model_score_still_reads_any_sequence() -> None:
    m = _model()
    assert m.score(array.array("d", [1.0, 1.0])) == m.score([1.0, 1.0]) == m.score((1.0, 1.0))
    assert m.score([1.0, 1.0]) == ((1.0,), 0.5, 1.0)  # T² = 1/2, SPE = the second coordinate squared


@pytest.mark.parametrize("d", [None, 0, -1, True, 1.0, "x", 10 ** 400, MAX_COLUMNS + 1])
def test_streaming_refuses_a_hostile_d(d: Any) -> None:
    with pytest.raises(PurePCAError, match=r"d: expected a whole number of columns from 1 to 4096, got "):
        Streaming(d)


def test_streaming_refuses_a_context_not_in_floats() -> None:
    from purepca.numeric import DecimalContext
    with pytest.raises(PurePCAError, match=r"context: expected a context computing in floats \(FLOATS, BINARY32\), got"):
        Streaming(2, context=DecimalContext(30))
