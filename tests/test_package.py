"""The package promises: zero dependencies, a typed and documented public API."""

from __future__ import annotations

import importlib
import inspect
import pathlib
import subprocess
import sys
from decimal import Decimal

import pytest
from wheels import build, source_tree

import purepca
from purepca import FLOAT, DecimalContext, PurePCAError, get_context
from purepca.moments import _chunks

ROOT = pathlib.Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_import_loads_only_the_standard_library() -> None:
    code = (
        "import sys\n"
        "before = set(sys.modules)  # whatever site's .pth files loaded at start-up\n"
        "import purepca, purepca.linalg\n"
        "std = set(getattr(sys, 'stdlib_module_names', ()))\n"
        "extra = sorted(m for m in set(sys.modules) - before if m.split('.')[0] not in std | {'purepca'}"
        " and not m.startswith('_'))\n"
        "print(extra if std else [])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert out.stdout.strip() == "[]"


def test_pyproject_declares_no_runtime_dependencies() -> None:
    text = (ROOT / "pyproject.toml").read_text()
    assert "\ndependencies = []\n" in text
    assert 'requires-python = ">=3.9"' in text
    assert "Typing :: Typed" in text
    assert (ROOT / "purepca" / "py.typed").exists()


def test_all_is_sorted_and_exported() -> None:
    for module in (purepca, importlib.import_module("purepca.linalg")):
        assert list(module.__all__) == sorted(module.__all__)
        for name in module.__all__:
            assert hasattr(module, name), name
    assert purepca.__version__.count(".") == 2


def public_callables():  # type: ignore[no-untyped-def]
    for name in purepca.__all__:
        obj = getattr(purepca, name)
        if inspect.isfunction(obj) or inspect.isclass(obj):
            yield name, obj


def module_callables():  # type: ignore[no-untyped-def]
    for module_name in ("purepca.svg", "purepca.teaching", "purepca.testing", "purepca.datasets", "purepca.csvdata",
                        "purepca.cli", "purepca.model_io"):
        module = importlib.import_module(module_name)
        assert list(module.__all__) == sorted(module.__all__), module_name
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.isfunction(obj) or inspect.isclass(obj):
                yield f"{module_name}.{name}", obj


@pytest.mark.parametrize("name, obj", list(public_callables()) + list(module_callables()))
def test_public_api_has_docstring_with_example(name: str, obj: object) -> None:
    doc = inspect.getdoc(obj) or ""
    assert doc, f"{name} has no docstring"
    if inspect.isfunction(obj):
        assert ">>>" in doc, f"{name}'s docstring has no example"
        hints = obj.__annotations__
        assert "return" in hints, f"{name} has no return annotation"


@pytest.mark.slow
def test_only_stdlib_imports_in_source() -> None:
    import ast

    if not hasattr(sys, "stdlib_module_names"):
        pytest.skip("sys.stdlib_module_names needs Python 3.10")
    std = set(sys.stdlib_module_names) | {"__future__"}
    for path in (ROOT / "purepca").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for n in names:
                assert n.split(".")[0] in std, f"{path}: imports {n}"


def test_get_context_and_decimal_context_errors() -> None:
    assert get_context(None) is FLOAT
    ctx = DecimalContext(30)
    assert get_context(ctx) is ctx
    assert get_context(40) == DecimalContext(40)
    with pytest.raises(PurePCAError, match=r"precision: need an int of at least 17 digits, got 5"):
        DecimalContext(5)
    with pytest.raises(PurePCAError, match=r"precision: expected None, a number of digits or a Context, got 'high'"):
        get_context("high")  # type: ignore[arg-type]


def test_decimal_context_does_not_leak_into_the_callers_context() -> None:
    import decimal

    before = decimal.getcontext().prec
    purepca.jacobi_eigh([[2, 1], [1, 2]], context=DecimalContext(60))
    assert decimal.getcontext().prec == before


def test_decimal_context_rejects_float_mixing() -> None:
    # The guarantee the algorithms rely on: a stray float literal would raise.
    ctx = DecimalContext(30)
    with ctx.local(), pytest.raises(TypeError):
        ctx.one + 0.5  # noqa: B018


def test_float_context_sums_are_compensated() -> None:
    assert FLOAT.sum([1e16, 1.0, -1e16]) == 1.0
    assert FLOAT.dot([1e16, 1.0, -1e16], [1.0, 1.0, 1.0]) == 1.0
    assert FLOAT.norm([3.0, 4.0]) == 5.0
    assert FLOAT.scale_exponent(1e300) > 0 and FLOAT.scale_exponent(1e-300) < 0
    ctx = DecimalContext(25)
    with ctx.local():
        assert ctx.sum([Decimal("1e30"), Decimal(1), Decimal("-1e30")]) == 1
        assert ctx.convert(0.1) == Decimal(0.1)
    assert list(_chunks([], 3)) == []


@pytest.mark.interpreter
@pytest.mark.parametrize("name", ["fsum_dot", "dot2"])
def test_every_float_dot_product_is_compensated(name: str) -> None:
    import random
    from fractions import Fraction

    from purepca import numeric
    from purepca.fast import sums

    dot = getattr(sums, name)
    rng = random.Random(0)
    for trial in range(30):
        n = rng.randint(1, 300)
        scale = 2.0 ** rng.randint(-200, 200)
        a = [rng.gauss(0, 1) * scale for _ in range(n)]
        b = [rng.gauss(0, 1) for _ in range(n)]
        if trial % 3 == 0:  # heavy cancellation
            b = [x / scale + rng.gauss(0, 1e-12) for x in a]
            a = a + [-x for x in a]
            b = b + b
        exact = sum(Fraction(x) * Fraction(y) for x, y in zip(a, b))
        bound = sum(abs(Fraction(x) * Fraction(y)) for x, y in zip(a, b)) * Fraction(2.0**-52)
        assert abs(Fraction(dot(a, b)) - exact) <= bound
    assert dot([1e16, 1.0, -1e16], [1.0, 1.0, 1.0]) == 1.0
    # Entries whose Dekker split overflows (products still fine): the fallback answers.
    assert dot([1e301, 1.0], [1e-301, 1.0]) == numeric._fsum_dot([1e301, 1.0], [1e-301, 1.0])


def test_installed_metadata_license_and_console_script() -> None:
    # issue 10 (packaging): an SPDX license string, the LICENSE file, a console script
    import importlib.metadata as md
    from pathlib import Path

    meta = md.metadata("purepca")
    assert meta.get("License-Expression") == "MIT"
    assert "LICENSE" in (meta.get_all("License-File") or [])
    assert (Path(__file__).resolve().parent.parent / "LICENSE").read_text().startswith("MIT License")
    scripts = {ep.name: ep.value for ep in md.entry_points().select(group="console_scripts")} if hasattr(
        md.entry_points(), "select") else {ep.name: ep.value for ep in md.entry_points()["console_scripts"]}
    assert scripts.get("purepca") == "purepca.cli:main"


@pytest.mark.slow
def test_the_wheel_installs_offline_into_an_empty_venv_and_gives_a_working_command(tmp_path: pathlib.Path) -> None:
    # issue 10, acceptance 6: build the wheel (no deprecation warning), install it with --no-index, run the command.
    import os
    import venv

    wheel, output = build(source_tree(tmp_path), tmp_path / "dist", "wheel")
    assert "Deprecat" not in output, output[-3000:]
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    bindir = env_dir / ("Scripts" if os.name == "nt" else "bin")
    python = bindir / "python"
    clean = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL")}
    install = subprocess.run([str(python), "-m", "pip", "install", "--no-index", "--no-deps", "--quiet", str(wheel)],
                             capture_output=True, text=True, env=clean, timeout=300)
    assert install.returncode == 0, install.stderr[-3000:]
    out = subprocess.run([str(bindir / "purepca"), "fit", "--dataset", "usarrests", "--scale"], capture_output=True,
                         text=True, env=clean, cwd=tmp_path, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "Standard deviation     1.5748783 0.9948694 0.5971291 0.41644938" in out.stdout
    check = subprocess.run([str(bindir / "purepca"), "check"], capture_output=True, text=True, env=clean, cwd=tmp_path,
                           timeout=300)
    assert check.returncode == 0 and check.stdout.splitlines()[-1].endswith("passed, 0 failed"), check.stdout
    golden = subprocess.run([str(python), "-c", "from purepca.golden import golden_cases; print(len(golden_cases()))"],
                            capture_output=True, text=True, env=clean, cwd=tmp_path, timeout=300)
    assert golden.returncode == 0 and int(golden.stdout) >= 20, golden.stderr  # the corpus is in the wheel
