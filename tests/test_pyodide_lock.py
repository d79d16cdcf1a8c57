"""The step that pins wheels into the Pyodide lock (scripts/pyodide_lock.py), on small wheels
written here: what the browser needs is locked with the right hash, names and dependencies,
and a lock the runtime could not load is refused with the reason."""

from __future__ import annotations

import hashlib
import json
import zipfile
from pathlib import Path

import pytest

from scripts import pyodide_lock
from scripts.pyodide_lock import LockError

INFO = {"abi_version": "2026_0", "arch": "wasm32", "platform": "emscripten_5_0_3",
        "python": "3.14.0"}  # fmt: skip


def _wheel(folder: Path, filename: str, requires: tuple[str, ...] = (),
           files: tuple[str, ...] = ()) -> Path:  # fmt: skip
    name, version = filename.split("-")[:2]
    path = folder / filename
    with zipfile.ZipFile(path, "w") as archive:
        metadata = ["Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}"]
        metadata += [f"Requires-Dist: {line}" for line in requires]
        archive.writestr(f"{name}-{version}.dist-info/METADATA", "\n".join(metadata) + "\n")
        for file in files or (f"{name}/__init__.py",):
            archive.writestr(file, "")
    return path


@pytest.fixture
def runtime_lock(tmp_path: Path) -> Path:
    path = tmp_path / "pyodide-lock.json"
    # the npm package's lock: its entries point at files the npm package does not hold
    path.write_text(json.dumps({"info": INFO, "packages": {"micropip": {"file_name": "x.whl"}}}))
    return path


def test_a_lock_names_each_wheel_with_its_hash_imports_and_browser_dependencies(
    tmp_path: Path, runtime_lock: Path
) -> None:
    app = _wheel(tmp_path, "app-1.0-py3-none-any.whl", requires=(
        "helper>=2", "desktop-only; sys_platform != 'emscripten'",
        "old-backport; python_version < '3.11'",
        "extra-thing; extra == 'fast'", "browser-shim; sys_platform == 'emscripten'",
    ), files=("app/__init__.py", "app_cli.py"))  # fmt: skip
    helper = _wheel(tmp_path, "helper-2.1-py3-none-any.whl")
    shim = _wheel(tmp_path, "browser_shim-0.1-cp314-cp314-pyemscripten_2026_0_wasm32.whl")
    lock = pyodide_lock.pin(runtime_lock, [app, helper, shim])
    assert lock["info"] == INFO
    assert sorted(lock["packages"]) == ["app", "browser-shim", "helper"]  # not the npm entries
    entry = lock["packages"]["app"]
    assert entry["depends"] == ["browser-shim", "helper"]
    assert entry["imports"] == ["app", "app_cli"]
    assert entry["sha256"] == hashlib.sha256(app.read_bytes()).hexdigest()
    assert entry["file_name"] == "../../static/pyodide-lock/app-1.0-py3-none-any.whl"
    assert (entry["name"], entry["version"], entry["install_dir"]) == ("app", "1.0", "site")


def test_a_dependency_without_a_wheel_is_refused(tmp_path: Path, runtime_lock: Path) -> None:
    app = _wheel(tmp_path, "app-1.0-py3-none-any.whl", requires=("helper",))
    with pytest.raises(LockError, match="app needs helper"):
        pyodide_lock.pin(runtime_lock, [app])


def test_a_wheel_for_another_runtime_is_refused(tmp_path: Path, runtime_lock: Path) -> None:
    for name in ("fast-1.0-cp313-cp313-pyodide_2025_0_wasm32.whl",
                 "fast-1.0-cp314-cp314-manylinux_2_17_x86_64.whl"):  # fmt: skip
        with pytest.raises(LockError, match="not built for this Pyodide"):
            pyodide_lock.pin(runtime_lock, [_wheel(tmp_path, name)])


def test_two_wheels_of_one_name_are_refused(tmp_path: Path, runtime_lock: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = _wheel(tmp_path / "a", "helper-1.0-py3-none-any.whl")
    second = _wheel(tmp_path / "b", "helper-2.0-py3-none-any.whl")
    with pytest.raises(LockError, match="two wheels for helper"):
        pyodide_lock.pin(runtime_lock, [first, second])


def test_the_platform_tag_comes_from_the_runtime(runtime_lock: Path) -> None:
    assert pyodide_lock.platform_tag(runtime_lock) == "pyemscripten_2026_0_wasm32"
