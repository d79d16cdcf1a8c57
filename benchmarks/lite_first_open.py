"""How long a learner waits, and how much the browser downloads, the first time a lesson runs
in the browser edition.

    python -m scripts.site build                  # the site; the browser edition in _site/lite/
    python benchmarks/lite_first_open.py          # lesson 01 in English, 5 cold opens
    python benchmarks/lite_first_open.py --language zh-CN --runs 5

Each run is a first visit: a fresh Chromium profile (empty cache, no saved work), the lesson's
page on the website served from 127.0.0.1 (every other address blocked, as in the browser
tests), then a click on "Run this lesson in your browser". From that click it measures

* the seconds until the lesson is runnable: its notebook shown and its kernel idle;
* the bytes the browser downloaded for it, counted by the server file by file as
  ``python -m scripts.site serve`` sends them: text and WebAssembly gzipped, as a host that
  compresses (GitHub Pages) sends them, wheels and zip files as they are; and the same files'
  own size, uncompressed;
* where the time went: when the lesson was shown, when the Pyodide runtime had arrived, when
  the last wheel had arrived, and when the kernel was idle.

It prints each figure as the median of the runs with the lowest and highest beside it, and the
figures README.md and ``docs/benchmarks.md`` state, so they can be compared. Exit status 0 whatever
it measures: it is a measurement, not a test. It needs Debian's Chromium (``apt-get install
chromium``, or ``AGENTCORE_CHROMIUM``) and Playwright (the dev extra).
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import os
import platform
import statistics
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "browser")]

from offline import Guarded  # noqa: E402  (tests/browser/offline.py)

from scripts import site  # noqa: E402

CHROMIUM = Path(os.environ.get("AGENTCORE_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]  # fmt: skip
STATED = ROOT / "docs" / "benchmarks.md"
README = ROOT / "README.md"
KERNEL_IDLE = """() => {
  const panel = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  const kernel = panel && panel.sessionContext && panel.sessionContext.session
    && panel.sessionContext.session.kernel;
  return Boolean(kernel) && kernel.status === 'idle';
}"""
LESSON_SHOWN = """(path) => {
  const panel = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  return Boolean(panel && panel.context && panel.context.path === path
    && panel.node.querySelector('.jp-Notebook .jp-Cell'));
}"""


@dataclass
class Served:
    """What the server sent: (seconds since ``start``, path, bytes) per file."""

    start: float = 0.0
    files: list[tuple[float, str, int]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def reset(self) -> None:
        with self.lock:
            self.start, self.files = time.monotonic(), []


def _handler(served: Served) -> type[http.server.SimpleHTTPRequestHandler]:
    class Counting(site._Handler):
        def copyfile(self, source: Any, outputfile: Any) -> None:
            before = source.tell()
            super().copyfile(source, outputfile)
            sent = source.tell() - before
            with served.lock:
                served.files.append((time.monotonic() - served.start, self.path, sent))

    return Counting


def _kind(path: str) -> str:
    path = path.split("?", 1)[0]
    if path.endswith(".whl"):
        return "wheels"
    if "/static/pyodide/" in path:
        return "Pyodide runtime"
    if path.endswith((".woff2", ".woff")) or "/fonts/" in path:
        return "fonts"
    if path.endswith((".js", ".mjs", ".css")):
        return "JupyterLab scripts and styles"
    return "other (settings, the lesson, indexes)"


def _size_on_disk(out: Path, path: str) -> int:
    file = out / unquote(path.split("?", 1)[0]).lstrip("/")
    return file.stat().st_size if file.is_file() else 0


def one_open(browser: Any, base: str, language: str, lesson: str, served: Served,
             out: Path) -> dict[str, Any]:  # fmt: skip
    """One cold open from the lesson page's link; its times (s) and bytes."""
    guarded = Guarded(browser)
    try:
        page = guarded.context.new_page()
        folder = "" if language == "en" else "zh-CN/"
        page.goto(f"{base}/{folder}notebooks/{language}/{lesson}.html")
        link = page.locator("#run-in-browser")
        path = f"notebooks/{language}/{lesson}.ipynb"
        served.reset()
        link.click()
        page.wait_for_function(LESSON_SHOWN, arg=path, timeout=600_000)
        shown = time.monotonic() - served.start
        page.wait_for_function(KERNEL_IDLE, timeout=600_000, polling=100)
        idle = time.monotonic() - served.start
        guarded.assert_no_leaks()
    finally:
        guarded.context.close()
    with served.lock:
        files = [f for f in served.files if f[0] <= idle]
    by_kind: dict[str, int] = {}
    for _, name, size in files:
        by_kind[_kind(name)] = by_kind.get(_kind(name), 0) + size
    runtime = [t for t, name, _ in files if _kind(name) == "Pyodide runtime"]
    wheels = [t for t, name, _ in files if name.endswith(".whl")]
    return {
        "shown_s": shown, "runtime_s": max(runtime, default=0.0),
        "wheels_s": max(wheels, default=0.0), "idle_s": idle,
        "bytes": sum(size for _, _, size in files),
        "raw_bytes": sum(_size_on_disk(out, name) for _, name, _ in files),
        "by_kind": by_kind, "files": [(round(t, 2), name, size) for t, name, size in files],
        "wheel_files": sorted(n.rsplit("/", 1)[-1] for _, n, _ in files if n.endswith(".whl")),
    }  # fmt: skip


def _stated(page: Path) -> str:
    """What ``page`` (README.md, docs/benchmarks.md) states: from ``First open:`` to the end of
    its paragraph."""
    for paragraph in page.read_text(encoding="utf-8").split("\n\n"):
        if "First open:" in paragraph:
            return " ".join(paragraph[paragraph.index("First open:") :].split())
    return f"({page.name} states no figure)"


def _spread(values: list[float], unit: str, scale: float = 1.0) -> str:
    values = [v / scale for v in values]
    return (f"{statistics.median(values):.1f} {unit} "
            f"(lowest {min(values):.1f}, highest {max(values):.1f})")  # fmt: skip


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, default=site.SITE, help="the built site (_site)")
    parser.add_argument("--language", choices=["en", "zh-CN"], default="en")
    parser.add_argument("--lesson", default="01-the-loop")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--json", type=Path, help="also write every run's figures here")
    args = parser.parse_args(argv)
    if not (args.site / "lite" / "lab" / "index.html").is_file():
        print(f"error: no browser edition in {args.site}: python -m scripts.site build",
              file=sys.stderr)  # fmt: skip
        return 1
    from playwright.sync_api import sync_playwright

    os.environ.setdefault("PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS", "1")
    served = Served()
    httpd = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_handler(served), directory=str(args.site))
    )
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{httpd.server_address[1]}"
    runs = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
            )
            for number in range(1, args.runs + 1):
                run = one_open(browser, base, args.language, args.lesson, served, args.site)
                runs.append(run)
                print(f"run {number}: shown {run['shown_s']:.1f} s, runtime in "
                      f"{run['runtime_s']:.1f} s, wheels in {run['wheels_s']:.1f} s, kernel idle "
                      f"{run['idle_s']:.1f} s; {run['bytes'] / 1e6:.1f} MB downloaded "
                      f"({run['raw_bytes'] / 1e6:.1f} MB uncompressed)", flush=True)  # fmt: skip
            browser.close()
    finally:
        httpd.shutdown()
        httpd.server_close()
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    print(f"\nlesson {args.lesson} ({args.language}), {len(runs)} cold opens, "
          f"{time.strftime('%Y-%m-%d')}, {platform.machine()} with {os.cpu_count()} cores"
          + (f", load average {load[0]:.1f} at the end" if load else ""))  # fmt: skip
    print(f"  kernel idle after the click: {_spread([r['idle_s'] for r in runs], 's')}")
    print(f"    lesson shown:              {_spread([r['shown_s'] for r in runs], 's')}")
    print(f"    Pyodide runtime arrived:   {_spread([r['runtime_s'] for r in runs], 's')}")
    print(f"    last wheel arrived:        {_spread([r['wheels_s'] for r in runs], 's')}")
    print(f"  downloaded:                  {_spread([r['bytes'] for r in runs], 'MB', 1e6)}")
    print(f"    uncompressed:              {_spread([r['raw_bytes'] for r in runs], 'MB', 1e6)}")
    first = runs[0]
    for kind, size in sorted(first["by_kind"].items(), key=lambda item: -item[1]):
        print(f"    {kind}: {size / 1e6:.1f} MB")
    print(f"  wheels: {', '.join(first['wheel_files'])}")
    print(f"README.md says: {_stated(README)}")
    print(f"docs/benchmarks.md says: {_stated(STATED)}")
    if args.json:
        args.json.write_text(json.dumps(runs, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
