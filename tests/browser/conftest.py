"""Fixtures for the browser tests: a real JupyterLab on 127.0.0.1 and Debian's Chromium.

The server runs on a copy of ``notebooks/`` in a temporary folder (running a lesson in the
browser saves it, and the stored lessons must stay as committed), with a random token and
temporary settings and workspace folders, so nothing of the user's own JupyterLab is used or
changed. It is stopped when the session ends, whatever happened.

Without Chromium or Playwright these tests are skipped with the reason, unless the variable
``AGENTCORE_REQUIRE_BROWSER=1`` is set (CI sets it): then they fail. The same holds for a font
with Chinese glyphs (Debian's ``fonts-noto-cjk``), which the tests of Chinese pages need.
``lab_zh`` is a second JupyterLab whose own interface is in Chinese (the language pack).
``browser_without_cjk_fonts`` is a second Chromium that sees no font with Chinese glyphs (a
fontconfig file that rejects every font ``fc-list :lang=zh`` lists): a reader's machine with
no CJK font, for the test that the website brings its own.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path(os.environ.get("AGENTCORE_CHROMIUM", "/usr/bin/chromium"))
ARTIFACTS = ROOT / "artifacts" / "browser"
# Flags this sandbox needs (root, no GPU, no network beyond loopback).
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _missing_browser() -> str | None:
    if not CHROMIUM.exists():
        return f"{CHROMIUM} not found (apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install playwright)"
    return None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    reason = _missing_browser()
    if reason is None:
        return
    if os.environ.get("AGENTCORE_REQUIRE_BROWSER") == "1":
        raise pytest.UsageError(f"browser tests required but {reason}")
    for item in items:
        if "tests/browser" in item.nodeid:
            item.add_marker(pytest.mark.skip(reason=reason))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass(frozen=True)
class Lab:
    """A running JupyterLab: its base URL and token."""

    url: str
    token: str
    root: Path

    def lesson(self, language: str, name: str) -> str:
        """The URL that opens one lesson alone (``reset``: no tabs restored from earlier)."""
        return f"{self.url}/lab/tree/{language}/{name}?reset&token={self.token}"


def lab_environment(
    base: Path, locale: str | None = None, disabled: tuple[str, ...] = ()
) -> dict[str, str]:
    """Environment for a JupyterLab whose settings, workspaces, config and runtime folders are
    fresh ones under ``base`` (its UI in ``locale``, e.g. ``"zh_CN"``, when given; without the
    front-end extensions named in ``disabled``)."""
    settings = base / "settings" / "@jupyterlab"
    # No "get notified about Jupyter news?" toast over the screenshots.
    (settings / "apputils-extension").mkdir(parents=True)
    (settings / "apputils-extension" / "notification.jupyterlab-settings").write_text(
        '{"fetchNews": "false"}'
    )
    # Render every cell, not only those in view, so a test can see all diagrams at once.
    (settings / "notebook-extension").mkdir(parents=True)
    (settings / "notebook-extension" / "tracker.jupyterlab-settings").write_text(
        '{"windowingMode": "none"}'
    )
    if locale is not None:  # JupyterLab's own menus and dialogs, from the language pack
        (settings / "translation-extension").mkdir(parents=True)
        (settings / "translation-extension" / "plugin.jupyterlab-settings").write_text(
            f'{{"locale": "{locale}"}}'
        )
    if disabled:  # JupyterLab's page_config.json, in this server's own config folder
        (base / "config" / "labconfig").mkdir(parents=True)
        (base / "config" / "labconfig" / "page_config.json").write_text(
            json.dumps({"disabledExtensions": dict.fromkeys(disabled, True)})
        )
    return {
        **os.environ,
        "JUPYTERLAB_SETTINGS_DIR": str(base / "settings"),
        "JUPYTERLAB_WORKSPACES_DIR": str(base / "workspaces"),
        "JUPYTER_CONFIG_DIR": str(base / "config"),
        "JUPYTER_RUNTIME_DIR": str(base / "runtime"),
    }


def lab_options(port: int, token: str) -> list[str]:
    """``jupyter lab`` options: loopback only, this port and token, the app exposed to tests."""
    return [
        "--no-browser", "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}",
        f"--IdentityProvider.token={token}", "--LabApp.expose_app_in_browser=True",
        "--ServerApp.allow_root=True",
    ]  # fmt: skip


@contextmanager
def serving(command: list[str], env: dict[str, str], log_path: Path, url: str, token: str,
            ) -> Iterator[subprocess.Popen[bytes]]:  # fmt: skip
    """Run a Jupyter server ``command`` until the block ends; wait until ``url`` answers."""
    log = log_path.open("w")
    server = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=2):
                    break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(
                        f"jupyter lab did not start:\n{log_path.read_text()}"
                    ) from None
                time.sleep(0.5)
        yield server
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        log.close()


@contextmanager
def _running_lab(
    base: Path, locale: str | None = None, disabled: tuple[str, ...] = ()
) -> Iterator[Lab]:
    """Start ``jupyter lab`` on a free loopback port (its UI in ``locale``, e.g. ``"zh_CN"``,
    when given; without the front-end extensions in ``disabled``); stop it when the block
    ends."""
    root = base / "notebooks"
    shutil.copytree(ROOT / "notebooks", root)
    env = lab_environment(base, locale, disabled)
    port, token = free_port(), secrets.token_hex(16)
    command = [sys.executable, "-m", "jupyterlab", *lab_options(port, token),
               f"--ServerApp.root_dir={root}"]  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    with serving(command, env, base / "jupyter.log", url, token):
        yield Lab(url, token, root)


@pytest.fixture(scope="session")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    """A JupyterLab on a copy of the lessons; stopped at the end of the session."""
    with _running_lab(tmp_path_factory.mktemp("lab")) as running:
        yield running


@pytest.fixture(scope="session")
def lab_zh(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    """The same, with JupyterLab's own interface in Simplified Chinese."""
    with _running_lab(tmp_path_factory.mktemp("lab-zh"), locale="zh_CN") as running:
        yield running


# jupyterlab-rise brings jupyterlab-mathjax3 (an extension written for JupyterLab 3) into the
# dev environment. In JupyterLab 4 its typesetter stands in for JupyterLab's own, and the page
# never gets JupyterLab's global MathJax. A learner's environment (the learner extra of
# pyproject.toml, or any JupyterLab without RISE) has JupyterLab's own typesetter only.
LEARNER_LAB_DISABLED = ("@jupyterlab/mathjax3-extension",)


@pytest.fixture(scope="session")
def lab_as_learner(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    """A JupyterLab on a copy of the lessons with the front end a learner's environment has:
    without the extensions only the teacher's tools bring (``LEARNER_LAB_DISABLED``)."""
    with _running_lab(
        tmp_path_factory.mktemp("lab-learner"), disabled=LEARNER_LAB_DISABLED
    ) as running:
        yield running


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless, driven by Playwright (no browser download)."""
    from playwright.sync_api import sync_playwright

    # Route and report the requests service workers make too (Chromium; Playwright's documented
    # switch), so that tests/browser/test_site.py sees everything JupyterLite's worker fetches.
    os.environ.setdefault("PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS", "1")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield chromium
        finally:
            chromium.close()


# fontconfig's own configuration, then every font with Chinese glyphs rejected, file by file.
NO_CJK_FONTCONFIG = """<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig>
  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>
  <cachedir>{cache}</cachedir>
  <selectfont><rejectfont>{globs}</rejectfont></selectfont>
</fontconfig>
"""


def _cjk_font_files(env: dict[str, str] | None = None) -> list[str]:
    fc_list = shutil.which("fc-list")
    if fc_list is None:
        return []
    found = subprocess.run([fc_list, ":lang=zh", "file"], capture_output=True, text=True, env=env)
    return sorted({line.strip().rstrip(":") for line in found.stdout.splitlines() if line.strip()})


@pytest.fixture(scope="session")
def browser_without_cjk_fonts(
    browser: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Any]:
    """Chromium as ``browser``, but with no font that has Chinese glyphs: it reads a fontconfig
    file that rejects each one. Fails when fontconfig still finds one through that file."""
    from xml.sax.saxutils import escape

    folder = tmp_path_factory.mktemp("no-cjk-fonts")
    globs = "".join(f"<glob>{escape(path)}</glob>" for path in _cjk_font_files())
    config = folder / "fonts.conf"
    config.write_text(NO_CJK_FONTCONFIG.format(cache=escape(str(folder / "cache")), globs=globs))
    env = {**os.environ, "FONTCONFIG_FILE": str(config)}
    left = _cjk_font_files(env)
    assert not left, f"fonts with Chinese glyphs fontconfig still finds: {left}"
    chromium = browser.browser_type.launch(
        executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS, env=env
    )
    try:
        yield chromium
    finally:
        chromium.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh browser page, 1400x1000, closed after the test."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    try:
        yield page
    finally:
        context.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """Folder for screenshots (ignored by git)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS
