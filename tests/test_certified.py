"""The certified corpus (purepca.certified), its assessment (purepca.testing.assess, purepca assess) and
the LRE table of docs/certified.md."""

from __future__ import annotations

import importlib.util
import json
import math
import os
import sys
from decimal import Decimal, localcontext
from fractions import Fraction

import pytest

from purepca.certified import DATA, case_names, load_case
from purepca.certified.build import AGREE, case_csv, certificate_json, certify
from purepca.certified.cases import CASES, build_case
from purepca.certified.inertia import enclose, exact_rank, moment_matrix, scaled_integers
from purepca.cli import main
from purepca.errors import PurePCAError
from purepca.testing import assess
from purepca.testing.assess import assessment_report, lre

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FAST = ("tiny", "toy", "longley", "wampler2", "repeated", "rank_deficient", "usarrests_scaled",
        "decathlon_supplementary", "near_tie_1e-12", "wide")


def _have(*modules: str) -> bool:
    return all(importlib.util.find_spec(m) is not None for m in modules)


def test_corpus_has_thirty_cases_in_three_tiers() -> None:
    names = case_names()
    assert len(names) >= 30
    tiers = [load_case(n).tier for n in names]
    assert {t: tiers.count(t) for t in ("lower", "average", "higher")} == {
        "lower": tiers.count("lower"), "average": tiers.count("average"), "higher": tiers.count("higher")}
    assert min(tiers.count(t) for t in ("lower", "average", "higher")) >= 5
    for name in ("longley", "wampler1", "wampler2", "wampler3", "wampler4", "wampler5", "spark_sparse",
                 "low_rank_whiten", "decathlon_supplementary", "offset_1e8", "wide", "integers"):
        assert name in names


def test_corpus_tier_follows_the_stated_rule() -> None:
    for name in case_names():
        cert = load_case(name).certificate
        diff = cert["difficulty"]
        at_risk = min(16.0, math.log10(max(float(diff["condition_number"]), 1 / float(diff["smallest_relative_gap"]),
                                           float(diff["offset_to_spread"]), 1.0)))
        assert abs(at_risk - diff["digits_at_risk"]) < 0.02, name
        assert cert["tier"] == ("lower" if at_risk < 4 else "average" if at_risk < 8 else "higher"), name


@pytest.mark.slow
def test_corpus_files_are_the_generator_bytes(tmp_path: object) -> None:
    """Every case rebuilt from its definition gives the bytes of its files (the whole corpus: ~1 s)."""
    for name in sorted(CASES):
        case = build_case(name)
        with open(os.path.join(DATA, name + ".csv"), encoding="ascii") as f:
            assert f.read() == case_csv(case.columns, case.rows), name
        with open(os.path.join(DATA, name + ".json"), encoding="ascii") as f:
            assert f.read() == certificate_json(certify(case)), name
    assert sorted(CASES) == case_names()


def test_corpus_build_command_writes_the_same_bytes(tmp_path: os.PathLike[str]) -> None:
    from purepca.certified.__main__ import main as build_main

    assert build_main(["build", "tiny", "longley", "--folder", str(tmp_path)]) == 0
    for file in ("tiny.csv", "tiny.json", "longley.csv", "longley.json"):
        with open(os.path.join(tmp_path, file), "rb") as a, open(os.path.join(DATA, file), "rb") as b:
            assert a.read() == b.read(), file


@pytest.mark.slow
def test_corpus_two_computations_agree_to_thirty_digits() -> None:
    """(a) exact inertia bisection and (b) Jacobi at 100 digits: the agreement recorded, and recomputed here
    for the fast cases: the enclosure holds the stored value, and the enclosure is 1e-30 narrow."""
    for name in case_names():
        cert = load_case(name).certificate
        assert cert["agreement_digits"] >= AGREE, name
        for b in cert["angle_bounds"]:
            assert Decimal(b) <= Decimal("1e-30"), name
    for name in FAST:
        case = build_case(name)
        X, k = scaled_integers(case.rows)
        n = len(X)
        M = moment_matrix(X)
        rank = exact_rank(M)
        cert = load_case(name).certificate
        key = "correlation" if case.scaled else "n-1"
        assert cert["rank"] == rank
        for i in range(rank):
            lo, hi = enclose(M, i, 32, case.scaled)
            if not case.scaled:
                lo, hi = lo / (n * (n - 1) * 10 ** (2 * k)), hi / (n * (n - 1) * 10 ** (2 * k))
            stored = Fraction(cert["eigenvalues"][key][i])
            assert (hi - lo) <= hi * Fraction(1, 10 ** 30)
            # the stored 25 digits are the enclosure's, rounded
            assert abs(stored - (lo + hi) / 2) <= hi * Fraction(1, 10 ** 24), (name, i)
        for i in range(rank, len(M)):
            assert cert["eigenvalues"][key][i] == "0"


@pytest.mark.skipif(not _have("mpmath"), reason="needs mpmath")
def test_corpus_agrees_with_mpmath_eigsy_at_sixty_digits() -> None:
    """A third computation, mpmath's Jacobi (eigsy) on the decimals at 60 digits: every stored eigenvalue to
    24 of its 25 digits (relative; exact zeros against the largest)."""
    import mpmath

    with mpmath.workdps(60):
        for name in FAST + ("wampler5", "offset_1e12", "nearly_collinear_1e-13", "graded_1e9"):
            c = load_case(name)
            cert = c.certificate
            X = [[mpmath.mpf(v) for v in row] for row in c.text]
            n, d = len(X), len(X[0])
            mu = [mpmath.fsum(r[j] for r in X) / n for j in range(d)]
            C = mpmath.matrix(d, d)
            for i in range(d):
                for j in range(d):
                    C[i, j] = mpmath.fsum((r[i] - mu[i]) * (r[j] - mu[j]) for r in X) / (n - 1)
            if cert["scaled"]:
                sd = [mpmath.sqrt(C[i, i]) for i in range(d)]
                for i in range(d):
                    for j in range(d):
                        C[i, j] /= sd[i] * sd[j]
            got = sorted(mpmath.eigsy(C, eigvals_only=True), reverse=True)
            want = [mpmath.mpf(v) for v in cert["eigenvalues"]["correlation" if cert["scaled"] else "n-1"]]
            for g, w in zip(got, want):
                scale = abs(w) if w != 0 else want[0]
                assert abs(g - w) <= scale * mpmath.mpf(10) ** -24, (name, g, w)


def test_corpus_wampler_noise_is_nists() -> None:
    """Wampler3's noise (y3 - y1) is orthogonal to 1, x, ..., x^5 with NIST's certified residual standard
    deviation 2360.14502379268, and Wampler 4 and 5 are 100 and 10,000 times it."""
    y = {w: [Fraction(r[5]) for r in load_case(f"wampler{w}").text] for w in (1, 3, 4, 5)}
    e = [a - b for a, b in zip(y[3], y[1])]
    assert all(sum(v * x ** p for x, v in enumerate(e)) == 0 for p in range(6))
    assert f"{math.sqrt(sum(v * v for v in e) / 15):.12g}" == "2360.14502379"
    assert [a - b for a, b in zip(y[4], y[1])] == [100 * v for v in e]
    assert [a - b for a, b in zip(y[5], y[1])] == [10000 * v for v in e]


def test_corpus_longley_is_nists() -> None:
    case = load_case("longley")
    assert case.text[0] == ("60323", "83", "234289", "2356", "1590", "107608", "1947")
    assert case.text[-1] == ("70551", "116.9", "554894", "4007", "2827", "130081", "1962")


def test_corpus_certificate_is_consistent() -> None:
    """The ratios are the eigenvalues over their sum, the divisors differ by (n - 1)/n, the singular values are
    sqrt((n - 1)·λ), and the certified components are unit vectors whose scores have the eigenvalue's variance."""
    with localcontext() as ctx:
        ctx.prec = 40
        for name in case_names():
            cert = load_case(name).certificate
            n = cert["n_samples"]
            if cert["scaled"]:
                lam = [Decimal(v) for v in cert["eigenvalues"]["correlation"]]
                sv = [Decimal(v) for v in cert["singular_values"]["sd n-1"]]
                scores = cert["scores"]["sd n-1"]
            else:
                lam = [Decimal(v) for v in cert["eigenvalues"]["n-1"]]
                lam_n = [Decimal(v) for v in cert["eigenvalues"]["n"]]
                assert all(abs(a * (n - 1) / n - b) <= abs(b) * Decimal("1e-23") for a, b in zip(lam, lam_n))
                sv = [Decimal(v) for v in cert["singular_values"]]
                scores = cert["scores"]["centred"]
            total = sum(lam)
            for a, r in zip(lam, cert["explained_variance_ratio"]):
                assert abs(a / total - Decimal(r)) <= Decimal("1e-23"), name
            for a, s in zip(lam, sv):
                assert abs((a * (n - 1)).sqrt() - s) <= s * Decimal("1e-23") + Decimal("1e-30") * sv[0], name
            for i, v in cert["components"].items():
                assert abs(sum(Decimal(x) ** 2 for x in v) - 1) <= Decimal("1e-23"), name
                if int(i) >= cert["rank"]:  # a lone null vector: no scores (they are exact zeros)
                    assert i not in scores
                    continue
                var = sum(Decimal(s) ** 2 for s in scores[i]) / (n - 1)
                assert abs(var - lam[int(i)]) <= lam[int(i)] * Decimal("1e-22"), (name, i)


def test_certified_load_case_unknown_name_is_an_error() -> None:
    with pytest.raises(PurePCAError, match="no certified case named 'nope'; the cases: decathlon_supplementary"):
        load_case("nope")
    with pytest.raises(PurePCAError, match="no certified case named '../longley'"):
        load_case("../longley")


def test_certified_build_case_unknown_name_is_an_error() -> None:
    with pytest.raises(PurePCAError, match="no certified case named 'nope'"):
        build_case("nope")


def test_assess_lre_counts_correct_digits() -> None:
    assert round(lre(1.0000001, "1"), 6) == 7.0
    assert lre(-2.0, "2") == 0.0
    assert lre(float("nan"), "2") == 0.0
    assert lre(2.0, "2") == 25.0
    assert round(lre(1e-10, "0", scale="10"), 6) == 11.0


def test_assess_certified_values_rounded_reach_sixteen_digits() -> None:
    case = load_case("wampler1")
    nearest = [float(v) for v in case.certificate["eigenvalues"]["n-1"]]
    assert case.certificate["rank"] == 5  # y = 1 + x + ... + x^5 exactly: one zero eigenvalue
    comps = [[float(x) for x in case.certificate["components"][str(i)]] for i in range(5)]
    rows = assess(case, {"explained_variance_": nearest, "components_": comps})
    assert all(r.lre >= 15.5 for r in rows if r.quantity.startswith(("explained_variance_[", "components_["))), rows
    assert not [r for r in rows if r.verdict == "FAIL"]


def test_assess_flags_a_wrong_answer_by_digits_and_verdict() -> None:
    case = load_case("toy")
    rows = assess(case, {"explained_variance_": [1.284, 0.049], "components_": [[0.7, 0.7], [-0.7, 0.7]]},
                  convention="prcomp")
    by = {r.quantity: r for r in rows}
    assert 4 < by["explained_variance_[0]"].lre < 5 and by["explained_variance_[0]"].verdict == "FAIL"
    assert by["components_[0]"].lre < 3 and by["components_[0]"].verdict == "FAIL"
    assert "off by" in by["explained_variance_[0]"].note


def test_assess_repeated_eigenvalue_compared_with_the_projector() -> None:
    case = load_case("repeated")
    assert case.certificate["clusters"] == [[0], [1, 2], [3]]
    P = case.certificate["projectors"]["1,2"]
    # any orthonormal basis of the cluster's span scores full marks: take two columns of P, orthonormalised
    a = [float(P[r][0]) for r in range(4)]
    na = math.sqrt(sum(x * x for x in a))
    a = [x / na for x in a]
    b = [float(P[r][1]) for r in range(4)]
    dot = sum(x * y for x, y in zip(a, b))
    b = [x - dot * y for x, y in zip(b, a)]
    nb = math.sqrt(sum(x * x for x in b))
    b = [x / nb for x in b]
    rows = assess(case, {"components_": [[float(x) for x in case.certificate["components"]["0"]], a, b]},
                  convention="prcomp")
    by = {r.quantity: r for r in rows}
    assert by["components_[1]"].lre > 14 and by["components_[2]"].lre > 14
    assert "cluster" in by["components_[1]"].note


def test_assess_scores_up_to_sign() -> None:
    case = load_case("toy")
    col = [-float(v) for v in case.certificate["scores"]["centred"]["0"]]
    rows = assess(case, {"explained_variance_": [1.2840277121727839], "scores": [[v] for v in col]})
    assert [r for r in rows if r.quantity == "scores[:, 0]"][0].lre > 15


def test_assess_unknown_convention_for_the_case_is_an_error() -> None:
    with pytest.raises(PurePCAError, match="case 'usarrests_scaled' is certified under the conventions 'prcomp', "
                                           "'princomp', 'factominer', 'statsmodels', 'numpy', not 'sklearn'"):
        assess("usarrests_scaled", {"explained_variance_": [2.0]}, convention="sklearn")
    with pytest.raises(PurePCAError, match="convention must be one of 'sklearn', 'prcomp', 'princomp', "
                                           "'factominer', 'statsmodels', 'numpy' for case 'toy'; got 'R'"):
        assess("toy", {"explained_variance_": [2.0]}, convention="R")
    with pytest.raises(PurePCAError, match="method must be one of 'svd', 'covariance', 'float32', 'iterative', "
                                           "'randomized', 'incremental'; got 'lapack'"):
        assess("toy", {"explained_variance_": [2.0]}, method="lapack")


def test_assess_report_names_the_lowest_lre() -> None:
    rows = assess("toy", {"explained_variance_": [1.284, 0.0490833989]})
    text = assessment_report(rows, "title")
    assert text.splitlines()[0] == "title"
    assert "explained_variance_[0]    4.7  FAIL  (explained_variance_[0]: 1.284 off by 2.77e-05" in text
    assert text.splitlines()[-1] == "lowest LRE 4.7; 0 passed, 2 failed"


def test_assess_one_answer_in_under_half_a_second() -> None:
    import time

    case = load_case("offset_1e8_400x5")
    answer = {"explained_variance_": [float(v) for v in case.certificate["eigenvalues"]["n-1"]],
              "components_": [[float(x) for x in case.certificate["components"][str(i)]] for i in range(5)]}
    start = time.process_time()
    assess(case, answer)
    assert time.process_time() - start < 0.5


@pytest.mark.skipif(not _have("numpy"), reason="needs numpy")
def test_assess_command_prints_lre_per_quantity_for_numpy_on_longley(tmp_path: os.PathLike[str],
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    import numpy as np

    X = np.array(load_case("longley").rows)
    w, v = np.linalg.eigh(np.cov(X.T))
    path = os.path.join(tmp_path, "numpy.json")
    with open(path, "w") as f:
        json.dump({"explained_variance_": w[::-1].tolist(), "components_": v[:, ::-1].T.tolist()}, f)
    assert main(["assess", "longley", path, "--convention", "prcomp", "--method", "covariance"]) == 0
    out = capsys.readouterr().out
    lines = {line.split()[0]: line.split() for line in out.splitlines() if line.startswith(("explained", "comp"))}
    assert len(lines) == 14
    for i in range(7):
        name, digits, verdict = lines[f"explained_variance_[{i}]"]
        assert 0 <= float(digits) <= 25 and verdict == "PASS"
    # numpy's eigh of np.cov: the smallest eigenvalue of Longley keeps about 6 of its digits
    assert 4 < float(lines["explained_variance_[5]"][1]) < 9
    assert "lowest LRE" in out


def test_assess_command_unknown_case_is_an_error(tmp_path: os.PathLike[str],
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = os.path.join(tmp_path, "a.json")
    with open(path, "w") as f:
        json.dump({"explained_variance_": [1.0]}, f)
    assert main(["assess", "nope", path]) == 1
    assert "error: no certified case named 'nope'" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.skipif(not _have("numpy", "scipy", "sklearn", "statsmodels", "mpmath")
                    or sys.implementation.name != "cpython", reason="needs numpy, scipy, scikit-learn, statsmodels")
def test_certified_page_lre_table_is_recomputed() -> None:
    """docs/certified.md's table, recomputed: with the versions the page names, every cell within 1.5 digits of
    the page (LAPACK's rounding varies with the machine; scikit-learn 1.6's arpack gave 9.8 where 1.7's gives
    15.8 on graded_1e9); with any versions, scikit-learn's auto below 1 digit at an offset of 1e8 (10 x 1,
    50 x 5, 400 x 5) where full keeps 8."""
    sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
    try:
        import certified_table as ct
    finally:
        sys.path.pop(0)
    with open(os.path.join(ROOT, "docs", "certified.md"), encoding="utf-8") as f:
        text = f.read()
    both = ct.tables()
    t = both["eigenvalues"]
    for page, fresh in ((ct.page_table(text), ct.markdown(t)),
                        (ct.page_table(text, ct.START_V, ct.END_V), ct.markdown(both["components"]))):
        page_rows = [line.split("|")[1:-1] for line in page.splitlines()[4:]]
        fresh_rows = [line.split("|")[1:-1] for line in fresh.splitlines()[4:]]
        assert [r[:2] for r in page_rows] == [r[:2] for r in fresh_rows]
        same_versions = page.splitlines()[0] == fresh.splitlines()[0]
        for p, q in zip(page_rows if same_versions else [], fresh_rows):  # other versions: only the claims below
            for a, b in zip(p[2:], q[2:]):
                assert (a.strip() == "-") == (b.strip() == "-")
                if a.strip() != "-":
                    assert abs(float(a) - float(b)) <= 1.5, (p[0], a, b)
    for name in ("offset_1e8_10x1", "offset_1e8", "offset_1e8_400x5"):
        assert t[name]["sklearn auto"] < 1.0
        assert t[name]["sklearn full"] > 8.0


def test_assess_supplementary_columns_prince_228() -> None:
    """prince #228: supplementary column coordinates off by sqrt(n).  purepca's FactoMineR convention keeps
    12 digits or more of the certified correlations; the same times sqrt(41) keeps none."""
    from purepca import PCA

    case = load_case("decathlon_supplementary")
    with open(os.path.join(DATA, case.certificate["supplementary"]["data"]), encoding="ascii") as f:
        sup = [[float(v) for v in line.split(",")] for line in f.read().splitlines()[1:]]
    fitted = PCA(convention="factominer", scale=True).fit(case.rows)
    cor = fitted.supplementary_columns(sup)["cor"]
    rows = assess(case, {"explained_variance_": list(fitted.explained_variance_),
                         "supplementary_correlations": cor}, convention="factominer")
    sup_rows = [r for r in rows if r.quantity.startswith("supplementary_correlations")]
    assert len(sup_rows) == 2 * 10 and min(r.lre for r in sup_rows) > 12
    wrong = [[v * math.sqrt(41) for v in row] for row in cor]
    rows = assess(case, {"explained_variance_": list(fitted.explained_variance_),
                         "supplementary_correlations": wrong}, convention="factominer")
    assert max(r.lre for r in rows if r.quantity.startswith("supplementary_correlations")) < 1


def test_assess_eigenvalues_out_of_order_have_no_digit() -> None:
    case = load_case("toy")
    values = [float(v) for v in case.certificate["eigenvalues"]["n-1"]]
    rows = assess(case, {"explained_variance_": values[::-1]}, convention="prcomp")
    by = {r.quantity: r for r in rows}
    assert by["explained_variance_[1]"].lre == 0.0
    assert "out of order: 1.28402771217278" in by["explained_variance_[1]"].note


def test_assess_command_reads_scores_from_json(tmp_path: os.PathLike[str],
                                               capsys: pytest.CaptureFixture[str]) -> None:
    case = load_case("toy")
    scores = [[-float(v)] for v in case.certificate["scores"]["centred"]["0"]]
    path = os.path.join(tmp_path, "theirs.json")
    with open(path, "w") as f:
        json.dump({"explained_variance_": [float(case.certificate["eigenvalues"]["n-1"][0])], "scores": scores}, f)
    assert main(["assess", "toy", path, "--convention", "prcomp"]) == 0
    line = [x for x in capsys.readouterr().out.splitlines() if x.startswith("scores[:, 0]")][0]
    assert float(line.split()[2]) > 15


def test_certified_list_command_prints_every_case(capsys: pytest.CaptureFixture[str]) -> None:
    from purepca.certified.__main__ import main as certified_main

    assert certified_main(["list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(case_names())
    assert lines[case_names().index("longley")].split()[:2] == ["longley", "higher"]
    assert certified_main([]) == 2
    assert "python -m purepca.certified build" in capsys.readouterr().err


@pytest.mark.budget(8)  # a hypothesis run inside: 60 examples under the ci profile, 2-3.3 s, and over 4 s once on a busy machine
def test_assess_fuzzed_answers_give_digits_or_a_purepca_error() -> None:
    """Generated answers (any shape, NaN, infinities, text, nesting): a list of rows, or PurePCAError."""
    hypothesis = pytest.importorskip("hypothesis")
    from helpers import examples
    st = hypothesis.strategies
    number = st.one_of(st.floats(), st.integers(-10, 10), st.just("1"), st.just(True), st.none())
    vector = st.lists(number, max_size=8)
    value = st.one_of(number, vector, st.lists(vector, max_size=8), st.text(max_size=3))
    keys = st.sampled_from(["explained_variance_", "components_", "explained_variance_ratio_", "singular_values_",
                            "mean_", "scores", "sdev", "rotation", "supplementary_correlations", "noise_variance_"])

    @hypothesis.settings(max_examples=int(os.environ.get("PUREPCA_FUZZ_EXAMPLES", examples(60))), deadline=None)
    @hypothesis.given(st.sampled_from(["toy", "repeated", "decathlon_supplementary", "usarrests_scaled", "wide"]),
                      st.dictionaries(keys, value, max_size=4), st.sampled_from([None, "prcomp", "princomp"]))
    def run(name: str, answer: dict[str, object], convention: object) -> None:
        try:
            rows = assess(name, answer, convention=convention)  # type: ignore[arg-type]
        except PurePCAError as err:
            assert str(err)
            return
        for r in rows:
            assert r.lre != r.lre or 0.0 <= r.lre <= 25.0
            assert r.verdict in ("PASS", "FAIL", "-")

    run()


def test_assess_command_reads_the_csv_directory_verify_reads(tmp_path: os.PathLike[str],
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    case = load_case("usarrests_scaled")
    folder = os.path.join(tmp_path, "theirs")
    os.mkdir(folder)
    with open(os.path.join(folder, "sdev.csv"), "w") as f:  # R's prcomp(USArrests, scale. = TRUE)$sdev, printed
        f.write("1.5748783,0.9948694,0.5971291,0.4164494\n")
    # 8 printed digits FAIL the svd model's 1e-14: assess exits 1 then, as verify does (issue 42)
    assert main(["assess", "usarrests_scaled", folder, "--convention", "prcomp"]) == 1
    out = capsys.readouterr().out
    digits = [float(line.split()[1]) for line in out.splitlines() if line.startswith("explained_variance_[")]
    assert len(digits) == 4 and all(6.5 < d < 9 for d in digits), out  # 8 significant digits printed, squared
    assert case.certificate["scaled"]


@pytest.mark.skipif(not _have("statsmodels"), reason="needs statsmodels")
def test_assess_statsmodels_standardized_sums_of_squares_divided_by_n() -> None:
    """statsmodels' eigenvals are sums of squares of the data standardised with sd under n: divided by n under
    its convention (by n - 1 they had read 1.7 digits on a correlation case)."""
    import numpy as np
    from statsmodels.multivariate.pca import PCA as SMPCA

    for name, standardize in (("longley", False), ("usarrests_scaled", True)):
        case = load_case(name)
        fitted = SMPCA(np.array(case.rows), standardize=standardize, demean=True, normalize=False, method="svd")
        rows = assess(case, fitted, convention="statsmodels")
        assert min(r.lre for r in rows if r.quantity.startswith("explained_variance_[")) > 11, name
        assert not [r for r in rows if r.verdict == "FAIL"], name


def test_certified_build_command_bad_arguments_are_one_line(tmp_path: os.PathLike[str],
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    from purepca.certified.__main__ import main as certified_main

    assert certified_main(["build", "--folder"]) == 2
    assert capsys.readouterr().err == "python -m purepca.certified build: --folder needs a directory\n"
    assert certified_main(["build", "nope", "--folder", str(tmp_path)]) == 1
    assert "no certified case named 'nope'; the cases: decathlon_supplementary" in capsys.readouterr().err
    assert os.listdir(tmp_path) == []
    blocker = os.path.join(tmp_path, "file")
    open(blocker, "w").close()
    assert certified_main(["build", "tiny", "--folder", os.path.join(blocker, "sub")]) == 1
    assert capsys.readouterr().err == (f"python -m purepca.certified build: --folder {os.path.join(blocker, 'sub')}: "
                                       "cannot create it (Not a directory)\n")


def test_assess_scores_and_supplementary_of_the_wrong_shape_are_errors() -> None:
    case = load_case("toy")
    col = [[float(v)] for v in case.certificate["scores"]["centred"]["0"]]
    with pytest.raises(PurePCAError, match="scores: 11 rows, but case 'toy' has 10 samples"):
        assess(case, {"explained_variance_": [1.28], "scores": col + [[0.0]]})
    with pytest.raises(PurePCAError, match="supplementary_correlations: case 'toy' has no supplementary columns"):
        assess(case, {"explained_variance_": [1.28], "supplementary_correlations": [[0.5]]})
    with pytest.raises(PurePCAError, match=r"supplementary_correlations: 1 rows, but case 'decathlon_supplementary' "
                                           r"has 2 supplementary columns \(Rank, Points\): one row each"):
        assess("decathlon_supplementary", {"explained_variance_": [3.27], "supplementary_correlations": [[0.5]]},
               convention="factominer")
    with pytest.raises(PurePCAError, match="supplementary_correlations: expected rows of numbers"):
        assess("decathlon_supplementary", {"explained_variance_": [3.27], "supplementary_correlations": [0.5, 1]},
               convention="factominer")
