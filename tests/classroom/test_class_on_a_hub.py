"""A class on one JupyterHub, as ``python -m scripts.classroom serve`` runs it, end to end.

What a teacher does for a class, on 127.0.0.1:

1. ``serve`` builds the learner distribution into the class folder, installs it into the
   learner environment, and makes one system account per learner (and the teacher), each with
   a password of its own and a home only that account can read;
2. three learners log in with their own passwords; a learner's password does not open another
   learner's account, and a name off the roster does not log in;
3. each one follows the nbgitpuller link
   ``/hub/user-redirect/git-pull?repo=file://DIR&branch=main&urlpath=...``: the hub sends the
   link to the learner's own server, whose nbgitpuller page pulls the repository into the
   learner's home (the page's script calls nbgitpuller's ``git-pull/api`` with the link's query;
   the test makes that same call with the learner's cookies);
4. no solution text reached any home; from a learner's kernel, ``agentcore`` is the learner
   environment's copy, and the teacher's checkout (its solutions), the hub's private folder
   and another learner's home cannot be read; a JupyterLab setting one learner changes is theirs;
5. lesson 01 runs top to bottom in each learner's own kernel (started by that learner's server,
   running as that learner, in that learner's home), the three at the same time;
6. one learner opens the link in Chromium, lands on lesson 01 in JupyterLab through the hub,
   runs it and steps the stepper to the final answer;
7. the teacher follows progress, collects and grades as the class's grader: while one learner
   is being graded and after, no learner's kernel reads the sources, another's submission or
   feedback, the grades or the gradebook (0700 folders, 0600 files, all the grader's);
8. a second class on the same machine (its own folder, learner and grader, no hub) collects,
   grades and is removed, chosen by ``$AGENTCORE_CLASS``, and the first class's grading stays;
9. a third class: a learner submits a lesson before its deadline and again after it, another
   only after it; ``collect`` takes the on-time submission and the late one, ``grades.csv``
   carries the timestamps, the due date and lateness, and a point given by hand reaches it;
10. the teacher stops the hub and runs ``serve`` again: a second ``serve`` on the same port says
   it is busy, the learners' passwords and work are still there, Ctrl-C leaves no process
   behind, and the next command finds the class without ``--folder``.
"""

from __future__ import annotations

import asyncio
import csv
import datetime
import json
import os
import pwd
import signal
import stat
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

import psutil
import pytest
import requests

from scripts.classroom import ROOT, answer_regions, build_distribution, solution_leaks
from scripts.hub import (
    DISTRIBUTION,
    Hub,
    code_cells,
    free_port,
    log_in,
    run_in_kernel,
    run_sync,
    start_servers,
    stop_processes,
)

LEARNERS = ("ada", "grace", "linus")
LESSON = "notebooks/en/01-the-loop.ipynb"
TARGET = DISTRIBUTION  # the folder nbgitpuller makes in each home (the repository's name)
CHROMIUM = Path(os.environ.get("AGENTCORE_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync"]
TIMEOUT_MS = 90_000


def pull_link(hub_url: str, repository: Path) -> str:
    """The nbgitpuller link a teacher hands out, for this hub and this repository."""
    query = urlencode(
        {
            "repo": f"file://{repository}",
            "branch": "main",
            "urlpath": f"lab/tree/{TARGET}/{LESSON}",
        },
        quote_via=quote,
    )
    return f"{hub_url}/hub/user-redirect/git-pull?{query}"


def follow_pull_link(hub: Hub, session: requests.Session, learner: str, link: str) -> None:
    """Open the link as the learner, then run the pull the nbgitpuller page starts."""
    page = session.get(link, timeout=60)
    assert page.status_code == 200, page.text[:500]
    assert page.url.startswith(f"{hub.url}/user/{learner}/git-pull?"), page.url
    query = page.url.split("?", 1)[1]
    events = session.get(f"{hub.url}/user/{learner}/git-pull/api?{query}", timeout=120)
    phases = [
        json.loads(line[len("data: ") :]).get("phase")
        for line in events.text.splitlines()
        if line.startswith("data: ")
    ]
    assert phases and phases[-1] == "finished", events.text[-2000:]


@pytest.fixture(scope="module")
def distribution(hub: Hub) -> Path:
    """The learner distribution ``serve`` built into the class folder."""
    return hub.folder.distribution


@pytest.fixture(scope="module")
def class_pulled(hub: Hub, distribution: Path) -> dict[str, requests.Session]:
    """Three learners logged in, with their servers running and the course pulled."""
    sessions = {learner: log_in(hub, learner) for learner in LEARNERS}
    start_servers(hub, LEARNERS)
    link = pull_link(hub.url, distribution)
    for learner, session in sessions.items():
        follow_pull_link(hub, session, learner, link)
    return sessions


def test_the_distribution_holds_learner_notebooks_and_no_solutions(distribution: Path) -> None:
    assert (distribution / LESSON).exists()
    assert (distribution / "agentcore" / "runtime.py").exists()
    assert not list(distribution.glob("notebooks/*/solutions"))
    assert solution_leaks(distribution, answer_regions()) == []
    # Building again with nothing changed adds no commit: learners' pulls stay quiet.
    head = build_distribution(distribution)
    assert build_distribution(distribution) == head


def test_each_learner_is_a_system_account_with_a_home_of_their_own(hub: Hub) -> None:
    for learner in LEARNERS:
        account = pwd.getpwnam(learner)
        home = Path(account.pw_dir)
        assert home == hub.home(learner)
        assert home.stat().st_uid == account.pw_uid
        assert home.stat().st_mode & 0o777 == 0o700, oct(home.stat().st_mode)
    assert oct(hub.folder.logins.stat().st_mode & 0o777) == "0o600"
    assert oct(hub.folder.hub.stat().st_mode & 0o777) == "0o700"


def test_learners_log_in_only_as_themselves(hub: Hub) -> None:
    log_in(hub, "ada")
    with pytest.raises(RuntimeError, match="login refused for grace: 403"):
        log_in(hub, "grace", hub.password("ada"))
    with pytest.raises(RuntimeError, match="login refused for mallory: 403"):
        log_in(hub, "mallory", hub.password("ada"))
    users = hub.api("GET", "/hub/api/users").json()
    admins = [user["name"] for user in users if user["admin"]]
    assert admins == ["classtest-teacher"]


def test_each_learner_pulled_the_course_into_their_own_home_without_solutions(
    hub: Hub, class_pulled: dict[str, requests.Session]
) -> None:
    regions = answer_regions()
    for learner in LEARNERS:
        home = hub.home(learner)
        assert (home / TARGET / LESSON).exists(), sorted(home.rglob("*"))[:20]
        assert (home / TARGET / "notebooks" / "zh-CN" / Path(LESSON).name).exists()
        assert solution_leaks(home, regions) == []


def test_lesson_01_runs_in_each_learners_own_kernel_at_the_same_time(
    hub: Hub, class_pulled: dict[str, requests.Session]
) -> None:
    cells = [
        "import os; print(os.getcwd())",
        "import getpass; print(getpass.getuser())",
        *code_cells(hub.home(LEARNERS[0]) / TARGET / LESSON),
    ]

    async def everyone() -> list[dict[str, Any]]:
        runs = (run_in_kernel(hub, name, f"{TARGET}/{LESSON}", cells) for name in LEARNERS)
        return await asyncio.gather(*runs)

    start = time.perf_counter()
    results = run_sync(everyone())
    elapsed = time.perf_counter() - start
    for learner, result in zip(LEARNERS, results, strict=True):
        assert result["errors"] == [], (learner, result["errors"])
        cwd = Path(result["texts"][0].strip())
        assert cwd == hub.home(learner) / TARGET / Path(LESSON).parent, "not the learner's home"
        assert result["texts"][1].strip() == learner, "the kernel does not run as its learner"
        answer = "Tokyo's deterministic teaching record is 18.0°C (64.4°F), cloudy."
        assert answer in "".join(result["texts"])
    print(f"lesson 01 in three kernels at once: {elapsed:.1f} s")


def test_a_learner_opens_the_link_in_chromium_and_steps_to_the_final_answer(
    hub: Hub, class_pulled: dict[str, requests.Session], distribution: Path
) -> None:
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} not found (apt-get install chromium)")
    # In a thread of its own: the browser suite's Playwright may still be running in this one.
    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(step_lesson_01_in_chromium, hub, distribution).result()


def step_lesson_01_in_chromium(hub: Hub, distribution: Path) -> None:
    """Log in, follow the link, run lesson 01 and step its stepper to the final answer."""
    from playwright.sync_api import sync_playwright

    from tests.browser.test_jupyterlab import ALL_CELLS_RAN, KERNEL_READY, transcript_rows

    artifacts = Path(__file__).resolve().parents[2] / "artifacts" / "classroom"
    artifacts.mkdir(parents=True, exist_ok=True)
    learner = LEARNERS[0]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        try:
            page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
            page.goto(f"{hub.url}/hub/login")
            page.fill("input[name=username]", learner)
            page.fill("input[name=password]", hub.password(learner))
            page.click("input[type=submit], button[type=submit]")
            # Logging in alone pulls the course and opens lesson 00 (the hub's default URL is
            # an nbgitpuller link); wait for it, so the two pulls do not overlap.
            page.wait_for_url(
                f"**/user/{learner}/lab/tree/{TARGET}/notebooks/en/00-*", timeout=TIMEOUT_MS
            )
            page.goto(pull_link(hub.url, distribution))
            page.wait_for_url(f"**/user/{learner}/lab/tree/{TARGET}/**", timeout=TIMEOUT_MS)
            page.wait_for_selector(".jp-Notebook", timeout=TIMEOUT_MS)
            page.wait_for_function(KERNEL_READY, timeout=TIMEOUT_MS)
            page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
            page.wait_for_timeout(500)
            page.wait_for_function(ALL_CELLS_RAN, timeout=TIMEOUT_MS)
            visible = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)")
            stepper = visible.locator(".agentcore-stepper").first
            stepper.wait_for(timeout=TIMEOUT_MS)
            stepper.scroll_into_view_if_needed()
            page.screenshot(path=str(artifacts / "hub-stepper-before.png"))
            step = stepper.get_by_role("button", name="Step", exact=True)
            for _ in range(10):
                if stepper.locator(".agentcore-outcome").count():
                    break
                before = transcript_rows(stepper)
                step.click()
                page.wait_for_function(
                    "([box, n]) => box.querySelectorAll('table.agentcore-transcript tbody tr')"
                    ".length > n || box.querySelector('.agentcore-outcome') !== null",
                    arg=[stepper.element_handle(), before],
                    timeout=20_000,
                )
            outcome = stepper.locator(".agentcore-outcome")
            assert "64.4°F" in outcome.inner_text()
            assert f"/user/{learner}/" in page.url
            page.screenshot(path=str(artifacts / "hub-stepper.png"))
        finally:
            browser.close()


def test_the_capacity_benchmark_simulates_a_learner_on_this_hub(
    hub: Hub, capsys: pytest.CaptureFixture[str]
) -> None:
    """benchmarks/capacity.py's simulated session and measurement, for a fourth learner."""
    import importlib.util

    path = Path(__file__).resolve().parents[2] / "benchmarks" / "capacity.py"
    spec = importlib.util.spec_from_file_location("capacity", path)
    assert spec and spec.loader
    capacity = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(capacity)
    figures = capacity.simulate(hub, ["margaret"])
    assert figures["learners"] == 1 and figures["spawn"][0] > 0
    assert figures["first_cell"][0] > 0 and figures["cpu_per_lesson"][0] > 0
    # Shutting the three kernels down leaves the server alone: less memory, still some.
    assert 0 < figures["idle_pss"][0] < figures["active_pss"][0]
    assert figures["hub_pss"] > 0
    assert figures["idle_capacity"] > figures["active_capacity"] >= 1
    with capsys.disabled():
        print("\n" + capacity.report(figures))


PROBE = """
import json, os
import agentcore
found = {"agentcore": agentcore.__file__}
for name, path in json.loads(%r).items():
    try:
        if os.path.isdir(path):
            os.listdir(path)
        else:
            open(path, "rb").read(1)
        found[name] = "read"
    except PermissionError:
        found[name] = "refused"
print(json.dumps(found))
"""


def test_a_learner_kernel_reads_no_solution_no_teacher_file_and_no_other_home(
    hub: Hub, class_pulled: dict[str, requests.Session]
) -> None:
    solution = ROOT / "notebooks" / "en" / "solutions" / Path(LESSON).name
    assert solution.exists()
    targets = {
        "solution notebook": str(solution),
        "teacher's checkout": str(ROOT),
        "teacher's guide": str(ROOT / "docs" / "teaching" / "README.md"),
        "logins.csv": str(hub.folder.logins),
        "hub folder": str(hub.folder.hub),
        "another learner's home": str(hub.home("grace")),
        "another learner's lesson": str(hub.home("grace") / TARGET / LESSON),
    }
    result = run_sync(
        run_in_kernel(hub, "ada", f"{TARGET}/{LESSON}", [PROBE % json.dumps(targets)])
    )
    assert result["errors"] == []
    found = json.loads(result["texts"][0])
    # The package is the learner environment's installed copy, not the teacher's checkout.
    assert found.pop("agentcore").startswith(str(hub.folder.environment / "lib")), found
    assert found == dict.fromkeys(targets, "refused")
    # The learner still reads their own work.
    own = run_sync(
        run_in_kernel(
            hub, "ada", f"{TARGET}/{LESSON}", [f"open({LESSON.split('/')[-1]!r}).read(1)"]
        )
    )
    assert own["errors"] == []


def test_a_jupyterlab_setting_a_learner_changes_is_only_theirs(
    hub: Hub, class_pulled: dict[str, requests.Session]
) -> None:
    plugin = "@jupyterlab/apputils-extension:themes"
    ada = class_pulled["ada"]
    ada.get(f"{hub.url}/user/ada/lab", timeout=60).raise_for_status()
    xsrf = next(c.value for c in ada.cookies if c.name == "_xsrf" and "/user/ada" in c.path)
    changed = ada.put(
        f"{hub.url}/user/ada/lab/api/settings/{plugin}",
        json={"raw": '{"theme": "JupyterLab Dark"}'},
        headers={"X-XSRFToken": xsrf},
        timeout=60,
    )
    assert changed.status_code == 204, changed.text
    stored = hub.home("ada") / ".jupyter" / "lab" / "user-settings" / plugin.replace(":", "/")
    assert "JupyterLab Dark" in stored.with_suffix(".jupyterlab-settings").read_text()
    grace = class_pulled["grace"].get(f"{hub.url}/user/grace/lab/api/settings/{plugin}", timeout=60)
    assert grace.json()["settings"].get("theme") != "JupyterLab Dark"


def save_as(hub: Hub, learner: str, lesson: str, notebook: dict[str, Any]) -> None:
    """Save a notebook into the learner's copy through their server, as JupyterLab saves."""
    saved = hub.api(
        "PUT",
        f"/user/{learner}/api/contents/{TARGET}/{lesson}",
        json={"type": "notebook", "format": "json", "content": notebook},
    )
    assert saved.status_code in (200, 201), saved.text


def probe(hub: Hub, learner: str, targets: dict[str, Path]) -> dict[str, str]:
    """Try to read each of ``targets`` from the learner's own kernel: ``read`` or ``refused``.

    Every target must exist (checked as root first): a missing file is no proof of privacy."""
    missing = [name for name, path in targets.items() if not path.exists()]
    assert missing == [], missing
    paths = json.dumps({name: str(path) for name, path in targets.items()})
    result = run_sync(run_in_kernel(hub, learner, f"{TARGET}/{LESSON}", [PROBE % paths]))
    assert result["errors"] == [], result["errors"]
    found = json.loads(result["texts"][0])
    found.pop("agentcore")
    return dict(found)


def shared_with_others(folder: Path) -> list[str]:
    """What in ``folder`` (itself included) an account other than its owner may read, write or
    enter (any permission of group or others), or is not the folder owner's."""
    owner = folder.stat().st_uid
    found = []
    for where, folders, files in os.walk(folder):
        for name in [".", *folders, *files]:
            path = Path(where, name)
            status = path.lstat()
            if not stat.S_ISLNK(status.st_mode) and (
                stat.S_IMODE(status.st_mode) & 0o077 or status.st_uid != owner
            ):
                found.append(f"{path.relative_to(folder)} {oct(status.st_mode)} {status.st_uid}")
    return found


def test_the_teacher_follows_progress_collects_and_grades_as_the_grader(
    hub: Hub,
    class_pulled: dict[str, requests.Session],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``progress``, ``collect``, ``grade``; while ada's and grace's lesson 03 is being graded,
    and after, no learner reads the sources, another's submission or feedback, or the grades."""
    from scripts import grading
    from scripts.classroom import main
    from tests.test_grading import notebook

    lesson = "notebooks/en/03-errors.ipynb"
    save_as(hub, "ada", lesson, notebook("solved"))
    save_as(hub, "grace", lesson, notebook("wrong"))
    assert pwd.getpwuid((hub.home("ada") / TARGET / lesson).stat().st_uid).pw_name == "ada"
    folder = ["--folder", str(hub.folder.root)]

    assert main(["progress", *folder]) == 0
    table = capsys.readouterr().out
    rows = {line.split()[0]: line.split() for line in table.splitlines()[1:5]}
    report = grading.progress(hub.folder, hub.folder.distribution)
    columns = [i for i, name in enumerate(report.exercises, start=1) if name.startswith("03-")]
    assert [rows["ada"][i] for i in columns] == ["✔", "✔"]
    assert [rows["grace"][i] for i in columns] == ["✘", "✘"]
    assert set(rows["linus"][1:-1]) == {"·"}
    assert "<svg" in (hub.folder.hub / "progress.html").read_text()

    assert main(["collect", *folder]) == 0
    assert "ada: 1 lessons" in capsys.readouterr().out
    course = hub.folder.root / "grading"
    submitted = course / "submitted"
    assert sorted(path.name for path in submitted.iterdir()) == ["ada", "grace"]
    assert (submitted / "ada" / "03-errors-en" / "03-errors.ipynb").exists()
    grader = pwd.getpwnam(grading.grader_name(hub.folder))
    assert Path(grader.pw_dir) == course and course.stat().st_uid == grader.pw_uid
    assert shared_with_others(course) == []  # 0700 folders, 0600 files, all the grader's

    # While lesson 03 is being graded (autograded, its feedback not made yet), grace tries to
    # read ada's work, the solutions and the gradebook from her kernel.
    assignment = Path("03-errors-en") / "03-errors.ipynb"
    during: dict[str, Any] = {}
    run_nbgrader = grading.run_nbgrader

    def watched(*args: Any) -> None:
        run_nbgrader(*args)
        if args[3] == "autograde" and not during:
            during["shared"] = shared_with_others(course)
            during["grace"] = probe(hub, "grace", {
                "the grading folder": course,
                "the source, with its solutions": course / "source" / assignment,
                "ada's submission": submitted / "ada" / assignment,
                "ada's autograded notebook": course / "autograded" / "ada" / assignment,
                "the gradebook": course / "gradebook.db",
            })  # fmt: skip

    monkeypatch.setattr(grading, "run_nbgrader", watched)
    assert main(["grade", *folder]) == 0
    out = capsys.readouterr().out
    assert f"graded as {grader.pw_name!r}" in out
    assert during["shared"] == []
    assert set(during["grace"].values()) == {"refused"}, during["grace"]
    grades = Path(out.split("grades: ", 1)[1].split()[0])
    assert grades == course / "grades.csv"
    with grades.open(newline="") as handle:
        scores = {
            row["student_id"]: float(row["raw_score"])
            for row in csv.DictReader(handle)
            if row["assignment"] == "03-errors-en"
        }
    assert scores == {"ada": 2.0, "grace": 0.0}  # both of grace's answers are wrong ones
    assert (grades.parent / "gradebook.db").stat().st_uid == grader.pw_uid
    assert shared_with_others(course) == []
    feedback = hub.home("ada") / "feedback" / "03-errors-en" / "03-errors.html"
    assert feedback.stat().st_uid == pwd.getpwnam("ada").pw_uid
    assert "03-errors" in feedback.read_text()

    # After grading, ada reads her own feedback and nothing of grace's or the teacher's.
    found = probe(hub, "ada", {
        "ada's own feedback": feedback,
        "the source, with its solutions": course / "source" / assignment,
        "grace's submission": submitted / "grace" / assignment,
        "grace's autograded notebook": course / "autograded" / "grace" / assignment,
        "grace's feedback, in grading": course / "feedback" / "grace" / assignment.with_suffix(
            ".html"
        ),
        "grace's feedback, in her home": hub.home("grace") / "feedback" / assignment.with_suffix(
            ".html"
        ),
        "grades.csv": grades,
        "the gradebook": course / "gradebook.db",
    })  # fmt: skip
    assert found.pop("ada's own feedback") == "read"
    assert set(found.values()) == {"refused"}, found


def test_two_classes_on_one_machine_grade_apart_and_are_removed_apart(
    hub: Hub, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A second class (its own folder, learner and grader; no hub of its own: it shares the
    first class's learner environment) collects, grades and is removed, chosen by
    ``$AGENTCORE_CLASS`` alone, and the first class's grading is left as it was."""
    from scripts import grading
    from scripts.accounts import ensure_accounts
    from scripts.classroom import main
    from scripts.hub import ClassFolder
    from scripts.serve import remove_class
    from tests.test_grading import notebook

    first = hub.folder
    first_grader = grading.grader_account(first)
    before = files_of(first.root / "grading")
    second = ClassFolder(Path(tempfile.mkdtemp(prefix="agentcore-class-test-", dir="/var/tmp")))
    try:
        second.prepare()
        ensure_accounts(["hopper"], "classtest-teacher-b", second.homes, second.logins)
        second.environment.symlink_to(first.environment)
        (second.root / "grading-env").symlink_to(grading.grading_environment(first))
        hopper = pwd.getpwnam("hopper")
        saved = json.dumps(notebook("solved")).encode("utf-8")
        grading.account_files(
            hopper, Path(hopper.pw_dir), write={f"{TARGET}/notebooks/en/03-errors.ipynb": saved}
        )
        monkeypatch.setenv("AGENTCORE_CLASS", str(second.root))
        assert main(["collect"]) == 0
        out = capsys.readouterr().out
        assert f"class folder: {second.root} (from $AGENTCORE_CLASS)" in out
        assert "hopper: 1 lessons" in out and "ada:" not in out
        assert main(["grade"]) == 0
        capsys.readouterr()
        second_grader = pwd.getpwnam(grading.grader_name(second))
        assert second_grader.pw_name != first_grader.pw_name
        assert second_grader.pw_dir == str(second.root / "grading")
        assert sorted(path.name for path in (second.root / "grading" / "submitted").iterdir()) == [
            "hopper"
        ]
        with (second.root / "grading" / "grades.csv").open(newline="") as handle:
            rows = list(csv.DictReader(handle))
        assert {(row["student_id"], float(row["raw_score"])) for row in rows} == {("hopper", 2.0)}
        assert (Path(hopper.pw_dir) / "feedback" / "03-errors-en" / "03-errors.html").exists()
        assert shared_with_others(second.root / "grading") == []
        assert files_of(first.root / "grading") == before

        assert main(["remove"]) == 0
        assert "removed 3 accounts" in capsys.readouterr().out  # hopper, its teacher, its grader
        assert not second.root.exists()
        for name in ("hopper", "classtest-teacher-b", second_grader.pw_name):
            with pytest.raises(KeyError):
                pwd.getpwnam(name)
        assert pwd.getpwnam(first_grader.pw_name).pw_dir == str(first.root / "grading")
        assert files_of(first.root / "grading") == before
    finally:
        remove_class(second)


def as_account(name: str, command: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run ``command`` as the account ``name`` (its own groups, umask 022, its home), as a
    JupyterLab terminal of that account would."""
    account = pwd.getpwnam(name)
    return subprocess.run(
        command, cwd=cwd, user=account.pw_uid, group=account.pw_gid, extra_groups=[],
        umask=0o022, env={"HOME": account.pw_dir, "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"},
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


def test_a_deadline_marks_late_submissions_and_a_manual_grade_reaches_grades_csv(
    hub: Hub, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A class (no hub of its own) where hedy submits lesson 03 before its deadline and again
    after it, joan submits a wrong answer after it and mary only saves hers after it:
    ``collect`` takes hedy's on-time submission, joan's late one and mary's saved lesson,
    ``grades.csv`` carries each timestamp, the due date and whether it was late; a point given
    by hand in nbgrader's formgrader (``formgrader``, driven through its own API) reaches
    ``grades.csv`` through ``export``; every new file stays private."""
    from scripts import grading
    from scripts.accounts import ensure_accounts
    from scripts.classroom import main
    from scripts.hub import ClassFolder
    from scripts.serve import remove_class
    from tests.test_grading import notebook

    third = ClassFolder(Path(tempfile.mkdtemp(prefix="agentcore-class-test-", dir="/var/tmp")))
    lesson = Path(TARGET) / "notebooks" / "en" / "03-errors.ipynb"
    python = str(third.environment / "bin" / "python")

    def save(learner: str, kind: str) -> None:
        account = pwd.getpwnam(learner)
        saved = json.dumps(notebook(kind)).encode("utf-8")
        grading.account_files(account, Path(account.pw_dir), write={str(lesson): saved})

    def save_and_submit(learner: str, kind: str) -> str:
        save(learner, kind)
        account = pwd.getpwnam(learner)
        done = as_account(
            learner, [python, "-m", "agentcore.course.submit", str(lesson.relative_to(TARGET))],
            Path(account.pw_dir) / TARGET,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        return done.stdout

    try:
        third.prepare()
        ensure_accounts(["hedy", "joan", "mary"], "classtest-teacher-c", third.homes, third.logins)
        third.environment.symlink_to(hub.folder.environment)
        (third.root / "grading-env").symlink_to(grading.grading_environment(hub.folder))
        monkeypatch.setenv("AGENTCORE_CLASS", str(third.root))

        said = save_and_submit("hedy", "solved")
        assert said.startswith("Submitted 03-errors-en at ") and "submissions/03-errors-en" in said
        time.sleep(1)
        deadline = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)
        assert main(["deadline", "03", deadline.isoformat()]) == 0
        assert f"deadline {deadline:%Y-%m-%d %H:%M} UTC for 03-errors" in capsys.readouterr().out
        assert main(["deadline"]) == 0
        assert f"03-errors: {deadline:%Y-%m-%d %H:%M} UTC" in capsys.readouterr().out
        time.sleep(2)
        save_and_submit("hedy", "wrong")  # after the deadline: not taken
        save_and_submit("joan", "wrong")  # after the deadline: late
        save("mary", "solved")  # saved after the deadline, never submitted: late

        assert main(["collect"]) == 0
        out = capsys.readouterr().out
        assert "hedy: 1 lessons (1 submitted, 0 late)" in out, out
        assert "joan: 1 lessons (1 submitted, 1 late: 03-errors-en)" in out, out
        assert "mary: 1 lessons (0 submitted, 1 late: 03-errors-en)" in out, out
        course = third.root / "grading"
        taken = course / "submitted" / "hedy" / "03-errors-en" / "03-errors.ipynb"
        assert json.loads(taken.read_text()) == notebook("solved")

        assert main(["grade"]) == 0
        capsys.readouterr()
        with (course / "grades.csv").open(newline="") as handle:
            rows = {row["student_id"]: row for row in csv.DictReader(handle)}
        due = datetime.datetime.fromisoformat(rows["hedy"]["duedate"])
        assert due == deadline.replace(tzinfo=None)  # nbgrader writes UTC without a zone
        hedy_time = datetime.datetime.fromisoformat(rows["hedy"]["timestamp"])
        joan_time = datetime.datetime.fromisoformat(rows["joan"]["timestamp"])
        assert hedy_time < due < joan_time
        assert (rows["hedy"]["late"], rows["hedy"]["seconds_late"]) == ("no", "0")
        assert rows["joan"]["late"] == "yes" and int(rows["joan"]["seconds_late"]) >= 1
        assert (
            rows["mary"]["late"] == "yes" and rows["mary"]["timestamp"] > rows["joan"]["timestamp"]
        )
        scores = {name: float(row["raw_score"]) for name, row in rows.items()}
        assert scores == {"hedy": 2.0, "joan": 0.0, "mary": 2.0}

        # The teacher gives joan's first check a point by hand in formgrader.
        port = free_port()
        command = [sys.executable, "-m", "scripts.classroom", "formgrader", "--port", str(port)]
        formgrader = subprocess.Popen(
            command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            env={**os.environ, "AGENTCORE_CLASS": str(third.root)},
        )  # fmt: skip
        try:
            assert formgrader.stdout is not None
            printed = []
            for line in formgrader.stdout:
                printed.append(line)
                if "token=" in line or "error" in line:
                    break
            address = next((line.strip() for line in printed if "token=" in line), "")
            assert address.startswith(f"http://127.0.0.1:{port}/lab?token="), printed
            api = f"http://127.0.0.1:{port}/formgrader/api"
            session = requests.Session()
            session.headers["Authorization"] = f"token {address.split('token=', 1)[1]}"
            notebooks = session.get(f"{api}/submitted_notebooks/03-errors-en/03-errors").json()
            joan = next(item for item in notebooks if item["student"] == "joan")
            grades = session.get(f"{api}/grades", params={"submission_id": joan["id"]}).json()
            check = next(grade for grade in grades if grade["name"].startswith("check_"))
            assert check["auto_score"] == 0.0
            given = session.put(f"{api}/grade/{check['id']}", json={"manual_score": 1.0})
            assert given.status_code == 200 and given.json()["manual_score"] == 1.0
            below = [child.pid for child in psutil.Process(formgrader.pid).children(recursive=True)]
            formgrader.send_signal(signal.SIGINT)  # Ctrl-C
            rest, _ = formgrader.communicate(timeout=90)
            assert formgrader.returncode == 0 and "formgrader stopped" in rest, rest
            assert not [pid for pid in below if psutil.pid_exists(pid)]
        finally:
            if formgrader.poll() is None:
                below = [c.pid for c in psutil.Process(formgrader.pid).children(recursive=True)]
                formgrader.kill()
                formgrader.wait()
                stop_processes(below)
        assert main(["export"]) == 0
        with (course / "grades.csv").open(newline="") as handle:
            rows = {row["student_id"]: row for row in csv.DictReader(handle)}
        assert float(rows["joan"]["raw_score"]) == 1.0 and rows["joan"]["late"] == "yes"
        assert float(rows["hedy"]["raw_score"]) == 2.0

        # Private: the grading folder is the grader's alone, a submission its learner's alone,
        # the deadlines the teacher's; joan reads none of hedy's work, the grades or deadlines.
        assert shared_with_others(course) == []
        hedy_submissions = third.homes / "hedy" / "submissions"
        assert shared_with_others(hedy_submissions) == []
        assert hedy_submissions.stat().st_uid == pwd.getpwnam("hedy").pw_uid
        assert oct((third.hub / "deadlines.json").stat().st_mode & 0o777) == "0o600"
        targets = [
            next(hedy_submissions.glob("03-errors-en/*/03-errors.ipynb")),
            course / "grades.csv",
            course / "submitted" / "joan" / "03-errors-en" / "timestamp.txt",
            third.hub / "deadlines.json",
        ]
        for target in targets:
            tried = as_account("joan", ["/bin/cat", str(target)], Path("/"))
            assert tried.returncode != 0 and "Permission denied" in tried.stderr, target
    finally:
        remove_class(third)


def files_of(folder: Path) -> dict[str, bytes]:
    """Every regular file below ``folder`` (read as root), by its path relative to it."""
    return {
        str(path.relative_to(folder)): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file() and not path.is_symlink()
    }


def test_serve_again_keeps_accounts_and_work_and_stops_without_leftovers(
    classroom: Any,
    class_pulled: dict[str, requests.Session],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The teacher stops the class and runs ``serve`` again (the last test of the module)."""
    from scripts.classroom import main

    hub = classroom.hub
    note = "ada's own work, kept across a restart"
    write = (
        "import os; os.makedirs('my-work', exist_ok=True); "
        f"open('my-work/note.txt', 'w').write({note!r})"
    )
    assert run_sync(run_in_kernel(hub, "ada", "x.ipynb", [write]))["errors"] == []
    classroom.stop()
    roster = classroom.folder.root / "roster.txt"
    roster.write_text("# the class\n" + "\n".join(classroom.settings.learners) + "\n")
    command = [sys.executable, "-m", "scripts.classroom", "serve", "--roster", str(roster),
               "--teacher", classroom.settings.teacher, "--folder", str(classroom.folder.root),
               "--port", str(classroom.settings.port)]  # fmt: skip
    serve = subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    try:
        assert serve.stdout is not None
        printed = []
        for line in serve.stdout:
            printed.append(line)
            if "JupyterLab terminal" in line:
                break
        text = "".join(printed)
        assert f"running at {hub.url}/" in text, text
        assert "log in as 'classtest-teacher';" in text  # its password was printed the first time
        assert str(classroom.folder.logins) in text and "accounts are new" not in text
        second = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert second.returncode == 1
        assert f"127.0.0.1:{classroom.settings.port} is already in use" in second.stderr
        log_in(hub, "ada")  # the same password as before the restart
        start_servers(hub, ["ada"])
        kept = hub.api("GET", "/user/ada/api/contents/my-work/note.txt")
        assert kept.status_code == 200 and kept.json()["content"] == note
        started = [child.pid for child in psutil.Process(serve.pid).children(recursive=True)]
        assert len(started) >= 4  # the hub, its proxy, the idle culler, ada's server
        serve.send_signal(signal.SIGINT)
        rest, _ = serve.communicate(timeout=120)
        assert serve.returncode == 0, rest
        assert "the accounts and the learners' work are kept" in rest
        # serve remembered its folder: the next command needs no --folder.
        monkeypatch.delenv("AGENTCORE_CLASS", raising=False)
        assert main(["progress"]) == 0
        assert f"class folder: {classroom.folder.root} (the last serve" in capsys.readouterr().out
        assert not [pid for pid in started if psutil.pid_exists(pid)]
        uids = {pwd.getpwnam(name).pw_uid for name in classroom.settings.learners}
        left = [p.pid for p in psutil.process_iter(["uids"]) if p.info["uids"].real in uids]
        assert left == []
    finally:
        if serve.poll() is None:  # a failed assertion: stop it as Ctrl-C would, then for sure
            below = [child.pid for child in psutil.Process(serve.pid).children(recursive=True)]
            serve.send_signal(signal.SIGINT)
            try:
                serve.wait(timeout=60)
            except subprocess.TimeoutExpired:
                serve.kill()
                serve.wait()
            stop_processes(below)


def test_the_class_is_served_over_https_with_the_teachers_certificate(
    classroom: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--certificate`` and ``--key``: learners log in over HTTPS and plain HTTP gets nothing.

    The certificate comes from a throwaway authority (trustme), as a room's would come from the
    school's; the learner's browser trusts that authority (here: ``REQUESTS_CA_BUNDLE``).
    """
    import trustme  # the classroom extra's; imported here so the module collects without it

    authority = trustme.CA()
    served = authority.issue_cert("127.0.0.1", "localhost")
    certificate, key = tmp_path / "room.pem", tmp_path / "room.key"
    served.cert_chain_pems[0].write_to_path(str(certificate))
    served.private_key_pem.write_to_path(str(key))
    # The hub's user reads them; tmp_path is not open to it.
    for path in (certificate, key):
        os.chmod(path, 0o644)
    os.chmod(tmp_path, 0o755)
    trusted = tmp_path / "authority.pem"
    authority.cert_pem.write_to_path(str(trusted))
    classroom.settings = replace(classroom.settings, certificate=certificate, key=key)
    hub = classroom.start()
    try:
        assert hub.url.startswith("https://127.0.0.1:")
        monkeypatch.setenv("REQUESTS_CA_BUNDLE", str(trusted))
        session = log_in(hub, "ada")
        assert session.get(f"{hub.url}/hub/home", timeout=30).status_code == 200
        stranger = tmp_path / "another-authority.pem"
        trustme.CA().cert_pem.write_to_path(str(stranger))
        with pytest.raises(requests.exceptions.SSLError):  # it is TLS with this certificate
            requests.get(f"{hub.url}/hub/login", timeout=10, verify=str(stranger))
        plain = hub.url.replace("https://", "http://")
        with pytest.raises(requests.exceptions.ConnectionError):
            requests.get(f"{plain}/hub/login", timeout=10)
    finally:
        classroom.stop()
