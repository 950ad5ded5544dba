"""The sensor profile's budget (issue 44), measured on MicroPython's WebAssembly port beside the
full bundle's, and its single-precision digits.

    python benchmarks/bench_sensor.py             # memory: sensor profile and full bundle (.mpy)
    python benchmarks/bench_sensor.py --binary32  # also the binary32 digits table (about a minute)

Memory is ``gc.mem_alloc()`` on the port (MicroPython 1.27, ``tests/micropython``: ``npm ci``),
which frees garbage only between steps of a script: "keeps" is what is left after a collection,
"allocates" everything allocated during one call.  The readings (10,000 of d = 8, offset 1e3)
are generated on the device by ``tests/micropython/sensor_rows.py``; the full bundle streams them
through ``Moments`` one row at a time and fits with ``PCA(2).fit_moments``.
"""

from __future__ import annotations

import pathlib
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "micropython"))

from purepca import micro  # noqa: E402
import sensor_host  # noqa: E402

ROWS = (
    ("imports", "the imports keep (.mpy)", "<= 48 KB"),
    ("stream_state", "streaming 10,000 rows of d = 8 keeps (the accumulator)", "<= 8 KB"),
    ("fit_beyond_model", "the fit keeps beyond the model", "<= 8 KB"),
    ("model", "the fitted model keeps", ""),
    ("score", "scoring one reading (scores, T², SPE) allocates", "<= 1 KB"),
)


def memory() -> None:
    why = sensor_host.missing()
    if why:
        print(f"memory: skipped ({why})")
        return
    with tempfile.TemporaryDirectory() as tmp:
        sensor, full = pathlib.Path(tmp) / "sensor", pathlib.Path(tmp) / "full"
        micro.build(str(sensor), profile="sensor", mpy=True)
        micro.build(str(full), mpy=True)
        text, row = sensor_host.host_files(sensor)
        figs, bits, _ = sensor_host.run(sensor)
        want = sensor_host.cpython_bits(text, row)
        # the control limits are left out: their quantiles use the C library's lgamma there
        same = {k: v for k, v in bits.items() if "limits" not in k} == {
            k: v for k, v in want.items() if "limits" not in k}
        full_figs, _, _ = sensor_host.run(full, sensor_host.HERE / "full_check.py")
    print("MicroPython 1.27, WebAssembly port, bytes (gc.mem_alloc)")
    print(f"{'':58} {'sensor':>9} {'full':>9}  budget")
    for key, label, budget in ROWS:
        print(f"{label:58} {figs[key]:>9,} {full_figs[key]:>9,}  {budget}")
    print(f"sensor profile's model, scores and a host model's scores with CPython's bits: {same}")


def binary32() -> None:
    sys.path.insert(0, str(ROOT / "tests"))
    import test_sensor as t

    print("\nbinary32 streaming fit, 10,000 rows of d = 8, k = 2: correct digits against mpmath")
    print("(one-pass: Σxxᵀ/n - x̄x̄ᵀ in binary32; ulab's rule: Jacobi stopped when every off-diagonal entry")
    print(" is below 1.2e-7 absolute, applied to the covariance in doubles)")
    print(f"{'data':30} {'λ1':>5} {'λ2':>5} {'λ8':>5} {'comps':>6} {'one-pass λ1':>12} {'ulab rule λ8':>13}")
    for name, make in t.SCENARIOS.items():
        f = t.binary32_digits(make(10000))
        print(f"{name:30} {f['top']:5.1f} {f['kept']:5.1f} {f['last']:5.1f} {f['components']:6.1f} "
              f"{max(f['naive_top'], 0.0):12.1f} {max(f['ulab_last'], 0.0):13.1f}")


if __name__ == "__main__":
    memory()
    if "--binary32" in sys.argv[1:]:
        binary32()
