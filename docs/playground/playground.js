"use strict";
// The playground: purepca's wheel (wheels/purepca.whl, made by prepare.py) unpacked into Pyodide
// (node_modules/pyodide, from npm), both served from this directory; nothing else is fetched.
let pyodide = null;
const status = document.getElementById("status");

function fail(err) {
  status.className = "error";
  // one line: a Python traceback's last line, which names the error (not twenty lines of frames)
  const text = String(err && err.message ? err.message : err).trim().split("\n");
  status.textContent = text[text.length - 1];
  document.body.dataset.error = status.textContent || "error";
}

async function start() {
  const t0 = performance.now();
  pyodide = await loadPyodide({indexURL: new URL("node_modules/pyodide/", location.href).href});
  const wheel = await fetch("wheels/purepca.whl");
  if (!wheel.ok) throw new Error("wheels/purepca.whl is missing: run python docs/playground/prepare.py");
  pyodide.unpackArchive(await wheel.arrayBuffer(), "zip", {extractDir: "/home/pyodide/purepca-wheel"});
  pyodide.runPython("import sys; sys.path.insert(0, '/home/pyodide/purepca-wheel'); import purepca");
  const version = pyodide.runPython("purepca.__version__ if hasattr(purepca, '__version__') else '?'");
  status.textContent = "purepca " + version + " ready in Pyodide " + pyodide.version + " (" +
    Math.round(performance.now() - t0) + " ms)";
  document.body.dataset.loadMs = String(Math.round(performance.now() - t0));
  document.getElementById("run").disabled = false;
  document.getElementById("random").disabled = false;
  document.body.dataset.ready = "yes";
}

// Data (CSV with a header, an id column kept out) or the teacher's symmetric matrix: purepca.player's
// _playground_fit, tested in CPython; an error comes back as one line
const RUN = `
from purepca.player import _playground_fit
_playground_fit(csv_text, kind, method, shift, id_column)
`;

// An example's numeric columns, or random correlated data (12 rows, seeded: the same draw each time), as CSV text.
const EXAMPLE = `
import random
from purepca.datasets import load
if example_name:
    ds = load(example_name)
    keep = [j for j, name in enumerate(ds.columns) if ds.active is None or name in ds.active]
    names, rows = [ds.columns[j] for j in keep], [[row[j] for j in keep] for row in ds.rows]
else:
    rng = random.Random(example_seed)
    mix = [[rng.uniform(-1, 1) for _ in range(example_size)] for _ in range(example_size)]
    names = ["x" + str(j + 1) for j in range(example_size)]
    rows = []
    for _ in range(12):
        z = [rng.gauss(0, 1) for _ in range(example_size)]
        rows.append([round(sum(z[k] * mix[k][j] for k in range(example_size)), 3) for j in range(example_size)])
"\\n".join([",".join(names)] + [",".join(repr(x) for x in row) for row in rows])
`;
// Power iteration from the direction the learner clicked on the cloud (its first two coordinates).
const POWER = `
import json
from purepca.covariance import center, covariance_matrix
from purepca.csvdata import read_table
from purepca.player import player_html, power_run
inverse = iteration == "inverse"
if kind == "matrix":  # the teacher's matrix: no data, no cloud
    rows, M = None, json.loads(cov_json)
else:
    rows = [[x + shift for x in row] for row in
            read_table(csv_text.splitlines(), source="the data", id_column=id_column or None).rows]
    M = covariance_matrix(rows)
run = power_run(M, 1, start=json.loads(start_json), inverse=inverse,
                title=("Inverse" if inverse else "Power") + " iteration from the vector you clicked")
if rows is not None:
    run["data"] = [[float(x) for x in r[:2]] for r in center(rows)]
player_html(run)
`;
// QL one iteration at a time, the shift the learner's (purepca.linalg.tridiagonal.ql_step).
const QL_START = `
import json
from purepca.linalg.tridiagonal import tridiagonalize
d, e, _ = tridiagonalize(json.loads(cov_json))
json.dumps({"diagonal": d, "subdiagonal": e[:-1], "next": 0})
`;
const QL_STEP = `
import json
from purepca.linalg.tridiagonal import ql_step
state = json.loads(ql_json)
json.dumps(ql_step(state["diagonal"], state["subdiagonal"], state["next"], json.loads(ql_shift)))
`;
let QL = null, QL_COUNT = 0;
function qlStart() {
  pyodide.globals.set("cov_json", JSON.stringify(LAST.covariance));
  QL = JSON.parse(pyodide.runPython(QL_START));
  QL_COUNT = 0;
  document.getElementById("ql-info").textContent = "T after the reflections; no QL iteration yet.";
  document.getElementById("ql-iterate").disabled = QL.diagonal.length < 2;
  document.getElementById("ql-reset").disabled = false;
  drawQL();
}
function drawQL() {
  const t = document.getElementById("ql-t");
  while (t.firstChild) t.removeChild(t.firstChild);
  const n = QL.diagonal.length;
  [["diagonal d", QL.diagonal, "ql-d"], ["subdiagonal e", QL.subdiagonal, "ql-e"]].forEach(([label, xs, id]) => {
    const tr = document.createElement("tr");
    const th = document.createElement("th"); th.textContent = label; tr.appendChild(th);
    xs.forEach((x, i) => {
      const td = document.createElement("td");
      td.textContent = x === 0 ? "0" : Number(x).toPrecision(6);
      td.className = id;
      if (id === "ql-e") td.classList.add(i < QL.next ? "done" : i === QL.next ? "active" : "x");
      tr.appendChild(td);
    });
    t.appendChild(tr);
  });
}
function qlIterate() {
  try {
    const rule = document.getElementById("ql-rule").value;
    const shift = rule === "value" ? Number(document.getElementById("ql-sigma").value) : rule;
    if (rule === "value" && !isFinite(shift)) throw new Error("the shift must be a number");
    pyodide.globals.set("ql_json", JSON.stringify(QL));
    pyodide.globals.set("ql_shift", JSON.stringify(shift));
    const l = QL.next, step = JSON.parse(pyodide.runPython(QL_STEP));
    QL = step; QL_COUNT += 1;
    drawQL();
    document.getElementById("ql-info").textContent = "iteration " + QL_COUNT + " on l = " + (l + 1) + ": shift σ = " +
      (step.shift === 0 ? "0" : step.shift.toPrecision(6)) + "; |e_l| = " +
      (step.subdiagonal[l] === 0 ? "0" : Math.abs(step.subdiagonal[l]).toPrecision(6)) +
      (step.deflated ? " ≤ " + step.tolerance.toPrecision(3) + ": d_" + (l + 1) + " is an eigenvalue" : "") +
      "; " + step.chase.length + " rotation" + (step.chase.length === 1 ? "" : "s") + " chased the bulge.";
    document.getElementById("ql-iterate").disabled = step.next >= step.diagonal.length - 1;
    document.body.dataset.qlIterations = String(QL_COUNT);
  } catch (err) {
    fail(err);
  }
}
document.getElementById("ql-iterate").onclick = qlIterate;
document.getElementById("ql-reset").onclick = () => { if (LAST) qlStart(); };
let SEED = 0;
function example(name) {
  try {
    pyodide.globals.set("example_name", name);
    pyodide.globals.set("example_seed", ++SEED);
    pyodide.globals.set("example_size", Number(document.getElementById("size").value));
    document.getElementById("data").value = pyodide.runPython(EXAMPLE);
    document.getElementById("kind").value = "data";  // an example is data, with its header
    document.body.dataset.example = name || "random " + SEED;
    run();
  } catch (err) {
    fail(err);
  }
}

// One rotation on the pivot the learner clicked: purepca's own (player.pivot_step), not JavaScript's.
const PIVOT = `
import json
from purepca.player import pivot_step
state = json.loads(work_json)
json.dumps(pivot_step(state["matrix"], pivot_p, pivot_q, vectors=state["vectors"]))
`;

function cell(tr, text, cls, tag) {
  const td = document.createElement(tag || "td");
  td.textContent = text;
  if (cls) td.className = cls;
  tr.appendChild(td);
}

function run() {
  delete document.body.dataset.done;
  delete document.body.dataset.error;
  status.className = "";
  const t0 = performance.now();
  try {
    const shift = Number(document.getElementById("shift").value || "0");
    if (!isFinite(shift)) throw new Error("the value to add must be a number");
    pyodide.globals.set("csv_text", document.getElementById("data").value);
    pyodide.globals.set("method", document.getElementById("method").value);
    pyodide.globals.set("shift", shift);
    pyodide.globals.set("kind", document.getElementById("kind").value);
    pyodide.globals.set("id_column", document.getElementById("id-column").value.trim());
    const out = JSON.parse(pyodide.runPython(RUN));
    if (out.error) throw new Error(out.error);
    const fit = document.getElementById("fit");
    while (fit.firstChild) fit.removeChild(fit.firstChild);
    const head = document.createElement("tr");
    cell(head, "component", "", "th"); cell(head, "variance", "", "th");
    for (const name of out.names) cell(head, name, "", "th");
    fit.appendChild(head);
    out.variance.forEach((v, k) => {
      const tr = document.createElement("tr");
      cell(tr, "PC" + (k + 1));
      cell(tr, v, "value");
      for (const x of out.components[k]) cell(tr, x, "value");
      fit.appendChild(tr);
    });
    document.getElementById("player").srcdoc = out.page;
    LAST = out;
    drawCloud(out);
    resetWork();
    qlStart();
    const ms = Math.round(performance.now() - t0);
    status.textContent = "fitted and traced in " + ms + " ms";
    document.body.dataset.runMs = String(ms);
    document.body.dataset.done = "yes";
  } catch (err) {
    fail(err);
  }
}

// ------------------------------------------------------------ the cloud: drag a point, purepca refits
const SVGNS = "http://www.w3.org/2000/svg";
let LAST = null, WORK = null, ROTATIONS = 0;
function svgEl(tag, attrs, parent) {
  const e = document.createElementNS(SVGNS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  parent.appendChild(e);
  return e;
}
function basis(out) {  // the screen's two axes in data coordinates: the first two columns, or the 3-D view's
  if (!(out.rows[0].length >= 3 && document.getElementById("view3d").checked)) return [[1, 0], [0, 1]];
  const a = Number(document.getElementById("azimuth").value) * Math.PI / 180;
  const b = Number(document.getElementById("elevation").value) * Math.PI / 180;
  return [[Math.cos(a), Math.sin(a), 0], [-Math.sin(a) * Math.sin(b), Math.cos(a) * Math.sin(b), Math.cos(b)]];
}
function drawCloud(out) {  // drawing only: every number on it comes from purepca (rows, mean, sd, components)
  const svg = document.getElementById("cloud"), S = 360, C = S / 2;
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  if (!out.rows.length || out.rows[0].length < 2) return;  // a typed matrix has no cloud
  const E = basis(out), dims = E[0].length, mean = out.mean;
  const project = d => [0, 1].map(k => E[k].reduce((acc, e, j) => acc + e * d[j], 0));
  const points = out.rows.map(r => project(r.slice(0, dims).map((x, j) => x - mean[j])));
  const axes = out.sd.slice(0, Math.min(dims, 3)).map((sd, k) => project(out.components[k].slice(0, dims).map(x => 2 * sd * Number(x))));
  let extent = 0;
  for (const p of points.concat(axes)) extent = Math.max(extent, Math.abs(p[0]), Math.abs(p[1]));
  const scale = (C - 16) / (extent || 1);
  svg.dataset.scale = String(scale); svg.dataset.basis = JSON.stringify(E);
  const X = u => C + scale * u, Y = v => C - scale * v;
  axes.forEach((a, k) => {
    svgEl("line", {x1: X(-a[0]), y1: Y(-a[1]), x2: X(a[0]), y2: Y(a[1]), stroke: ["#d62728", "#1f77b4", "#9467bd"][k],
                   "stroke-width": 3, "class": "axis", "data-axis": k}, svg);
  });
  points.forEach((p, i) => {
    const dot = svgEl("circle", {cx: X(p[0]), cy: Y(p[1]), r: 5, fill: "#666", "class": "datum", "data-row": i}, svg);
    dot.addEventListener("pointerdown", e => startDrag(e, dot, i, scale, E));
  });
}
function clickStart(e) {  // a click on the background (not on a point): power iteration starts there
  if (e.target.tagName === "circle" || !LAST) return;
  const svg = document.getElementById("cloud"), r = svg.getBoundingClientRect(), C = r.width / 2;
  const dx = e.clientX - r.left - C, dy = -(e.clientY - r.top - C);
  if (dx === 0 && dy === 0) return;
  const start = LAST.covariance.map((_, j) => j === 0 ? dx : j === 1 ? dy : 0);
  try {
    pyodide.globals.set("csv_text", document.getElementById("data").value);
    pyodide.globals.set("shift", Number(document.getElementById("shift").value || "0"));
    pyodide.globals.set("start_json", JSON.stringify(start));
    pyodide.globals.set("kind", document.getElementById("kind").value);
    pyodide.globals.set("id_column", document.getElementById("id-column").value.trim());
    pyodide.globals.set("cov_json", JSON.stringify(LAST.covariance));
    pyodide.globals.set("iteration", document.getElementById("iteration").value);
    document.getElementById("player").srcdoc = pyodide.runPython(POWER);
    // the direction clicked, as a unit vector in the data's coordinates (the picture's scale is the same on both
    // axes, so the pixel offsets give the direction; their size in pixels means nothing to the data)
    const length = Math.hypot(...start);
    status.textContent = document.getElementById("iteration").value + " iteration from the direction you clicked, v = (" +
      start.map(x => (x / length).toPrecision(4)).join(", ") + ")";
    document.body.dataset.powerStart = JSON.stringify(start);
  } catch (err) {
    fail(err);
  }
}
document.getElementById("cloud").addEventListener("click", clickStart);
for (const id of ["view3d", "azimuth", "elevation"]) document.getElementById(id).addEventListener("input", () => { if (LAST) drawCloud(LAST); });
function startDrag(e, dot, i, scale, E) {
  e.preventDefault();
  const svg = document.getElementById("cloud");
  dot.classList.add("dragging");
  const x0 = e.clientX, y0 = e.clientY, cx0 = Number(dot.getAttribute("cx")), cy0 = Number(dot.getAttribute("cy"));
  function move(ev) { dot.setAttribute("cx", cx0 + ev.clientX - x0); dot.setAttribute("cy", cy0 + ev.clientY - y0); }
  function drop(ev) {
    svg.removeEventListener("pointermove", move); window.removeEventListener("pointerup", drop);
    dot.classList.remove("dragging");
    // the point moves in the screen's plane: du along its first axis, dv along its second (in 3-D, the
    // view's); the new data values are text, as the learner would type them, and purepca computes from them
    const r = LAST.rows[i], du = (ev.clientX - x0) / scale, dv = -(ev.clientY - y0) / scale;
    setRow(i, E[0].map((e1, j) => Number((r[j] + du * e1 + dv * E[1][j]).toPrecision(6))));
    run();
  }
  svg.addEventListener("pointermove", move); window.addEventListener("pointerup", drop);
}
function setRow(i, xy) {  // replace the first two (three) fields of data row i in the text box
  const box = document.getElementById("data"), lines = box.value.split("\n");
  let seen = -1;
  for (let k = 1; k < lines.length; k++) {
    if (!lines[k].trim()) continue;
    if (++seen === i) { const f = lines[k].split(","); xy.forEach((x, j) => { f[j] = String(x); }); lines[k] = f.join(","); break; }
  }
  box.value = lines.join("\n");
  document.body.dataset.dragged = String(i);
}

// ------------------------------------------------------------ the working matrix: click a pivot
function resetWork() {
  const n = LAST.covariance.length;
  WORK = {matrix: LAST.covariance, vectors: LAST.covariance.map((r, i) => r.map((_, j) => i === j ? 1 : 0))};
  ROTATIONS = 0;
  document.getElementById("pivot-info").textContent = "Click an entry off the diagonal: the next pivot.";
  document.getElementById("rotations").textContent = "";
  const j = document.getElementById("pivot-j"); while (j.firstChild) j.removeChild(j.firstChild);
  document.getElementById("reset").disabled = false;
  drawWork(null, n);
}
function drawWork(last) {
  const t = document.getElementById("work-matrix");
  while (t.firstChild) t.removeChild(t.firstChild);
  WORK.matrix.forEach((row, r) => {
    const tr = document.createElement("tr");
    row.forEach((x, c) => {
      const td = document.createElement("td");
      td.textContent = x === 0 ? "0" : Number(x).toPrecision(6);
      td.dataset.r = String(r); td.dataset.c = String(c);
      td.className = r === c ? "diag" : (last && ((r === last.p && c === last.q) || (r === last.q && c === last.p)) ? "off zeroed" : "off");
      if (r !== c) td.onclick = () => pivot(r, c);
      tr.appendChild(td);
    });
    t.appendChild(tr);
  });
}
function pivot(p, q) {
  try {
    pyodide.globals.set("work_json", JSON.stringify(WORK));
    pyodide.globals.set("pivot_p", p); pyodide.globals.set("pivot_q", q);
    const step = JSON.parse(pyodide.runPython(PIVOT));
    WORK = {matrix: step.matrix, vectors: step.vectors};
    ROTATIONS += 1;
    drawWork(step);
    document.getElementById("pivot-info").textContent = "Pivot (" + (step.p + 1) + ", " + (step.q + 1) + "): θ = " +
      (step.theta * 180 / Math.PI).toPrecision(6) + "° (" + step.theta.toPrecision(6) + " rad), c = " + step.c.toPrecision(6) +
      ", s = " + step.s.toPrecision(6) + "; off(A) = " + (step.off === 0 ? "0" : step.off.toPrecision(6)) + " after it.";
    const j = document.getElementById("pivot-j"); while (j.firstChild) j.removeChild(j.firstChild);
    for (let r = 0; r < WORK.matrix.length; r++) {
      const tr = document.createElement("tr");
      for (let c = 0; c < WORK.matrix.length; c++) {
        const td = document.createElement("td");
        let x = r === c ? 1 : 0;
        if ((r === step.p && c === step.p) || (r === step.q && c === step.q)) x = step.c;
        else if (r === step.p && c === step.q) x = step.s;
        else if (r === step.q && c === step.p) x = -step.s;
        td.textContent = x === 0 || x === 1 ? String(x) : x.toPrecision(6);
        tr.appendChild(td);
      }
      j.appendChild(tr);
    }
    document.getElementById("rotations").textContent = ROTATIONS + " rotation" + (ROTATIONS === 1 ? "" : "s") +
      " so far: J above is the last one (A ← JᵀAJ); the diagonal tends to the eigenvalues.";
    document.body.dataset.pivots = String(ROTATIONS);
  } catch (err) {
    fail(err);
  }
}
document.getElementById("reset").onclick = () => { if (LAST) resetWork(); };
document.getElementById("preset").onchange = e => { if (e.target.value) example(e.target.value); };
document.getElementById("random").onclick = () => { document.getElementById("preset").value = ""; example(""); };
document.getElementById("run").onclick = run;
start().catch(fail);
