"""agentcore beside the plain loop, in CPU instructions: figures a busy machine does not move.

``bench_runtime.py`` times the workloads; on a shared machine its medians move with the load
(README's benchmark section). This script runs the same workloads, built by the same
functions, under valgrind's callgrind, which counts the instructions executed: the same
count for the same code, inputs and interpreter, whatever else the machine is doing.

Only the workload is counted: each one runs inside ``itertools.starmap`` (callgrind's
``--toggle-collect=starmap_next``), after two warm-up runs, so imports and set-up are left
out. ``PYTHONHASHSEED=0`` keeps dict and set layouts the same from one count to the next.
Instructions are not seconds (cache misses and the garbage collector's pauses cost time
beyond them), so the timed benchmark stays the reference; this one shows a change's effect
without the noise. Needs ``valgrind`` (Debian package ``valgrind``); takes a few minutes:
``python benchmarks/count_instructions.py``. Nothing here asserts a count.
"""

from __future__ import annotations

import collections
import itertools
import os
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
WORKLOADS = {3: 20, 10: 10, 100: 2, 1000: 1}
"""Model turns of each workload (3: the chapter's run) and how many runs are counted."""
IMPLEMENTATIONS = ("plain loop", "agentcore")


def run_workload(name: str, turns: int, runs: int) -> None:
    """Build one workload with ``bench_runtime``'s builders and run it ``runs`` times."""
    sys.path.insert(0, str(HERE))
    import bench_runtime as bench

    if turns == 3:
        runner = bench.BUILDERS[name](bench.chapter_decision, bench.CHAPTER_TOOLS, 6)
    else:
        runner = bench.BUILDERS[name](bench.pinging_decision(turns), bench.PING_TOOLS, turns)
    runner()
    runner()
    collections.deque(itertools.starmap(runner, itertools.repeat((), runs)), maxlen=0)


def count(name: str, turns: int, runs: int) -> int:
    """Instructions callgrind counted inside the workload's runs."""
    done = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--toggle-collect=starmap_next",
            "--callgrind-out-file=/dev/null",
            sys.executable,
            __file__,
            "--workload",
            name,
            str(turns),
            str(runs),
        ],
        env={**os.environ, "PYTHONHASHSEED": "0"},
        capture_output=True,
        text=True,
        check=True,
    )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise RuntimeError(f"callgrind printed no count:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def main() -> None:
    """Count every workload for both implementations and print one table."""
    print(f"{'':<30}{'plain loop':>16}{'agentcore':>22}")
    for turns, runs in WORKLOADS.items():
        per = {name: count(name, turns, runs) / runs for name in IMPLEMENTATIONS}
        unit = "per run" if turns == 3 else "per turn"
        scale = 1 if turns == 3 else turns
        label = "chapter run (3 turns)" if turns == 3 else f"{turns}-turn run"
        plain, core = per["plain loop"] / scale, per["agentcore"] / scale
        print(
            f"{label + ', ' + unit:<30}{plain / 1000:>14.1f} k{core / 1000:>12.1f} k "
            f"({core / plain:.2f}x)",
            flush=True,
        )


if __name__ == "__main__":
    if sys.argv[1:2] == ["--workload"]:
        run_workload(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    else:
        main()
