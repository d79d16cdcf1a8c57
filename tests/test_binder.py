"""Binder, checked statically: environment.yml follows repo2docker and matches pyproject.

No Docker and no conda channel are reachable here, so nothing is built. What is checked is what
makes a Binder or repo2docker build of this repository give a learner the same environment as
``pip install -e ".[dev]"``:

- conda-forge is the only channel;
- Python is pinned in the one form repo2docker reads (``python=X.Y``), inside requires-python;
- the package itself is installed through the pip section as ``.``: with an environment.yml,
  repo2docker does not install pyproject.toml's package on its own (jupyterhub/repo2docker#1265),
  and an editable ``-e .`` points into the home folder, which a hub's persistent home hides;
- every requirement of pyproject's ``dev`` extra (and the runtime's own) is in environment.yml,
  as a conda package or a pip line, with bounds that admit no version pyproject refuses. The list
  is read from pyproject.toml each time, so packages other branches add to ``dev`` are checked
  too.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import Version

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    tomllib = pytest.importorskip("tomli")

ROOT = Path(__file__).resolve().parents[1]
# repo2docker's own pattern for the Python version (repo2docker/buildpacks/conda/__init__.py).
REPO2DOCKER_PYTHON = re.compile(r"python\s*=+\s*([\d\.]*)")
CONDA_SPEC = re.compile(r"^\s*([A-Za-z0-9_.\-]+)\s*(.*)$")


def pyproject() -> dict[str, Any]:
    with (ROOT / "pyproject.toml").open("rb") as file:
        return tomllib.load(file)


def environment() -> dict[str, Any]:
    return yaml.safe_load((ROOT / "environment.yml").read_text(encoding="utf-8"))


def conda_packages() -> dict[str, SpecifierSet]:
    """The conda dependencies of environment.yml: canonical name -> bounds."""
    packages: dict[str, SpecifierSet] = {}
    for entry in environment()["dependencies"]:
        if isinstance(entry, str):
            match = CONDA_SPEC.match(entry)
            assert match, f"cannot read the conda dependency {entry!r}"
            name, spec = match.groups()
            spec = spec.replace(" ", "")
            if re.fullmatch(r"=[\d.]+", spec):  # conda's "=3.12" is pip's "==3.12.*"
                spec = f"={spec}.*"
            packages[canonicalize_name(name)] = SpecifierSet(spec)
    return packages


def pip_lines() -> list[str]:
    for entry in environment()["dependencies"]:
        if isinstance(entry, dict) and "pip" in entry:
            return [str(line) for line in entry["pip"]]
    return []


def pip_packages() -> dict[str, SpecifierSet]:
    """The named requirements of the pip section: canonical name -> bounds."""
    packages: dict[str, SpecifierSet] = {}
    for line in pip_lines():
        if line.startswith(("-", ".")):
            continue
        requirement = Requirement(line)
        packages[canonicalize_name(requirement.name)] = requirement.specifier
    return packages


def required() -> list[Requirement]:
    """The runtime dependencies and the dev extra, without self-references like agentcore[dev]."""
    project = pyproject()["project"]
    lines = [*project["dependencies"], *project["optional-dependencies"]["dev"]]
    return [
        requirement
        for requirement in map(Requirement, lines)
        if canonicalize_name(requirement.name) != canonicalize_name(project["name"])
    ]


def bounds(specifiers: SpecifierSet) -> tuple[Version | None, Version | None]:
    """The lowest and the highest version a set of specifiers names (None where it names none)."""
    lower: Version | None = None
    upper: Version | None = None
    for spec in specifiers:
        version = Version(spec.version.replace(".*", ""))
        if spec.operator in (">=", ">", "==", "~=") and (lower is None or version > lower):
            lower = version
        if spec.operator in ("<", "<=", "==") and (upper is None or version < upper):
            upper = version
    return lower, upper


def test_conda_forge_is_the_only_channel() -> None:
    assert environment()["channels"] == ["conda-forge"]


def test_python_is_pinned_the_way_repo2docker_reads_it() -> None:
    pins = [
        entry
        for entry in environment()["dependencies"]
        if isinstance(entry, str) and entry.replace(" ", "").startswith("python")
        and not entry.startswith("python-")
    ]  # fmt: skip
    assert len(pins) == 1, pins
    match = REPO2DOCKER_PYTHON.match(pins[0])
    assert match and match.group(1), (
        f"repo2docker only reads 'python=X.Y'; {pins[0]!r} would give it its default Python"
    )
    requires_python = SpecifierSet(pyproject()["project"]["requires-python"])
    assert Version(match.group(1)) in requires_python


def test_the_package_is_installed_through_pip_and_not_editable() -> None:
    lines = pip_lines()
    assert "." in lines, "the pip section must install this repository's package: '- .'"
    assert not any(line.replace(" ", "") in ("-e.", "--editable=.") for line in lines), (
        "an editable install points into the home folder, which a hub's persistent home hides"
    )


@pytest.mark.parametrize("requirement", required(), ids=lambda requirement: requirement.name)
def test_every_dev_requirement_is_in_environment_yml_with_compatible_bounds(
    requirement: Requirement,
) -> None:
    name = canonicalize_name(requirement.name)
    found = {**pip_packages(), **conda_packages()}
    wanted = f"  - {requirement.name}{requirement.specifier}"
    assert name in found, (
        f"{requirement} is in pyproject but not in environment.yml: add {wanted!r}"
    )
    want_lower, want_upper = bounds(requirement.specifier)
    have_lower, have_upper = bounds(found[name])
    if want_lower is not None:
        assert have_lower is not None and have_lower >= want_lower, (
            f"environment.yml admits {requirement.name} below {want_lower}: write {wanted!r}"
        )
    if want_upper is not None:
        assert have_upper is not None and have_upper <= want_upper, (
            f"environment.yml admits {requirement.name} from {want_upper} on: write {wanted!r}"
        )
    admits_one = have_lower is not None and found[name].contains(have_lower)  # an exact pin
    assert have_lower is None or have_upper is None or have_lower < have_upper or admits_one, (
        f"environment.yml's bounds for {requirement.name} admit no version"
    )
