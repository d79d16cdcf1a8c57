"""Maintainer tools for the lessons: release, re-execute, stamp translations, copy for learners.

    python -m scripts.lessons release [LESSON ...]     # solutions -> learner notebooks, executed
    python -m scripts.lessons execute [NOTEBOOK ...]   # default: every notebook, both languages
    python -m scripts.lessons stamp [NOTEBOOK ...]     # default: every zh-CN notebook
    python -m scripts.lessons my-work [--force]        # copy the learner notebooks to my-work/
    python -m scripts.lessons adopt LESSON ...         # e.g. 05: make it a solution notebook

Each lesson with exercises has one source, its solution notebook
``notebooks/<lang>/solutions/NN-name.ipynb``: answers between nbgrader's ``### BEGIN SOLUTION``
and ``### END SOLUTION``, points in ``### BEGIN HIDDEN TESTS`` regions of the check cells.
``release`` turns every solution notebook (or the lessons named, e.g. ``05``) into the learner
notebook ``notebooks/<lang>/NN-name.ipynb`` with nbgrader's own preprocessors (solutions
replaced by the code stub of the lesson's language, ``pass  # YOUR CODE HERE`` or
``pass  # 在这里写你的代码``; hidden tests and outputs removed, grade cells locked, checksums
computed), then executes it. A solution notebook without nbgrader cells passes
through unchanged except for its outputs. A lesson with no solution notebook is left alone.

``adopt NN`` brings a lesson that has no solution notebook yet into this layout: it moves
``notebooks/<lang>/NN-*.ipynb`` to ``notebooks/<lang>/solutions/`` (``git mv`` when in a git
checkout), adds its review quiz and model answers when ``agentcore/course/quizzes/NN.json``
exists, re-stamps the zh-CN one if its stamp was current, and releases the lesson. Without
nbgrader cells the learner notebook is the same lesson, executed; exercises can be marked up
in the solution notebook afterwards.

``my-work`` copies the learner notebooks to the git-ignored ``my-work/<lang>/``, where a
learner saves answers without touching the notebooks the tests compare. It speaks the learner's
language: Chinese under a ``zh*`` locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``) or with
``--language zh-CN``, as ``python -m agentcore`` does (its messages are in the catalogs).

``execute`` runs each notebook top to bottom on a fresh kernel (its own folder as the working
directory), then stores the outputs. Widget views are kept out of stored outputs: a widget's
model id is random and its state lives only in a running kernel, so the stored notebook keeps
the widget's plain-text fallback ("run the cells above ..."), which is what a reader sees
before running the lesson and what nbval compares.

``stamp`` records in a zh-CN notebook's metadata the hash of the English twin's cell sources
(``source_hash``), after a translator has checked the translation against it. The test suite
fails when the English notebook changes and the stamp does not. ``release`` stamps a zh-CN
learner notebook only when its solution notebook's stamp is current, so a stale translation
stays visible in both versions.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import nbformat
from nbclient import NotebookClient
from nbgrader.preprocessors import (
    CheckCellMetadata,
    ClearHiddenTests,
    ClearMarkScheme,
    ClearOutput,
    ClearSolutions,
    ComputeChecksums,
    LockCells,
)

from agentcore.course.judges.grade import code_stub
from agentcore.course.text import Language, phrase

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
LANGUAGES = ("en", "zh-CN")
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
LANGUAGE_SPECIFIC_TAG = "language-specific"
"""Tag of a code cell whose code (beyond its strings' text) or output may differ between the two
languages; tests/test_notebooks.py compares every other cell."""


MY_WORK = ROOT / "my-work"


def lessons(language: str) -> list[Path]:
    """The learner notebooks of one language folder, in lesson order."""
    return sorted((NOTEBOOKS / language).glob("[0-9][0-9]-*.ipynb"))


def solutions(language: str) -> list[Path]:
    """The solution notebooks (the sources) of one language folder, in lesson order."""
    return sorted((NOTEBOOKS / language / "solutions").glob("[0-9][0-9]-*.ipynb"))


# appendix lessons (lesson 01): ``NN-appendix-<topic>.ipynb`` sits beside lesson NN, is released
# with it (``release NN``) and has its own quiz, ``quizzes/NN-appendix.json``.
PACKAGE_QUIZZES = Path(__file__).resolve().parents[1] / "agentcore" / "course" / "quizzes"


def quiz_name(path: Path) -> str:
    """The quiz of a lesson file: ``"01"`` for ``01-the-loop.ipynb``, ``"01-appendix"`` for an
    appendix ``01-appendix-<topic>.ipynb``; a lesson's further appendix has a quiz named after
    it (``quizzes/05-appendix-local-model.json`` for ``05-appendix-local-model.ipynb``)."""
    if "-appendix-" in path.name:
        own = PACKAGE_QUIZZES / f"{path.stem}.json"
        return path.stem if own.exists() else path.name[:2] + "-appendix"
    return path.name[:2]


def learner_twin(solution: Path) -> Path:
    """The learner notebook generated from a solution notebook (same name, one folder up)."""
    return solution.parent.parent / solution.name


def source_hash(notebook: Any) -> str:
    """SHA-256 of a notebook's cell types and sources (outputs and metadata excluded)."""
    cells = [[cell.cell_type, cell.source] for cell in notebook.cells]
    return hashlib.sha256(json.dumps(cells, ensure_ascii=False).encode("utf-8")).hexdigest()


def english_twin(path: Path) -> Path:
    """The English notebook a zh-CN notebook was translated from (same name and version)."""
    relative = path.resolve().relative_to(NOTEBOOKS / "zh-CN")
    return NOTEBOOKS / "en" / relative


def language_of(path: Path) -> str:
    """The human language of a lesson file, from its folder: ``"en"`` or ``"zh-CN"``.

    ``notebooks/zh-CN/01-the-loop.ipynb`` and ``notebooks/zh-CN/solutions/01-the-loop.ipynb``
    are ``"zh-CN"``. Raises ``ValueError`` for a file outside ``notebooks/<lang>/``.
    """
    resolved = path.resolve()
    parts = resolved.relative_to(NOTEBOOKS).parts if resolved.is_relative_to(NOTEBOOKS) else ()
    if not parts or parts[0] not in LANGUAGES:
        raise ValueError(f"{path} is in none of {[f'notebooks/{x}/' for x in LANGUAGES]}")
    return parts[0]


def release_notebook(solution: Any, language: str) -> Any:
    """The learner version of a solution notebook, by nbgrader's preprocessors; not executed.

    Inputs: a solution notebook (nbformat node; not modified) and its human language (``"en"``
    or ``"zh-CN"``, see :func:`language_of`). Output: a new notebook whose solution regions
    hold that language's code stub (``agentcore.course.judges.grade.code_stub``, given to
    nbgrader's ``ClearSolutions.code_stub`` for the kernel's language, Python), without hidden
    tests, mark schemes, outputs or the cells' ``wrong_answers`` and ``valid_answers``, with
    grade cells locked and nbgrader checksums computed. Raises ``ValueError`` for another
    language, and nbgrader's errors for a solution region outside a solution cell, a hidden
    test outside a grade cell, or invalid nbgrader metadata.
    """
    stub = code_stub(language)
    notebook = nbformat.from_dict(json.loads(json.dumps(solution)))
    resources: dict[str, Any] = {}
    for preprocessor in (
        LockCells(),
        ClearSolutions(code_stub={"python": stub}),
        ClearHiddenTests(),
        ClearMarkScheme(),
        ClearOutput(),
        ComputeChecksums(),
        CheckCellMetadata(),
    ):
        notebook, resources = preprocessor.preprocess(notebook, resources)
    for cell in notebook.cells:  # the written-down answers are for the tests, not the learner
        cell.metadata.get("agentcore", {}).pop("wrong_answers", None)
        cell.metadata.get("agentcore", {}).pop("valid_answers", None)
    return notebook


def _drop_widget_views(notebook: Any) -> None:
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            output.get("data", {}).pop(WIDGET_VIEW, None)
    notebook.metadata.pop("widgets", None)


def execute(paths: Iterable[Path]) -> None:
    """Re-execute each notebook in place on a fresh kernel and store its outputs."""
    for path in paths:
        notebook = nbformat.read(path, as_version=4)
        start = time.perf_counter()
        NotebookClient(
            notebook,
            timeout=120,
            kernel_name="python3",
            record_timing=False,
            # One print can arrive as several stream messages; store it as one output.
            coalesce_streams=True,
            resources={"metadata": {"path": str(path.parent)}},
        ).execute()
        _drop_widget_views(notebook)
        nbformat.write(notebook, path)
        print(f"executed {path.relative_to(ROOT)} in {time.perf_counter() - start:.1f} s")


def _stamp_of(path: Path) -> dict[str, str]:
    return {
        "path": english_twin(path).relative_to(ROOT).as_posix(),
        "source_sha256": source_hash(nbformat.read(english_twin(path), as_version=4)),
    }


def stamp(paths: Iterable[Path]) -> None:
    """Record the English twin's source hash in each zh-CN notebook's metadata."""
    for path in paths:
        notebook = nbformat.read(path, as_version=4)
        notebook.metadata.setdefault("agentcore", {})["translated_from"] = _stamp_of(path)
        nbformat.write(notebook, path)
        print(f"stamped {path.relative_to(ROOT)}")


def _stamp_is_current(path: Path) -> bool:
    stamp = nbformat.read(path, as_version=4).metadata.get("agentcore", {})
    return bool(stamp.get("translated_from") == _stamp_of(path))


def release(names: Iterable[str] = ()) -> list[Path]:
    """Write and execute the learner notebook of every solution notebook (or of the lessons
    ``names``, given as numbers such as ``05`` or file names); return the learner paths.

    English first, so a zh-CN learner notebook can be stamped against its English twin.
    """
    wanted = {name.split("-")[0].split("/")[-1][:2] for name in names}
    written: list[Path] = []
    for language in LANGUAGES:
        for solution in solutions(language):
            if wanted and solution.name[:2] not in wanted:
                continue
            learner = learner_twin(solution)
            notebook = release_notebook(nbformat.read(solution, as_version=4), language)
            notebook.metadata.get("agentcore", {}).pop("translated_from", None)
            nbformat.write(notebook, learner)
            print(f"released {learner.relative_to(ROOT)} from {solution.relative_to(ROOT)}")
            written.append(learner)
    execute(written)
    for learner in written:
        if learner.parent.name == "zh-CN" and _stamp_is_current(learner_twin_source(learner)):
            stamp([learner])
    return written


def learner_twin_source(learner: Path) -> Path:
    """The solution notebook a learner notebook is released from."""
    return learner.parent / "solutions" / learner.name


def my_work(force: bool = False, says: Language = "en") -> list[Path]:
    """Copy the learner notebooks to ``my-work/<lang>/`` (git-ignored; the tests skip it).

    An existing copy is kept unless ``force``: a learner's saved answers are never overwritten
    by accident. Each copy is reported in ``says`` (``"en"`` or ``"zh-CN"``, the language
    of the messages, not of the notebooks: both languages are copied). Returns the paths written.
    """
    written = []
    for language in LANGUAGES:
        for path in lessons(language):
            target = MY_WORK / language / path.name
            if target.exists() and not force:
                print(phrase("my work.kept", says, target=target))
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
            written.append(target)
            print(phrase("my work.copied", says, source=path.relative_to(ROOT), target=target))
    return written


REVIEW_HEADING = {"en": "## Review questions", "zh-CN": "## 复习题"}
QUIZ_INTRO = {
    "en": "Check yourself: pick an answer to each question below; a wrong choice explains why. "
    "Then compare with the model answers.",
    "zh-CN": "自测一下：为下面每道题选一个答案，选错时会看到原因。然后对照参考答案。",
}


def add_review_quiz(path: Path) -> bool:
    """After a lesson's review questions, add its quiz cell and its model answers.

    Input: a solution notebook whose Markdown holds the heading ``REVIEW_HEADING`` and whose
    questions are in ``agentcore/course/quizzes/NN.json``. What followed the questions in that
    cell (a glossary, the links) moves to a cell after the answers. Returns False, changing
    nothing, when the lesson has a quiz cell already or no heading.
    """
    from agentcore.course.quiz import model_answers_markdown

    language, number = path.parent.parent.name, quiz_name(path)  # appendix lessons
    notebook = nbformat.read(path, as_version=4)
    if any("review_quiz(" in cell.source for cell in notebook.cells):
        return False
    heading = REVIEW_HEADING[language]
    found = [
        i for i, c in enumerate(notebook.cells) if c.cell_type == "markdown" and heading in c.source
    ]
    if not found:
        return False
    index = found[-1]
    text = notebook.cells[index].source
    before, review = text[: text.index(heading)].rstrip(), text[text.index(heading) :]
    ends = [review.find(mark) for mark in ("\n## ", "\n---") if review.find(mark) > 0]
    cut = min(ends, default=len(review))
    questions, tail = review[:cut].rstrip(), review[cut:].strip()
    quiz = nbformat.v4.new_code_cell(
        f'from agentcore.course.quiz import review_quiz\n\nreview_quiz("{number}", "{language}")'
    )
    quiz.metadata["tags"] = [LANGUAGE_SPECIFIC_TAG]
    cells = [nbformat.v4.new_markdown_cell(before)] if before else []
    cells += [
        nbformat.v4.new_markdown_cell(f"{questions}\n\n{QUIZ_INTRO[language]}"),
        quiz,
        nbformat.v4.new_markdown_cell(model_answers_markdown(number, language)),
    ]
    if tail:
        cells.append(nbformat.v4.new_markdown_cell(tail))
    notebook.cells[index : index + 1] = cells
    nbformat.write(notebook, path)
    print(f"added the review quiz to {path.relative_to(ROOT)}")
    return True


def adopt(names: Iterable[str]) -> list[Path]:
    """Move the lessons ``names`` (e.g. ``05``) into ``solutions/`` and release them.

    Returns the solution notebooks written. Raises ``FileNotFoundError`` for a lesson without a
    learner notebook and ``FileExistsError`` if it already has a solution notebook.
    """
    numbers = [name.split("/")[-1][:2] for name in names]
    moves: list[tuple[Path, Path]] = []
    for number in numbers:
        for language in LANGUAGES:
            found = sorted((NOTEBOOKS / language).glob(f"{number}-*.ipynb"))
            if not found:
                raise FileNotFoundError(f"no lesson {number} in notebooks/{language}/")
            for lesson in found:  # appendix lessons: the lesson and its appendices move together
                target = NOTEBOOKS / language / "solutions" / lesson.name
                if target.exists():
                    raise FileExistsError(f"{target.relative_to(ROOT)} already exists")
                moves.append((lesson, target))
    # Which translations were reviewed, read before anything moves.
    current = {t: _stamp_is_current(s) for s, t in moves if s.parent.name == "zh-CN"}
    in_git = (ROOT / ".git").exists()
    for source, target in moves:
        target.parent.mkdir(exist_ok=True)
        moving = ["git", "mv", str(source), str(target)]
        if not (in_git and subprocess.run(moving, cwd=ROOT).returncode == 0):
            shutil.move(source, target)
        print(f"moved {source.relative_to(ROOT)} -> {target.relative_to(ROOT)}")
    moved = [target for _, target in moves]
    quizzes = ROOT / "agentcore" / "course" / "quizzes"
    # The same quiz goes into both languages, so a reviewed translation stays reviewed.
    added = [t for t in moved if (quizzes / f"{quiz_name(t)}.json").exists() and add_review_quiz(t)]
    execute(added)
    stamp([target for target, was_current in current.items() if was_current])
    release(numbers)
    return moved


def every_notebook(language: str) -> list[Path]:
    """Learner and solution notebooks of one language."""
    return lessons(language) + solutions(language)


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("execute", "stamp", "release", "my-work", "adopt"):
        print(__doc__)
        return 2
    command, names = argv[0], argv[1:]
    if command == "execute":
        execute(
            [Path(n).resolve() for n in names] or every_notebook("en") + every_notebook("zh-CN")
        )
    elif command == "stamp":
        stamp([Path(n).resolve() for n in names] or every_notebook("zh-CN"))
    elif command == "release":
        release(names)
    elif command == "adopt":
        adopt(names)
    else:
        from agentcore.course.cli import help_language

        my_work(force="--force" in names, says=help_language(names))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
