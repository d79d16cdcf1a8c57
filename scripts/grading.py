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
- :func:`collect` copies every learner's work into the nbgrader course folder's
  ``submitted/<learner>/<assignment>/`` (one assignment per lesson and language, for example
  ``01-the-loop-en``), with nbgrader's ``timestamp.txt`` and the solution sources in
  ``source/``: per lesson, the last submission (``python -m agentcore.course.submit``) made by
  the lesson's deadline (:func:`set_deadline`), else the last one (late), else the lesson as
  saved when it holds an answered exercise.
- :func:`grade` runs ``nbgrader generate_assignment``, ``autograde``, ``generate_feedback``
  and ``export`` as the class's unprivileged grader account (never as the teacher, since
  autograde runs the learners' code), gives each learner their feedback in ``~/feedback/``, and
  leaves the grades in ``grading/grades.csv``. Each assignment is generated with the code stub
  of its language (:func:`nbgrader_config`), as ``python -m scripts.lessons release`` made the
  learners' copies. Each lesson's deadline becomes its assignments' due date in the gradebook,
  and ``grades.csv`` gets ``late`` and ``seconds_late`` beside nbgrader's ``timestamp`` and
  ``duedate``.
- :func:`formgrader_process` runs nbgrader's formgrader as the grader, to grade by hand;
  :func:`export` then writes the feedback and ``grades.csv`` again.

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
only the teacher may read), opened without blocking (a FIFO named like a lesson waits for no
writer) and of at most :data:`MAX_NOTEBOOK_BYTES`; a file one learner made that is no notebook
or too large is reported and left out, and the rest of the class goes on. Errors:
``RuntimeError`` with nbgrader's output when a step fails; ``AccountError`` when the grader's
name is a system account this class did not make.
"""

from __future__ import annotations

import base64
import csv
import datetime
import hashlib
import html
import io
import json
import os
import pwd
import shutil
import stat
import subprocess
import sys
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


MAX_NOTEBOOK_BYTES = 20 * 1024 * 1024
"""The largest file read from a learner's home (20 MB): a saved lesson is far smaller, even
with its outputs; a larger file is refused, so no file a learner makes can exhaust memory."""


class TooLarge(ValueError):
    """A file of a learner's home is larger than :data:`MAX_NOTEBOOK_BYTES`."""


def _text(value: object) -> str:
    """The text of a notebook field (a string or a list of strings); "" for anything else."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "".join(part for part in value if isinstance(part, str))
    return ""


def _outputs(cell: dict) -> str:
    texts = []
    outputs = cell.get("outputs")
    for output in outputs if isinstance(outputs, list) else []:
        if not isinstance(output, dict):
            continue
        texts.append(_text(output.get("text", "")))
        data = output.get("data")
        texts.append(_text(data.get("text/plain", "")) if isinstance(data, dict) else "")
    return "".join(texts)


def _read_open(descriptor: int, path: object) -> bytes | None:
    """The bytes of the open file ``descriptor`` (closed here) when it is a regular file of at
    most :data:`MAX_NOTEBOOK_BYTES`; None for anything else (a folder, a FIFO, a device).
    Raises :class:`TooLarge`, naming ``path``, for a larger regular file."""
    with open(descriptor, "rb") as handle:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode):
            return None
        if status.st_size > MAX_NOTEBOOK_BYTES:
            raise TooLarge(
                f"{path} is {status.st_size} bytes, over the {MAX_NOTEBOOK_BYTES} bytes a "
                "lesson may have: not read"
            )
        data = handle.read(MAX_NOTEBOOK_BYTES + 1)
        if len(data) > MAX_NOTEBOOK_BYTES:
            raise TooLarge(f"{path} grew over {MAX_NOTEBOOK_BYTES} bytes while read: not read")
        return data


def read_regular(path: Path) -> str | None:
    """A file's text if it is a regular file (not a link, a FIFO or a device), else None.

    Opened without following a link and without blocking (a FIFO named like a lesson never
    holds this up), then checked with ``fstat``. Raises :class:`TooLarge` for a file over
    :data:`MAX_NOTEBOOK_BYTES`."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    data = _read_open(descriptor, path)
    return None if data is None else data.decode("utf-8", "replace")


def exercise_states(text: str) -> dict[str, str]:
    """Each exercise of one saved notebook (``NAME`` -> state), from its JSON text.

    A text that is not a notebook's shape (not JSON, nested too deep, ``cells`` not a list of
    objects each with an object as ``metadata``) has no exercises: ``{}``, never an error, so
    one learner's odd file stops no one else's progress."""
    try:
        cells = json.loads(text)["cells"]
    except (ValueError, KeyError, TypeError, IndexError, RecursionError):
        return {}
    if not isinstance(cells, list) or not all(
        isinstance(cell, dict) and isinstance(cell.get("metadata", {}), dict) for cell in cells
    ):
        return {}
    answers: dict[str, bool] = {}
    checks: dict[str, bool] = {}
    for cell in cells:
        nbgrader = cell.get("metadata", {}).get("nbgrader", {})
        grade_id = str(nbgrader.get("grade_id", "")) if isinstance(nbgrader, dict) else ""
        if grade_id.startswith("answer_"):
            answers[grade_id[len("answer_") :]] = not holds_code_stub(_text(cell.get("source", "")))
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
            try:
                text = read_regular(path)
            except TooLarge as error:
                print(f"{learner}: {error}", file=sys.stderr)
                continue
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


DEADLINES = "deadlines.json"
"""The class's deadlines, in ``hub/`` (the teacher's only): lesson name -> UTC ISO time."""


def parse_deadline(text: str) -> datetime.datetime:
    """A deadline as the teacher writes it, in UTC: ISO 8601 with its time zone
    (``2026-12-14T18:00+08:00``, ``2026-12-14 10:00Z``).

    Raises ``ValueError`` for text that is no such time, and for a time without a zone (the
    machine's zone would be a guess)."""
    cleaned = text.strip()
    if cleaned[-1:] in ("Z", "z"):
        cleaned = cleaned[:-1] + "+00:00"
    try:
        moment = datetime.datetime.fromisoformat(cleaned)
    except ValueError:
        raise ValueError(
            f"{text!r} is not a time: write it as 2026-12-14T18:00+08:00 (ISO 8601, with the "
            "time zone; Z for UTC)"
        ) from None
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(
            f"{text!r} has no time zone: write it as {text.strip()}+08:00 (your offset from UTC) "
            f"or {text.strip()}Z (UTC)"
        )
    return moment.astimezone(datetime.timezone.utc)


def lesson_names(solutions: Path) -> list[str]:
    """The lessons of the course (``01-the-loop``...), from ``solutions``' English sources."""
    return sorted(path.stem for path in (solutions / "en" / "solutions").glob("[0-9][0-9]-*.ipynb"))


def deadlines(folder: ClassFolder) -> dict[str, datetime.datetime]:
    """The deadline of each lesson that has one (lesson name -> UTC time)."""
    path = folder.hub / DEADLINES
    if not path.exists():
        return {}
    return {
        name: datetime.datetime.fromisoformat(when)
        for name, when in json.loads(path.read_text(encoding="utf-8")).items()
    }


def set_deadline(folder: ClassFolder, solutions: Path, lesson: str, when: str) -> list[str]:
    """Set the deadline ``when`` (:func:`parse_deadline`) of every lesson named ``lesson`` or
    starting with ``lesson-`` (``01`` is lesson 01 and its appendix), in both languages; return
    their names. Written to ``hub/deadlines.json`` (mode 0600). Raises ``ValueError`` for a
    lesson the course does not have (naming those it has) and for a time :func:`parse_deadline`
    refuses."""
    moment = parse_deadline(when)
    names = [
        name for name in lesson_names(solutions) if name == lesson or name.startswith(f"{lesson}-")
    ]
    if not names:
        known = ", ".join(lesson_names(solutions))
        raise ValueError(f"no lesson {lesson!r} in the course: give a number or a name ({known})")
    current = {name: when.isoformat() for name, when in deadlines(folder).items()}
    current.update(dict.fromkeys(names, moment.isoformat()))
    path = folder.hub / DEADLINES
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
    with open(descriptor, "w", encoding="utf-8") as handle:
        handle.write(json.dumps(current, indent=1, sort_keys=True) + "\n")
    path.chmod(0o600)
    return names


def deadline_of(assignment: str, due: dict[str, datetime.datetime]) -> datetime.datetime | None:
    """The deadline of an assignment (``01-the-loop-en``) from its lesson's, if it has one."""
    language = assignment_language(assignment)
    return due.get(assignment[: -len(f"-{language}")])


def _private_folder(home: Path, parts: tuple[str, ...]) -> int | None:
    """A descriptor of ``home/parts...``, no symbolic link followed on the way (None if not
    a folder reached that way). The caller closes it."""
    try:
        descriptor = os.open(home, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except OSError:
        return None
    for part in parts:
        try:
            inner = os.open(part, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=descriptor)
        except OSError:
            os.close(descriptor)
            return None
        os.close(descriptor)
        descriptor = inner
    return descriptor


def read_private(home: Path, *parts: str) -> tuple[bytes, datetime.datetime] | None:
    """The bytes of the regular file ``home/parts...`` and when it last changed (its ctime, in
    UTC: set by the kernel, no user can set it back), no symbolic link followed anywhere below
    ``home``; None when there is no such file (or it is a FIFO, a device, a folder: opened
    without blocking and checked with ``fstat``). Raises :class:`TooLarge` for a file over
    :data:`MAX_NOTEBOOK_BYTES`."""
    descriptor = _private_folder(home, parts[:-1])
    if descriptor is None:
        return None
    try:
        file = os.open(parts[-1], os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=descriptor)
    except OSError:
        return None
    finally:
        os.close(descriptor)
    changed = datetime.datetime.fromtimestamp(os.fstat(file).st_ctime, datetime.timezone.utc)
    data = _read_open(file, home.joinpath(*parts))
    return None if data is None else (data, changed)


def listing(home: Path, *parts: str) -> list[str]:
    """The names in the folder ``home/parts...`` (no link followed on the way), or []."""
    descriptor = _private_folder(home, parts)
    if descriptor is None:
        return []
    try:
        return sorted(os.listdir(descriptor))
    finally:
        os.close(descriptor)


@dataclass(frozen=True)
class Collected:
    """One assignment collected from a learner: what, when, how it was handed in."""

    assignment: str
    time: datetime.datetime
    submitted: bool
    """True for a submission (``agentcore.course.submit``), False for the saved lesson."""
    due: datetime.datetime | None

    @property
    def late(self) -> bool:
        """Whether it was handed in (or last saved) after the deadline."""
        return self.due is not None and self.time > self.due


def choose(
    handed: list[tuple[datetime.datetime, bytes]], due: datetime.datetime | None
) -> tuple[datetime.datetime, bytes]:
    """nbgrader's ``collect --before-duedate`` rule: the last of ``handed`` (time, content) at or
    before ``due``, else the last one (late). Raises ``ValueError`` for an empty list."""
    if not handed:
        raise ValueError("nothing was handed in")
    ordered = sorted(handed, key=lambda item: item[0])
    on_time = [item for item in ordered if due is None or item[0] <= due]
    return (on_time or ordered)[-1]


def notebook_problem(data: bytes) -> str | None:
    """Why nbgrader could not read ``data`` as a notebook (nbformat's own reader and its
    schema, :func:`nbformat.reads` and :func:`nbformat.validate`), or None when it can."""
    import nbformat

    try:
        nbformat.validate(nbformat.reads(data.decode("utf-8"), as_version=4))
    except RecursionError:
        return "it is nested too deeply to be a notebook"
    except nbformat.ValidationError as error:
        return f"it is not a valid notebook ({error.message})"
    except (ValueError, TypeError, AttributeError, KeyError, IndexError) as error:
        # nbformat's reader meets a JSON text of another shape with these
        return f"it is not a notebook ({type(error).__name__})"
    return None


def _notebook(
    home: Path, problems: list[str], *parts: str
) -> tuple[bytes, datetime.datetime] | None:
    """:func:`read_private` of a notebook nbgrader can read (:func:`notebook_problem`); else
    None, with why added to ``problems`` when there was such a file."""
    try:
        found = read_private(home, *parts)
    except TooLarge as error:
        problems.append(str(error))
        return None
    if found is not None and (problem := notebook_problem(found[0])):
        problems.append(f"~/{'/'.join(parts)}: {problem}")
        return None
    return found


@dataclass(frozen=True)
class Collection:
    """What :func:`collect` gathered: per learner, the assignments collected; and, per
    learner, the assignments left out, each with the reason (a file nbgrader could not read,
    or one over :data:`MAX_NOTEBOOK_BYTES`)."""

    handed: dict[str, list[Collected]]
    skipped: dict[str, dict[str, str]]


def collect(folder: ClassFolder, solutions: Path) -> Collection:
    """Gather every learner's work into ``grading/submitted/`` and the sources into
    ``grading/source/``; return, per learner, what was collected and what was left out.

    ``solutions`` is the teacher's ``notebooks`` folder (its ``<lang>/solutions/``). For each
    lesson and language, the learner's submissions (``~/submissions/``, made by
    ``agentcore.course.submit``) count: the last one made by the lesson's deadline
    (:func:`set_deadline`), else the last one, which is late (:func:`choose`). A lesson never
    submitted is collected as saved in the learner's copy of the course, when it holds an
    answered exercise, as of its last save. The time is the file system's change time of the
    copy (:func:`read_private`), never a time a learner wrote; it goes into nbgrader's
    ``timestamp.txt`` beside the notebook, and the deadline into the gradebook when
    :func:`grade` runs, so nbgrader marks late work. Nothing is read through a symbolic link.
    The files are written by the grader (:func:`account_files`): theirs, 0600, in folders 0700.
    A submission or saved lesson that nbformat cannot read as a notebook
    (:func:`notebook_problem`), or over :data:`MAX_NOTEBOOK_BYTES`, is left out (an earlier
    submission counts instead) and named in :attr:`Collection.skipped`; the rest go on.
    """
    from agentcore.course.submit import SUBMISSIONS, TIMESTAMP_FORMAT

    grader = grader_account(folder)
    due = deadlines(folder)
    files: dict[str, bytes] = {}
    assignments: dict[str, str] = {}
    for language in LANGUAGES:
        for path in sorted((solutions / language / "solutions").glob("[0-9][0-9]-*.ipynb")):
            name = f"{path.stem}-{language}"
            assignments[name] = path.name
            files[f"source/{name}/{path.name}"] = path.read_bytes()
    collected: dict[str, list[Collected]] = {}
    skipped: dict[str, dict[str, str]] = {}
    for learner in learners(folder):
        home = folder.homes / learner
        mine = []
        for name, notebook in assignments.items():
            language = assignment_language(name)
            problems: list[str] = []
            handed = [
                found
                for stamp in listing(home, SUBMISSIONS, name)
                if (found := _notebook(home, problems, SUBMISSIONS, name, stamp, notebook))
            ]
            submitted = bool(handed)
            if not handed:
                saved = _notebook(home, problems, DISTRIBUTION, "notebooks", language, notebook)
                text = saved[0].decode("utf-8", "replace") if saved else ""
                if saved and any(
                    state != NOT_ATTEMPTED for state in exercise_states(text).values()
                ):
                    handed = [saved]
            if problems:
                skipped.setdefault(learner, {})[name] = "; ".join(problems)
            if not handed:
                continue
            deadline = deadline_of(name, due)
            when, data = choose([(time, content) for content, time in handed], deadline)
            target = f"submitted/{learner}/{name}"
            files[f"{target}/{notebook}"] = data
            files[f"{target}/timestamp.txt"] = when.strftime(TIMESTAMP_FORMAT).encode()
            mine.append(Collected(name, when, submitted, deadline))
        collected[learner] = mine
    account_files(grader, Path(grader.pw_dir), write=files, tidy=True)
    return Collection(collected, skipped)


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


@dataclass(frozen=True)
class Graded:
    """What :func:`grade` did: the CSV of grades and, per assignment, the learners whose
    submission nbgrader could not autograde (no grade, no feedback for them there)."""

    grades: Path
    failed: dict[str, list[str]]


def grade(folder: ClassFolder, environment: Path) -> Graded:
    """Autograde what :func:`collect` gathered, as the grader; feedback to the learners.

    ``environment`` is the grading environment (``nbgrader`` and the learner distribution).
    Only the class's learners (``hub/logins.csv``) are graded and given feedback, each in their
    own home (``~/feedback/``, replaced, written by a process running as that learner). Each
    lesson's deadline (:func:`set_deadline`) becomes its assignments' due date in the gradebook
    (``nbgrader db assignment add --duedate``) before they are autograded, so nbgrader compares
    it with each submission's ``timestamp.txt``. A submission nbgrader cannot autograde
    stops no one else's: nbgrader grades the others and removes that one's autograded copy
    (then exits non-zero), so its learner is named in :attr:`Graded.failed` and the grades and
    feedback of the rest are still exported (:func:`export`). Raises ``RuntimeError`` with
    nbgrader's output when another step fails.
    """
    grader = grader_account(folder)
    course = Path(grader.pw_dir)
    due = deadlines(folder)
    _configure(grader, LANGUAGES[0])  # for export (and when nothing was submitted)
    submitted = course / "submitted"
    students = [name for name in learners(folder) if (submitted / name).is_dir()]
    names = sorted({path.name for student in students for path in (submitted / student).iterdir()})
    failed: dict[str, list[str]] = {}
    # No `nbgrader db ... add` for students: generate_assignment adds the assignment to the
    # gradebook and autograde each student it grades (their create_assignment and
    # create_student, both on by default), and every nbgrader command is a Python start of a
    # few seconds.
    for name in names:  # only what someone submitted: each step starts a kernel per notebook
        _configure(grader, assignment_language(name))
        run_nbgrader(folder, environment, grader, "generate_assignment", name, "--force")
        deadline = deadline_of(name, due)
        if deadline is not None:
            when = deadline.strftime("%Y-%m-%d %H:%M:%S UTC")
            run_nbgrader(folder, environment, grader, "db", "assignment", "add", name,
                         f"--duedate={when}")  # fmt: skip
        try:
            run_nbgrader(folder, environment, grader, "autograde", name, "--force")
        except RuntimeError:
            handed = [student for student in students if (submitted / student / name).is_dir()]
            failed[name] = [
                student
                for student in handed
                if not (course / "autograded" / student / name).is_dir()
            ] or handed
    graded = set(graded_assignments(folder))
    grades = export(folder, environment, [name for name in names if name in graded])
    return Graded(grades, failed)


def _configure(grader: pwd.struct_passwd, language: str) -> None:
    """Write the course's ``nbgrader_config.py`` for ``language``, as the grader."""
    course = Path(grader.pw_dir)
    text = nbgrader_config(course, language).encode("utf-8")
    account_files(grader, course, write={"nbgrader_config.py": text}, tidy=True)


FORMGRADER_PORT = 8050
"""The default port of :func:`formgrader_process`, on 127.0.0.1."""


def formgrader_process(
    folder: ClassFolder, environment: Path, port: int, token: str
) -> subprocess.Popen[bytes]:
    """Start JupyterLab with nbgrader's formgrader as the class's grader, in ``grading/``, on
    ``127.0.0.1:port`` only, with ``token`` (passed in its environment, not its command line);
    return the process (in a session of its own; the caller stops it). Its log goes to
    ``hub/formgrader.log`` (the teacher's only, mode 0600).

    It runs as the grader with umask 077, so what it writes (the gradebook, JupyterLab's own
    files in the grader's home) stays the grader's; the course's ``nbgrader_config.py`` in its
    working folder tells formgrader where the gradebook is. Grading by hand there changes the
    gradebook only: :func:`export` then writes the feedback and ``grades.csv``.
    """
    grader = grader_account(folder)
    _configure(grader, LANGUAGES[0])
    flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW
    log = os.open(folder.hub / "formgrader.log", flags, 0o600)
    try:
        return _start_formgrader(folder, environment, grader, port, token, log)
    finally:
        os.close(log)


def _start_formgrader(
    folder: ClassFolder,
    environment: Path,
    grader: pwd.struct_passwd,
    port: int,
    token: str,
    log: int,
) -> subprocess.Popen[bytes]:
    """:func:`formgrader_process`'s process, its output to the descriptor ``log``."""
    course = Path(grader.pw_dir)
    return subprocess.Popen(
        [str(environment / "bin" / "python"), "-m", "jupyterlab", "--no-browser",
         "--ip=127.0.0.1", f"--port={port}", "--ServerApp.port_retries=0",
         f"--ServerApp.root_dir={course}"],
        cwd=course, user=grader.pw_uid, group=grader.pw_gid, extra_groups=[], umask=0o077,
        env={"HOME": str(course), "LANG": "C.UTF-8", "JUPYTER_TOKEN": token,
             "PATH": f"{environment / 'bin'}:/usr/bin:/bin",
             "JUPYTER_PATH": str(folder.environment / "share" / "jupyter")},
        stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip


def graded_assignments(folder: ClassFolder) -> list[str]:
    """The assignments autograded so far (``grading/autograded/<learner>/<assignment>``)."""
    autograded = grading_folder(folder) / "autograded"
    if not autograded.is_dir():
        return []
    return sorted({path.name for student in autograded.iterdir() for path in student.iterdir()})


def export(folder: ClassFolder, environment: Path, names: list[str] | None = None) -> Path:
    """Feedback and ``grades.csv`` from the gradebook as it stands, as the grader: after
    :func:`grade`, and again after grading by hand (formgrader, or nbgrader's ``Gradebook``: a
    manual score replaces a check's autograded one, extra credit adds to it).

    ``names``: the assignments to make feedback for (default: every one autograded). Runs
    nbgrader's ``generate_feedback`` and ``export``, then adds two columns to nbgrader's CSV:
    ``late`` (``yes`` when the submission's timestamp is after the due date, ``no``, or empty
    without a due date or a submission) and ``seconds_late``. Each learner's feedback goes into
    their own home. Returns ``grading/grades.csv`` (mode 0600, the grader's). Raises
    ``RuntimeError`` with nbgrader's output on a failure.
    """
    grader = grader_account(folder)
    course = Path(grader.pw_dir)
    names = graded_assignments(folder) if names is None else names
    for name in names:
        _configure(grader, assignment_language(name))
        run_nbgrader(folder, environment, grader, "generate_feedback", name, "--force")
    _configure(grader, LANGUAGES[0])
    grades = course / "grades.csv"
    run_nbgrader(folder, environment, grader, "export", "--to", str(grades))
    account_files(grader, course, write={"grades.csv": with_lateness(grades.read_bytes())})
    given = account_files(grader, course, read="feedback", tidy=True)
    for student in learners(folder):
        mine = {
            f"feedback/{path.split('/', 1)[1]}": data
            for path, data in given.items()
            if path.startswith(f"{student}/")
        }
        if mine:
            account = pwd.getpwnam(student)
            account_files(account, Path(account.pw_dir), clear=["feedback"], write=mine)
    return grades


def with_lateness(exported: bytes) -> bytes:
    """nbgrader's exported CSV with ``late`` and ``seconds_late`` after ``timestamp``.

    nbgrader writes both times in UTC without a zone (``2026-12-14 10:00:00``); a row without
    a due date or a submission gets both columns empty."""
    rows = list(csv.DictReader(io.StringIO(exported.decode("utf-8"))))
    if not rows:
        return exported
    columns = list(rows[0])
    at = columns.index("timestamp") + 1
    columns[at:at] = ["late", "seconds_late"]
    out = io.StringIO()
    writer = csv.DictWriter(out, columns, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        row["late"] = row["seconds_late"] = ""
        if row["timestamp"] and row["duedate"]:
            seconds = (
                datetime.datetime.fromisoformat(row["timestamp"])
                - datetime.datetime.fromisoformat(row["duedate"])
            ).total_seconds()
            row["late"] = "yes" if seconds > 0 else "no"
            row["seconds_late"] = f"{max(seconds, 0.0):.0f}"
        writer.writerow(row)
    return out.getvalue().encode("utf-8")
