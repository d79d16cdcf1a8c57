"""Slides: every lesson carries RISE slideshow metadata, set by scripts/slides.py's rules.

The rules are tested on small notebooks made here; the stored lessons are checked to carry
exactly what ``python -m scripts.slides apply`` gives (run it after changing a lesson).
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

from scripts import slides


def notebook(*cells: object) -> object:
    return new_notebook(cells=list(cells))


def long_output(lines: int) -> object:
    cell = new_code_cell("print(inspect.getsource(AgentRuntime._loop))")
    cell.outputs = [new_output("stream", name="stdout", text="line\n" * lines)]
    return cell


def test_headings_start_slides_and_prose_follows_as_fragments() -> None:
    lesson = notebook(
        new_markdown_cell("# 01 · The loop\n\nWhat you will do."),
        new_markdown_cell("## 1. The runtime's internal language"),
        new_code_cell("weather_call = ToolCall('call-weather', 'get_teaching_weather', {})"),
        new_markdown_cell("Three things to notice."),
        new_markdown_cell("### 4.1 Exactly one"),
        new_code_cell("ModelTurn()"),
    )
    assert slides.slide_types(lesson) == ["slide", "slide", "-", "fragment", "subslide", "-"]


def test_setup_heading_and_imports_are_skipped_whatever_the_language() -> None:
    for heading in ("## Setup", "## 准备"):
        lesson = notebook(
            new_markdown_cell("# 03 · Errors"),
            new_markdown_cell(heading),
            new_code_cell("import json\n\nfrom agentcore import ToolCall\n\nREQUEST = 'Tokyo?'"),
            new_markdown_cell("This is the chapter's task."),
        )
        assert slides.slide_types(lesson) == ["slide", "skip", "skip", "fragment"]


def test_a_code_cell_of_imports_only_is_skipped_but_imports_with_a_demo_are_shown() -> None:
    lesson = notebook(
        new_markdown_cell("# 02 · Tools"),
        new_code_cell("import json\nfrom agentcore import Tool"),
        new_markdown_cell("## The quickest thing that could work\n\nA dict of handlers."),
        new_code_cell("import json\nhandlers = {}\nprint(handlers)"),
    )
    assert slides.slide_types(lesson) == ["slide", "skip", "slide", "-"]


def test_long_outputs_go_to_the_speaker_notes() -> None:
    limit = slides.LONG_OUTPUT_LINES
    lesson = notebook(new_markdown_cell("# 01"), long_output(limit), long_output(limit + 1))
    assert slides.slide_types(lesson) == ["slide", "-", "notes"]


def without_slides(source: Path, path: Path) -> Path:
    """A copy of the lesson ``source`` at ``path`` with its slideshow metadata removed."""
    lesson = nbformat.read(source, as_version=4)
    lesson.metadata.pop("rise", None)
    for cell in lesson.cells:
        cell.metadata.pop("slideshow", None)
    nbformat.write(lesson, path)
    return path


def test_apply_is_idempotent_and_rewrites_only_what_changed(tmp_path: Path) -> None:
    path = without_slides(slides.lessons()[1], tmp_path / "01-the-loop.ipynb")
    assert slides.stale([path]) == [path]
    assert slides.apply([path]) == [path]
    first = path.read_bytes()
    assert slides.apply([path]) == []
    assert path.read_bytes() == first
    assert slides.stale([path]) == []
    stored = nbformat.read(path, as_version=4)
    assert stored.metadata["rise"] == {"scroll": True, "start_slideshow_at": "beginning"}
    assert all("slide_type" in cell.metadata["slideshow"] for cell in stored.cells)
    assert slides.main(["check", str(path)]) == 0


def test_check_names_a_lesson_without_slides(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = without_slides(slides.lessons()[0], tmp_path / "00-fixed-script.ipynb")
    assert slides.main(["check", str(path)]) == 1
    assert "00-fixed-script.ipynb" in capsys.readouterr().out


@pytest.mark.parametrize(
    "name", [path.name for path in slides.lessons() if path.parent.name == "en"]
)
def test_both_languages_present_their_code_alike(name: str) -> None:
    """The rules read headings and code, not words: the same code cells get the same slides.

    (The prose may be split differently in a translation, so Markdown cells are not compared.)
    """

    def code_slides(language: str) -> list[str]:
        lesson = nbformat.read(slides.NOTEBOOKS / language / name, as_version=4)
        kinds = slides.slide_types(lesson)
        return [
            kind for kind, cell in zip(kinds, lesson.cells, strict=True) if cell.cell_type == "code"
        ]

    assert code_slides("en") == code_slides("zh-CN")


@pytest.mark.parametrize(
    "path", slides.lessons(), ids=lambda path: str(path.relative_to(slides.NOTEBOOKS))
)
def test_every_lesson_carries_its_slideshow_metadata(path: Path) -> None:
    assert slides.stale([path]) == [], "run: python -m scripts.slides apply"


def test_present_names_the_lesson_not_its_appendix_and_refuses_an_unknown_one() -> None:
    assert slides.lesson_source("01", "en").relative_to(slides.NOTEBOOKS).as_posix() == (
        "en/solutions/01-the-loop.ipynb"
    )
    assert slides.lesson_source("01-appendix-inside-the-loop", "zh-CN", learner=True).parent == (
        slides.NOTEBOOKS / "zh-CN"
    )
    with pytest.raises(ValueError, match="01-the-loop"):
        slides.lesson_source("08", "en")


def test_the_presentation_copy_is_outside_the_tracked_notebooks(tmp_path: Path) -> None:
    source = slides.lesson_source("03", "zh-CN")
    before = source.read_bytes()
    copy = slides.presentation_copy(source, tmp_path)
    assert copy == tmp_path / "zh-CN" / source.name
    copy.write_text("{}", encoding="utf-8")  # what a presentation may write
    assert slides.presentation_copy(source, tmp_path).read_bytes() == before  # a fresh copy
    assert source.read_bytes() == before


def test_the_presentation_folder_is_ignored_by_git() -> None:
    ignored = (slides.ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert f"{slides.PRESENTING.relative_to(slides.ROOT)}/" in ignored


def test_present_refuses_an_unknown_lesson_before_starting_anything(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert slides.main(["present", "99", "--language", "zh-CN"]) == 2
    assert "没有课程 '99'" in capsys.readouterr().err
    assert slides.main(["present", "99", "--language", "en"]) == 2
    assert "no lesson '99'" in capsys.readouterr().err


def test_present_as_root_starts_jupyterlab_with_allow_root_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Jupyter Server refuses root without ``--allow-root``; ``present`` adds it for root only."""
    from scripts import rise_patch

    started: list[list[str]] = []

    def execv(path: str, args: list[str]) -> None:
        started.append(args)
        raise SystemExit(0)

    monkeypatch.setattr(rise_patch, "apply", lambda: None)
    monkeypatch.setattr(slides.os, "execv", execv)
    monkeypatch.setattr(slides.os, "geteuid", lambda: 0)
    with pytest.raises(SystemExit):
        slides.main(["present", "01", "--folder", str(tmp_path), "--", "--no-browser"])
    assert "--allow-root" in started[0] and "--no-browser" in started[0]
    assert "running as root: starting JupyterLab with --allow-root" in capsys.readouterr().out
    # Said already (either spelling): not twice, and nothing printed.
    for given in (["--allow-root"], ["--ServerApp.allow_root=True"]):
        assert slides.root_arguments(given) == given
    assert capsys.readouterr().out == ""
    monkeypatch.setattr(slides.os, "geteuid", lambda: 1000)
    with pytest.raises(SystemExit):
        slides.main(["present", "01", "--folder", str(tmp_path), "--", "--no-browser"])
    assert "--allow-root" not in started[1] and "--no-browser" in started[1]
    assert "as root" not in capsys.readouterr().out
