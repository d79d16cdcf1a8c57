"""A class logging in at once: how many learners get their servers before ``start_timeout``?

    sudo .venv/bin/python benchmarks/login_storm.py [--sizes 4 8 16 32]

Serves a class as ``python -m scripts.classroom serve`` does (system accounts, PAM login,
LocalProcessSpawner, the learner environment) in a class folder under /var/tmp, with as many
learners as the largest size. Then, for each size N in turn, N learners at once log in through
the hub's login form with their own passwords and ask the hub for their servers (a room opening
the class link together); each spawn is timed from the request to the hub reporting the server
ready. A spawn that is not ready within the hub's ``Spawner.start_timeout`` (120 s, from
``scripts.hub.CONFIG``) fails, as the hub would fail it. Then every server is stopped and the
next size starts from a cold room.

It prints, per size: spawn p50 and p95, failed spawns, and the CPU seconds a spawn costs (the
servers' own CPU time when ready, plus the hub's and the proxy's during the storm, divided by
N); then the largest size measured whose p95 stays under ``start_timeout`` with no failure,
and what the CPU cost per spawn projects for this machine's cores when nothing else runs
(``start_timeout x cores / CPU per spawn``: an upper bound, since spawns also wait on disk and
on the hub's event loop). The storm stops at the first size that fails. A storm is bound by
CPU: to let a larger room log in at once, add cores, stagger the room (half the room, then
the other half a minute later), or raise ``c.Spawner.start_timeout`` in the hub's config.

Needs root, the ``classroom`` extra and configurable-http-proxy (see tests/classroom). Nothing
is asserted; the teacher's guide states the figures with the date and the machine. The
accounts and the class folder are removed at the end, whatever happened.
"""

from __future__ import annotations

import argparse
import datetime
import re
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from capacity import cpu_seconds, percentile  # noqa: E402

from scripts.hub import (  # noqa: E402
    CONFIG,
    ClassFolder,
    Hub,
    Settings,
    descendants,
    free_port,
    log_in,
    running_hub,
    server_pid,
)
from scripts.serve import prepare_class, remove_class  # noqa: E402

_TIMEOUT = re.search(r"c\.Spawner\.start_timeout = (\d+)", CONFIG)
if _TIMEOUT is None:
    raise RuntimeError("scripts.hub.CONFIG sets no c.Spawner.start_timeout: update this script")
START_TIMEOUT = float(_TIMEOUT.group(1))
"""The hub's ``Spawner.start_timeout``, as ``serve`` configures it."""


def spawn(hub: Hub, learner: str) -> float | None:
    """Log in, ask for the server, wait until it is ready: seconds from the request, or None
    when it was not ready within ``START_TIMEOUT`` (or the hub reported it failed)."""
    log_in(hub, learner)
    asked = time.perf_counter()
    answer = hub.api("POST", f"/hub/api/users/{learner}/server")
    if answer.status_code not in (201, 202):
        return None
    while time.perf_counter() - asked < START_TIMEOUT + 5:
        user = hub.api("GET", f"/hub/api/users/{learner}").json()
        server = user.get("servers", {}).get("")
        if server and server.get("ready"):
            return time.perf_counter() - asked
        if not server and not user.get("pending"):
            return None  # the hub gave up on it
        time.sleep(0.5)
    return None


def stop_all(hub: Hub, learners: list[str]) -> None:
    """Stop every learner's server and wait until the hub reports them stopped."""
    for learner in learners:
        hub.api("DELETE", f"/hub/api/users/{learner}/server")
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        users = [hub.api("GET", f"/hub/api/users/{name}").json() for name in learners]
        if not any(user.get("servers") or user.get("pending") for user in users):
            return
        time.sleep(1)
    raise TimeoutError("the servers did not stop within 180 s")


def storm(hub: Hub, learners: list[str]) -> dict[str, Any]:
    """N learners log in and spawn at once; their timings, failures and CPU per spawn."""
    hub_side = [hub.process.pid, *descendants(hub.process.pid)]
    before = cpu_seconds(hub_side)
    with ThreadPoolExecutor(max_workers=len(learners)) as pool:
        times = list(pool.map(lambda name: spawn(hub, name), learners))
    ready = [name for name, took in zip(learners, times, strict=True) if took is not None]
    servers = [server_pid(hub, name) for name in ready]
    spent = cpu_seconds(servers) + cpu_seconds(hub_side) - before
    stop_all(hub, learners)
    return {
        "learners": len(learners),
        "spawn": [took for took in times if took is not None],
        "failed": times.count(None),
        "cpu_per_spawn": spent / max(len(ready), 1),
    }


def report(rows: list[dict[str, Any]]) -> str:
    """The figures as the lines this script prints."""
    today = datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    cores = psutil.cpu_count()
    memory = psutil.virtual_memory().total / 1024**3
    load = ", ".join(f"{value:.1f}" for value in psutil.getloadavg())
    lines = [
        f"measured {today} on {cores} cores, {memory:.0f} GiB (load average at the end: {load}); "
        f"Spawner.start_timeout {START_TIMEOUT:.0f} s"
    ]
    passed = 0
    for row in rows:
        spawn = row["spawn"] or [float("nan")]
        ok = row["failed"] == 0 and percentile(spawn, 0.95) < START_TIMEOUT
        passed = row["learners"] if ok else passed
        lines.append(
            f"{row['learners']:>3} at once: spawn p50 {percentile(spawn, 0.5):.1f} s, "
            f"p95 {percentile(spawn, 0.95):.1f} s, failed {row['failed']}, "
            f"CPU per spawn {row['cpu_per_spawn']:.1f} s"
        )
    cpu = statistics.mean(row["cpu_per_spawn"] for row in rows)
    lines.append(f"largest room measured that logs in at once within start_timeout: {passed}")
    lines.append(
        f"projected for {cores} idle cores: about {int(START_TIMEOUT * cores / cpu)} at once "
        f"({START_TIMEOUT:.0f} s x {cores} cores / {cpu:.1f} s CPU per spawn)"
    )
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    """Serve a class as large as the largest size, run each storm, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[4, 8, 16, 32])
    args = parser.parse_args(argv)
    sizes = sorted(set(args.sizes))
    names = [f"storm{index:03d}" for index in range(1, sizes[-1] + 1)]
    folder = ClassFolder(Path(tempfile.mkdtemp(prefix="agentcore-storm-", dir="/var/tmp")))
    settings = Settings(tuple(names), "stormteacher", port=free_port())
    rows: list[dict[str, Any]] = []
    try:
        prepare_class(folder, settings)
        with running_hub(folder, settings) as hub:
            for size in sizes:
                rows.append(storm(hub, names[:size]))
                print(report(rows).splitlines()[-3], flush=True)
                if rows[-1]["failed"] or percentile(rows[-1]["spawn"], 0.95) >= START_TIMEOUT:
                    break
    finally:
        remove_class(folder)
    print(report(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
