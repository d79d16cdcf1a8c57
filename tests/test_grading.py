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
        assert [name for name in names if name in grade_steps] == [
            "JudgeBeforeExecute",
            "ConfinedExecute",
            "GradeInFreshInterpreter",
        ]


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


def test_a_deadline_needs_its_time_zone_and_is_kept_in_utc() -> None:
    assert grading.parse_deadline("2026-12-14T18:00+08:00").isoformat() == (
        "2026-12-14T10:00:00+00:00"
    )
    assert grading.parse_deadline("2026-12-14 10:00Z") == grading.parse_deadline(
        "2026-12-14T10:00:00+00:00"
    )
    with pytest.raises(ValueError, match=r"no time zone: write it as 2026-12-14T18:00\+08:00"):
        grading.parse_deadline("2026-12-14T18:00")
    with pytest.raises(ValueError, match="is not a time"):
        grading.parse_deadline("next friday")


def test_a_deadline_covers_a_lesson_and_its_appendix_and_stays_the_teachers(
    tmp_path: Path,
) -> None:
    folder = class_of_three(tmp_path)
    names = grading.set_deadline(folder, ROOT / "notebooks", "01", "2026-12-14T18:00+08:00")
    assert names == ["01-appendix-inside-the-loop", "01-the-loop"]
    grading.set_deadline(folder, ROOT / "notebooks", "03-errors", "2026-12-21T10:00Z")
    due = grading.deadlines(folder)
    assert {name: f"{when:%Y-%m-%d %H:%M}" for name, when in due.items()} == {
        "01-appendix-inside-the-loop": "2026-12-14 10:00",
        "01-the-loop": "2026-12-14 10:00",
        "03-errors": "2026-12-21 10:00",
    }
    assert grading.deadline_of("01-the-loop-zh-CN", due) == due["01-the-loop"]
    assert grading.deadline_of("02-tools-and-registry-en", due) is None
    assert oct((folder.hub / grading.DEADLINES).stat().st_mode & 0o777) == "0o600"
    with pytest.raises(ValueError, match=r"no lesson '99' in the course: .*01-the-loop"):
        grading.set_deadline(folder, ROOT / "notebooks", "99", "2026-12-14T18:00Z")


def test_collect_takes_the_last_submission_by_the_deadline_else_the_last_one() -> None:
    import datetime

    def at(hour: int) -> datetime.datetime:
        return datetime.datetime(2026, 12, 14, hour, tzinfo=datetime.timezone.utc)

    handed = [(at(9), b"first"), (at(11), b"late"), (at(10), b"second")]
    assert grading.choose(handed, at(10)) == (at(10), b"second")  # on the minute is on time
    assert grading.choose(handed, at(8)) == (at(11), b"late")  # none on time: the last one
    assert grading.choose(handed, None) == (at(11), b"late")
    on_time = grading.Collected("01-the-loop-en", at(10), True, at(10))
    assert not on_time.late and grading.Collected("x-en", at(11), True, at(10)).late
    assert not grading.Collected("x-en", at(11), False, None).late


def test_grades_csv_says_which_submission_was_late_and_by_how_much() -> None:
    exported = (
        b"assignment,duedate,timestamp,student_id,raw_score\n"
        b"01-the-loop-en,2026-12-14 10:00:00,2026-12-14 09:59:00.5,ada,1.0\n"
        b"01-the-loop-en,2026-12-14 10:00:00,2026-12-14 11:00:00.25,grace,0.0\n"
        b"01-the-loop-en,2026-12-14 10:00:00,,linus,0.0\n"
        b"02-tools-and-registry-en,,2026-12-14 11:00:00,ada,1.0\n"
    )
    rows = list(csv.DictReader(grading.with_lateness(exported).decode().splitlines()))
    assert list(rows[0])[:5] == ["assignment", "duedate", "timestamp", "late", "seconds_late"]
    assert [(row["late"], row["seconds_late"]) for row in rows] == [
        ("no", "0"),
        ("yes", "3600"),
        ("", ""),
        ("", ""),
    ]


def test_a_learner_submits_a_saved_lesson_into_their_own_home_privately(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import os

    from nbgrader.utils import parse_utc  # type: ignore[import-untyped]

    from agentcore.course import submit

    copy = tmp_path / "course" / "notebooks"
    (copy / "zh-CN").mkdir(parents=True)
    lesson = copy / "zh-CN" / "03-errors.ipynb"
    lesson.write_text(json.dumps(notebook("solved")), encoding="utf-8")
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(copy)
    previous = os.umask(0o022)
    try:
        assert submit.main(["zh-CN/03-errors.ipynb"]) == 0
    finally:
        os.umask(previous)
    said = capsys.readouterr().out
    assert said.startswith("已在 ") and "提交 03-errors-zh-CN" in said
    (folder,) = (home / "submissions" / "03-errors-zh-CN").iterdir()
    assert (folder / "03-errors.ipynb").read_bytes() == lesson.read_bytes()
    assert parse_utc((folder / "timestamp.txt").read_text().strip()) is not None
    modes = {
        str(path.relative_to(home)): oct(path.stat().st_mode & 0o777)
        for path in [home / "submissions", *sorted((home / "submissions").rglob("*"))]
    }
    assert set(modes.values()) == {"0o700", "0o600"}
    assert modes[str((folder / "timestamp.txt").relative_to(home))] == "0o600"
    # A solution notebook, a link and a missing file are refused, saying what to give.
    (copy / "en" / "solutions").mkdir(parents=True)
    solution = copy / "en" / "solutions" / "03-errors.ipynb"
    solution.write_text("{}", encoding="utf-8")
    (copy / "en" / "01-the-loop.ipynb").symlink_to(solution)
    for wrong in ("en/solutions/03-errors.ipynb", "en/01-the-loop.ipynb", "en/02-x.ipynb"):
        assert submit.main([wrong]) == 1
        assert "notebooks/en/01-the-loop.ipynb" in capsys.readouterr().err
    assert len(list((home / "submissions").rglob("*.ipynb"))) == 1


def test_the_teacher_sets_and_lists_deadlines_with_the_class_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from scripts.classroom import main

    folder = class_of_three(tmp_path)
    where = ["--folder", str(folder.root)]
    assert main(["deadline", "01", "2026-12-14T18:00+08:00", *where]) == 0
    assert capsys.readouterr().out == (
        "deadline 2026-12-14 10:00 UTC for 01-appendix-inside-the-loop, 01-the-loop (both "
        "languages); collect takes the last submission made by then\n"
    )
    assert main(["deadline", *where]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert "01-the-loop: 2026-12-14 10:00 UTC" in listed
    assert "03-errors: no deadline" in listed
    assert main(["deadline", "01", "2026-12-14T18:00", *where]) == 1
    assert "has no time zone" in capsys.readouterr().err


ODD_NOTEBOOKS = (
    '{"cells":[1]}',
    '{"cells":5}',
    '{"cells":[{"metadata":5}]}',
    '{"cells":[{"metadata":{"nbgrader":7},"outputs":3}]}',
    '{"cells":[{"metadata":{"nbgrader":{"grade_id":"check_x"}},"outputs":[1,{"data":2}]}]}',
    "[1]",
    "[" * 100_000,
)


def test_an_odd_saved_lesson_reads_as_no_answers_and_the_others_go_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for text in ODD_NOTEBOOKS:
        assert grading.exercise_states(text) == {}, text[:40]
    folder = class_of_three(tmp_path)
    lesson = folder.homes / "linus" / DISTRIBUTION / "notebooks" / "en" / LESSON
    for text in ODD_NOTEBOOKS:
        lesson.write_text(text, encoding="utf-8")
        report = grading.progress(folder, folder.distribution)
        assert set(report.states["ada"].values()) == {"✔"}
        assert set(report.states["grace"].values()) == {"✘"}
        assert set(report.states["linus"].values()) == {grading.NOT_ATTEMPTED}


def test_progress_neither_waits_on_a_fifo_nor_reads_a_huge_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import os
    import threading

    folder = class_of_three(tmp_path)
    saved = folder.homes / "linus" / DISTRIBUTION / "notebooks" / "en"
    os.mkfifo(saved / "01-the-loop.ipynb")  # nobody ever writes into it
    huge = folder.homes / "grace" / DISTRIBUTION / "notebooks" / "en" / LESSON
    os.truncate(huge, 8 << 30)  # 8 GB, sparse: takes no room on disk
    found: list[grading.Progress] = []
    reading = threading.Thread(
        target=lambda: found.append(grading.progress(folder, folder.distribution)), daemon=True
    )
    reading.start()
    reading.join(120)  # not a timing: a FIFO opened the blocking way would wait forever
    assert not reading.is_alive(), "progress waits on a FIFO named like a lesson"
    (report,) = found
    assert set(report.states["ada"].values()) == {"✔"}
    assert set(report.states["grace"].values()) == {grading.NOT_ATTEMPTED}
    said = capsys.readouterr().err
    assert f"grace: {huge} is {8 << 30} bytes, over the {grading.MAX_NOTEBOOK_BYTES}" in said
    assert grading.read_regular(saved / "01-the-loop.ipynb") is None
    with pytest.raises(grading.TooLarge):
        grading.read_private(folder.homes / "grace", DISTRIBUTION, "notebooks", "en", LESSON)


def as_grader(folder: ClassFolder, monkeypatch: pytest.MonkeyPatch) -> dict[str, bytes]:
    """Collect without a grader account: what collect would write, keyed by path."""
    import os
    import pwd

    account = pwd.struct_passwd(
        ("grader", "x", os.getuid(), os.getgid(), "", str(folder.root / "grading"), "/bin/sh")
    )
    written: dict[str, bytes] = {}

    def account_files(_account: object, _base: object, *, write: dict | None = None,
                      **_: object) -> dict:  # fmt: skip
        written.update(write or {})
        return {}

    monkeypatch.setattr(grading, "grader_account", lambda _folder: account)
    monkeypatch.setattr(grading, "account_files", account_files)
    return written


def test_collect_leaves_out_a_file_nbgrader_cannot_read_and_names_its_learner(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import os

    from scripts.classroom import main

    folder = class_of_three(tmp_path)
    written = as_grader(folder, monkeypatch)
    # linus: a good submission, then a later one that is no notebook; grace's saved lesson is
    # 8 GB; ada's saved lesson is fine.
    submissions = folder.homes / "linus" / "submissions" / "03-errors-en"
    for stamp, text in (("20261214T090000000000Z", json.dumps(notebook("solved"))),
                        ("20261214T100000000000Z", '{"cells":[1]}')):  # fmt: skip
        (submissions / stamp).mkdir(parents=True)
        (submissions / stamp / LESSON).write_text(text, encoding="utf-8")
    os.truncate(folder.homes / "grace" / DISTRIBUTION / "notebooks" / "en" / LESSON, 8 << 30)
    assert main(["collect", "--folder", str(folder.root)]) == 0
    out, err = capsys.readouterr()
    assert "ada: 1 lessons (0 submitted, 0 late)" in out
    assert "linus: 1 lessons (1 submitted, 0 late)" in out
    assert "grace: 0 lessons" in out
    lines = err.splitlines()
    assert any(
        line.startswith("linus: 03-errors-en left out: ~/submissions/03-errors-en/")
        and "it is not a valid notebook" in line
        for line in lines
    ), err
    assert any(line.startswith("grace: 03-errors-en left out: ") and "bytes" in line
               for line in lines), err  # fmt: skip
    assert json.loads(written[f"submitted/linus/03-errors-en/{LESSON}"]) == notebook("solved")
    assert "submitted/grace/03-errors-en/03-errors.ipynb" not in written


def test_grade_goes_on_past_a_submission_nbgrader_cannot_autograde(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from scripts.classroom import main

    folder = class_of_three(tmp_path)
    as_grader(folder, monkeypatch)
    course = folder.root / "grading"
    for learner in ("ada", "grace", "linus"):
        (course / "submitted" / learner / "03-errors-en").mkdir(parents=True)
    exported: list[list[str] | None] = []

    def nbgrader(_folder: object, _environment: object, _grader: object, *args: str) -> None:
        """As nbgrader's autograde does: grade the others, remove grace's failed copy, exit 1."""
        if args[0] == "autograde":
            for learner in ("ada", "linus"):
                (course / "autograded" / learner / args[1]).mkdir(parents=True)
            raise RuntimeError("nbgrader autograde failed: ... for student 'grace'")

    def export(_folder: object, _environment: object, names: list[str] | None = None) -> Path:
        exported.append(names)
        return course / "grades.csv"

    monkeypatch.setattr(grading, "grading_environment", lambda _folder: tmp_path / "env")
    monkeypatch.setattr(grading, "_configure", lambda *_: None)
    monkeypatch.setattr(grading, "run_nbgrader", nbgrader)
    monkeypatch.setattr(grading, "export", export)
    assert main(["grade", "--folder", str(folder.root)]) == 0
    out, err = capsys.readouterr()
    assert "03-errors-en: nbgrader could not autograde the submission of grace" in err
    assert "ada" not in err and "linus" not in err
    assert exported == [["03-errors-en"]]  # grades.csv and feedback for the rest
    assert f"grades: {course / 'grades.csv'}" in out


def test_two_submissions_at_one_instant_both_kept_and_times_are_utc(tmp_path: Path) -> None:
    import datetime

    from agentcore.course import submit

    lesson = tmp_path / "course" / "notebooks" / "en" / LESSON
    lesson.parent.mkdir(parents=True)
    lesson.write_text(json.dumps(notebook("solved")), encoding="utf-8")
    home = tmp_path / "home"
    beijing = datetime.timezone(datetime.timedelta(hours=8))
    now = datetime.datetime(2026, 12, 14, 18, 0, tzinfo=beijing)
    first = submit.submit(lesson, home, now)
    second = submit.submit(lesson, home, now)
    assert first != second
    assert first.name == "20261214T100000000000Z" and second.name == "20261214T100000000000Z-1"
    for folder in (first, second):
        assert (folder / LESSON).read_bytes() == lesson.read_bytes()
        assert (folder / "timestamp.txt").read_text() == "2026-12-14 10:00:00.000000 UTC\n"
    with pytest.raises(ValueError, match="has no time zone"):
        submit.submit(lesson, home, datetime.datetime(2026, 12, 14, 18, 0))
