"""Fixtures for the classroom suite: a whole class on one JupyterHub on 127.0.0.1.

The hub is ``scripts.hub.local_hub``: configurable-http-proxy from npm in front, the
shared-password authenticator, SimpleLocalProcessSpawner with one home folder per learner, all
in a temporary folder; the hub, the proxy and every server and kernel it started are stopped
when the module ends, whatever happened.

Where the proxy, JupyterHub or nbgitpuller is missing, the suite is skipped with the reason
(install the ``classroom`` extra, and ``npm install --prefix .classroom/npm
configurable-http-proxy``), unless ``AGENTCORE_REQUIRE_CLASSROOM=1`` is set (CI sets it): then
it fails.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
from collections.abc import Iterator

import pytest

from scripts.hub import Hub, local_hub, proxy_command


def missing_classroom() -> str | None:
    """Why the classroom suite cannot run here, or None."""
    for module in ("jupyterhub", "nbgitpuller", "psutil"):
        if importlib.util.find_spec(module) is None:
            return f"{module} is not installed (pip install -e '.[classroom]')"
    if proxy_command() is None:
        return (
            "configurable-http-proxy not found "
            "(npm install --prefix .classroom/npm configurable-http-proxy)"
        )
    if shutil.which("git") is None:
        return "git is not installed"
    return None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the suite ``classroom``; skip it with the reason, or fail where CI requires it."""
    ours = [item for item in items if "tests/classroom" in item.nodeid]
    for item in ours:
        item.add_marker(pytest.mark.classroom)
    reason = missing_classroom()
    if reason is None or not ours:
        return
    if os.environ.get("AGENTCORE_REQUIRE_CLASSROOM") == "1":
        raise pytest.UsageError(f"classroom tests required but {reason}")
    for item in ours:
        item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hub]:
    """A running hub for the module; stopped with everything it started at the end."""
    with local_hub(tmp_path_factory.mktemp("hub")) as running:
        yield running
