"""The lesson website: stage the learner material as a Sphinx source tree and build it.

``stage(source)`` copies what a learner may read, and nothing else, into ``source``:

* ``notebooks/<lang>/NN-*.ipynb``: the executed learner notebooks of both languages, found in
  the folders (``scripts.site_lessons.lessons``), never the solutions;
* ``docs/GLOSSARY.md``, ``docs/cheatsheet*.md`` and ``docs/images/``: never ``docs/teaching/``
  (the teacher's guide holds expected answers);
* ``index.md`` and ``index.zh-CN.md``: README's overview (its sections up to and including
  "Open the course") with each language's pages in a table of contents.

The repository layout is kept, so the lessons' relative links (``../../docs/GLOSSARY.md``,
``../zh-CN/01-the-loop.ipynb``) resolve on the site unchanged. A link to a repository file that
is not on the site (``tests/test_runtime.py``) keeps its text and loses the link, and links to
README become links to the home page of the same language.

``build(source, out)`` runs Sphinx with myst-nb on it, with the configuration in
``scripts/site_sphinx/`` (stored outputs shown, never executed; see its ``conf.py``). Sphinx's
Chinese search segments text with jieba's search mode (``cut_for_search``), which indexes a
long word and the shorter dictionary words inside it (注册表 and 注册), but splits a term jieba
does not know into its parts: 工具调用 is indexed as 工具 and 调用 only, and the search page,
which looks a query up as one term, finds nothing for it. So the build hands Sphinx a jieba
dictionary of the glossary's Chinese terms (``glossary_terms``), through Sphinx's documented
``html_search_options`` key ``dict``: each is indexed whole, and its parts as before.
"""

from __future__ import annotations

import json
import posixpath
import re
import shutil
import tarfile
from pathlib import Path

from scripts.site_fetch import npm_package
from scripts.site_font import bundle_cjk_font
from scripts.site_lessons import LANGUAGES, ROOT, lessons

CONF_DIR = Path(__file__).resolve().parent / "site_sphinx"
MERMAID_NPM = "mermaid@11.17.2"
"""The Mermaid release the site bundles (npm), served from ``_static/mermaid/``."""

DOCS = ("GLOSSARY.md", "cheatsheet.md", "cheatsheet.zh-CN.md")
HOME = {"en": ("README.md", "index.md"), "zh-CN": ("README.zh-CN.md", "index.zh-CN.md")}
LAST_OVERVIEW_SECTION = {"en": "## Open the course", "zh-CN": "## 打开课程"}
TOC_CAPTION = {"en": "Lessons", "zh-CN": "课程"}
REFERENCE_CAPTION = {"en": "Reference", "zh-CN": "参考"}
CHEATSHEET = {"en": "docs/cheatsheet.md", "zh-CN": "docs/cheatsheet.zh-CN.md"}
GLOSSARY_TABLE = "| English | zh-CN | note |"
_LINK = re.compile(r"(!?)\[([^\]]*)\]\(([^)\s]+)\)")


def _rewrite_links(markdown: str, page: str, site_files: set[str]) -> str:
    """Markdown with every relative link from ``page`` (a path in the site source) checked:
    README becomes the home page of its language, a target that is not on the site keeps only
    its text. Raises ``ValueError`` for an image that is not on the site."""
    depth = len(Path(page).parent.parts)

    def one(match: re.Match[str]) -> str:
        bang, text, target = match.groups()
        if re.match(r"^[a-z]+:|^#", target):
            return match.group(0)
        path, _, _anchor = target.partition("#")
        resolved = posixpath.normpath(posixpath.join(posixpath.dirname(page), path))
        for readme, home in HOME.values():
            if resolved == readme:
                return f"{bang}[{text}]({'../' * depth}{home})"
        if resolved in site_files:
            return match.group(0)
        if bang:
            raise ValueError(f"{page}: image {target} is not on the site; add it to stage()")
        return text

    return _LINK.sub(one, markdown)


def _overview(language: str) -> str:
    """README's overview in one language: everything before the section after "Open the
    course"."""
    readme = (ROOT / HOME[language][0]).read_text(encoding="utf-8")
    start = readme.index(LAST_OVERVIEW_SECTION[language])
    following = readme.find("\n## ", start + 1)
    kept = readme if following == -1 else readme[:following] + "\n"
    # Imported here, not at the top: the module is also read by tests run without the site
    # extra (they need only its plain helpers), and myst's own slug rule is in that extra.
    from mdit_py_plugins.anchors.index import slugify

    # A link to a section left out of the overview keeps its text.
    anchors = {slugify(h) for h in re.findall(r"^#+ (.+)$", kept, flags=re.MULTILINE)}
    return _LINK.sub(
        lambda m: m.group(0) if not m.group(3).startswith("#") or m.group(3)[1:] in anchors
        else m.group(2),
        kept,
    )


def _toc(language: str, pages: list[str], caption: str, hidden: bool = False) -> str:
    lines = ["```{toctree}", f":caption: {caption}", ":maxdepth: 1"]
    if hidden:
        lines.append(":hidden:")
    return "\n".join([*lines, "", *pages, "```", ""])


def stage(source: Path) -> list[Path]:
    """Copy the learner material into ``source`` (emptied first) as a Sphinx source tree.

    Returns the staged lesson notebooks. Raises ``ValueError`` when a Markdown image points at
    a file that is not staged (the page would show a broken image).
    """
    shutil.rmtree(source, ignore_errors=True)
    (source / "docs").mkdir(parents=True)
    shutil.copytree(ROOT / "docs" / "images", source / "docs" / "images")
    for name in DOCS:
        shutil.copy2(ROOT / "docs" / name, source / "docs" / name)
    staged: list[Path] = []
    for language in LANGUAGES:
        (source / "notebooks" / language).mkdir(parents=True)
        for lesson in lessons(language):
            staged.append(source / "notebooks" / language / lesson.name)
            shutil.copy2(lesson, staged[-1])
    for language in LANGUAGES:
        home = source / HOME[language][1]
        pages = [p.relative_to(source).with_suffix("").as_posix() for p in staged
                 if p.parent.name == language]  # fmt: skip
        reference = [CHEATSHEET[language].removesuffix(".md"), "docs/GLOSSARY"]
        other = [] if language != "en" else [HOME["zh-CN"][1].removesuffix(".md")]
        home.write_text(
            _overview(language)
            + "\n"
            + _toc(language, pages, TOC_CAPTION[language])
            + "\n"
            + _toc(language, reference, REFERENCE_CAPTION[language])
            + (_toc(language, other, "简体中文", hidden=True) if other else ""),
            encoding="utf-8",
        )
    site_files = {p.relative_to(source).as_posix() for p in source.rglob("*") if p.is_file()}
    for path in source.rglob("*"):
        relative = path.relative_to(source).as_posix()
        if path.suffix == ".md":
            path.write_text(
                _rewrite_links(path.read_text(encoding="utf-8"), relative, site_files),
                encoding="utf-8",
            )
        elif path.suffix == ".ipynb":
            notebook = json.loads(path.read_text(encoding="utf-8"))
            for cell in notebook["cells"]:
                if cell["cell_type"] == "markdown":
                    text = "".join(cell["source"])
                    cell["source"] = _rewrite_links(text, relative, site_files)
            path.write_text(json.dumps(notebook, ensure_ascii=False, indent=1), encoding="utf-8")
    return staged


def bundle_mermaid(static: Path) -> Path:
    """Unpack Mermaid's ES module build (the entry module and its chunks) from the npm package
    into ``static/mermaid/``; returns the entry module's path."""
    archive = npm_package(MERMAID_NPM)
    target = static / "mermaid"
    shutil.rmtree(target, ignore_errors=True)
    with tarfile.open(archive) as tar:
        for member in tar.getmembers():
            name = member.name.removeprefix("package/dist/")
            wanted = name == "mermaid.esm.min.mjs" or name.startswith("chunks/mermaid.esm.min/")
            if member.isfile() and wanted and not name.endswith(".map"):
                extracted = tar.extractfile(member)
                assert extracted is not None  # a regular file always has content
                (target / name).parent.mkdir(parents=True, exist_ok=True)
                (target / name).write_bytes(extracted.read())
    return target / "mermaid.esm.min.mjs"


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


def build(source: Path, out: Path) -> None:
    """Build the website from a staged ``source`` into ``out`` with Sphinx (HTML builder).

    Raises ``RuntimeError`` when Sphinx reports an error or a warning (a broken cross-reference
    or an unreadable notebook is a warning there).
    """
    from sphinx.cmd.build import build_main

    # jieba's user dictionary format: a word a line (no frequency: jieba picks one that keeps
    # the word whole).
    words = source.parent / "search-words.zh.txt"
    glossary = (source / "docs" / "GLOSSARY.md").read_text(encoding="utf-8")
    words.write_text("".join(f"{term}\n" for term in glossary_terms(glossary)), encoding="utf-8")
    status = build_main(["-b", "html", "-q", "-W", "--keep-going", "-c", str(CONF_DIR),
                         "-D", f"html_search_options.dict={words}",
                         "-d", str(source.parent / "doctrees"), str(source), str(out)])  # fmt: skip
    if status != 0:
        raise RuntimeError(f"sphinx-build failed (status {status}); its messages are above")
    bundle_mermaid(out / "_static")  # where conf.py's mermaid_use_local points
    bundle_cjk_font(out / "_static")  # the first of conf.py's html_css_files
