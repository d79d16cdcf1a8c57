"""What a reader sees of the Markdown holds no stray ``**``, ``__`` or backtick.

The lessons are read in JupyterLab (marked), on the website (MyST, whose parser is markdown-it)
and on GitHub: all CommonMark. Emphasis that CommonMark does not close shows its markers as
text: ``**对应章节：**第 4 节`` is not bold, because a closing ``**`` that follows punctuation
(``：``) and precedes a letter (``第``) is not right-flanking; ``**对应章节**：第 4 节`` is. This
test renders every notebook's Markdown cells (both languages, learner and solution), README*.md
and the other pages at the top, notebooks/README.md and docs/**/*.md with markdown-it-py's
CommonMark parser (plus tables) and looks at the text it produces, code spans and code blocks
left out: a marker left in that text is a reader seeing asterisks.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import nbformat
import pytest
from markdown_it import MarkdownIt

from scripts.lessons import LANGUAGES, ROOT, lessons, solutions

MARKDOWN = MarkdownIt("commonmark").enable("table")
MARKERS = ("**", "__", "`")
NOTEBOOKS = [path for language in LANGUAGES for path in lessons(language) + solutions(language)]
# README*.md, CHANGELOG.md, LICENSE-lessons.md, notebooks/README.md and every page under docs/.
PAGES = sorted(ROOT.glob("*.md")) + sorted((ROOT / "notebooks").glob("*.md"))
PAGES += sorted((ROOT / "docs").rglob("*.md"))


def page_param(path: Path) -> Any:
    return pytest.param(path, id=path.relative_to(ROOT).as_posix())


def stray_markers(markdown: str) -> list[str]:
    """The rendered text runs that still show ``**``, ``__`` or a backtick (code left out)."""
    found = []
    for token in MARKDOWN.parse(markdown):
        for child in token.children or []:
            if child.type == "text" and any(marker in child.content for marker in MARKERS):
                found.append(child.content)
    return found


def test_the_check_sees_what_commonmark_leaves_as_text() -> None:
    assert stray_markers("**对应章节：**第 4 节") == ["**对应章节：**第 4 节"]
    assert stray_markers("**对应章节**：第 4 节 · **用时**：约 35 分钟") == []
    assert stray_markers("**学完这一课，你能够：**\n\n- 一") == []  # closes before a line end
    assert stray_markers("a `ToolCall` and ``a ` b``") == []
    assert stray_markers("a stray ` here") == ["a stray ` here"]
    assert stray_markers("__init__ is bold, snake__case is not") == [" is bold, snake__case is not"]
    assert stray_markers("```python\nx = '**'\n```") == []


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_a_lesson_renders_without_stray_markers(path: Path) -> None:
    notebook = nbformat.read(path, as_version=4)
    found = [
        f"cell {index}: {text[:80]!r}"
        for index, cell in enumerate(notebook.cells, 1)
        if cell.cell_type == "markdown"
        for text in stray_markers(cell.source)
    ]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("path", [page_param(path) for path in PAGES])
def test_a_page_renders_without_stray_markers(path: Path) -> None:
    found = stray_markers(path.read_text(encoding="utf-8"))
    assert not found, "\n".join(repr(text[:80]) for text in found)
