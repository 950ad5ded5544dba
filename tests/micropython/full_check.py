# The full bundle's figures beside the sensor profile's (benchmarks/bench_sensor.py): the same
# 10,000 readings of d = 8, streamed through purepca.moments.Moments one row at a time, a PCA fitted
# from the moments, and one reading scored by transform, hotelling_t2 and spe.  Prints FIG lines.
import gc

gc.collect()
BASE = gc.mem_alloc()
# ---- step
from purepca.pca import PCA
from purepca.moments import Moments
# ---- step
gc.collect()
IMPORTS = gc.mem_alloc()
print("FIG imports", IMPORTS - BASE)
import sensor_rows
D, N, K = 8, 10000, 2
gen = sensor_rows.Rows(D)
stream = Moments(chunk_size=1)
gc.collect()
START = gc.mem_alloc()
KEEP = [0]


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
model = PCA(K).fit_moments(stream)
# ---- step
gc.collect()
WITH_BOTH = gc.mem_alloc()
stream = None
# ---- step
gc.collect()
print("FIG model", gc.mem_alloc() - START)
print("FIG fit_beyond_model", WITH_BOTH - gc.mem_alloc() + (START - IMPORTS))
reading = [list(gen.next_row())]
model.transform(reading), model.hotelling_t2(reading), model.spe(reading)
before = after = result = None
gc.collect()
# ---- step
before = gc.mem_alloc()
result = (model.transform(reading), model.hotelling_t2(reading), model.spe(reading))
after = gc.mem_alloc()
print("FIG score", after - before)
print("DONE")
