"""A browser context that may reach this machine only: what the browser tests open with it.

Every request goes through a route that lets ``127.0.0.1`` and ``localhost`` (and ``data:`` and
``blob:`` URLs, which are no requests) through and aborts anything else, keeping its URL; a
request the route never sees (Playwright reports it all the same) is kept too. A test calls
``assert_no_leaks`` at its end: that, not a grep of the files, is the proof that nothing a
learner opens comes from a CDN.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

LOCAL_HOSTS = ("127.0.0.1", "localhost")


class Guarded:
    """A browser context whose requests may reach 127.0.0.1 or localhost only; the others are
    aborted and kept in ``leaks``."""

    def __init__(self, browser: Any, viewport: dict[str, int] | None = None) -> None:
        self.leaks: list[str] = []
        self.context = browser.new_context(
            viewport=viewport or {"width": 1400, "height": 1000}, service_workers="allow"
        )
        self.context.route("**/*", self._route)
        self.context.on("request", self._seen)

    @staticmethod
    def _local(url: str) -> bool:
        return url.startswith(("data:", "blob:")) or urlsplit(url).hostname in LOCAL_HOSTS

    def _route(self, route: Any) -> None:
        if self._local(route.request.url):
            route.continue_()
        else:
            self.leaks.append(route.request.url)
            route.abort()

    def _seen(self, request: Any) -> None:
        if not self._local(request.url) and request.url not in self.leaks:
            self.leaks.append(request.url)

    def assert_no_leaks(self) -> None:
        assert not self.leaks, f"requests that left this machine: {self.leaks}"
