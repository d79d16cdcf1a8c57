"""Sphinx configuration of the lesson website (built by ``python -m scripts.site build``).

The pages are the executed learner notebooks, read by myst-nb with their stored outputs and
never executed (``nb_execution_mode = "off"``). One project holds both languages: the search
index uses Sphinx's Chinese splitter (jieba) because it also indexes English words, and each
page gets ``lang`` and a link to the same page in the other language (``language_switch``).
Chinese is drawn with the bundled Noto Sans SC (``scripts.site_font``): the first font of every
font list (text, code, diagrams; ``_static/course.css`` for Chinese pages). It covers U+2000
and up only, so Latin text is drawn by the fonts after it, as before.
"""

from __future__ import annotations

from typing import Any

from scripts.site_font import CSS, FAMILY, FONT_DIR

project = "agentcore-course"
author = "agentcore-course"
extensions = ["myst_nb", "sphinxcontrib.mermaid"]
root_doc = "index"
exclude_patterns = ["_build", "doctrees"]

# Stored outputs only; a lesson is never run to build the site.
nb_execution_mode = "off"
# Lessons draw diagrams as ```mermaid fences, rendered in the page by the bundled Mermaid.
myst_fence_as_directive = ["mermaid"]
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence", "html_image"]
mermaid_use_local = "mermaid/mermaid.esm.min.mjs"
mermaid_fullscreen = False
mermaid_d3_zoom = False
# The bundled font first (Chinese), then Mermaid's own list (Latin).
mermaid_init_config = {
    "startOnLoad": False,
    "fontFamily": f'"{FAMILY}", "trebuchet ms", verdana, arial, sans-serif',
}

language = "en"
html_search_language = "zh"  # jieba segments Chinese; English words are indexed as well
html_theme = "alabaster"
html_static_path = ["_static"]
templates_path = ["_templates"]
html_css_files = [f"{FONT_DIR}/{CSS}", "course.css"]
html_title = "agentcore-course"
html_show_sourcelink = False
html_copy_source = False
# The bundled font (Chinese only) before Alabaster's own font lists (Latin), so no page needs a
# CJK font on the reader's machine.
html_theme_options = {
    "nosidebar": False, "show_relbars": True,
    "font_family": f'"{FAMILY}", Georgia, serif',
    "code_font_family": f"\"{FAMILY}\", Consolas, Menlo, 'DejaVu Sans Mono', "
                        "'Bitstream Vera Sans Mono', monospace",
}  # fmt: skip
html_sidebars = {"**": ["searchbox.html", "localtoc.html", "relations.html"]}

ZH = "zh-CN"
# A page and its twin in the other language; a page with no twin switches to the other home.
_TWINS = {"index": "index.zh-CN", "docs/cheatsheet": "docs/cheatsheet.zh-CN"}
_TWINS.update({zh: en for en, zh in list(_TWINS.items())})


def language_of(pagename: str) -> str:
    """``"zh-CN"`` for a Chinese page (its name says zh-CN), else ``"en"``."""
    return ZH if ZH in pagename else "en"


def twin_of(pagename: str, pages: set[str]) -> str:
    """The same page in the other language: ``notebooks/en/X`` <-> ``notebooks/zh-CN/X``, the
    home and cheatsheet pages by name, else the other language's home page."""
    if pagename in _TWINS:
        return _TWINS[pagename]
    pairs = (("notebooks/en/", f"notebooks/{ZH}/"), (f"notebooks/{ZH}/", "notebooks/en/"))
    for mine, other in pairs:
        if pagename.startswith(mine) and pagename.replace(mine, other, 1) in pages:
            return pagename.replace(mine, other, 1)
    return "index" if language_of(pagename) == ZH else "index.zh-CN"


def _page_context(app: Any, pagename: str, templatename: str, context: dict[str, Any],
                  doctree: Any) -> None:  # fmt: skip
    language = language_of(pagename)
    context["language"] = language  # <html lang="...">: the CJK font rule keys on it
    context["switch_url"] = context["pathto"](twin_of(pagename, set(app.env.found_docs)))
    context["switch_label"] = "English" if language == ZH else "简体中文"
    context["switch_language"] = "en" if language == ZH else ZH
    lab = context["pathto"]("lite/lab/index.html", 1)  # relative: right wherever it is served
    if pagename.startswith("notebooks/"):  # the lesson itself, runnable in JupyterLite
        context["lite_url"] = f"{lab}?path={pagename}.ipynb"
        context["lite_label"] = "在浏览器中运行这节课（无需安装）" if language == ZH else (
            "Run this lesson in your browser (nothing to install)")
    elif pagename in ("index", _TWINS["index"]):  # the home page: the whole browser edition
        context["lite_url"] = lab
        context["lite_label"] = "在浏览器中运行课程（无需安装）" if language == ZH else (
            "Run the course in your browser (nothing to install)")


def setup(app: Any) -> dict[str, Any]:
    app.connect("html-page-context", _page_context)
    return {"parallel_read_safe": True}
