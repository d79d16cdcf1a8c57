"""A class of three on one JupyterHub: log in, pull the course with a link, run lesson 01.

What a teacher does for a class, end to end on 127.0.0.1:

1. build the learner distribution as a git repository (``python -m scripts.classroom
   distribution DIR``), the folder a teacher would publish;
2. three learners log in with the class's shared password (the hub's login form);
3. each one follows the nbgitpuller link
   ``/hub/user-redirect/git-pull?repo=file://DIR&branch=main&urlpath=...``: the hub sends the
   link to the learner's own server, whose nbgitpuller page pulls the repository into the
   learner's home (the page's script calls nbgitpuller's ``git-pull/api`` with the link's query;
   the test makes that same call with the learner's cookies);
4. no solution text reached any home;
5. lesson 01 runs top to bottom in each learner's own kernel (started by that learner's server,
   working in that learner's home), the three at the same time;
6. one learner opens the link in Chromium, lands on lesson 01 in JupyterLab through the hub,
   runs it and steps the stepper to the final answer.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

import pytest
import requests

from scripts.classroom import answer_regions, build_distribution, solution_leaks
from scripts.hub import Hub, code_cells, log_in, run_in_kernel, run_sync, start_servers

LEARNERS = ("ada", "grace", "linus")
LESSON = "notebooks/en/01-the-loop.ipynb"
TARGET = "agentcore-course"  # the folder nbgitpuller makes in each home (the repo's name)
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
def distribution(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The learner distribution, built by the command a teacher runs."""
    from scripts.classroom import main

    folder = tmp_path_factory.mktemp("published") / TARGET
    assert main(["distribution", str(folder)]) == 0
    return folder


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
    cells = ["import os; print(os.getcwd())", *code_cells(hub.home(LEARNERS[0]) / TARGET / LESSON)]

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
            page.fill("input[name=password]", hub.password)
            page.click("input[type=submit], button[type=submit]")
            page.wait_for_url("**/user/**", timeout=TIMEOUT_MS)
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


def test_the_capacity_benchmark_measures_a_learner_on_this_hub(
    hub: Hub, distribution: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """benchmarks/capacity.py's measurement, on the suite's hub, for a fourth learner."""
    import importlib.util

    path = Path(__file__).resolve().parents[2] / "benchmarks" / "capacity.py"
    spec = importlib.util.spec_from_file_location("capacity", path)
    assert spec and spec.loader
    capacity = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(capacity)
    figures = capacity.measure(hub, distribution, learner="margaret")
    assert figures["learner_processes"] >= 3  # the server and the two lessons' kernels
    assert 0 < figures["learner_pss"] <= figures["learner_rss"]
    assert figures["hub_pss"] > 0 and figures["hub_processes"] == 2  # the hub and its proxy
    assert figures["capacity"] >= 1
    with capsys.disabled():
        print("\n" + capacity.report(figures))
