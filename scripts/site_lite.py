"""The JupyterLite edition: every learner lesson of both languages running in the browser.

``build(work, out)`` makes a JupyterLite site in ``out`` (``_site/lite/``) whose Python kernel is
Pyodide, and in which everything the page loads comes from ``out``:

* JupyterLab (``jupyterlite-core``) with the Pyodide kernel extension and the ipywidgets
  extension, the Chinese UI language pack (Settings > Language), the learner notebooks under
  ``notebooks/<lang>/`` and the ``docs/*.md`` pages (glossary, cheatsheets) under ``docs/``
  (the lessons' links);
* the Pyodide runtime from the npm ``pyodide`` package in ``static/pyodide/`` (the version the
  kernel release was built for: ``PYODIDE_NPM`` must equal the kernel's ``PYODIDE_VERSION``);
* a lock file, ``static/pyodide-lock/pyodide-lock.json``, with the wheels beside it: the kernel's
  own (piplite, pyodide-kernel and its ipykernel and widgetsnbextension stand-ins), what the
  kernel loads at start (micropip, ipython, jedi, comm and their dependencies) and the course's
  (``agentcore`` built from this repository, pydantic with pydantic-core's Pyodide wheel,
  ipywidgets, jupyterquiz), pinned by ``scripts.pyodide_lock``; ``jupyter-lite.json`` points
  the kernel at it and preloads them (``loadPyodideOptions``), and turns the PyPI fallback off.

Chinese: ``use_font(out, css)`` links the bundled Noto Sans SC (``scripts.site_font``, every
slice, in ``out/fonts/``: a learner may type any character) into JupyterLab's page and puts it
first in JupyterLab's three font lists (interface, Markdown, code): it covers CJK code points
only, so it draws the lessons' Chinese, on a machine with no CJK font too, and JupyterLab's own
fonts the Latin text. The lists are set by a rule of the page, ``html:root``, which outranks the
theme's ``:root``: the theme setting ``overrides`` would do it, but JupyterLab reads it from the
user's settings only (``ThemeManager.loadCSSOverrides``), not from a site's defaults.

A code cell that needs the installed course (local servers on sockets, subprocesses, DeepSeek)
carries the tag ``needs-installed-course`` in the lessons; in this edition its code is kept
as comments under one line that prints why it is skipped, in the lesson's language
(``browser_notebook``). Progress is saved in the browser (JupyterLite's storage); a learner
gets the original lesson back with File > Revert or by deleting it from the file browser.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
from importlib.metadata import version
from pathlib import Path
from typing import Any

from packaging.utils import canonicalize_name, parse_wheel_filename

from scripts import pyodide_lock
from scripts.site_fetch import npm_package, pypi_wheels
from scripts.site_font import FAMILY
from scripts.site_lessons import LANGUAGES, ROOT, lessons

PYODIDE_NPM = "pyodide@314.0.6"
BROWSER_SKIP_TAG = "needs-installed-course"
LITE_KERNELSPEC = {"name": "python", "display_name": "Python (Pyodide)", "language": "python"}
SKIP_SENTENCE = {
    "en": "Skipped in the browser: this cell needs the installed course (local servers, "
    "subprocesses or DeepSeek). Install it (README, Install and run) to run it.",
    "zh-CN": "浏览器中跳过：这个单元格需要本地安装的课程（本地服务器、子进程或 DeepSeek）。"
    "按 README 的「安装并运行」安装后即可运行。",
}
# What the kernel installs when it starts (pyodide-kernel's worker.ts: micropip, piplite, then
# ipykernel, comm, pyodide-kernel, jedi, ipython), and what the lessons import.
KERNEL_PACKAGES = ["micropip", "piplite", "ipykernel", "comm", "pyodide-kernel", "jedi", "ipython"]
COURSE_PACKAGES = ["agentcore", "pydantic", "ipywidgets", "jupyterquiz"]
# The versions the course is tested with here, so the browser runs the same ones; ipywidgets
# must also agree with the jupyterlab_widgets extension the site ships; lesson 04 uses pytest.
SAME_AS_HERE = [
    "pydantic", "ipywidgets", "jupyterquiz", "ipython", "comm", "traitlets", "pytest",
]  # fmt: skip
# Pinned for the browser only. jedi (the kernel loads it at start for Tab completion): its 0.20
# wheel weighs 4.9 MB (its bundled type stubs), 0.19.2 1.6 MB, on every learner's first open.
BROWSER_ONLY = ["jedi==0.19.2"]
MICROPIP = "micropip==0.11.1"  # the runtime's own lock pins this one
KERNEL_EXTENSION = "@jupyterlite/pyodide-kernel-extension"
EXTENSIONS = [KERNEL_EXTENSION, "@jupyter-widgets/jupyterlab-manager"]
RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json", "package.json")  # fmt: skip
LOCK_URL = f"./{pyodide_lock.LOCK_FOLDER}/pyodide-lock.json"
# The bundled Chinese font first, then JupyterLab 4's own font lists (its light theme's
# --jp-ui-font-family and --jp-code-font-family-default).
UI_FONTS = (
    f'"{FAMILY}", system-ui, -apple-system, blinkmacsystemfont, "Segoe UI", helvetica, '
    'arial, sans-serif, "Apple Color Emoji", "Segoe UI Emoji", "Segoe UI Symbol"'
)
CODE_FONTS = f'"{FAMILY}", menlo, consolas, "DejaVu Sans Mono", monospace'
FONT_LINK = '<link rel="stylesheet" href="{href}" id="agentcore-cjk-font">'
FONT_LISTS = (
    '<style id="agentcore-cjk-font-lists">html:root { '
    f"--jp-ui-font-family: {UI_FONTS}; --jp-content-font-family: {UI_FONTS}; "
    f"--jp-code-font-family-default: {CODE_FONTS}; }}</style>"
)


def check_versions() -> None:
    """Raise ``RuntimeError`` unless the npm runtime is the one the kernel was built for."""
    from jupyterlite_pyodide_kernel.constants import PYODIDE_VERSION

    wanted = PYODIDE_NPM.rpartition("@")[2]
    if wanted != PYODIDE_VERSION:
        raise RuntimeError(f"jupyterlite-pyodide-kernel expects Pyodide {PYODIDE_VERSION}, "
                           f"the site ships {wanted}: change PYODIDE_NPM")  # fmt: skip


def browser_notebook(notebook: dict[str, Any], language: str) -> dict[str, Any]:
    """The lesson as the browser edition holds it: each cell tagged ``needs-installed-course``
    prints why it is skipped and keeps its code as comments (its stored output stays, so the
    learner still sees what it prints when installed); the kernel is the edition's
    (``LITE_KERNELSPEC``). Other cells are unchanged."""
    for cell in notebook["cells"]:
        if cell["cell_type"] != "code" or BROWSER_SKIP_TAG not in cell["metadata"].get("tags", []):
            continue
        code = "".join(cell["source"]).splitlines()
        commented = [f"# {line}" if line else "#" for line in code]
        sentence = json.dumps(SKIP_SENTENCE[language], ensure_ascii=False)
        cell["source"] = "\n".join([f"print({sentence})", "", *commented])
    # The edition's kernel by its own name: with the installed course's ("python3") JupyterLite
    # picks its kernel by language and warns in the browser's console.
    notebook.setdefault("metadata", {})["kernelspec"] = dict(LITE_KERNELSPEC)
    return notebook


def _stage_contents(files: Path) -> None:
    for language in LANGUAGES:
        (files / "notebooks" / language).mkdir(parents=True)
        for lesson in lessons(language):
            notebook = json.loads(lesson.read_text(encoding="utf-8"))
            (files / "notebooks" / language / lesson.name).write_text(
                json.dumps(browser_notebook(notebook, language), ensure_ascii=False, indent=1),
                encoding="utf-8",
            )
    (files / "docs").mkdir()
    for page in sorted((ROOT / "docs").glob("*.md")):  # the glossary, cheatsheets, ...
        shutil.copy2(page, files / "docs" / page.name)


def _stage_runtime(static: Path) -> Path:
    """Unpack the runtime files of the npm pyodide package into ``static/pyodide/``; returns
    the runtime's lock."""
    target = static / "pyodide"
    target.mkdir(parents=True)
    with tarfile.open(npm_package(PYODIDE_NPM)) as tar:
        for name in RUNTIME_FILES:
            member = tar.extractfile(f"package/{name}")
            if member is None:
                raise RuntimeError(f"{PYODIDE_NPM} has no {name}")
            (target / name).write_bytes(member.read())
    return target / "pyodide-lock.json"


def _lab_extension(name: str) -> Path:
    """The folder of the installed JupyterLab extension ``name`` (Jupyter's data path, the one
    JupyterLab itself reads). Raises ``RuntimeError`` when it is not installed."""
    from jupyter_core.paths import jupyter_path

    for folder in jupyter_path("labextensions"):
        if (Path(folder) / name / "package.json").is_file():
            return Path(folder) / name
    raise RuntimeError(f"the JupyterLab extension {name} is not installed: "
                       'pip install -e ".[site]"')  # fmt: skip


def _config(lite_dir: Path, out: Path) -> None:
    build_config = {
        "LiteBuildConfig": {
            "apps": ["lab"],
            "contents": ["files"],
            "output_dir": str(out),
            "no_sourcemaps": True,
            "no_unused_shared_packages": True,
            # only these extensions, not every one installed here (nbgrader, RISE, ...)
            "ignore_sys_prefix": ["federated_extensions"],
            "federated_extensions": [str(_lab_extension(name)) for name in EXTENSIONS],
        }
    }
    lite_config = {
        "jupyter-config-data": {
            "appName": "agentcore-course",
            # window.jupyterapp, which the browser tests drive (JupyterLab's own option)
            "exposeAppInBrowser": True,
            # No lesson has math. With JupyterLab's MathJax loaded, jupyterquiz's review
            # questions see a MathJax 3 without typeset() and fetch tex-svg.js from a CDN.
            "disabledExtensions": ["@jupyterlab/mathjax-extension"],
            "litePluginSettings": {
                f"{KERNEL_EXTENSION}:kernel": {
                    "disablePyPIFallback": True,
                    "loadPyodideOptions": {
                        "lockFileURL": LOCK_URL,
                        "packages": [*KERNEL_PACKAGES, *COURSE_PACKAGES],
                    },
                }
            },
        }
    }
    overrides = {
        # no "get Jupyter news?" question, which would ask a server on the internet
        "@jupyterlab/apputils-extension:notification": {"fetchNews": "false"},
        "@jupyterlab/notebook-extension:tracker": {"windowingMode": "none"},
    }
    (lite_dir / "jupyter_lite_config.json").write_text(json.dumps(build_config, indent=2))
    (lite_dir / "jupyter-lite.json").write_text(json.dumps(lite_config, indent=2))
    (lite_dir / "overrides.json").write_text(json.dumps(overrides, indent=2))


def _agentcore_wheel(dest: Path) -> Path:
    for old in dest.glob("agentcore-*.whl"):
        old.unlink()
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
         "--wheel-dir", str(dest), str(ROOT)],
        check=True,
    )  # fmt: skip
    (wheel,) = dest.glob("agentcore-*.whl")
    return wheel


def _wheels(runtime_lock: Path, kernel_wheels: Path, dest: Path) -> list[Path]:
    """Every wheel the lock pins: the kernel extension's own (the newest of each name), then
    the course's and the kernel's requirements and, round by round, what they require in the
    browser (``pyodide_lock.browser_requirements``), each downloaded for Pyodide into ``dest``.
    """
    info = json.loads(runtime_lock.read_text(encoding="utf-8"))["info"]
    platform = pyodide_lock.platform_tag(runtime_lock)
    python = ".".join(str(info["python"]).split(".")[:2])
    chosen: dict[str, Path] = {}
    for wheel in sorted(kernel_wheels.glob("*.whl"), key=lambda w: parse_wheel_filename(w.name)[1]):
        chosen[_name(wheel)] = wheel
    agentcore = _agentcore_wheel(dest)
    chosen["agentcore"] = agentcore
    pending = [MICROPIP, *BROWSER_ONLY, *(f"{name}=={version(name)}" for name in SAME_AS_HERE)]
    pending += [str(r) for r in pyodide_lock.browser_requirements(agentcore, info)]
    while pending:
        for wheel in pypi_wheels(pending, platform, python, dest):
            chosen.setdefault(_name(wheel), wheel)
        pending = sorted({str(requirement) for wheel in chosen.values()
                          for requirement in pyodide_lock.browser_requirements(wheel, info)
                          if str(canonicalize_name(requirement.name)) not in chosen})  # fmt: skip
    return sorted(chosen.values(), key=lambda w: w.name)


def _name(wheel: Path) -> str:
    return str(canonicalize_name(parse_wheel_filename(wheel.name)[0]))


def use_font(out: Path, css: Path) -> None:
    """Link the stylesheet ``css`` (the website's bundled font) into the JupyterLab page of the
    edition in ``out`` (``out/lab/index.html``), by a path relative to it, with the rule that
    puts the font last in JupyterLab's font lists (``FONT_LISTS``).

    Raises ``RuntimeError`` when the page has not exactly one ``</head>`` to put it before.
    """
    page = out / "lab" / "index.html"
    html = page.read_text(encoding="utf-8")
    if html.count("</head>") != 1:
        raise RuntimeError(f"{page}: no single </head> to link the Chinese font before")
    href = Path(os.path.relpath(css, page.parent)).as_posix()
    head = f"{FONT_LINK.format(href=href)}\n{FONT_LISTS}\n</head>"
    page.write_text(html.replace("</head>", head), encoding="utf-8")


# On a phone-wide screen, the lesson and not the file browser: JupyterLab opens with its left
# sidebar (the file browser, about 280 px) expanded, which leaves a 375 px screen a notebook
# column a few characters wide. Once the layout is restored the sidebar is collapsed, and again
# after JupyterLite's first "show in file browser" (it shows the lesson opened by ``?path=``
# there, within the first minute); the learner opens it again with its icon.
# window.jupyterapp: the site's exposeAppInBrowser.
PHONE_LAYOUT = """<script id="agentcore-phone-layout">
(function () {
  if (!window.matchMedia('(max-width: 700px)').matches) { return; }
  const wait = setInterval(function () {
    const app = window.jupyterapp;
    if (!app) { return; }
    clearInterval(wait);
    const collapse = function () { app.shell.collapseLeft(); };
    const deadline = Date.now() + 60000;
    const onCommand = function (sender, args) {
      if (args.id !== 'docmanager:show-in-file-browser') { return; }
      app.commands.commandExecuted.disconnect(onCommand);
      if (Date.now() < deadline) { Promise.resolve(args.result).then(collapse, collapse); }
    };
    app.commands.commandExecuted.connect(onCommand);
    app.restored.then(collapse);
  }, 100);
}());
</script>"""


def use_phone_layout(out: Path) -> None:
    """Put ``PHONE_LAYOUT`` into the JupyterLab page of the edition in ``out``
    (``out/lab/index.html``). Raises ``RuntimeError`` when the page has not exactly one
    ``</head>``."""
    page = out / "lab" / "index.html"
    html = page.read_text(encoding="utf-8")
    if html.count("</head>") != 1:
        raise RuntimeError(f"{page}: no single </head> to put the phone layout before")
    page.write_text(html.replace("</head>", f"{PHONE_LAYOUT}\n</head>"), encoding="utf-8")


def build(work: Path, out: Path) -> Path:
    """Build the JupyterLite edition into ``out`` (emptied first), staging in ``work``.

    Returns the lock file written. Raises ``RuntimeError`` when the versions disagree or a
    step fails, and ``pyodide_lock.LockError`` when the wheels cannot make a complete lock.
    """
    check_versions()
    work, out = work.resolve(), out.resolve()
    shutil.rmtree(work, ignore_errors=True)
    shutil.rmtree(out, ignore_errors=True)
    work.mkdir(parents=True)
    _stage_contents(work / "files")
    runtime_lock = _stage_runtime(work / "static")
    _config(work, out)
    done = subprocess.run(
        [sys.executable, "-m", "jupyterlite_core", "build", "--lite-dir", str(work)],
        cwd=work, capture_output=True, text=True,
    )  # fmt: skip
    if done.returncode != 0:
        log = done.stdout[-4000:] + done.stderr[-4000:]
        raise RuntimeError(f"jupyter lite build failed:\n{log}")
    kernel_wheels = out / "extensions" / KERNEL_EXTENSION / "static" / "pypi"
    wheels = _wheels(runtime_lock, kernel_wheels, work / "wheels")
    lock_dir = out / pyodide_lock.LOCK_FOLDER
    lock_dir.mkdir(parents=True)
    for wheel in wheels:
        shutil.copy2(wheel, lock_dir / wheel.name)
    lock = pyodide_lock.pin(runtime_lock, [lock_dir / wheel.name for wheel in wheels])
    missing = [n for n in [*KERNEL_PACKAGES, *COURSE_PACKAGES] if n not in lock["packages"]]
    if missing:
        raise RuntimeError(f"the lock has no wheel for {missing}, which the kernel preloads")
    (lock_dir / "pyodide-lock.json").write_text(json.dumps(lock, indent=1), encoding="utf-8")
    return lock_dir / "pyodide-lock.json"
