"""Presenting lesson 01 as a teacher does: the stepper steps inside the RISE slideshow.

``python -m scripts.slides present 01 --language L`` runs as a teacher runs it (here with a
temporary copy folder, a fixed port and token, and fresh JupyterLab settings). In the JupyterLab
it starts, the test runs every cell, makes the last cell active, and opens the slideshow with
jupyterlab-rise's toolbar command (``RISE:preview``). It checks that the slideshow starts at the
title slide although the active cell is the last one, goes slide by slide to the stepper, sees
the widget (not its text fallback: jupyterlab-contrib/rise#126, patched by scripts/rise_patch.py),
clicks Step and sees the transcript grow, twice. When the server has stopped, the tracked
solution notebook is byte for byte what it was, and the copy is the one RISE saved.
"""

from __future__ import annotations

import secrets
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from scripts.slides import lesson_source
from tests.browser.conftest import ARTIFACTS, ROOT, free_port, lab_environment, lab_options, serving
from tests.browser.test_jupyterlab import STEP, WIDGET_ERRORS, open_and_run_all
from tests.browser.test_slideshow import CURRENT_SLIDE, TIMEOUT_MS

ON_SLIDE = ".reveal .slides section.present .agentcore-stepper"
ROWS = "table.agentcore-transcript tbody tr"
MAX_PRESSES = 300
# The first words of the text a stepper shows where widgets cannot render.
FALLBACK = {"en": "RunStepper: run the cells", "zh-CN": "RunStepper：在 JupyterLab"}


@dataclass(frozen=True)
class Presentation:
    """A running ``present``: its JupyterLab's URL and token, and the copy it presents."""

    url: str
    token: str
    copy: Path


@contextmanager
def presenting(tmp_path: Path, language: str) -> Iterator[Presentation]:
    """``python -m scripts.slides present 01 --language <language>``, stopped when it ends."""
    folder = tmp_path / "presenting"
    port, token = free_port(), secrets.token_hex(16)
    command = [sys.executable, "-m", "scripts.slides", "present", "01", "--language", language,
               "--folder", str(folder), "--", *lab_options(port, token)]  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    env = {**lab_environment(tmp_path), "PYTHONPATH": str(ROOT)}
    with serving(command, env, tmp_path / "present.log", url, token):
        yield Presentation(url, token, folder / language / "01-the-loop.ipynb")


def rows(stepper: Any) -> int:
    return int(stepper.locator(ROWS).count())


def step_in_the_slideshow(page: Any, presentation: Presentation, language: str) -> list[int]:
    """Run the lesson, open its slideshow, go to the stepper, click Step twice; the row counts."""
    open_and_run_all(page, f"{presentation.url}/lab/tree/{language}/01-the-loop.ipynb?reset"
                           f"&token={presentation.token}")  # fmt: skip
    page.evaluate("""() => { const notebook = window.jupyterapp.shell.currentWidget.content;
                             notebook.activeCellIndex = notebook.widgets.length - 1; }""")
    page.evaluate("window.jupyterapp.commands.execute('RISE:preview').then(() => true)")
    page.frame_locator("iframe[src*='rise/']").first.locator(".reveal").first.wait_for(
        timeout=TIMEOUT_MS
    )
    slides = next(frame for frame in page.frames if "/rise/" in frame.url)
    slides.wait_for_function("() => document.querySelector('.reveal.ready') !== null",
                             timeout=TIMEOUT_MS)  # fmt: skip
    assert slides.evaluate(CURRENT_SLIDE) == "0:0", "the slideshow must start at the title"

    slides.locator(".reveal").first.click()
    for _ in range(MAX_PRESSES):
        if slides.locator(ON_SLIDE).count():
            break
        slides.press(".reveal", "ArrowRight")
    stepper = slides.locator(ON_SLIDE).first
    stepper.wait_for(state="visible", timeout=TIMEOUT_MS)
    page.screenshot(path=str(ARTIFACTS / f"slides-stepper-{language}-before.png"))
    step = stepper.get_by_role("button", name=STEP[language], exact=True)
    counts = [rows(stepper)]
    for _ in range(2):
        step.click()
        slides.wait_for_function(
            "([box, before, rows]) => box.querySelectorAll(rows).length > before",
            arg=[stepper.element_handle(), counts[-1], ROWS],
            timeout=10_000,
        )
        counts.append(rows(stepper))
    text = slides.locator(".reveal").first.inner_text()
    assert not WIDGET_ERRORS.search(text), WIDGET_ERRORS.search(text)
    assert FALLBACK[language] not in text, "the stepper's text fallback shows instead of the widget"
    page.screenshot(path=str(ARTIFACTS / f"slides-stepper-{language}-after.png"))
    return counts


@pytest.mark.parametrize("language", ["en", "zh-CN"])
def test_the_stepper_steps_in_the_slideshow_and_the_tracked_lesson_stays_unchanged(
    tmp_path: Path, page: Any, artifacts: Path, language: str
) -> None:
    tracked = lesson_source("01", language)
    before = tracked.read_bytes()
    with presenting(tmp_path, language) as presentation:
        counts = step_in_the_slideshow(page, presentation, language)
    assert counts[0] < counts[1] < counts[2], f"the transcript must grow with each Step: {counts}"
    assert tracked.read_bytes() == before, "presenting changed the tracked notebook"
    assert presentation.copy.read_bytes() != before, "RISE saves what it shows: into the copy"
