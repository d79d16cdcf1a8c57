"""Repository-wide pytest hooks: report how long the lesson notebooks took under nbval."""

from __future__ import annotations

import pytest


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Print the total time nbval spent replaying lessons, per language folder."""
    totals: dict[str, float] = {}
    for reports in terminalreporter.stats.values():
        for report in reports:
            nodeid = getattr(report, "nodeid", "")
            if ".ipynb::" in nodeid:  # setup, call and teardown: kernel start-up counts
                folder = nodeid.split("/")[-2] if "/" in nodeid else "notebooks"
                totals[folder] = totals.get(folder, 0.0) + report.duration
    if totals:
        parts = ", ".join(f"{folder} {seconds:.1f} s" for folder, seconds in sorted(totals.items()))
        terminalreporter.write_line(
            f"lesson notebooks (nbval): {sum(totals.values()):.1f} s in all ({parts})"
        )
