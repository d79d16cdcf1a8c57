"""A local JupyterHub for a class, as tests/classroom and benchmarks/capacity.py run it.

The hub is set up as a teacher would set up a small one on a single machine:
configurable-http-proxy (from npm) in front, the shared-password authenticator (one class
password; learners choose their names) and SimpleLocalProcessSpawner, one home folder per
learner. Everything lives in one folder (config, database, cookie secret, homes, logs) and the
hub listens on 127.0.0.1 only. SimpleLocalProcessSpawner gives learners no isolation from each
other (JupyterHub says so): this is for a trusted room or a test, not for the internet; use Zero
to JupyterHub for that.

``local_hub(folder)`` starts it and, when the ``with`` block ends, stops the hub and every
process it started (proxy, single-user servers, kernels), whatever happened. The helpers talk to
it as a teacher's script would: the hub's REST API with an admin service token, and a learner's
own server (sessions, kernels, nbgitpuller) through the hub's proxy.

Errors: ``RuntimeError`` when the hub does not start (with its log); ``TimeoutError`` when a
server or a kernel does not answer in time; requests' and tornado's errors pass through.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Coroutine, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import requests

ROOT = Path(__file__).resolve().parent.parent
LOCAL_PROXY = ROOT / ".classroom" / "npm" / "node_modules" / ".bin" / "configurable-http-proxy"
SERVICE = "classroom-admin"
T = TypeVar("T")

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
        "scopes": ["admin:users", "admin:servers", "admin:server_state", "access:servers",
                   "list:users"],
        "services": [{service!r}],
    }}
]
"""


def proxy_command() -> str | None:
    """configurable-http-proxy: $AGENTCORE_CHP, the git-ignored local npm folder, or PATH."""
    for candidate in (os.environ.get("AGENTCORE_CHP"), str(LOCAL_PROXY)):
        if candidate and Path(candidate).exists():
            return candidate
    return shutil.which("configurable-http-proxy")


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Hub:
    """A running hub: public URL, class password, admin token, homes, log, process."""

    url: str
    password: str
    token: str
    homes: Path
    log: Path
    process: subprocess.Popen[bytes]
    started: list[int] = field(default_factory=list)

    def home(self, learner: str) -> Path:
        """The learner's home folder."""
        return self.homes / learner

    def api(self, method: str, path: str, **kwargs: Any) -> requests.Response:
        """A call to the hub or a learner's server (``/user/NAME/...``) with the admin token."""
        headers = {"Authorization": f"token {self.token}"}
        return requests.request(method, f"{self.url}{path}", headers=headers, timeout=60, **kwargs)


def write_config(base: Path, password: str, token: str) -> tuple[Path, int]:
    """Write ``jupyterhub_config.py`` in ``base``; return it and the hub's public port."""
    proxy = proxy_command()
    if proxy is None:
        raise RuntimeError("configurable-http-proxy not found")
    port = free_port()
    settings = base / "settings" / "@jupyterlab"
    for extension, name, value in (
        # No "get notified about Jupyter news?" toast for the learners.
        ("apputils-extension", "notification", '{"fetchNews": "false"}'),
        # Every cell rendered, not only those in view: widgets keep their views when scrolled.
        ("notebook-extension", "tracker", '{"windowingMode": "none"}'),
    ):
        (settings / extension).mkdir(parents=True, exist_ok=True)
        (settings / extension / f"{name}.jupyterlab-settings").write_text(value)
    config = base / "jupyterhub_config.py"
    config.write_text(
        CONFIG.format(
            port=port,
            hub_port=free_port(),
            proxy_api_port=free_port(),
            proxy=proxy,
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


def descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (empty when it has gone)."""
    import psutil

    try:
        return [child.pid for child in psutil.Process(pid).children(recursive=True)]
    except psutil.NoSuchProcess:
        return []


def stop_processes(pids: Sequence[int]) -> None:
    """SIGTERM each process still alive, then SIGKILL those alive 10 s later."""
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


@contextmanager
def local_hub(base: Path) -> Iterator[Hub]:
    """Start JupyterHub with its proxy in ``base``; stop it and all it started on exit."""
    (base / "homes").mkdir(parents=True, exist_ok=True)
    password, token = secrets.token_urlsafe(12), secrets.token_hex(32)
    config, port = write_config(base, password, token)
    log_path = base / "jupyterhub.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "jupyterhub", "-f", str(config)],
            cwd=base,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        hub = Hub(f"http://127.0.0.1:{port}", password, token, base / "homes", log_path, process)
        try:
            deadline = time.monotonic() + 90
            while True:
                try:
                    if requests.get(f"{hub.url}/hub/api/", timeout=2).status_code == 200:
                        break
                except requests.RequestException:
                    pass
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"JupyterHub did not start:\n{log_path.read_text()}")
                time.sleep(0.5)
            yield hub
        finally:
            # The proxy, the single-user servers (in sessions of their own) and their kernels
            # are all below the hub: note them, stop the hub (it stops its servers), then
            # stop whatever is left.
            started = descendants(process.pid) + hub.started
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            stop_processes(started)


def log_in(hub: Hub, learner: str) -> requests.Session:
    """Log in through the hub's login form with the class password; return the session."""
    session = requests.Session()
    session.get(f"{hub.url}/hub/login", timeout=30).raise_for_status()
    response = session.post(
        f"{hub.url}/hub/login",
        data={"username": learner, "password": hub.password, "_xsrf": session.cookies["_xsrf"]},
        allow_redirects=False,
        timeout=30,
    )
    if response.status_code != 302:
        raise RuntimeError(f"login refused for {learner}: {response.status_code}")
    return session


def start_servers(hub: Hub, learners: Sequence[str], timeout: float = 150) -> None:
    """Start every learner's server through the hub's API; return when all are ready."""
    for learner in learners:
        response = hub.api("POST", f"/hub/api/users/{learner}/server")
        if response.status_code not in (201, 202):
            raise RuntimeError(f"{learner}'s server did not start: {response.text}")
    deadline = time.monotonic() + timeout
    waiting = set(learners)
    while waiting:
        for learner in sorted(waiting):
            servers = hub.api("GET", f"/hub/api/users/{learner}").json().get("servers", {})
            if servers.get("", {}).get("ready"):
                waiting.discard(learner)
        if waiting and time.monotonic() > deadline:
            raise TimeoutError(f"servers not ready: {sorted(waiting)}")
        time.sleep(0.5)


def server_pid(hub: Hub, learner: str) -> int:
    """The process id of a learner's single-user server (from the hub's API)."""
    user = hub.api("GET", f"/hub/api/users/{learner}").json()
    state = user["servers"][""].get("state") or {}
    if "pid" in state:
        return int(state["pid"])
    raise RuntimeError(f"the hub reports no pid for {learner}'s server")


async def run_in_kernel(
    hub: Hub, learner: str, notebook_path: str, codes: Sequence[str], keep: bool = False
) -> dict[str, Any]:
    """Run code cells in a new kernel of the learner's own server, as JupyterLab would.

    ``notebook_path`` is relative to the learner's home; the kernel starts in its folder (a
    session, as when the learner opens the notebook). Returns ``texts`` (each cell's printed and
    displayed text), ``errors`` (``"Name: value"`` per failing cell) and ``kernel`` (its id).
    The kernel is shut down afterwards unless ``keep``.
    """
    from tornado.httpclient import HTTPRequest
    from tornado.websocket import websocket_connect

    created = await asyncio.to_thread(
        hub.api,
        "POST",
        f"/user/{learner}/api/sessions",
        json={
            "path": notebook_path,
            "name": Path(notebook_path).name,
            "type": "notebook",
            "kernel": {"name": "python3"},
        },
    )
    if created.status_code != 201:
        raise RuntimeError(f"no session for {learner}: {created.text}")
    kernel = created.json()["kernel"]["id"]
    session_id = uuid.uuid4().hex
    ws_url = hub.url.replace("http", "ws", 1)
    connection = await websocket_connect(
        HTTPRequest(
            f"{ws_url}/user/{learner}/api/kernels/{kernel}/channels?session_id={session_id}",
            headers={"Authorization": f"token {hub.token}"},
        )
    )
    texts: list[str] = []
    errors: list[str] = []
    try:
        for code in codes:
            msg_id = uuid.uuid4().hex
            request = {
                "header": {"msg_id": msg_id, "msg_type": "execute_request", "session": session_id,
                           "username": learner, "version": "5.3"},
                "parent_header": {},
                "metadata": {},
                "content": {"code": code, "silent": False, "store_history": True,
                            "user_expressions": {}, "allow_stdin": False, "stop_on_error": True},
                "channel": "shell",
                "buffers": [],
            }  # fmt: skip
            await connection.write_message(json.dumps(request))
            cell: list[str] = []
            idle = replied = False
            while not (idle and replied):
                raw = await asyncio.wait_for(connection.read_message(), timeout=120)
                if raw is None:
                    raise RuntimeError(f"{learner}'s kernel connection closed")
                message = json.loads(raw)
                if message.get("parent_header", {}).get("msg_id") != msg_id:
                    continue
                kind, content = message["msg_type"], message["content"]
                if kind == "stream":
                    cell.append(content["text"])
                elif kind in ("execute_result", "display_data"):
                    cell.append(content["data"].get("text/plain", ""))
                elif kind == "error":
                    errors.append(f"{content['ename']}: {content['evalue']}")
                elif kind == "status" and content["execution_state"] == "idle":
                    idle = True
                elif kind == "execute_reply":
                    replied = True
            texts.append("".join(cell))
    finally:
        connection.close()
        if not keep:
            await asyncio.to_thread(hub.api, "DELETE", f"/user/{learner}/api/kernels/{kernel}")
    return {"texts": texts, "errors": errors, "kernel": kernel}


def run_sync(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to its end in a thread of its own, with its own event loop.

    The caller's thread may already have a loop (Playwright's sync API keeps one), where
    ``asyncio.run`` would refuse to start.
    """
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def code_cells(path: Path) -> list[str]:
    """The sources of a notebook's code cells, in order."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    return [
        "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        for cell in notebook["cells"]
        if cell["cell_type"] == "code"
    ]
