// Run a Python file on MicroPython's WebAssembly port (npm: @micropython/micropython-webassembly-pyscript).
// usage: node run.mjs BUNDLE_DIR SCRIPT.py [HEAP_BYTES]
// BUNDLE_DIR (purepca's MicroPython bundle, `python -m purepca.micro build`, and any
// data files the script reads) is copied into the port's in-memory file system under
// /lib (on sys.path); the script runs as __main__ (see "# ---- step" below).  Exit status 1 on an uncaught exception.
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";
import fs from "fs";
import path from "path";

const [bundle, script, heap] = process.argv.slice(2);
const mp = await loadMicroPython({
  heapsize: heap ? parseInt(heap, 10) : 64 * 1024 * 1024,
  stdout: (line) => process.stdout.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});

function copy(src, dst) {
  for (const name of fs.readdirSync(src)) {
    const from = path.join(src, name);
    const to = dst + "/" + name;
    if (fs.statSync(from).isDirectory()) {
      if (name === "node_modules" || name === "__pycache__") continue;
      try { mp.FS.mkdir(to); } catch (e) { /* exists */ }
      copy(from, to);
    } else {
      mp.FS.writeFile(to, fs.readFileSync(from));
    }
  }
}
try { mp.FS.mkdir("/lib"); } catch (e) { /* exists */ }
copy(bundle, "/lib");
try {
  // A line "# ---- step" splits the script into separate runPython calls (one
  // __main__): the port's garbage collector frees a call's garbage only once
  // the call has returned, so memory is measured across steps.
  for (const step of fs.readFileSync(script, "utf8").split(/^# ---- step.*$/m)) {
    mp.runPython(step);
  }
} catch (err) {
  process.stderr.write(String(err && err.message ? err.message : err) + "\n");
  process.exit(1);
}
