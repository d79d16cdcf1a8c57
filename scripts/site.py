"""The course on the web: the lesson website and its JupyterLite edition, built and served.

    python -m scripts.site build [--out _site] [--pages-only]   # website, then _site/lite/
    python -m scripts.site serve [--out _site] [--port 8000]    # http://127.0.0.1:8000/

``build`` stages the learner material (``scripts.site_pages``), builds the website with Sphinx
and myst-nb from the stored outputs (English at ``<out>/``, Chinese at ``<out>/zh-CN/``), then
builds the JupyterLite edition into ``<out>/lite/`` (``scripts.site_lite``). The first build
fetches mermaid-cli (which draws the diagrams with Debian's Chromium), the font and Pyodide
from npm and the wheels from PyPI into ``.site-cache/``; later builds are offline. ``serve``
serves ``<out>`` on 127.0.0.1 only, with the types module workers and WebAssembly need, text
and WebAssembly gzipped for a browser that accepts it.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import hashlib
import http.server
import io
import json
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any, ClassVar

from scripts import site_font, site_pages
from scripts.site_lessons import ROOT, lessons

SITE = ROOT / "_site"
BUILD_INFO = "build-info.json"
"""Written last by ``build``: what the site was built from (see ``sources_hash``)."""
WORK = ROOT / ".site-cache" / "work"
# Types a module worker (``.mjs``) and WebAssembly streaming compilation insist on.
EXTRA_TYPES = {".mjs": "text/javascript", ".wasm": "application/wasm", ".json": "application/json"}


def sources_hash() -> str:
    """A hash of what the site is built from: the learner notebooks, the docs it shows, the
    READMEs, the package (whose wheel the browser edition runs) and the build's own code and
    Sphinx configuration (``scripts/site*.py``, ``scripts/site_sphinx/``)."""
    digest = hashlib.sha256()
    files = [*lessons("en"), *lessons("zh-CN"), *sorted((ROOT / "docs").glob("*.md")),
             ROOT / "README.md", ROOT / "README.zh-CN.md",
             *sorted((ROOT / "agentcore").rglob("*.py")),
             *sorted(Path(__file__).parent.glob("site*")),
             *sorted((Path(__file__).parent / "site_sphinx").rglob("*"))]  # fmt: skip
    for path in files:
        if path.is_file():
            digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def stale_reason(out: Path) -> str | None:
    """Why the site in ``out`` does not match the sources now (``None`` when it does)."""
    info = json.loads((out / BUILD_INFO).read_text(encoding="utf-8"))
    if info["sources"] != sources_hash():
        return f"{out} was built from other lessons, docs or package code than the ones here"
    return None


def build(out: Path = SITE, pages_only: bool = False) -> None:
    """Build the website into ``out`` (emptied first), then the JupyterLite edition into
    ``out/lite`` unless ``pages_only``. Raises ``RuntimeError`` when a step fails."""
    started = time.monotonic()
    shutil.rmtree(out, ignore_errors=True)
    site_pages.stage(WORK / "pages")
    site_pages.build(WORK / "pages", out)
    print(f"website: {out} ({time.monotonic() - started:.0f} s)")
    if not pages_only:
        from scripts import site_lite

        site_lite.build(WORK / "lite", out / "lite")
        # every slice of the font: in JupyterLab a learner may type any character
        font = site_font.bundle_cjk_font(out / "lite" / site_font.FONT_DIR)
        site_lite.use_font(out / "lite", font)
        site_lite.use_phone_layout(out / "lite")
        print(f"JupyterLite edition: {out / 'lite'} ({time.monotonic() - started:.0f} s in all)")
    (out / ".nojekyll").touch()  # GitHub Pages: serve _static/ and the like as they are
    info = {"sources": sources_hash(), "lite": not pages_only}
    (out / BUILD_INFO).write_text(json.dumps(info, indent=1), encoding="utf-8")


# What is sent with gzip when the browser accepts it, as a host that compresses (GitHub Pages)
# sends it: text and WebAssembly. Wheels and zip files are compressed already.
GZIP_SUFFIXES = (".html", ".js", ".mjs", ".css", ".json", ".wasm", ".svg", ".ipynb", ".md",
                 ".txt", ".ico", ".map", ".py")  # fmt: skip


@functools.lru_cache(maxsize=512)
def _gzipped(path: str, mtime_ns: int, size: int) -> bytes:
    """The file at ``path`` compressed with gzip (level 6), once per version of it."""
    return gzip.compress(Path(path).read_bytes(), 6, mtime=0)


class _Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map: ClassVar[dict[str, str]] = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        **EXTRA_TYPES,
    }

    def send_head(self) -> Any:
        """A file of ``GZIP_SUFFIXES`` gzipped when the request accepts gzip; otherwise, and
        for folders and missing files, the standard library's answer."""
        path = self.translate_path(self.path)
        accepts = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (accepts and path.endswith(GZIP_SUFFIXES) and os.path.isfile(path)):
            return super().send_head()
        stat = os.stat(path)
        body = _gzipped(path, stat.st_mtime_ns, stat.st_size)
        self.send_response(http.HTTPStatus.OK)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Last-Modified", self.date_time_string(stat.st_mtime))
        self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        return io.BytesIO(body)

    def log_message(self, format: str, *args: object) -> None:  # quiet: one line per error
        if args and str(args[1] if len(args) > 1 else "").startswith(("4", "5")):
            super().log_message(format, *args)


def server(out: Path = SITE, port: int = 0) -> http.server.ThreadingHTTPServer:
    """An HTTP server for ``out`` on 127.0.0.1 (``port`` 0: a free one); call
    ``serve_forever()`` on it. Raises ``FileNotFoundError`` when the site was not built."""
    if not (out / "index.html").is_file():
        raise FileNotFoundError(f"{out} has no index.html: run python -m scripts.site build")
    handler = functools.partial(_Handler, directory=str(out))
    return http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m scripts.site", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )  # fmt: skip
    commands = parser.add_subparsers(dest="command", required=True)
    build_command = commands.add_parser("build", help="the website and the JupyterLite edition")
    build_command.add_argument("--out", type=Path, default=SITE)
    build_command.add_argument("--pages-only", action="store_true", help="skip JupyterLite")
    serve_command = commands.add_parser("serve", help="serve the built site on 127.0.0.1")
    serve_command.add_argument("--out", type=Path, default=SITE)
    serve_command.add_argument("--port", type=int, default=8000)
    args = parser.parse_args(argv)
    try:
        if args.command == "build":
            build(args.out, args.pages_only)
            return 0
        httpd = server(args.out, args.port)
    except (RuntimeError, FileNotFoundError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    host, port = httpd.server_address[:2]
    print(f"serving {args.out} on http://{host}:{port}/ (lessons: /lite/ runs them; Ctrl-C stops)")
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        httpd.server_close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
