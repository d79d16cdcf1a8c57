"""The teacher's guide's "A class on JupyterHub" section, in both languages: every command in it
is run somewhere.

Each shell command of the section must be one this repository runs (the table below says
where), except those that need a cluster, a registry or the teacher's server on a cluster
(Zero to JupyterHub). The nbgitpuller link has the form
the classroom suite follows, and the section states the measured capacity with its date.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[1]
GUIDE = "docs/teaching/"
SECTIONS = {
    GUIDE + "README.md": "## A class on JupyterHub",
    GUIDE + "README.zh-CN.md": "## 用 JupyterHub 带一个班",
}
RUN_BY = {
    "python -m scripts.classroom distribution ../agentcore-course-learners":
        "tests/test_classroom_distribution.py runs scripts.classroom.main",
    'pip install -e ".[classroom]"': ".ci/run (classroom block)",
    "npm install --prefix .classroom/npm configurable-http-proxy@5.2.0": ".ci/run (classroom)",
    "python -m scripts.classroom serve --roster roster.txt":
        "tests/classroom: serve again, as a subprocess, with a roster file",
    "python -m scripts.classroom progress": "tests/classroom: the teacher follows and grades",
    "python -m scripts.classroom collect": "tests/classroom: the teacher follows and grades",
    "python -m scripts.classroom grade": "tests/classroom: the teacher follows and grades",
    "cd agentcore-course-learners":
        "tests/classroom: a deadline marks late submissions (each learner submits from there)",
    "python -m agentcore.course.submit notebooks/en/01-the-loop.ipynb":
        "tests/classroom: a deadline marks late submissions (learners submit lesson 03 so)",
    "python -m scripts.classroom deadline 01 2026-12-14T18:00+08:00":
        "tests/test_grading.py runs it on a class folder; tests/classroom sets one for lesson 03",
    "python -m scripts.classroom deadline": "tests/test_grading.py and tests/classroom list them",
    "python -m scripts.classroom formgrader":
        "tests/classroom: a deadline marks late submissions (a point given in formgrader)",
    "python -m scripts.classroom export": "tests/classroom: a deadline marks late submissions",
    "python -m pytest tests/classroom": ".ci/run runs the whole suite with classroom required",
    "python -m scripts.slides present 01 --language zh-CN":
        "tests/browser/test_slides_demo.py runs it, in both languages",
    "cp -r deploy/z2jh/binder /tmp/learner-image/binder":
        "tests/test_z2jh_learner_image.py copies binder/ into a distribution and resolves it",
    "python -m scripts.z2jh values roster.txt --teacher YOUR_NAME > roster-values.yaml":
        "tests/test_z2jh_hub_config.py runs it on a roster of its own",
    "python -m scripts.classroom distribution /srv/agentcore-class/agentcore-course-learners":
        "tests/test_classroom_distribution.py runs scripts.classroom.main",
    "python -m scripts.z2jh class-folder roster.txt":
        "tests/test_z2jh_hub_config.py runs it, then progress, on the class volume's layout",
}  # fmt: skip
CLUSTER_ONLY = (
    "jupyter-repo2docker", "--image-name", "docker push", "kubectl ", "helm ", "--namespace ",
    "--values ", "git clone https://github.com/OWNER/agentcore-course-learners",
    "git clone TEACHER_REPOSITORY_URL", 'python -m pip install --user "nbgrader',
)  # fmt: skip


def section(name: str) -> str:
    text = (ROOT / name).read_text(encoding="utf-8")
    start = text.index(SECTIONS[name] + "\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def blocks(text: str, language: str) -> list[str]:
    """The fenced code blocks of one language ("" for a plain fence), in order."""
    fences = re.findall(r"^```(\w*)\n(.*?)^```$", text, re.S | re.M)
    return [body for fence, body in fences if fence == language]


@pytest.mark.parametrize("name", SECTIONS)
def test_every_command_is_run_by_a_test_or_ci_or_needs_a_cluster(name: str) -> None:
    commands = [
        line.strip()
        for block in blocks(section(name), "bash")
        for line in block.splitlines()
        if line.strip()
    ]
    assert commands
    for command in commands:
        assert command in RUN_BY or command.startswith(CLUSTER_ONLY), command


def test_both_languages_give_the_same_commands() -> None:
    english, chinese = SECTIONS
    assert blocks(section(english), "bash") == blocks(section(chinese), "bash")
    assert blocks(section(english), "yaml") == blocks(section(chinese), "yaml")


@pytest.mark.parametrize("name", SECTIONS)
def test_the_nbgitpuller_link_has_the_form_the_classroom_suite_follows(name: str) -> None:
    links = [link for link in blocks(section(name), "") if "git-pull" in link]
    assert len(links) == 1
    parts = urlsplit(links[0].strip())
    assert parts.path == "/hub/user-redirect/git-pull"
    query = parse_qs(parts.query)
    assert set(query) == {"repo", "branch", "urlpath"}
    # nbgitpuller pulls into a folder named after the repository, the one the urlpath opens.
    distribution = next(c for c in RUN_BY if c.startswith("python -m scripts.classroom"))
    assert query["urlpath"][0].startswith(f"lab/tree/{distribution.rsplit('/', 1)[-1]}/")


@pytest.mark.parametrize("name", SECTIONS)
def test_the_capacity_figure_is_stated_with_its_date(name: str) -> None:
    text = section(name)
    assert "benchmarks/capacity.py" in text
    assert re.search(r"\d{4}-\d{2}-\d{2}", text)
    assert re.search(r"\*\*(about )?\d+ (learners|个学员)\*\*", text)
