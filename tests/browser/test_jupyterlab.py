"""The lessons in a real JupyterLab, in headless Chromium: they open, run, and step.

Unit tests drive the widgets from Python; only a browser shows whether JupyterLab's front end
and the kernel's ipywidgets agree ("Error displaying widget", "Loading widget..." forever).
For each language: lesson 01 runs all its cells and its stepper is clicked until the final
answer shows, one model turn per click; lesson 06's appendix runs and one experiment is run
from its panel. In lesson 00's learner notebook a learner answers an exercise and sees its
check print ``✔``, then picks a wrong quiz choice and sees its explanation; that runs in a
JupyterLab with a learner's front end (``lab_as_learner``: JupyterLab's own MathJax), and
every request the page makes, from opening the lesson to the quiz's feedback, goes to this
machine (the quiz draws itself without asking a CDN for MathJax). Screenshots go to
``artifacts/browser/`` (ignored by git).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nbformat
import pytest

from agentcore.course import quiz
from agentcore.course.judges.grade import code_stub
from scripts.lessons import lessons
from tests.browser.offline import Guarded

LANGUAGES = ("en", "zh-CN")
STEP = {"en": "Step", "zh-CN": "单步"}
RUN_TO_END = {"en": "Run to end", "zh-CN": "运行到底"}
WIDGET_ERRORS = re.compile(r"Error displaying widget|model not found|Loading widget", re.I)
MAX_STEPS_TITLE = {"en": "A small max_steps", "zh-CN": "很小的 max_steps"}
TIMEOUT_MS = 60_000

KERNEL_READY = """() => {
  const panel = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  const kernel = panel && panel.sessionContext && panel.sessionContext.session
    && panel.sessionContext.session.kernel;
  return Boolean(kernel) && kernel.connectionStatus === 'connected'
    && kernel.status === 'idle';
}"""

ALL_CELLS_RAN = """() => {
  const panel = window.jupyterapp.shell.currentWidget;
  const session = panel && panel.sessionContext && panel.sessionContext.session;
  const kernel = session && session.kernel;
  if (!kernel) { return false; }
  const prompts = [...document.querySelectorAll('.jp-InputArea-prompt')].map(p => p.textContent);
  return kernel.status === 'idle' && prompts.length > 0
    && !prompts.some(text => text.includes('*'));
}"""


def open_and_run_all(page: Any, url: str) -> None:
    """Open a lesson, wait for its kernel, run every cell, wait until all have run."""
    page.goto(url)
    page.wait_for_selector(".jp-Notebook", timeout=TIMEOUT_MS)
    page.wait_for_function(KERNEL_READY, timeout=TIMEOUT_MS)
    page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
    page.wait_for_timeout(500)  # let the first cell be queued before polling the prompts
    page.wait_for_function(ALL_CELLS_RAN, timeout=TIMEOUT_MS)


def assert_no_widget_errors(page: Any) -> None:
    text = page.inner_text("body")
    assert not WIDGET_ERRORS.search(text), WIDGET_ERRORS.search(text)
    assert page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']"
                        ).count() == 0, "a cell wrote to stderr"  # fmt: skip


def widget_in_view(page: Any, css_class: str) -> Any:
    """The first widget box with ``css_class``, once rendered, scrolled into view."""
    box = page.locator(css_class).first
    box.wait_for(timeout=TIMEOUT_MS)
    box.scroll_into_view_if_needed()
    return box


def transcript_rows(stepper: Any) -> int:
    return int(stepper.locator("table.agentcore-transcript tbody tr").count())


@pytest.mark.parametrize("language", LANGUAGES)
def test_lesson_01_steps_the_run_one_model_turn_per_click(
    lab: Any, page: Any, artifacts: Path, language: str
) -> None:
    open_and_run_all(page, lab.lesson(language, "01-the-loop.ipynb"))
    stepper = widget_in_view(page, ".agentcore-stepper")
    step = stepper.get_by_role("button", name=STEP[language], exact=True)
    page.screenshot(path=str(artifacts / f"stepper-{language}-before.png"))

    counts = [transcript_rows(stepper)]
    for _ in range(10):
        if stepper.locator(".agentcore-outcome").count():
            break
        step.click()
        page.wait_for_function(
            "([box, before]) => box.querySelectorAll('table.agentcore-transcript tbody tr')"
            ".length > before || box.querySelector('.agentcore-outcome') !== null",
            arg=[stepper.element_handle(), counts[-1]],
            timeout=10_000,
        )
        counts.append(transcript_rows(stepper))

    outcome = stepper.locator(".agentcore-outcome")
    assert outcome.count() == 1
    assert "64.4°F" in outcome.inner_text()
    assert "agentcore-answered" in (outcome.get_attribute("class") or "")
    assert counts == sorted(set(counts)), f"rows must grow one step at a time: {counts}"
    assert len(counts) >= 4, f"the weather run takes three model turns: {counts}"
    page.screenshot(path=str(artifacts / f"stepper-{language}-after.png"))
    stepper.screenshot(path=str(artifacts / f"stepper-{language}-widget.png"))
    assert_no_widget_errors(page)


@pytest.mark.parametrize("language", LANGUAGES)
def test_lesson_06_appendix_runs_an_experiment_from_the_panel(
    lab: Any, page: Any, artifacts: Path, language: str
) -> None:
    open_and_run_all(page, lab.lesson(language, "06-appendix-reference-and-trajectory.ipynb"))
    panel = widget_in_view(page, ".agentcore-panel")
    panel.locator("select").first.select_option(label=MAX_STEPS_TITLE[language])
    panel.get_by_role("button", name=RUN_TO_END[language], exact=True).click()
    outcome = panel.locator(".agentcore-outcome")
    outcome.wait_for(timeout=10_000)
    assert "MaxStepsExceeded" in outcome.inner_text()
    page.screenshot(path=str(artifacts / f"panel-{language}.png"))
    assert_no_widget_errors(page)


def mermaid_blocks(path: Path) -> int:
    notebook = nbformat.read(path, as_version=4)
    return sum(
        cell.source.count("```mermaid") for cell in notebook.cells if cell.cell_type == "markdown"
    )


@pytest.fixture(scope="module")
def lab_page(lab: Any, browser: Any) -> Iterator[Any]:
    """One JupyterLab page for the whole module: lessons open in it as tabs, no reloads."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.goto(f"{lab.url}/lab?reset&token={lab.token}")
    page.wait_for_function("Boolean(window.jupyterapp)", timeout=TIMEOUT_MS)
    page.evaluate("window.jupyterapp.restored.then(() => true)")
    yield page
    context.close()


@pytest.mark.parametrize(
    "path",
    [path for language in LANGUAGES for path in lessons(language) if mermaid_blocks(path)],
    ids=lambda path: f"{path.parent.name}/{path.name}",
)
def test_every_mermaid_diagram_renders(lab_page: Any, path: Path) -> None:
    page = lab_page
    page.evaluate(
        # Return a plain value: Playwright would try to serialise the widget the command returns.
        "path => window.jupyterapp.commands.execute('docmanager:open', {path}).then(() => true)",
        f"{path.parent.name}/{path.name}",
    )
    notebook = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)")
    notebook.locator(".jp-Notebook").wait_for(timeout=TIMEOUT_MS)
    expected = mermaid_blocks(path)
    # JupyterLab draws a diagram when it scrolls into view: walk down the whole notebook.
    scroller = notebook.locator(".jp-WindowedPanel-outer")
    for _ in range(200):
        at_bottom = scroller.evaluate(
            "el => { el.scrollTop += el.clientHeight * 0.8;"
            " return el.scrollTop + el.clientHeight >= el.scrollHeight - 2; }"
        )
        page.wait_for_timeout(50)
        if at_bottom:
            break
    diagrams = notebook.locator(".jp-RenderedMermaid figure img")
    page.wait_for_function(
        "n => document.querySelectorAll("
        "'.jp-NotebookPanel:not(.lm-mod-hidden) .jp-RenderedMermaid figure img').length >= n",
        arg=expected,
        timeout=TIMEOUT_MS,
    )
    assert diagrams.count() == expected
    assert notebook.locator(".jp-RenderedMermaid.jp-mod-warning").count() == 0
    assert "Syntax error" not in notebook.inner_text()
    # Close the tab and shut its kernel down, so the next lesson starts from a quiet machine.
    page.evaluate(
        "async () => { const panel = window.jupyterapp.shell.currentWidget;"
        " await panel.sessionContext.shutdown(); panel.close(); return true; }"
    )


# A learner answers an exercise and a quiz question (lesson 00, learner notebook).

ANSWER = 'my_answers = {"A": "workflow", "B": "agent", "C": "workflow", "D": "agent"}'

CELL_INDEX = """(text) => {
  const cells = window.jupyterapp.shell.currentWidget.content.widgets;
  return cells.findIndex(cell => cell.model.sharedModel.getSource().includes(text));
}"""

SET_SOURCE_AND_RUN = """([index, source]) => {
  const panel = window.jupyterapp.shell.currentWidget;
  const cell = panel.content.widgets[index];
  if (source !== null) { cell.model.sharedModel.setSource(source); }
  panel.content.activeCellIndex = index;
  return window.jupyterapp.commands.execute('notebook:run-cell');
}"""

KERNEL_IDLE = """() => {
  const panel = window.jupyterapp.shell.currentWidget;
  return panel.sessionContext.session.kernel.status === 'idle';
}"""

CELL_TEXT = """(index) => window.jupyterapp.shell.currentWidget.content.widgets[index]
  .node.querySelector('.jp-OutputArea').innerText"""


def run_cell(page: Any, index: int, source: str | None = None) -> None:
    page.evaluate(SET_SOURCE_AND_RUN, [index, source])
    page.wait_for_timeout(300)
    page.wait_for_function(KERNEL_IDLE, timeout=TIMEOUT_MS)


@pytest.fixture
def guarded_page(browser: Any) -> Iterator[tuple[Guarded, Any]]:
    """A fresh page in a context whose requests may reach this machine only (``Guarded``)."""
    guarded = Guarded(browser)
    try:
        yield guarded, guarded.context.new_page()
    finally:
        guarded.context.close()


@pytest.mark.parametrize("language", LANGUAGES)
def test_learner_answers_an_exercise_and_a_quiz_question(
    lab_as_learner: Any, guarded_page: tuple[Guarded, Any], artifacts: Path, language: str
) -> None:
    guarded, page = guarded_page
    open_and_run_all(page, lab_as_learner.lesson(language, "00-fixed-script.ipynb"))
    answer = page.evaluate(CELL_INDEX, 'forget("my_answers")')
    check = page.evaluate(CELL_INDEX, 'check("workflow_or_agent"')
    assert 0 <= answer < check
    assert page.evaluate(CELL_TEXT, check).strip().startswith("✘")

    source = page.evaluate(
        "(i) => window.jupyterapp.shell.currentWidget.content.widgets[i]"
        ".model.sharedModel.getSource()",
        answer,
    )
    assert code_stub(language) in source, source  # the stub in the lesson's language
    run_cell(page, answer, source.replace(code_stub(language), ANSWER))
    run_cell(page, check)
    verdict = page.evaluate(CELL_TEXT, check).strip()
    assert verdict.startswith("✔"), verdict
    page.screenshot(path=str(artifacts / f"exercise-{language}-accepted.png"))

    first = quiz.questions("00", language)[0]
    wrong = next(choice for choice in first["choices"] if not choice["correct"])
    choice = page.locator(".MCButton", has_text=wrong["answer"]).first
    choice.scroll_into_view_if_needed()
    choice.click()
    feedback = page.locator(".Feedback.incorrect").first
    feedback.wait_for(timeout=10_000)
    assert wrong["feedback"] in feedback.inner_text()
    page.screenshot(path=str(artifacts / f"quiz-{language}-wrong-choice.png"))
    feedback.locator("xpath=ancestor::div[contains(@class, 'Quiz')][1]").screenshot(
        path=str(artifacts / f"quiz-{language}-jupyterlab.png")
    )
    guarded.assert_no_leaks()
