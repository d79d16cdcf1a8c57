"""Follow a class and grade it: ``progress``, ``collect`` and ``grade`` of ``scripts.classroom``.

Each learner works in the lessons nbgitpuller pulled into their home,
``~/agentcore-course-learners/notebooks/<lang>/NN-*.ipynb``. An exercise of a lesson is a pair
of cells with nbgrader ids ``answer_NAME`` (holding the code stub until the learner answers:
``pass  # YOUR CODE HERE``, or ``pass  # 在这里写你的代码`` in a zh-CN lesson) and ``check_NAME``
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

Each class has a grader of its own (:func:`grader_name`: ``agentcore-grader-`` and eight hex
digits derived from the class folder), whose home is the class's ``grading/`` folder, so two
classes on one machine never collect into, grade in or remove each other's grading. Everything
there (the sources with their solutions, every learner's submission, the autograded copies, the
feedback, ``grades.csv`` and ``gradebook.db``) is readable by the grader and root only: the
folder is mode 0700, its files 0600, and every process that writes there runs as the grader with
umask 077 (nbgrader's own file modes are set to 0600 too), whatever ``/etc/login.defs`` says.
Root writes nothing there and nothing in a learner's home: files are written by a short-lived
process running as the account that owns the folder (:func:`account_files`), so a symbolic link
in either folder reaches nothing its owner could not already write. Each learner's feedback is
written into their own home only.

Only regular files are read from a learner's home (a symbolic link there could point at a file
only the teacher may read). Errors: ``RuntimeError`` with nbgrader's output when a step fails;
``AccountError`` when the grader's name is a system account this class did not make.
"""

from __future__ import annotations

import base64
import csv
import hashlib
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
"""The start of every class's grader name (:func:`grader_name`)."""
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


def grader_name(folder: ClassFolder) -> str:
    """The name of the class's grader account: ``agentcore-grader-`` and the first eight hex
    digits of the SHA-256 of the class folder's absolute path (25 characters, within useradd's
    32). Two class folders on one machine get two graders."""
    digest = hashlib.sha256(str(folder.root.resolve()).encode("utf-8")).hexdigest()[:8]
    return f"{GRADER}-{digest}"


def grading_folder(folder: ClassFolder) -> Path:
    """The class's nbgrader course folder, ``grading/``: the grader's home."""
    return folder.root / "grading"


def grader_account(folder: ClassFolder) -> pwd.struct_passwd:
    """The class's grader (:func:`grader_name`), made once: no password, no login, its home the
    class's ``grading/`` folder, mode 0700. Recorded in ``hub/accounts.json`` so ``remove``
    deletes it with the class.

    Raises ``AccountError`` when the name is a system account this class did not make, or one
    whose home is not this class's ``grading/`` folder.
    """
    from scripts.accounts import MARKER, AccountError, ours

    name = grader_name(folder)
    home = grading_folder(folder)
    if not ours(name):
        try:
            pwd.getpwnam(name)
        except KeyError:
            pass
        else:
            raise AccountError(f"{name!r} is a system account that this class did not make")
        # No --create-home: useradd would make the home with login.defs' mode (0755 on
        # Debian 12) and copy /etc/skel into it; the home is made below, mode 0700.
        subprocess.run(
            ["useradd", "--no-create-home", "--home-dir", str(home), "--shell",
             "/usr/sbin/nologin", "--comment", f"{MARKER} grader", "--user-group", name],
            check=True, capture_output=True, text=True,
        )  # fmt: skip
        record = folder.hub / "accounts.json"
        known = set(json.loads(record.read_text())) if record.exists() else set()
        record.write_text(json.dumps(sorted(known | {name})) + "\n")
    account = pwd.getpwnam(name)
    if Path(account.pw_dir).resolve() != home.resolve():
        raise AccountError(
            f"{name!r} grades the class in {Path(account.pw_dir).parent}, not {folder.root}: "
            "remove that class first (python -m scripts.classroom remove --folder ...)"
        )
    _own_home(home, account)
    return account


def _own_home(home: Path, account: pwd.struct_passwd) -> None:
    """Make ``home`` the account's, mode 0700; what is in it too when someone else owns it (a
    class folder moved, or graded before each class had a grader of its own). Symbolic links
    are changed themselves, never followed."""
    if home.is_symlink():
        raise RuntimeError(f"{home} is a symbolic link: the grading folder must be a folder")
    home.mkdir(mode=0o700, exist_ok=True)
    if home.stat().st_uid != account.pw_uid:
        for where, folders, files in os.walk(home):
            for entry in [*folders, *files]:
                os.chown(Path(where, entry), account.pw_uid, account.pw_gid, follow_symlinks=False)
    os.chown(home, account.pw_uid, account.pw_gid)
    home.chmod(0o700)


ACCOUNT_FILES = r"""
import base64, json, os, shutil, stat, sys
os.umask(0o077)
request = json.load(sys.stdin)
base = os.path.realpath(request["base"])
def inside(relative):
    path = os.path.normpath(os.path.join(base, relative))
    if os.path.commonpath([path, base]) != base:
        raise SystemExit(f"{relative!r} is outside {base}")
    return path
for relative in request["clear"]:
    path = inside(relative)
    if os.path.islink(path) or os.path.isfile(path):
        os.unlink(path)
    elif os.path.isdir(path):
        shutil.rmtree(path)
for relative, data in request["write"].items():
    path = inside(relative)
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    if os.path.islink(path):
        os.unlink(path)
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW
    with open(os.open(path, flags, 0o600), "wb") as handle:
        handle.write(base64.b64decode(data))
found = {}
if request["read"] is not None:
    top = inside(request["read"])
    for where, _, files in os.walk(top):
        for name in files:
            path = os.path.join(where, name)
            try:
                descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
            except OSError:
                continue
            with open(descriptor, "rb") as handle:
                if stat.S_ISREG(os.fstat(descriptor).st_mode):
                    data = base64.b64encode(handle.read()).decode("ascii")
                    found[os.path.relpath(path, top)] = data
if request["tidy"]:
    for where, folders, files in os.walk(base):
        for name in [".", *folders, *files]:
            path = os.path.join(where, name)
            mode = os.lstat(path).st_mode
            if not stat.S_ISLNK(mode) and stat.S_IMODE(mode) & 0o077:
                os.chmod(path, 0o700 if stat.S_ISDIR(mode) else stat.S_IMODE(mode) & 0o700)
json.dump(found, sys.stdout)
"""
"""What :func:`account_files` runs as the account (a system Python, ``-I -S``)."""


def account_files(
    account: pwd.struct_passwd,
    base: Path,
    *,
    write: dict[str, bytes] | None = None,
    clear: list[str] | None = None,
    read: str | None = None,
    tidy: bool = False,
) -> dict[str, bytes]:
    """Change files in ``base`` (a folder of ``account``) by a process running as ``account``,
    with umask 077; in this order: remove each path of ``clear`` (a file, link or folder),
    write each file of ``write`` (paths relative to ``base``; new folders 0700, files 0600),
    read every regular file below ``read`` (links and other kinds skipped), and with ``tidy``
    take every permission of group and others off what is in ``base`` (folders 0700).

    Returns what was read (paths relative to ``read``). Raises ``RuntimeError`` with the
    process's error output when it fails, and for a path that leads out of ``base``.
    """
    from scripts.hub import learner_python

    request = {
        "base": str(base),
        "write": {
            path: base64.b64encode(data).decode("ascii") for path, data in (write or {}).items()
        },
        "clear": clear or [],
        "read": read,
        "tidy": tidy,
    }
    done = subprocess.run(
        [learner_python(), "-I", "-S", "-c", ACCOUNT_FILES],
        input=json.dumps(request),
        cwd=base if base.is_dir() else "/",
        user=account.pw_uid,
        group=account.pw_gid,
        extra_groups=[],
        umask=0o077,
        env={"HOME": account.pw_dir, "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"writing in {base} as {account.pw_name!r} failed:\n{done.stderr}")
    return {path: base64.b64decode(data) for path, data in json.loads(done.stdout).items()}


def collect(folder: ClassFolder, solutions: Path) -> dict[str, list[str]]:
    """Copy every learner's lessons into ``grading/submitted/`` and the sources into
    ``grading/source/``; return, per learner, the assignments collected.

    ``solutions`` is the teacher's ``notebooks`` folder (its ``<lang>/solutions/``). Only the
    lessons with an exercise the learner answered are collected (nothing to grade in the
    others). The files are written by the grader (:func:`account_files`): theirs, 0600, in
    folders 0700.
    """
    grader = grader_account(folder)
    files: dict[str, bytes] = {}
    assignments: set[str] = set()
    for language in LANGUAGES:
        for path in sorted((solutions / language / "solutions").glob("[0-9][0-9]-*.ipynb")):
            name = f"{path.stem}-{language}"
            assignments.add(name)
            files[f"source/{name}/{path.name}"] = path.read_bytes()
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
                files[f"submitted/{learner}/{name}/{path.name}"] = text.encode("utf-8")
                mine.append(name)
        collected[learner] = mine
    account_files(grader, Path(grader.pw_dir), write=files, tidy=True)
    return collected


NBGRADER_CONFIG = """\
from agentcore.course.judges.grade import autograde_preprocessors
c = get_config()  # noqa: F821
c.CourseDirectory.root = {root!r}
c.CourseDirectory.db_url = "sqlite:///{root}/gradebook.db"
c.ClearSolutions.code_stub = {{"python": {stub!r}}}
c.Autograde.autograde_preprocessors = autograde_preprocessors()
c.Exchange.assignment_dir = "."
c.BaseConverter.permissions = 600
"""
"""The course's nbgrader configuration, as README's teacher section gives it: the grades are
judged before nbgrader's Execute, in a confined player, and its kernel runs confined
(:func:`agentcore.course.judges.grade.autograde_preprocessors`). ``BaseConverter.permissions``:
nbgrader sets the mode of what it writes (0644 for generated assignments and feedback, 0444
for autograded notebooks, whatever the umask); 600 keeps them the grader's."""


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
    nbgrader installed by pip (bounds as in pyproject's ``dev`` extra). Made once, with umask
    022 whatever the teacher's: the grader runs it, and it holds nothing of the class's.
    """
    from scripts.hub import learner_python

    environment = folder.root / "grading-env"
    python = environment / "bin" / "python"
    if python.exists():
        return environment
    subprocess.run([learner_python(), "-m", "venv", str(environment)], check=True, umask=0o022)
    (site,) = environment.glob("lib/python*/site-packages")
    (learner_site,) = folder.environment.glob("lib/python*/site-packages")
    (site / "learner-environment.pth").write_text(f"{learner_site}\n", encoding="utf-8")
    (site / "learner-environment.pth").chmod(0o644)
    done = subprocess.run(
        # landlock: the grade's player and nbgrader's kernel confine themselves with it
        # (agentcore/course/judges/sandbox.py); pinned as in pyproject's dev extra
        [str(python), "-m", "pip", "install", "--quiet", "nbgrader>=0.9,<0.10",
         "landlock==1.0.0.dev5"],
        capture_output=True, text=True, check=False, umask=0o022,
    )  # fmt: skip
    if done.returncode == 0:
        # nbgrader runs the `alembic` command, which must import nbgrader: this environment's
        # own, not the learner environment's (pip counts that one as installed).
        done = subprocess.run(
            [str(python), "-m", "pip", "install", "--quiet", "--no-deps", "--ignore-installed",
             "alembic"],
            capture_output=True, text=True, check=False, umask=0o022,
        )  # fmt: skip
    if done.returncode != 0:
        shutil.rmtree(environment)
        raise RuntimeError(f"nbgrader could not be installed:\n{done.stderr}")
    return environment


def run_nbgrader(
    folder: ClassFolder, environment: Path, grader: pwd.struct_passwd, *args: str
) -> None:
    """One ``nbgrader`` command in the class's course folder, as the grader, with umask 077.

    Raises ``RuntimeError`` with nbgrader's output when it fails."""
    course = Path(grader.pw_dir)
    done = subprocess.run(
        [str(environment / "bin" / "python"), "-m", "nbgrader", *args],
        cwd=course,
        user=grader.pw_uid,
        group=grader.pw_gid,
        extra_groups=[],
        umask=0o077,
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


def grade(folder: ClassFolder, environment: Path) -> Path:
    """Autograde what :func:`collect` gathered, as the grader; feedback to the learners.

    ``environment`` is the grading environment (``nbgrader`` and the learner distribution).
    Only the class's learners (``hub/logins.csv``) are graded and given feedback, each in their
    own home (``~/feedback/``, replaced, written by a process running as that learner).
    Returns the CSV of grades (mode 0600, the grader's). Raises ``RuntimeError`` with nbgrader's
    output on a failure.
    """
    grader = grader_account(folder)
    course = Path(grader.pw_dir)
    config = "nbgrader_config.py"

    def configure(language: str) -> None:
        text = nbgrader_config(course, language).encode("utf-8")
        account_files(grader, course, write={config: text}, tidy=True)

    def nbgrader(*args: str) -> None:
        run_nbgrader(folder, environment, grader, *args)

    configure(LANGUAGES[0])  # for export (and when nothing was submitted)
    submitted = course / "submitted"
    roster = learners(folder)
    students = [name for name in roster if (submitted / name).is_dir()]
    names = sorted({path.name for student in students for path in (submitted / student).iterdir()})
    # No `nbgrader db ... add`: generate_assignment adds the assignment to the gradebook and
    # autograde each student it grades (their create_assignment and create_student, both on by
    # default), and every nbgrader command is a Python start of a few seconds.
    for name in names:  # only what someone submitted: each step starts a kernel per notebook
        configure(assignment_language(name))
        nbgrader("generate_assignment", name, "--force")
        nbgrader("autograde", name, "--force")
        nbgrader("generate_feedback", name, "--force")
    grades = course / "grades.csv"
    nbgrader("export", "--to", str(grades))
    given = account_files(grader, course, read="feedback", tidy=True)
    for student in students:
        mine = {
            f"feedback/{path.split('/', 1)[1]}": data
            for path, data in given.items()
            if path.startswith(f"{student}/")
        }
        if mine:
            account = pwd.getpwnam(student)
            account_files(account, Path(account.pw_dir), clear=["feedback"], write=mine)
    return grades
