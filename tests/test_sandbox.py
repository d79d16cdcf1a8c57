"""The grade's player confines itself with Landlock: what learner code can and cannot do there.

Each case runs :func:`agentcore.course.judges.sandbox.confine` in a new interpreter (Landlock
cannot be lifted, so never in the test process) and tries what a rig needs: writing into the
package (a module for the referee to import), starting a program (a child without the audit
hook), reading another process's file descriptors under ``/proc`` (the verdicts' pipe) and
reading the checkout's solution notebooks; beside what a lesson needs (importing, the scratch
folder, ``/dev/null``).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from agentcore.course.judges.sandbox import read_roots

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "agentcore"

ATTEMPT = """
def attempt(action):
    try:
        action()
        return "done"
    except OSError as error:
        return type(error).__name__
"""
"""What each script below runs an action with: ``"done"``, or the name of the OSError."""

TRIES = r"""
import json, os, subprocess, sys
from pathlib import Path
from agentcore.course.judges.sandbox import confine
scratch, package, solution = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
reason = confine(scratch, package)
""" + ATTEMPT + r"""
results = {
    "confined": reason is None,
    "write into the package": attempt(lambda: open(package / "zz_rig.py", "w").close()),
    "start a program": attempt(lambda: subprocess.run(["true"], check=False)),
    "open the parent's fds": attempt(lambda: open(f"/proc/{os.getppid()}/fd/1", "rb").close()),
    "read the parent's memory": attempt(lambda: open(f"/proc/{os.getppid()}/mem", "rb").close()),
    "read a solution notebook": attempt(lambda: solution.read_bytes()),
    "write in the scratch folder": attempt(lambda: (scratch / "notes.txt").write_text("ok")),
    "write to /dev/null": attempt(lambda: open(os.devnull, "w").write("x")),
    "import a module": attempt(lambda: __import__("agentcore.providers.deepseek")),
    "read the package's data": attempt(lambda: (package / "course" / "quizzes").iterdir()),
}
print(json.dumps(results))
"""


def landlock_available() -> bool:
    if not sys.platform.startswith("linux"):
        return False
    try:
        from landlock import landlock_abi_version  # type: ignore[import-untyped]

        return bool(landlock_abi_version() >= 1)
    except (ImportError, OSError):
        return False


@pytest.mark.skipif(not landlock_available(), reason="needs Linux with Landlock")
def test_the_confined_player_can_do_a_lessons_work_and_none_of_a_rigs(tmp_path: Path) -> None:
    solution = ROOT / "notebooks" / "en" / "solutions" / "03-errors.ipynb"
    done = subprocess.run(
        [sys.executable, "-c", TRIES, str(tmp_path), str(PACKAGE), str(solution)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        check=True,
    )
    results = json.loads(done.stdout.splitlines()[-1])
    assert results == {
        "confined": True,
        "write into the package": "PermissionError",
        "start a program": "PermissionError",
        "open the parent's fds": "PermissionError",
        "read the parent's memory": "PermissionError",
        "read a solution notebook": "PermissionError",
        "write in the scratch folder": "done",
        "write to /dev/null": "done",
        "import a module": "done",
        "read the package's data": "done",
    }
    assert not (PACKAGE / "zz_rig.py").exists()
    assert (tmp_path / "notes.txt").read_text() == "ok"


def test_a_checkout_is_read_through_its_package_folder_alone() -> None:
    roots = read_roots(PACKAGE)
    assert str(PACKAGE) in roots
    assert str(ROOT) not in roots  # its notebooks/*/solutions hold the answers
    assert not any(Path(root) in ROOT.parents for root in roots)  # nor a folder above it


def test_an_installed_package_is_read_with_its_site_packages(tmp_path: Path) -> None:
    site = tmp_path / "lib" / "python3" / "site-packages"
    (site / "agentcore").mkdir(parents=True)
    sys.path.insert(0, str(site))
    try:
        roots = read_roots(site / "agentcore")
    finally:
        sys.path.remove(str(site))
    assert str(site.resolve()) in roots


KERNEL = r"""
import json, os, signal, sys, time
from pathlib import Path
outside = Path(sys.argv[1])
""" + ATTEMPT + r"""
if os.fork() == 0:  # a detached process, as a rig leaves one: it must not outlive the kernel
    os.setsid()
    if os.fork() == 0:
        time.sleep(120)
    os._exit(0)
time.sleep(0.5)
print(json.dumps({
    "judged before": os.environ.get("AGENTCORE_JUDGED_BEFORE_EXECUTE"),
    "write outside": attempt(lambda: (outside / "rig.txt").write_text("x")),
    "read outside": attempt(lambda: (outside / "gradebook.db").read_bytes()),
    "read the parent's memory": attempt(lambda: open(f"/proc/{os.getppid()}/mem", "rb").read(1)),
    "write in TMPDIR": attempt(lambda: Path(os.environ["TMPDIR"], "ok").write_text("x")),
    "read its own folder": attempt(lambda: Path("submitted.txt").read_text()),
    # a third attacker stopped the launcher, so that it never swept up what the kernel left
    # (tried only where Landlock scopes signals: elsewhere the launcher would stay stopped)
    "stop the launcher": attempt(lambda: os.kill(os.getppid(), signal.SIGSTOP))
    if sys.argv[3] == "scoped" else "not tried",
    "kill a process of the grader": attempt(lambda: os.kill(int(sys.argv[2]), signal.SIGKILL))
    if sys.argv[3] == "scoped" else "not tried",
    "pid": os.getpid(),
}), flush=True)
"""


def signals_scoped() -> bool:
    from landlock import landlock_abi_version  # type: ignore[import-untyped]

    from agentcore.course.judges.sandbox import SCOPED_ABI

    return bool(landlock_abi_version() >= SCOPED_ABI)


@pytest.mark.skipif(not landlock_available(), reason="needs Linux with Landlock")
def test_nbgraders_execute_kernel_runs_confined_and_leaves_nothing_running(
    tmp_path: Path,
) -> None:
    # Two ways a kernel could rig its grade: rewrite the verdicts in the nbgrader process's
    # memory, or leave a detached process that edits the gradebook after the save.
    outside, folder = tmp_path / "course", tmp_path / "course" / "autograded" / "student"
    folder.mkdir(parents=True)
    (outside / "gradebook.db").write_text("grades")
    (folder / "submitted.txt").write_text("answers")
    (folder / "kernel.py").write_text(KERNEL)
    launcher = [sys.executable, "-I", "-m", "agentcore.course.judges.execute_kernel", "--"]
    # capture_output: the run ends only once every holder of the pipe, the detached process
    # included, is gone; so the launcher must have ended it
    scoped = "scoped" if signals_scoped() else "unscoped"
    grader = subprocess.Popen(["sleep", "60"])  # stands for a later grade's referee
    try:
        done = subprocess.run(
            [*launcher, sys.executable, "kernel.py", str(outside), str(grader.pid), scoped],
            cwd=folder, capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
        assert grader.poll() is None, "the confined kernel killed a process outside it"
    finally:
        grader.kill()
        grader.wait()
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)
    assert results.pop("pid") > 0
    assert results == {
        "judged before": "1",
        "write outside": "PermissionError",
        "read outside": "PermissionError",
        "read the parent's memory": "PermissionError",
        "write in TMPDIR": "done",
        "read its own folder": "done",
        "stop the launcher": "PermissionError" if scoped == "scoped" else "not tried",
        "kill a process of the grader": "PermissionError" if scoped == "scoped" else "not tried",
    }
    assert (outside / "gradebook.db").read_text() == "grades"
    assert not (outside / "rig.txt").exists()
