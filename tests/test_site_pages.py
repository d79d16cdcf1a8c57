"""The lesson website as ``python -m scripts.site build`` wrote it (the ``built_site`` fixture):
every page a learner needs in course order, the links between them, the language switch, Sphinx's
words and search in Chinese on the Chinese site, diagrams as inline SVG, the font for CJK code
points only, the weight of a lesson page, and nothing from the teacher's guide or the
solutions."""

from __future__ import annotations

import io
import itertools
import json
import posixpath
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
from scripts.site_pages import course_order, doc_pages, glossary_terms, site_path


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


def lesson_page(built: Path, language: str, lesson: Path) -> Path:
    """Where a lesson's page is: ``notebooks/en/X.html``, ``zh-CN/notebooks/zh-CN/X.html``."""
    return built / site_path(language, f"notebooks/{language}/{lesson.name}")


def test_every_learner_lesson_has_a_page_in_each_language(built: Path) -> None:
    for language in LANGUAGES:
        for lesson in lessons(language):
            assert lesson_page(built, language, lesson).is_file(), f"no page for {lesson}"
    assert not list(built.rglob("*solutions*")), "solution notebooks must stay off the site"
    assert not list(built.rglob("*teaching*")), "the teacher's guide must stay off the site"
    for page in ("index.html", "zh-CN/index.html", "docs/GLOSSARY.html", "docs/cheatsheet.html",
                 "zh-CN/docs/cheatsheet.zh-CN.html", "zh-CN/docs/GLOSSARY.html"):  # fmt: skip
        assert (built / page).is_file(), page


def test_every_docs_page_is_on_the_site_in_its_language_and_in_the_sidebar(built: Path) -> None:
    # docs/*.md by pattern: a page added later (docs/providers.md) appears with no change here
    for language in LANGUAGES:
        pages = doc_pages(language)
        assert pages[:2] == (["docs/cheatsheet.md", "docs/GLOSSARY.md"] if language == "en"
                             else ["docs/cheatsheet.zh-CN.md", "docs/GLOSSARY.md"])  # fmt: skip
        home = (built / site_path(language, "index.md")).read_text(encoding="utf-8")
        sidebar = home[home.index('class="sidebar-tree"') :]
        for page in pages:
            assert (built / site_path(language, page)).is_file(), page
            assert f'href="{page.removesuffix(".md")}.html"' in sidebar, (language, page)
    english = {p.name for p in (ROOT / "docs").glob("*.md") if not p.name.endswith(".zh-CN.md")}
    assert {posixpath.basename(p) for p in doc_pages("en")} == english


def test_the_sidebar_and_next_previous_follow_the_course_order(built: Path) -> None:
    for language in LANGUAGES:
        ordered = [p.name for p in course_order(lessons(language))]
        assert ordered[:3] == ["00-fixed-script.ipynb", "01-the-loop.ipynb",
                               "01-appendix-inside-the-loop.ipynb"]  # fmt: skip
        home = (built / site_path(language, "index.md")).read_text(encoding="utf-8")
        sidebar = home[home.index('class="sidebar-tree"') :]
        positions = [sidebar.index(f"notebooks/{language}/{name[:-6]}.html") for name in ordered]
        assert positions == sorted(positions), language
        for before, after in itertools.pairwise(ordered):
            page = built / site_path(language, f"notebooks/{language}/{before}")
            found = re.search(r'<link rel="next" title="[^"]*" href="([^"]+)"', page.read_text())
            assert found and found.group(1) == after.replace(".ipynb", ".html"), (before, after)


def test_sphinx_and_the_theme_speak_chinese_on_chinese_pages(built: Path) -> None:
    page = (built / "zh-CN" / "notebooks" / "zh-CN" / "01-the-loop.html").read_text()
    assert '<html class="no-js" lang="zh-CN"' in page
    for words in ('placeholder="搜索"', "下一页", "上一页", "本页内容", "跳到正文", "回到顶部"):
        assert words in page, words
    assert "Quick search" not in page and "On this page" not in page
    translations = (built / "zh-CN" / "_static" / "translations.js").read_text(encoding="utf-8")
    results = re.search(r'"Search Results": ("[^"]+")', translations)  # the search page's
    assert results and json.loads(results.group(1)) == "搜索结果"
    english = (built / "notebooks" / "en" / "01-the-loop.html").read_text()
    assert 'lang="en"' in english and "On this page" in english and "下一页" not in english


def test_every_page_has_the_favicon(built: Path) -> None:
    for page in ("index.html", "zh-CN/notebooks/zh-CN/01-the-loop.html"):
        html = (built / page).read_text(encoding="utf-8")
        found = re.search(r'<link rel="(?:shortcut )?icon" href="([^"]+)"', html)
        assert found, page
        assert ((built / page).parent / found.group(1)).resolve().is_file(), page


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
                if "/lite/" not in link:  # the browser edition may not be built here
                    broken.append(f"{page.relative_to(built)} -> {link}")
            elif parts.fragment and target.suffix == ".html":
                ids = parsed.setdefault(target, _parse(target)).ids
                if unquote(parts.fragment) not in ids:
                    broken.append(f"{page.relative_to(built)} -> {link} (no such anchor)")
    assert not broken, "broken links:\n" + "\n".join(broken)


def test_lessons_link_to_each_other_and_to_the_docs(built: Path) -> None:
    links = _parse(built / "notebooks" / "en" / "01-the-loop.html").links
    assert "../../docs/GLOSSARY.html" in links
    assert any(link.startswith("02-tools-and-registry.html") for link in links)
    # a lesson's link to its translation leads to the other language's site
    assert "../../zh-CN/notebooks/zh-CN/01-the-loop.html" in links
    zh_links = _parse(built / "zh-CN" / "notebooks" / "zh-CN" / "01-the-loop.html").links
    assert "../../../notebooks/en/01-the-loop.html" in zh_links


def test_each_page_switches_to_the_same_page_in_the_other_language(built: Path) -> None:
    for language, other in (("en", "zh-CN"), ("zh-CN", "en")):
        for lesson in lessons(language):
            page = lesson_page(built, language, lesson)
            html = page.read_text(encoding="utf-8")
            switch = re.search(r'id="language-switch">\s*<a class="language-switch-link" '
                               r'href="([^"]+)"', html)  # fmt: skip
            assert switch, f"{page}: no language switch"
            assert (page.parent / switch.group(1)).resolve() == lesson_page(built, other, lesson)
            assert f'<html class="no-js" lang="{language}"' in html
    home = (built / "index.html").read_text(encoding="utf-8")
    assert re.search(r'class="language-switch-link" href="zh-CN/index.html"', home)


def _section_ids(page: Path) -> list[str]:
    return re.findall(r'<section id="([^"]+)"', page.read_text(encoding="utf-8"))


def test_a_lesson_and_its_translation_share_their_section_ids(built: Path) -> None:
    # so the language switch keeps the section (course.js adds it to the link)
    for lesson in lessons("en"):
        english = _section_ids(lesson_page(built, "en", lesson))
        chinese = _section_ids(lesson_page(built, "zh-CN", lesson))
        shared = [i for i in english if i in chinese]
        assert len(shared) >= len(english) - 1 and len(english) > 2, (lesson.name, english, chinese)
    assert "exactly-one-a-final-text-or-tool-calls-4-1" in _section_ids(
        built / "zh-CN" / "notebooks" / "zh-CN" / "01-the-loop.html")  # fmt: skip


def test_each_lesson_page_opens_the_same_lesson_in_the_browser_edition(built: Path) -> None:
    for language in LANGUAGES:
        for lesson in lessons(language):
            page = lesson_page(built, language, lesson)
            up = "../" * (len(page.relative_to(built).parts) - 1)
            link = f'href="{up}lite/lab/index.html?path=notebooks/{language}/{lesson.name}'
            link += f'&workspace={language}-{lesson.stem}"'
            assert link in page.read_text(encoding="utf-8"), page


def test_each_home_page_is_the_course_home_not_readme(built: Path) -> None:
    for home, label, lite in (("index.html", "Run the course in your browser", "lite"),
                              ("zh-CN/index.html", "在浏览器中运行课程", "../lite")):  # fmt: skip
        html = (built / home).read_text(encoding="utf-8")
        assert re.search(rf'id="run-in-browser" href="{lite}/lab/index.html">' + label, html)
        assert re.search(rf'class="run-in-browser-home" href="{lite}/lab/index.html">', html)
        assert "Settings &gt; Pages" not in html and "GitHub Pages" not in html
        assert "wds1996/Tiny-Agent" in html  # the chapter the lessons follow
        text = _page_text(built / home)
        for lesson in lessons("en" if home == "index.html" else "zh-CN"):
            notebook = json.loads(lesson.read_text(encoding="utf-8"))
            title = "".join(notebook["cells"][0]["source"]).splitlines()[0].removeprefix("# ")
            assert title in text, title


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
        page = lesson_page(built, language, Path("01-the-loop.ipynb"))
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
    terms = _search_index(built / "zh-CN")["terms"]
    # jieba segments the zh-CN lessons into words; without it Chinese is not found
    assert "运行" in terms and "模型" in terms and "轮次" in terms and "一口气" in terms
    assert "runtim" in _search_index(built)["terms"]  # English, stemmed, on the English site
    assert not any("zh-CN" in name for name in _search_index(built)["docnames"])


def test_search_finds_every_glossary_term_whole(built: Path) -> None:
    # jieba alone cuts 工具调用 into 工具 + 调用, and a search for the term found nothing
    index = _search_index(built / "zh-CN")
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
    text = _page_text(built / "zh-CN" / f"{page}.html")
    assert text.count(part) == text.count(whole) > 0, f"{page}: {part} also stands alone"
    index = _search_index(built / "zh-CN")
    assert page in _pages_with(index, whole)
    assert page in _pages_with(index, part)


def test_diagrams_are_inline_svg_and_no_page_loads_mermaid(built: Path) -> None:
    for language in LANGUAGES:
        html = lesson_page(built, language, Path("01-the-loop.ipynb")).read_text(encoding="utf-8")
        diagrams = re.findall(r'<div class="course-diagram"><svg id="(d[0-9a-f]{16})"', html)
        assert diagrams, language
        assert "mermaid.esm" not in html and 'class="mermaid' not in html
        ids = re.findall(r'\sid="([^"]+)"', html)
        assert len(ids) == len(set(ids)), "each diagram's ids are its own"
        # the diagram's words are in the page (its Chinese too), at a readable size
        assert ("AgentRuntime" if language == "en" else "用户") in html
        assert re.search(r'<svg id="d[0-9a-f]{16}" width="\d+" height="\d+" style="min-width', html)
    assert not (built / "_static" / "mermaid").exists()


def _fonts(css: str) -> list[tuple[str, list[tuple[int, int]]]]:
    faces = []
    for face in re.findall(r"@font-face \{(.*?)\}", css, flags=re.DOTALL):
        (ranges,) = re.findall(r"unicode-range: ([^;]+);", face)
        (source,) = re.findall(r"src: url\(\./files/([^)]+)\) format\('woff2'\);", face)
        spans = []
        for item in ranges.split(","):
            low, _, high = item.strip()[2:].partition("-")
            spans.append((int(low, 16), int(high or low, 16)))
        faces.append((source, spans))
    return faces


def test_the_chinese_font_covers_cjk_only_in_slices_with_its_license(built: Path) -> None:
    for folder in (built / "_static" / FONT_DIR, built / "zh-CN" / "_static" / FONT_DIR):
        css = (folder / CSS).read_text(encoding="utf-8")
        faces = _fonts(css)
        assert faces
        for source, spans in faces:
            assert min(start for start, _ in spans) >= FIRST_CODE_POINT, "Latin stays Latin"
            assert not any(start <= 0x2019 <= end for start, end in spans), "the apostrophe"
            assert (folder / "files" / source).is_file(), source
        assert f"font-family: '{FAMILY}'" in css
        assert {int(w) for w in re.findall(r"font-weight: (\d+);", css)} == set(WEIGHTS)
        assert "http" not in css.split("*/", 1)[1], "every slice comes from the site"
        assert not list(folder.rglob("*.woff")), "WOFF2 only"
        assert "SIL OPEN FONT LICENSE Version 1.1" in (folder / "LICENSE").read_text()
    # a site's stylesheet names only the slices its pages need: the English one few
    english = _fonts((built / "_static" / FONT_DIR / CSS).read_text(encoding="utf-8"))
    chinese = _fonts((built / "zh-CN" / "_static" / FONT_DIR / CSS).read_text(encoding="utf-8"))
    assert len(english) < len(chinese) < 60
    html = (built / "zh-CN" / "notebooks" / "zh-CN" / "01-the-loop.html").read_text()
    assert f'href="../../_static/{FONT_DIR}/{CSS}' in html
    assert re.search(rf'--font-stack: "{FAMILY}", -apple-system', html), "first in the list"


class _Loads(HTMLParser):
    """What a page loads by itself: stylesheets, scripts, images, icons."""

    def __init__(self) -> None:
        super().__init__()
        self.files: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        wanted = ("stylesheet", "icon", "shortcut icon")
        if tag == "link" and values.get("rel") in wanted and values.get("href"):
            self.files.append(str(values["href"]))
        elif tag in ("script", "img") and values.get("src"):
            self.files.append(str(values["src"]))


def first_load_bytes(page: Path) -> tuple[int, dict[str, int]]:
    """What a browser downloads to show ``page`` the first time, from the files on disk: the
    page, what it links (stylesheets, scripts, images, its icon) and the font slices that hold
    one of its characters (the slices' ``unicode-range``)."""
    parser = _Loads()
    html = page.read_text(encoding="utf-8")
    parser.feed(html)
    sizes = {page.name: page.stat().st_size}
    points = {ord(c) for c in html}
    for link in parser.files:
        if urlsplit(link).scheme:
            continue
        file = (page.parent / unquote(urlsplit(link).path)).resolve()
        sizes[link] = file.stat().st_size
        if file.name == CSS:
            for source, spans in _fonts(file.read_text(encoding="utf-8")):
                if any(start <= p <= end for p in points for start, end in spans):
                    sizes[source] = (file.parent / "files" / source).stat().st_size
    return sum(sizes.values()), sizes


@pytest.mark.parametrize(("language", "budget"), [("en", 700_000), ("zh-CN", 1_200_000)])
def test_a_lesson_page_weighs_at_most_its_budget(built: Path, language: str, budget: int) -> None:
    weights = {lesson.name: first_load_bytes(lesson_page(built, language, lesson))
               for lesson in lessons(language)}  # fmt: skip
    heaviest = max(weights, key=lambda name: weights[name][0])
    total, files = weights[heaviest]
    biggest = sorted(files.items(), key=lambda item: -item[1])[:5]
    assert total <= budget, f"{language} {heaviest}: {total} bytes; the largest: {biggest}"


def test_serve_answers_on_loopback_with_the_types_module_workers_need(built: Path) -> None:
    httpd = site.server(built, 0)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        host, port = httpd.server_address[:2]
        assert host == "127.0.0.1"
        checks = [("/index.html", "text/html"), ("/_static/course.js", "text/javascript")]
        if (built / "lite").is_dir():
            checks.append(("/lite/static/pyodide/pyodide.asm.wasm", "application/wasm"))
        for path, kind in checks:
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
    face = (
        "@font-face {\n  font-family: 'Noto Sans SC';\n  font-weight: 400;\n"
        "  src: url(./files/a.woff2) format('woff2')MORE;\n  unicode-range: U+4e00;\n}\n"
    )
    woff_too = face.replace("MORE", ", url(./files/a.woff) format('woff')")
    woff2_only = face.replace("MORE", "")
    for css, message in ((woff2_only, "1 @font-face rules but 0 sources"),
                         (woff_too, r"lacks the files its CSS names: \['a.woff2'\]")):  # fmt: skip
        archive = _font_package(tmp_path, css)
        monkeypatch.setattr(site_font, "npm_package", lambda spec, archive=archive: archive)
        with pytest.raises(RuntimeError, match=message):
            site_font.bundle_cjk_font(tmp_path / "static")
