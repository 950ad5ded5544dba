"""The sensor profile (purepca.sensor) on CPython: against the full package and mpmath (issue 44)."""

from __future__ import annotations

import json
import math
import os
import sys

import pytest

from purepca import PCA
from purepca.conventions import sign_flips
from purepca.errors import PurePCAError
from purepca.model_io import pca_from_json, pca_to_json
from purepca.monitoring import hotelling_t2, spe, spe_limit, t2_limit
from purepca.numeric import BINARY32
from purepca.sensor import FLOATS, SensorModel, Streaming, fit, load_model

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "micropython"))
from sensor_rows import Rows  # noqa: E402  (the readings the device generates too)

mpmath = pytest.importorskip("mpmath")


def _rows(n, d=8, offset=1e3, seed=44):
    g = Rows(d, seed, offset)
    return [list(g.next_row()) for _ in range(n)]


def _true_spectrum(rows, dps=40):
    """Eigenvalues (descending) and eigenvectors of the sample covariance of ``rows`` (as given), by mpmath."""
    with mpmath.workdps(dps):
        n, d = len(rows), len(rows[0])
        mean = [mpmath.fsum(mpmath.mpf(r[j]) for r in rows) / n for j in range(d)]
        dev = [[mpmath.mpf(r[j]) - mean[j] for j in range(d)] for r in rows]
        C = mpmath.matrix(d, d)
        for i in range(d):
            for j in range(i, d):
                C[i, j] = C[j, i] = mpmath.fsum(v[i] * v[j] for v in dev) / (n - 1)
        E, Q = mpmath.eigsy(C)
        order = sorted(range(d), key=lambda i: -E[i])
        return [E[i] for i in order], [[Q[j, i] for j in range(d)] for i in order]


def _digits(got, true):
    err = abs(mpmath.mpf(float(got)) - true) / abs(true)
    return float(-mpmath.log10(err)) if err else 17.0


def _stream(rows, context=None):
    s = Streaming(len(rows[0]), context)
    for r in rows:
        s.update(r)
    return s


def test_streaming_covariance_two_pass_accuracy_at_offset():
    rows = _rows(200, offset=1e6)
    C = _stream(rows).covariance()
    with mpmath.workdps(40):
        n, d = len(rows), 8
        mean = [mpmath.fsum(r[j] for r in rows) / n for j in range(d)]
        worst = max(abs(C[i][j] - mpmath.fsum((r[i] - mean[i]) * (r[j] - mean[j]) for r in rows) / (n - 1))
                    / mpmath.sqrt(C[i][i] * C[j][j]) for i in range(d) for j in range(d))
    assert worst < 1e-14, worst


def test_streaming_mean_pair_carries_the_mean():
    rows = _rows(500, offset=1e8)
    hi, lo = _stream(rows).mean_pair()
    with mpmath.workdps(50):
        for j in range(8):
            true = mpmath.fsum(mpmath.mpf(r[j]) for r in rows) / len(rows)
            assert abs(mpmath.mpf(hi[j]) + mpmath.mpf(lo[j]) - true) < 1e-22 * abs(true)


def test_fit_matches_full_pca():
    rows = _rows(1000)
    model = fit(_stream(rows), 3)
    full = PCA(3).fit(rows)
    values = full.explained_variance_ + full._state.rest
    for a, b in zip(model.variance + model.rest, values):
        assert abs(a - b) <= 1e-13 * values[0]
    for w, v in zip(model.components, full.components_):
        assert abs(sum(a * b for a, b in zip(w, v)) - 1.0) < 1e-13
    assert sign_flips(model.components, "max_abs_positive") == [False] * 3


def test_fit_correlation_matches_full_pca_scaled():
    rows = _rows(500)
    model = fit(_stream(rows), 2, scale=True)
    full = PCA(2, scale=True).fit(rows)
    for a, b in zip(model.variance, full.explained_variance_):
        assert abs(a - b) <= 1e-13 * b
    assert max(abs(a - b) for a, b in zip(model.sd, full.scale_)) < 1e-13 * max(full.scale_)


def test_score_close_to_full_monitoring():
    rows = _rows(1000)
    model = fit(_stream(rows), 2)
    full = PCA(2).fit(rows)
    new = _rows(5, seed=7)
    for row, z, t2, q in zip(new, full.transform(new), hotelling_t2(full._state, new), spe(full._state, new)):
        scores, t2s, qs = model.score(row)
        assert max(abs(a - b) for a, b in zip(scores, z)) < 1e-11
        assert abs(t2s - t2) < 1e-11 * max(1.0, t2)
        assert abs(qs - q) < 1e-10 * max(1.0, sum(v * v for v in z))


def test_limits_match_full_monitoring():
    rows = _rows(300)
    full = PCA(2).fit(rows)
    model = load_model(pca_to_json(full))
    assert math.isclose(model.t2_limit(0.01), t2_limit(full._state, 0.01, "new"), rel_tol=1e-14)
    assert math.isclose(model.spe_limit(0.01), spe_limit(full._state, 0.01), rel_tol=1e-14)


def test_load_model_reads_purepca_fit_save(tmp_path):
    from purepca.cli import main

    rows = _rows(200)
    data = tmp_path / "log.csv"
    data.write_text("\n".join(",".join(repr(v) for v in r) for r in [[f"s{j}" for j in range(8)]] + rows)
                    .replace("'", "") + "\n")
    model_file = tmp_path / "model.json"
    assert main(["fit", str(data), "--components", "2", "--save", str(model_file)]) == 0
    model = load_model(model_file.read_text())
    full = pca_from_json(model_file.read_text())
    row = _rows(1, seed=3)[0]
    scores, t2, q = model.score(row)
    assert max(abs(a - b) for a, b in zip(scores, full.transform([row])[0])) < 1e-11


def test_to_json_loads_in_full_package():
    model = fit(_stream(_rows(300)), 2)
    full = pca_from_json(model.to_json())
    row = _rows(1, seed=5)[0]
    assert max(abs(a - b) for a, b in zip(model.score(row)[0], full.transform([row])[0])) < 1e-11
    assert load_model(model.to_json()).score(row) == model.score(row)


def test_streaming_keeps_no_rows():
    s = _stream(_rows(50))
    sizes = sorted(len(v) for v in vars(s).values() if isinstance(v, list))
    assert sizes == [8, 8, 8, 8, 36, 36]


def test_floats_eps_measured():
    assert FLOATS.eps == sys.float_info.epsilon


@pytest.mark.parametrize("bad, message", [
    (0, "d: expected a whole number of columns"), (True, "d: expected"), (2.0, "d: expected")])
def test_streaming_bad_d(bad, message):
    with pytest.raises(PurePCAError, match=message):
        Streaming(bad)


@pytest.mark.parametrize("row, message", [
    ([1.0], r"row 1: expected 2 values, got 1"), ([1.0, float("nan")], r"row 1, column 1: nan is not finite"),
    ([True, 1.0], r"row 1, column 0: expected a real number, got bool"), (5, "expected a sequence of 2 numbers"),
    (["1", 2.0], "expected a real number, got str"), ([float("inf"), 0.0], "inf is not finite")])
def test_streaming_update_bad_row_changes_nothing(row, message):
    s = Streaming(2)
    s.update([1.0, 2.0])
    before = (s.n, list(s._shift), list(s._mean), list(s._m2))
    with pytest.raises(PurePCAError, match=message):
        s.update(row)
    assert (s.n, list(s._shift), list(s._mean), list(s._m2)) == before


def test_streaming_overflowing_difference():
    s = Streaming(1)
    s.update([-1.7e308])
    with pytest.raises(PurePCAError, match="difference from the first row is beyond the float range"):
        s.update([1.7e308])


def test_streaming_errors():
    s = Streaming(2)
    with pytest.raises(PurePCAError, match="need at least 2 rows, have 0"):
        s.covariance()
    with pytest.raises(PurePCAError, match="context: expected a number context"):
        Streaming(2, context=3)
    s.update([1.0, 1.0])
    s.update([2.0, 1.0])
    with pytest.raises(PurePCAError, match="ddof: expected a whole number"):
        s.covariance(-1)
    with pytest.raises(PurePCAError, match="column 1 is constant"):
        s.correlation()
    with pytest.raises(PurePCAError, match="n_components: expected a whole number from 1 to 2"):
        fit(s, 3)
    with pytest.raises(PurePCAError, match="scale: expected True or False"):
        fit(s, 1, scale=1)
    with pytest.raises(PurePCAError, match="fit: expected a Streaming"):
        fit([[1.0]], 1)


def test_score_and_limit_errors():
    m = SensorModel(5, [0.0, 0.0], [0.0, 0.0], None, [[1.0, 0.0]], [2.0], [0.5])
    with pytest.raises(PurePCAError, match="row: expected 2 values, got 3"):
        m.score([1.0, 2.0, 3.0])
    with pytest.raises(PurePCAError, match=r"row, column 1: nan is not finite"):
        m.score([1.0, float("nan")])
    with pytest.raises(PurePCAError, match="alpha: expected a level strictly between 0 and 1"):
        m.spe_limit(1.5)
    with pytest.raises(PurePCAError, match="alpha"):
        m.t2_limit(0)


def _document():
    return json.loads(pca_to_json(PCA(2).fit(_rows(50))))


@pytest.mark.parametrize("edit, message", [
    (lambda d: d.update(format="x"), "not a purepca.PCA model file"),
    (lambda d: d.update(version=2), "version 2"),
    (lambda d: d.update(precision=30), "precision=N"),
    (lambda d: d["state"]["components"][0].__setitem__(0, 5.0), "components_ and state.components disagree"),
    (lambda d: [d[k]["components_" if k == "attributes" else "components"][1].__setitem__(0, 0.9)
                for k in ("attributes", "state")], "not orthonormal"),
    (lambda d: d["state"].__setitem__("mean_hi", [1.0]), "mean_hi: expected a list of 8 numbers"),
    (lambda d: d["state"].__setitem__("rest", None), "rest is null"),
    (lambda d: d["state"].__setitem__("ddof", 0), "sample divisor"),
    (lambda d: d["state"].__setitem__("rest", [-1.0] * 6), "negative or out of descending order"),
    (lambda d: d["attributes"].__setitem__("mean_", [0.0] * 8), "mean_ is not mean_hi"),
    (lambda d: d["state"].pop("variance"), "a field is missing: 'variance'"),
])
def test_load_model_refuses(edit, message):
    doc = _document()
    edit(doc)
    with pytest.raises(PurePCAError, match=message):
        load_model(json.dumps(doc))


def test_load_model_refuses_the_fit_report(tmp_path):
    from purepca.cli import main

    data = tmp_path / "log.csv"
    data.write_text("".join(",".join(repr(v) for v in r) + "\n" for r in _rows(30, d=3)))
    assert main(["fit", str(data), "--no-header", "--format", "json", "-o", str(tmp_path / "r.json")]) == 0
    with pytest.raises(PurePCAError, match="the report of purepca fit -o .*--save model.json"):
        load_model((tmp_path / "r.json").read_text())


def test_load_model_not_json():
    with pytest.raises(PurePCAError, match="model: not JSON"):
        load_model("{")
    with pytest.raises(PurePCAError, match="expected the JSON text of a model, got int"):
        load_model(3)


# ------------------------------------------------------------- single precision

def _one_pass_float32(rows):
    """The naive one-pass covariance in binary32: Σx, Σxxᵀ, then Σxxᵀ/n - x̄x̄ᵀ (what loses the digits)."""
    c = BINARY32.convert
    d, n = len(rows[0]), c(len(rows))
    s = [c(0)] * d
    ss = [[c(0)] * d for _ in range(d)]
    for r in rows:
        x = [c(v) for v in r]
        for i in range(d):
            s[i] = s[i] + x[i]
            for j in range(d):
                ss[i][j] = ss[i][j] + x[i] * x[j]
    return [[(ss[i][j] - s[i] * s[j] / n) / (n - c(1)) for j in range(d)] for i in range(d)]


def _graded(rows):
    """Column j divided by 4**j (exactly): variances spread over 2**28."""
    return [[v / 4.0 ** j for j, v in enumerate(r)] for r in rows]


def _angle(w, v):
    """The angle between unit vectors w (as computed) and v (true), in mpmath: ``‖w/‖w‖ ∓ v‖``."""
    with mpmath.workdps(40):
        w = [mpmath.mpf(float(x)) for x in w]
        norm = mpmath.sqrt(mpmath.fsum(x * x for x in w))
        sign = 1 if mpmath.fsum(a * b for a, b in zip(w, v)) >= 0 else -1
        return float(mpmath.sqrt(mpmath.fsum((a / norm - sign * b) ** 2 for a, b in zip(w, v))))


def _ulab_rule_eigenvalues(C, threshold=1.2e-7):
    """Eigenvalues by cyclic Jacobi (in doubles) stopped by ulab's rule: every off-diagonal entry
    below an *absolute* threshold (1.2e-7 in ulab's float builds), whatever the matrix's scale.
    A model of that rule for the page's table, not a solver of purepca."""
    A = [[float(x) for x in r] for r in C]
    d = len(A)
    for _ in range(50):
        big = max(abs(A[p][q]) for p in range(d) for q in range(p + 1, d))
        if big < threshold:
            break
        for p in range(d - 1):
            for q in range(p + 1, d):
                if abs(A[p][q]) < threshold:
                    continue
                theta = (A[q][q] - A[p][p]) / (2 * A[p][q])
                t = (1 if theta >= 0 else -1) / (abs(theta) + math.sqrt(theta * theta + 1))
                c = 1 / math.sqrt(t * t + 1)
                s = t * c
                for r in range(d):  # columns p and q, then rows p and q
                    a, b = A[r][p], A[r][q]
                    A[r][p], A[r][q] = c * a - s * b, s * a + c * b
                for r in range(d):
                    a, b = A[p][r], A[q][r]
                    A[p][r], A[q][r] = c * a - s * b, s * a + c * b
    return sorted((A[i][i] for i in range(d)), reverse=True)


def binary32_digits(rows, k=2):
    """Digits of the binary32 streaming fit against mpmath on the rows as binary32 holds them: the
    largest, the k-th and the smallest eigenvalue (relative), the kept components (-log10 of the
    worst angle); and the one-pass float32 covariance's largest eigenvalue."""
    single = [[float(BINARY32.convert(v)) for v in r] for r in rows]
    values, vectors = _true_spectrum(single)
    model = fit(_stream(rows, BINARY32), k)  # the binary32 context: each operation rounded to single
    angle = max(_angle(w, v) for w, v in zip(model.components, vectors))
    naive = _one_pass_float32(rows)
    with mpmath.workdps(30):
        E = mpmath.eigsy(mpmath.matrix([[float(x) for x in r] for r in naive]), eigvals_only=True)
        naive_top = max(E)
    spectrum = model.variance + model.rest
    ulab = _ulab_rule_eigenvalues(_stream(rows).covariance())
    return {"ulab_last": _digits(ulab[-1], values[-1]) if ulab[-1] > 0 else 0.0,"top": _digits(spectrum[0], values[0]), "kept": _digits(spectrum[k - 1], values[k - 1]),
            "last": _digits(spectrum[-1], values[-1]), "components": -math.log10(angle) if angle else 17.0,
            "naive_top": _digits(naive_top, values[0])}


#: The scenarios docs/restricted.md reports (benchmarks/bench_sensor.py prints them).
SCENARIOS = {
    "well-conditioned (offset 0)": lambda n: _rows(n, offset=0.0),
    "offset 1e3": lambda n: _rows(n, offset=1e3),
    "offset 1e5": lambda n: _rows(n, offset=1e5),
    "graded columns (4**-j)": lambda n: _graded(_rows(n, offset=0.0)),
}


@pytest.mark.slow
def test_binary32_streaming_fit_offset_1e3_five_digits():
    figures = binary32_digits(_rows(10000, offset=1e3))
    assert figures["top"] >= 5, figures
    assert figures["naive_top"] < 1, figures


@pytest.mark.slow
def test_binary32_streaming_fit_graded_columns_beside_ulab_rule():
    figures = binary32_digits(SCENARIOS["graded columns (4**-j)"](10000))
    assert min(figures["top"], figures["kept"], figures["last"], figures["components"]) >= 4, figures
    assert figures["ulab_last"] < 2, figures


def test_streaming_update_refuses_huge_int():
    s = Streaming(2)
    s.update([1.0, 2.0])
    with pytest.raises(PurePCAError, match=r"row 1, column 0: 1000.* is beyond the float range"):
        s.update([10 ** 400, 1.0])
    assert s.n == 1


def test_score_wild_readings():
    m = SensorModel(5, [0.0, 0.0], [0.0, 0.0], None, [[1.0, 0.0]], [2.0], [0.5])
    with pytest.raises(PurePCAError, match="row, column 0: .* is beyond the float range from the mean"):
        m.score([10 ** 400, 0.0])
    far = SensorModel(5, [-1e308, 0.0], [0.0, 0.0], None, [[1.0, 0.0]], [2.0], [0.5])
    with pytest.raises(PurePCAError, match="beyond the float range from the mean"):
        far.score([1e308, 0.0])
    scores, t2, q = m.score([1e200, 1e200])  # squares overflow: beyond every limit, never 0 or nan
    assert t2 == math.inf and q == math.inf


from hypothesis import given, settings, strategies as st  # noqa: E402

_HOSTILE = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-10 ** 400, 10 ** 400),
                     st.none(), st.booleans(), st.text(max_size=3), st.lists(st.floats(), max_size=2))


@pytest.mark.slow  # 150 examples: about 3 s
@settings(max_examples=150, deadline=None)
@given(rows=st.lists(st.one_of(st.lists(_HOSTILE, max_size=4), _HOSTILE), min_size=1, max_size=6),
       k=st.one_of(st.integers(-1, 4), _HOSTILE), scale=st.one_of(st.booleans(), _HOSTILE))
def test_sensor_doors_fuzzed(rows, k, scale):
    """Hostile rows, counts and flags: a result, or a PurePCAError; never another exception."""
    s = Streaming(3)
    try:
        for r in rows:
            s.update(r)
        model = fit(s, k, scale)
        for r in rows:
            model.score(r)
        model.t2_limit(0.05)
        model.spe_limit(0.05)
        load_model(model.to_json())
    except PurePCAError:
        pass


_DOC3 = pca_to_json(PCA(2).fit(_rows(20, d=3)))


@pytest.mark.slow  # 150 examples: about 2 s
@settings(max_examples=150, deadline=None)
@given(path=st.lists(st.sampled_from(["state", "attributes", "components", "components_", "mean_hi", "mean_lo",
                                      "variance", "rest", "sd", "n_samples_", "n_components_", "div", "ddof",
                                      "explained_variance_", "scale_", "mean_"]), min_size=1, max_size=2),
       value=_HOSTILE)
def test_load_model_fuzzed(path, value):
    doc = json.loads(_DOC3)
    for part in ("state", "attributes"):
        if path[-1] in doc[part]:
            doc[part][path[-1]] = value
    try:
        text = json.dumps(doc)
    except ValueError:
        return
    try:
        load_model(text).score([1.0, 2.0, 3.0])
    except PurePCAError:
        pass


@pytest.mark.parametrize("scale", [1e-150, 1e150])
def test_fit_far_from_one_is_scaled(scale):
    rows = [[v * scale for v in r] for r in _rows(100, offset=0.0, d=4)]
    model = fit(_stream(rows), 2)
    full = PCA(2).fit(rows)
    for a, b in zip(model.variance, full.explained_variance_):
        assert abs(a - b) <= 1e-12 * b


def test_streaming_refuses_spread_below_the_squares_range():
    s = Streaming(2)
    for x in (1.0, 1.0 + 2 ** -52, 1.0):
        s.update([x, 1e-170 * x])
    with pytest.raises(PurePCAError, match="column 1: its spread is so small that its squares fall below"):
        s.covariance()
    c = Streaming(1)
    for _ in range(3):
        c.update([5.0])
    assert c.covariance() == [[0.0]]  # a constant column is no error
