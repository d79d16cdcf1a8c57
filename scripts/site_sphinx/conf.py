"""Sphinx configuration of the lesson website (built by ``python -m scripts.site build``).

One configuration for the two source trees ``scripts.site_pages.stage`` writes, one per
language; the build sets ``language`` (``en``, ``zh_CN``: Sphinx's and the theme's own words,
"Search", "Next", in that language; the extra ones the theme uses are in ``locales/``) and
``html_search_language`` (``zh``: jieba segments Chinese). The tree's ``_course.json`` tells
each page its twin in the other language.

The pages are the executed learner notebooks, read by myst-nb with their stored outputs and
never executed (``nb_execution_mode = "off"``). The theme is Furo: the lessons in course order
in the sidebar and in next/previous (the home page's tables of contents), light on a phone.
Above each page: the language switch, which keeps the section the reader is in (``course.js``;
the Chinese build gives each section of a lesson the id of the same section of the English
lesson, so both pages share their section ids), and the link that runs the lesson in the
browser edition. Diagrams are SVG drawn at build time (``scripts.site_mermaid``), inline.
Chinese is drawn with the bundled Noto Sans SC (``scripts.site_font``), first in every font
list: it covers CJK code points only, so Latin text is drawn by the fonts after it.
"""

from __future__ import annotations

import json
import posixpath
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.util.docutils import SphinxDirective

from scripts.site_font import CSS, FAMILY, FONT_DIR
from scripts.site_mermaid import diagram_html, diagram_key

project = "agentcore-course"
author = "agentcore-course"
extensions = ["myst_nb"]
root_doc = "index"
exclude_patterns = ["_diagrams", "_locales", "doctrees"]
locale_dirs = ["_locales"]

# Stored outputs only; a lesson is never run to build the site.
nb_execution_mode = "off"
# Lessons draw diagrams as ```mermaid fences: SVG drawn at build time (the directive below).
myst_fence_as_directive = ["mermaid"]
myst_heading_anchors = 4
myst_enable_extensions = ["colon_fence", "html_image"]

language = "en"
html_theme = "furo"
html_static_path = ["_static"]
templates_path = ["_templates"]
html_css_files = [f"{FONT_DIR}/{CSS}", "course.css"]
html_js_files = ["course.js"]
html_favicon = "favicon.svg"
html_show_sourcelink = False
html_copy_source = False
html_show_sphinx = False
# The bundled font (CJK code points only) first, then Furo's own lists (Latin).
_FONTS = f'"{FAMILY}", -apple-system, BlinkMacSystemFont, "Segoe UI", Helvetica, Arial, sans-serif'
_CODE_FONTS = (f'"{FAMILY}", "SFMono-Regular", Menlo, Consolas, Monaco, "Liberation Mono", '
               '"Lucida Console", monospace')  # fmt: skip
html_theme_options = {
    "light_css_variables": {"font-stack": _FONTS, "font-stack--headings": _FONTS,
                            "font-stack--monospace": _CODE_FONTS},
    "top_of_page_buttons": [],
}  # fmt: skip

ZH = "zh-CN"
TITLE = {"en": "agentcore course", ZH: "agentcore 课程"}
RUN_LESSON = {"en": "Run this lesson in your browser", ZH: "在浏览器中运行这节课"}
RUN_COURSE = {"en": "Run the course in your browser", ZH: "在浏览器中运行课程"}
SWITCH = {"en": ("简体中文", ZH), ZH: ("English", "en")}
FOOTER = {"en": "Made with Sphinx and Furo", ZH: "使用 Sphinx 和 Furo 构建"}


class Mermaid(SphinxDirective):
    """A ```` ```mermaid ```` fence: its SVG, drawn by the build into the tree's
    ``_diagrams/`` (``scripts.site_mermaid.render``), inline in the page."""

    has_content = True

    def run(self) -> list[nodes.Node]:
        code = "\n".join(self.content)
        svg = Path(self.env.srcdir) / "_diagrams" / f"{diagram_key(code)}.svg"
        if not svg.is_file():
            raise self.error(f"no SVG for this diagram in {svg.parent}: python -m scripts.site "
                             "build draws every diagram of the staged pages")  # fmt: skip
        self.env.note_dependency(str(svg))
        return [nodes.raw("", diagram_html(svg.read_text(encoding="utf-8")), format="html")]


def _course(app: Any) -> dict[str, Any]:
    return dict(json.loads((Path(app.srcdir) / "_course.json").read_text(encoding="utf-8")))


def _config(app: Any, config: Any) -> None:
    app.course = _course(app)
    config.html_title = TITLE[app.course["language"]]


def _site_path(app: Any, pagename: str) -> str:
    return posixpath.join(app.course["folder"], pagename + ".html")


def _page_context(app: Any, pagename: str, templatename: str, context: dict[str, Any],
                  doctree: Any) -> None:  # fmt: skip
    language = app.course["language"]
    context["language"] = language  # <html lang="zh-CN">, not Sphinx's zh_CN
    here = posixpath.dirname(_site_path(app, pagename)) or "."
    twin = app.course["twins"].get(pagename, app.course["twins"]["index"])
    context["switch_url"] = posixpath.relpath(twin, here)
    context["switch_label"], context["switch_language"] = SWITCH[language]
    context["footer_text"] = FOOTER[language]
    lab = posixpath.relpath("lite/lab/index.html", here)  # relative: right wherever it is served
    if pagename in app.course["lessons"]:  # the lesson itself, runnable in JupyterLite
        # Each lesson in a workspace of its own (JupyterLab's saved layout, named after the
        # lesson): JupyterLite's ``?path=`` opens the lesson, and the layout saved in the
        # browser is restored beside it, each tab with its own kernel; a restore that ends
        # after the lesson opened covers it. A layout saved for this lesson holds this lesson
        # only. (``reset`` would empty it, but JupyterLite 0.8 then drops ``path``.)
        workspace = pagename.removeprefix("notebooks/").replace("/", "-")
        context["lite_url"] = f"{lab}?path={pagename}.ipynb&workspace={workspace}"
        context["lite_label"] = RUN_LESSON[language]
    elif pagename == "index":  # the home page: the whole browser edition
        context["lite_url"] = lab
        context["lite_label"] = RUN_COURSE[language]


def _sections(doctree: Any) -> list[Any]:
    return list(doctree.findall(nodes.section))


def _record_or_share_section_ids(app: Any, doctree: Any, docname: str) -> None:
    """English build: note each page's section ids, in order. Chinese build: give each section
    of a lesson the id of the same section of its English twin (``section_pairs``), first (its
    own id stays, for the links to it)."""
    if app.course["language"] == "en":
        app.env.course_sections = getattr(app.env, "course_sections", {})
        app.env.course_sections[docname] = [s["ids"][0] for s in _sections(doctree) if s["ids"]]
        return
    path = Path(app.course["sections"])
    english = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    twin = posixpath.splitext(app.course["twins"].get(docname, ""))[0]
    theirs, mine = english.get(twin), _sections(doctree)
    if not theirs:
        return
    taken = {i for section in mine for i in section["ids"]}
    for number, their_number in app.course["section_pairs"].get(docname, []):
        if number < len(mine) and their_number < len(theirs) and theirs[their_number] not in taken:
            mine[number]["ids"].insert(0, theirs[their_number])
            taken.add(theirs[their_number])


def _write_sections(app: Any, exception: Exception | None) -> None:
    if exception is None and app.course["language"] == "en":
        Path(app.course["sections"]).write_text(
            json.dumps(getattr(app.env, "course_sections", {}), indent=1), encoding="utf-8"
        )


def setup(app: Any) -> dict[str, Any]:
    app.add_directive("mermaid", Mermaid)
    app.connect("config-inited", _config)
    app.connect("html-page-context", _page_context)
    app.connect("doctree-resolved", _record_or_share_section_ids)
    app.connect("build-finished", _write_sections)
    return {"parallel_read_safe": True}
