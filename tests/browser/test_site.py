"""The built site in headless Chromium, served on 127.0.0.1 with every other address blocked.

* The website: a lesson page in each language shows its stored outputs, its diagram (SVG
  drawn when the site was built: no page loads Mermaid), its Chinese in a font with the glyphs,
  and a language switch that leads to the same section of the lesson in the other language;
  at 375 x 812 (a phone) no lesson scrolls sideways (a wide diagram scrolls in its own box, its
  text still 12 px); an English apostrophe is drawn with a Latin font, never the Chinese one;
  search finds a Chinese word, a glossary term jieba alone splits, and a shorter word inside a
  longer one. In a Chromium that
  has no font with Chinese glyphs, a zh-CN lesson's text, printed output and diagram are drawn
  with the font the site bundles, which comes from 127.0.0.1 in the slices the page needs; so
  is the lesson's Markdown in the JupyterLite edition.
* The JupyterLite edition: lesson 01 opens with the Pyodide kernel, runs all its cells, its
  stepper is clicked until the final answer, and one exercise is answered and shows ``✔``, in
  English and in Chinese; the answer is still there when the lesson opens again (saved in the
  browser), and deleting the browser's copy gives the original lesson back. Eight "Run this
  lesson in your browser" clicks in one browser, one after the other, each show the lesson
  clicked, alone: the tabs of the lesson opened before are not restored beside it or over it;
  on a phone-wide screen the lesson, not the file browser, takes the screen.

Every request the pages make goes through a route that lets only this machine through
(``offline.Guarded``) and records anything else; each test fails if one was made. That, not
a grep, is the proof that nothing comes from a CDN. JupyterLite needs its service worker (the
kernel reaches the browser's files through it), and Playwright routes a service worker's own
requests only with ``PW_EXPERIMENTAL_SERVICE_WORKER_NETWORK_EVENTS=1`` (Chromium), which the
``browser`` fixture sets, so those go through the same route. The time until the first lesson
is runnable (its kernel idle), cold (empty cache) and warm (the same browser again), is printed
and written to ``artifacts/browser/lite-timings.json``; it is measured, never asserted.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nbformat
import pytest
from test_chinese_and_playground import GLYPHS_DRAWN, missing_cjk_font

from agentcore.course.judges.grade import code_stub
from scripts import site
from scripts.lessons import NOTEBOOKS
from scripts.site_font import CSS, FONT_DIR
from scripts.site_pages import site_path
from tests.browser.offline import Guarded
from tests.browser.test_jupyterlab import (
    ALL_CELLS_RAN,
    CELL_TEXT,
    KERNEL_READY,
    run_cell,
    transcript_rows,
)

LANGUAGES = ("en", "zh-CN")
STEP = {"en": "Step", "zh-CN": "单步"}
SWITCH = {"en": "简体中文", "zh-CN": "English"}
LESSON = "01-the-loop"
EXERCISE = ('forget("my_lengths")', 'check("predict_lengths"')
# Pyodide compiles its runtime and loads ~30 wheels on the first open: minutes on a busy machine.
KERNEL_TIMEOUT_MS = 300_000
TIMEOUT_MS = 120_000


@pytest.fixture(scope="module")
def site_url(built_site: Path) -> Iterator[str]:
    """The built site, served by ``scripts.site.server`` on a free 127.0.0.1 port."""
    httpd = site.server(built_site, 0)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


@pytest.fixture
def guarded(browser: Any) -> Iterator[Guarded]:
    context = Guarded(browser)
    try:
        yield context
    finally:
        context.context.close()


def lesson_url(site_url: str, language: str, lesson: str = LESSON) -> str:
    """A lesson's page: the English site at the root, the Chinese one in ``zh-CN/``."""
    return f"{site_url}/{site_path(language, f'notebooks/{language}/{lesson}.ipynb')}"


# Scroll the page to its n-th section; its id.
SCROLL_TO_SECTION = """(n) => {
  const section = document.querySelectorAll('article section section[id]')[n];
  section.scrollIntoView({behavior: 'instant'}); return section.id; }"""


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_lesson_page_shows_outputs_diagrams_and_the_language_switch(
    site_url: str, guarded: Guarded, artifacts: Path, language: str
) -> None:
    page = guarded.context.new_page()
    page.goto(lesson_url(site_url, language))
    body = page.locator("article")
    assert "64.4" in body.inner_text()  # the stored output of the chapter's run
    diagram = page.locator(".course-diagram svg").first  # drawn when the site was built
    assert diagram.is_visible() and diagram.bounding_box()["height"] > 200
    assert page.locator("script[src*='mermaid']").count() == 0
    if language == "zh-CN" and missing_cjk_font() is None:
        drawn = page.evaluate(GLYPHS_DRAWN, page.locator("h1").first.element_handle())
        assert drawn.get("distinct") and drawn.get("notBoxes"), drawn
    page.screenshot(path=str(artifacts / f"site-{language}-lesson.png"))
    # The switch leads to the same lesson, at the section the reader was reading.
    section = page.evaluate(SCROLL_TO_SECTION, 4)
    page.locator("#language-switch").get_by_role("link", name=SWITCH[language]).click()
    other = "zh-CN" if language == "en" else "en"
    page.wait_for_url(f"**/notebooks/{other}/{LESSON}.html#{section}")
    assert page.locator("html").get_attribute("lang") == other
    assert page.locator(f"section[id='{section}']").is_visible()
    guarded.assert_no_leaks()


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_phone_never_scrolls_a_lesson_sideways(
    site_url: str, browser: Any, artifacts: Path, language: str
) -> None:
    guarded = Guarded(browser, viewport={"width": 375, "height": 812})
    try:
        page = guarded.context.new_page()
        for lesson in ("01-the-loop", "05-deepseek-adapter", "06-experiments"):
            page.goto(lesson_url(site_url, language, lesson))
            page.evaluate("document.fonts.ready.then(() => true)")
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 375, f"{language} {lesson}: the page is {width} px wide"
        page.goto(lesson_url(site_url, language))
        # A wide diagram scrolls inside its own box, its text no smaller than 12 px.
        box = page.locator(".course-diagram").first
        widths = box.evaluate("b => [b.scrollWidth, b.clientWidth]")
        assert widths[0] > widths[1], widths
        text = box.locator("svg text").first
        assert text.bounding_box()["height"] >= 11, text.bounding_box()
        box.scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"site-{language}-lesson-375.png"))
        guarded.assert_no_leaks()
    finally:
        guarded.context.close()


# Mark the first paragraph or list item of the lesson with an English apostrophe (’, which
# Sphinx's smart quotes make of ') and no Chinese, so the DevTools protocol can find it.
MARK_APOSTROPHE = """() => {
  const node = [...document.querySelectorAll('article p, article li')]
    .find(n => n.textContent.includes('\u2019') && !/[\u2e80-\u9fff]/.test(n.textContent));
  if (node) { node.setAttribute('data-probe', 'apostrophe'); }
  return node ? node.textContent.slice(0, 80) : null;
}"""


def test_an_english_apostrophe_is_drawn_with_a_latin_font(site_url: str, guarded: Guarded) -> None:
    page = guarded.context.new_page()
    page.goto(lesson_url(site_url, "en"))
    page.evaluate("document.fonts.ready.then(() => true)")
    assert page.evaluate(MARK_APOSTROPHE), "lesson 01 has an English apostrophe"
    fonts = _fonts_drawing(page, "[data-probe='apostrophe']")
    assert fonts and not any(font["isCustomFont"] for font in fonts), fonts
    assert not any("CJK" in font["familyName"] or "SC" in font["familyName"] for font in fonts)
    guarded.assert_no_leaks()


@pytest.mark.parametrize(("query", "page"), [
    ("轮次", "notebooks/zh-CN/01-the-loop"),
    ("工具调用", "notebooks/zh-CN/01-the-loop"),  # a glossary term jieba alone cuts in two
    ("答案", "docs/cheatsheet.zh-CN"),  # the cheatsheet writes it only inside 最终答案
    ("替身", "notebooks/zh-CN/06-experiments"),  # only inside 模型替身
])  # fmt: skip
def test_search_finds_a_chinese_word(
    site_url: str, guarded: Guarded, query: str, page: str
) -> None:  # fmt: skip
    search = guarded.context.new_page()
    search.goto(f"{site_url}/zh-CN/search.html?q={query}")
    results = search.locator(f"#search-results a[href*='{page}.html']")
    results.first.wait_for(timeout=TIMEOUT_MS)
    assert results.count() >= 1
    guarded.assert_no_leaks()


def _fonts_drawing(page: Any, selector: str) -> list[dict[str, Any]]:
    """The fonts Chromium drew the first element matching ``selector`` with, from its DevTools
    protocol (``CSS.getPlatformFontsForNode``): family, whether it is a web font, glyph count."""
    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send("DOM.enable")
        cdp.send("CSS.enable")
        root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
        assert node, f"no element {selector}"
        return list(cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"])
    finally:
        cdp.detach()


def _assert_chinese_drawn_with_the_bundled_font(page: Any, selector: str) -> None:
    """At least as many glyphs of the first ``selector`` element come from the web font as it
    has Chinese characters (the machine's fonts draw only its Latin text)."""
    chinese = len(re.findall(r"[\u4e00-\u9fff]", page.locator(selector).first.text_content()))
    fonts = _fonts_drawing(page, selector)
    bundled = sum(font["glyphCount"] for font in fonts if font["isCustomFont"])
    assert chinese and bundled >= chinese, (selector, chinese, fonts)


# Mark the first printed output and the first diagram label that hold Chinese, so the DevTools
# protocol can find them.
MARK_CHINESE_OUTPUT = """() => {
  const output = [...document.querySelectorAll('div.cell_output pre')]
    .find(pre => /[\u4e00-\u9fff]/.test(pre.textContent) && /[A-Za-z]/.test(pre.textContent));
  const inView = node => {  // a label on screen (a wide diagram scrolls in its box)
    const box = node.closest('.course-diagram').getBoundingClientRect();
    const rect = node.getBoundingClientRect();
    return rect.width > 0 && rect.left >= box.left && rect.right <= box.right
      && rect.top >= 0 && rect.bottom <= window.innerHeight;
  };
  const label = [...document.querySelectorAll('.course-diagram svg *')]  // <text> or HTML
    .find(node => node.children.length === 0 && node.tagName !== 'style'
          && /[\u4e00-\u9fff]/.test(node.textContent) && inView(node));
  if (output) { output.setAttribute('data-probe', 'chinese-output'); }
  if (label) { label.setAttribute('data-probe', 'chinese-label'); }
  return output && label ? output.textContent.slice(0, 80) : null;
}"""
LOAD_FONTS_OF = """element => document.fonts.load(getComputedStyle(element).font,
  element.textContent).then(() => new Promise(done => requestAnimationFrame(() => done(true))))"""
FONT_FILES = """() => performance.getEntriesByType('resource').map(entry => entry.name)
  .filter(name => name.endsWith('.woff2'))"""


def test_chinese_is_drawn_with_the_bundled_font_where_no_cjk_font_is_installed(
    site_url: str, browser_without_cjk_fonts: Any, built_site: Path, artifacts: Path
) -> None:
    guarded = Guarded(browser_without_cjk_fonts)
    try:
        page = guarded.context.new_page()
        page.goto(lesson_url(site_url, "zh-CN"))
        page.evaluate("document.fonts.ready.then(() => true)")
        # Headings, prose, printed output and the diagram: every Chinese character drawn with
        # the bundled font, none with the machine's (which has no Chinese glyphs: a glyph from
        # it would be an empty box); Latin text keeps the machine's fonts.
        # Chromium asks for a slice when it draws a character: show the diagram, then wait.
        page.locator(".course-diagram").first.scroll_into_view_if_needed()
        page.wait_for_timeout(500)
        page.wait_for_function(MARK_CHINESE_OUTPUT, timeout=TIMEOUT_MS)  # lesson 01 draws Chinese
        page.evaluate("document.fonts.ready.then(() => true)")
        for selector in ("h1", "article section p", "[data-probe='chinese-output']",
                         "[data-probe='chinese-label']"):  # fmt: skip
            _assert_chinese_drawn_with_the_bundled_font(page, selector)
        drawn = page.evaluate(GLYPHS_DRAWN, page.locator("h1").first.element_handle())
        assert drawn.get("distinct") and drawn.get("notBoxes"), drawn
        # The slices come from the site, and only those the page's characters need.
        files = page.evaluate(FONT_FILES)
        every = (built_site / "lite" / FONT_DIR / CSS).read_text().count("@font-face")
        assert files and all(f.startswith(f"{site_url}/zh-CN/_static/{FONT_DIR}/") for f in files)
        assert len(files) < every / 3, f"{len(files)} of {every} slices loaded"
        page.screenshot(path=str(artifacts / "site-zh-CN-lesson-no-cjk-font.png"), full_page=False)
        # An English page draws its one Chinese link, the language switch, with it too.
        page.goto(lesson_url(site_url, "en"))
        page.evaluate("document.fonts.ready.then(() => true)")
        _assert_chinese_drawn_with_the_bundled_font(page, "#language-switch a[lang='zh-CN']")
        # The JupyterLite edition draws a zh-CN lesson's Markdown with the same font.
        page.goto(f"{site_url}/lite/lab/index.html?path=notebooks/zh-CN/{LESSON}.ipynb")
        heading = page.locator(".jp-RenderedMarkdown h1").first
        heading.wait_for(timeout=KERNEL_TIMEOUT_MS)
        # JupyterLab draws the heading before its font slices are asked for: load them first.
        page.evaluate(LOAD_FONTS_OF, heading.element_handle())
        drawn = page.evaluate(GLYPHS_DRAWN, heading.element_handle())
        assert drawn.get("distinct") and drawn.get("notBoxes"), drawn
        page.screenshot(path=str(artifacts / "lite-zh-CN-lesson-no-cjk-font.png"))
        _assert_chinese_drawn_with_the_bundled_font(page, ".jp-RenderedMarkdown h1")
        guarded.assert_no_leaks()
    finally:
        guarded.context.close()


# The lessons a learner opens one after the other from the website, in one browser: both
# languages, the same lesson name in each, a lesson with skipped cells, the first lesson again,
# and an appendix (on a phone).
SEQUENCE = [("en", "01-the-loop"), ("zh-CN", "02-tools-and-registry"),
            ("en", "05-deepseek-adapter"), ("zh-CN", "00-fixed-script"),
            ("en", "03-errors"), ("zh-CN", "01-the-loop"),
            ("en", "01-the-loop"), ("en", "01-appendix-inside-the-loop")]  # fmt: skip
# Whether the lesson ``path`` is the current document, its cells drawn on screen.
LESSON_SHOWN = """(path) => {
  const current = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  return Boolean(current && current.context && current.context.path === path
    && current.isVisible && current.node.querySelector('.jp-Cell'));
}"""
# The paths of the documents in JupyterLite's main area, the current one first.
MAIN_AREA = """async () => {
  const app = window.jupyterapp;
  await app.restored;
  const paths = [...app.shell.widgets('main')].map(w => w.context ? w.context.path : w.id);
  const current = app.shell.currentWidget;
  return [current && current.context ? current.context.path : null, paths];
}"""
# Whether the browser's saved layout (the workspace JupyterLab restores on the next visit, named
# in the address or "default") holds the lesson ``path``: a later visit would restore it.
LAYOUT_SAVED = """async (path) => {
  const name = new URL(window.location.href).searchParams.get('workspace') || 'default';
  const saved = await window.jupyterapp.serviceManager.workspaces.fetch(name);
  return JSON.stringify(saved.data['layout-restorer:data'] || {}).includes(path);
}"""


@pytest.mark.slow
def test_each_run_this_lesson_link_shows_the_lesson_clicked(
    site_url: str, browser: Any, artifacts: Path
) -> None:
    guarded = Guarded(browser)
    try:
        page = guarded.context.new_page()
        for number, (language, lesson) in enumerate(SEQUENCE, 1):
            if number == len(SEQUENCE):  # the last one on a phone: the lesson, not the files
                page.set_viewport_size({"width": 375, "height": 812})
            page.goto(lesson_url(site_url, language, lesson))
            page.locator("#run-in-browser").click()
            path = f"notebooks/{language}/{lesson}.ipynb"
            page.wait_for_function(LESSON_SHOWN, arg=path, timeout=TIMEOUT_MS)
            # The learner waits for the lesson's tab; the layout is saved meanwhile.
            page.wait_for_function(LAYOUT_SAVED, arg=path, timeout=TIMEOUT_MS, polling=250)
            current, tabs = page.evaluate(MAIN_AREA)
            page.screenshot(path=str(artifacts / f"lite-sequence-{number}.png"))
            assert (current, tabs) == (path, [path]), f"open {number} of {len(SEQUENCE)}"
            tab = page.locator(".lm-DockPanel-tabBar .lm-TabBar-tab.lm-mod-current")
            assert tab.inner_text().strip().startswith(lesson), tab.inner_text()
        page.wait_for_function(  # the file browser collapses; the lesson takes the screen
            "() => window.jupyterapp.shell.leftCollapsed"
            " && window.jupyterapp.shell.currentWidget.node.offsetWidth >= 250",
            timeout=TIMEOUT_MS,
        )  # fmt: skip
        page.screenshot(path=str(artifacts / "lite-sequence-375.png"))
        guarded.assert_no_leaks()
    finally:
        guarded.context.close()


def _solution(language: str) -> str:
    """The written solution of lesson 01's first exercise (its solution notebook)."""
    notebook = nbformat.read(NOTEBOOKS / language / "solutions" / f"{LESSON}.ipynb", as_version=4)
    (cell,) = [c for c in notebook.cells if EXERCISE[0] in c.source]
    start = cell.source.index("### BEGIN SOLUTION") + len("### BEGIN SOLUTION")
    return cell.source[start : cell.source.index("### END SOLUTION")].strip()


def _open_lesson(page: Any, url: str) -> float:
    """Open a lesson in JupyterLite; seconds until its kernel is idle (the lesson runnable)."""
    started = time.monotonic()
    page.goto(url)
    page.wait_for_selector(".jp-Notebook", timeout=TIMEOUT_MS)
    page.wait_for_function(KERNEL_READY, timeout=KERNEL_TIMEOUT_MS)
    return time.monotonic() - started


# Delete the browser's saved copy of a lesson, then read the lesson again through JupyterLite's
# contents service: the cells' sources of what a learner now gets.
RESET_AND_READ = """async (path) => {
  const contents = window.jupyterapp.serviceManager.contents;
  await contents.delete(path);
  const model = await contents.get(path, {content: true});
  return model.content.cells.map(cell => [].concat(cell.source).join(''));
}"""


def _cell_index(page: Any, text: str) -> int:
    return int(page.evaluate(
        "(text) => window.jupyterapp.shell.currentWidget.content.widgets"
        ".findIndex(cell => cell.model.sharedModel.getSource().includes(text))", text,
    ))  # fmt: skip


@pytest.mark.parametrize("language", LANGUAGES)
def test_lesson_01_runs_steps_and_checks_an_answer_in_jupyterlite(
    site_url: str, browser: Any, artifacts: Path, language: str,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    guarded = Guarded(browser)
    try:
        page = guarded.context.new_page()
        url = f"{site_url}/lite/lab/index.html?path=notebooks/{language}/{LESSON}.ipynb"
        cold = _open_lesson(page, url)

        page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
        page.wait_for_timeout(1000)
        page.wait_for_function(ALL_CELLS_RAN, timeout=KERNEL_TIMEOUT_MS)
        errors = page.locator(
            ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']"
        )
        assert errors.count() == 0, errors.first.inner_text()
        assert "Traceback" not in page.locator(".jp-Notebook").inner_text()

        stepper = page.locator(".agentcore-stepper").first
        stepper.wait_for(timeout=TIMEOUT_MS)
        stepper.scroll_into_view_if_needed()
        step = stepper.get_by_role("button", name=STEP[language], exact=True)
        counts = [transcript_rows(stepper)]
        for _ in range(10):
            if stepper.locator(".agentcore-outcome").count():
                break
            step.click()
            page.wait_for_function(
                "([box, before]) => box.querySelectorAll('table.agentcore-transcript tbody tr')"
                ".length > before || box.querySelector('.agentcore-outcome') !== null",
                arg=[stepper.element_handle(), counts[-1]], timeout=TIMEOUT_MS,
            )  # fmt: skip
            counts.append(transcript_rows(stepper))
        outcome = stepper.locator(".agentcore-outcome")
        assert "64.4°F" in outcome.inner_text()
        assert len(counts) >= 4, f"the weather run takes three model turns: {counts}"

        answer, check = (_cell_index(page, text) for text in EXERCISE)
        assert 0 <= answer < check
        source = page.evaluate(
            "(i) => window.jupyterapp.shell.currentWidget.content.widgets[i]"
            ".model.sharedModel.getSource()", answer,
        )  # fmt: skip
        assert code_stub(language) in source, source  # the stub in the lesson's language
        run_cell(page, answer, source.replace(code_stub(language), _solution(language)))
        run_cell(page, check)
        verdict = page.evaluate(CELL_TEXT, check).strip()
        assert verdict.startswith("✔"), verdict
        page.screenshot(path=str(artifacts / f"lite-{language}-lesson-01.png"))

        warm = None
        if language == "en":  # the first lesson: opened again, warm, with the answer kept
            # Progress is saved in the browser: the answer is there when the lesson reopens.
            page.evaluate("window.jupyterapp.commands.execute('docmanager:save').then(() => 1)")
            page.wait_for_timeout(1000)
            warm = _open_lesson(page, url)
            assert _cell_index(page, _solution(language).splitlines()[0]) == answer
            # Reset: deleting the browser's copy brings the original lesson back.
            path = f"notebooks/{language}/{LESSON}.ipynb"
            original = page.evaluate(RESET_AND_READ, path)
            assert code_stub(language) in original[answer]
            assert _solution(language).splitlines()[0] not in original[answer]
        guarded.assert_no_leaks()
    finally:
        guarded.context.close()
    timings = artifacts / "lite-timings.json"
    known = json.loads(timings.read_text()) if timings.is_file() else {}
    known[language] = {"cold_s": round(cold, 1), "warm_s": warm and round(warm, 1)}
    timings.write_text(json.dumps(known, indent=1))
    with capsys.disabled():
        again = f", {warm:.1f} s warm (the same browser again)" if warm else ""
        print(f"\nJupyterLite {language} lesson 01 runnable after {cold:.1f} s cold{again}")
