"""The learner image's requirements (deploy/z2jh/binder/) resolve, and carry no teacher's tools.

repo2docker builds the learner image from a copy of the learner distribution with
``deploy/z2jh/binder/`` in it: with a ``binder/`` folder it reads the configuration there and
ignores the distribution's top-level ``environment.yml`` (the whole development environment),
and it runs ``pip install -r binder/requirements.txt`` from the copy's top folder, so ``.`` is
the distribution. No Docker here: the test builds the distribution, adds ``binder/`` as the
teacher's guide says, and has pip resolve the file from there against PyPI
(``pip install --dry-run --ignore-installed --report``, about 20 s; nothing is installed).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from packaging.utils import canonicalize_name
from packaging.version import Version

from scripts.classroom import build_distribution

# It asks PyPI: out of the fast path, which must pass offline.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
BINDER = ROOT / "deploy" / "z2jh" / "binder"
# The teacher's and the developers' tools of pyproject's dev extra: none belongs in the image.
TEACHERS_TOOLS = {
    "nbgrader", "mypy", "ruff", "playwright", "nbval", "pytest-xdist", "hypothesis",
    "hypothesis-jsonschema", "regress", "types-polib", "landlock", "jupyterlab-rise",
}  # fmt: skip
# What a learner's server needs (pyproject's learner extra and the package itself).
LEARNERS_NEEDS = {
    "agentcore", "jupyterlab", "jupyterlab-language-pack-zh-cn", "jupyterhub", "nbgitpuller",
    "ipywidgets", "ipykernel", "jupyterquiz", "openai", "pydantic", "polib", "pytest",
}  # fmt: skip


def test_the_learner_requirements_resolve_without_the_teachers_tools(tmp_path: Path) -> None:
    image = tmp_path / "agentcore-course-learners"
    build_distribution(image)
    assert (image / "environment.yml").exists()  # what binder/ makes repo2docker ignore
    shutil.copytree(BINDER, image / "binder")
    report = tmp_path / "report.json"
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed", "--quiet",
         "--report", str(report), "-r", "binder/requirements.txt"],
        cwd=image, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    installed = {
        canonicalize_name(item["metadata"]["name"]): item
        for item in json.loads(report.read_text(encoding="utf-8"))["install"]
    }
    assert LEARNERS_NEEDS - set(installed) == set()
    assert TEACHERS_TOOLS & set(installed) == set()
    # The package is the distribution's copy, with its learner extra.
    package = installed["agentcore"]
    assert package["download_info"]["url"] == image.as_uri()
    assert package["requested_extras"] == ["learner"]
    # The single-user server keeps to the chart's hub release (JupyterHub 5).
    assert Version(installed["jupyterhub"]["metadata"]["version"]).major == 5
    # repo2docker reads the Python version from runtime.txt (python-X.Y), within the package's.
    assert (BINDER / "runtime.txt").read_text(encoding="utf-8").strip() == "python-3.12"
