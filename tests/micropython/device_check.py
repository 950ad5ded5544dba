# The self-test that tests/test_micropython.py runs on MicroPython (the WebAssembly
# port under Node, tests/micropython/run.mjs), against the bundle built by
# `python -m purepca.micro build`.  It reads the cases CPython wrote next to the
# bundle (/lib/purepca_cases.json: data, and CPython's results as the hex of their
# IEEE bits, or 50-digit truths) and prints one line per check:
#   PASS <name> ...    or    FAIL <name> ...
# then "DONE <passed> <failed>".  Plain MicroPython: no typing, no f-string tricks.
import gc
import json
import struct
import sys

import binascii

gc.collect()
_BASE = gc.mem_alloc()

from purepca._mp.sys import float_info
from purepca.pca import PCA
from purepca.model_io import pca_from_json
from purepca.numeric import FLOAT

gc.collect()
IMPORT_BYTES = gc.mem_alloc() - _BASE
results = [0, 0]


def bits(x):
    return binascii.hexlify(struct.pack("<d", x)).decode()


def flat(value):
    if isinstance(value, (list, tuple)):
        out = []
        for v in value:
            out.extend(flat(v))
        return out
    return [value]


def report(ok, name, detail):
    results[0 if ok else 1] += 1
    print(("PASS " if ok else "FAIL ") + name + " " + detail)


def same_bits(name, got, want_hex):
    got = [bits(v) for v in flat(got)]
    if len(got) != len(want_hex):
        report(False, name, "%d numbers, CPython has %d" % (len(got), len(want_hex)))
        return
    diff = [i for i in range(len(got)) if got[i] != want_hex[i]]
    report(not diff, name, "%d numbers, %s" % (len(got), "the same bits as CPython" if not diff else
                                                  "%d differ from CPython's (first at %d)" % (len(diff), diff[0])))


def close(name, got, want, rtol, scale_to_top=False):
    got, want = flat(got), [float(w) for w in flat(want)]
    worst = 0.0
    top = max(abs(w) for w in want) if want else 0.0
    for g, w in zip(got, want):
        ref = top if scale_to_top else abs(w)
        err = abs(g - w) / ref if ref else abs(g - w)
        worst = max(worst, err)
    ok = len(got) == len(want) and worst <= rtol
    report(ok, name, "largest relative error %.3g (bound %.0e)" % (worst, rtol))


def fitted(case):
    return PCA(**case["params"]).fit(case["X"])


def check_fit(case):
    pca = fitted(case)
    for key, want in case["bits"].items():
        got = pca.transform(case["X"]) if key == "transform" else getattr(pca, key)
        same_bits(case["name"] + " " + key, got, want)
    if "sdev" in case:  # the published numbers, to the digits printed
        fmt = "%%.%df" % case["sdev_digits"]
        got = [fmt % (v ** 0.5) for v in pca.explained_variance_]
        report(got == case["sdev"], case["name"] + " published sdev", " ".join(got))


def check_golden(case):
    pca = fitted(case)
    close(case["name"] + " eigenvalues vs 50 digits", pca.explained_variance_, case["truth"], case["rtol"], case["scale_to_top"])
    same_bits(case["name"] + " eigenvalues vs CPython", pca.explained_variance_, case["bits"])


def check_model(case):
    pca = pca_from_json(case["json"])
    rows = case["rows"]
    same_bits(case["name"] + " transform", pca.transform(rows), case["bits"]["transform"])
    same_bits(case["name"] + " T2", pca.hotelling_t2(rows), case["bits"]["t2"])
    same_bits(case["name"] + " SPE", pca.spe(rows), case["bits"]["spe"])
    # The limits from the stored eigenvalues: the quantiles use lgamma (MicroPython's
    # libm, not CPython's own) and log1p (the compat one), so a few ulps may differ.
    got = [pca.t2_limit(a) for a in (0.05, 0.01)] + [pca.t2_limit(a, kind="training") for a in (0.05, 0.01)]
    close(case["name"] + " T2 limits", got, case["t2_limits"], 1e-13)
    same_bits(case["name"] + " SPE limits", [pca.spe_limit(a) for a in (0.05, 0.01)], case["bits"]["spe_limits"])


def check_truth(case):
    pca = fitted(case)
    close(case["name"] + " eigenvalues vs exact", pca.explained_variance_, case["truth"], case["rtol"])


def check_memory(case):
    gc.collect()
    before = gc.mem_alloc()
    pca = fitted(case)
    spent = gc.mem_alloc() - before
    # This port frees a call's garbage only once the call returns (so these are
    # allocations in all, not what is kept): benchmarks/micro_memory.py measures that.
    print("INFO %s: the imports allocated %d bytes, the fit %d bytes in all" % (case["name"], IMPORT_BYTES, spent))
    report(len(pca.explained_variance_) == len(case["X"][0]), case["name"] + " fits", "d = %d" % len(case["X"][0]))


eps = 1.0
while 1.0 + eps / 2 != 1.0:
    eps /= 2
print("INFO %s; results in %d-bit floats (FLOAT.bits), eps %r (FLOAT.eps)" % (sys.implementation, FLOAT.bits, FLOAT.eps))
report(FLOAT.eps == eps == float_info.epsilon and FLOAT.bits == float_info.mant_dig, "precision",
       "the float's epsilon measured at import: %r" % eps)
with open("/lib/purepca_cases.json") as fh:
    CASES = json.load(fh)
for case in CASES:
    try:
        {"fit": check_fit, "golden": check_golden, "model": check_model, "truth": check_truth,
         "memory": check_memory}[case["kind"]](case)
    except Exception as err:  # a crash is a failure of that case, not of the run
        sys.print_exception(err)
        report(False, case["name"], "raised %s: %s" % (type(err).__name__, err))
    gc.collect()
print("DONE %d %d" % (results[0], results[1]))
