"""A teacher can release and autograde a lesson with nbgrader (its command line, as in README).

One lesson (03, two exercises, one point each) goes through ``nbgrader generate_assignment``
and ``nbgrader autograde`` in a temporary course folder, for three students: one submits the
solutions, one a written-down wrong answer for the first exercise, one the untouched learner
notebook. The points come from the hidden tests of the check cells, which the released
notebook does not contain.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat

from scripts.lessons import CODE_STUB, ROOT

LESSON = ROOT / "notebooks" / "en" / "solutions" / "03-errors.ipynb"
REGION = re.compile(r"### BEGIN SOLUTION\n.*?### END SOLUTION\n?", re.S)


def nbgrader(course: Path, *args: str) -> None:
    # nbgrader runs the `alembic` command of its environment: put that environment on PATH,
    # as an activated virtual environment would.
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    done = subprocess.run(
        [sys.executable, "-m", "nbgrader", *args],
        cwd=course,
        env={**os.environ, "PATH": path},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]


def submit(course: Path, student: str, answers: dict[str, str]) -> None:
    """Copy the released notebook, with the answer cells named in ``answers`` replaced."""
    released = nbformat.read(course / "release" / "lesson03" / LESSON.name, as_version=4)
    for cell in released.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if grade_id in answers:
            cell.source = answers[grade_id]
    target = course / "submitted" / student / "lesson03" / LESSON.name
    target.parent.mkdir(parents=True)
    nbformat.write(released, target)


def test_nbgrader_autograde_scores_solution_wrong_answer_and_placeholder(tmp_path: Path) -> None:
    course = tmp_path / "course"
    (course / "source" / "lesson03").mkdir(parents=True)
    shutil.copyfile(LESSON, course / "source" / "lesson03" / LESSON.name)
    (course / "nbgrader_config.py").write_text(
        "c = get_config()\n"
        f"c.CourseDirectory.root = {str(course)!r}\n"
        f"c.CourseDirectory.db_url = 'sqlite:///{course / 'gradebook.db'}'\n"
        f"c.ClearSolutions.code_stub = {{'python': {CODE_STUB!r}}}\n"
        "c.Exchange.assignment_dir = '.'\n",
        encoding="utf-8",
    )
    nbgrader(course, "db", "assignment", "add", "lesson03")
    for student in ("solved", "wrong", "untouched"):
        nbgrader(course, "db", "student", "add", student)
    nbgrader(course, "generate_assignment", "lesson03", "--force")

    source = nbformat.read(LESSON, as_version=4)
    solutions = {
        cell.metadata["nbgrader"]["grade_id"]: cell
        for cell in source.cells
        if cell.metadata.get("nbgrader", {}).get("solution")
    }
    assert len(solutions) == 2
    first, second = list(solutions)
    wrong = solutions[first].metadata["agentcore"]["wrong_answers"][0]
    submit(course, "solved", {gid: cell.source for gid, cell in solutions.items()})
    submit(
        course,
        "wrong",
        {
            first: REGION.sub(lambda _: wrong + "\n", solutions[first].source),
            second: solutions[second].source,
        },
    )
    submit(course, "untouched", {})
    nbgrader(course, "autograde", "lesson03")

    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        scores = {
            student: gradebook.find_submission_notebook("03-errors", "lesson03", student).score
            for student in ("solved", "wrong", "untouched")
        }
        maximum = gradebook.find_notebook("03-errors", "lesson03").max_score
    assert maximum == 2
    assert scores == {"solved": 2, "wrong": 1, "untouched": 0}
