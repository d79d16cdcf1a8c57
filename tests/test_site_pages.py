"""The lesson website as ``python -m scripts.site build`` wrote it (the ``built_site`` fixture):
every page a learner needs, the links between them, the language switch, Chinese search, the
bundled Mermaid, and nothing from the teacher's guide or the solutions."""

from __future__ import annotations

import json
import re
import threading
import urllib.request
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from scripts import site
from scripts.lessons import LANGUAGES, lessons


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.add(str(values["id"]))
        for name in ("href", "src"):
            if tag in ("a", "img", "link", "script") and values.get(name):
                self.links.append(str(values[name]))


def _parse(path: Path) -> _Links:
    parser = _Links()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


@pytest.fixture(scope="module")
def built(built_site: Path) -> Path:
    return built_site


def test_every_learner_lesson_has_a_page_in_each_language(built: Path) -> None:
    for language in LANGUAGES:
        for lesson in lessons(language):
            page = built / "notebooks" / language / lesson.with_suffix(".html").name
            assert page.is_file(), f"no page for {lesson}"
    assert not list(built.rglob("*solutions*")), "solution notebooks must stay off the site"
    assert not list(built.rglob("*teaching*")), "the teacher's guide must stay off the site"
    for page in ("index.html", "index.zh-CN.html", "docs/GLOSSARY.html", "docs/cheatsheet.html",
                 "docs/cheatsheet.zh-CN.html"):  # fmt: skip
        assert (built / page).is_file(), page


def test_every_link_on_the_site_resolves(built: Path) -> None:
    broken: list[str] = []
    parsed: dict[Path, _Links] = {}
    website = [p for p in built.rglob("*.html") if p.relative_to(built).parts[0] != "lite"]
    for page in sorted(website):
        links = parsed.setdefault(page, _parse(page))
        for link in links.links:
            parts = urlsplit(link)
            if parts.scheme or link.startswith(("//", "#")):
                if parts.scheme in ("http", "https") and page.name != "search.html":
                    # a page may link out (nbgrader, a provider's docs); it never loads from out
                    assert not link.endswith((".js", ".mjs", ".css")), f"{page}: {link}"
                continue
            target = (page.parent / unquote(parts.path)).resolve()
            if target.is_dir():
                target = target / "index.html"
            if not target.is_file():
                broken.append(f"{page.relative_to(built)} -> {link}")
            elif parts.fragment and target.suffix == ".html":
                ids = parsed.setdefault(target, _parse(target)).ids
                if unquote(parts.fragment) not in ids:
                    broken.append(f"{page.relative_to(built)} -> {link} (no such anchor)")
    assert not broken, "broken links:\n" + "\n".join(broken)


def test_lessons_link_to_each_other_and_to_the_docs(built: Path) -> None:
    page = built / "notebooks" / "en" / "01-the-loop.html"
    links = _parse(page).links
    assert "../../docs/GLOSSARY.html" in links
    assert any(link.startswith("02-tools-and-registry.html") for link in links)


def test_each_page_switches_to_the_same_page_in_the_other_language(built: Path) -> None:
    for language, other in (("en", "zh-CN"), ("zh-CN", "en")):
        for lesson in lessons(language):
            page = built / "notebooks" / language / lesson.with_suffix(".html").name
            html = page.read_text(encoding="utf-8")
            switch = re.search(r'id="language-switch">\s*<a href="([^"]+)"', html)
            assert switch, f"{page}: no language switch"
            assert switch.group(1) == f"../{other}/{page.name}", page
            assert f'<html lang="{language}"' in html
    home = (built / "index.html").read_text(encoding="utf-8")
    assert 'href="index.zh-CN.html"' in home


def test_each_lesson_page_opens_the_same_lesson_in_the_browser_edition(built: Path) -> None:
    for language in LANGUAGES:
        for lesson in lessons(language):
            page = built / "notebooks" / language / lesson.with_suffix(".html").name
            html = page.read_text(encoding="utf-8")
            link = f'href="../../lite/lab/index.html?path=notebooks/{language}/{lesson.name}"'
            assert link in html, page


def test_stored_outputs_are_shown_not_re_executed(built: Path) -> None:
    html = (built / "notebooks" / "en" / "01-the-loop.html").read_text(encoding="utf-8")
    assert "get_teaching_weather" in html
    assert "Tokyo" in html and "64.4" in html  # the chapter's run, as stored
    lesson = json.loads(lessons("en")[1].read_text(encoding="utf-8"))
    stored = [o for c in lesson["cells"] if c["cell_type"] == "code" for o in c["outputs"]]
    assert stored, "lesson 01 has stored outputs"


def test_a_widget_shows_its_plain_text_state(built: Path) -> None:
    for language, text in (("en", "RunStepper: run the cells above in JupyterLab"),
                           ("zh-CN", "RunStepper：在 JupyterLab 中运行上面的单元格")):  # fmt: skip
        page = built / "notebooks" / language / "01-the-loop.html"
        assert text in page.read_text(encoding="utf-8"), page


def test_search_finds_chinese_words(built: Path) -> None:
    index = (built / "searchindex.js").read_text(encoding="utf-8")
    terms = json.loads(index[index.index("(") + 1 : index.rindex(")")])["terms"]
    # jieba segments the zh-CN lessons into words; without it Chinese is not found
    assert "运行" in terms and "模型" in terms and "轮次" in terms and "一口气" in terms
    assert "runtim" in terms  # English is still indexed (stemmed, as Sphinx does)


def test_mermaid_comes_from_the_bundled_copy(built: Path) -> None:
    html = (built / "notebooks" / "en" / "01-the-loop.html").read_text(encoding="utf-8")
    assert 'class="mermaid' in html
    assert 'import mermaid from "../../_static/mermaid/mermaid.esm.min.mjs"' in html
    assert (built / "_static" / "mermaid" / "mermaid.esm.min.mjs").is_file()
    assert "cdn.jsdelivr.net/npm/mermaid" not in html


def test_chinese_pages_ask_for_a_cjk_font(built: Path) -> None:
    css = (built / "_static" / "course.css").read_text(encoding="utf-8")
    assert 'html[lang="zh-CN"]' in css and "Noto Sans CJK SC" in css


def test_serve_answers_on_loopback_with_the_types_module_workers_need(built: Path) -> None:
    httpd = site.server(built, 0)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        host, port = httpd.server_address[:2]
        assert host == "127.0.0.1"
        for path, kind in (
            ("/index.html", "text/html"),
            ("/_static/mermaid/mermaid.esm.min.mjs", "text/javascript"),
            ("/lite/static/pyodide/pyodide.asm.wasm", "application/wasm"),
        ):
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}") as reply:
                assert reply.headers["Content-Type"].startswith(kind), path
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_serve_refuses_a_folder_with_no_site(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=r"python -m scripts\.site build"):
        site.server(tmp_path, 0)
