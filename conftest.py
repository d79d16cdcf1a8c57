"""Repository-wide pytest hooks: report how long the lessons and the browser tests took."""

from __future__ import annotations

import pytest


def _suite(nodeid: str) -> str | None:
    if ".ipynb::" in nodeid:
        folders = nodeid.split("::")[0].split("/")[1:-1]  # e.g. ["en"] or ["en", "solutions"]
        return "lesson notebooks (nbval), " + "/".join(folders)
    if nodeid.startswith("tests/browser/"):
        return "browser tests (JupyterLab in Chromium)"
    return None


# Suites that take minutes, so that README's fast path can leave them out with -m.
_SLOW_MODULES = ("tests/test_exercises.py", "tests/test_autograde.py")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the slow suites: nbval lessons, browser tests, and the kernel-driven exercise tests.

    The real-model suite (tests/local_model, marker ``local_model``) runs only when asked for
    by name (``-m local_model``): it needs the ``local`` extra, which CI does not build.
    """
    asked_for_the_model = "local_model" in (config.getoption("markexpr") or "")
    for item in items:
        if item.nodeid.startswith("tests/local_model/"):
            item.add_marker(pytest.mark.local_model)
            if not asked_for_the_model:
                item.add_marker(pytest.mark.skip(reason="the real model runs with -m local_model"))
        elif ".ipynb::" in item.nodeid:
            item.add_marker(pytest.mark.lessons)
        elif item.nodeid.startswith("tests/browser/"):
            item.add_marker(pytest.mark.browser)
        elif item.nodeid.startswith(_SLOW_MODULES):
            item.add_marker(pytest.mark.slow)
        if item.nodeid.startswith("tests/classroom/"):
            # The suite drives a real hub through tornado's and JupyterHub's own clients, whose
            # sockets may be collected after a test's event loop ended: warned, not failed.
            # Everywhere else an unclosed socket (an adapter left open) fails its test.
            item.add_marker(pytest.mark.filterwarnings("default::ResourceWarning"))
            item.add_marker(
                pytest.mark.filterwarnings("default::pytest.PytestUnraisableExceptionWarning")
            )


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Print the wall time spent in each slow suite (setup, call and teardown counted)."""
    totals: dict[str, float] = {}
    for reports in terminalreporter.stats.values():
        for report in reports:
            suite = _suite(getattr(report, "nodeid", ""))
            if suite is not None:
                totals[suite] = totals.get(suite, 0.0) + getattr(report, "duration", 0.0)
    for suite, seconds in sorted(totals.items()):
        if seconds > 0:  # a deselected suite still leaves empty reports
            terminalreporter.write_line(f"{suite}: {seconds:.1f} s")
