// Run lessons' code cells in Pyodide under Node, as the JupyterLite kernel would, and report.
//   node tests/pyodide/run_cells.mjs <lite site folder> <notebook.ipynb>...
// Pyodide and every wheel come from the built site (its runtime and its pyodide-lock.json), and
// the packages the kernel preloads are loaded first;
// each cell runs in one IPython shell per notebook (in Pyodide's own file system), after the
// packages its imports name are loaded from the lock (the kernel does the same). A cell tagged
// "needs-installed-course" is not run (the browser edition skips it). One JSON line per
// notebook: {"notebook", "cells", "skipped", "failures": [{"cell", "error"}]}.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [lite, ...notebooks] = process.argv.slice(2);
const site = path.resolve(lite);
const { loadPyodide } = await import(pathToFileURL(path.join(site, "static/pyodide/pyodide.mjs")).href);
// the packages the site's kernel preloads (jupyter-lite.json's loadPyodideOptions.packages)
const settings = JSON.parse(fs.readFileSync(path.join(site, "jupyter-lite.json"), "utf8"))[
  "jupyter-config-data"].litePluginSettings["@jupyterlite/pyodide-kernel-extension:kernel"];
const preloaded = settings.loadPyodideOptions.packages.filter(
  (name) => !["piplite", "pyodide-kernel", "ipykernel"].includes(name));  // need the browser
const pyodide = await loadPyodide({
  indexURL: path.join(site, "static/pyodide") + "/",
  lockFileURL: path.join(site, "static/pyodide-lock/pyodide-lock.json"),
  packages: preloaded,
  stdout: () => {},
  stderr: () => {},
});
for (const notebook of notebooks) {
  const cells = JSON.parse(fs.readFileSync(notebook, "utf8")).cells
    .filter((cell) => cell.cell_type === "code")
    .map((cell) => [[].concat(cell.source).join(""), (cell.metadata.tags || []).join(",")]);
  pyodide.globals.set("cells", pyodide.toPy(cells));
  const report = await pyodide.runPythonAsync(`
import contextlib, io, json
from IPython.core.interactiveshell import InteractiveShell
from pyodide_js import loadPackagesFromImports

InteractiveShell.clear_instance()
shell = InteractiveShell.instance()
failures, skipped = [], 0
for number, (source, tags) in enumerate(cells):
    if "needs-installed-course" in tags.split(","):
        skipped += 1
        continue
    await loadPackagesFromImports(source)
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        result = shell.run_cell(source, store_history=False)
    error = result.error_before_exec or result.error_in_exec
    if error is not None:
        failures.append({"cell": number, "error": f"{type(error).__name__}: {error}"[:300]})
json.dumps({"cells": len(cells), "skipped": skipped, "failures": failures})
`);
  console.log(JSON.stringify({ notebook, ...JSON.parse(report) }));
}
