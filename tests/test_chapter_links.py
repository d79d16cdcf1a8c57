"""Every lesson names its source chapter and links each section it cites.

The lessons follow "Stage 01: Turn the Tool Loop into an Agent Runtime" of wds1996/Tiny-Agent
(MIT) at one commit; other versions of the chapter number their sections differently, so every
link pins that commit. ``tests/chapter_anchors.json`` holds the chapter's headings at that
commit, in both languages, with the anchor GitHub gives each one (CI cannot reach GitHub, so
the list is committed; its ``slug_rule`` is :func:`github_anchor`).

What a learner meets, checked in every notebook (both languages, learner and solution), on the
Markdown as CommonMark parses it (markdown-it-py), code spans and code blocks left out:

- the header's chapter line links the chapter, titled, in the lesson's language;
- a reference to a section (``§6.2``, ``section 4.2``, ``第 4.2 节``) and every ``本章`` ("this
  chapter") and "the chapter" is a link to that section of the chapter at the pinned commit,
  and the anchor is the one of the section the link names; Stage 00 and Stage 02, where
  named, are linked too.
"""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote, urlsplit

import nbformat
import pytest
from markdown_it import MarkdownIt

from scripts.lessons import LANGUAGES, NOTEBOOKS, ROOT, lessons, solutions

ANCHORS = json.loads((ROOT / "tests" / "chapter_anchors.json").read_text(encoding="utf-8"))
COMMIT = ANCHORS["commit"]
REPOSITORY = ANCHORS["repository"]
BLOB = f"{REPOSITORY}/blob/{COMMIT}/"
CHAPTER = {
    "en": "stages/01-react-runtime/README.md",
    "zh-CN": "stages/01-react-runtime/README.zh-CN.md",
}
STAGE = {
    (stage, language): f"stages/{folder}/README{'' if language == 'en' else '.zh-CN'}.md"
    for stage, folder in (("00", "00-foundations"), ("02", "02-workflows-routing-planning"))
    for language in LANGUAGES
}
ELSEWHERE = {
    "stages/01-react-runtime/theory/04-scope-and-production-limitations.md": "5f40c2b",
    "stages/01-react-runtime/theory/04-scope-and-production-limitations.zh-CN.md": "5f40c2b",
    "stages/06-memory-persistence-hitl": "d550375",
    "stages/07-reliability-safety": "88fe08d",
    "stages/07-reliability-safety/theory/03-timeout-retry-cancellation.md": "88fe08d",
    "stages/07-reliability-safety/theory/05-tool-permissions-and-least-privilege.md": "03bf75a",
    "stages/08-evaluation-observability": "77ffb26",
    "stages/08-evaluation-observability/theory/02-tracing-and-observability.md": "77ffb26",
}
"""Pages of the source repository outside the chapter that a lesson links (the appendix of
lesson 07: the companion note on the stage's scope, and the later stages that teach what a
production runtime adds), each pinned to the commit read (LICENSE-lessons.md credits them)."""
NOTEBOOK_PATHS = [
    path for language in LANGUAGES for path in lessons(language) + solutions(language)
]
MARKDOWN = MarkdownIt("commonmark").enable("table")
LINKED = "⟦L⟧"  # what a link into the chapter is read as when looking for unlinked references
NUMBER = r"\d+(?:\.\d+)?"
# Patterns of an unlinked reference in a lesson's prose (links into the chapter read as
# LINKED). A numbered pattern is unlinked when what it matched still holds a digit.
NUMBERED, NAMED = True, False
UNLINKED = {
    "en": [
        (re.compile(rf"§\s*{NUMBER}"), NUMBERED),
        # "section 4.2", "sections 4, 4.1 and 6.1–6.4": a list, each item linked or a number
        (
            re.compile(
                rf"\b[Ss]ections?\s+(?:{LINKED}|{NUMBER})"
                rf"(?:\s*(?:,|and|or|to|–|-)\s*(?:{LINKED}|{NUMBER}))*"
            ),
            NUMBERED,
        ),
        (re.compile(r"\bStage\s*0\d\b|\bprevious stage"), NAMED),
        (re.compile(r"\b[Tt]he chapter\b"), NAMED),  # as 本章 in the Chinese lessons
    ],
    "zh-CN": [
        (re.compile(rf"§\s*{NUMBER}"), NUMBERED),
        (re.compile(rf"{NUMBER}\s*节"), NUMBERED),
        # 第 4、4.1、4.2 节 / 节及 6.1–6.4 节: a list of sections, each item linked or a number
        (re.compile(rf"(?:第|节[及和、])(?:\s|[、，和及至–-]|{LINKED}|{NUMBER})*节"), NUMBERED),
        (re.compile(r"本章"), NAMED),
        (re.compile(r"Stage\s*0\d|第[零一二]阶段|上一阶段"), NAMED),
    ],
}
SECTION_TEXT = re.compile(
    rf"^(?:本章)?(?:§\s*|[Ss]ections?\s+|第\s*)?({NUMBER})(?:\s*节|\s+of the chapter)?$"
)


def github_anchor(heading: str) -> str:
    """The anchor GitHub gives a Markdown heading (its rendered text, e.g. without backticks).

    GitHub's rule (html-pipeline's TOC filter): lowercase; drop every character that is not a
    letter, mark, number, connector punctuation (``_``), space or ``-``; spaces become ``-``.
    CJK letters are kept. A repeated anchor in one file gets ``-1``, ``-2`` (none repeats here).
    """
    kept = (
        c
        for c in heading.strip().lower()
        if c in " -" or unicodedata.category(c)[0] in "LMN" or unicodedata.category(c) == "Pc"
    )
    return "".join(kept).replace(" ", "-")


def anchors(path: str) -> dict[str, str]:
    """Section number (``"6.2"``; ``""`` for the title) -> GitHub anchor, for one chapter file."""
    found = {}
    for heading in ANCHORS["files"][path]["headings"]:
        number = re.match(rf"^({NUMBER})\.?\s", heading["text"])
        found[number.group(1) if number else ""] = heading["anchor"]
    return found


def chapter_link(language: str, section: str = "") -> str:
    """The URL of a section of the chapter at the pinned commit (CJK in the anchor %-encoded)."""
    anchor = anchors(CHAPTER[language])[section] if section else ""
    return BLOB + CHAPTER[language] + (f"#{quote(anchor)}" if anchor else "")


def language_of(path: Path) -> str:
    return path.relative_to(NOTEBOOKS).parts[0]


def masked_texts(markdown: str) -> tuple[list[str], list[tuple[str, str]]]:
    """The prose of a Markdown cell as a reader sees it, and its links ``(text, href)``.

    Code spans, code blocks and HTML tags are left out; a link into the source repository is
    read as ``LINKED`` (so a reference inside it is not an unlinked one); other links keep their
    text. One string per paragraph, heading or table cell.
    """
    texts: list[str] = []
    links: list[tuple[str, str]] = []
    for token in MARKDOWN.parse(markdown):
        if token.type == "html_block":
            texts.append(re.sub(r"<[^>]*>", " ", token.content))
        if token.type != "inline":
            continue
        text, href, inside = [], "", ""
        for child in token.children or []:
            if child.type == "link_open":
                href, inside = str(child.attrs.get("href", "")), ""
                continue
            if child.type == "link_close":
                links.append((inside, href))
                text.append(LINKED if href.startswith(REPOSITORY) else inside)
                href = ""
                continue
            piece = {"text": child.content, "softbreak": " ", "hardbreak": " "}.get(child.type, "")
            if child.type == "code_inline":
                piece = " "
            if href:
                inside += piece
            else:
                text.append(piece)
        texts.append("".join(text))
    return texts, links


def markdown_cells(path: Path) -> list[tuple[int, Any]]:
    notebook = nbformat.read(path, as_version=4)
    return [(i, c) for i, c in enumerate(notebook.cells, 1) if c.cell_type == "markdown"]


def link_problem(text: str, href: str, language: str) -> str | None:
    """Why a link into the source repository is wrong, or None."""
    elsewhere = re.match(rf"{re.escape(REPOSITORY)}/(?:blob|tree)/([0-9a-f]{{40}})/([^#?]+)$", href)
    if elsewhere and elsewhere.group(2) in ELSEWHERE:
        wanted = ELSEWHERE[elsewhere.group(2)]
        read = elsewhere.group(1).startswith(wanted)
        return (
            None
            if read
            else f"{elsewhere.group(2)} is linked at {elsewhere.group(1)[:7]}, not {wanted}"
        )
    if not href.startswith(BLOB):
        return f"not pinned to {COMMIT[:7]}: {href}"
    parts = urlsplit(href)
    path = parts.path.split(f"/blob/{COMMIT}/", 1)[1]
    if path not in ANCHORS["files"]:
        return f"{path} is not a file the lessons follow"
    if ANCHORS["files"][path]["language"] != language:
        return f"a {language} lesson links the {ANCHORS['files'][path]['language']} {path}"
    fragment = unquote(parts.fragment)
    known = anchors(path) if ANCHORS["files"][path]["headings"] else {}
    if fragment and fragment not in known.values():
        return f"{path} has no heading #{fragment} at {COMMIT[:7]}"
    cited = SECTION_TEXT.match(text.strip())
    if cited and path == CHAPTER[language] and known.get(cited.group(1)) != fragment:
        return f"[{text}] links #{fragment}, not section {cited.group(1)}"
    return None


def test_the_anchor_rule_gives_githubs_anchors() -> None:
    # Anchors as GitHub's page of the chapter shows them.
    assert github_anchor("4.1 Why ModelTurn forces one exit") == "41-why-modelturn-forces-one-exit"
    assert (
        github_anchor("6.4 What max_steps actually counts") == "64-what-max_steps-actually-counts"
    )
    assert (
        github_anchor("7. “The Agent failed” is not a useful error category")
        == "7-the-agent-failed-is-not-a-useful-error-category"
    )
    assert (
        github_anchor("3. ReAct：不要把它学成“打印 Thought”") == "3-react不要把它学成打印-thought"
    )


def test_the_committed_anchors_follow_the_rule_and_number_the_same_sections() -> None:
    numbers = {}
    for path, entry in ANCHORS["files"].items():
        listed = [h["anchor"] for h in entry["headings"]]
        assert listed == [github_anchor(h["text"]) for h in entry["headings"]], path
        assert len(set(listed)) == len(listed), path
        numbers[path] = set(anchors(path)) if listed else set()
    english, chinese = (numbers[CHAPTER[language]] for language in LANGUAGES)
    assert english == chinese
    assert {n for n in english if "." not in n} == {""} | {str(n) for n in range(1, 15)}
    assert len(COMMIT) == 40


@pytest.mark.parametrize("path", NOTEBOOK_PATHS, ids=lambda p: p.relative_to(NOTEBOOKS).as_posix())
def test_every_chapter_reference_is_a_link_to_its_section(path: Path) -> None:
    language = language_of(path)
    problems = []
    for index, cell in markdown_cells(path):
        texts, links = masked_texts(cell.source)
        for text, href in links:
            if href.startswith(REPOSITORY) and (why := link_problem(text, href, language)):
                problems.append(f"cell {index}: {why}")
        for text in texts:
            for pattern, numbered in UNLINKED[language]:
                for found in pattern.finditer(text):
                    if not numbered or re.search(r"\d", found.group(0)):
                        problems.append(f"cell {index}: unlinked {found.group(0)!r}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("path", NOTEBOOK_PATHS, ids=lambda p: p.relative_to(NOTEBOOKS).as_posix())
def test_the_header_names_and_links_the_chapter(path: Path) -> None:
    language = language_of(path)
    header = nbformat.read(path, as_version=4).cells[0].source
    title = ANCHORS["files"][CHAPTER[language]]["title"]
    label = {"en": "**Chapter:** ", "zh-CN": "**对应章节**："}[language]
    line = next((x for x in header.split("\n") if x.startswith(label)), "")
    assert line.startswith(f"{label}[{title}]({chapter_link(language)})"), line


def cited_sections(path: Path) -> set[str]:
    """The chapter sections a notebook links (by the anchors it uses)."""
    language = language_of(path)
    number_of = {a: n for n, a in anchors(CHAPTER[language]).items()}
    found = set()
    for _, cell in markdown_cells(path):
        for _, href in masked_texts(cell.source)[1]:
            if href.startswith(BLOB + CHAPTER[language] + "#"):
                found.add(number_of.get(unquote(urlsplit(href).fragment), "?"))
    return found


@pytest.mark.parametrize("path", solutions("en"), ids=lambda p: p.name)
def test_both_languages_cite_the_same_sections_in_the_header(path: Path) -> None:
    def header_sections(p: Path) -> list[str]:
        language = language_of(p)
        line = nbformat.read(p, as_version=4).cells[0].source.split("\n")[2]
        number_of = {a: n for n, a in anchors(CHAPTER[language]).items()}
        hrefs = [h for _, h in masked_texts(line)[1] if "#" in h]
        return [number_of.get(unquote(urlsplit(h).fragment), "?") for h in hrefs]

    chinese = NOTEBOOKS / "zh-CN" / "solutions" / path.name
    assert header_sections(path) == header_sections(chinese)
    assert cited_sections(path) <= set(anchors(CHAPTER["en"]))


def test_an_unlinked_reference_and_a_wrong_anchor_are_caught() -> None:
    texts, _ = masked_texts("As section 4.2 says (see [§6.2](x)), 本章 and 第 [4](y)、4.1 节.")
    assert "section 4.2" in texts[0] and "本章" in texts[0] and "4.1 节" in texts[0]
    good = chapter_link("en", "6.2")
    assert link_problem("§6.2", good, "en") is None
    assert "not section 6.1" in str(link_problem("§6.1", good, "en"))
    assert "zh-CN lesson links the en" in str(link_problem("第 6.2 节", good, "zh-CN"))
    assert "not pinned" in str(link_problem("§6.2", good.replace(COMMIT, "7b18de9"), "en"))
    assert "no heading" in str(link_problem("§6.2", good + "x", "en"))
