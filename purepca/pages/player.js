
"use strict";
const PAYLOAD = JSON.parse(document.getElementById("run-data").textContent);
const MAIN = PAYLOAD.run, REPLAY = PAYLOAD.replay, PAGE_ID = PAYLOAD.page_id || "";
let RUN = MAIN;  // the run shown: the page's own, or one of the choices (another pivot order, another shift)
const SVGNS = "http://www.w3.org/2000/svg";
const AXIS = ["#d62728", "#1f77b4", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"];
let SHOW = 6, NOTATION = "auto";  // significant digits on screen and their notation: the format control

function num(x) { return typeof x === "string" ? Number(x) : x; }
// x rounded to p significant digits: a float by toPrecision (correctly rounded from the double),
// a decimal string by rounding its digits (exact): either way the solver's number to the digits shown.
function fmt(x, p) {
  p = p || SHOW;
  const s = fmtAuto(x, p);
  return NOTATION === "auto" ? s : notate(s, NOTATION);
}
// A number already rounded to its significant digits (as fmtAuto writes it) in fixed or scientific notation.
function notate(s, how) {
  const m = /^(-?)(\d+)(?:\.(\d*))?(?:e([-+]?\d+))?$/.exec(s);
  if (!m) return s;
  const all = m[2] + (m[3] || ""), lz = all.length - all.replace(/^0+/, "").length;
  let digits = all.slice(lz);
  if (!digits) return s;
  const e = m[2].length - 1 - lz + Number(m[4] || 0);  // the exponent of the first significant digit
  if (how === "scientific") return m[1] + digits[0] + (digits.length > 1 ? "." + digits.slice(1) : "") + "e" + e;
  if (e < 0) return m[1] + "0." + "0".repeat(-e - 1) + digits;
  if (digits.length <= e + 1) return m[1] + digits.padEnd(e + 1, "0");
  return m[1] + digits.slice(0, e + 1) + "." + digits.slice(e + 1);
}
function fmtAuto(x, p) {
  if (typeof x === "number") {
    if (x === 0) return "0";
    let s = x.toPrecision(p);
    return tidy(s);
  }
  let m = /^([-+]?)(\d*)(?:\.(\d*))?(?:[eE]([-+]?\d+))?$/.exec(x.trim());
  if (!m) return x;
  const sign = m[1] === "-" ? "-" : "", all = m[2] + (m[3] || "");
  const lz = all.length - all.replace(/^0+/, "").length, digits = all.slice(lz);
  if (!digits) return "0";
  let exp = m[2].length + Number(m[4] || 0) - lz;
  // value = 0.digits * 10^exp
  let d = digits.padEnd(p + 1, "0");
  let head = d.slice(0, p).split("").map(Number);
  if (Number(d[p]) >= 5) {
    let i = p - 1;
    while (i >= 0) { head[i] += 1; if (head[i] < 10) break; head[i] = 0; i--; }
    if (i < 0) { head.unshift(1); head.pop(); exp += 1; }
  }
  let e = exp - 1, mant = head.join("");
  let s;
  if (e < -5 || e >= p) s = mant[0] + (p > 1 ? "." + mant.slice(1) : "") + "e" + (e >= 0 ? "+" : "") + e;
  else if (e >= 0) s = mant.slice(0, e + 1) + (p > e + 1 ? "." + mant.slice(e + 1) : "");
  else s = "0." + "0".repeat(-e - 1) + mant;
  return tidy(sign + s);
}
function tidy(s) {  // 1.5e+7 -> 1.5e7; the trailing zeros stay: they are digits shown
  let [m, e] = s.split("e");
  return e === undefined ? m : m + "e" + (e[0] === "+" ? e.slice(1) : e);
}
function el(tag, attrs, parent, text) {
  const e = document.createElementNS(SVGNS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}
function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
function deg(rad) { return rad * 180 / Math.PI; }

let frames = RUN.frames;
let index = 0, timer = null;
const slider = document.getElementById("slider");
slider.max = frames.length - 1;

// ------------------------------------------------------------ the matrix
function tridiagonalMatrix(d, e) {
  const n = d.length, M = [];
  for (let r = 0; r < n; r++) { M.push([]); for (let c = 0; c < n; c++) M[r].push(r === c ? d[r] : Math.abs(r - c) === 1 ? e[Math.min(r, c)] : 0); }
  return M;
}
function matrixOf(i) {
  const f = frames[i];
  if (RUN.method === "jacobi" || f.kind === "start" || f.kind === "householder" || f.kind === "chase") return f.matrix;
  if (f.kind === "tridiagonal" || f.kind === "ql") return tridiagonalMatrix(f.diagonal, f.offdiagonal);
  return RUN.matrix;
}
function drawMatrix(i) {
  const svg = document.getElementById("matrix"), M = matrixOf(i), n = M.length;
  const widest = Math.max(...M.map(row => Math.max(...row.map(x => fmt(x).length))));
  const w = Math.max(n <= 6 ? 92 : 64, Math.ceil(7.4 * widest + 16)), h = 26, pad = 4;  // cells fit their content
  svg.setAttribute("width", n * w + 2 * pad); svg.setAttribute("height", n * h + 2 * pad);
  clear(svg);
  const f = frames[i], next = frames[i + 1];
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) {
    let cls = "cell" + (r === c ? " diag" : "");
    if (RUN.method === "jacobi") {
      if (f.kind === "rotation" && ((r === f.p && c === f.q) || (r === f.q && c === f.p))) cls = "cell zeroed";
      else if (next && ((r === next.p && c === next.q) || (r === next.q && c === next.p))) cls = "cell next";
    } else if (f.kind === "chase") {  // the bulge this rotation left, and the plane it rotated
      if (f.at && ((r === f.at[0] && c === f.at[1]) || (r === f.at[1] && c === f.at[0]))) cls = "cell bulge";
      else if (Math.min(r, c) === f.i && Math.abs(r - c) === 1) cls = "cell next";
    } else if (f.kind === "ql") {  // the subdiagonal entry driven to zero; where the bulge passed
      if (Math.min(r, c) === f.index && Math.abs(r - c) === 1) cls = f.deflated ? "cell zeroed" : "cell next";
      else if (f.chase.some(x => x.i > f.index && Math.min(r, c) === x.i - 1 && Math.abs(r - c) === 2)) cls = "cell bulge";
    }
    el("rect", {x: pad + c * w, y: pad + r * h, width: w, height: h, "class": cls, "data-r": r, "data-c": c}, svg);
    el("text", {x: pad + c * w + w - 6, y: pad + r * h + 17, "text-anchor": "end", "class": "entry",
                "data-r": r, "data-c": c}, svg, fmt(M[r][c]));  // every order to the digits chosen (cells widen)
  }
}

// ------------------------------------------------------------ the numbers
function row(table, label, id, value, note) {
  const tr = document.createElement("tr");
  const a = document.createElement("td"); a.textContent = label; tr.appendChild(a);
  const b = document.createElement("td"); b.id = id; b.textContent = value; tr.appendChild(b);
  const c = document.createElement("td"); c.className = "faint"; c.textContent = note || ""; tr.appendChild(c);
  table.appendChild(tr);
}
function drawNumbers(i) {
  const t = document.getElementById("numbers"), f = frames[i];
  clear(t);
  if (RUN.method === "jacobi") {
    if (f.kind === "rotation") {
      row(t, "sweep", "sweep", String(f.sweep));
      row(t, "pair (p, q)", "pair", "(" + (f.p + 1) + ", " + (f.q + 1) + ")", "rows and columns, from 1");
      row(t, "θ (degrees)", "theta", fmt(deg(f.theta)), "tan 2θ = 2·a_pq / (a_qq − a_pp)");
      row(t, "t = tan θ", "t", fmt(f.t));
      row(t, "c = cos θ", "c", fmt(f.c));
      row(t, "s = sin θ", "s", fmt(f.s));
    } else {
      row(t, "start", "sweep", "0", "no rotation yet");
    }
    row(t, "off(A)", "off", fmt(f.off), "√(Σ_{i≠j} a_ij²) after this step");
    const diag = frames[i].matrix.map((r, k) => fmt(r[k]));
    row(t, "diagonal", "diagonal", diag.join("  "), "→ the eigenvalues");
    if (f.kind === "rotation") {
      row(t, "sweep's threshold", "threshold", f.threshold === null || num(f.threshold) === 0 ? "0" : fmt(f.threshold),
          RUN.pivot === "threshold" ? "0.2/n²·Σ_(p<q)|a_pq| at the sweep's start, sweeps 1–3 (Rutishauser)" : "none in this order");
      row(t, "skipped just before", "skipped", f.skipped.length ? f.skipped.map(x => "(" + (x[0] + 1) + ", " + (x[1] + 1) +
          "): |a_pq| = " + fmt(x[2]) + " ≤ " + fmt(f.threshold)).join("; ") : "none", "passed over, not converged");
    }
    (f.ends || []).forEach(e => {  // the pairs skipped after the sweep's last rotation: shown on the frame they follow
      row(t, "sweep " + e.sweep + " ends", "ends-" + e.sweep, e.skipped.length ? "skipped after this step: " +
          e.skipped.map(x => "(" + (x[0] + 1) + ", " + (x[1] + 1) + "): |a_pq| = " + fmt(x[2]) + " ≤ " +
          fmt(e.threshold)).join("; ") : "nothing skipped after this step", "off(A) is then the value above");
    });
  } else if (RUN.method === "power") {
    row(t, "eigenpair", "pair", String(f.pair));
    row(t, "iteration", "iteration", String(f.iteration));
    row(t, "vector v", "vector", f.vector.map(x => fmt(x)).join("  "), "unit length");
    const found = f.pair <= RUN.values.length;
    if (RUN.inverse) row(t, "Rayleigh quotient vᵀA⁻¹v", "rayleigh", fmt(f.value), found ? "→ 1/λ = " + fmt(RUN.values[f.pair - 1]) +
                         ", λ = " + fmt(RUN.eigenvalues[f.pair - 1]) : "does not converge");
    else row(t, f.pair > 1 ? "Rayleigh quotient vᵀBv" : "Rayleigh quotient vᵀAv", "rayleigh", fmt(f.value),
             (found ? "→ λ = " + fmt(RUN.values[f.pair - 1]) : "does not converge") +
             (f.pair > 1 ? "; B = A − Σ λ_j·u_j·u_jᵀ over the pairs found (Hotelling)" : ""));
    row(t, RUN.inverse ? "residual ‖A⁻¹v − μv‖" : "residual ‖Av − λv‖", "residual", fmt(f.residual), "stops at " + fmt(f.tolerance, 3));
    row(t, "predicted |λ₂/λ₁|^(k−1)", "rate", fmt(f.rate, 3), "|λ₂/λ₁| = " + fmt(RUN.ratios[f.pair - 1], 4));
    row(t, "angle to the answer (°)", "angle", f.angle === null ? "none: no answer" : fmt(f.angle, 4));
  } else if (RUN.method === "subspace") {
    row(t, "iteration", "iteration", String(f.iteration), "block of " + RUN.block_size + " vectors, Rayleigh–Ritz");
    f.values.forEach((v, j) => {
      row(t, "Ritz value θ" + (j + 1), "ritz-" + (j + 1), fmt(v), "→ λ = " + fmt(RUN.values[j]));
      row(t, "residual " + (j + 1), "residual-" + (j + 1), fmt(f.residuals[j]), "angle to the answer " + fmt(f.angles[j], 3) + "°");
    });
    row(t, "predicted |λ_(b+1)/λ_k|^(k−1)", "rate", fmt(f.rates[f.rates.length - 1], 3), "stops at " + fmt(f.tolerance, 3));
  } else {
    if (f.kind === "start") {
      row(t, "A as given", "step", "step 0", RUN.n > 2 ? "the reflections H_1 … H_" + (RUN.n - 2) + " reduce it to tridiagonal T = QᵀAQ" :
          "a matrix of order " + RUN.n + " is already tridiagonal");
    } else if (f.kind === "householder") {
      row(t, "reflection", "step", "H_" + (f.k + 1), "folds column " + (f.k + 1) + " below the subdiagonal");
      row(t, "‖x‖", "norm", fmt(f.norm));
      row(t, "new subdiagonal e_k", "alpha", fmt(f.alpha));
      row(t, "β", "beta", fmt(f.beta));
      row(t, "reflector v", "reflector", f.reflector.map(x => fmt(x, 4)).join("  ") || "(none: already reduced)");
    } else if (f.kind === "chase") {
      row(t, "QL iteration on", "step", "λ_" + (f.index + 1), "chasing the bulge up the block");
      row(t, "rotation", "rotation", f.rotation + " of " + f.rotations, "in the plane (" + (f.i + 1) + ", " + (f.i + 2) + ")");
      row(t, "c", "c", fmt(f.c));
      row(t, "s", "s", fmt(f.s));
      row(t, "bulge", "bulge", f.at ? fmt(f.bulge) : "gone", f.at ? "at (" + (f.at[0] + 1) + ", " + (f.at[1] + 1) +
          "), outside the tridiagonal band: the next rotation moves it up" : "the last rotation: T is tridiagonal again");
    } else if (f.kind === "tridiagonal") {
      row(t, "T = QᵀAQ", "step", "tridiagonal", "the reflections are done; QL starts");
      row(t, "diagonal of T", "t-diagonal", f.diagonal.map(x => fmt(x)).join("  "));
      row(t, "subdiagonal of T", "t-subdiagonal", f.offdiagonal.map(x => fmt(x)).join("  "));
    } else {
      const rule = {wilkinson: "Wilkinson's: the eigenvalue of T's 2 × 2 at l nearer to d_l", rayleigh: "Rayleigh's: d_l",
                    none: "no shift"}[RUN.ql_shift];
      row(t, "QL iteration on", "step", "λ_" + (f.index + 1), "drives e_" + (f.index + 1) + " = T[l+1][l] to zero");
      row(t, "shift σ", "shift", fmt(f.shift), rule);
      row(t, "diagonal of T", "t-diagonal", f.diagonal.map(x => fmt(x)).join("  "), "after the iteration");
      row(t, "subdiagonal of T", "t-subdiagonal", f.offdiagonal.map(x => fmt(x)).join("  "));
      row(t, "bulge chase", "chase", f.chase.map(x => "(" + (x.i + 1) + "," + (x.i + 2) + ")" +
          (x.i > f.index ? " → bulge at (" + x.i + "," + (x.i + 2) + ") = " + fmt(x.bulge) : " → gone")).join("; "),
          "plane rotations from the bottom of the block up");
      row(t, "|e_l| after", "subdiagonal", fmt(f.subdiagonal), "stops at " + fmt(f.tolerance, 3));
      row(t, "deflated", "deflated", f.deflated ? "yes: d_" + (f.index + 1) + " = " + fmt(f.diagonal[f.index]) + " is an eigenvalue" : "not yet");
    }
  }
}

// ------------------------------------------------------------ the log plot
function plotValues() {
  if (RUN.method === "jacobi") return frames.map(f => num(f.off));
  if (RUN.method === "power") return frames.map(f => num(f.residual));
  if (RUN.method === "subspace") return frames.map(f => Math.max(...f.residuals.map(num)));
  return frames.map(f => f.kind === "ql" ? f.subdiagonal : null);
}
function drawPlot(i) {
  const svg = document.getElementById("plot"), W = 440, H = 250, L = 58, R = 12, T = 12, B = 34;
  clear(svg);
  const ys = plotValues();
  const pos = ys.filter(y => y !== null && y > 0);
  let floor = pos.length ? Math.min(...pos) : 1, top = pos.length ? Math.max(...pos) : 1;
  const zero = ys.some(y => y === 0) ? floor / 1000 : floor;  // room for a row labelled 0
  let lo = Math.floor(Math.log10(zero)), hi = Math.ceil(Math.log10(top) + 1e-12);
  if (hi <= lo) hi = lo + 1;
  const n = Math.max(frames.length - 1, 1);
  const X = k => L + (W - L - R) * k / n;
  const Y = v => T + (H - T - B) * (v > 0 ? hi - Math.log10(v) : hi - lo) / (hi - lo);  // an exact 0 at the bottom
  el("rect", {x: L, y: T, width: W - L - R, height: H - T - B, fill: "none", stroke: "#999"}, svg);
  const stepTick = Math.max(1, Math.ceil((hi - lo) / 8));
  for (let e = lo; e <= hi; e += stepTick) {
    el("line", {x1: L, x2: W - R, y1: Y(Math.pow(10, e)), y2: Y(Math.pow(10, e)), stroke: "#eee"}, svg);
    el("text", {x: L - 4, y: Y(Math.pow(10, e)) + 4, "text-anchor": "end", "class": "ytick"}, svg,
       e === lo && zero < floor ? "0" : "1e" + e);
  }
  el("text", {x: (L + W - R) / 2, y: H - 6, "text-anchor": "middle"}, svg,
     RUN.method === "power" ? "iteration (one run per eigenpair)" : "step");
  if (RUN.method === "jacobi") for (const s of RUN.sweeps) {
    el("line", {x1: X(s.frame), x2: X(s.frame), y1: T, y2: H - B, stroke: "#bbb", "stroke-dasharray": "3 3"}, svg);
  }
  if (RUN.method === "power" || RUN.method === "subspace") {
    let first = null;
    const pts = [];
    frames.forEach((f, k) => {
      const rate = RUN.method === "power" ? f.rate : f.rates[f.rates.length - 1];
      if (f.iteration === 1) first = ys[k];
      if (first > 0 && rate > 0) pts.push(X(k) + "," + Y(first * rate));
    });
    el("polyline", {points: pts.join(" "), fill: "none", stroke: "#9467bd", "stroke-dasharray": "5 4",
                    "class": "predicted"}, svg);
  }
  const line = [];
  ys.forEach((y, k) => { if (y !== null) line.push(X(k) + "," + Y(y)); });
  el("polyline", {points: line.join(" "), fill: "none", stroke: "#555"}, svg);
  ys.forEach((y, k) => {
    if (y === null) return;
    el("circle", {cx: X(k), cy: Y(y), r: k === i ? 5 : 2.5, fill: k === i ? "#d62728" : "#555",
                  "class": k === i ? "current" : "point"}, svg);
  });
}

// ------------------------------------------------------------ the cloud and the axes
function drawCloud(i) {
  const svg = document.getElementById("cloud"), S = 340, C = S / 2;
  clear(svg);
  const f = frames[i];
  let axes = [], points = RUN.data || [], extent = 0;
  if (RUN.method === "jacobi") {
    const M = f.matrix;
    axes = f.vectors.map((v, k) => ({v: [num(v[0]), num(v[1] === undefined ? 0 : v[1])],
                                     len: 2 * Math.sqrt(Math.max(num(M[k][k]), 0)), colour: AXIS[k % AXIS.length]}));
  } else if (RUN.method === "power") {
    const u = RUN.answer[f.pair - 1] || [0, 0];
    // every eigenvector, as Heath's module draws them: the one the iteration finds first darkest
    axes = (RUN.all_eigenvectors || []).map((e, j) => ({v: [e[0], e[1] || 0], len: 1, colour: j === 0 ? "#555555" : "#cccccc",
                                                       dash: true, eigen: j}));
    axes.push({v: [u[0], u[1] || 0], len: 1, colour: "#bbbbbb", dash: true},
              {v: [num(f.vector[0]), num(f.vector[1] || 0)], len: 1, colour: "#d62728"});
  } else if (RUN.method === "subspace") {
    RUN.answer.forEach((u, j) => axes.push({v: [u[0], u[1] || 0], len: 1, colour: "#bbbbbb", dash: true}));
    f.vectors.forEach((x, j) => axes.push({v: [num(x[0]), num(x[1] || 0)], len: 1, colour: AXIS[j % AXIS.length]}));
  } else {
    document.getElementById("cloud-title").style.display = "none"; svg.style.display = "none"; return;
  }
  const arrows = RUN.method === "power" || RUN.method === "subspace";
  for (const p of points) extent = Math.max(extent, Math.abs(p[0]), Math.abs(p[1]));
  if (!arrows) for (const a of axes) extent = Math.max(extent, a.len * Math.hypot(a.v[0], a.v[1]));
  if (!points.length && arrows) extent = 1;
  const k = (C - 14) / (extent || 1);
  // Unit vectors have their own scale: the unit circle fills the picture whatever the data's spread
  // (at the data's scale a unit arrow on data spread over ±20 would be 4 px long).
  const unit = arrows ? 0.85 * (C - 14) : k;
  svg.dataset.scale = String(k);
  svg.dataset.unit = String(unit);
  el("line", {x1: 0, x2: S, y1: C, y2: C, stroke: "#eee"}, svg);
  el("line", {x1: C, x2: C, y1: 0, y2: S, stroke: "#eee"}, svg);
  if (arrows) {
    el("circle", {cx: C, cy: C, r: unit, fill: "none", stroke: "#ddd", "class": "unit-circle"}, svg);
    el("text", {x: C + unit * 0.71 + 4, y: C - unit * 0.71 - 4, fill: "#999"}, svg, "‖v‖ = 1");
  }
  for (const p of points) el("circle", {cx: C + k * p[0], cy: C - k * p[1], r: 3, fill: "#888", "class": "datum"}, svg);
  axes.forEach((a, j) => {
    const x = a.v[0] * a.len * unit, y = a.v[1] * a.len * unit;
    const attrs = {x1: C - x, y1: C + y, x2: C + x, y2: C - y, stroke: a.colour, "stroke-width": 3,
                   "class": "axis", "data-axis": j};
    if (arrows) { attrs.x1 = C; attrs.y1 = C; }
    if (a.dash) attrs["stroke-dasharray"] = "6 5";
    if (a.eigen !== undefined) { attrs["class"] = "eigenvector"; attrs["data-eigen"] = a.eigen; attrs["stroke-width"] = 1.5; }
    el("line", attrs, svg);
  });
}

// ------------------------------------------------------------ the checker
function checkWhat(i) {
  const next = frames[i + 1], what = document.getElementById("check-what");
  document.getElementById("verdict").textContent = "";
  if (!next && RUN.method !== "subspace") { what.textContent = "This is the last step: nothing left to compute."; return; }
  if (RUN.method === "jacobi") what.textContent = "The next rotation is in the plane (" + (next.p + 1) + ", " +
      (next.q + 1) + "). From the matrix above, compute θ with tan 2θ = 2·a_pq / (a_qq − a_pp), |θ| ≤ 45°, in degrees:";
  else if (RUN.method === "power") what.textContent = next.pair === frames[i].pair ?
      "Compute the next vector A·v / ‖A·v‖, of unit length (entries separated by commas or spaces)" +
      (next.pair > 1 ? ", with A deflated by the pairs found, B = A − Σ λ_j·u_j·u_jᵀ:" : ":") :
      "The next step starts eigenpair " + next.pair + " from a new random vector: nothing to compute by hand.";
  else if (RUN.method === "subspace") what.textContent = "For the first Ritz pair shown (θ₁ and x₁, the first row of the " +
      "vectors), compute the residual ‖A·x₁ − θ₁·x₁‖:";
  else if (RUN.method === "tridiagonal") {
    const ql = qlAhead(i);
    what.textContent = ql === null ? "No QL iteration starts at the next step: nothing to compute by hand." :
      "The next QL iteration works on l = " + (frames[ql].index + 1) + ". From T as it stands, compute its shift σ" +
      (RUN.ql_shift === "wilkinson" ? " (Wilkinson's: the eigenvalue of [[d_l, e_l], [e_l, d_(l+1)]] nearer d_l):" :
       RUN.ql_shift === "rayleigh" ? " (Rayleigh's: d_l):" : " (no shift: 0):");
  }
}
// The QL frame of the iteration the next step starts (its first chase rotation, or the iteration itself), or null.
function qlAhead(i) {
  const f = frames[i], next = frames[i + 1];
  if (!next || f.kind === "chase" && next.kind === "chase" || f.kind === "chase" && next.kind === "ql") return null;
  for (let j = i + 1; j < frames.length; j++) if (frames[j].kind === "ql") return j;
  return null;
}
function check() {
  const next = frames[index + 1], out = document.getElementById("verdict");
  if (!next && RUN.method !== "subspace") return;
  const text = document.getElementById("guess").value.trim();
  const parts = text.split(/[\s,;]+/).filter(s => s.length).map(Number);
  if (!parts.length || parts.some(x => !isFinite(x))) { out.textContent = "Please type a number."; out.className = "bad"; return; }
  let diff, truth, scale;
  if (RUN.method === "jacobi") {
    truth = deg(next.theta); diff = Math.abs(parts[0] - truth); scale = Math.max(Math.abs(truth), 1e-300);
    verdict(diff, scale, "θ = " + fmt(truth, 10) + "°", "°");
  } else if (RUN.method === "power" && next.pair === frames[index].pair) {
    const v = next.vector.map(num);
    if (parts.length !== v.length) { out.textContent = "Please type " + v.length + " numbers."; out.className = "bad"; return; }
    const norm = Math.hypot(...parts), dot = parts.reduce((s, x, j) => s + x * v[j], 0);
    if (Math.abs(norm - 1) > 5e-4) {  // what the question asks: A·v divided by its length, not A·v
      out.className = "bad";
      out.textContent = "Not normalised: your vector has length " + fmt(norm, 6) + "; the next vector is A·v / ‖A·v‖, of length 1.";
      out.dataset.difference = String(Math.abs(norm - 1));
      return;
    }
    const sign = dot < 0 ? -1 : 1;
    diff = Math.max(...parts.map((x, j) => Math.abs(sign * x - v[j])));
    verdict(diff, 1, "v = (" + v.map(x => fmt(x, 8)).join(", ") + ")", "");
  } else if (RUN.method === "subspace") {
    truth = num(frames[index].residuals[0]); diff = Math.abs(parts[0] - truth); scale = Math.max(Math.abs(truth), 1e-300);
    verdict(diff, scale, "‖A·x₁ − θ₁·x₁‖ = " + fmt(truth, 10), "");
  } else if (RUN.method === "tridiagonal") {
    const ql = qlAhead(index);
    if (ql === null) return;
    truth = num(frames[ql].shift); diff = Math.abs(parts[0] - truth);
    scale = Math.max(Math.abs(truth), 1e-300);
    verdict(diff, scale, "σ = " + fmt(truth, 10), "");
  }
}
function verdict(diff, scale, truthText, unit) {
  const out = document.getElementById("verdict"), rel = diff / scale;
  const digits = rel === 0 ? 16 : Math.max(0, Math.floor(-Math.log10(rel)));
  if (rel <= 5e-4) {
    out.className = "good";
    out.textContent = "Matches: " + digits + " significant digits agree (off by " + fmt(diff, 3) + unit +
                      "); the solver has " + truthText + ".";
  } else {
    out.className = "bad";
    out.textContent = "Does not match: off by " + fmt(diff, 3) + unit + " (" + fmt(100 * rel, 3) +
                      "%); the solver has " + truthText + ".";
  }
  out.dataset.difference = String(diff);
}

// ------------------------------------------------------------ the tables
function table(parent, heads, rows, id) {
  const t = document.createElement("table"); if (id) t.id = id;
  const h = document.createElement("tr");
  for (const x of heads) { const th = document.createElement("th"); th.textContent = x; h.appendChild(th); }
  t.appendChild(h);
  for (const r of rows) {
    const tr = document.createElement("tr");
    for (const x of r) { const td = document.createElement("td"); td.textContent = x; tr.appendChild(td); }
    t.appendChild(tr);
  }
  parent.appendChild(t);
}
function drawConvergence() {
  const s = document.getElementById("convergence");
  clear(s);
  if (RUN.method === "power" && RUN.stopped) {  // |λ₁| = |λ₂|: the page says it, with the ratio and the oscillation
    s.style.display = "";
    const h = document.createElement("h2"); h.textContent = "Power iteration does not converge on this matrix";
    const w = document.createElement("p"); w.id = "stopped"; w.className = "bad";
    const pair = frames[frames.length - 1].pair, ratio = RUN.ratios[pair - 1];
    w.textContent = "Eigenpair " + pair + ": |λ_" + (pair + 1) + "/λ_" + pair + "| = " + fmt(ratio, 6) +
      (Math.abs(ratio - 1) < 1e-12 ? " (ratio 1: two eigenvalues of equal magnitude, such as 1 and −1)" : "") +
      ", so A·v keeps both eigenvectors' parts in the same proportion and v oscillates between two directions " +
      "instead of turning towards one; the residual does not fall. The first " + frames.filter(f => f.pair === pair).length +
      " iterations are shown. The solver said: " + RUN.stopped;
    s.append(h, w);
    return;
  }
  if (!RUN.convergence) { s.style.display = "none"; return; }
  s.style.display = "";
  const h = document.createElement("h2"), p = document.createElement("p");
  p.className = "faint";
  // a digit count past the run's precision is below the rounding of ‖A‖: shown as "P+", not as 21.42 beside
  // "Precision: 16 digits"; what it gained is then shown only while both counts are within the precision
  const P = RUN.digits, past = x => x !== null && x !== undefined && x > P;
  const f2 = x => x === null || x === undefined ? "exact 0" : past(x) ? P + "+" : x.toFixed(2);
  const g2 = (r, x) => x === null || past(r.digits) ? "" : x.toFixed(2);
  if (RUN.method === "jacobi") {
    h.textContent = "Convergence of this run, sweep by sweep (" + PIVOT_NAMES[RUN.pivot] + ")";
    p.textContent = "digits: −log10(off(A)/‖A‖_F). Jacobi converges quadratically per sweep (Schönhage 1961, " +
      "van Kempen 1966): once off(A) is small against the gaps between eigenvalues the digits about double each sweep, " +
      "until the precision (" + RUN.digits + " digits) is reached.";
    s.append(h, p);
    table(s, ["sweep", "off(A)", "digits", "gained"], RUN.convergence.map(r => [r.sweep, fmt(r.off, 4), f2(r.digits),
          g2(r, r.gained)]), "convergence-table");
  } else if (RUN.method === "tridiagonal") {
    h.textContent = "Convergence of this run, QL iteration by iteration (" + SHIFT_NAMES[RUN.ql_shift] + ")";
    p.textContent = "digits: −log10(|e_l|/‖A‖_F); order: digits now / digits at the previous iteration on the same l " +
      "(3: cubic, Wilkinson's shift and, where it converges, Rayleigh's; 1: linear, no shift, by the ratio of " +
      "neighbouring eigenvalues). Precision: " + RUN.digits + " digits.";
    s.append(h, p);
    if (RUN.stopped) {
      const w = document.createElement("p"); w.id = "stopped"; w.className = "bad";
      w.textContent = "This run was stopped before it converged: " + RUN.stopped + ".";
      s.appendChild(w);
    }
    table(s, ["iteration", "l", "|e_l|", "digits", "gained", "order", ""], RUN.convergence.map(r => [r.iteration, r.index + 1,
          fmt(r.subdiagonal, 4), f2(r.digits), g2(r, r.gained), g2(r, r.order), r.deflated ? "deflated" : ""]),
          "convergence-table");
  } else s.style.display = "none";
}
function codeMark(f) {
  const m = RUN.method;
  if (m === "jacobi") {
    if (f.kind !== "rotation") return [RUN.pivot === "classical" ? "search" : "threshold"];
    return f.skipped.length ? ["rotation", "skip"] : ["rotation", "c"];
  }
  if (m === "tridiagonal") {
    if (f.kind === "householder" || f.kind === "start") return ["reflect", "update"];
    if (f.kind === "tridiagonal") return ["update"];
    if (f.kind === "chase") return ["rotation", "bulge"];
    return [f.deflated ? "deflate" : "chase", RUN.ql_shift === "wilkinson" ? "shift" : "other shift", "rotation"];
  }
  if (m === "power") return f.iteration === 1 ? ["rayleigh", "start"] : ["rayleigh", "residual"];
  return ["ritz", "residual"];
}
function drawCode(i) {
  const s = document.getElementById("code"), code = RUN.code;
  clear(s);
  if (!code || !code.blocks.length) { s.style.display = "none"; return; }
  s.style.display = "";
  const h = document.createElement("h2");
  h.textContent = "The code of this step (purepca's reference solver, as it ran)";
  s.appendChild(h);
  const notation = NOTATION_NOTES[RUN.method];
  if (notation) { const p = document.createElement("p"); p.className = "notation"; p.id = "notation"; p.textContent = notation; s.appendChild(p); }
  const marks = codeMark(frames[i]), lit = {};
  marks.forEach((key, n) => { const at = code.marks[key]; if (at) lit[at[0] + ":" + at[1]] = n === 0 ? "hl" : "hl2"; });
  code.blocks.forEach((b, bi) => {
    if (!Object.keys(lit).some(key => key.startsWith(bi + ":"))) return;  // only the functions this step runs
    const cap = document.createElement("p"); cap.className = "faint";
    cap.textContent = b.file + ", " + b.name + " (line " + b.first + ")";
    const pre = document.createElement("pre"); pre.className = "source"; pre.dataset.name = b.name;
    b.lines.forEach((text, li) => {
      const line = document.createElement("span"); line.className = "line";
      const cls = lit[bi + ":" + li]; if (cls) line.classList.add(cls);
      line.dataset.line = String(b.first + li);
      const no = document.createElement("span"); no.className = "no"; no.textContent = String(b.first + li);
      line.append(no, document.createTextNode(text));
      pre.appendChild(line);
    });
    s.append(cap, pre);
    const hl = pre.querySelector(".hl") || pre.querySelector(".hl2");
    if (hl) pre.scrollTop = Math.max(0, hl.offsetTop - pre.offsetTop - 60);
  });
}
// The code's names against the page's, and the identity between the two forms of one formula, said once.
const NOTATION_NOTES = {
  jacobi: "Names: the code's theta is cot 2θ = (a_qq − a_pp)/(2·a_pq), not the page's angle θ; t = tan θ is the smaller " +
    "root of t² + 2·theta·t − 1 = 0, t = sign(theta)/(|theta| + √(theta² + 1)); c = 1/√(t² + 1), s = t·c. " +
    "The update: _rotate_pair writes J's c·a − s·b and s·a + c·b in Rutishauser's form a − s·(b + τ·a) and " +
    "b + s·(a − τ·b) with τ = s/(1 + c) = tan(θ/2): the same numbers in exact arithmetic (c = 1 − s·τ), fewer roundings. " +
    "The diagonal is updated as a_pp − t·a_pq and a_qq + t·a_pq.",
  tridiagonal: "Names: the page's σ is the code's h (the shift), d and e are T's diagonal and subdiagonal (e[l] = T[l+1][l]); " +
    "the code's reflector v, beta and alpha are the page's v, β and e_k, with ‖x‖ = |alpha|.",
  power: "Names: the code's lam is the page's Rayleigh quotient, r its residual, w = A·v (deflated from the second pair on).",
  subspace: "Names: the code's theta[i] is the page's Ritz value θ_i, X[i] the Ritz vector x_i, Q the orthonormal block."
};
function drawJ(i) {
  const box = document.getElementById("jacobi-matrix"), f = frames[i];
  clear(box);
  if (RUN.method !== "jacobi" || f.kind !== "rotation") return;
  const p = document.createElement("p"); p.className = "faint";
  p.textContent = "The rotation J (identity but for rows and columns p, q): A ← JᵀAJ";
  const rows = [];
  for (let r = 0; r < RUN.n; r++) {
    const cells = [];
    for (let c = 0; c < RUN.n; c++) {
      let x = r === c ? "1" : "0";
      if ((r === f.p && c === f.p) || (r === f.q && c === f.q)) x = fmt(f.c);
      else if (r === f.p && c === f.q) x = fmt(f.s);
      else if (r === f.q && c === f.p) x = fmt(typeof f.s === "string" ? (f.s[0] === "-" ? f.s.slice(1) : "-" + f.s) : -f.s);
      cells.push(x);
    }
    rows.push(cells);
  }
  box.appendChild(p);
  table(box, [...Array(RUN.n).keys()].map(k => String(k + 1)), rows, "rotation-matrix");
}
function drawFactors(i) {  // QL: the factors the iteration formed implicitly, T − σI = QL, next T = LQ + σI
  const box = document.getElementById("ql-factors"), f = frames[i];
  clear(box);
  if (f.kind !== "ql") return;
  const p = document.createElement("p"); p.className = "faint";
  p.textContent = "T − σI = QL: Q is the product of this iteration's rotations, L = Qᵀ(T − σI) is lower triangular; " +
    "the new T is LQ + σI (QL iteration, the mirror of Heath's QR: it deflates at the top).";
  box.appendChild(p);
  const heads = [...Array(RUN.n).keys()].map(k => String(k + 1));
  const q = document.createElement("p"); q.textContent = "Q"; box.appendChild(q);
  table(box, heads, f.Q.map(r => r.map(x => fmt(x))), "ql-q");
  const l = document.createElement("p"); l.textContent = "L"; box.appendChild(l);
  table(box, heads, f.L.map(r => r.map(x => fmt(x))), "ql-l");
}
function drawSkips(i) {
  const box = document.getElementById("skips"), f = frames[i];
  box.textContent = RUN.method === "jacobi" && RUN.pivot === "threshold" ?
    "Why a pair is skipped: in sweeps 1 to 3 a pair whose |a_pq| is at most the sweep's threshold, 0.2/n² times the sum " +
    "of the |a_pq| above the diagonal at the start of the sweep (Rutishauser, Handbook for Automatic Computation II/1, " +
    "1971), is passed over, so that the rotations go to the large entries first; it is not converged, and a later sweep " +
    "rotates it. From sweep 4 on the threshold is 0 and every pair that fails the test |a_pq| ≤ eps·√|a_pp·a_qq| is rotated." : "";
}
function drawTables() {
  if (REPLAY && MAIN.method === "jacobi") {
    const s = document.getElementById("replay");
    const h = document.createElement("h2");
    h.textContent = "Replay in floats (binary64), at " + REPLAY.digits + " digits and in binary32, sweep by sweep";
    s.appendChild(h);
    const p = document.createElement("p"); p.className = "faint";
    p.textContent = "digits: −log10(off(A)/‖A‖), how diagonal the matrix is. Once off(A) is small the digits " +
      "about double per sweep (quadratic convergence) until the precision runs out: binary32 (single precision, " +
      "what MicroPython's single-precision ports and float32 libraries compute in) stops near 7 digits, floats " +
      "(binary64) near 16, where their diagonals also stop agreeing with the " + REPLAY.digits + "-digit eigenvalues.";
    s.appendChild(p);
    const f2 = x => x === undefined ? "" : x === null ? "exact" : x.toFixed(1);
    const has32 = REPLAY.sweeps.some(r => r.binary32_off !== undefined);
    table(s, ["sweep", "off(A) float", "digits", "gained", "off(A) " + REPLAY.digits + " digits", "digits", "gained",
              "eigenvalue digits (float)"].concat(has32 ? ["off(A) binary32", "digits", "gained",
              "eigenvalue digits (binary32)"] : []),
          REPLAY.sweeps.map(r => [r.sweep, r.float_off === undefined ? "(done)" : fmt(r.float_off, 4), f2(r.float_digits),
                                   f2(r.float_gain), r.exact_off === undefined ? "(done)" : fmt(r.exact_off, 4),
                                   f2(r.exact_digits), f2(r.exact_gain), f2(r.float_value_digits)].concat(has32 ?
                                  [r.binary32_off === undefined ? "(done)" : fmt(r.binary32_off, 4), f2(r.binary32_digits),
                                   f2(r.binary32_gain), f2(r.binary32_value_digits)] : [])), "replay-table");
  } else document.getElementById("replay").style.display = "none";
  if (RUN.naive) {
    const s = document.getElementById("naive"), nv = RUN.naive;
    const h = document.createElement("h2");
    h.textContent = "The covariance: textbook one pass (Σxy − n·x̄·ȳ) against purepca's two passes";
    s.appendChild(h);
    const p = document.createElement("p"); p.className = "faint";
    p.textContent = "The data's means are near " + fmt(nv.offset, 3) + (RUN.shift ? " (shifted by " + fmt(RUN.shift, 3) + ")" : "") +
      ". digits: how many significant digits agree with the exact covariance of these floats (computed with fractions).";
    s.appendChild(p);
    table(s, ["entry", "naive", "digits", "purepca", "digits", "exact"],
          nv.entries.map(e => ["(" + (e.i + 1) + ", " + (e.j + 1) + ")", fmt(e.naive, 8), e.naive_digits.toFixed(1),
                               fmt(e.purepca, 8), e.purepca_digits.toFixed(1), fmt(e.exact, 12)]), "naive-table");
  } else document.getElementById("naive").style.display = "none";
}

// ------------------------------------------------------------ stepping
function show(i) {
  index = Math.max(0, Math.min(frames.length - 1, i));
  slider.value = index;
  document.getElementById("counter").textContent = "step " + index + " of " + (frames.length - 1);
  drawMatrix(index); drawNumbers(index); drawPlot(index); drawCloud(index); checkWhat(index);
  drawJ(index); drawSkips(index); drawCode(index); drawFactors(index);
  document.body.dataset.frame = String(index);
  // inside a notebook's iframe: tell the notebook the page's height, so that the frame fits it
  if (window.parent !== window) window.parent.postMessage({purepcaPlayer: PAGE_ID, height: document.documentElement.scrollHeight}, "*");
}
function play() {
  const b = document.getElementById("play");
  if (timer) { clearInterval(timer); timer = null; b.textContent = "\u25B6 play"; return; }
  if (index >= frames.length - 1) show(0);
  b.textContent = "\u23F8 pause";
  timer = setInterval(() => { if (index >= frames.length - 1) play(); else show(index + 1); },
                      Number(document.getElementById("speed").value));
}
document.getElementById("next").onclick = () => show(index + 1);
document.getElementById("prev").onclick = () => show(index - 1);
document.getElementById("first").onclick = () => show(0);
document.getElementById("last").onclick = () => show(frames.length - 1);
document.getElementById("play").onclick = play;
document.getElementById("speed").onchange = () => { if (timer) { play(); play(); } };  // restart at the new speed
document.getElementById("check-button").onclick = check;
document.getElementById("guess").addEventListener("keydown", e => { if (e.key === "Enter") check(); });
slider.oninput = () => show(Number(slider.value));
document.addEventListener("keydown", e => {
  if (e.target.tagName === "INPUT" && e.target.type !== "range") return;
  if (e.key === "ArrowRight") show(index + 1); else if (e.key === "ArrowLeft") show(index - 1);
});
const PIVOT_NAMES = {threshold: "threshold cyclic, as purepca runs it", cyclic: "plain cyclic", classical: "classical: the largest pivot"};
const SHIFT_NAMES = {wilkinson: "Wilkinson's shift", rayleigh: "Rayleigh's shift d_l", none: "no shift"};
const about = {
  jacobi: "Jacobi's method on a " + RUN.n + " × " + RUN.n + " symmetric matrix" + (RUN.digits > 16 ? " at " + RUN.digits + " digits" : " in " + (RUN.precision || "floats")) +
    ": each rotation in a plane (p, q) sets a_pq to zero (green); the next one to be zeroed is orange. A sweep goes through the pairs row by row; " +
    "in sweeps 1 to 3 a pair at or below the sweep's threshold is skipped (see below). The coloured axes are the rows of V, the rotations so far.",
  power: RUN.inverse ? "Inverse iteration on a " + RUN.n + " × " + RUN.n + " positive definite matrix: v ← A⁻¹v/‖A⁻¹v‖ " +
    "(each step solves A·w = v with A's Cholesky factor), power iteration on A⁻¹: it finds the smallest eigenvalue. The red arrow is v, " +
    "the dashed grey line the eigenvector it turns towards; the residual ‖A⁻¹v − μv‖ falls like |λ_min/λ_next|^k (dashed purple)." :
    "Power iteration on a " + RUN.n + " × " + RUN.n + " matrix: v ← A·v/‖A·v‖. The red arrow is v (its first two entries), the dashed grey line the eigenvector it turns towards; the residual falls like |λ₂/λ₁|^k (dashed purple).",
  subspace: "Subspace iteration on a " + RUN.n + " × " + RUN.n + " matrix with a block of " + RUN.block_size + " vectors: Q ← orthonormalised A·Q, then Rayleigh–Ritz (the small problem QᵀAQ solved by Jacobi). The coloured arrows are the Ritz vectors (their first two entries), the dashed grey lines the eigenvectors they turn towards.",
  tridiagonal: "Householder reflections reduce the matrix to tridiagonal form T (the matrix panel shows it being reduced, then T); " +
    "each implicit QL iteration picks a shift σ, chases a bulge up T with plane rotations (pink: where it passed) and drives the subdiagonal " +
    "entry e_l (orange) towards zero; once it is below its tolerance d_l is an eigenvalue (green) and the iteration deflates to l + 1."
};
function choose(run) {  // show another of the runs the page carries: the same matrix, another pivot order or shift
  RUN = Object.assign({}, run, {data: MAIN.data, naive: MAIN.naive, shift: MAIN.shift, title: MAIN.title});
  frames = RUN.frames; slider.max = frames.length - 1;
  if (timer) play();
  drawConvergence(); drawRunReplay(); show(0);
}
// The run shown, replayed against the long run's eigenvalues: the digits its estimates reach in its precision.
function drawRunReplay() {
  const s = document.getElementById("run-replay");
  clear(s);
  if (!RUN.replay_run) { s.style.display = "none"; return; }
  s.style.display = "";
  const h = document.createElement("h2");
  h.textContent = "Replay of this run in " + RUN.precision + ": its eigenvalue estimates against the " + RUN.replay_digits +
    "-digit eigenvalues";
  const p = document.createElement("p"); p.className = "faint";
  p.textContent = "digits: −log10 of the largest relative error of the estimates (" + {jacobi: "the diagonal at the end of each sweep",
    tridiagonal: "T's diagonal after each QL iteration", power: "the Rayleigh quotient", subspace: "the Ritz values"}[RUN.method] +
    "), against the eigenvalues computed at " + RUN.replay_digits + " digits. They stop near the precision of the run: about 7 in " +
    "binary32, 16 in binary64, N at N digits. Choose the precision above.";
  const box = document.createElement("div"); box.className = "scroll";
  s.append(h, p, box);
  table(box, ["step", "frame", "eigenvalue digits"], RUN.replay_run.map(r => [r.step, r.frame, r.digits.toFixed(2)]), "run-replay-table");
}
if (MAIN.precisions) {  // the precision control: the same matrix stepped in binary32, binary64 and N digits
  const box = document.getElementById("choices"), l = document.createElement("label"), sel = document.createElement("select");
  sel.id = "precision"; l.textContent = "precision: ";
  const labels = ["binary32", "binary64"].concat(Object.keys(MAIN.precisions).concat([MAIN.precision]).filter(x => /digits/.test(x)));
  for (const name of labels) {
    if (name !== MAIN.precision && !MAIN.precisions[name]) continue;
    const o = document.createElement("option"); o.value = name; o.textContent = name; sel.appendChild(o);
  }
  sel.value = MAIN.precision;
  sel.onchange = () => choose(sel.value === MAIN.precision ? MAIN : MAIN.precisions[sel.value]);
  l.appendChild(sel); box.appendChild(l);
}
function addChoice(label, id, names, own) {
  const box = document.getElementById("choices"), l = document.createElement("label"), sel = document.createElement("select");
  sel.id = id; l.textContent = label + " ";
  for (const name in names) {
    if (name !== own && !(MAIN.choices && MAIN.choices[name])) continue;
    const o = document.createElement("option"); o.value = name; o.textContent = names[name]; sel.appendChild(o);
  }
  sel.value = own;
  sel.onchange = () => choose(sel.value === own ? MAIN : MAIN.choices[sel.value]);
  l.appendChild(sel); box.appendChild(l);
  const note = document.createElement("span"); note.className = "faint";
  note.textContent = "(each choice is a run purepca computed when this page was written)";
  box.appendChild(note);
}
if (MAIN.method === "jacobi" && MAIN.choices) addChoice("pivot order:", "pivot", PIVOT_NAMES, MAIN.pivot);
if (MAIN.method === "tridiagonal" && MAIN.choices) addChoice("QL shift:", "ql-shift", SHIFT_NAMES, MAIN.ql_shift);
document.getElementById("about").textContent = about[RUN.method];
if (RUN.method !== "jacobi") document.getElementById("matrix-title").textContent = RUN.method === "tridiagonal" ?
  "The matrix: A as the reflections reduce it, then T after each QL iteration" : "The matrix A";
if (RUN.method === "power") document.getElementById("plot-title").textContent = RUN.inverse ?
  "residual ‖A⁻¹v − μv‖, log scale" : "residual ‖Av − λv‖, log scale";
if (RUN.method === "subspace") document.getElementById("plot-title").textContent = "largest residual ‖Ax − θx‖, log scale";
if (RUN.method === "tridiagonal") document.getElementById("plot-title").textContent = "|e_l| after each QL iteration, log scale";
if (RUN.method === "jacobi") document.getElementById("legend").innerHTML =
  '<span class="swatch" style="background:#ffb000"></span>next to be zeroed<span class="swatch" style="background:#2ca02c"></span>just zeroed';
// ------------------------------------------------------------ the number format
(function () {
  const digits = document.getElementById("format-digits"), notation = document.getElementById("format-notation");
  const choices = [6, 10, 17];
  const longest = Math.max(RUN.digits, ...Object.values(MAIN.precisions || {}).map(r => r.digits));
  if (longest > 17) choices.push(longest);
  for (const d of choices) {
    const o = document.createElement("option"); o.value = String(d);
    o.textContent = d > 17 ? d + " (the run's)" : String(d); digits.appendChild(o);
  }
  digits.onchange = () => { SHOW = Number(digits.value); show(index); };
  notation.onchange = () => { NOTATION = notation.value; show(index); };
})();
drawTables();
drawConvergence();
drawRunReplay();
show(0);
