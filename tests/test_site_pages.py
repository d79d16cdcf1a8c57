"""The lesson website as ``python -m scripts.site build`` wrote it (the ``built_site`` fixture):
every page a learner needs, the links between them, the language switch, Chinese search, the
bundled Mermaid, and nothing from the teacher's guide or the solutions."""

from __future__ import annotations

import io
import json
import re
import tarfile
import threading
import urllib.request
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest

from scripts import lessons as lesson_tools
from scripts import site, site_font, site_lessons
from scripts.lessons import LANGUAGES, ROOT, lessons
from scripts.site_font import CSS, FAMILY, FIRST_CODE_POINT, FONT_DIR, WEIGHTS
from scripts.site_pages import glossary_terms


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


class _Text(HTMLParser):
    """The text of a page's body, scripts and styles left out."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._skip += tag in ("script", "style")

    def handle_endtag(self, tag: str) -> None:
        self._skip -= tag in ("script", "style")

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.parts.append(data)


def _page_text(path: Path) -> str:
    parser = _Text()
    parser.feed(path.read_text(encoding="utf-8"))
    return "".join(parser.parts)


def _parse(path: Path) -> _Links:
    parser = _Links()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def test_the_site_finds_the_same_lessons_as_the_lesson_tools() -> None:
    # the site's own list (no nbgrader needed) and the maintainers' tools agree
    for language in LANGUAGES:
        assert site_lessons.lessons(language) == lesson_tools.lessons(language)
        assert site_lessons.lessons(language), language
    assert site_lessons.LANGUAGES == lesson_tools.LANGUAGES and site_lessons.ROOT == ROOT


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


def test_each_home_page_opens_the_browser_edition_by_a_relative_link(built: Path) -> None:
    for home, label in (("index.html", "Run the course in your browser"),
                        ("index.zh-CN.html", "在浏览器中运行课程")):  # fmt: skip
        html = (built / home).read_text(encoding="utf-8")
        assert re.search(r'id="run-in-browser" href="lite/lab/index.html">' + label, html), home


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


def _search_index(built: Path) -> dict[str, Any]:
    index = (built / "searchindex.js").read_text(encoding="utf-8")
    return dict(json.loads(index[index.index("(") + 1 : index.rindex(")")]))


def _listed(files: int | list[int]) -> list[int]:
    return files if isinstance(files, list) else [files]


def _pages_with(index: dict[str, Any], term: str) -> set[str]:
    """The pages the search page lists for a query of one Chinese word: Sphinx's searchtools.js
    looks it up as one term of the index's text and title terms (and, from three characters
    on, inside longer terms)."""
    terms = {**index["terms"]}
    for name, files in index["titleterms"].items():
        terms[name] = [*_listed(terms.get(name, [])), *_listed(files)]
    matches = [files for name, files in terms.items() if name == term or (
        len(term) > 2 and term in name)]  # fmt: skip
    found = {i for files in matches for i in _listed(files)}
    return {index["docnames"][i] for i in found}


def test_search_finds_chinese_words(built: Path) -> None:
    terms = _search_index(built)["terms"]
    # jieba segments the zh-CN lessons into words; without it Chinese is not found
    assert "运行" in terms and "模型" in terms and "轮次" in terms and "一口气" in terms
    assert "runtim" in terms  # English is still indexed (stemmed, as Sphinx does)


def test_search_finds_every_glossary_term_whole(built: Path) -> None:
    # jieba alone cuts 工具调用 into 工具 + 调用, and a search for the term found nothing
    index = _search_index(built)
    glossary = (ROOT / "docs" / "GLOSSARY.md").read_text(encoding="utf-8")
    for term in ("工具调用", "模型轮次", "观察结果", "运行记录", "模型服务商", "智能体"):
        assert term in glossary_terms(glossary)
        found = _pages_with(index, term)
        assert "notebooks/zh-CN/01-the-loop" in found or term == "模型服务商", (term, found)
        assert any(page.startswith("notebooks/zh-CN/") for page in found), term


@pytest.mark.parametrize(("part", "whole", "page"), [
    ("替身", "模型替身", "notebooks/zh-CN/06-experiments"),  # 8 times, always in 模型替身
    ("答案", "最终答案", "docs/cheatsheet.zh-CN"),
    ("轮次", "模型轮次", "notebooks/zh-CN/05-appendix-local-model"),
])  # fmt: skip
def test_search_finds_a_shorter_word_inside_a_longer_one(
    built: Path, part: str, whole: str, page: str
) -> None:
    text = _page_text(built / f"{page}.html")
    assert text.count(part) == text.count(whole) > 0, f"{page}: {part} also stands alone"
    index = _search_index(built)
    assert page in _pages_with(index, whole)
    assert page in _pages_with(index, part)


def test_mermaid_comes_from_the_bundled_copy(built: Path) -> None:
    html = (built / "notebooks" / "en" / "01-the-loop.html").read_text(encoding="utf-8")
    assert 'class="mermaid' in html
    assert 'import mermaid from "../../_static/mermaid/mermaid.esm.min.mjs"' in html
    assert (built / "_static" / "mermaid" / "mermaid.esm.min.mjs").is_file()
    assert "cdn.jsdelivr.net/npm/mermaid" not in html


def test_the_chinese_font_is_bundled_in_slices_with_its_license(built: Path) -> None:
    folder = built / "_static" / FONT_DIR
    css = (folder / CSS).read_text(encoding="utf-8")
    faces = re.findall(r"@font-face \{(.*?)\}", css, flags=re.DOTALL)
    assert len(faces) > 100, "the font comes in unicode-range slices"
    for face in faces:
        assert f"font-family: '{FAMILY}'" in face, face
        (ranges,) = re.findall(r"unicode-range: ([^;]+);", face)
        starts = [int(item.strip()[2:].partition("-")[0], 16) for item in ranges.split(",")]
        assert min(starts) >= FIRST_CODE_POINT, f"Latin stays with the page's fonts: {ranges}"
        (source,) = re.findall(r"src: url\(\./files/([^)]+)\) format\('woff2'\);", face)
        assert (folder / "files" / source).is_file(), source
    assert {int(w) for w in re.findall(r"font-weight: (\d+);", css)} == set(WEIGHTS)
    assert "http" not in css.split("*/", 1)[1], "every slice comes from the site"
    assert not list(folder.rglob("*.woff")), "WOFF2 only"
    assert "SIL OPEN FONT LICENSE Version 1.1" in (folder / "LICENSE").read_text(encoding="utf-8")
    html = (built / "notebooks" / "zh-CN" / "01-the-loop.html").read_text(encoding="utf-8")
    assert f'href="../../_static/{FONT_DIR}/{CSS}"' in html
    pages = (built / "_static" / "course.css").read_text(encoding="utf-8")
    assert "html:lang(zh-CN) body" in pages and f'font-family: "{FAMILY}", sans-serif' in pages


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


def test_glossary_terms_are_the_chinese_of_the_table_not_its_quotations() -> None:
    glossary = "\n".join([
        "# Glossary", "", "| English | zh-CN | note |", "|---|---|---|",
        "| tool call | 工具调用（Tool Call） | Chinese first |",
        "| agent | Agent（智能体） | gloss at first use |",
        "| run status | 尚未开始 / 运行中 / 失败 | `AgentRun.status` |",
        "| handler | handler | code term |",
        "| chapter / section N | 本章 / 第 N 节 | not 原文 |",
        "| slogan | 「模型提议下一步，Runtime 管理下一步」 | quoted |",
        "| tool call | 工具调用 | the same term again |", "",
        "| variant | use instead |", "|---|---|", "| 提供方 | 模型服务商 |",
    ])  # fmt: skip
    assert glossary_terms(glossary) == ["工具调用", "智能体", "尚未开始", "运行中", "失败", "本章"]
    with pytest.raises(ValueError, match="no table headed"):
        glossary_terms("# Glossary\n\n| variant | use instead |\n|---|---|\n| 提供方 | 服务商 |")


def _font_package(tmp_path: Path, css: str) -> Path:
    archive = tmp_path / "font.tgz"
    with tarfile.open(archive, "w:gz") as tar:
        for name, text in (("400.css", css), ("700.css", css), ("LICENSE", "SIL OFL 1.1")):
            data = text.encode()
            info = tarfile.TarInfo(f"package/{name}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return archive


def test_a_font_package_laid_out_otherwise_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    face = ("@font-face {\n  font-family: 'Noto Sans SC';\n  font-weight: 400;\n"
            "  src: url(./files/a.woff2) format('woff2')MORE;\n  unicode-range: U+4e00;\n}\n")
    woff_too = face.replace("MORE", ", url(./files/a.woff) format('woff')")
    woff2_only = face.replace("MORE", "")
    for css, message in ((woff2_only, "1 @font-face rules but 0 sources"),
                         (woff_too, r"lacks the files its CSS names: \['a.woff2'\]")):  # fmt: skip
        archive = _font_package(tmp_path, css)
        monkeypatch.setattr(site_font, "npm_package", lambda spec, archive=archive: archive)
        with pytest.raises(RuntimeError, match=message):
            site_font.bundle_cjk_font(tmp_path / "static")
