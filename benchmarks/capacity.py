"""How many learners does one 24 GiB machine hold? A simulated class on a real class hub.

    sudo .venv/bin/python benchmarks/capacity.py [--learners 20]

Serves a class as ``python -m scripts.classroom serve`` does (system accounts, PAM login,
LocalProcessSpawner, the learner environment, idle culling configured) in a class folder under
/var/tmp, then every simulated learner, all at once, as a room starting a lesson:

1. logs in through the hub's login form with their own password;
2. starts their server through the hub's API (spawn time: from the request to "ready");
3. pulls the course with nbgitpuller's API (what the login link does);
4. opens three lessons (00, 01 and 03, English) in three kernels of their server and runs each
   top to bottom, keeping the kernels, as three open tabs (time to the first executed cell:
   from the login to the first cell's reply);
5. answers lesson 03's first exercise (the solution's answer cell, then its check).

Then it measures with psutil: each learner's memory (PSS, the server and its kernels), the
kernels' CPU seconds per lesson run, and the same server's memory after its kernels are shut
down (what an idle learner holds once the server's kernel culler has run; the hub's idle culler
stops the server itself after an hour). The capacity printed is
``floor((24 GiB - 2 GiB for the system - hub and proxy) / PSS per learner)``, for active
learners and for idle ones with their kernels culled.

Needs root, the ``classroom`` extra and configurable-http-proxy (see tests/classroom). Nothing
is asserted; README's "Teach it" states the figures with the date. The accounts and the class
folder are removed at the end, whatever happened.
"""

from __future__ import annotations

import argparse
import datetime
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts.hub import (  # noqa: E402
    DISTRIBUTION,
    ClassFolder,
    Hub,
    Settings,
    code_cells,
    descendants,
    free_port,
    log_in,
    run_in_kernel,
    run_sync,
    running_hub,
    server_pid,
    start_servers,
)
from scripts.serve import prepare_class, remove_class  # noqa: E402

MACHINE_GIB = 24
SYSTEM_GIB = 2
LESSONS = (
    "notebooks/en/00-fixed-script.ipynb",
    "notebooks/en/01-the-loop.ipynb",
    "notebooks/en/03-errors.ipynb",
)
EXERCISE_LESSON = ROOT / "notebooks" / "en" / "solutions" / "03-errors.ipynb"
GIB = 1024**3
MIB = 1024**2


def memory(pids: list[int]) -> int:
    """Summed PSS of processes, in bytes (processes that are gone count zero)."""
    total = 0
    for pid in pids:
        try:
            info = psutil.Process(pid).memory_full_info()
        except psutil.NoSuchProcess:
            continue
        total += getattr(info, "pss", info.rss)
    return total


def cpu_seconds(pids: list[int]) -> float:
    """Summed user and system CPU seconds of processes."""
    total = 0.0
    for pid in pids:
        try:
            times = psutil.Process(pid).cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += times.user + times.system
    return total


def runs_as_root(pid: int) -> bool:
    """Whether a process (still there) runs as root, the hub's user."""
    try:
        return bool(psutil.Process(pid).uids().real == 0)
    except psutil.NoSuchProcess:
        return False


def pull(hub: Hub, learner: str, repository: Path) -> None:
    """Pull the course into the learner's home, as the nbgitpuller page does."""
    query = urlencode({"repo": f"file://{repository}", "branch": "main"})
    events = hub.api("GET", f"/user/{learner}/git-pull/api?{query}").text
    if '"phase": "finished"' not in events:
        raise RuntimeError(f"nbgitpuller did not finish for {learner}:\n{events[-2000:]}")


def exercise_cells() -> list[str]:
    """Lesson 03's first exercise: the answer cell of the solution, then its check cell."""
    import json

    cells = json.loads(EXERCISE_LESSON.read_text(encoding="utf-8"))["cells"]
    ids = [cell["metadata"].get("nbgrader", {}).get("grade_id", "") for cell in cells]
    first = next(i for i, grade_id in enumerate(ids) if grade_id.startswith("answer_"))
    check = ids.index("check_" + ids[first][len("answer_") :])
    # The check cell as a learner has it: the hidden tests stay with the teacher.
    check_source = "".join(cells[check]["source"]).split("### BEGIN HIDDEN TESTS")[0]
    return ["".join(cells[first]["source"]), check_source]


def session(hub: Hub, learner: str) -> dict[str, Any]:
    """One learner's session (steps 1 to 5); returns its timings and process ids."""
    began = time.perf_counter()
    log_in(hub, learner)
    asked = time.perf_counter()
    start_servers(hub, [learner], timeout=600)
    spawned = time.perf_counter()
    pull(hub, learner, hub.folder.distribution)
    first_cell: float | None = None
    for lesson in LESSONS:
        cells = code_cells(hub.home(learner) / DISTRIBUTION / lesson)
        result = run_sync(
            run_in_kernel(hub, learner, f"{DISTRIBUTION}/{lesson}", cells[:1], keep=True)
        )
        if first_cell is None:
            first_cell = time.perf_counter() - began
        rest = cells[1:] + (exercise_cells() if lesson.endswith("03-errors.ipynb") else [])
        kernel = result["kernel"]
        more = run_sync(
            run_in_kernel(hub, learner, f"{DISTRIBUTION}/{lesson}", rest, keep=True, kernel=kernel)
        )
        if result["errors"] or more["errors"]:
            raise RuntimeError(f"{learner}: {lesson} failed: {result['errors'] + more['errors']}")
        if lesson.endswith("03-errors.ipynb") and "✔" not in more["texts"][-1]:
            raise RuntimeError(f"{learner}: the exercise's check did not accept the answer")
    server = server_pid(hub, learner)
    kernels = descendants(server)
    kernel_cpu = cpu_seconds(kernels)
    return {
        "spawn": spawned - asked,
        "first_cell": first_cell,
        "server": server,
        "kernels": kernels,
        "kernel_cpu": kernel_cpu,
    }


def percentile(values: list[float], share: float) -> float:
    """The ``share`` quantile (0.95 for p95) of at least one value, by linear interpolation."""
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[round(share * 100) - 1]


def simulate(hub: Hub, learners: list[str]) -> dict[str, Any]:
    """Run every learner's session at once, then measure; the figures (seconds, bytes)."""
    with ThreadPoolExecutor(max_workers=len(learners)) as pool:
        sessions = list(pool.map(lambda name: session(hub, name), learners))
    active = [memory([one["server"], *one["kernels"]]) for one in sessions]
    # The hub's side: its processes that run as the hub's user (the proxy, the idle culler);
    # learners' servers and kernels run as the learners.
    hub_side = [hub.process.pid] + [
        pid for pid in descendants(hub.process.pid) if runs_as_root(pid)
    ]
    hub_pss = memory(hub_side)
    for learner in learners:  # what the server's kernel culler does to an idle learner
        for kernel in hub.api("GET", f"/user/{learner}/api/kernels").json():
            hub.api("DELETE", f"/user/{learner}/api/kernels/{kernel['id']}")
    time.sleep(5)
    idle = [memory([one["server"]]) for one in sessions]
    available = (MACHINE_GIB - SYSTEM_GIB) * GIB - hub_pss
    return {
        "learners": len(learners),
        "spawn": [one["spawn"] for one in sessions],
        "first_cell": [one["first_cell"] for one in sessions],
        "cpu_per_lesson": [one["kernel_cpu"] / len(LESSONS) for one in sessions],
        "active_pss": active,
        "idle_pss": idle,
        "hub_pss": hub_pss,
        "active_capacity": int(available // statistics.mean(active)),
        "idle_capacity": int(available // statistics.mean(idle)),
    }


def report(figures: dict[str, Any]) -> str:
    """The figures as the lines this script prints."""
    today = datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    spawn, first, cpu = figures["spawn"], figures["first_cell"], figures["cpu_per_lesson"]
    active, idle = figures["active_pss"], figures["idle_pss"]
    return "\n".join(
        [
            f"measured {today} on {psutil.cpu_count()} cores: "
            f"simulated learners at once: {figures['learners']}, each logging in, pulling the "
            f"course, running lessons 00, 01 and 03 in three kernels and answering an exercise",
            f"spawn: p50 {percentile(spawn, 0.5):.1f} s, p95 {percentile(spawn, 0.95):.1f} s",
            f"login to first executed cell: p50 {percentile(first, 0.5):.1f} s, "
            f"p95 {percentile(first, 0.95):.1f} s",
            f"kernel CPU per lesson run: mean {statistics.mean(cpu):.2f} s",
            f"PSS per active learner (server + 3 kernels): mean "
            f"{statistics.mean(active) / MIB:.0f} MiB, max {max(active) / MIB:.0f} MiB",
            f"PSS per idle learner (kernels culled): mean {statistics.mean(idle) / MIB:.0f} MiB",
            f"hub, proxy and idle culler: PSS {figures['hub_pss'] / MIB:.0f} MiB",
            f"one {MACHINE_GIB} GiB machine, {SYSTEM_GIB} GiB kept for the system: "
            f"{figures['active_capacity']} active learners, "
            f"{figures['idle_capacity']} with their kernels culled (by PSS)",
        ]
    )


def main(argv: list[str]) -> int:
    """Serve a class of ``--learners`` simulated learners, run their sessions, print."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--learners", type=int, default=20)
    args = parser.parse_args(argv)
    names = [f"sim{index:03d}" for index in range(1, args.learners + 1)]
    folder = ClassFolder(Path(tempfile.mkdtemp(prefix="agentcore-capacity-", dir="/var/tmp")))
    settings = Settings(tuple(names), "simteacher", port=free_port())
    try:
        prepare_class(folder, settings)
        with running_hub(folder, settings) as hub:
            figures = simulate(hub, names)
    finally:
        remove_class(folder)
    print(report(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
