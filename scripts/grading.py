"""Follow a class and grade it: ``progress``, ``collect`` and ``grade`` of ``scripts.classroom``.

Each learner works in the lessons nbgitpuller pulled into their home,
``~/agentcore-course-learners/notebooks/<lang>/NN-*.ipynb``. An exercise of a lesson is a pair
of cells with nbgrader ids ``answer_NAME`` (holding the code stub until the learner answers:
``...  # YOUR CODE HERE``, or ``...  # 在这里写你的代码`` in a zh-CN lesson) and ``check_NAME``
(its stored output starts with ``✔`` or ``✘``).

- :func:`progress` reads the saved notebooks, as JSON, without running anything: per learner
  and exercise, *not attempted* (the answer cell still holds a code stub, of either language),
  ``✔`` (the check's saved output says so) or ``✘`` (answered, and no ``✔`` saved). It is what
  the learners saw when they last saved, and a learner can edit a saved output: grade with
  :func:`grade`.
- :func:`collect` copies every learner's lessons into the nbgrader course folder's
  ``submitted/<learner>/<assignment>/`` (one assignment per lesson and language, for example
  ``01-the-loop-en``), with the solution sources in ``source/``.
- :func:`grade` runs ``nbgrader generate_assignment``, ``autograde``, ``generate_feedback``
  and ``export`` as the class's unprivileged grader account (never as the teacher, since
  autograde runs the learners' code), gives each learner their feedback in ``~/feedback/``, and
  leaves the grades in ``grading/grades.csv``. Each assignment is generated with the code stub
  of its language (:func:`nbgrader_config`), as ``python -m scripts.lessons release`` made the
  learners' copies.

Only regular files are read from a learner's home (a symbolic link there could point at a file
only the teacher may read). Errors: ``RuntimeError`` with nbgrader's output when a step fails.
"""

from __future__ import annotations

import csv
import html
import json
import os
import pwd
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from agentcore.course.judges.grade import code_stub, holds_code_stub
from scripts.hub import DISTRIBUTION, ClassFolder
from scripts.lessons import LANGUAGES

GRADER = "agentcore-grader"
NOT_ATTEMPTED, FAILED, PASSED = "not attempted", "✘", "✔"
RANK = {NOT_ATTEMPTED: 0, FAILED: 1, PASSED: 2}


def learners(folder: ClassFolder) -> list[str]:
    """The class's learners, in roster order (from ``hub/logins.csv``)."""
    if not folder.logins.exists():
        return []
    with folder.logins.open(encoding="utf-8", newline="") as handle:
        return [row["name"] for row in csv.DictReader(handle) if row["role"] == "learner"]


def _text(cell: dict) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def _outputs(cell: dict) -> str:
    texts = []
    for output in cell.get("outputs", []):
        texts.append(_text({"source": output.get("text", "")}))
        texts.append(_text({"source": output.get("data", {}).get("text/plain", "")}))
    return "".join(texts)


def read_regular(path: Path) -> str | None:
    """A file's text if it is a regular file (not a link), else None."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return None
    with open(descriptor, encoding="utf-8", errors="replace") as handle:
        if not os.path.isfile(f"/proc/self/fd/{descriptor}"):
            return None
        return handle.read()


def exercise_states(text: str) -> dict[str, str]:
    """Each exercise of one saved notebook (``NAME`` -> state), from its JSON text."""
    try:
        cells = json.loads(text)["cells"]
    except (ValueError, KeyError, TypeError):
        return {}
    answers: dict[str, bool] = {}
    checks: dict[str, bool] = {}
    for cell in cells:
        grade_id = str(cell.get("metadata", {}).get("nbgrader", {}).get("grade_id", ""))
        if grade_id.startswith("answer_"):
            answers[grade_id[len("answer_") :]] = not holds_code_stub(_text(cell))
        elif grade_id.startswith("check_"):
            lines = _outputs(cell).strip().splitlines()
            checks[grade_id[len("check_") :]] = bool(lines) and lines[-1].startswith(PASSED)
    return {
        name: NOT_ATTEMPTED if not answered else PASSED if checks.get(name) else FAILED
        for name, answered in answers.items()
    }


def lesson_files(home: Path) -> list[Path]:
    """The lesson notebooks of a learner's copy, both languages."""
    found: list[Path] = []
    for language in LANGUAGES:
        folder = home / DISTRIBUTION / "notebooks" / language
        if folder.is_dir() and not folder.is_symlink():
            found += sorted(folder.glob("[0-9][0-9]-*.ipynb"))
    return found


@dataclass(frozen=True)
class Progress:
    """Per learner, per exercise (``"01-the-loop: predict_lengths"``), the best state."""

    exercises: list[str]
    states: dict[str, dict[str, str]]


def progress(folder: ClassFolder, source: Path) -> Progress:
    """Read every learner's saved lessons; exercises in the order of ``source``'s lessons.

    ``source`` is the learner distribution (its notebooks name every exercise, attempted or
    not); the best state over both languages counts.
    """
    exercises: list[str] = []
    for path in sorted((source / "notebooks" / "en").glob("[0-9][0-9]-*.ipynb")):
        names = exercise_states(path.read_text(encoding="utf-8"))
        exercises += [f"{path.stem}: {name}" for name in names]
    states: dict[str, dict[str, str]] = {}
    for learner in learners(folder):
        mine = dict.fromkeys(exercises, NOT_ATTEMPTED)
        for path in lesson_files(folder.homes / learner):
            text = read_regular(path)
            for name, state in exercise_states(text or "").items():
                key = f"{path.stem}: {name}"
                if key in mine and RANK[state] > RANK[mine[key]]:
                    mine[key] = state
        states[learner] = mine
    return Progress(exercises, states)


def progress_table(report: Progress) -> str:
    """The terminal table: one row per learner, one column per exercise (numbered), a key."""
    header = ["learner"] + [str(index) for index in range(1, len(report.exercises) + 1)] + ["✔"]
    short = {NOT_ATTEMPTED: "·", FAILED: FAILED, PASSED: PASSED}
    rows = [header]
    for learner, mine in report.states.items():
        marks = [short[mine[name]] for name in report.exercises]
        rows.append([learner, *marks, f"{marks.count(PASSED)}/{len(marks)}"])
    widths = [max(len(row[column]) for row in rows) for column in range(len(header))]
    lines = [
        "  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True))
        for row in rows
    ]
    lines.append("· not attempted   ✘ answered, not accepted   ✔ accepted")
    lines += [f"{index:>3}  {name}" for index, name in enumerate(report.exercises, start=1)]
    return "\n".join(lines)


def progress_html(report: Progress) -> str:
    """A standalone HTML page: a stacked bar per exercise (how many ✔, ✘, not attempted), then
    the learner-by-exercise table. No script, no network."""
    count = max(len(report.states), 1)
    colours = {PASSED: "#2e7d32", FAILED: "#c62828", NOT_ATTEMPTED: "#bdbdbd"}
    bars = []
    for index, name in enumerate(report.exercises):
        y = 24 * index
        x = 260
        tally = {state: 0 for state in colours}
        for mine in report.states.values():
            tally[mine[name]] += 1
        bars.append(f'<text x="0" y="{y + 15}" font-size="12">{html.escape(name)}</text>')
        for state, colour in colours.items():
            width = 400 * tally[state] / count
            if width:
                bars.append(
                    f'<rect x="{x:.1f}" y="{y}" width="{width:.1f}" height="18" fill="{colour}">'
                    f"<title>{html.escape(state)}: {tally[state]}</title></rect>"
                )
            x += width
    chart = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="680" '
        f'height="{24 * len(report.exercises)}" role="img" '
        'aria-label="learners per state, per exercise">' + "".join(bars) + "</svg>"
    )
    head = "".join(f"<th>{html.escape(name)}</th>" for name in report.exercises)
    body = "".join(
        f"<tr><th>{html.escape(learner)}</th>"
        + "".join(
            f'<td style="color:{colours[mine[name]]}">{html.escape(mine[name])}</td>'
            for name in report.exercises
        )
        + "</tr>"
        for learner, mine in report.states.items()
    )
    key = " ".join(
        f'<span style="color:{colour}">■</span> {html.escape(state)}'
        for state, colour in colours.items()
    )
    return (
        '<!doctype html><html lang="en"><meta charset="utf-8"><title>Class progress</title>'
        "<style>body{font-family:sans-serif}td,th{padding:2px 6px;text-align:center}"
        "table{border-collapse:collapse}tr:nth-child(even){background:#f4f4f4}</style>"
        f"<h1>Class progress</h1><p>{len(report.states)} learners. {key}</p>{chart}"
        f"<table><tr><th>learner</th>{head}</tr>{body}</table></html>\n"
    )


def grader_account(folder: ClassFolder) -> pwd.struct_passwd:
    """The unprivileged account that grading runs as (made once, no password, no login)."""
    from scripts.accounts import MARKER, AccountError, ours

    home = folder.root / "grading"
    if not ours(GRADER):
        try:
            pwd.getpwnam(GRADER)
        except KeyError:
            pass
        else:
            raise AccountError(f"{GRADER!r} is a system account that this class did not make")
        subprocess.run(
            ["useradd", "--create-home", "--home-dir", str(home), "--shell", "/usr/sbin/nologin",
             "--comment", f"{MARKER} grader", "--user-group", GRADER],
            check=True, capture_output=True, text=True,
        )  # fmt: skip
        record = folder.hub / "accounts.json"
        known = set(json.loads(record.read_text())) if record.exists() else set()
        record.write_text(json.dumps(sorted(known | {GRADER})) + "\n")
    return pwd.getpwnam(GRADER)


def _copy_as(account: pwd.struct_passwd, text: str, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    for path in [target, *target.parents]:
        if path == Path(account.pw_dir).parent:
            break
        os.chown(path, account.pw_uid, account.pw_gid)


def collect(folder: ClassFolder, solutions: Path) -> dict[str, list[str]]:
    """Copy every learner's lessons into ``grading/submitted/`` and the sources into
    ``grading/source/``; return, per learner, the assignments collected.

    ``solutions`` is the teacher's ``notebooks`` folder (its ``<lang>/solutions/``). Only the
    lessons with an exercise the learner answered are collected (nothing to grade in the
    others). Files in ``grading/`` belong to the grader.
    """
    grader = grader_account(folder)
    course = Path(grader.pw_dir)
    assignments: dict[str, Path] = {}
    for language in LANGUAGES:
        for path in sorted((solutions / language / "solutions").glob("[0-9][0-9]-*.ipynb")):
            name = f"{path.stem}-{language}"
            assignments[name] = path
            _copy_as(grader, path.read_text(encoding="utf-8"), course / "source" / name / path.name)
    collected: dict[str, list[str]] = {}
    for learner in learners(folder):
        mine = []
        for path in lesson_files(folder.homes / learner):
            name = f"{path.stem}-{path.parent.name}"
            text = read_regular(path)
            answered = text is not None and any(
                state != NOT_ATTEMPTED for state in exercise_states(text).values()
            )
            if name in assignments and answered and text is not None:
                _copy_as(grader, text, course / "submitted" / learner / name / path.name)
                mine.append(name)
        collected[learner] = mine
    return collected


NBGRADER_CONFIG = """\
from agentcore.course.judges.grade import autograde_preprocessors
c = get_config()  # noqa: F821
c.CourseDirectory.root = {root!r}
c.CourseDirectory.db_url = "sqlite:///{root}/gradebook.db"
c.ClearSolutions.code_stub = {{"python": {stub!r}}}
c.Autograde.autograde_preprocessors = autograde_preprocessors()
c.Exchange.assignment_dir = "."
"""
"""The course's nbgrader configuration, as README's teacher section gives it: the grades are
judged before nbgrader's Execute, in a confined player, and its kernel runs confined
(:func:`agentcore.course.judges.grade.autograde_preprocessors`)."""


def assignment_language(name: str) -> str:
    """The human language of an assignment :func:`collect` named: ``"zh-CN"`` for
    ``01-the-loop-zh-CN``, ``"en"`` for ``01-the-loop-en``. Raises ``ValueError`` for a name
    that ends in neither."""
    for language in LANGUAGES:
        if name.endswith(f"-{language}"):
            return language
    raise ValueError(f"assignment {name!r} ends in none of {[f'-{x}' for x in LANGUAGES]}")


def nbgrader_config(root: Path, language: str) -> str:
    """The course's ``nbgrader_config.py`` for the assignments of one language.

    nbgrader's ``ClearSolutions.code_stub`` is one dict for the whole course, keyed by the
    kernel's language (Python), not the lesson's: so :func:`grade` writes this file again,
    with the stub of ``language`` (``agentcore.course.judges.grade.code_stub``), before it
    generates each assignment. Raises ``ValueError`` for another language.
    """
    return NBGRADER_CONFIG.format(root=str(root), stub=code_stub(language))


def grading_environment(folder: ClassFolder) -> Path:
    """The grading environment: nbgrader on top of the learner environment; returns it.

    A virtual environment (``grading-env``) whose ``learner-environment.pth`` adds the learner
    environment's packages (the distribution's ``agentcore`` that the lessons import), with
    nbgrader installed by pip (bounds as in pyproject's ``dev`` extra). Made once.
    """
    from scripts.hub import learner_python

    environment = folder.root / "grading-env"
    python = environment / "bin" / "python"
    if python.exists():
        return environment
    subprocess.run([learner_python(), "-m", "venv", str(environment)], check=True)
    (site,) = environment.glob("lib/python*/site-packages")
    (learner_site,) = folder.environment.glob("lib/python*/site-packages")
    (site / "learner-environment.pth").write_text(f"{learner_site}\n", encoding="utf-8")
    done = subprocess.run(
        # landlock: the grade's player and nbgrader's kernel confine themselves with it
        # (agentcore/course/judges/sandbox.py); pinned as in pyproject's dev extra
        [str(python), "-m", "pip", "install", "--quiet", "nbgrader>=0.9,<0.10",
         "landlock==1.0.0.dev5"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if done.returncode == 0:
        # nbgrader runs the `alembic` command, which must import nbgrader: this environment's
        # own, not the learner environment's (pip counts that one as installed).
        done = subprocess.run(
            [str(python), "-m", "pip", "install", "--quiet", "--no-deps", "--ignore-installed",
             "alembic"],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
    if done.returncode != 0:
        shutil.rmtree(environment)
        raise RuntimeError(f"nbgrader could not be installed:\n{done.stderr}")
    return environment


def grade(folder: ClassFolder, environment: Path) -> Path:
    """Autograde what :func:`collect` gathered, as the grader; feedback to the learners.

    ``environment`` is the grading environment (``nbgrader`` and the learner distribution).
    Returns the CSV of grades. Raises ``RuntimeError`` with nbgrader's output on a failure.
    """
    grader = grader_account(folder)
    course = Path(grader.pw_dir)
    config = course / "nbgrader_config.py"
    _copy_as(grader, nbgrader_config(course, LANGUAGES[0]), config)  # the gradebook's steps

    def nbgrader(*args: str) -> None:
        done = subprocess.run(
            [str(environment / "bin" / "python"), "-m", "nbgrader", *args],
            cwd=course,
            user=grader.pw_uid,
            group=grader.pw_gid,
            extra_groups=[],
            # The learner environment's data files too (nbconvert's templates, for feedback).
            env={"HOME": str(course), "LANG": "C.UTF-8",
                 "PATH": f"{environment / 'bin'}:/usr/bin:/bin",
                 "JUPYTER_PATH": str(folder.environment / "share" / "jupyter")},
            capture_output=True,
            text=True,
            check=False,
        )  # fmt: skip
        if done.returncode != 0:
            raise RuntimeError(f"nbgrader {' '.join(args)} failed:\n{done.stdout}{done.stderr}")

    submitted = course / "submitted"
    students = sorted(path.name for path in submitted.iterdir()) if submitted.exists() else []
    names = sorted({path.name for student in students for path in (submitted / student).iterdir()})
    for student in students:
        nbgrader("db", "student", "add", student)
    for name in names:  # only what someone submitted: each step starts a kernel per notebook
        _copy_as(grader, nbgrader_config(course, assignment_language(name)), config)
        nbgrader("db", "assignment", "add", name)
        nbgrader("generate_assignment", name, "--force")
        nbgrader("autograde", name, "--force")
        nbgrader("generate_feedback", name, "--force")
    grades = course / "grades.csv"
    nbgrader("export", "--to", str(grades))
    for student in students:
        given = course / "feedback" / student
        if not given.is_dir():
            continue
        account = pwd.getpwnam(student)
        target = Path(account.pw_dir) / "feedback"
        # Root writes into the learner's home: never through a link the learner made.
        if target.is_symlink() or target.is_file():
            target.unlink()
        elif target.exists():
            shutil.rmtree(target)
        shutil.copytree(given, target)
        for path in [target, *target.rglob("*")]:
            os.chown(path, account.pw_uid, account.pw_gid, follow_symlinks=False)
    return grades
