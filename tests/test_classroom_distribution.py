"""The learner distribution, without a hub: what it holds, and that it refuses to leak answers.

The classroom suite (tests/classroom) pulls it into learners' homes through JupyterHub; these
tests need only git, so they run everywhere.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from scripts import classroom

ANSWER = "my_answers = {'A': 'workflow'}"


def git(folder: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(folder), *args], check=True, capture_output=True, text=True
    ).stdout


def lesson(source: str) -> str:
    cell = {"cell_type": "code", "metadata": {}, "source": source, "outputs": [],
            "execution_count": None}  # fmt: skip
    return json.dumps({"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def course(root: Path, learner_source: str) -> Path:
    """A small course: the package, a learner notebook and its solution source."""
    shutil.copytree(classroom.ROOT / "agentcore", root / "agentcore")
    (root / "pyproject.toml").write_text("[project]\nname = 'agentcore'\n")
    for language in classroom.LANGUAGES:
        (root / "notebooks" / language / "solutions").mkdir(parents=True)
        solution = f"### BEGIN SOLUTION\n{ANSWER}\n### END SOLUTION\n"
        (root / "notebooks" / language / "solutions" / "00-x.ipynb").write_text(lesson(solution))
        (root / "notebooks" / language / "00-x.ipynb").write_text(lesson(learner_source))
    return root


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_the_distribution_is_a_git_repository_of_learner_notebooks(tmp_path: Path) -> None:
    target = tmp_path / "agentcore-course-learners"
    assert classroom.main(["distribution", str(target)]) == 0
    files = git(target, "ls-files").split()
    assert "notebooks/en/01-the-loop.ipynb" in files
    assert "notebooks/zh-CN/01-the-loop.ipynb" in files
    assert "agentcore/runtime.py" in files and "environment.yml" in files
    # Every lesson links to the glossary; the teacher's guide (expected answers) stays out.
    assert "docs/GLOSSARY.md" in files and "docs/cheatsheet.zh-CN.md" in files
    assert "docs/images/stepper.png" in files
    assert not [name for name in files if name.startswith("docs/teaching/")]
    assert not [name for name in files if "/solutions/" in name]
    assert git(target, "branch", "--show-current").strip() == "main"
    # Building again with nothing changed adds no commit.
    assert classroom.main(["distribution", str(target)]) == 0
    assert len(git(target, "log", "--oneline").splitlines()) == 1


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_it_leaves_the_solutions_folder_out_and_takes_the_placeholder(tmp_path: Path) -> None:
    source = course(tmp_path / "course", "pass  # YOUR CODE HERE")
    target = tmp_path / "published"
    classroom.build_distribution(target, source)
    assert (target / "notebooks" / "en" / "00-x.ipynb").exists()
    assert not list(target.rglob("solutions"))
    assert ANSWER not in (target / "notebooks" / "en" / "00-x.ipynb").read_text()


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_it_refuses_a_learner_notebook_that_holds_an_answer(tmp_path: Path) -> None:
    source = course(tmp_path / "course", ANSWER)
    target = tmp_path / "published"
    with pytest.raises(classroom.LeakError, match=r"00-x\.ipynb: an answer region"):
        classroom.build_distribution(target, source)
    assert [entry.name for entry in target.iterdir()] == [".git"], "nothing of it is left"


def test_it_refuses_a_folder_that_is_not_a_distribution(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "notes.txt").write_text("mine")
    assert classroom.main(["distribution", str(tmp_path)]) == 1
    assert "neither empty nor a learner distribution" in capsys.readouterr().err
    assert (tmp_path / "notes.txt").read_text() == "mine"


LINK = re.compile(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)|(?:href|src)=\"([^\"]+)\"")


def relative_links(folder: Path) -> list[tuple[Path, str]]:
    """Every relative link of the Markdown files and notebook Markdown cells in ``folder``."""
    found: list[tuple[Path, str]] = []
    for path in sorted(folder.rglob("*")):
        if ".git" in path.relative_to(folder).parts or path.suffix not in (".md", ".ipynb"):
            continue
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".ipynb":
            text = "\n".join(
                "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
                for cell in json.loads(text)["cells"]
                if cell["cell_type"] == "markdown"
            )
        # Code is not a link: drop fenced blocks and inline code spans first.
        text = re.sub(r"```.*?```", "", text, flags=re.S)
        text = re.sub(r"`[^`\n]*`", "", text)
        for match in LINK.finditer(text):
            target = match.group(1) or match.group(2)
            if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
                continue  # a web address or an anchor in the same file
            found.append((path, target))
    return found


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The learner distribution of this checkout, built once for the tests below."""
    target = tmp_path_factory.mktemp("published") / "agentcore-course-learners"
    classroom.build_distribution(target)
    return target


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_every_relative_link_in_the_distribution_resolves(built: Path) -> None:
    links = relative_links(built)
    assert len(links) > 50, "the link pattern finds the lessons' links"
    broken = [
        f"{path.relative_to(built)}: {target}"
        for path, target in links
        if not (path.parent / target.split("#", 1)[0]).exists()
    ]
    assert broken == []


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_the_readme_is_the_learners_in_both_languages_without_teacher_material(
    built: Path,
) -> None:
    for name, first in (
        ("README.md", "notebooks/en/00"),
        ("README.zh-CN.md", "notebooks/zh-CN/00"),
    ):
        text = (built / name).read_text(encoding="utf-8")
        assert first in text, "it says what to open first"
        assert "my-work/" in text and "git checkout --" in text
        for teacher_only in (
            "solutions",
            "Teach it",
            "scripts.",
            "pytest",
            "nbgrader",
            "benchmarks",
        ):
            assert teacher_only not in text, (name, teacher_only)
    assert (built / "README.md").read_text() != (classroom.ROOT / "README.md").read_text()
    assert (built / "LICENSE").exists() and (built / "LICENSE-lessons.md").exists()


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_git_ignores_the_learners_own_copies_and_checkpoints(built: Path) -> None:
    for path in (
        "my-work/01-the-loop.ipynb",
        "notebooks/en/.ipynb_checkpoints/01-the-loop-checkpoint.ipynb",
    ):
        assert (
            subprocess.run(
                ["git", "-C", str(built), "check-ignore", "--quiet", path], check=False
            ).returncode
            == 0
        ), path
    assert ".gitignore" in git(built, "ls-files").split()
