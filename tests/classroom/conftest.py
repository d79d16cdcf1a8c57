"""Fixtures for the classroom suite: a whole class on one JupyterHub on 127.0.0.1.

The class is what ``python -m scripts.classroom serve`` makes (``scripts.serve.prepare_class``
and ``scripts.hub.running_hub``): a class folder under /var/tmp (its parents must be open to
the learners' accounts, which pytest's own temporary folder is not), the learner environment,
one system account per learner and the teacher, the PAM login, LocalProcessSpawner. When the
module ends, whatever happened, the hub and every process it started are stopped and
``scripts.serve.remove_class`` deletes every account it made and the whole folder (and the
class folder this checkout remembers is put back as it was).

Where the proxy, JupyterHub or nbgitpuller is missing, the suite is skipped with the reason
(install the ``classroom`` extra, and ``npm install --prefix .classroom/npm
configurable-http-proxy``), unless ``AGENTCORE_REQUIRE_CLASSROOM=1`` is set (CI sets it): then
it fails.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import pytest

from scripts.classroom import REMEMBERED
from scripts.hub import ClassFolder, Hub, Settings, free_port, proxy_command, running_hub
from scripts.serve import prepare_class, remove_class

# Three learners of the class test and a fourth for the capacity measurement.
LEARNERS = ("ada", "grace", "linus", "margaret")
TEACHER = "classtest-teacher"


def missing_classroom() -> str | None:
    """Why the classroom suite cannot run here, or None."""
    for module in ("jupyterhub", "nbgitpuller", "psutil", "trustme"):
        if importlib.util.find_spec(module) is None:
            return f"{module} is not installed (pip install -e '.[classroom]')"
    if proxy_command() is None:
        return (
            "configurable-http-proxy not found "
            "(npm install --prefix .classroom/npm configurable-http-proxy)"
        )
    if shutil.which("git") is None:
        return "git is not installed"
    if os.geteuid() != 0 or shutil.which("useradd") is None:
        return "a class hub makes system accounts: run as root, with useradd (passwd package)"
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


class Classroom:
    """The module's class: its folder and settings, and the hub while it runs."""

    def __init__(self, folder: ClassFolder, settings: Settings) -> None:
        self.folder = folder
        self.settings = settings
        self.logins = prepare_class(folder, settings)
        self._stack = ExitStack()
        self.hub: Hub = self._stack.enter_context(running_hub(folder, settings))

    def stop(self) -> None:
        """Stop the hub and all it started (the accounts and homes stay)."""
        self._stack.close()

    def start(self) -> Hub:
        """Start the hub again on the same folder (a restart)."""
        self._stack = ExitStack()
        self.hub = self._stack.enter_context(running_hub(self.folder, self.settings))
        return self.hub


@pytest.fixture(scope="module")
def classroom() -> Iterator[Classroom]:
    """The module's class of LEARNERS; everything it made is removed at the end, and the class
    folder this checkout remembers (``serve`` remembers its own) is what it was before."""
    remembered = REMEMBERED.read_bytes() if REMEMBERED.is_file() else None
    root = Path(tempfile.mkdtemp(prefix="agentcore-class-test-", dir="/var/tmp"))
    folder = ClassFolder(root)
    room: Classroom | None = None
    try:
        room = Classroom(folder, Settings(LEARNERS, TEACHER, port=free_port()))
        yield room
    finally:
        if room is not None:
            room.stop()
        remove_class(folder)
        if remembered is None:
            REMEMBERED.unlink(missing_ok=True)
        else:
            REMEMBERED.write_bytes(remembered)


@pytest.fixture(scope="module")
def hub(classroom: Classroom) -> Hub:
    """The class's running hub."""
    return classroom.hub
