"""How many learners does one 24 GB machine hold? Measured on a real hub, one learner.

    python benchmarks/capacity.py

Starts the local class hub (``scripts.hub.local_hub``: JupyterHub, configurable-http-proxy,
SimpleLocalProcessSpawner) in a temporary folder, builds the learner distribution, starts one
learner's server, pulls the course into their home with nbgitpuller's API, and runs lesson 01
and lesson 06 (English) in two kernels of that server, left running as two open tabs would be.
Then it measures, with psutil:

- one learner: their single-user server and both kernels;
- the hub's overhead: the hub process and the proxy.

Memory is PSS (proportional set size: shared pages divided among the processes sharing them),
with RSS beside it. One learner alone shares little, so the per-learner PSS here is an upper
bound; a full room shares more libraries. The capacity printed is
``floor((24 GiB - 2 GiB kept for the system - hub overhead) / one learner)``, by PSS.

Needs the ``classroom`` extra and configurable-http-proxy (see tests/classroom). Nothing is
asserted; the figure goes to README's "Teach it" with the date it was measured. Everything the
script started is stopped at the end.
"""

from __future__ import annotations

import datetime
import sys
import tempfile
from pathlib import Path
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
LEARNER = "learner"
TARGET = DISTRIBUTION
LESSONS = ("notebooks/en/01-the-loop.ipynb", "notebooks/en/06-experiments.ipynb")
GIB = 1024**3
MIB = 1024**2


def memory(pids: list[int]) -> tuple[int, int]:
    """Summed PSS and RSS of processes, in bytes (processes that are gone count zero)."""
    pss = rss = 0
    for pid in pids:
        try:
            info = psutil.Process(pid).memory_full_info()
        except psutil.NoSuchProcess:
            continue
        pss += getattr(info, "pss", info.rss)
        rss += info.rss
    return pss, rss


def pull(hub: Hub, learner: str, repository: Path) -> None:
    """Pull the course into the learner's home, as the nbgitpuller page does."""
    query = urlencode({"repo": f"file://{repository}", "branch": "main", "targetpath": TARGET})
    events = hub.api("GET", f"/user/{learner}/git-pull/api?{query}").text
    if '"phase": "finished"' not in events:
        raise RuntimeError(f"nbgitpuller did not finish:\n{events[-2000:]}")


def hub_processes(hub: Hub) -> list[int]:
    """The hub's own processes: the hub and configurable-http-proxy (no learner's server)."""
    pids = [hub.process.pid]
    for pid in descendants(hub.process.pid):
        try:
            command = " ".join(psutil.Process(pid).cmdline())
        except psutil.NoSuchProcess:
            continue
        if "configurable-http-proxy" in command:
            pids.append(pid)
    return pids


def measure(hub: Hub, repository: Path, learner: str = LEARNER) -> dict[str, int]:
    """Log a learner in, pull the course, run lessons 01 and 06, and measure (bytes, counts)."""
    log_in(hub, learner)
    start_servers(hub, [learner])
    pull(hub, learner, repository)

    async def lessons() -> None:
        for lesson in LESSONS:
            cells = code_cells(hub.home(learner) / TARGET / lesson)
            result = await run_in_kernel(hub, learner, f"{TARGET}/{lesson}", cells, keep=True)
            if result["errors"]:
                raise RuntimeError(f"{lesson} failed: {result['errors']}")

    run_sync(lessons())
    server = server_pid(hub, learner)
    learner_side = [server, *descendants(server)]
    hub_side = hub_processes(hub)
    learner_pss, learner_rss = memory(learner_side)
    hub_pss, hub_rss = memory(hub_side)
    available = MACHINE_GIB * GIB - SYSTEM_GIB * GIB - hub_pss
    return {
        "learner_pss": learner_pss,
        "learner_rss": learner_rss,
        "learner_processes": len(learner_side),
        "hub_pss": hub_pss,
        "hub_rss": hub_rss,
        "hub_processes": len(hub_side),
        "capacity": available // learner_pss,
    }


def report(figures: dict[str, int]) -> str:
    """The figures as the lines this script prints."""
    today = datetime.datetime.now(datetime.timezone.utc).date().isoformat()
    return "\n".join(
        [
            f"measured {today}, Python {sys.version.split()[0]}, psutil {psutil.__version__}",
            f"one learner (server + 2 kernels after lessons 01 and 06, "
            f"{figures['learner_processes']} processes): PSS {figures['learner_pss'] / MIB:.0f} "
            f"MiB, RSS {figures['learner_rss'] / MIB:.0f} MiB",
            f"hub overhead (hub + proxy, {figures['hub_processes']} processes): "
            f"PSS {figures['hub_pss'] / MIB:.0f} MiB, RSS {figures['hub_rss'] / MIB:.0f} MiB",
            f"one {MACHINE_GIB} GiB machine, {SYSTEM_GIB} GiB kept for the system: "
            f"{figures['capacity']} learners (by PSS)",
        ]
    )


def main() -> int:
    """Start a class hub, measure one learner, print the figures; exit status 0."""
    folder = ClassFolder(Path(tempfile.mkdtemp(prefix="agentcore-capacity-", dir="/var/tmp")))
    try:
        prepare_class(folder, Settings((LEARNER,), port=free_port()))
        with running_hub(folder, Settings((LEARNER,), port=free_port())) as hub:
            figures = measure(hub, folder.distribution)
    finally:
        remove_class(folder)
    print(report(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
