"use strict";
// The playground: purepca's wheel (wheels/purepca.whl, made by prepare.py) unpacked into Pyodide
// (node_modules/pyodide, from npm), both served from this directory; nothing else is fetched.
let pyodide = null;
const status = document.getElementById("status");

function fail(err) {
  status.className = "error";
  status.textContent = String(err && err.message ? err.message : err);
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
  document.body.dataset.ready = "yes";
}

const RUN = `
import json
from purepca import PCA
from purepca.csvdata import read_table
from purepca.player import teach
table = read_table(csv_text.splitlines(), source="the data")
rows = [[x + shift for x in row] for row in table.rows]
pca = PCA().fit(rows)
page = teach(method, data=rows, replay_digits=50)
json.dumps({"names": table.names, "variance": [repr(x) for x in pca.explained_variance_],
            "components": [[repr(x) for x in row] for row in pca.components_], "page": page})
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
    const out = JSON.parse(pyodide.runPython(RUN));
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
    const ms = Math.round(performance.now() - t0);
    status.textContent = "fitted and traced in " + ms + " ms";
    document.body.dataset.runMs = String(ms);
    document.body.dataset.done = "yes";
  } catch (err) {
    fail(err);
  }
}

document.getElementById("run").onclick = run;
start().catch(fail);
