"""Pin wheels into a Pyodide lock file (``pyodide-lock.json``), so Pyodide loads them by name.

The JupyterLite Pyodide kernel loads a custom lock when ``loadPyodideOptions.lockFileURL`` names
one; ``loadPyodide({packages})`` and micropip then take every package the lock lists from the
lock's own files, with their sha256 checked, and nothing from a CDN or PyPI. Upstream builds
such a lock with ``jupyterlite-pyodide-kernel[lock]`` (``pyodide-lock``'s uv solver), which
needs Python 3.12; this module writes the same format from wheels already downloaded:

* ``info`` is the runtime's own (``abi_version``, ``platform``, ``python``) from the npm
  ``pyodide`` package's lock, so the lock describes the runtime it ships with;
* one entry per wheel, keyed by its canonical name: ``name``, ``version``, ``file_name``
  (``../../static/pyodide-lock/<wheel>``, relative to the runtime, as upstream's lock addon
  writes it), ``sha256``, ``depends`` (its ``Requires-Dist`` evaluated for the browser:
  ``sys_platform == "emscripten"``), ``imports`` (its top-level import names),
  ``install_dir: "site"``, ``package_type: "package"``;
* the runtime's other entries are left out: the npm package holds only the core runtime, so
  their files are not on the site, and a lock that lists a missing file fails when a package
  asks for it.

The format is Pyodide's ``pyodide-lock`` spec (https://github.com/pyodide/pyodide-lock,
``PackageSpec``), and the entry shape is the one the npm lock's own entries have.
"""

from __future__ import annotations

import email.parser
import hashlib
import json
import zipfile
from pathlib import Path
from typing import Any

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.tags import parse_tag
from packaging.utils import canonicalize_name, parse_wheel_filename

LOCK_FOLDER = "static/pyodide-lock"
"""Where the lock and its wheels go, relative to the JupyterLite root (as upstream's addon)."""


class LockError(ValueError):
    """The wheels cannot make a lock the runtime can load: a dependency has no wheel, a wheel
    is built for another ABI, or two wheels have the same name. The message names them."""


def browser_environment(info: dict[str, Any]) -> dict[str, str]:
    """PEP 508 marker values inside Pyodide, from a lock's ``info`` (``python: "3.14.0"``)."""
    environment = dict(default_environment())
    python = str(info["python"])
    environment.update({
        "sys_platform": "emscripten", "platform_system": "Emscripten", "os_name": "posix",
        "platform_machine": "wasm32", "implementation_name": "cpython",
        "platform_python_implementation": "CPython", "python_full_version": python,
        "python_version": ".".join(python.split(".")[:2]), "implementation_version": python,
        "platform_release": "", "platform_version": "",
    })  # fmt: skip
    return environment


def _metadata(wheel: zipfile.ZipFile) -> Any:
    name = next(n for n in wheel.namelist() if n.endswith(".dist-info/METADATA"))
    return email.parser.Parser().parsestr(wheel.read(name).decode("utf-8"))


def _imports(wheel: zipfile.ZipFile) -> list[str]:
    """Top-level import names: ``top_level.txt`` when the wheel has one, else the top-level
    packages and modules it installs."""
    for name in wheel.namelist():
        if name.endswith(".dist-info/top_level.txt"):
            listed = wheel.read(name).decode("utf-8").split()
            return sorted({n.split("/")[0] for n in listed if n and not n.startswith("_")})
    found: set[str] = set()
    for name in wheel.namelist():
        top = name.split("/")[0]
        if top.endswith((".dist-info", ".data")) or top.startswith("_"):
            continue
        if "/" in name or top.endswith(".py"):
            found.add(top.removesuffix(".py"))
    return sorted(found)


def _check_abi(wheel: Path, info: dict[str, Any]) -> None:
    """A platform wheel must be built for this runtime: ``pyemscripten_<abi>_wasm32`` (or the
    older ``pyodide_<abi>_wasm32``) and this CPython; a pure wheel runs anywhere."""
    _name, _version, _build, tags = parse_wheel_filename(wheel.name)
    abi = str(info["abi_version"])
    python = "cp" + "".join(str(info["python"]).split(".")[:2])
    platforms = {f"pyemscripten_{abi}_wasm32", f"pyodide_{abi}_wasm32"}
    for tag in tags:
        if tag.platform == "any" or (tag.platform in platforms and tag.interpreter == python):
            return
    raise LockError(f"{wheel.name} is not built for this Pyodide (needs {python} and one of "
                    f"{sorted(platforms)}); download its Pyodide wheel instead")  # fmt: skip


def browser_requirements(wheel: Path, info: dict[str, Any]) -> list[Requirement]:
    """What ``wheel`` requires inside the browser: its ``Requires-Dist`` whose markers hold
    there (``sys_platform == "emscripten"``, no extras), markers removed."""
    environment = {**browser_environment(info), "extra": ""}
    with zipfile.ZipFile(wheel) as archive:
        metadata = _metadata(archive)
    needed: list[Requirement] = []
    for line in metadata.get_all("Requires-Dist") or []:
        requirement = Requirement(line)
        if requirement.marker is None or requirement.marker.evaluate(environment):
            requirement.marker = None
            needed.append(requirement)
    return needed


def package_entry(wheel: Path, info: dict[str, Any]) -> dict[str, Any]:
    """The lock entry of one wheel (without checking that its dependencies are locked)."""
    _check_abi(wheel, info)
    with zipfile.ZipFile(wheel) as archive:
        metadata = _metadata(archive)
        imports = _imports(archive)
    depends = [str(canonicalize_name(r.name)) for r in browser_requirements(wheel, info)]
    return {
        "name": str(metadata["Name"]),
        "version": str(metadata["Version"]),
        "file_name": f"../../{LOCK_FOLDER}/{wheel.name}",
        "install_dir": "site",
        "sha256": hashlib.sha256(wheel.read_bytes()).hexdigest(),
        "package_type": "package",
        "imports": imports,
        "depends": sorted(set(depends)),
        "unvendored_tests": False,
    }


def pin(runtime_lock: Path, wheels: list[Path]) -> dict[str, Any]:
    """A lock for ``wheels`` on the runtime described by ``runtime_lock`` (the npm pyodide
    package's ``pyodide-lock.json``).

    Returns the lock as a dict (write it with ``json.dumps``). Raises ``LockError`` when two
    wheels share a name, a wheel is built for another ABI, or a dependency of a wheel (for the
    browser's markers) has no wheel.
    """
    info = json.loads(runtime_lock.read_text(encoding="utf-8"))["info"]
    packages: dict[str, dict[str, Any]] = {}
    for wheel in wheels:
        key = str(canonicalize_name(parse_wheel_filename(wheel.name)[0]))
        if key in packages:
            raise LockError(f"two wheels for {key}: {packages[key]['file_name']} and {wheel.name}")
        packages[key] = package_entry(wheel, info)
    missing = sorted(f"{key} needs {dependency}" for key, entry in packages.items()
                     for dependency in entry["depends"] if dependency not in packages)  # fmt: skip
    if missing:
        raise LockError("dependencies without a wheel: " + "; ".join(missing))
    return {"info": info, "packages": dict(sorted(packages.items()))}


def platform_tag(runtime_lock: Path) -> str:
    """The platform tag of the runtime's own wheels (``pyemscripten_2026_0_wasm32``), for
    ``pip download --platform``."""
    info = json.loads(runtime_lock.read_text(encoding="utf-8"))["info"]
    tag = f"pyemscripten_{info['abi_version']}_wasm32"
    parse_tag(f"cp3-none-{tag}")  # raises for a malformed abi_version
    return tag
