"""Classroom tools: build the learner distribution a teacher publishes for a class.

    python -m scripts.classroom distribution DIR   # make or update DIR as a git repository

The learner distribution is what learners may receive: the package (``agentcore/`` and
``pyproject.toml``, so ``pip install .`` works in a copy), the learners' own README in both
languages and ``.gitignore`` (from ``docs/learner/``), the licenses, the glossary, the
cheatsheets and the images (what the lessons link to), and the learner
notebooks ``notebooks/<lang>/NN-*.ipynb``. It never holds ``notebooks/<lang>/solutions/`` (the
solution sources), and the command refuses to build when a learner notebook still holds
nbgrader's solution or hidden-test markers, or the text of an answer region of a solution source.

``DIR`` becomes a git repository with one commit per build that changed something (branch
``main``), so a teacher can publish it (push it to a course repository) and learners pull it with
an nbgitpuller link; pulling again after a rebuild brings the changes and keeps the learners' own
edits, as nbgitpuller merges. Building twice with nothing changed adds no commit.

The class commands (``serve``, ``progress``, ``deadline``, ``collect``, ``grade``, ``export``,
``formgrader``, ``remove``) work on one class folder: ``--folder``, else ``$AGENTCORE_CLASS``,
else the folder of the last ``serve`` from this checkout (remembered in the git-ignored
``.classroom/class-folder``; ``remove`` forgets it), else ``/srv/agentcore-class``
(:func:`class_folder`); they print which one when ``--folder`` is not given. Two classes on
one machine (two folders, two ports) share nothing: not the accounts, not the grader
(``scripts.grading``). Learners submit with ``python -m agentcore.course.submit``; ``deadline``
sets a lesson's deadline, ``collect`` takes the last submission by it and ``grade`` marks late
ones in ``grades.csv``; ``formgrader`` runs nbgrader's formgrader to grade by hand, ``export``
writes the feedback and ``grades.csv`` again.

Input: the target folder (created if missing; if it exists it must be empty or an earlier
distribution). Output: prints the commit. Errors: ``LeakError`` when solution text would be
published; ``ValueError`` for a folder that is neither empty nor a distribution; a failing git
command raises ``subprocess.CalledProcessError``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ("en", "zh-CN")
BRANCH = "main"
MARKER_FILE = ".agentcore-learner-distribution"
TOP_LEVEL_FILES = (
    "pyproject.toml",
    "environment.yml",  # so the published learner repository also builds on Binder
    "LICENSE",
    "LICENSE-lessons.md",
)
# The learners' own README (not the teacher's: no solutions, tests or "Teach it") and .gitignore.
LEARNER_FILES = {
    "docs/learner/README.md": "README.md",
    "docs/learner/README.zh-CN.md": "README.zh-CN.md",
    "docs/learner/gitignore": ".gitignore",
}
# What the lessons and the READMEs link to (each lesson's glossary link, the cheatsheet, the README
# screenshots); docs/teaching/ stays out, it holds the expected answers.
# Lesson 04 points at the runtime's tests as examples of trajectory tests (with the chapter's
# trace they import).
LEARNER_DOCS = (
    "docs/GLOSSARY.md",
    "docs/cheatsheet.md",
    "docs/cheatsheet.zh-CN.md",
    "docs/images",
    "docs/providers.md",  # lesson 05's appendix links the adapter's reference section
    "docs/providers.zh-CN.md",
    "tests/test_runtime.py",
    "tests/chapter.py",
)
SOLUTION_MARKERS = ("### BEGIN SOLUTION", "### END SOLUTION", "### BEGIN HIDDEN TESTS")
ANSWER_REGION = re.compile(r"### BEGIN SOLUTION\n(.*?)### END SOLUTION", re.S)
# A fixed author, so the build works without a git identity configured.
GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "agentcore course",
    "GIT_AUTHOR_EMAIL": "course@localhost",
    "GIT_COMMITTER_NAME": "agentcore course",
    "GIT_COMMITTER_EMAIL": "course@localhost",
}


DEFAULT_FOLDER = Path("/srv/agentcore-class")
FOLDER_VARIABLE = "AGENTCORE_CLASS"
REMEMBERED = ROOT / ".classroom" / "class-folder"
"""The class folder of the last ``serve`` from this checkout (in the git-ignored .classroom/)."""


class LeakError(RuntimeError):
    """Solution text would reach learners; the message names the file and what was found."""


def learner_notebooks(root: Path = ROOT) -> list[Path]:
    """The learner notebooks: ``notebooks/<lang>/NN-*.ipynb``, never the ``solutions/`` folder."""
    found: list[Path] = []
    for language in LANGUAGES:
        found += sorted((root / "notebooks" / language).glob("[0-9][0-9]-*.ipynb"))
    return found


def answer_regions(root: Path = ROOT) -> list[str]:
    """The text of every answer region (between nbgrader's solution markers) of the sources."""
    regions: list[str] = []
    for path in sorted(root.glob("notebooks/*/solutions/*.ipynb")):
        notebook = json.loads(path.read_text(encoding="utf-8"))
        for cell in notebook["cells"]:
            source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
            regions += [text.strip() for text in ANSWER_REGION.findall(source) if text.strip()]
    return regions


def solution_leaks(folder: Path, regions: list[str]) -> list[str]:
    """What in ``folder`` is solution text: markers, a solutions folder, or an answer region."""
    found: list[str] = []
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder)
        if ".git" in relative.parts:
            continue
        if path.is_dir() and path.name == "solutions":
            found.append(f"{relative}/: a solutions folder")
        if not path.is_file() or path.suffix not in (".ipynb", ".py", ".md"):
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        if path.suffix == ".ipynb":  # compare cell text, not JSON-escaped text
            cells = json.loads(text).get("cells", [])
            text = "\n".join(
                "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
                for cell in cells
            )
        found += [f"{relative}: {marker!r}" for marker in SOLUTION_MARKERS if marker in text]
        found += [f"{relative}: an answer region" for region in regions if region in text]
    return found


def _git(folder: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(folder), *args],
        check=True,
        capture_output=True,
        text=True,
        env={**os.environ, **GIT_IDENTITY},
    ).stdout.strip()


def _copy_learner_files(source: Path, target: Path) -> None:
    shutil.copytree(
        source / "agentcore",
        target / "agentcore",
        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"),
    )
    for name in TOP_LEVEL_FILES:
        if (source / name).exists():
            shutil.copy2(source / name, target / name)
    for name, destination in LEARNER_FILES.items():
        if (source / name).exists():
            shutil.copy2(source / name, target / destination)
    for name in LEARNER_DOCS:
        if (source / name).is_dir():
            shutil.copytree(source / name, target / name)
        elif (source / name).exists():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source / name, target / name)
    for path in learner_notebooks(source):
        destination = target / path.relative_to(source)
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, destination)
    (target / MARKER_FILE).write_text(
        "Built by `python -m scripts.classroom distribution`: the learner notebooks and the\n"
        "package, without solutions. Rebuild it rather than editing it.\n",
        encoding="utf-8",
    )


def _clear(target: Path) -> None:
    """Remove everything in ``target`` but its ``.git`` folder."""
    for entry in target.iterdir():
        if entry.name == ".git":
            continue
        if entry.is_dir():
            shutil.rmtree(entry)
        else:
            entry.unlink()


def build_distribution(target: Path, source: Path = ROOT) -> str:
    """Build or update the learner distribution of ``source`` in ``target``; return the commit."""
    target = target.resolve()
    if target.exists() and any(target.iterdir()) and not (target / MARKER_FILE).exists():
        raise ValueError(f"{target} is neither empty nor a learner distribution")
    target.mkdir(parents=True, exist_ok=True)
    if not (target / ".git").exists():
        _git(target, "init", "--quiet", "--initial-branch", BRANCH)
    _clear(target)
    _copy_learner_files(source, target)
    leaks = solution_leaks(target, answer_regions(source))
    if leaks:
        # Leave nothing of this build behind: the folder goes back to its last commit.
        _clear(target)
        head = subprocess.run(
            ["git", "-C", str(target), "rev-parse", "--verify", "--quiet", "HEAD"],
            capture_output=True,
            check=False,
        )
        if head.returncode == 0:
            _git(target, "checkout", "--quiet", "HEAD", "--", ".")
        raise LeakError("solution text in the learner distribution:\n" + "\n".join(leaks))
    _git(target, "add", "--all")
    if _git(target, "status", "--porcelain"):
        _git(target, "commit", "--quiet", "-m", "Learner distribution of the agentcore course")
    return _git(target, "rev-parse", "HEAD")


def class_folder(given: Path | None) -> tuple[Path, str]:
    """The class folder a command works on, and where it came from.

    In this order: ``--folder`` (``given``); the environment variable ``AGENTCORE_CLASS``; the
    folder of the last ``serve`` from this checkout, remembered in ``.classroom/class-folder``
    (if that folder still exists); ``/srv/agentcore-class``. Returns an absolute path and a
    few words saying which of these it is (``"--folder"`` for the first).
    """
    if given is not None:
        return given.resolve(), "--folder"
    named = os.environ.get(FOLDER_VARIABLE, "").strip()
    if named:
        return Path(named).resolve(), f"from ${FOLDER_VARIABLE}"
    if REMEMBERED.is_file():
        remembered = Path(REMEMBERED.read_text(encoding="utf-8").strip())
        if remembered.is_absolute() and remembered.is_dir():
            return remembered, f"the last serve, remembered in {REMEMBERED}"
    return DEFAULT_FOLDER, "the default"


def remember_class(root: Path) -> None:
    """Remember ``root`` as the class folder of this checkout (``class_folder`` reads it)."""
    REMEMBERED.parent.mkdir(parents=True, exist_ok=True)
    REMEMBERED.write_text(f"{root}\n", encoding="utf-8")


def forget_class(root: Path) -> None:
    """Forget the remembered class folder if it is ``root`` (a class just removed)."""
    if REMEMBERED.is_file() and REMEMBERED.read_text(encoding="utf-8").strip() == str(root):
        REMEMBERED.unlink()


def main(argv: list[str]) -> int:
    """The command line (``--help`` lists the commands); the exit status."""
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m scripts.classroom",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = parser.add_subparsers(dest="command", required=True)
    distribution = commands.add_parser("distribution", help="build the learner distribution")
    distribution.add_argument("dir", type=Path)
    serve = commands.add_parser("serve", help="run JupyterHub for a class until Ctrl-C")
    who = serve.add_mutually_exclusive_group(required=True)
    who.add_argument("--learners", type=int, metavar="N", help="learner01 ... learnerNN")
    who.add_argument("--roster", type=Path, metavar="FILE", help="one learner name per line")
    serve.add_argument("--teacher", default="teacher", help="the teacher's account (hub admin)")
    serve.add_argument("--ip", default="127.0.0.1", help="listen address (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--certificate", type=Path, help="HTTPS certificate (PEM)")
    serve.add_argument("--key", type=Path, help="its private key (PEM)")
    progress = commands.add_parser("progress", help="who did which exercise (no code is run)")
    progress.add_argument("--html", type=Path, help="the HTML page (default hub/progress.html)")
    deadline = commands.add_parser("deadline", help="set a lesson's deadline, or list them")
    deadline.add_argument("lesson", nargs="?", help="a lesson's number or name (01, 03-errors)")
    deadline.add_argument("when", nargs="?", help="ISO 8601 with its zone: 2026-12-14T18:00+08:00")
    collect = commands.add_parser("collect", help="learners' lessons into nbgrader's submitted/")
    grade = commands.add_parser("grade", help="autograde, feedback to learners, grades.csv")
    export = commands.add_parser(
        "export", help="feedback and grades.csv again, after grading by hand"
    )
    formgrader = commands.add_parser(
        "formgrader", help="nbgrader's formgrader on 127.0.0.1, to grade by hand (until Ctrl-C)"
    )
    formgrader.add_argument("--port", type=int, default=8050, help="its port (default 8050)")
    remove = commands.add_parser("remove", help="delete a class's accounts and its folder")
    for command in (serve, progress, deadline, collect, grade, export, formgrader, remove):
        command.add_argument(
            "--folder",
            type=Path,
            help=f"the class folder (default: ${FOLDER_VARIABLE}, else the folder of the last "
            f"serve from this checkout, else {DEFAULT_FOLDER})",
        )
    args = parser.parse_args(argv)
    if args.command == "distribution":
        try:
            commit = build_distribution(args.dir)
        except (LeakError, ValueError) as error:
            print(error, file=sys.stderr)
            return 1
        where = args.dir.resolve()
        print(f"learner distribution in {where} (branch {BRANCH}, commit {commit[:12]})")
        return 0
    root, source = class_folder(args.folder)
    if source != "--folder":
        print(f"class folder: {root} ({source})", flush=True)
    # The hub's modules import this one: load them only for the commands that need them.
    from scripts import accounts, hub
    from scripts import serve as serving

    folder = hub.ClassFolder(root)
    # What collect and grade write (the grading folder), and progress (its page), is the
    # teacher's and the grader's only; what serve makes for the learners (the distribution,
    # the learner environment) must be readable by them; whatever the teacher's umask (what
    # is private in a class has a mode of its own).
    previous = os.umask(0o022 if args.command == "serve" else 0o077)
    try:
        if args.command == "remove":
            removed = serving.remove_class(folder)
            forget_class(folder.root)
            print(f"removed {len(removed)} accounts and {folder.root}")
            return 0
        if args.command in ("progress", "deadline", "collect", "grade", "export", "formgrader"):
            return _follow(args.command, folder, args)
        learners = (
            accounts.numbered_roster(args.learners)
            if args.learners is not None
            else accounts.read_roster(args.roster)
        )
        settings = hub.Settings(tuple(learners), args.teacher, args.ip, args.port,
                                args.certificate, args.key)  # fmt: skip
        return serving.serve(folder, settings)
    except (ValueError, RuntimeError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    finally:
        os.umask(previous)


def _follow(command: str, folder: Any, args: Any) -> int:
    """``progress``, ``deadline``, ``collect``, ``grade``, ``export`` and ``formgrader``
    (scripts.grading) on the class ``folder``."""
    from scripts import grading

    if not folder.logins.exists():
        print(f"error: {folder.root} holds no class (run serve first)", file=sys.stderr)
        return 1
    if command == "progress":
        report = grading.progress(folder, folder.distribution)
        print(grading.progress_table(report))
        page = args.html or folder.hub / "progress.html"
        page.write_text(grading.progress_html(report), encoding="utf-8")
        print(f"the same with a chart: {page.resolve()}")
    elif command == "deadline":
        if args.lesson is None:
            due = grading.deadlines(folder)
            for name in grading.lesson_names(ROOT / "notebooks"):
                when = due.get(name)
                print(f"{name}: {f'{when:%Y-%m-%d %H:%M} UTC' if when else 'no deadline'}")
            return 0
        if args.when is None:
            print("error: give the deadline too: deadline 01 2026-12-14T18:00+08:00",
                  file=sys.stderr)  # fmt: skip
            return 1
        names = grading.set_deadline(folder, ROOT / "notebooks", args.lesson, args.when)
        when = grading.deadlines(folder)[names[0]]
        print(f"deadline {when:%Y-%m-%d %H:%M} UTC for {', '.join(names)} (both languages); "
              "collect takes the last submission made by then")  # fmt: skip
    elif command == "collect":
        collection = grading.collect(folder, ROOT / "notebooks")
        for learner, lessons in collection.skipped.items():
            for name, why in lessons.items():
                print(f"{learner}: {name} left out: {why}", file=sys.stderr)
        for learner, handed in collection.handed.items():
            submitted = sum(item.submitted for item in handed)
            late = [item.assignment for item in handed if item.late]
            print(f"{learner}: {len(handed)} lessons ({submitted} submitted, "
                  f"{len(late)} late{': ' + ', '.join(late) if late else ''})")  # fmt: skip
        print(f"into {folder.root / 'grading' / 'submitted'} (nbgrader's layout)")
    else:
        if not (folder.root / "grading-env").exists():
            print("installing nbgrader for the grader (once) ...", flush=True)
        environment = grading.grading_environment(folder)
        if command == "formgrader":
            return _formgrader(folder, environment, args.port)
        if command == "grade":
            graded = grading.grade(folder, environment)
            for name, who in graded.failed.items():
                print(f"{name}: nbgrader could not autograde the submission of "
                      f"{', '.join(who)}: no grade or feedback for it",
                      file=sys.stderr)  # fmt: skip
            grades = graded.grades
            print(f"graded as {grading.grader_name(folder)!r}; feedback is in each learner's "
                  "~/feedback/")  # fmt: skip
        else:
            grades = grading.export(folder, environment)
            print("feedback again in each learner's ~/feedback/")
        print(f"grades: {grades} (readable by root and the grader only)")
    return 0


def _formgrader(folder: Any, environment: Path, port: int) -> int:
    """Run nbgrader's formgrader as the class's grader until Ctrl-C; print how to open it."""
    import secrets
    import signal
    import time

    import requests

    from scripts import grading, hub

    hub.check_port("127.0.0.1", port)
    token = secrets.token_urlsafe(24)
    process = grading.formgrader_process(folder, environment, port, token)
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                status = requests.get(f"http://127.0.0.1:{port}/api/status", timeout=2,
                                      headers={"Authorization": f"token {token}"})  # fmt: skip
                if status.status_code == 200:
                    break
            except requests.RequestException:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                log = (folder.hub / "formgrader.log").read_text(errors="replace")
                raise RuntimeError(f"formgrader did not start:\n{log[-3000:]}")
            time.sleep(0.5)
        print(f"formgrader, as {grading.grader_name(folder)!r}, on this machine only:\n"
              f"  http://127.0.0.1:{port}/lab?token={token}\n"
              "menu Nbgrader -> Formgrader -> Manual Grading. From another computer: "
              f"ssh -L {port}:127.0.0.1:{port} THIS-MACHINE. Ctrl-C stops it; then run "
              "python -m scripts.classroom export", flush=True)  # fmt: skip
        process.wait()
    except KeyboardInterrupt:
        pass
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
    print("formgrader stopped")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
