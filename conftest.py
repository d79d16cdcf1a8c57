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
