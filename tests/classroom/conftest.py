"""Fixtures for the classroom suite: a whole class on one JupyterHub on 127.0.0.1.

The hub runs as a teacher would run a small one: configurable-http-proxy from npm in front,
the shared-password authenticator (one class password, learners pick their names), and
SimpleLocalProcessSpawner with one home folder per learner (temporary folders here). Everything
lives in a temporary folder (database, cookie secret, homes); the hub, the proxy and every
single-user server and kernel it started are stopped when the module ends, whatever happened.

Where the proxy, JupyterHub or nbgitpuller is missing, the suite is skipped with the reason
(install the ``classroom`` extra, and ``npm install --prefix .classroom/npm
configurable-http-proxy``), unless ``AGENTCORE_REQUIRE_CLASSROOM=1`` is set (CI sets it): then
it fails.
"""

from __future__ import annotations

import importlib.util
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LOCAL_PROXY = ROOT / ".classroom" / "npm" / "node_modules" / ".bin" / "configurable-http-proxy"
SERVICE = "classroom-test"


def proxy_command() -> str | None:
    """configurable-http-proxy: $AGENTCORE_CHP, the git-ignored local npm folder, or PATH."""
    for candidate in (os.environ.get("AGENTCORE_CHP"), str(LOCAL_PROXY)):
        if candidate and Path(candidate).exists():
            return candidate
    return shutil.which("configurable-http-proxy")


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


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Hub:
    """A running JupyterHub: its public URL, an admin service token, the learners' homes."""

    url: str
    token: str
    password: str
    homes: Path
    log: Path
    process: subprocess.Popen[bytes]
    started: list[int] = field(default_factory=list)

    def home(self, learner: str) -> Path:
        return self.homes / learner


CONFIG = """\
import sys
c = get_config()  # noqa: F821
c.JupyterHub.ip = "127.0.0.1"
c.JupyterHub.port = {port}
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = {hub_port}
c.ConfigurableHTTPProxy.command = [{proxy!r}]
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{proxy_api_port}"
c.ConfigurableHTTPProxy.pid_file = {pid_file!r}
c.JupyterHub.db_url = "sqlite:///{base}/jupyterhub.sqlite"
c.JupyterHub.cookie_secret_file = {cookie_secret!r}
c.JupyterHub.authenticator_class = "shared-password"
c.SharedPasswordAuthenticator.user_password = {password!r}
c.Authenticator.allow_all = True
c.JupyterHub.spawner_class = "simple"
c.SimpleLocalProcessSpawner.home_dir_template = {homes!r} + "/{{username}}"
c.Spawner.cmd = [sys.executable, "-m", "jupyterhub.singleuser"]
c.Spawner.args = ["--ServerApp.allow_root=True", "--LabApp.expose_app_in_browser=True"]
c.Spawner.default_url = "/lab"
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120
c.Spawner.environment = {{
    "JUPYTERLAB_SETTINGS_DIR": {settings!r},
    "JUPYTERLAB_WORKSPACES_DIR": {workspaces!r} + "/{{username}}",
}}
c.JupyterHub.services = [{{"name": {service!r}, "api_token": {token!r}}}]
c.JupyterHub.load_roles = [
    {{
        "name": {service!r},
        "scopes": ["admin:users", "admin:servers", "access:servers", "list:users"],
        "services": [{service!r}],
    }}
]
"""


def write_config(base: Path, password: str, token: str) -> tuple[Path, int]:
    """The hub's config file in ``base``, and the public port it listens on."""
    port = free_port()
    settings = base / "settings" / "@jupyterlab"
    (settings / "apputils-extension").mkdir(parents=True)
    (settings / "apputils-extension" / "notification.jupyterlab-settings").write_text(
        '{"fetchNews": "false"}'
    )
    config = base / "jupyterhub_config.py"
    config.write_text(
        CONFIG.format(
            port=port,
            hub_port=free_port(),
            proxy_api_port=free_port(),
            proxy=proxy_command(),
            pid_file=str(base / "proxy.pid"),
            base=base,
            cookie_secret=str(base / "cookie_secret"),
            password=password,
            homes=str(base / "homes"),
            settings=str(base / "settings"),
            workspaces=str(base / "workspaces"),
            service=SERVICE,
            token=token,
        )
    )
    return config, port


def _descendants(pid: int) -> list[int]:
    import psutil

    try:
        return [child.pid for child in psutil.Process(pid).children(recursive=True)]
    except psutil.NoSuchProcess:
        return []


def _stop(pids: list[int]) -> None:
    """SIGTERM, then SIGKILL after a grace period, for each process still alive."""
    import psutil

    alive = []
    for pid in pids:
        try:
            process = psutil.Process(pid)
            process.send_signal(signal.SIGTERM)
            alive.append(process)
        except psutil.NoSuchProcess:
            continue
    _, still = psutil.wait_procs(alive, timeout=10)
    for process in still:
        try:
            process.kill()
        except psutil.NoSuchProcess:
            continue


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Hub]:
    """Start JupyterHub (and its proxy) on loopback; stop it and all it started at the end."""
    import requests

    base = tmp_path_factory.mktemp("hub")
    (base / "homes").mkdir()
    password, token = secrets.token_urlsafe(12), secrets.token_hex(32)
    config, port = write_config(base, password, token)
    log_path = base / "jupyterhub.log"
    log = log_path.open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "jupyterhub", "-f", str(config)],
        cwd=base,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    running = Hub(url, token, password, base / "homes", log_path, process)
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                if requests.get(f"{url}/hub/api/", timeout=2).status_code == 200:
                    break
            except requests.RequestException:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"JupyterHub did not start:\n{log_path.read_text()}")
            time.sleep(0.5)
        yield running
    finally:
        # Everything the hub started: the proxy, single-user servers (their own sessions) and
        # their kernels. Stop the hub first (it stops its servers), then whatever is left.
        started = _descendants(process.pid) + running.started
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
        _stop(started)
        log.close()
