"""``python -m scripts.slides present 01`` as root, as a teacher on the class's machine runs it.

Jupyter Server refuses to start as root unless given ``--allow-root``; ``present`` adds it and
says so. This runs the command as it is typed (no ``--allow-root``; a free port, a token and
fresh JupyterLab folders so nothing of root's own settings is used or changed), waits until
JupyterLab answers, and stops it. The classroom suite runs as root, so it runs here.
"""

from __future__ import annotations

import os
import secrets
import sys
from pathlib import Path

from scripts.slides import ROOT
from tests.browser.conftest import free_port, lab_environment, serving


def test_present_starts_jupyterlab_as_root(tmp_path: Path) -> None:
    assert os.geteuid() == 0
    port, token = free_port(), secrets.token_hex(16)
    command = [sys.executable, "-m", "scripts.slides", "present", "01",
               "--folder", str(tmp_path / "presenting"), "--", "--no-browser",
               "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}",
               f"--IdentityProvider.token={token}"]  # fmt: skip
    env = {**lab_environment(tmp_path), "PYTHONPATH": str(ROOT)}
    log = tmp_path / "present.log"
    with serving(command, env, log, f"http://127.0.0.1:{port}", token):
        pass
    text = log.read_text()
    assert "running as root: starting JupyterLab with --allow-root" in text
    assert "Running as root is not recommended" not in text
