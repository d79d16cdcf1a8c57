"""The class progress view reads saved notebooks only: not attempted, ✘ and ✔ per exercise.

The states come from what a learner saved (the answer cell still holding the placeholder, the
check's stored output), never from running the learner's code; the hub suite
(tests/classroom) follows a whole class, collects its work and grades it with nbgrader.
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest

from scripts import grading
from scripts.hub import DISTRIBUTION, ClassFolder
from scripts.lessons import ROOT

LESSON = "03-errors.ipynb"
REGION = re.compile(r"### BEGIN SOLUTION\n.*?### END SOLUTION\n?", re.S)


def notebook(kind: str) -> dict:
    """Lesson 03 as a learner saved it: untouched, solved (checks run), or a wrong answer."""
    if kind == "untouched":
        return json.loads((ROOT / "notebooks" / "en" / LESSON).read_text(encoding="utf-8"))
    solved = json.loads((ROOT / "notebooks" / "en" / "solutions" / LESSON).read_text("utf-8"))
    if kind == "solved":
        return solved
    for cell in solved["cells"]:
        nbgrader = cell["metadata"].get("nbgrader", {})
        if nbgrader.get("solution") and cell["metadata"].get("agentcore", {}).get("wrong_answers"):
            wrong = cell["metadata"]["agentcore"]["wrong_answers"][0]["code"]
            cell["source"] = REGION.sub(lambda _, text=wrong: text + "\n", "".join(cell["source"]))
        if nbgrader.get("grade"):
            cell["outputs"] = [{"output_type": "stream", "name": "stdout", "text": "✘ not yet\n"}]
    return solved


def test_each_exercise_is_not_attempted_failed_or_passed_from_the_saved_notebook() -> None:
    untouched = grading.exercise_states(json.dumps(notebook("untouched")))
    assert len(untouched) == 2
    assert set(untouched.values()) == {grading.NOT_ATTEMPTED}
    assert set(grading.exercise_states(json.dumps(notebook("solved"))).values()) == {"✔"}
    assert set(grading.exercise_states(json.dumps(notebook("wrong"))).values()) == {"✘"}
    assert grading.exercise_states("not a notebook") == {}


def zh_cn(kind: str) -> dict:
    """Lesson 03 in zh-CN as a learner saved it: untouched (the Chinese stub), pulled before the
    Chinese stub (the English one), or answered in place of the stub (checks not run yet)."""
    saved = json.loads((ROOT / "notebooks" / "zh-CN" / LESSON).read_text(encoding="utf-8"))
    for cell in saved["cells"]:
        if cell["metadata"].get("nbgrader", {}).get("solution"):
            source = "".join(cell["source"])
            assert "pass  # 在这里写你的代码" in source
            if kind == "english stub":
                cell["source"] = source.replace(
                    "pass  # 在这里写你的代码", "pass  # YOUR CODE HERE"
                )
            elif kind == "answered":
                cell["source"] = source.replace("pass  # 在这里写你的代码", "my_script = []")
    return saved


def test_a_zh_cn_answer_cell_with_either_stub_is_not_attempted() -> None:
    for kind in ("untouched", "english stub"):
        states = grading.exercise_states(json.dumps(zh_cn(kind)))
        assert len(states) == 2 and set(states.values()) == {grading.NOT_ATTEMPTED}, kind
    assert set(grading.exercise_states(json.dumps(zh_cn("answered"))).values()) == {"✘"}


def test_each_assignment_is_generated_with_the_stub_of_its_language(tmp_path: Path) -> None:
    from nbgrader.preprocessors import ClearSolutions
    from traitlets.config import Config

    assert grading.assignment_language("03-errors-zh-CN") == "zh-CN"
    assert grading.assignment_language("03-errors-en") == "en"
    with pytest.raises(ValueError, match="ends in none of"):
        grading.assignment_language("03-errors")
    grade_steps = {"JudgeBeforeExecute", "ConfinedExecute", "GradeInFreshInterpreter", "Execute"}
    for language, stub in (("en", "pass  # YOUR CODE HERE"), ("zh-CN", "pass  # 在这里写你的代码")):
        config = Config()
        text = grading.nbgrader_config(tmp_path, language)
        exec(compile(text, "nbgrader_config.py", "exec"), {"get_config": lambda c=config: c})
        assert ClearSolutions(config=config).code_stub == {"python": stub}
        assert config.CourseDirectory.root == str(tmp_path)
        # the grades judged before Execute, with its kernel confined (README's teacher section)
        names = [step.__name__ for step in config.Autograde.autograde_preprocessors]
        assert [
            name for name in names if name in grade_steps
        ] == ["JudgeBeforeExecute", "ConfinedExecute", "GradeInFreshInterpreter"]


def class_of_three(tmp_path: Path) -> ClassFolder:
    """A class folder with three learners' saved lesson 03 (no accounts, no hub)."""
    folder = ClassFolder(tmp_path / "class")
    folder.hub.mkdir(parents=True)
    with folder.logins.open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["name", "password", "role"])
        writer.writerow(["teacher", "x", "teacher"])
        for name in ("ada", "grace", "linus"):
            writer.writerow([name, "x", "learner"])
    for learner, kind in (("ada", "solved"), ("grace", "wrong"), ("linus", "untouched")):
        lesson = folder.homes / learner / DISTRIBUTION / "notebooks" / "en" / LESSON
        lesson.parent.mkdir(parents=True)
        lesson.write_text(json.dumps(notebook(kind)), encoding="utf-8")
    source = folder.distribution / "notebooks" / "en"
    source.mkdir(parents=True)
    (source / LESSON).write_text(json.dumps(notebook("untouched")), encoding="utf-8")
    return folder


def test_progress_shows_each_learner_and_exercise_in_a_table_and_a_page(tmp_path: Path) -> None:
    folder = class_of_three(tmp_path)
    # A link in a learner's copy is not followed (it could point at a teacher-only file).
    link = folder.homes / "linus" / DISTRIBUTION / "notebooks" / "en" / "00-fixed-script.ipynb"
    link.symlink_to(folder.logins)
    report = grading.progress(folder, folder.distribution)
    assert list(report.states) == ["ada", "grace", "linus"]
    assert len(report.exercises) == 2
    assert set(report.states["ada"].values()) == {"✔"}
    assert set(report.states["grace"].values()) == {"✘"}
    assert set(report.states["linus"].values()) == {grading.NOT_ATTEMPTED}
    table = grading.progress_table(report).splitlines()
    assert table[0].split() == ["learner", "1", "2", "✔"]
    assert table[1].split() == ["ada", "✔", "✔", "2/2"]
    assert table[2].split() == ["grace", "✘", "✘", "0/2"]
    assert table[3].split() == ["linus", "·", "·", "0/2"]
    page = grading.progress_html(report)
    assert page.count("<rect") == 6  # a bar of three parts per exercise, one learner each
    assert page.count("<tr><th>") == 4 and "<svg" in page and "<script" not in page
