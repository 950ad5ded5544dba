"""Every number a page shows, frame by frame, against an independent computation (issue 43).

The pages format each number to a fixed count of significant digits (the
script's ``fmt``: 6 by default, 4 or 3 for some); this walks every frame of
every page kind (Jacobi in each pivot order, Householder + QL under each
shift with its bulge chases and factors, power iteration with deflation,
subspace iteration) on A4, A5 = tridiag(-1, 2, -1), a graded positive
definite matrix and one with tied eigenvalues, and recomputes each displayed
number with mpmath at 60 digits from the numbers the page itself shows
before it (the previous frame's matrix, the vector shown).  A number that is
a *derived* quantity (θ, t, c, s, off(A), ‖x‖, a threshold, a skipped
|a_pq|, a Rayleigh quotient, a residual, an angle, a rate, a digit count)
must be right to the digits shown; a number that is the state of a rounding
algorithm (an entry of the working matrix, T after a QL iteration, Q, L) is
what the solver holds, so it must agree with one exact step from the
previous state within a few rounding errors, c·n·eps·‖A‖ absolute.

It catches each of the three defects of 1d257ef: the pair skipped after
the last rotation of a sweep (the skip walk finds a pair no frame shows),
the angle to the answer read from acos (0 where it is 1e-7 degrees), and
‖x‖ = 0 for a column already reduced.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_EVEN, Decimal, localcontext
from typing import Any, Optional

import pytest

pytestmark = pytest.mark.slow  # about 45 s in all: mpmath at 60 digits on every number of every frame

mpmath = pytest.importorskip("mpmath")
mp = mpmath.mp

from purepca.player import jacobi_run, power_run, subspace_run, tridiagonal_run  # noqa: E402

A4 = [[5, 2, 0, 1], [2, 4, 1, 0], [0, 1, 3, 1], [1, 0, 1, 2]]
A5 = [[2 if i == j else -1 if abs(i - j) == 1 else 0 for j in range(5)] for i in range(5)]
_H = [[4, 1, 0.5, 0.25], [1, 4, 1, 0.5], [0.5, 1, 4, 1], [0.25, 0.5, 1, 4]]
_D = [1.0, 1e-3, 1e-6, 1e-9]
GRADED = [[_D[i] * _H[i][j] * _D[j] for j in range(4)] for i in range(4)]  # D·H·D, positive definite
TIES = [[2, 1, 1], [1, 2, 1], [1, 1, 2]]  # eigenvalues 4, 1, 1
MATRICES = {"A4": A4, "A5": A5, "graded": GRADED, "ties": TIES}

SHOW = 6  # the page's default significant digits
EPS = 2.0 ** -52


def mpf(x: Any) -> Any:
    return mp.mpf(x) if not isinstance(x, str) else mp.mpf(x)


def shown(x: Any, p: int) -> Decimal:
    """The number as the page writes it: rounded to p significant digits."""
    d = Decimal(mpmath.nstr(x, 70)) if isinstance(x, mpmath.mpf) else Decimal(x)
    if d == 0:
        return d
    with localcontext() as ctx:
        ctx.prec = p
        ctx.rounding = ROUND_HALF_EVEN
        return +d


def check(what: str, x: Any, truth: Any, p: int = SHOW, slack: Any = 0, rel: Any = 0) -> None:
    """``x`` as shown to p digits is ``truth`` rounded to p digits, up to a hair (a tie), or within
    ``slack`` absolute (for the state of a rounding algorithm) or ``rel`` relative (a number the solver
    computed in its own precision: a few of its ulps, which matter at 6 digits in binary32 only)."""
    slack = slack + rel * abs(truth)
    s = shown(x, p)
    if s == 0:
        unit = mp.mpf(0)
    else:
        unit = mp.mpf(10) ** (s.adjusted() - p + 1)
    err = abs(mpf(str(s)) - truth)
    assert err <= unit / 2 * (1 + mp.mpf("1e-6")) + slack + mp.mpf("1e-300"), \
        f"{what}: the page shows {s} (from {x!r}); the true value is {mp.nstr(truth, 20)}"


def norm_f(A: Any) -> Any:
    return mp.sqrt(mp.fsum(mpf(x) ** 2 for row in A for x in row))


# ---------------------------------------------------------------- Jacobi
def jacobi_frames(run: dict[str, Any], A: Any) -> None:
    n = run["n"]
    eps = mpf(run["eps"])
    slack = 16 * n * eps * norm_f(A)
    frames = run["frames"]
    start = [[mpf(x) for x in row] for row in frames[0]["matrix"]]
    for i, row in enumerate(start):
        for j, x in enumerate(row):
            check(f"start a{i}{j}", frames[0]["matrix"][i][j], mpf(A[i][j]))
    for k, f in enumerate(frames):
        M = [[mpf(x) for x in row] for row in f["matrix"]]
        off = mp.sqrt(mp.fsum(M[i][j] ** 2 for i in range(n) for j in range(n) if i != j))
        check(f"frame {k} off(A)", f["off"], off, rel=32 * eps)  # a running sum that keeps all but ~4 bits
        if f["kind"] != "rotation":
            continue
        B = [[mpf(x) for x in row] for row in frames[k - 1]["matrix"]]
        p, q = f["p"], f["q"]
        app, aqq, apq = B[p][p], B[q][q], B[p][q]
        theta = mp.atan(2 * apq / (aqq - app)) / 2 if aqq != app else mp.sign(mpf(f["t"])) * mp.pi / 4  # ±∞: ±45° both zero a_pq
        rel = 8 * eps  # the solver's own roundings of t, c, s: 1e-15 in floats, 1e-6 in binary32
        check(f"frame {k} θ", f["theta"] * 180 / math.pi, mp.degrees(theta), rel=rel)  # the script's deg()
        t, c, s = mp.tan(theta), mp.cos(theta), mp.sin(theta)
        check(f"frame {k} t", f["t"], t, rel=rel)
        check(f"frame {k} c", f["c"], c, rel=rel)
        check(f"frame {k} s", f["s"], s, rel=rel)
        # one exact rotation A <- JᵀAJ from the previous state: the new state within rounding
        for i in range(n):
            for j in range(n):
                after = B[i][j]
                if i in (p, q) or j in (p, q):
                    def col(r: int, cc: int) -> Any:
                        return B[r][cc]
                    ri = [B[i][m] for m in range(n)]
                    if i == p:
                        ri = [c * B[p][m] - s * B[q][m] for m in range(n)]
                    elif i == q:
                        ri = [s * B[p][m] + c * B[q][m] for m in range(n)]
                    rp = [c * B[p][m] - s * B[q][m] for m in range(n)]
                    rq = [s * B[p][m] + c * B[q][m] for m in range(n)]
                    rows = {p: rp, q: rq}
                    R = rows.get(i, ri)
                    if j == p:
                        after = c * R[p] - s * R[q]
                    elif j == q:
                        after = s * R[p] + c * R[q]
                    else:
                        after = R[j]
                check(f"frame {k} a{i}{j}", f["matrix"][i][j], after, slack=slack)
        assert f["matrix"][p][q] in (0, "0", 0.0) or mpf(f["matrix"][p][q]) == 0, f"frame {k}: a_pq not zeroed"
    jacobi_skips(run)
    jacobi_convergence(run, A)


def jacobi_skips(run: dict[str, Any]) -> None:
    """Walk each sweep's pairs as the documented rule does: a pair failing the convergence test is
    rotated (the next frame) or, at or below the sweep's threshold, skipped; every skip must be shown
    with its |a_pq| and the threshold, on the frame it follows."""
    if run["pivot"] != "threshold":
        return
    n, eps = run["n"], mpf(run["eps"])
    frames = run["frames"]
    floor = eps * eps * norm_f(frames[0]["matrix"])
    k = 0  # the frame whose matrix is the current state
    for sweep in range(1, max(s["sweep"] for s in run["sweeps"]) + 1):
        M = [[mpf(x) for x in row] for row in frames[k]["matrix"]]
        threshold = (mp.mpf("0.2") / n ** 2 * mp.fsum(abs(M[p][q]) for p in range(n) for q in range(p + 1, n))
                     if sweep <= 3 else mp.mpf(0))
        shown_skips: list[tuple[int, int, Any, Any]] = []  # (p, q, |a_pq| shown, threshold shown)
        expected: list[tuple[int, int, Any]] = []
        for p in range(n - 1):
            for q in range(p + 1, n):
                M = [[mpf(x) for x in row] for row in frames[k]["matrix"]]
                a = abs(M[p][q])
                if a <= eps * mp.sqrt(abs(M[p][p])) * mp.sqrt(abs(M[q][q])) or a <= floor:
                    continue
                nxt = frames[k + 1] if k + 1 < len(frames) else None
                if a > threshold:
                    assert nxt is not None and (nxt["sweep"], nxt["p"], nxt["q"]) == (sweep, p, q), \
                        f"sweep {sweep}: pair ({p + 1}, {q + 1}) must be rotated next"
                    shown_skips += [(x[0], x[1], x[2], nxt["threshold"]) for x in nxt["skipped"]]
                    k += 1
                else:
                    expected.append((p, q, a))
        for e in frames[k].get("ends", []):
            if e["sweep"] == sweep:
                shown_skips += [(x[0], x[1], x[2], e["threshold"]) for x in e["skipped"]]
        assert [(p, q) for p, q, _ in expected] == [(p, q) for p, q, _, _ in shown_skips], \
            f"sweep {sweep}: the threshold skips {[(p + 1, q + 1) for p, q, _ in expected]}, the page shows " \
            f"{[(p + 1, q + 1) for p, q, _, _ in shown_skips]}"
        for (p, q, a), (_, _, a_shown, th_shown) in zip(expected, shown_skips):
            check(f"sweep {sweep} skip ({p + 1}, {q + 1}) |a_pq|", a_shown, a)
            check(f"sweep {sweep} threshold", th_shown, threshold)
        rotated = [f for f in frames if f.get("sweep") == sweep and f["kind"] == "rotation"]
        for f in rotated:
            check(f"sweep {sweep} threshold", f["threshold"], threshold)


def jacobi_convergence(run: dict[str, Any], A: Any) -> None:
    norm = norm_f(A)
    last = -mp.log10(mpf(run["frames"][0]["off"]) / norm) if mpf(run["frames"][0]["off"]) else mp.mpf(0)
    for row, sweep in zip(run["convergence"], run["sweeps"]):
        off = mpf(run["frames"][sweep["frame"]]["off"])
        check(f"convergence sweep {row['sweep']} off", row["off"], off, 4)
        if off == 0:
            assert row["digits"] is None
            continue
        digits = -mp.log10(off / norm)
        assert abs(row["digits"] - digits) <= 0.005 + 1e-9, (row, digits)
        assert abs(row["gained"] - (digits - last)) <= 0.005 + 1e-9, (row, digits - last)
        last = digits


# ---------------------------------------------------------------- Householder + QL
def rotate(T: list[list[Any]], i: int, c: Any, s: Any) -> None:
    """G·T·Gᵀ in the plane (i, i+1), the page's convention (columns, then rows)."""
    for row in T:
        a, b = row[i], row[i + 1]
        row[i], row[i + 1] = c * a - s * b, s * a + c * b
    T[i], T[i + 1] = [c * a - s * b for a, b in zip(T[i], T[i + 1])], [s * a + c * b for a, b in zip(T[i], T[i + 1])]


def tri(d: list[Any], e: list[Any]) -> list[list[Any]]:
    n = len(d)
    return [[mpf(d[i]) if i == j else mpf(e[min(i, j)]) if abs(i - j) == 1 else mp.mpf(0) for j in range(n)]
            for i in range(n)]


def tridiagonal_frames(run: dict[str, Any], A: Any) -> None:
    n = run["n"]
    eps = mp.mpf(10) ** -(run["digits"]) if run["digits"] > 16 else mp.mpf(EPS)
    slack = 16 * n * eps * norm_f(A)
    prev = [[mpf(x) for x in row] for row in A]
    T: Optional[list[list[Any]]] = None
    for idx, f in enumerate(run["frames"]):
        where = f"frame {idx} ({f['kind']})"
        if f["kind"] == "start":  # A as given
            assert idx == 0
            for i in range(n):
                for j in range(n):
                    check(f"{where} a{i}{j}", f["matrix"][i][j], mpf(A[i][j]))
            continue
        if f["kind"] == "householder":
            k = f["k"]
            x = [prev[i][k] for i in range(k + 1, n)]
            nx = mp.sqrt(mp.fsum(v ** 2 for v in x))
            check(f"{where} ‖x‖", f["norm"], nx)
            tail = mp.sqrt(mp.fsum(v ** 2 for v in x[1:]))
            if tail == 0:
                check(f"{where} alpha", f["alpha"], x[0])
                new = [row[:] for row in prev]
            else:
                alpha = -nx if x[0] > 0 else nx
                check(f"{where} alpha", f["alpha"], alpha)
                u = [v / nx for v in x]
                v = u[:]
                v[0] = u[0] + 1 if x[0] > 0 else u[0] - 1
                beta = 1 / (1 + abs(u[0]))
                check(f"{where} beta", f["beta"], beta)
                for a, b in zip(f["reflector"], v):
                    check(f"{where} reflector", a, b, 4)
                m = n - k - 1
                H = [[(1 if i == j else 0) - beta * v[i] * v[j] for j in range(m)] for i in range(m)]
                P = [[mp.mpf(1) if i == j else mp.mpf(0) for j in range(n)] for i in range(n)]
                for i in range(m):
                    for j in range(m):
                        P[k + 1 + i][k + 1 + j] = H[i][j]
                new = [[mp.fsum(P[i][a] * prev[a][b] * P[b][j] for a in range(n) for b in range(n))
                        for j in range(n)] for i in range(n)]
            for i in range(n):
                for j in range(n):
                    check(f"{where} a{i}{j}", f["matrix"][i][j], new[i][j], slack=slack)
            prev = [[mpf(x) for x in row] for row in f["matrix"]]
            continue
        if f["kind"] == "tridiagonal":
            T = tri(f["diagonal"], f["offdiagonal"])
            for i in range(n):
                for j in range(n):
                    check(f"{where} T{i}{j}", T[i][j], prev[i][j], slack=slack)
            chased = [row[:] for row in T]
            continue
        assert T is not None
        if f["kind"] == "chase":
            rotate(chased, f["i"], mpf(f["c"]), mpf(f["s"]))
            check(f"{where} c²+s²", mpf(f["c"]) ** 2 + mpf(f["s"]) ** 2, mp.mpf(1), slack=4 * eps)
            for i in range(n):
                for j in range(n):
                    check(f"{where} T{i}{j}", f["matrix"][i][j], chased[i][j], slack=slack)
            if f["at"]:
                check(f"{where} bulge", f["bulge"], abs(chased[f["at"][0]][f["at"][1]]), slack=slack)
            continue
        # a QL iteration on l, from T
        l, sigma = f["index"], mpf(f["shift"])
        d = [T[i][i] for i in range(n)]
        e = [T[i + 1][i] for i in range(n - 1)]
        if run["ql_shift"] == "wilkinson":  # the eigenvalue of T's 2 x 2 at l nearer d_l (either, at a tie)
            mid, rad = (d[l] + d[l + 1]) / 2, mp.hypot((d[l] - d[l + 1]) / 2, e[l])
            near = sorted([mid - rad, mid + rad], key=lambda mu: abs(mu - d[l]))
            want = near[0] if abs(abs(near[0] - d[l]) - abs(near[1] - d[l])) > slack else \
                min(near, key=lambda mu: abs(mu - sigma))
        elif run["ql_shift"] == "rayleigh":
            want = d[l]
        else:
            want = mp.mpf(0)
        check(f"{where} shift σ", f["shift"], want, slack=slack)
        after = [row[:] for row in T]
        first = f["chase"][0]
        m = first["i"] + 1
        # the first rotation is fixed by the shift: (c, s) ∝ (d_m - σ, e_(m-1))
        angle = mp.atan2(abs(e[m - 1]), abs(d[m] - sigma))
        check(f"{where} first rotation", mp.atan2(abs(mpf(first["s"])), abs(mpf(first["c"]))), angle,
              slack=slack / max(mp.hypot(e[m - 1], d[m] - sigma), mp.mpf("1e-300")))
        Q = [[mp.mpf(1) if i == j else mp.mpf(0) for j in range(n)] for i in range(n)]
        for rot in f["chase"]:
            i, c, s = rot["i"], mpf(rot["c"]), mpf(rot["s"])
            rotate(after, i, c, s)
            if i > l:
                check(f"{where} bulge after ({i + 1},{i + 2})", rot["bulge"], abs(after[i - 1][i + 1]), slack=slack)
            for row in Q:
                a, b = row[i], row[i + 1]
                row[i], row[i + 1] = c * a - s * b, s * a + c * b
        shownT = tri(f["diagonal"], f["offdiagonal"])
        for i in range(n):
            for j in range(n):
                if abs(i - j) <= 1:
                    check(f"{where} T{i}{j}", shownT[i][j], after[i][j], slack=slack)
        check(f"{where} |e_l|", f["subdiagonal"], abs(mpf(f["offdiagonal"][l])))
        S = [[T[i][j] - (sigma if i == j else 0) for j in range(n)] for i in range(n)]
        L = [[mp.fsum(Q[k][i] * S[k][j] for k in range(n)) for j in range(n)] for i in range(n)]
        for i in range(n):
            for j in range(n):
                check(f"{where} Q{i}{j}", f["Q"][i][j], Q[i][j], slack=16 * n * eps)
                check(f"{where} L{i}{j}", f["L"][i][j], L[i][j], slack=slack)
        T = shownT
        chased = [row[:] for row in T]
    norm = norm_f(A)
    for row in run["convergence"]:
        e = mpf(row["subdiagonal"])
        if e == 0:
            assert row["digits"] is None
            continue
        assert abs(row["digits"] - (-mp.log10(e / norm))) <= 0.005 + 1e-9, row


# ---------------------------------------------------------------- power and subspace
def angle_deg(v: Any, u: Any) -> Any:
    """atan2 of the norm of the wedge v∧u (Lagrange's identity term by term: no cancellation) and |v·u|."""
    v, u = [mpf(x) for x in v], [mpf(x) for x in u]
    c = abs(mp.fsum(a * b for a, b in zip(v, u)))
    wedge = mp.sqrt(mp.fsum((v[i] * u[j] - v[j] * u[i]) ** 2 for i in range(len(v)) for j in range(i + 1, len(v))))
    return mp.degrees(mp.atan2(wedge, c))


def eigen(A: Any) -> tuple[list[Any], list[list[Any]]]:
    E, Q = mp.eigsy(mp.matrix([[mpf(x) for x in row] for row in A]))
    n = len(A)
    order = sorted(range(n), key=lambda i: abs(E[i]), reverse=True)
    return [E[i] for i in order], [[Q[r, i] for r in range(n)] for i in order]


def power_frames(run: dict[str, Any], A: Any) -> None:
    n = run["n"]
    values, _ = eigen(A)
    B = [[mpf(x) for x in row] for row in A]
    found: list[tuple[Any, list[Any]]] = []
    for pair in range(1, run["k"] + 1):
        mine = [f for f in run["frames"] if f["pair"] == pair]
        Bp = [[B[i][j] - mp.fsum(lam * u[i] * u[j] for lam, u in found) for j in range(n)] for i in range(n)]
        for f in mine:
            where = f"pair {pair} iteration {f['iteration']}"
            v = [mpf(x) for x in f["vector"]]
            w = [mp.fsum(Bp[i][j] * v[j] for j in range(n)) for i in range(n)]
            lam = mp.fsum(a * b for a, b in zip(v, w))
            check(f"{where} Rayleigh quotient", f["value"], lam)
            res = mp.sqrt(mp.fsum((b - lam * a) ** 2 for a, b in zip(v, w)))
            check(f"{where} residual", f["residual"], res)
            check(f"{where} angle to the answer", f["angle"], angle_deg(f["vector"], run["answer"][pair - 1]), 4)
            ratio = abs(values[pair] / values[pair - 1]) if pair < n else mp.mpf(0)
            check(f"{where} rate", f["rate"], ratio ** (f["iteration"] - 1), 3)
        check(f"pair {pair} ratio", run["ratios"][pair - 1], abs(values[pair] / values[pair - 1]) if pair < n else 0, 4)
        check(f"pair {pair} λ", run["values"][pair - 1], values[pair - 1])
        found.append((mpf(run["values"][pair - 1]), [mpf(x) for x in run["answer"][pair - 1]]))


def subspace_frames(run: dict[str, Any], A: Any) -> None:
    n, b = run["n"], run["block_size"]
    values, _ = eigen(A)
    B = [[mpf(x) for x in row] for row in A]
    for f in run["frames"]:
        where = f"iteration {f['iteration']}"
        for j, (x, theta, r) in enumerate(zip(f["vectors"], f["values"], f["residuals"])):
            v = [mpf(y) for y in x]
            w = [mp.fsum(B[i][m] * v[m] for m in range(n)) for i in range(n)]
            rq = mp.fsum(a * c for a, c in zip(v, w)) / mp.fsum(a * a for a in v)
            check(f"{where} Ritz value {j + 1}", theta, rq, slack=8 * EPS * abs(values[0]))
            res = mp.sqrt(mp.fsum((c - mpf(theta) * a) ** 2 for a, c in zip(v, w)))
            check(f"{where} residual {j + 1}", r, res)
            check(f"{where} angle {j + 1}", f["angles"][j], angle_deg(x, run["answer"][j]), 3)
        for j, rate in enumerate(f["rates"]):
            ratio = abs(values[b] / values[j]) if b < n else mp.mpf(0)
            check(f"{where} rate {j + 1}", rate, ratio ** (f["iteration"] - 1), 3)


# ---------------------------------------------------------------- the walk
@pytest.fixture(autouse=True)
def _digits() -> Any:
    with mp.workdps(60):
        yield


@pytest.mark.parametrize("name", sorted(MATRICES))
def test_classroom_every_jacobi_frame_is_true(name: str) -> None:
    A = MATRICES[name]
    run = jacobi_run(A)
    for r in [run] + list(run.get("choices", {}).values()):
        jacobi_frames(r, A)


@pytest.mark.parametrize("name", sorted(MATRICES))
def test_classroom_every_ql_frame_is_true(name: str) -> None:
    A = MATRICES[name]
    run = tridiagonal_run(A)
    for r in [run] + list(run.get("choices", {}).values()):
        tridiagonal_frames(r, A)


@pytest.mark.parametrize("name", sorted(MATRICES))
def test_classroom_every_power_frame_is_true(name: str) -> None:
    A = MATRICES[name]
    k = 1 if name == "ties" else 2  # ties: λ₂ = λ₃, so only the first pair converges by power iteration
    power_frames(power_run(A, k), A)


@pytest.mark.parametrize("name", sorted(MATRICES))
def test_classroom_every_subspace_frame_is_true(name: str) -> None:
    A = MATRICES[name]
    subspace_frames(subspace_run(A, 2 if name != "ties" else 1), A)


def test_classroom_every_frame_at_30_digits_is_true() -> None:
    run = jacobi_run(A4, digits=30)
    jacobi_frames(run, A4)
    tridiagonal_frames(tridiagonal_run(A5, digits=30, choices=False), A5)


def test_classroom_every_frame_in_binary32_is_true() -> None:
    """The precision control's single-precision runs (issue 43): the same checks, eps = 2**-23."""
    for name in ("A4", "A5"):
        A = MATRICES[name]
        jacobi_frames(jacobi_run(A, digits="binary32", choices=False), A)
        power_frames(power_run(A, 1, digits="binary32"), A)
