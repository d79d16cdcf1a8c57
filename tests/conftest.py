"""Shared test set-up: no test may reach the network."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

_LOOPBACK = ("127.0.0.1", "localhost", "::1")


@pytest.fixture(autouse=True)
def _no_network(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Refuse every connection that is not to this machine's loopback."""
    real_connect = socket.socket.connect

    def guarded(self: socket.socket, address: object) -> object:
        host = address[0] if isinstance(address, tuple) else address
        if isinstance(host, str) and host not in _LOOPBACK and not host.startswith("127."):
            raise RuntimeError(f"test tried to reach the network: {address!r}")
        return real_connect(self, address)  # type: ignore[arg-type]

    monkeypatch.setattr(socket.socket, "connect", guarded)
    yield


@pytest.fixture(scope="session")
def built_site() -> Path:
    """The site ``python -m scripts.site build`` wrote (``_site/``, or ``AGENTCORE_SITE_DIR``).

    The tests read what the build made (it downloads Pyodide and wheels, so it is not run by a
    test). Skipped with the reason when the site was not built or was built from other lessons,
    docs or package code than the ones here, unless ``AGENTCORE_REQUIRE_SITE=1`` (CI): then
    it fails.
    """
    from scripts import site

    out = Path(os.environ.get("AGENTCORE_SITE_DIR", site.SITE))
    reason = None
    if not (out / site.BUILD_INFO).is_file():
        reason = f"the site is not built in {out} (python -m scripts.site build)"
    elif stale := site.stale_reason(out):
        reason = f"{stale}: rebuild it with python -m scripts.site build"
    if reason is None:
        return out
    if os.environ.get("AGENTCORE_REQUIRE_SITE") == "1":
        pytest.fail(reason)
    pytest.skip(reason)
