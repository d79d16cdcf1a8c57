"""Slides for every lesson: set RISE's slideshow metadata on each cell by fixed rules.

    python -m scripts.slides apply [NOTEBOOK ...]   # default: every lesson, both languages
    python -m scripts.slides check [NOTEBOOK ...]   # exit 1 and name the lessons that differ
    python -m scripts.slides present 01 [--language zh-CN] [--learner] [-- JUPYTER_LAB_ARGS]

A teacher presents a lesson from JupyterLab with jupyterlab-rise (the "Render as Reveal
Slideshow" toolbar button, command ``RISE:preview``). ``present`` does it without touching the
tracked notebooks: RISE saves the notebook before it shows it (execution counts, outputs), so
``present`` copies the lesson (the solution notebook, or the learner one with ``--learner``)
into the git-ignored ``presenting/<lang>/``, applies :mod:`scripts.rise_patch` (widgets in the
slideshow), and replaces itself with ``jupyter lab`` serving that folder, the copy open, until
Ctrl-C (as root, with ``--allow-root``). Which cell starts a slide is not chosen by
hand: the rules below read only the notebook itself, so ``apply`` gives the same metadata every
time (running it twice changes nothing), on the solution sources (``notebooks/<lang>/solutions``)
and the learner notebooks alike, and on both languages the same way (the rules look at Markdown
heading levels and code, never at words).

The rules, cell by cell (``slide_type`` is RISE's field in ``cell.metadata.slideshow``):

- Markdown that starts with a level-1 or level-2 heading: ``slide``.
- Markdown that starts with a level-3 (or deeper) heading: ``subslide``.
- Other Markdown (the prose that follows a heading or a result): ``fragment``, so it appears
  on the slide after what it comments on.
- Setup, hidden from the slides (``skip``): a code cell whose statements are all imports; a code
  cell that starts with imports right after a Markdown cell that is only a heading (the lessons'
  "Setup" section), and that heading itself. Run the whole lesson before presenting it.
- A code cell whose stored output is longer than ``LONG_OUTPUT_LINES`` lines (printed source,
  long traces): ``notes``, so it is in the speaker notes, not on a slide that cannot hold it.
- Any other code cell: ``-`` (shown on the current slide, with the cells before it).
- Raw cells: ``skip``.
- The first cell of a lesson is always a ``slide`` (its title).

Every lesson also gets notebook metadata ``rise`` = ``{"scroll": true, "start_slideshow_at":
"beginning"}``: a slide taller than the screen scrolls instead of being cut, and the slideshow
starts at the title slide, not at the slide of the active cell (RISE's default, ``selected``;
both are settings of jupyterlab-rise's schema, which the notebook's metadata overrides).

Inputs are notebook paths; ``apply`` rewrites a notebook only when its metadata changes (with
nbformat, as ``scripts.lessons`` writes), ``check`` writes nothing. Errors: a path that is not a
notebook raises nbformat's error.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal

import nbformat

from agentcore.course.text import Language, phrase

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
LANGUAGES = ("en", "zh-CN")
LONG_OUTPUT_LINES = 24
"""Output lines above which a code cell goes to the speaker notes."""
RISE_SETTINGS = {"scroll": True, "start_slideshow_at": "beginning"}
PRESENTING = ROOT / "presenting"
"""Where ``present`` puts the copies it presents (git-ignored)."""

SlideType = Literal["slide", "subslide", "fragment", "skip", "notes", "-"]
HEADING = re.compile(r"^(#{1,6})\s")


def lessons() -> list[Path]:
    """Every lesson notebook: learner notebooks and, where present, their solution sources."""
    found: list[Path] = []
    for language in LANGUAGES:
        found += sorted((NOTEBOOKS / language).glob("[0-9][0-9]-*.ipynb"))
        found += sorted((NOTEBOOKS / language / "solutions").glob("[0-9][0-9]-*.ipynb"))
    return found


def _heading_level(source: str) -> int:
    match = HEADING.match(source.lstrip("\n"))
    return len(match.group(1)) if match else 0


def _is_heading_only(cell: Any) -> bool:
    text = cell.source.strip()
    return cell.cell_type == "markdown" and _heading_level(text) > 0 and "\n" not in text


def _statements(cell: Any) -> list[ast.stmt]:
    try:
        return list(ast.parse(str(cell.source)).body)
    except SyntaxError:  # IPython magics or a learner's broken answer: not setup code
        return []


def _is_import(statement: ast.stmt) -> bool:
    return isinstance(statement, ast.Import | ast.ImportFrom)


def _is_setup(cells: list[Any], index: int) -> bool:
    """A code cell of imports only, or one starting with imports under a heading-only cell."""
    cell = cells[index]
    if cell.cell_type != "code":
        return False
    statements = _statements(cell)
    if not statements or not _is_import(statements[0]):
        return False
    if all(_is_import(statement) for statement in statements):
        return True
    return index > 0 and _is_heading_only(cells[index - 1])


def _output_lines(cell: Any) -> int:
    lines = 0
    for output in cell.get("outputs", []):
        if output.get("output_type") == "stream":
            lines += str(output.get("text", "")).count("\n")
        elif output.get("output_type") == "error":
            lines += len(output.get("traceback", []))
        else:
            lines += str(output.get("data", {}).get("text/plain", "")).count("\n") + 1
    return lines


def slide_types(notebook: Any) -> list[SlideType]:
    """The slide type of every cell of a notebook, by the rules in this module's docstring."""
    cells = list(notebook.cells)
    types: list[SlideType] = []
    for index, cell in enumerate(cells):
        kind: SlideType
        if cell.cell_type == "markdown":
            level = _heading_level(cell.source)
            if _is_heading_only(cell) and index + 1 < len(cells) and _is_setup(cells, index + 1):
                kind = "skip"
            elif level in (1, 2):
                kind = "slide"
            elif level >= 3:
                kind = "subslide"
            else:
                kind = "fragment"
        elif cell.cell_type == "code":
            if _is_setup(cells, index):
                kind = "skip"
            elif _output_lines(cell) > LONG_OUTPUT_LINES:
                kind = "notes"
            else:
                kind = "-"
        else:
            kind = "skip"
        types.append(kind)
    if types:
        types[0] = "slide"
    return types


def slides_applied(notebook: Any) -> bool:
    """Whether a notebook already carries exactly the slideshow metadata the rules give."""
    if notebook.metadata.get("rise") != RISE_SETTINGS:
        return False
    return all(
        cell.metadata.get("slideshow") == {"slide_type": kind}
        for cell, kind in zip(notebook.cells, slide_types(notebook), strict=True)
    )


def apply_slides(notebook: Any) -> bool:
    """Set the slideshow metadata on every cell in place; return whether anything changed."""
    if slides_applied(notebook):
        return False
    for cell, kind in zip(notebook.cells, slide_types(notebook), strict=True):
        cell.metadata["slideshow"] = {"slide_type": kind}
    notebook.metadata["rise"] = dict(RISE_SETTINGS)
    return True


def apply(paths: Iterable[Path]) -> list[Path]:
    """Apply the rules to each notebook file; return the files that were rewritten."""
    changed = []
    for path in paths:
        notebook = nbformat.read(path, as_version=4)
        if apply_slides(notebook):
            nbformat.write(notebook, path)
            changed.append(path)
    return changed


def stale(paths: Iterable[Path]) -> list[Path]:
    """The notebooks whose slideshow metadata differs from what the rules give."""
    return [path for path in paths if not slides_applied(nbformat.read(path, as_version=4))]


def _shown(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def lesson_source(lesson: str, language: str, learner: bool = False, says: Language = "en") -> Path:
    """The tracked notebook of ``lesson`` ("01" or a name such as "01-appendix-inside-the-loop").

    The solution notebook (``notebooks/<lang>/solutions/``), or the learner notebook with
    ``learner``. A bare number names the lesson, not its appendix. Raises ``ValueError`` naming
    the lessons there are if none matches, in the language ``says``.
    """
    folder = NOTEBOOKS / language if learner else NOTEBOOKS / language / "solutions"
    found = sorted(folder.glob("[0-9][0-9]-*.ipynb"))
    matches = [path for path in found if path.stem == lesson] or [
        path
        for path in found
        if path.stem.startswith(f"{lesson}-") and "-appendix-" not in path.stem
    ]
    if len(matches) != 1:
        names = ", ".join(path.stem for path in found)
        raise ValueError(
            phrase(
                "slides.no lesson", says, lesson=repr(lesson), folder=_shown(folder), lessons=names
            )
        )
    return matches[0]


def presentation_copy(source: Path, folder: Path = PRESENTING) -> Path:
    """Copy the notebook ``source`` to ``folder/<lang>/`` (replacing an older copy); its path."""
    language = (
        source.parent.parent.name if source.parent.name == "solutions" else source.parent.name
    )
    target = folder / language / source.name
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)
    return target


def present(argv: list[str]) -> int:
    """``present``: copy a lesson, patch RISE, and become ``jupyter lab`` on the copy.

    Arguments after ``--`` go to ``jupyter lab`` as they are (``--no-browser``,
    ``--ServerApp.port=8890``), with ``--allow-root`` when run as root (:func:`root_arguments`).
    Returns 2 (with the reason) for an unknown lesson or a RISE the patch does not fit;
    otherwise it does not return: the process is JupyterLab until Ctrl-C.
    """
    # The parser of python -m agentcore: help, usage and flag errors in ``says``.
    from agentcore.course.cli import LocalizedParser, help_language, wrapped
    from scripts import rise_patch

    own, lab_args = (
        (argv[: argv.index("--")], argv[argv.index("--") + 1 :]) if "--" in argv else (argv, [])
    )
    # What it prints speaks --language when given, else the locale (as python -m agentcore).
    says = help_language(own)
    prog = "python -m scripts.slides present"
    parser = LocalizedParser(
        says, prog=prog, description=wrapped(phrase("slides.description", says), 78)
    )
    parser.add_argument("lesson", help=wrapped(phrase("slides.lesson", says)))
    parser.add_argument(
        "--language", choices=LANGUAGES, default="en", help=wrapped(phrase("slides.language", says))
    )
    parser.add_argument(
        "--learner", action="store_true", help=wrapped(phrase("slides.learner", says))
    )
    parser.add_argument(
        "--folder", type=Path, default=PRESENTING, help=wrapped(phrase("slides.folder", says))
    )
    options = parser.parse_args(own)
    try:
        source = lesson_source(options.lesson, options.language, options.learner, says)
        rise_patch.apply()
    except (ValueError, rise_patch.RisePatchError) as error:
        message = str(error)
        if isinstance(error, rise_patch.RisePatchError):
            message = phrase("slides.rise patch", says, message=message)
        print(phrase("cli.error", says, prog=prog, message=message), file=sys.stderr)
        return 2
    folder = options.folder.resolve()
    copy = presentation_copy(source, folder)
    print(phrase("slides.presenting", says, source=_shown(source), copy=_shown(copy)))
    print(phrase("slides.how to show", says))
    lab_args = root_arguments(lab_args, says)
    sys.stdout.flush()
    command = [sys.executable, "-m", "jupyterlab", f"--ServerApp.root_dir={folder}"]
    os.execv(sys.executable, [*command, *lab_args, str(copy)])


def root_arguments(lab_args: list[str], says: Language = "en") -> list[str]:
    """``lab_args`` with ``--allow-root`` in front when this process runs as root.

    Jupyter Server refuses to start as root ("Running as root is not recommended. Use
    --allow-root to bypass.") unless told ``--allow-root`` (``ServerApp.allow_root``). A
    teacher presenting on the class's machine, where ``serve`` runs as root, is root: the flag
    is added, and said so in the language ``says``, unless the arguments already set it.
    """
    if os.geteuid() != 0 or any(
        arg in ("--allow-root", "--no-allow-root") or arg.startswith("--ServerApp.allow_root")
        for arg in lab_args
    ):
        return lab_args
    print(phrase("slides.allow root", says))
    return ["--allow-root", *lab_args]


def main(argv: list[str]) -> int:
    """``apply``, ``check`` (default: every lesson) or ``present``; the exit status."""
    if argv and argv[0] == "present":
        return present(argv[1:])
    if not argv or argv[0] not in ("apply", "check"):
        print(
            "usage: python -m scripts.slides apply|check [NOTEBOOK ...] | present LESSON",
            file=sys.stderr,
        )
        return 2
    paths = [Path(arg).resolve() for arg in argv[1:]] or lessons()
    if argv[0] == "apply":
        changed = apply(paths)
        for path in changed:
            print(f"slides set in {_shown(path)}")
        print(f"{len(changed)} of {len(paths)} notebooks changed")
        return 0
    missing = stale(paths)
    for path in missing:
        print(f"slides missing or out of date: {_shown(path)}")
    return 1 if missing else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
