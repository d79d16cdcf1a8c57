"""A teacher can release and autograde a lesson with nbgrader, and the grades hold.

One lesson (03, two exercises, one point each) goes through ``nbgrader generate_assignment``
and ``nbgrader autograde`` in a temporary course folder, configured as README says (the verdicts
judged by ``JudgeBeforeExecute`` before nbgrader's ``Execute``, written by
``GradeInFreshInterpreter`` after it). Students submit the solutions, a
half-right notebook, and rigging attempts (one in each answer cell): each must score zero.
The points come from hidden tests that judge each answer in a fresh interpreter; the released
notebook does not contain them. The zh-CN lesson 03, configured with the Chinese code stub,
releases the learner notebook the course ships and grades an untouched copy zero.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest

from agentcore.course.judges.grade import code_stub
from scripts.lessons import ROOT, learner_twin

LESSON = ROOT / "notebooks" / "en" / "solutions" / "03-errors.ipynb"
ZH_LESSON = ROOT / "notebooks" / "zh-CN" / "solutions" / "03-errors.ipynb"
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
        timeout=900,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]


def course_with_lesson(tmp_path: Path, students: list[str], language: str = "en") -> Path:
    """A course folder with lesson 03 of ``language`` generated as ``lesson03``, configured as
    README says, with that language's code stub."""
    lesson = LESSON if language == "en" else ZH_LESSON
    course = tmp_path / "course"
    (course / "source" / "lesson03").mkdir(parents=True)
    shutil.copyfile(lesson, course / "source" / "lesson03" / LESSON.name)
    (course / "nbgrader_config.py").write_text(
        "from agentcore.course.judges.grade import autograde_preprocessors\n"
        "c = get_config()\n"
        f"c.CourseDirectory.root = {str(course)!r}\n"
        f"c.CourseDirectory.db_url = 'sqlite:///{course / 'gradebook.db'}'\n"
        f"c.ClearSolutions.code_stub = {{'python': {code_stub(language)!r}}}\n"
        "c.Autograde.autograde_preprocessors = autograde_preprocessors()\n"
        "c.Exchange.assignment_dir = '.'\n",
        encoding="utf-8",
    )
    nbgrader(course, "db", "assignment", "add", "lesson03")
    for student in students:
        nbgrader(course, "db", "student", "add", student)
    nbgrader(course, "generate_assignment", "lesson03", "--force")
    return course


def solutions() -> dict[str, nbformat.NotebookNode]:
    source = nbformat.read(LESSON, as_version=4)
    return {
        cell.metadata["nbgrader"]["grade_id"]: cell
        for cell in source.cells
        if cell.metadata.get("nbgrader", {}).get("solution")
    }


def submit(
    course: Path, student: str, answers: dict[str, str], before_first: str | None = None
) -> None:
    """Copy the released notebook, with the answer cells named in ``answers`` replaced (and,
    with ``before_first``, a cell of the student's own inserted before the first answer)."""
    released = nbformat.read(course / "release" / "lesson03" / LESSON.name, as_version=4)
    first = None
    for index, cell in enumerate(released.cells):
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
        if grade_id in answers:
            cell.source = answers[grade_id]
            first = index if first is None else first
    if before_first is not None:
        assert first is not None
        released.cells.insert(first, nbformat.v4.new_code_cell(before_first))
    target = course / "submitted" / student / "lesson03" / LESSON.name
    target.parent.mkdir(parents=True)
    nbformat.write(released, target)


def scores(course: Path, students: list[str]) -> tuple[dict[str, float], float]:
    from nbgrader.api import Gradebook

    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        found = {
            student: gradebook.find_submission_notebook("03-errors", "lesson03", student).score
            for student in students
        }
        maximum = gradebook.find_notebook("03-errors", "lesson03").max_score
    return found, maximum


ALWAYS_EQUAL = """
class Anything(list):
    def __eq__(self, other):
        return True
    def __ne__(self, other):
        return False
    def __len__(self):
        return 0
    def __iter__(self):
        return iter(())
"""

OWN_CELL = """
from agentcore import ModelTurn, ToolCall
my_script = [
    ModelTurn(tool_calls=[ToolCall("call-weather", "get_teaching_weather", {"city": "Tokyo"})]),
    ModelTurn(
        tool_calls=[ToolCall("call-convert", "celsius_to_fahrenheit", {"temperature_c": "x"})]
    ),
]
"""
"""A right answer in a cell of the student's own, with the answer cell left as it was."""

EDITS = """
import glob, os, shutil, sqlite3
for db in glob.glob("../../../*.db"):
    with sqlite3.connect(db) as connection:
        connection.execute(
            "UPDATE grade SET auto_score = 1 WHERE notebook_id IN (SELECT sn.id FROM "
            "submitted_notebook sn JOIN submitted_assignment sa ON sn.assignment_id = sa.id "
            "WHERE sa.student_id = 'edits_gradebook_and_files')"
        )
for source in glob.glob("../../../source/*/*.ipynb"):
    shutil.copyfile(source, os.path.basename(source))
get_ipython().showtraceback = lambda *args, **kwargs: None
"""
"""This student's own grades set in the gradebook, the notebook being graded replaced by the
teacher's, and tracebacks hidden from the kernel's output."""

PATCHES = """
from agentcore.course import checks
from agentcore.course.judges import core
for name, spec in list(core.EXERCISES.items()):
    core.EXERCISES[name] = core.Exercise(spec.names, lambda ns: (True, "script_right", {}))
checks.verdict = core.verdict = lambda *args, **kwargs: (True, "✔ Right")
core.same = lambda left, right: True
my_script = None
def unanswered_calls(messages):
    return None
"""
"""Every judge replaced by one that says yes, in the checks module and its registry."""

PATCHES_JSON = """
import json
real_dumps = json.dumps
json.dumps = lambda *args, **kwargs: real_dumps(*args, **kwargs).replace("false", "true")
my_script = None
"""
"""The standard library the grade is reported with patched: every false verdict made true (it
scored full marks before the runner watched ``json``)."""

LEAVES_A_THREAD = """
import threading, time
from agentcore.course.judges import core
judges = dict(core.EXERCISES)
def say_yes():
    while True:  # patch the judges again and again, in case the runner restores them
        for name, spec in judges.items():
            yes = lambda ns: (True, "unanswered_right", {})
            core.EXERCISES[name] = core.Exercise(spec.names, yes)
        time.sleep(0.0005)
threading.Thread(target=say_yes, daemon=True).start()
def unanswered_calls(messages):
    return []
"""
"""A thread left running that keeps replacing the judges while the verdicts are computed."""

EDITS_SOURCE_WHEN_EXECUTED = """
import glob, json, sys
if "agentcore.course.judges.player" not in sys.modules:  # nbgrader's own Execute kernel
    for path in glob.glob("../../../source/*/*.ipynb"):
        with open(path, encoding="utf-8") as file:
            notebook = json.load(file)
        for index, cell in enumerate(notebook["cells"]):
            if cell["metadata"].get("agentcore", {}).get("exercise") == "unanswered_calls":
                right = dict(cell, metadata={}, outputs=[], execution_count=None)
                notebook["cells"].insert(index + 1, right)
                break
        with open(path, "w", encoding="utf-8") as file:
            json.dump(notebook, file)
def unanswered_calls(messages):
    return []
"""
"""A wrong answer that, run by nbgrader's ``Execute`` (an ordinary kernel), inserts the teacher's
solution into the teacher's source notebook right after the answer cell: a grade that read the
source after ``Execute`` would run the solution after the wrong answer (it scored full marks
until the judging moved before ``Execute``)."""

READS_THE_SOURCE = """
import glob, json, os
here = os.getcwd()  # nbgrader's working folder: the course, or a student's folder inside it
found = []
for up in (here, *(os.path.abspath(os.path.join(here, *[".."] * n)) for n in (1, 2, 3))):
    found += glob.glob(os.path.join(up, "source", "*", "*.ipynb"))
for path in found:
    with open(path, encoding="utf-8") as file:
        for cell in json.load(file)["cells"]:
            if cell["metadata"].get("agentcore", {}).get("exercise") == "unanswered_calls":
                exec("".join(cell["source"]))
"""
"""The teacher's solution read from the course's source folder (absolute paths, found from the
working folder) and run in place of an answer."""

REWRITES_NBGRADER_MEMORY = r"""
import os, struct, sys
if "agentcore.course.judges.player" not in sys.modules:  # nbgrader's own Execute kernel
    def maps(pid):
        rows = []
        for line in open(f"/proc/{pid}/maps"):
            part = line.split()
            start, end = (int(x, 16) for x in part[0].split("-"))
            rows.append((start, end, part[1], int(part[2], 16), part[5] if len(part) > 5 else ""))
        return rows
    mine, parent = maps("self"), os.getppid()
    theirs = maps(parent)
    def there(address):  # the same libpython in both processes: our address in the parent
        for start, end, _, offset, path in mine:
            if start <= address < end and path:
                in_file = address - start + offset
                for start2, end2, _, offset2, path2 in theirs:
                    if path2 == path and offset2 <= in_file < offset2 + (end2 - start2):
                        return start2 + in_file - offset2
    false, true, tuple_type, str_type = (there(id(x)) for x in (False, True, tuple, str))
    pattern = struct.pack("<QQQ", tuple_type, 2, false)  # a 2-tuple whose first item is False
    cross = "✘".encode("utf-16-le")
    with open(f"/proc/{parent}/mem", "r+b", buffering=0) as memory:
        for start, end, permissions, _, _ in theirs:
            if not permissions.startswith("rw") or end - start > 1 << 30:
                continue
            try:
                memory.seek(start)
                data = memory.read(end - start)
            except OSError:
                continue
            at = data.find(pattern)
            while at >= 0:  # ... and whose second is a str holding ✘: a verdict
                line = struct.unpack_from("<Q", data, at + 24)[0]
                try:
                    memory.seek(line)
                    head = memory.read(120)
                    if struct.unpack_from("<Q", head, 8)[0] == str_type and cross in head[72:76]:
                        memory.seek(start + at + 16)
                        memory.write(struct.pack("<Q", true))
                except (OSError, struct.error):
                    pass
                at = data.find(pattern, at + 8)
def unanswered_calls(messages):
    return []
"""
"""A second attacker's rig: nbgrader's Execute kernel, a child of the nbgrader process with the
same user, opens that process's memory through /proc and turns every ``(False, "✘ ...")``
verdict that JudgeBeforeExecute left there into ``(True, ...)`` (2 points of 2 until the kernel
was confined)."""

EDITS_GRADEBOOK_AFTER_SAVE = """
import os, sys
if "agentcore.course.judges.player" not in sys.modules and os.fork() == 0:
    os.setsid()
    if os.fork() == 0:  # detached: outlives the kernel's shutdown
        import glob, sqlite3, time
        here = os.getcwd()
        student = os.path.basename(os.path.dirname(here))
        mine = os.path.join(here, "03-errors.ipynb")
        start, waited = os.path.getmtime(mine), 0.0
        while os.path.getmtime(mine) <= start and waited < 120:  # the graded notebook saved
            time.sleep(0.2)
            waited += 0.2
        time.sleep(1)
        database = glob.glob(os.path.join(here, "../../../*.db"))[0]
        with sqlite3.connect(database) as connection:
            connection.execute(
                "UPDATE grade SET auto_score=1, needs_manual_grade=0 WHERE notebook_id IN "
                "(SELECT sn.id FROM submitted_notebook sn JOIN submitted_assignment sa "
                "ON sn.assignment_id=sa.id WHERE sa.student_id=?)",
                (student,),
            )
    os._exit(0)
def unanswered_calls(messages):
    return []
"""
"""A second attacker's rig: a process the Execute kernel detaches (double fork, setsid) waits
until nbgrader has saved the grades, then gives this student full points in the gradebook (2
of 2 until the kernel was confined: it may write only in its scratch folder)."""

KILLS_LATER_GRADES = """
import os, signal, sys, time
if os.environ.get("AGENTCORE_JUDGED_BEFORE_EXECUTE") and os.fork() == 0:
    os.setsid()
    if os.fork() == 0:  # detached: kills every later grade's referee for a minute
        end = time.time() + 60
        while time.time() < end:
            for entry in os.listdir("/proc"):
                try:
                    command = open(f"/proc/{entry}/cmdline", "rb").read().split(b"\\0")
                    if any(part.endswith(b"grade_boot.py") for part in command):
                        os.kill(int(entry), signal.SIGKILL)
                except (OSError, ValueError):
                    pass
            time.sleep(0.005)
    os._exit(0)
if os.environ.get("AGENTCORE_JUDGED_BEFORE_EXECUTE"):  # stop the launcher: it never sweeps
    os.kill(os.getppid(), signal.SIGSTOP)
def unanswered_calls(messages):
    return []
"""
"""A third attacker's rig: the Execute kernel stops its launcher (so the launcher never sweeps
up what the kernel left; jupyter_client later kills the launcher) and leaves a detached process
that kills every later grade's referee: the students graded after it scored zero. Landlock's
signal scoping refuses both signals."""

REFUSES_TO_END = """
import os
if os.environ.get("AGENTCORE_JUDGED_BEFORE_EXECUTE") and os.fork() == 0:
    os.setsid()
    if os.fork() == 0:  # detached, its output closed: it would outlive the whole autograde
        devnull = os.open(os.devnull, os.O_RDWR)
        for number in (0, 1, 2):
            os.dup2(devnull, number)
        import time
        time.sleep(600)
    os._exit(0)
if os.environ.get("AGENTCORE_JUDGED_BEFORE_EXECUTE"):  # the kernel will not end by itself
    import atexit, signal, threading, time
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    atexit.register(time.sleep, 30)
    threading.Thread(target=time.sleep, args=(600,)).start()  # Python waits for it at exit
def unanswered_calls(messages):
    return []
"""
"""A third attacker's rig: the Execute kernel refuses to end, so jupyter_client kills it with its
launcher before the launcher sweeps, and the detached process survived (it killed every later
grade). nbgrader's process adopts it now (``ConfinedExecute``) and ends it after Execute."""

RIGS: dict[str, tuple[str, str | None]] = {
    # the judge rebound: the old hidden tests trusted this name
    "rebinds_accepted": ("accepted = lambda *args, **kwargs: True\n", None),
    # the registry patched: every exercise's judge says yes
    "patches_registry": (PATCHES, None),
    # always-equal objects
    "always_equal": (
        ALWAYS_EQUAL + "my_script = Anything()\n"
        "def unanswered_calls(messages):\n"
        "    return Anything()\n",
        None,
    ),
    # a fake verdict printed
    "prints_a_tick": (
        "print('✔ Right: the lookup ran once, then turn 2 was refused before its handler ran.')\n",
        None,
    ),
    # the forget line deleted; the answer lives in a cell of the student's own, not the answer cell
    "deletes_forget": (code_stub("en") + "\n", OWN_CELL),
    # the gradebook (this student's grades) and the notebook being graded edited from an
    # answer cell, tracebacks hidden from the kernel's output
    "edits_gradebook_and_files": (EDITS, None),
    # the standard library the verdicts are written with patched
    "patches_json": (PATCHES_JSON, None),
    # a thread of the learner's that outlives its cell and patches the judges meanwhile
    "leaves_a_thread": (LEAVES_A_THREAD, None),
    # the teacher's source notebook edited by nbgrader's own kernel, before the grade reads it
    "edits_source_when_executed": (EDITS_SOURCE_WHEN_EXECUTED, None),
    # the teacher's solution read from the source folder and run
    "reads_the_source": (READS_THE_SOURCE, None),
    # the verdicts in the nbgrader process's memory rewritten by its Execute kernel
    "rewrites_nbgrader_memory": (REWRITES_NBGRADER_MEMORY, None),
    # the gradebook edited by a detached process after nbgrader saved the grades
    "edits_gradebook_after_save": (EDITS_GRADEBOOK_AFTER_SAVE, None),
    # the launcher stopped, and a leftover that kills the grades of the students after this one
    "kills_later_grades": (KILLS_LATER_GRADES, None),
    # the kernel refuses to end, and leaves a detached process
    "refuses_to_end": (REFUSES_TO_END, None),
}


PAIRS = {
    "rebinds_and_prints": ("rebinds_accepted", "prints_a_tick"),
    "patches_and_equals": ("patches_registry", "always_equal"),
    "forgets_and_edits": ("deletes_forget", "edits_gradebook_and_files"),
    "patches_json_and_threads": ("patches_json", "leaves_a_thread"),
    "prints_and_edits_source": ("prints_a_tick", "edits_source_when_executed"),
    "rebinds_and_reads_source": ("rebinds_accepted", "reads_the_source"),
    "rewrites_memory_and_edits_later": ("rewrites_nbgrader_memory", "edits_gradebook_after_save"),
    # graded before "solved" (nbgrader goes by student id): its leftover must not touch it
    "kills_later_grades": ("rebinds_accepted", "kills_later_grades"),
    "refuses_to_end": ("prints_a_tick", "refuses_to_end"),
}
"""Each student tries one rig in each of the two answer cells: every cell must score zero."""


@pytest.mark.slow
def test_rigging_attempts_score_zero_beside_full_and_partial_points(tmp_path: Path) -> None:
    students = ["solved", "half", *PAIRS]
    course = course_with_lesson(tmp_path, students)
    answers = solutions()
    first, second = list(answers)
    wrong = answers[second].metadata["agentcore"]["wrong_answers"][0]
    wrong = wrong["code"] if isinstance(wrong, dict) else wrong
    submit(course, "solved", {gid: cell.source for gid, cell in answers.items()})
    submit(
        course,
        "half",
        {
            first: answers[first].source,
            second: REGION.sub(lambda _: wrong + "\n", answers[second].source),
        },
    )
    for student, (rig_one, rig_two) in PAIRS.items():
        (source_one, own_one), (source_two, _) = RIGS[rig_one], RIGS[rig_two]
        source_one = source_one.replace("edits_gradebook_and_files", student)
        source_two = source_two.replace("edits_gradebook_and_files", student)
        submit(course, student, {first: source_one, second: source_two}, before_first=own_one)
    nbgrader(course, "autograde", "lesson03")
    time.sleep(3)  # what a detached process of a rig would have written, it has written by now
    found, maximum = scores(course, students)
    assert maximum == 2
    assert found == {"solved": 2, "half": 1, **{student: 0 for student in PAIRS}}
    assert not processes_in(course), "a process the students' code started outlived autograde"


def processes_in(folder: Path) -> list[int]:
    """The processes whose working folder is inside ``folder`` (Linux's /proc)."""
    found = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            if Path(os.readlink(entry / "cwd")).is_relative_to(folder):
                found.append(int(entry.name))
        except OSError:
            continue
    return found


@pytest.mark.slow
def test_a_chinese_lesson_is_released_with_the_chinese_stub_and_graded(tmp_path: Path) -> None:
    # A teacher of the zh-CN lessons sets the Chinese stub: nbgrader's release is then the
    # learner notebook the course ships, and an untouched copy scores nothing.
    course = course_with_lesson(tmp_path, ["untouched", "solved"], "zh-CN")
    released = nbformat.read(course / "release" / "lesson03" / LESSON.name, as_version=4)
    shipped = nbformat.read(learner_twin(ZH_LESSON), as_version=4)

    def answer_cells(notebook: nbformat.NotebookNode) -> list[str]:
        return [c.source for c in notebook.cells if c.metadata.get("nbgrader", {}).get("solution")]

    assert answer_cells(released) == answer_cells(shipped)
    assert all("pass  # 在这里写你的代码" in source for source in answer_cells(released))
    submit(course, "untouched", {})
    source = nbformat.read(ZH_LESSON, as_version=4)
    submit(
        course,
        "solved",
        {
            cell.metadata["nbgrader"]["grade_id"]: cell.source
            for cell in source.cells
            if cell.metadata.get("nbgrader", {}).get("solution")
        },
    )
    nbgrader(course, "autograde", "lesson03")
    found, maximum = scores(course, ["untouched", "solved"])
    assert (found, maximum) == ({"untouched": 0, "solved": 2}, 2)


def answered(notebook: Path, answers: dict[str, str]) -> dict[str, object]:
    """The solution notebook ``notebook`` with the named exercises' solutions replaced."""
    submitted = nbformat.read(notebook, as_version=4)
    for cell in submitted.cells:
        answer = answers.get(cell.metadata.get("agentcore", {}).get("exercise"))
        if answer is not None:
            cell.source = REGION.sub(lambda _, code=answer: code + "\n", cell.source)
    return dict(submitted)


FIXTURE_RIGS = {
    # lesson 00's graded key read from the table the judge fills while grading
    "00-fixed-script.ipynb": (
        "workflow_or_agent",
        "from agentcore.course.judges import core\n"
        'my_answers = dict(core.GRADE_KEYS.get("workflow_or_agent") or {})\n',
    ),
    # the lesson's calls emptied, so that an empty prediction matches them all
    "02-tools-and-registry.ipynb": ("predictions", "calls.clear()\nmy_predictions = {}\n"),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(FIXTURE_RIGS))
def test_answer_cells_cannot_read_the_key_or_empty_the_fixture(name: str) -> None:
    from agentcore.course.judges.grade import judge_notebook

    notebook = LESSON.parent / name
    exercise, rig = FIXTURE_RIGS[name]
    source = dict(nbformat.read(notebook, as_version=4))
    solved = judge_notebook(source, source, [exercise], "en")[exercise]
    rigged = judge_notebook(source, answered(notebook, {exercise: rig}), [exercise], "en")[exercise]
    assert solved[0] is True, solved
    assert rigged[0] is False, rigged
