"""Lesson 01 as a RISE slideshow in JupyterLab: it starts, and advances three slides.

The slideshow metadata is applied by ``python -m scripts.slides apply``; so that this test does
not depend on the stored lesson already carrying it, it saves a copy of lesson 01 with the
metadata applied (through the server's contents API) and presents that copy. The slideshow is
started with jupyterlab-rise's own command, ``RISE:preview`` ("Render as Reveal Slideshow", the
toolbar button), which opens the slides beside the notebook in an iframe.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.request import Request, urlopen

import nbformat

from scripts.slides import NOTEBOOKS, apply_slides

TIMEOUT_MS = 60_000
SLIDES_NAME = "01-the-loop-slides.ipynb"
CURRENT_SLIDE = """() => {
  const present = [...document.querySelectorAll('.reveal .slides section.present')];
  const inner = present[present.length - 1];
  return inner ? [...inner.parentElement.children].indexOf(inner) + ':'
    + [...document.querySelectorAll('.reveal .slides > section')].indexOf(present[0]) : null;
}"""


def save_lesson_with_slides(lab: Any, language: str) -> str:
    """Save lesson 01 with slideshow metadata next to it; return its path on the server."""
    notebook = nbformat.read(NOTEBOOKS / language / "01-the-loop.ipynb", as_version=4)
    apply_slides(notebook)
    path = f"{language}/{SLIDES_NAME}"
    body = json.dumps({"type": "notebook", "format": "json", "content": notebook}).encode()
    request = Request(
        f"{lab.url}/api/contents/{path}?token={lab.token}",
        data=body,
        method="PUT",
        headers={"Content-Type": "application/json"},
    )
    with urlopen(request, timeout=30) as response:
        assert response.status in (200, 201)
    return path


def test_lesson_01_starts_as_a_slideshow_and_advances_three_slides(
    lab: Any, page: Any, artifacts: Path
) -> None:
    path = save_lesson_with_slides(lab, "en")
    page.goto(f"{lab.url}/lab/tree/{path}?reset&token={lab.token}")
    page.wait_for_selector(".jp-Notebook", timeout=TIMEOUT_MS)
    assert page.evaluate("window.jupyterapp.commands.hasCommand('RISE:preview')")
    page.evaluate("window.jupyterapp.commands.execute('RISE:preview').then(() => true)")
    frame = page.frame_locator("iframe[src*='rise/']").first
    frame.locator(".reveal .slides section.present").first.wait_for(timeout=TIMEOUT_MS)
    slides_frame = next(f for f in page.frames if "/rise/" in f.url)
    slides_frame.wait_for_function("() => document.querySelector('.reveal.ready') !== null",
                                   timeout=TIMEOUT_MS)  # fmt: skip
    seen = [slides_frame.evaluate(CURRENT_SLIDE)]
    assert seen[0] == "0:0", seen
    page.screenshot(path=str(artifacts / "slides-en-first.png"))
    frame.locator(".reveal").first.click()
    for _ in range(40):  # fragments come first: press until three slides went by
        if len(seen) == 4:
            break
        slides_frame.press(".reveal", "ArrowRight")
        page.wait_for_timeout(150)
        current = slides_frame.evaluate(CURRENT_SLIDE)
        if current != seen[-1]:
            seen.append(current)
    assert len(seen) == 4, f"the slideshow did not advance three slides: {seen}"
    assert len(set(seen)) == 4, seen
    page.screenshot(path=str(artifacts / "slides-en-third.png"))
