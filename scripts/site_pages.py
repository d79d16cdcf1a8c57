"""The lesson website: stage the learner material as two Sphinx source trees and build them.

One Sphinx project per language, so each language's pages have their own sidebar, their own
next/previous order, their own search, and Sphinx's and the theme's own words in that language
(``language = "zh_CN"`` for the Chinese one): the English site at the site's root, the Chinese
one in ``zh-CN/`` (``OUT_FOLDER``). ``stage(source)`` writes ``source/en/`` and
``source/zh-CN/``, each holding what a learner may read in that language and nothing else:

* ``notebooks/<lang>/NN-*.ipynb``: the executed learner notebooks, never the solutions, in course
  order (``course_order``: each appendix after its lesson);
* every ``docs/*.md`` page of that language (``doc_pages``: ``X.zh-CN.md`` is the Chinese twin
  of ``X.md``; a page without a twin, such as the bilingual glossary, is in both), never
  ``docs/teaching/`` (the teacher's guide holds expected answers), and ``docs/images/``;
* ``index.md``: the course's home page in that language (``scripts/site_sphinx/home.<lang>.md``
  with its lesson and reference lists filled in);
* ``_diagrams/``: every Mermaid diagram of the tree as SVG (``scripts.site_mermaid``), which
  the pages hold inline, so no page loads Mermaid;
* ``_course.json``: what ``scripts/site_sphinx/conf.py`` needs to know of the other language
  (each page's twin, for the language switch).

The repository layout is kept in each tree, so the lessons' relative links
(``../../docs/GLOSSARY.md``, ``02-tools-and-registry.ipynb``) resolve unchanged. A link to the
other language (``../zh-CN/01-the-loop.ipynb``) leads to that page of the other site; a link to
README leads to the home page of README's language; a link to a repository file that is not on
the site (``tests/test_runtime.py``) keeps its text and loses the link.

``build(source, out)`` runs Sphinx with myst-nb on each tree, with the configuration in
``scripts/site_sphinx/`` (stored outputs shown, never executed; see its ``conf.py``), then
bundles the Chinese font slices the pages of each language use (``scripts.site_font``).
Sphinx's Chinese search segments text with jieba's search mode (``cut_for_search``), which
indexes a long word and the shorter dictionary words inside it (注册表 and 注册), but splits a
term jieba does not know into its parts: 工具调用 is indexed as 工具 and 调用 only, and the
search page, which looks a query up as one term, finds nothing for it. So the build hands
Sphinx a jieba dictionary of the glossary's Chinese terms (``glossary_terms``), through
Sphinx's documented ``html_search_options`` key ``dict``: each is indexed whole, and its parts
as before.
"""

from __future__ import annotations

import html
import json
import posixpath
import re
import shutil
from pathlib import Path

from scripts import site_mermaid
from scripts.site_font import FONT_DIR, bundle_cjk_font
from scripts.site_lessons import LANGUAGES, ROOT, lessons

CONF_DIR = Path(__file__).resolve().parent / "site_sphinx"
OUT_FOLDER = {"en": "", "zh-CN": "zh-CN"}
"""Where each language's site goes inside the site folder."""
SPHINX_LANGUAGE = {"en": "en", "zh-CN": "zh_CN"}
SEARCH_LANGUAGE = {"en": "en", "zh-CN": "zh"}
README = {"README.md": "en", "README.zh-CN.md": "zh-CN"}
ZH_SUFFIX = ".zh-CN.md"
CAPTIONS = {"en": ("Lessons", "Reference"), "zh-CN": ("课程", "参考")}
RUN_COURSE = {"en": "Run the course in your browser", "zh-CN": "在浏览器中运行课程"}
LITE = "lite/lab/index.html"
"""The JupyterLite edition's page, from the site's root."""
FIRST_DOCS = ("cheatsheet", "GLOSSARY")
"""The reference pages listed first, in this order; the others follow by name."""
GLOSSARY_TABLE = "| English | zh-CN | note |"
_LINK = re.compile(r"(!?)\[([^\]]*)\]\(([^)\s]+)\)")
HOME = "index.md"


def course_order(paths: list[Path]) -> list[Path]:
    """Lessons in the order a learner takes them: by number, each lesson before its appendices
    (``01-the-loop``, ``01-appendix-inside-the-loop``, ``02-...``)."""
    return sorted(paths, key=lambda p: (p.name[:2], "-appendix-" in p.name, p.name))


def doc_pages(language: str) -> list[str]:
    """The ``docs/*.md`` pages of one language, as repository paths, reference order first
    (``FIRST_DOCS``). English: every page that is not a ``.zh-CN.md`` twin; Chinese: the twin
    of each page where there is one, else the page itself (bilingual or not translated yet)."""
    names = sorted(p.name for p in (ROOT / "docs").glob("*.md"))
    english = [name for name in names if not name.endswith(ZH_SUFFIX)]
    if language == "en":
        chosen = english
    else:
        chosen = [twin if (twin := name.removesuffix(".md") + ZH_SUFFIX) in names else name
                  for name in english]  # fmt: skip
        chosen += [name for name in names if name.endswith(ZH_SUFFIX) and name not in chosen]

    def order(name: str) -> tuple[int, str]:
        stem = name.removesuffix(ZH_SUFFIX).removesuffix(".md")
        return (FIRST_DOCS.index(stem) if stem in FIRST_DOCS else len(FIRST_DOCS), name)

    return [f"docs/{name}" for name in sorted(chosen, key=order)]


def _other(language: str) -> str:
    return "zh-CN" if language == "en" else "en"


def site_path(language: str, page: str) -> str:
    """Where the page ``page`` (a path in a source tree: ``notebooks/en/01-the-loop.ipynb``)
    of ``language`` is on the site (``notebooks/en/01-the-loop.html``)."""
    html_name = posixpath.splitext(page)[0] + ".html"
    return posixpath.join(OUT_FOLDER[language], html_name) if OUT_FOLDER[language] else html_name


def twin_of(language: str, page: str, pages: dict[str, set[str]]) -> str:
    """The same page in the other language's tree: ``notebooks/en/X`` <-> ``notebooks/zh-CN/X``,
    ``docs/X.md`` <-> ``docs/X.zh-CN.md`` (or the same bilingual page), else its home page."""
    other = _other(language)
    candidates = [page]
    if page.startswith("notebooks/"):
        candidates = [f"notebooks/{other}/{posixpath.basename(page)}"]
    elif page.startswith("docs/"):
        stem = page.removesuffix(ZH_SUFFIX).removesuffix(".md")
        candidates = [stem + ZH_SUFFIX, stem + ".md"] if other == "zh-CN" else [stem + ".md"]
    return next((c for c in candidates if c in pages[other]), HOME)


def _code_html(text: str) -> str:
    """Link text for raw HTML: escaped, its `code` spans as ``<code>``."""
    parts = html.escape(text).split("`")
    return "".join(f"<code>{part}</code>" if i % 2 else part for i, part in enumerate(parts))


def _rewrite_links(markdown: str, page: str, language: str, pages: dict[str, set[str]]) -> str:
    """Markdown with every relative link from ``page`` (a path in the source tree of
    ``language``) checked: a page of this tree keeps its link, a page of the other language's
    tree is linked on that site, README becomes the home page of its language, any other
    target keeps only its text. Raises ``ValueError`` for an image that is not on the site."""

    def cross(other: str, target: str, text: str, anchor: str) -> str:
        url = posixpath.relpath(site_path(other, target),
                                posixpath.dirname(site_path(language, page)) or ".")  # fmt: skip
        href = html.escape(url + (f"#{anchor}" if anchor else ""))
        return f'<a href="{href}">{_code_html(text)}</a>'

    def one(match: re.Match[str]) -> str:
        bang, text, target = match.groups()
        if re.match(r"^[a-z]+:|^#", target):
            return match.group(0)
        path, _, anchor = target.partition("#")
        resolved = posixpath.normpath(posixpath.join(posixpath.dirname(page), path))
        if resolved in README and not bang:
            if README[resolved] == language:
                home = posixpath.relpath(HOME, posixpath.dirname(page) or ".")
                return f"[{text}]({home})"
            return cross(README[resolved], HOME, text, "")
        if resolved in pages[language]:
            return match.group(0)
        if bang:
            raise ValueError(f"{page}: image {target} is not on the site; add it to stage()")
        if resolved in pages[_other(language)]:
            return cross(_other(language), resolved, text, anchor)
        return text

    return _LINK.sub(one, markdown)


def _title(path: Path) -> str:
    """The first heading of a notebook or Markdown page."""
    if path.suffix == ".ipynb":
        notebook = json.loads(path.read_text(encoding="utf-8"))
        text = "".join(next(c for c in notebook["cells"] if c["cell_type"] == "markdown")["source"])
    else:
        text = path.read_text(encoding="utf-8")
    found = re.search(r"^#\s+(.+)$", text, flags=re.MULTILINE)
    if found is None:
        raise ValueError(f"{path} has no heading to name it by")
    return found.group(1).strip()


def heading_keys(notebook: dict[str, object]) -> list[tuple[int, int]]:
    """Each Markdown heading of a notebook, in order, as (cell number, its number in the cell):
    the same section of a lesson and of its translation has the same key (translated cells stay
    in their places) even where one language has a heading more."""
    keys = []
    for number, cell in enumerate(notebook["cells"]):  # type: ignore[arg-type]
        if cell["cell_type"] != "markdown":
            continue
        fenced, ordinal = False, 0
        for line in "".join(cell["source"]).splitlines():
            if line.lstrip().startswith(("```", "~~~")):
                fenced = not fenced
            elif not fenced and re.match(r"^#{1,6} ", line):
                keys.append((number, ordinal))
                ordinal += 1
    return keys


def section_pairs(page: Path, twin: Path) -> list[tuple[int, int]]:
    """(section number in ``page``, section number in ``twin``) for the sections the lesson and
    its translation share (``heading_keys``), sections numbered in document order."""
    mine, theirs = (heading_keys(json.loads(p.read_text(encoding="utf-8"))) for p in (page, twin))
    return [(i, theirs.index(key)) for i, key in enumerate(mine) if key in theirs]


def _toc(caption: str, pages: list[str]) -> str:
    names = [posixpath.splitext(page)[0] for page in pages]
    return "\n".join(["```{toctree}", f":caption: {caption}", ":hidden:", "", *names, "```", ""])


def _home(language: str, tree: Path, lesson_pages: list[str], docs: list[str]) -> str:
    """The home page of one language: its text with the lesson and reference lists, and the
    hidden tables of contents that make the sidebar and the next/previous order."""
    lite = posixpath.relpath(LITE, OUT_FOLDER[language] or ".")
    run = f'<a class="run-in-browser-home" href="{lite}">{RUN_COURSE[language]}</a>'
    lesson_list = "\n".join(f"- [{_title(tree / p)}]({p})" for p in lesson_pages)
    reference = "\n".join(f"- [{_title(tree / p)}]({p})" for p in docs)
    text = (CONF_DIR / f"home.{language}.md").read_text(encoding="utf-8")
    text = text.replace("{run_in_browser}", run).replace("{lessons}", lesson_list)
    text = text.replace("{reference}", reference)
    lessons_caption, reference_caption = CAPTIONS[language]
    return text + "\n" + _toc(lessons_caption, lesson_pages) + "\n" + _toc(reference_caption, docs)


def stage(source: Path) -> dict[str, Path]:
    """Write the two source trees into ``source`` (emptied first): ``source/en`` and
    ``source/zh-CN``; returns them by language. Raises ``ValueError`` when a Markdown image
    points at a file that is not staged (the page would show a broken image), and
    ``RuntimeError`` when a diagram cannot be drawn."""
    shutil.rmtree(source, ignore_errors=True)
    trees = {language: source / language for language in LANGUAGES}
    lesson_pages: dict[str, list[str]] = {}
    docs: dict[str, list[str]] = {}
    for language, tree in trees.items():
        (tree / "notebooks" / language).mkdir(parents=True)
        shutil.copytree(ROOT / "docs" / "images", tree / "docs" / "images")
        lesson_pages[language] = []
        for lesson in course_order(lessons(language)):
            page = f"notebooks/{language}/{lesson.name}"
            shutil.copy2(lesson, tree / page)
            lesson_pages[language].append(page)
        docs[language] = doc_pages(language)
        for page in docs[language]:
            shutil.copy2(ROOT / page, tree / page)
        (tree / HOME).write_text(
            _home(language, tree, lesson_pages[language], docs[language]), encoding="utf-8"
        )
        if (CONF_DIR / "locales").is_dir():
            shutil.copytree(CONF_DIR / "locales", tree / "_locales")
    files = {language: {p.relative_to(tree).as_posix() for p in tree.rglob("*") if p.is_file()}
             for language, tree in trees.items()}  # fmt: skip
    for language, tree in trees.items():
        diagrams: list[str] = []
        for page in sorted(files[language]):
            path = tree / page
            if path.suffix == ".md":
                text = _rewrite_links(path.read_text(encoding="utf-8"), page, language, files)
                path.write_text(text, encoding="utf-8")
                diagrams += site_mermaid.diagrams_in(text)
            elif path.suffix == ".ipynb":
                notebook = json.loads(path.read_text(encoding="utf-8"))
                for cell in notebook["cells"]:
                    if cell["cell_type"] == "markdown":
                        text = "".join(cell["source"])
                        cell["source"] = _rewrite_links(text, page, language, files)
                        diagrams += site_mermaid.diagrams_in(cell["source"])
                path.write_text(json.dumps(notebook, ensure_ascii=False, indent=1),
                                encoding="utf-8")  # fmt: skip
        site_mermaid.render(diagrams, tree / "_diagrams")
        documents = sorted(p for p in files[language] if p.endswith((".md", ".ipynb")))
        course = {
            "language": language,
            "folder": OUT_FOLDER[language],
            "lessons": [posixpath.splitext(p)[0] for p in lesson_pages[language]],
            "twins": {posixpath.splitext(p)[0]: site_path(_other(language),
                                                          twin_of(language, p, files))
                      for p in documents},
            "sections": str(source / "sections.json"),
            "section_pairs": {posixpath.splitext(p)[0]: section_pairs(
                ROOT / p, ROOT / f"notebooks/{_other(language)}/{posixpath.basename(p)}")
                for p in lesson_pages[language]
                if (ROOT / f"notebooks/{_other(language)}/{posixpath.basename(p)}").is_file()},
        }  # fmt: skip
        (tree / "_course.json").write_text(json.dumps(course, ensure_ascii=False, indent=1))
    return trees


def glossary_terms(glossary: str) -> list[str]:
    """The Chinese terms of the glossary's table (``docs/GLOSSARY.md``, the rows under
    ``GLOSSARY_TABLE``): each run of two or more Chinese characters of the zh-CN column, in the
    order of the table, once each. A cell that is a quotation (the chapter's slogan, in 「」) is
    a sentence, not a term, and gives none. Raises ``ValueError`` when the table is missing."""
    lines = glossary.splitlines()
    if GLOSSARY_TABLE not in lines:
        raise ValueError(f"the glossary has no table headed {GLOSSARY_TABLE!r}")
    terms: dict[str, None] = {}
    for line in lines[lines.index(GLOSSARY_TABLE) + 2 :]:
        if not line.startswith("|"):
            break
        chinese = line.split("|")[2].strip()
        if not chinese.startswith("「"):
            terms.update(dict.fromkeys(re.findall(r"[\u4e00-\u9fff]{2,}", chinese)))
    return list(terms)


def page_text(out: Path, skip: tuple[Path, ...] = ()) -> str:
    """Every character of the pages and scripts in ``out`` (its HTML and JavaScript files,
    outside the folders ``skip``): what the font the pages link must draw."""
    parts = []
    for path in sorted(out.rglob("*")):
        if path.suffix in (".html", ".js") and not any(path.is_relative_to(s) for s in skip):
            parts.append(path.read_text(encoding="utf-8", errors="ignore"))
    return "".join(sorted(set("".join(parts))))


def build(source: Path, out: Path) -> None:
    """Build each language's tree in ``source`` (``stage``) with Sphinx (HTML builder) into
    ``out`` (``OUT_FOLDER``), English first: the Chinese build reads the English pages'
    section ids (``conf.py``). Then the font slices each language's pages use.

    Raises ``RuntimeError`` when Sphinx reports an error or a warning (a broken cross-reference
    or an unreadable notebook is a warning there).
    """
    from sphinx.cmd.build import build_main

    for language in LANGUAGES:
        options = ["-D", f"language={SPHINX_LANGUAGE[language]}",
                   "-D", f"html_search_language={SEARCH_LANGUAGE[language]}"]  # fmt: skip
        if language == "zh-CN":
            # jieba's user dictionary format: a word a line (no frequency: jieba picks one that
            # keeps the word whole).
            words = source / "search-words.zh.txt"
            glossary = (ROOT / "docs" / "GLOSSARY.md").read_text(encoding="utf-8")
            words.write_text("".join(f"{t}\n" for t in glossary_terms(glossary)), encoding="utf-8")
            options += ["-D", f"html_search_options.dict={words}"]
        target = out / OUT_FOLDER[language] if OUT_FOLDER[language] else out
        status = build_main(["-b", "html", "-q", "-W", "--keep-going", "-c", str(CONF_DIR),
                             *options, "-d", str(source / "doctrees" / language),
                             str(source / language), str(target)])  # fmt: skip
        if status != 0:
            raise RuntimeError(f"sphinx-build failed (status {status}); its messages are above")
    for language in LANGUAGES:
        target = out / OUT_FOLDER[language] if OUT_FOLDER[language] else out
        others = tuple(out / f for f in OUT_FOLDER.values() if f and out / f != target)
        text = page_text(target, skip=(*others, out / "lite", target / "_static" / FONT_DIR))
        bundle_cjk_font(target / "_static" / FONT_DIR, text)
