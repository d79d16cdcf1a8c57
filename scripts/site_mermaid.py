"""The lessons' diagrams as SVG, drawn once when the site is built, so no page loads Mermaid.

A lesson draws a diagram as a fenced ```` ```mermaid ```` block. ``render(codes, folder)``
draws every diagram that is not in the cache yet with mermaid-cli (``mmdc``, from npm) driving
Debian's Chromium (``chromium()``; puppeteer downloads no browser: ``PUPPETEER_SKIP_DOWNLOAD``
and the executable path in a puppeteer configuration), all in one run, and writes each one to
``folder/<diagram_key(code)>.svg``. The website's ``mermaid`` directive
(``scripts/site_sphinx/conf.py``) puts that SVG inline in the page (``diagram_html``): inline,
its text is drawn with the page's fonts, so its Chinese uses the font the site bundles.

Each SVG is made fit to sit beside the others in one page: every ``id`` (and every reference to
one) gets the diagram's own prefix, and its size is its natural one, shrinking with the column
down to ``SMALLEST_SCALE`` of it; a diagram wider than that scrolls inside its own box (see
``_static/course.css``), so its text stays readable on a phone.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from scripts.site_lessons import ROOT

CLI_DIR = ROOT / ".site-cache" / "mermaid-cli"
CACHE = ROOT / ".site-cache" / "diagrams"
# mermaid-cli 11.17 is the newest release that runs on Debian 12's Node 20 (12.x needs Node 22);
# Mermaid and puppeteer pinned with it, so a rebuild draws the same diagrams.
NPM_PACKAGES = ("@mermaid-js/mermaid-cli@11.17.0", "mermaid@11.17.2", "puppeteer@24.43.1")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
FONT_FAMILY = 'arial, "Liberation Sans", "Noto Sans SC", "Noto Sans CJK SC", sans-serif'
"""Latin text in Arial or its metric twin Liberation Sans (the widths mmdc measures here are
the reader's), Chinese in the site's Noto Sans SC (Noto Sans CJK SC here: the same glyphs)."""
SMALLEST_SCALE = 0.75
"""A diagram shrinks with the column to 3/4 of its natural size at most (16 px text: 12 px)."""
FENCE = re.compile(r"^```\{?mermaid\}?[ \t]*\n(.*?)^```[ \t]*$", re.DOTALL | re.MULTILINE)


def diagram_key(code: str) -> str:
    """The name of a diagram's SVG: a hash of its code (surrounding blank space ignored) and of
    how it is drawn (``NPM_PACKAGES``, ``FONT_FAMILY``), so a change to either draws it anew."""
    digest = hashlib.sha256(json.dumps([code.strip(), NPM_PACKAGES, FONT_FAMILY]).encode())
    return digest.hexdigest()[:16]


def diagrams_in(markdown: str) -> list[str]:
    """The code of every ```` ```mermaid ```` fence in ``markdown``, in order."""
    return [match.group(1) for match in FENCE.finditer(markdown)]


def chromium() -> Path:
    """Debian's Chromium (or ``AGENTCORE_CHROMIUM``). Raises ``RuntimeError`` when it is
    missing, saying how to install it."""
    path = Path(os.environ.get("AGENTCORE_CHROMIUM", "/usr/bin/chromium"))
    if not path.is_file():
        raise RuntimeError(
            f"mermaid-cli draws the diagrams with Chromium, and {path} is "
            "missing: apt-get install chromium (or set AGENTCORE_CHROMIUM)"
        )
    return path


def mermaid_cli() -> Path:
    """The ``mmdc`` program, installed with npm into ``.site-cache/mermaid-cli/`` the first time
    (about 40 s and 500 MB; no browser download). Raises ``RuntimeError`` when npm is missing
    or fails."""
    program = CLI_DIR / "node_modules" / ".bin" / "mmdc"
    stamp = CLI_DIR / "installed.json"
    installed = stamp.is_file() and json.loads(stamp.read_text()) == list(NPM_PACKAGES)
    if installed and program.is_file():
        return program
    CLI_DIR.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PUPPETEER_SKIP_DOWNLOAD": "1"}
    command = ["npm", "install", "--no-audit", "--no-fund", "--silent", "--prefix", str(CLI_DIR),
               *NPM_PACKAGES]  # fmt: skip
    try:
        subprocess.run(command, check=True, capture_output=True, text=True, env=env)
    except FileNotFoundError:
        raise RuntimeError("npm installs mermaid-cli, which draws the diagrams: "
                           "apt-get install npm") from None  # fmt: skip
    except subprocess.CalledProcessError as error:
        packages = " ".join(NPM_PACKAGES)
        raise RuntimeError(f"npm install {packages} failed:\n{error.stderr}") from None
    stamp.write_text(json.dumps(list(NPM_PACKAGES)))
    return program


def _fit(svg: str, key: str) -> str:
    """The SVG mmdc wrote, with its ids prefixed by ``d<key>-`` and its natural size set."""
    prefix = f"d{key}"
    ids = set(re.findall(r'\sid="([^"]+)"', svg))

    def rename(name: str) -> str:
        return prefix if name == "my-svg" else f"{prefix}-{name}"

    for name in sorted(ids, key=len, reverse=True):
        quoted = re.escape(name)
        svg = re.sub(rf'(\sid=")({quoted})(")', lambda m: m[1] + rename(m[2]) + m[3], svg)
        svg = re.sub(rf"#({quoted})(?![\w-])", lambda m: "#" + rename(m[1]), svg)
        svg = re.sub(rf'(aria-(?:labelledby|describedby)=")({quoted})(")',
                     lambda m: m[1] + rename(m[2]) + m[3], svg)  # fmt: skip
    view_box = re.search(r'viewBox="([-\d.]+) ([-\d.]+) ([\d.]+) ([\d.]+)"', svg)
    if view_box is None:
        raise RuntimeError(f"mmdc wrote an SVG without a viewBox: {svg[:200]}")
    width, height = float(view_box[3]), float(view_box[4])
    smallest = round(width * SMALLEST_SCALE)
    size = (f'width="{round(width)}" height="{round(height)}" '
            f'style="min-width: {smallest}px; max-width: 100%; height: auto;"')  # fmt: skip
    svg, count = re.subn(r'width="100%"([^>]*?)style="[^"]*"', rf"{size}\1", svg, count=1)
    if count != 1:
        raise RuntimeError("mmdc's SVG has no width=100% and style to replace: " + svg[:200])
    return svg


def render(codes: list[str], folder: Path) -> dict[str, Path]:
    """Draw each diagram of ``codes`` (Mermaid code) into ``folder/<diagram_key>.svg``, from the
    cache (``.site-cache/diagrams/``) when it was drawn before, else with mermaid-cli, all the
    new ones in one run. Returns the SVG of each key. Raises ``RuntimeError`` when Chromium,
    npm or mermaid-cli fails (mmdc's message says which diagram it could not parse)."""
    folder.mkdir(parents=True, exist_ok=True)
    CACHE.mkdir(parents=True, exist_ok=True)
    wanted = {diagram_key(code): code for code in codes}
    new = {key: code for key, code in wanted.items() if not (CACHE / f"{key}.svg").is_file()}
    if new:
        program, browser = mermaid_cli(), chromium()
        with tempfile.TemporaryDirectory() as temporary:
            work = Path(temporary)
            (work / "puppeteer.json").write_text(json.dumps(
                {"executablePath": str(browser), "args": CHROMIUM_ARGS}))  # fmt: skip
            (work / "mermaid.json").write_text(json.dumps({"fontFamily": FONT_FAMILY}))
            keys = list(new)
            (work / "all.md").write_text(
                "\n\n".join(f"```mermaid\n{new[key].strip()}\n```" for key in keys),
                encoding="utf-8",
            )
            done = subprocess.run(
                [str(program), "--quiet", "-p", str(work / "puppeteer.json"),
                 "-c", str(work / "mermaid.json"), "-i", str(work / "all.md"),
                 "-o", str(work / "out.md")],
                capture_output=True, text=True,
                env={**os.environ, "PUPPETEER_SKIP_DOWNLOAD": "1"},
            )  # fmt: skip
            if done.returncode != 0:
                raise RuntimeError(f"mmdc failed:\n{done.stderr[-4000:]}{done.stdout[-2000:]}")
            for number, key in enumerate(keys, start=1):
                drawn = work / f"out-{number}.svg"
                if not drawn.is_file():
                    raise RuntimeError(f"mmdc drew no SVG for the diagram:\n{new[key]}")
                svg = _fit(drawn.read_text(encoding="utf-8"), key)
                (CACHE / f"{key}.svg").write_text(svg, encoding="utf-8")
    found = {}
    for key in wanted:
        shutil.copy2(CACHE / f"{key}.svg", folder / f"{key}.svg")
        found[key] = folder / f"{key}.svg"
    return found


def diagram_html(svg: str) -> str:
    """The HTML a page holds for one diagram: the SVG in a box that scrolls sideways when the
    diagram is wider than the column can shrink it."""
    return f'<div class="course-diagram">{svg}</div>'
