"""Downloads the site build needs, through the registries' own clients, cached for later builds.

``npm_package("name@version")`` returns the package's tarball (``npm pack``); ``pypi_wheels``
downloads wheels for Pyodide (``pip download`` for the Pyodide platform tag). npm tarballs are
kept in the git-ignored ``.site-cache/``; pip keeps its own cache.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from scripts.site_lessons import ROOT

CACHE = ROOT / ".site-cache"


def npm_package(spec: str) -> Path:
    """The npm tarball of ``spec`` (``"pyodide@314.0.6"``), from the cache or ``npm pack``.

    Raises ``RuntimeError`` when npm is missing or fails (the message says how to install it).
    """
    name, _, version = spec.rpartition("@")
    target = CACHE / "npm" / f"{name.replace('/', '-').lstrip('@')}-{version}.tgz"
    if target.is_file():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        packed = subprocess.run(
            ["npm", "pack", spec, "--silent", "--pack-destination", str(target.parent)],
            check=True, capture_output=True, text=True,
        )  # fmt: skip
    except FileNotFoundError:
        raise RuntimeError("npm fetches Mermaid and Pyodide: apt-get install npm") from None
    except subprocess.CalledProcessError as error:
        raise RuntimeError(f"npm pack {spec} failed:\n{error.stderr}") from None
    written = target.parent / packed.stdout.strip().splitlines()[-1]
    written.rename(target)
    return target


def pypi_wheels(requirements: list[str], platform: str, python: str, dest: Path) -> list[Path]:
    """Download one wheel per requirement (no dependencies: pip would evaluate their markers
    for this machine, not for the browser) that runs on ``platform`` (a Pyodide platform tag
    such as ``pyemscripten_2026_0_wasm32``) under CPython ``python`` (``"3.14"``): a pure wheel
    or a Pyodide build from PyPI. Returns the wheels that are new in ``dest``.

    Raises ``RuntimeError`` when pip finds no such wheel for one of them.
    """
    dest.mkdir(parents=True, exist_ok=True)
    before = set(dest.glob("*.whl"))
    abi = "cp" + python.replace(".", "")
    command = [
        sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
        "--platform", platform, "--python-version", python, "--implementation", "cp",
        "--abi", abi, "--abi", "none", "--abi", "abi3", "--dest", str(dest), *requirements,
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        errors = [line for line in done.stderr.splitlines() if not line.startswith("WARNING")]
        raise RuntimeError("pip download for Pyodide failed:\n" + "\n".join(errors))
    return sorted(set(dest.glob("*.whl")) - before)
