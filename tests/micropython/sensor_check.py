# The sensor profile on MicroPython (tests/test_sensor_device.py and benchmarks/bench_sensor.py run it
# on the WebAssembly port; docs/restricted.md on the unix port).  Prints
#   FIG <name> <bytes>        memory figures (gc.mem_alloc(); the port frees garbage between steps)
#   BITS <name> <hex,...>     numbers as the hex of their IEEE double bits, for CPython to compare
# The readings come from sensor_rows.py (the same numbers as on CPython); a host model file, if
# CPython wrote one, from /lib/host_model.json with the reading /lib/host_row.json.
import gc
import struct
import binascii

gc.collect()
BASE = gc.mem_alloc()
# ---- step
from purepca.sensor import Streaming, fit, load_model
# ---- step
gc.collect()
IMPORTS = gc.mem_alloc()
print("FIG imports", IMPORTS - BASE)
import sensor_rows
D, N, K = 8, 10000, 2
gen = sensor_rows.Rows(D)
stream = Streaming(D)
gc.collect()
START = gc.mem_alloc()
KEEP = [0]


def bits(values):
    out = []
    for v in values:
        out.append(binascii.hexlify(struct.pack("<d", v)).decode())
    return ",".join(out)


def chunk(rows):
    for _ in range(rows):
        stream.update(gen.next_row())


def kept():
    gc.collect()
    KEEP[0] = max(KEEP[0], gc.mem_alloc() - START)
# ---- step
chunk(1000)
# ---- step
kept()
chunk(1000)
# ---- step
kept()
chunk(1000)
# ---- step
kept()
chunk(1000)
# ---- step
kept()
chunk(1000)
# ---- step
kept()
chunk(1000)
# ---- step
kept()
chunk(1000)
# ---- step
kept()
chunk(1000)
# ---- step
kept()
chunk(1000)
# ---- step
kept()
chunk(1000)
# ---- step
kept()
print("FIG stream_state", KEEP[0] + (START - IMPORTS))
print("FIG rows", stream.n)
model = fit(stream, K)
# ---- step
gc.collect()
WITH_BOTH = gc.mem_alloc()
stream = None
# ---- step
gc.collect()
print("FIG model", gc.mem_alloc() - START)
print("FIG fit_beyond_model", WITH_BOTH - gc.mem_alloc() + (START - IMPORTS))
print("BITS mean_hi", bits(model.mean_hi))
print("BITS mean_lo", bits(model.mean_lo))
print("BITS variance", bits(model.variance + model.rest))
print("BITS components", bits([x for w in model.components for x in w]))
print("BITS limits", bits([model.t2_limit(0.01), model.spe_limit(0.01)]))
reading = list(gen.next_row())
model.score(reading)  # the first call's one-off costs (none expected) kept out of the figure
before = after = result = None  # the globals exist before the measure (a new one could grow the dict)
gc.collect()
# ---- step
before = gc.mem_alloc()
result = model.score(reading)
after = gc.mem_alloc()
print("FIG score", after - before)
print("BITS score", bits(list(result[0]) + [result[1], result[2]]))
# ---- step
try:
    with open("/lib/host_model.json") as fh:
        host = load_model(fh.read())
    with open("/lib/host_row.json") as fh:
        import json
        row = json.loads(fh.read())
except OSError:
    host = None
if host is not None:
    scores, t2, spe = host.score(row)
    print("BITS host_score", bits(list(scores) + [t2, spe]))
    print("BITS host_limits", bits([host.t2_limit(0.05), host.spe_limit(0.05)]))
print("DONE")
