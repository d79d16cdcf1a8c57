"""A JupyterHub for a class on this machine: what ``python -m scripts.classroom serve`` runs.

The hub is set up as JupyterHub's documentation sets up a small one on a single machine:

- configurable-http-proxy (from npm) in front, on ``--ip``/``--port`` (127.0.0.1:8000 by
  default; HTTPS with the teacher's certificate and key, which any other address requires);
- JupyterHub's default ``PAMAuthenticator``: every learner and the teacher is a system account
  of their own with a password of their own (``scripts.accounts``), and ``allowed_users`` is the
  roster, so nobody else logs in; the teacher is the one admin;
- ``LocalProcessSpawner``: each server runs as its learner's own user, in their own home (mode
  0700), with JupyterLab's settings and workspaces in that home (JupyterLab's defaults); the
  class's settings defaults sit in the learner environment's ``overrides.json``;
- the servers run the **learner environment**, a virtual environment that installs the learner
  distribution (``scripts.classroom.build_distribution``), not the teacher's checkout: a learner
  kernel imports that copy of ``agentcore`` and nothing of the teacher's files;
- idle servers are culled by ``jupyterhub-idle-culler`` (after an hour) and idle kernels by the
  server (after 30 minutes), so a room that has gone home frees its memory.

Everything lives in one class folder (:class:`ClassFolder`); a restart with the same folder
keeps the accounts, their passwords and the learners' work. ``running_hub(...)`` starts the hub
and, when the ``with`` block ends, stops the hub and every process it started (proxy, culler,
servers, kernels), whatever happened.

Errors: ``PortBusy`` when the public port is taken; ``RuntimeError`` when the hub does not start
(with its log) or the learner environment cannot be installed; ``TimeoutError`` when a server or
a kernel does not answer in time; requests' and tornado's errors pass through.
"""

from __future__ import annotations

import asyncio
import contextlib
import csv
import ipaddress
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
import warnings
from collections.abc import Coroutine, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import quote, urlencode

import requests
from urllib3.exceptions import InsecureRequestWarning

ROOT = Path(__file__).resolve().parent.parent
LOCAL_PROXY = ROOT / ".classroom" / "npm" / "node_modules" / ".bin" / "configurable-http-proxy"
SERVICE = "classroom-admin"
DISTRIBUTION = "agentcore-course-learners"  # the folder name nbgitpuller gives each learner
FIRST_LESSON = "notebooks/{language}/00-fixed-script.ipynb"
# What a learner's server needs besides the package: pyproject.toml's `learner` extra.
LEARNER_EXTRA = "learner"
# The class's defaults for every learner's JupyterLab (each learner may change theirs).
LAB_OVERRIDES = {
    # No "get notified about Jupyter news?" toast for the learners.
    "@jupyterlab/apputils-extension:notification": {"fetchNews": "false"},
    # Every cell rendered, not only those in view: widgets keep their views when scrolled.
    "@jupyterlab/notebook-extension:tracker": {"windowingMode": "none"},
}
IDLE_SERVER_SECONDS = 3600
IDLE_KERNEL_SECONDS = 1800
T = TypeVar("T")


class PortBusy(RuntimeError):
    """The hub's public address is already taken (another hub, or another program)."""


@dataclass(frozen=True)
class ClassFolder:
    """Where a class lives: ``hub/`` (teacher only), ``homes/``, the learner environment and
    the learner distribution, both readable by learners."""

    root: Path

    @property
    def hub(self) -> Path:
        """Config, database, cookie secret, admin token, logins.csv, log: mode 0700."""
        return self.root / "hub"

    @property
    def homes(self) -> Path:
        """One home per account, each mode 0700 and owned by its account."""
        return self.root / "homes"

    @property
    def environment(self) -> Path:
        """The learner environment (a virtual environment)."""
        return self.root / "learner-env"

    @property
    def distribution(self) -> Path:
        """The learner distribution, the git repository the learners pull."""
        return self.root / DISTRIBUTION

    @property
    def logins(self) -> Path:
        """The teacher-only list of accounts and first passwords."""
        return self.hub / "logins.csv"

    def prepare(self) -> None:
        """Make the folders with their modes (the root 0755 so learners reach their homes)."""
        self.root.mkdir(parents=True, exist_ok=True)
        self.root.chmod(0o755)
        self.hub.mkdir(exist_ok=True)
        self.hub.chmod(0o700)
        self.homes.mkdir(exist_ok=True)
        self.homes.chmod(0o755)

    def passwords(self) -> dict[str, str]:
        """Each account's first password, from ``logins.csv`` (empty when there is none)."""
        if not self.logins.exists():
            return {}
        with self.logins.open(encoding="utf-8", newline="") as handle:
            return {row["name"]: row["password"] for row in csv.DictReader(handle)}

    def secret(self, name: str) -> str:
        """A random secret kept in ``hub/NAME`` (mode 0600), made once and reused."""
        path = self.hub / name
        if not path.exists():
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with open(descriptor, "w", encoding="utf-8") as handle:
                handle.write(secrets.token_hex(32))
        return path.read_text(encoding="utf-8").strip()


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


def check_port(ip: str, port: int) -> None:
    """Raise ``PortBusy`` when ``ip:port`` cannot be listened on, saying what to do."""
    with socket.socket() as probe:
        # As the proxy does: connections of a hub just stopped (TIME_WAIT) do not count.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((ip, port))
        except OSError as error:
            raise PortBusy(
                f"{ip}:{port} is already in use ({error.strerror}): is a class already being "
                "served? Stop it with Ctrl-C, or choose another --port"
            ) from error


def is_loopback(ip: str) -> bool:
    """Whether ``ip`` is a loopback address (only this machine can reach it)."""
    try:
        return ipaddress.ip_address(ip).is_loopback
    except ValueError:
        return ip == "localhost"


def reachable_by_others(path: Path) -> bool:
    """Whether an account other than the owner can reach ``path`` (every folder above it x)."""
    resolved = path.resolve()
    return resolved.exists() and all(os.stat(parent).st_mode & 0o001 for parent in resolved.parents)


def learner_python() -> str:
    """A Python interpreter the learners' accounts can run, for the learner environment.

    This interpreter's own base Python if every folder above it is open to others (a system
    Python), else the first ``python3`` on the system path that is; ``RuntimeError`` if none.
    A Python under the teacher's home (pyenv, conda) is usually closed to other accounts.
    """
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    candidates = [Path(sys.base_prefix) / "bin" / version]
    for name in (version, "python3"):
        found = shutil.which(name, path="/usr/local/bin:/usr/bin:/bin")
        if found:
            candidates.append(Path(found))
    for candidate in candidates:
        if reachable_by_others(candidate) and reachable_by_others(
            candidate.resolve().parent.parent / "lib"
        ):
            return str(candidate)
    raise RuntimeError(
        "no Python that the learners' accounts can run: install one outside your home "
        "(apt-get install python3-venv)"
    )


def learner_environment(folder: ClassFolder, commit: str) -> Path:
    """Install (or update to ``commit``) the learner distribution in the learner environment.

    The environment is a virtual environment in ``folder.environment`` with the distribution
    installed as a copy (``pip install DIST[learner]``, not editable) and the class's JupyterLab
    defaults in its ``share/jupyter/lab/settings/overrides.json``. It is installed once; a newer
    distribution commit reinstalls only the package. Returns the environment's ``bin`` folder.
    Raises ``RuntimeError`` with pip's output when pip fails.
    """
    environment = folder.environment
    python = environment / "bin" / "python"
    stamp = environment / ".agentcore-distribution-commit"
    if not python.exists():
        subprocess.run([learner_python(), "-m", "venv", str(environment)], check=True)
        command = [str(python), "-m", "pip", "install", "--quiet",
                   f"{folder.distribution}[{LEARNER_EXTRA}]"]  # fmt: skip
    elif stamp.exists() and stamp.read_text(encoding="utf-8").strip() == commit:
        return environment / "bin"
    else:
        command = [str(python), "-m", "pip", "install", "--quiet", "--no-deps",
                   "--force-reinstall", str(folder.distribution)]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"the learner environment could not be installed:\n{done.stderr}")
    overrides = environment / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    overrides.parent.mkdir(parents=True, exist_ok=True)
    overrides.write_text(json.dumps(LAB_OVERRIDES, indent=2) + "\n", encoding="utf-8")
    stamp.write_text(commit + "\n", encoding="utf-8")
    return environment / "bin"


def pull_path(folder: ClassFolder, language: str = "en", lesson: str | None = None) -> str:
    """The nbgitpuller path (``git-pull?...``) that pulls the distribution and opens a lesson."""
    lesson = lesson or FIRST_LESSON.format(language=language)
    query = urlencode(
        {
            "repo": f"file://{folder.distribution}",
            "branch": "main",
            "urlpath": f"lab/tree/{DISTRIBUTION}/{lesson}",
        },
        quote_via=quote,
    )
    return f"git-pull?{query}"


@dataclass(frozen=True)
class Settings:
    """What a class hub is started with (``serve``'s options)."""

    learners: tuple[str, ...]
    teacher: str = "teacher"
    ip: str = "127.0.0.1"
    port: int = 8000
    certificate: Path | None = None
    key: Path | None = None

    def check(self) -> None:
        """Refuse plain HTTP beyond loopback, and half a certificate (``ValueError``)."""
        if (self.certificate is None) != (self.key is None):
            raise ValueError("give both --certificate and --key, or neither")
        if self.certificate is None and not is_loopback(self.ip):
            raise ValueError(
                f"--ip {self.ip} opens the hub beyond this machine: passwords would cross the "
                "room in clear text. Give --certificate and --key (HTTPS), or keep the default "
                "127.0.0.1 behind a reverse proxy that serves HTTPS (README, 'Teach it')"
            )
        for path in (self.certificate, self.key):
            if path is not None and not path.is_file():
                raise ValueError(f"{path}: no such file")

    @property
    def scheme(self) -> str:
        """``https`` with a certificate, else ``http``."""
        return "https" if self.certificate else "http"


CONFIG = """\
import sys
c = get_config()  # noqa: F821
c.JupyterHub.ip = {ip!r}
c.JupyterHub.port = {port}
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = {hub_port}
{tls}c.ConfigurableHTTPProxy.command = [{proxy!r}]
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{proxy_api_port}"
c.ConfigurableHTTPProxy.pid_file = {pid_file!r}
c.JupyterHub.db_url = "sqlite:///{hub}/jupyterhub.sqlite"
c.JupyterHub.cookie_secret_file = {cookie_secret!r}
c.JupyterHub.authenticator_class = "pam"
c.Authenticator.allowed_users = {learners!r}
c.Authenticator.admin_users = {{{teacher!r}}}
c.JupyterHub.spawner_class = "localprocess"
c.Spawner.cmd = [{singleuser!r}]
c.Spawner.args = [
    "--LabApp.expose_app_in_browser=True",
    "--MappingKernelManager.cull_idle_timeout={idle_kernel}",
    "--MappingKernelManager.cull_interval=300",
]
c.Spawner.default_url = {default_url!r}
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120
c.Spawner.env_keep = ["LANG", "LC_ALL"]
c.Spawner.environment = {{
    "PATH": {bin!r} + ":/usr/local/bin:/usr/bin:/bin",
}}
c.JupyterHub.services = [
    {{"name": {service!r}, "api_token": {token!r}}},
    {{"name": "idle-culler",
      "command": [sys.executable, "-m", "jupyterhub_idle_culler", "--timeout={idle_server}"]}},
]
c.JupyterHub.load_roles = [
    {{
        "name": {service!r},
        "scopes": ["admin:users", "admin:servers", "admin:server_state", "access:servers",
                   "list:users"],
        "services": [{service!r}],
    }},
    {{
        "name": "idle-culler",
        "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
        "services": ["idle-culler"],
    }},
]
"""


def write_config(folder: ClassFolder, settings: Settings, bin_folder: Path) -> Path:
    """Write ``hub/jupyterhub_config.py`` for ``settings``; return its path."""
    proxy = proxy_command()
    if proxy is None:
        raise RuntimeError(
            "configurable-http-proxy not found "
            "(npm install --prefix .classroom/npm configurable-http-proxy@5)"
        )
    tls = ""
    if settings.certificate and settings.key:
        tls = (
            f"c.JupyterHub.ssl_cert = {str(settings.certificate.resolve())!r}\n"
            f"c.JupyterHub.ssl_key = {str(settings.key.resolve())!r}\n"
        )
    config = folder.hub / "jupyterhub_config.py"
    config.write_text(
        CONFIG.format(
            ip=settings.ip,
            port=settings.port,
            hub_port=free_port(),
            tls=tls,
            proxy=proxy,
            proxy_api_port=free_port(),
            pid_file=str(folder.hub / "proxy.pid"),
            hub=folder.hub,
            cookie_secret=str(folder.hub / "cookie_secret"),
            learners=sorted({*settings.learners, settings.teacher}),
            teacher=settings.teacher,
            singleuser=str(bin_folder / "jupyterhub-singleuser"),
            bin=str(bin_folder),
            idle_kernel=IDLE_KERNEL_SECONDS,
            idle_server=IDLE_SERVER_SECONDS,
            default_url="/" + pull_path(folder),
            service=SERVICE,
            token=folder.secret("admin-token"),
        )
    )
    return config


@dataclass
class Hub:
    """A running hub: public URL, admin token, the class folder, log, process."""

    url: str
    token: str
    folder: ClassFolder
    log: Path
    process: subprocess.Popen[bytes]
    started: list[int] = field(default_factory=list)

    def home(self, learner: str) -> Path:
        """The learner's home folder."""
        return self.folder.homes / learner

    def password(self, name: str) -> str:
        """The account's first password (from the teacher-only ``logins.csv``)."""
        return self.folder.passwords()[name]

    def api(self, method: str, path: str, **kwargs: Any) -> requests.Response:
        """A call to the hub or a learner's server (``/user/NAME/...``) with the admin token."""
        headers = {"Authorization": f"token {self.token}"}
        return requests.request(method, f"{self.url}{path}", headers=headers, timeout=60, **kwargs)


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
def running_hub(folder: ClassFolder, settings: Settings) -> Iterator[Hub]:
    """Start the class's JupyterHub with its proxy; stop it and all it started on exit.

    Expects the accounts and the learner environment to exist (``scripts.classroom.serve``
    makes them); raises ``PortBusy`` before starting anything when the public port is taken.
    """
    settings.check()
    check_port(settings.ip, settings.port)
    config = write_config(folder, settings, folder.environment / "bin")
    log_path = folder.hub / "jupyterhub.log"
    host = "127.0.0.1" if settings.ip in ("0.0.0.0", "") else settings.ip
    with log_path.open("ab") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "jupyterhub", "-f", str(config)],
            cwd=folder.hub,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        url = f"{settings.scheme}://{host}:{settings.port}"
        hub = Hub(url, folder.secret("admin-token"), folder, log_path, process)
        try:
            deadline = time.monotonic() + 90
            while True:
                try:
                    # Only "is it up?": the certificate may name the room's host, not this
                    # address, so it is not checked, and urllib3's warning about that would
                    # only alarm the teacher.
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore", InsecureRequestWarning)
                        answer = requests.get(f"{hub.url}/hub/api/", timeout=2, verify=False)
                    if answer.status_code == 200:
                        break
                except requests.RequestException:
                    pass
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"JupyterHub did not start:\n{log_path.read_text()}")
                time.sleep(0.5)
            yield hub
        finally:
            # The proxy, the culler, the single-user servers (in sessions of their own) and
            # their kernels are all below the hub: note them, stop the hub (it stops its
            # servers), then stop whatever is left.
            started = descendants(process.pid) + hub.started
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            stop_processes(started)


def log_in(hub: Hub, learner: str, password: str | None = None) -> requests.Session:
    """Log in through the hub's login form (the account's own password unless ``password``).

    Returns the logged-in session; raises ``RuntimeError`` when the hub refuses the login.
    """
    session = requests.Session()
    session.get(f"{hub.url}/hub/login", timeout=30).raise_for_status()
    response = session.post(
        f"{hub.url}/hub/login",
        data={
            "username": learner,
            "password": hub.password(learner) if password is None else password,
            "_xsrf": session.cookies["_xsrf"],
        },
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
    hub: Hub,
    learner: str,
    notebook_path: str,
    codes: Sequence[str],
    keep: bool = False,
    kernel: str | None = None,
) -> dict[str, Any]:
    """Run code cells in a kernel of the learner's own server, as JupyterLab would.

    ``notebook_path`` is relative to the learner's home; a new kernel starts in its folder (a
    session, as when the learner opens the notebook), unless ``kernel`` names one already
    running. Returns ``texts`` (each cell's printed and displayed text), ``errors``
    (``"Name: value"`` per failing cell) and ``kernel`` (its id). The kernel is shut down
    afterwards unless ``keep``.
    """
    from tornado.httpclient import HTTPRequest
    from tornado.websocket import websocket_connect

    if kernel is None:
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
        kernel = str(created.json()["kernel"]["id"])
    session_id = uuid.uuid4().hex
    ws_url = hub.url.replace("http", "ws", 1)
    connection = await websocket_connect(
        HTTPRequest(
            f"{ws_url}/user/{learner}/api/kernels/{kernel}/channels?session_id={session_id}",
            headers={"Authorization": f"token {hub.token}"},
            # tornado's default is 20 s; several learners' kernels start at once on 2 cores,
            # and the hub's other calls here allow 60 s too
            connect_timeout=60,
            request_timeout=60,
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
        # Wait for the close handshake (read_message gives None once closed), so the socket
        # is closed before run_sync ends this event loop, not left to the garbage collector.
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(connection.read_message(), timeout=5)
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
