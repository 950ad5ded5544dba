"""examples/sensor/: the board's main.py (on CPython, and on MicroPython's WebAssembly port with a
fake sensor) and the host's host.py, which fits the same model from the board's logged readings."""

from __future__ import annotations

import importlib.util
import json
import pathlib
import subprocess
import sys

import pytest

from purepca import micro
from purepca.errors import PurePCAError

ROOT = pathlib.Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "sensor"
HERE = ROOT / "tests" / "micropython"
sys.path.insert(0, str(HERE))
import sensor_host  # noqa: E402
from sensor_rows import Rows  # noqa: E402

LEARN, WATCH, EVERY, BUMP = 500, 200, 50, 5.0


def _load(name: str):
    spec = importlib.util.spec_from_file_location("example_" + name, EXAMPLE / (name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _fake_sensor():
    """Readings of 8 sensors; after the learning ones, every EVERY-th has sensor 3 off by BUMP."""
    g, seen = Rows(8, seed=5), [0]

    def read():
        seen[0] += 1
        row = list(g.next_row())
        if seen[0] > LEARN and (seen[0] - LEARN) % EVERY == 0:
            row[3] += BUMP
        return row
    return read


def _anomalies():
    return [i for i in range(WATCH) if (i + 1) % EVERY == 0]


def _flagged(lines):
    return [int(line.split()[2].rstrip(":")) for line in lines if line.startswith("FLAG")]


def test_sensor_example_on_cpython(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    board, host = _load("main"), _load("host")
    lines = []
    board.main(read=_fake_sensor(), count=WATCH, report=lines.append)
    flagged = _flagged(lines)
    assert set(_anomalies()) <= set(flagged) and len(flagged) <= len(_anomalies()) + 8, flagged
    assert host.main(["readings.csv", "host_model.json"]) == 0
    assert (tmp_path / "host_model.json").read_text() == (tmp_path / "model.json").read_text()
    # a later boot reads the model file and learns nothing
    again = []
    assert board.main(read=_fake_sensor(), count=0, report=again.append) == 0 and again == []


def test_sensor_example_host_errors(tmp_path, capsys):
    host = _load("host")
    (tmp_path / "bad.csv").write_text("a,b\n1,2\nx,3\n")
    assert host.main([str(tmp_path / "bad.csv"), str(tmp_path / "m.json")]) == 1
    assert "line 3 is not a row of numbers" in capsys.readouterr().err
    (tmp_path / "empty.csv").write_text("a,b\n")
    with pytest.raises(PurePCAError, match="no readings"):
        host.fit_csv(str(tmp_path / "empty.csv"), 1)


DRIVER = '''
import sensor_rows, sensor_main
LEARN, EVERY, BUMP = %d, %d, %r
g = sensor_rows.Rows(8, 5)
seen = [0]
def read():
    seen[0] += 1
    row = list(g.next_row())
    if seen[0] > LEARN and (seen[0] - LEARN) %% EVERY == 0:
        row[3] += BUMP
    return row
sensor_main.main(read=read, count=%d)
print("MODEL " + open("model.json").read())
for line in open("readings.csv"):
    print("LOG " + line.strip())
'''


@pytest.mark.slow
@pytest.mark.interpreter
def test_sensor_example_on_the_webassembly_port(tmp_path):
    why = sensor_host.missing()
    if why:
        pytest.skip(why)
    bundle = tmp_path / "bundle"
    micro.build(str(bundle), profile="sensor", mpy=True)
    (bundle / "sensor_main.py").write_text((EXAMPLE / "main.py").read_text())
    (bundle / "sensor_rows.py").write_text((HERE / "sensor_rows.py").read_text())
    script = tmp_path / "driver.py"
    script.write_text(DRIVER % (LEARN, EVERY, BUMP, WATCH))
    proc = subprocess.run(["node", str(HERE / "run.mjs"), str(bundle), str(script)], capture_output=True,
                          text=True, timeout=600, cwd=str(HERE))
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = proc.stdout.splitlines()
    flagged = _flagged(lines)
    assert set(_anomalies()) <= set(flagged) and len(flagged) <= len(_anomalies()) + 8, flagged
    board_model = [line[6:] for line in lines if line.startswith("MODEL ")][0]
    log = tmp_path / "readings.csv"
    log.write_text("".join(line[4:] + "\n" for line in lines if line.startswith("LOG ")))
    assert len(log.read_text().splitlines()) == LEARN
    host = _load("host")
    assert json.loads(host.fit_csv(str(log), 2)) == json.loads(board_model)  # the same numbers, to the bit
