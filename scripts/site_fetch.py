"""Downloads the site build needs, through the registries' own clients, cached for later builds.

``npm_package("name@version")`` returns the package's tarball (``npm pack``); ``pypi_wheels``
returns wheels for Pyodide (``pip download`` for the Pyodide platform tag). Both keep what they
fetched in the git-ignored ``.site-cache/``, so a second build needs no network.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from scripts.lessons import ROOT

CACHE = ROOT / ".site-cache"


def npm_package(spec: str) -> Path:
    """The npm tarball of ``spec`` (``"pyodide@314.0.4"``), from the cache or ``npm pack``.

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
    """Wheels for ``requirements`` and their dependencies that run on ``platform`` (a Pyodide
    platform tag such as ``pyemscripten_2026_0_wasm32``) under CPython ``python`` (``"3.14"``):
    pure wheels and the Pyodide builds PyPI hosts. ``dest`` keeps them between builds.

    pip evaluates environment markers for this machine, not for the browser, so a dependency
    that only other platforms need may come along; the lock step drops nothing and needs
    nothing more. Raises ``RuntimeError`` when pip cannot find a wheel for one of them.
    """
    dest.mkdir(parents=True, exist_ok=True)
    abi = "cp" + python.replace(".", "")
    command = [
        sys.executable, "-m", "pip", "download", "--quiet", "--only-binary=:all:",
        "--platform", platform, "--python-version", python, "--implementation", "cp",
        "--abi", abi, "--abi", "none", "--abi", "abi3", "--dest", str(dest), *requirements,
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"pip download for Pyodide failed:\n{done.stderr}")
    return sorted(dest.glob("*.whl"))
