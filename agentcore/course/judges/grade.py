"""Grades that hold: the answer judged in a fresh interpreter, away from the learner's kernel.

A self-check (:func:`agentcore.course.judges.core.verdict`) runs in the learner's kernel, where
the learner's code can rebind ``accepted``, patch the judges or print a fake ``✔``. A grade is
computed here instead:

* :func:`judge_notebook` builds a run of the teacher's source notebook in which each answer cell
  is replaced by the learner's (matched by nbgrader ``grade_id``; its names cleared first) and
  grade cells are left out, and runs it in new interpreters (``python -I -S``, see
  :func:`runner_command`) under a time limit: the referee
  (:mod:`agentcore.course.judges.referee`), which judges and never runs learner code, and the
  player it starts (:mod:`agentcore.course.judges.player`), which runs the cells and holds no
  judge (its self-check answers nothing, so an answer found by trying scores zero).
* :func:`graded` is what a hidden test calls (``graded("exercise", "NN-name.ipynb")``): it reads
  the notebook being graded from the kernel's working directory and the teacher's source from
  nbgrader's course layout, and raises ``AssertionError`` unless the answer is accepted.
* :func:`code_stub` is what an answer cell holds until the learner answers, in the lesson's
  language (nbgrader's ``ClearSolutions.code_stub``); :func:`holds_code_stub` tells whether a
  cell still holds one, in either language.
* :class:`JudgeBeforeExecute` and :class:`GradeInFreshInterpreter` are nbgrader preprocessors
  for ``Autograde``, around its ``Execute``: the first judges every exercise from the notebook
  as submitted, *before* nbgrader's own kernel runs any learner code, the second writes each
  grade cell's outputs after it, so nothing the learner's kernel did (hiding a traceback,
  editing the judges, the teacher's notebook or the gradebook) changes the score. README's
  teacher section shows the one configuration line (:func:`autograde_preprocessors`).

Residual limits (written down, not hidden). On Linux with Landlock the player is confined
(:mod:`agentcore.course.judges.sandbox`): it writes no file outside its scratch folder, starts
no program, reads neither the checkout's solutions nor another process's memory or file
descriptors. Still open there: learner code can read what the grader's account may read outside
the checkout (a teacher's source folder elsewhere, the gradebook: it can learn, not change, a
grade), signal the grader's processes (a stopped grade scores zero) and connect to loopback (a
Jupyter kernel of the same user). nbgrader's own ``Execute`` kernel is not confined: what it
writes (a ``.pth`` file, an edited judge) reaches the teacher's *later* nbgrader commands, not
the grade being computed. Without Landlock (other systems) only the player's audit hook stands,
and learner code has the grader's permissions. Grade in a container or a JupyterHub user's own
account for a class where that matters (README).
"""

from __future__ import annotations

import ast
import contextlib
import json
import os
import secrets
import signal
import subprocess
import sys
import sysconfig
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import nbformat
from nbconvert.preprocessors import Preprocessor
from nbgrader.coursedir import CourseDirectory  # type: ignore[import-untyped]
from nbgrader.preprocessors import Execute  # type: ignore[import-untyped]
from traitlets import Bool

from agentcore.course.judges.core import forgotten_names, verdict_line
from agentcore.course.judges.execute_kernel import JUDGED_BEFORE_EXECUTE, ConfinedKernelManager
from agentcore.course.judges.sandbox import become_subreaper, children, end_children, unavailable
from agentcore.course.text import LANGUAGES, current_language, phrase, resolve_language

NOTEBOOK_TIME_LIMIT_SECONDS = 300.0
"""How long one fresh-interpreter run of a notebook may take (the judges' own limit per verdict
is far shorter); past it, every exercise of the run gets ✘."""


def _nbgrader(cell: Any) -> Mapping[str, Any]:
    return cell.get("metadata", {}).get("nbgrader", {}) or {}


def _source(cell: Any) -> str:
    """A cell's source as one string (a notebook file may store it as a list of lines)."""
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def _is_answer(cell: Any) -> bool:
    meta = _nbgrader(cell)
    return cell.get("cell_type") == "code" and bool(meta.get("solution")) and not meta.get("grade")


def _is_grade(cell: Any) -> bool:
    return cell.get("cell_type") == "code" and bool(_nbgrader(cell).get("grade"))


def code_stub(language: str | None = None) -> str:
    """What a learner finds in an answer cell, in place of the solution, until they answer.

    Input: ``"en"`` or ``"zh-CN"`` (default: the language of ``set_language``). Output: valid
    Python that does nothing and shows nothing when the cell runs, then a comment in that
    language: ``pass  # YOUR CODE HERE`` (nbgrader's wording; ``...`` would show ``Ellipsis``
    under the cell) or its Chinese, the message ``check.code stub`` of the catalogs
    (every Chinese string lives there). It is the value of nbgrader's
    ``ClearSolutions.code_stub`` (a dict keyed by the kernel's language,
    ``{"python": code_stub("zh-CN")}``) when a lesson of that language is released:
    ``python -m scripts.lessons release`` does so per language, and a teacher's
    ``nbgrader_config.py`` sets the one of its lessons' language (README's teacher section).
    Raises ``ValueError`` for another language.
    """
    return phrase("check.code stub", resolve_language(language))


def holds_code_stub(source: str) -> bool:
    """Whether an answer cell's ``source`` still holds the code stub of either language.

    Input: the cell's source as one string. Output: ``True`` while the learner has not
    replaced :func:`code_stub` (``"en"`` or ``"zh-CN"``; a lesson pulled before the Chinese
    stub holds the English one, and a learner's copy of a lesson released before the stub
    became ``pass`` holds ``...  # YOUR CODE HERE``) with an answer: the "not attempted" of a
    class's progress.
    """
    stubs = [code_stub(language) for language in LANGUAGES]
    earlier = ["..." + stub.removeprefix("pass") for stub in stubs]
    return any(stub in source for stub in stubs + earlier)


def graded_call(source: str) -> tuple[str, dict[str, Any]] | None:
    """``(exercise, keyword arguments)`` of a ``graded(...)`` call in a hidden test, or ``None``.

    Only literal arguments are read (``ast.literal_eval``); nothing of the cell is run.
    """
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "graded"
            and node.args
        ):
            try:
                name = ast.literal_eval(node.args[0])
                keywords = {k.arg: ast.literal_eval(k.value) for k in node.keywords if k.arg}
            except ValueError:
                return None
            return str(name), keywords
    return None


def judge_notebook(
    source: Any,
    submitted: Any,
    exercises: Iterable[str] | None = None,
    language: str | None = None,
    timeout: float = NOTEBOOK_TIME_LIMIT_SECONDS,
) -> dict[str, tuple[bool, str]]:
    """Judge the learner's answers of ``submitted`` against the teacher's ``source`` notebook.

    Inputs: two notebooks (nbformat nodes or dicts); the exercises to judge (default: every
    exercise of ``source``); the language of the lines (default: the current one); the time
    limit in seconds for the whole run. Output: ``{exercise: (accepted, verdict line)}`` for
    every exercise asked for; an answer missing from ``submitted`` is judged as empty. Never
    raises for anything the learner wrote; ``OSError`` if the interpreter cannot be started.
    """
    language = language or current_language()
    answers = {
        _nbgrader(cell).get("grade_id"): _source(cell)
        for cell in submitted["cells"]
        if _is_answer(cell)
    }
    cells: list[dict[str, Any]] = []
    keys: dict[str, Any] = {}
    found: list[str] = []
    for cell in source["cells"]:
        if cell.get("cell_type") != "code":
            continue
        if _is_grade(cell):
            call = graded_call(_source(cell))
            if call is not None and "key" in call[1]:
                keys[call[0]] = call[1]["key"]
            continue
        if _is_answer(cell):
            exercise = cell.get("metadata", {}).get("agentcore", {}).get("exercise")
            learner = answers.get(_nbgrader(cell).get("grade_id"), "")
            names = list(forgotten_names(_source(cell)))
            cells.append({"source": learner, "exercise": exercise, "names": names})
            if exercise:
                found.append(exercise)
            continue
        cells.append({"source": _source(cell), "exercise": None, "names": []})
    want = list(found if exercises is None else exercises)
    nonce = secrets.token_hex(16)
    request = {"nonce": nonce, "language": language, "cells": cells, "want": want, "keys": keys}
    failed = {
        name: (False, verdict_line(False, "grade_failed", language, {"seconds": int(timeout)}))
        for name in want
    }
    # A session of its own, so whatever the run leaves behind is stopped with it.
    runner = subprocess.Popen(
        runner_command(),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        env={**os.environ, "PYTHONIOENCODING": "utf-8", "MPLBACKEND": "Agg"},
    )
    try:
        output, _ = runner.communicate(json.dumps(request).encode("utf-8"), timeout=timeout)
    except subprocess.TimeoutExpired:
        # The verdicts given before the run hung still count: each was written at once.
        _stop_session(runner.pid)
        output, _ = runner.communicate()
    finally:
        _stop_session(runner.pid)
    judged: dict[str, tuple[bool, str]] = {}
    for line in output.decode("utf-8", errors="replace").splitlines():
        if not line.startswith(nonce):
            continue
        try:  # a Python literal (see referee.Referee.write): data only, nothing of it is run
            results = ast.literal_eval(line[len(nonce) :])
            for name, value in results.items():
                judged.setdefault(str(name), (value[0] is True, str(value[1])))
        except (ValueError, SyntaxError, TypeError, AttributeError, IndexError, KeyError):
            continue
    for name in want:  # an exercise the run never reached (no answer cell for it, or a hang)
        judged.setdefault(name, failed[name])
    return {name: judged[name] for name in want}


def runner_command() -> list[str]:
    """The command line of the fresh interpreter a grade is computed in.

    ``-I`` (no ``PYTHON*`` environment variables, no user site, no script folder) and ``-S``:
    Python's ``site`` does not run, so no ``.pth`` file or ``sitecustomize`` module in
    site-packages runs code before the runner's own (an answer cell, or the learner's notebook
    run by nbgrader's ``Execute``, can write one there, and it would run first in every later
    grading run). :mod:`agentcore.course.judges.grade_boot` does instead what the runner needs
    of ``site``, from the settings given here: this interpreter's ``sys.prefix`` and
    ``sys.exec_prefix``, its site-packages folders and the folder that holds ``agentcore`` (an
    editable install reaches it through a ``.pth`` file, which ``-S`` skips)."""
    folders = [sysconfig.get_paths()[key] for key in ("purelib", "platlib")]
    folders.append(str(Path(__file__).resolve().parents[3]))
    settings = {
        "prefix": sys.prefix,
        "exec_prefix": sys.exec_prefix,
        "path": list(dict.fromkeys(folders)),
    }
    boot = Path(__file__).resolve().with_name("grade_boot.py")
    return [sys.executable, "-I", "-S", str(boot), json.dumps(settings)]


def _stop_session(session: int) -> None:
    """Kill every process of the grading run's session (the runner and anything it left)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(session, signal.SIGKILL)


def source_notebook(notebook: str, here: Path | None = None) -> Path:
    """The teacher's source notebook for the notebook ``notebook`` being run in ``here``.

    Under ``nbgrader autograde`` (nbgrader's default layout: ``<course>/autograded/<student>/
    <assignment>/``) it is ``<course>/source/<assignment>/<notebook>``; anywhere else (the
    teacher running the solution notebook) it is the notebook itself.
    """
    here = (here or Path.cwd()).resolve()
    candidate = here.parents[2] / "source" / here.name / notebook if len(here.parents) > 2 else None
    if (
        os.environ.get("NBGRADER_EXECUTION") == "autograde"
        and candidate is not None
        and candidate.is_file()
    ):
        return candidate
    return here / notebook


def graded(exercise: str, notebook: str, key: Any = None, language: str | None = None) -> None:
    """A hidden test: raise ``AssertionError`` (with the verdict line) unless ``exercise`` of
    ``notebook`` is accepted when judged in a fresh interpreter.

    Inputs: the exercise's name; the notebook's file name (in the kernel's working directory,
    where nbgrader and the lesson runner put it); ``key``, the graded key of an exercise whose
    answer is a fixed key (read from the hidden test's source, never from this call's value,
    by :func:`judge_notebook`). Nothing in the learner's kernel is trusted: not ``accepted``,
    not the judge modules as they are in this kernel.
    """
    if os.environ.get(JUDGED_BEFORE_EXECUTE):
        # nbgrader's confined Execute kernel: the grade was judged before it started, and
        # GradeInFreshInterpreter writes it over this cell's outputs (a learner who sets the
        # variable in their own kernel only fails their own test)
        raise AssertionError(phrase("grade.judged before execute"))
    here = Path.cwd()
    submitted = json.loads((here / notebook).read_text(encoding="utf-8"))
    source = json.loads(source_notebook(notebook, here).read_text(encoding="utf-8"))
    ok, line = judge_notebook(source, submitted, [exercise], language)[exercise]
    if not ok:
        raise AssertionError(line)


_SOURCES: dict[Path, Any] = {}
"""The teacher's source notebooks as this process first read them (see :func:`_teachers_source`)."""


def _teachers_source(path: Path) -> Any:
    """The teacher's source notebook at ``path``, read once per process: ``nbgrader autograde``
    grades every student in one process, and a student graded earlier ran code (nbgrader's
    ``Execute``) that could have edited the file before a later student is judged."""
    if path not in _SOURCES:
        _SOURCES[path] = json.loads(path.read_text("utf-8"))
    return _SOURCES[path]


class JudgeBeforeExecute(Preprocessor):
    """nbgrader ``Autograde`` preprocessor, right before ``Execute``: judge the notebook as
    submitted, before any of its code has run in nbgrader's own kernel.

    ``Execute`` runs the learner's cells in an ordinary kernel, where they could edit the files
    a later grade reads (the package's judges, the teacher's source notebook). So the verdicts
    are computed first, by :func:`judge_notebook` (whose player confines learner code), for
    every grade cell whose hidden test calls ``graded("exercise", ...)``, and kept in
    ``resources["agentcore_grades"]`` (``{cell index: (accepted, verdict line)}``) for
    :class:`GradeInFreshInterpreter`. Raises ``OSError`` if the teacher's source notebook
    cannot be read."""

    # nbconvert runs a preprocessor only when it is enabled; nbgrader's own are by default
    enabled = Bool(True).tag(config=True)

    def preprocess(self, nb: Any, resources: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        """Judge ``nb``'s graded exercises; ``(nb, resources)`` with the verdicts added."""
        info = resources["nbgrader"]
        course = CourseDirectory(parent=self)
        folder = course.format_path(course.source_directory, ".", info["assignment"])
        source = _teachers_source(Path(folder).resolve() / f"{info['notebook']}.ipynb")
        wanted = {}
        for index, cell in enumerate(nb.cells):
            call = graded_call(_source(cell)) if _is_grade(cell) else None
            if call is not None:
                wanted[index] = call[0]
        missing = unavailable()
        if missing is not None:
            self.log.warning(
                "grading without confinement (%s): learner code runs with your permissions",
                missing,
            )
        results = judge_notebook(source, nb, sorted(set(wanted.values())))
        resources["agentcore_grades"] = {
            index: results[exercise] for index, exercise in wanted.items()
        }
        return nb, resources


class ConfinedExecute(Execute):  # type: ignore[misc]
    """nbgrader's ``Execute``, with its kernel confined before it runs a cell
    (:class:`~agentcore.course.judges.execute_kernel.ConfinedKernelManager`): the learner's
    cells fill in the feedback's outputs as before, but cannot reach the nbgrader process's
    memory, the gradebook or any file outside the kernel's scratch folder, and nothing they
    start outlives the kernel. Configured as ``Execute`` is (``c.Execute.timeout``: traitlets
    reads a parent class's section). Where Landlock is missing it is nbgrader's ``Execute``
    unchanged, and :class:`JudgeBeforeExecute` has warned."""

    def create_kernel_manager(self) -> Any:
        """nbclient's kernel manager, of the confined class where Landlock is there."""
        if unavailable() is None:
            self.kernel_manager_class = ConfinedKernelManager
        return super().create_kernel_manager()

    def preprocess(self, nb: Any, resources: Any, *args: Any, **kwargs: Any) -> Any:
        """nbgrader's ``Execute.preprocess``, with this process the child subreaper meanwhile,
        and every process started during it ended after it: a kernel that refuses to end is
        killed by jupyter_client together with its launcher, before the launcher's own sweep,
        and what it left is then adopted here."""
        if unavailable() is not None or not become_subreaper():
            return super().preprocess(nb, resources, *args, **kwargs)
        before = children()
        try:
            return super().preprocess(nb, resources, *args, **kwargs)
        finally:
            end_children(keep=before)


class GradesNotJudged(RuntimeError):
    """:class:`GradeInFreshInterpreter` ran without :class:`JudgeBeforeExecute` before it (an
    ``nbgrader_config.py`` that lists one and not the other); use
    :func:`autograde_preprocessors`."""


class GradeInFreshInterpreter(Preprocessor):
    """nbgrader ``Autograde`` preprocessor, right after ``Execute``: each grade cell judged by
    :class:`JudgeBeforeExecute` gets the outputs of its verdict, whatever the learner's kernel
    left there: ``[]`` (accepted: full points) or one ``error`` output holding the verdict line
    (zero points). Other grade cells keep their outputs. Raises :class:`GradesNotJudged`
    without the verdicts."""

    enabled = Bool(True).tag(config=True)

    def preprocess(self, nb: Any, resources: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        """Write the verdicts into ``nb``'s graded cells; ``(nb, resources)``."""
        if "agentcore_grades" not in resources:
            raise GradesNotJudged(
                "JudgeBeforeExecute did not run before Execute: set "
                "c.Autograde.autograde_preprocessors = autograde_preprocessors() (README)"
            )
        for index, (ok, line) in resources["agentcore_grades"].items():
            nb.cells[index].outputs = (
                []
                if ok
                else [
                    nbformat.v4.new_output(  # type: ignore[no-untyped-call]
                        "error", ename="AssertionError", evalue=line, traceback=[line]
                    )
                ]
            )
        return nb, resources


def autograde_preprocessors() -> list[Any]:
    """nbgrader's ``Autograde.autograde_preprocessors`` with :class:`JudgeBeforeExecute` right
    before ``Execute`` and :class:`GradeInFreshInterpreter` right after it: for a teacher's
    ``nbgrader_config.py``::

        from agentcore.course.judges.grade import autograde_preprocessors
        c.Autograde.autograde_preprocessors = autograde_preprocessors()

    Raises ``ImportError`` without nbgrader (the classroom extra).
    """
    from nbgrader.converters import Autograde  # type: ignore[import-untyped]

    default = list(Autograde.class_traits()["autograde_preprocessors"].default())
    at = default.index(Execute)
    return [
        *default[:at],
        JudgeBeforeExecute,
        ConfinedExecute,
        GradeInFreshInterpreter,
        *default[at + 1 :],
    ]
