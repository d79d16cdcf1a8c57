"""Chinese that renders, and the playground stepper, in a real JupyterLab in headless Chromium.

* A zh-CN lesson opens in JupyterLab's Chinese interface, and its Chinese is drawn with a font
  that has the glyphs: two different Chinese characters must not come out as the same empty
  box (.notdef). Without a CJK font the test fails in CI and is skipped elsewhere, saying why.
* The playground, in each language: a model the learner built (a ``ScriptedModel`` with a
  list script) steps to its final answer in ``RunStepper``, with who acts on every row and the
  last step's rows highlighted. Its screenshots go to ``artifacts/browser/`` (git-ignored), never
  over the READMEs' ``docs/images/playground.png`` and ``playground.zh-CN.png``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import nbformat
import pytest

from tests.browser.test_jupyterlab import (
    TIMEOUT_MS,
    assert_no_widget_errors,
    open_and_run_all,
    widget_in_view,
)


def missing_cjk_font() -> str | None:
    """Why Chinese would be drawn as empty boxes here, or ``None`` when a CJK font is installed."""
    fc_list = shutil.which("fc-list")
    if fc_list is None:
        return "fc-list not found, so no font is known (apt-get install fonts-noto-cjk)"
    found = subprocess.run([fc_list, ":lang=zh", "family"], capture_output=True, text=True)
    if not found.stdout.strip():
        return (
            "no font with Chinese glyphs is installed (apt-get install fonts-noto-cjk): "
            "Chromium would draw Chinese as empty boxes"
        )
    return None


def require_or_skip(reason: str) -> None:
    """Fail with ``reason`` when CI requires the browser tests, else skip with it."""
    if os.environ.get("AGENTCORE_REQUIRE_BROWSER") == "1":
        pytest.fail(f"browser tests required but {reason}")
    pytest.skip(reason)


# Draw two Chinese characters of an element with its own font, and a code point no font has
# (a .notdef box): when the characters come out identical to each other or to that box, the
# page has no font with Chinese glyphs.
GLYPHS_DRAWN = """element => {
  const text = element.textContent || '';
  const chinese = [...new Set([...text].filter(ch => /[\\u4e00-\\u9fff]/.test(ch)))];
  if (chinese.length < 2) { return {error: 'fewer than two Chinese characters: ' + text}; }
  const font = getComputedStyle(element).font;
  const draw = ch => {
    const canvas = document.createElement('canvas');
    canvas.width = 64; canvas.height = 64;
    const context = canvas.getContext('2d');
    context.font = font.replace(/\\d+(\\.\\d+)?px/, '40px');
    context.fillStyle = '#000';
    context.fillText(ch, 4, 48);
    return Array.from(context.getImageData(0, 0, 64, 64).data).join(',');
  };
  const [a, b] = chinese;
  const tofu = draw(String.fromCodePoint(0x10fffd));
  const drawnA = draw(a), drawnB = draw(b);
  return {chars: a + b, font, distinct: drawnA !== drawnB,
          notBoxes: drawnA !== tofu && drawnB !== tofu};
}"""

HOLDERS = {
    "en": ("the model decides", "the tool executes", "the runtime checks and records"),
    "zh-CN": ("模型决策", "工具执行", "Runtime 校验并记录"),
}
HANDED_3 = {"en": "messages handed to the model: 3", "zh-CN": "交给模型的消息：3 条"}
STEP = {"en": "Step", "zh-CN": "单步"}
IMAGE = {"en": "playground.png", "zh-CN": "playground.zh-CN.png"}
REQUEST = {"en": "What is Paris's teaching weather?", "zh-CN": "巴黎的教学天气怎么样？"}
ANSWER = {"en": "Paris: 12.0°C, light rain.", "zh-CN": "巴黎：12.0°C，小雨。"}


def playground(language: str) -> list[str]:
    """The cells of a learner's playground: their own list script, stepped by RunStepper."""
    return [
        "from agentcore import AgentRuntime, ModelTurn, ScriptedModel, ToolCall, build_tools\n"
        "from agentcore import set_language\n"
        "from agentcore.course.widgets import RunStepper\n\n"
        f"set_language({language!r})",
        "# The learner's own model: a list script of two turns.\n"
        "paris = ToolCall('call-paris', 'get_teaching_weather', {'city': 'Paris'})\n"
        "script = [\n"
        "    ModelTurn(tool_calls=(paris,)),\n"
        f"    ModelTurn(final_text={ANSWER[language]!r}),\n"
        "]\n"
        "runtime = AgentRuntime(ScriptedModel(script), build_tools())\n"
        f"RunStepper(runtime, {REQUEST[language]!r})",
    ]


def test_a_zh_cn_lesson_in_the_chinese_ui_draws_chinese_glyphs(
    lab_zh: Any, page: Any, artifacts: Path
) -> None:
    page.goto(lab_zh.lesson("zh-CN", "00-fixed-script.ipynb"))
    heading = page.locator(".jp-Notebook .jp-RenderedMarkdown h1").first
    heading.wait_for(timeout=TIMEOUT_MS)
    menu = page.locator(".lm-MenuBar-content").first
    menu.wait_for(timeout=TIMEOUT_MS)
    page.wait_for_timeout(500)  # let the fonts settle before the screenshot
    page.screenshot(path=str(artifacts / "zh-CN-ui-lesson-00.png"))

    assert "文件" in menu.inner_text(), f"JupyterLab's menus are not Chinese: {menu.inner_text()}"
    reason = missing_cjk_font()
    drawn = [page.evaluate(GLYPHS_DRAWN, element.element_handle()) for element in (heading, menu)]
    problems = [d for d in drawn if "error" in d or not (d["distinct"] and d["notBoxes"])]
    if problems:
        require_or_skip(
            f"Chinese on a zh-CN page is not drawn with a font that has the glyphs ({problems}); "
            f"{reason or 'install fonts-noto-cjk'}"
        )


@pytest.mark.parametrize("language", ["en", "zh-CN"])
def test_the_playground_steps_a_learner_built_model_with_holders_and_highlights(
    lab: Any, page: Any, artifacts: Path, language: str
) -> None:
    if language == "zh-CN" and (reason := missing_cjk_font()) is not None:
        require_or_skip(reason)
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in playground(language)]
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    name = f"playground-{language}.ipynb"
    nbformat.write(notebook, lab.root / name)

    open_and_run_all(page, f"{lab.url}/lab/tree/{name}?reset&token={lab.token}")
    stepper = widget_in_view(page, ".agentcore-stepper")
    step = stepper.get_by_role("button", name=STEP[language], exact=True)
    for clicks in range(1, 5):
        step.click()
        page.wait_for_function(
            "([box, n]) => box.querySelectorAll('table.agentcore-events tbody tr').length >= n",
            arg=[stepper.element_handle(), 3 if clicks == 1 else 5],
            timeout=10_000,
        )
        if stepper.locator(".agentcore-outcome").count():
            break

    outcome = stepper.locator(".agentcore-outcome")
    assert ANSWER[language] in outcome.inner_text()
    assert "agentcore-answered" in (outcome.get_attribute("class") or "")
    events = stepper.locator("table.agentcore-events")
    for holder in HOLDERS[language]:
        assert events.get_by_text(holder).first.is_visible(), holder
    highlighted = events.locator("tr.agentcore-new")
    assert highlighted.count() == 2  # the final turn: the decision and the answer
    assert highlighted.first.is_visible()
    assert HANDED_3[language] in highlighted.first.inner_text()
    assert step.is_disabled()
    # An artifact, outside the tracked tree: the READMEs' picture is replaced by hand when
    # it should change (cp artifacts/browser/playground*.png docs/images/).
    stepper.screenshot(path=str(artifacts / IMAGE[language]))
    assert_no_widget_errors(page)
