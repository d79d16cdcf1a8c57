"""README.md and README.zh-CN.md are the course's front page; docs/ holds the rest.

What is checked, and how it is counted:

* **Length.** README.md has at most 1,000 words, a word being a whitespace-separated token of
  the file as written (code blocks, links and the table included). Chinese has no spaces to
  count, so README.zh-CN.md is measured as (CJK characters / 2) + the whitespace-separated
  tokens of what is left once the CJK characters are taken out; it must stay within the same
  1,000. Two Chinese characters per English word is the ratio of the course's own reading-time
  rule (notebooks/README.md: 150 English words or 300 Chinese characters a minute).
* **Same content.** README.zh-CN.md has README.md's headings (same levels, same order) and the
  same lesson-table rows (the same lessons linked, in ``notebooks/zh-CN/`` instead of
  ``notebooks/en/``).
* **The source in the first lines.** The opening paragraph of both READMEs names the chapter the
  course is built on, its author, repository, license and the commit the lessons follow, and
  LICENSE-lessons.md credits it and keeps its MIT notice.
* **No work history.** The text a user reads (README*, docs/**/*.md, CHANGELOG.md,
  LICENSE-lessons.md, and the strings, docstrings and comments of agentcore/course/ and its
  message catalogs) speaks of the course, never of issue numbers, reviews, attackers or who
  found what (``WORK_HISTORY``).
* **Every shell command runs as written.** Each line of a shell block in README* and
  docs/**/*.md is either run verbatim by ``.ci/run`` or listed, with the reason, in the table
  of docs/validating.md, section "What CI does not run" (tests/test_readme_commands.py reads
  both).
* **Links.** Every relative link of README*, LICENSE-lessons.md, the docs/ pages and the
  teacher's guide points at a file that exists, and at a heading of it when it names one.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = {"en": ROOT / "README.md", "zh-CN": ROOT / "README.zh-CN.md"}
MAX_WORDS = 1000
CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")
CHINESE_CHARACTERS_PER_WORD = 2

SOURCE = {
    "title": "Stage 01: Turn the Tool Loop into an Agent Runtime",
    "repository": "https://github.com/wds1996/Tiny-Agent",
    "folder": "stages/01-react-runtime",
    "author": "wds1996",
    "license": "MIT",
    "commit": "11c08ee9c1243bd0fe3b64cd96363c8697409792",
}
MIT_NOTICE = ("Copyright (c) 2026 wds1996", "Permission is hereby granted, free of charge")

WORK_HISTORY = re.compile(
    r"[Ii]ssues? \d+|issue #\d+|\battack(?:er|ers)?\b|\brigs?\b|new learner|native Chinese reader"
    r"|\b[Rr]eview(?:ed|er|ers|ing)\b|\b(?:a|the|code) review (?:found|showed|asked)"
    r"|load average|this round"
    r"|这台机器|攻击者|负载平均值|平均负载|第.{1,3}位攻击者|新学员的报告"
)
"""Phrases that tell the project's own history instead of the course: issue numbers, who
attacked or reviewed what, the maintainers' machine and its load. ``review`` alone is the
lessons' own (their review questions), and is allowed."""


def words(text: str, language: str) -> float:
    """The length of ``text`` in words, as this module's docstring defines it per language."""
    if language == "en":
        return len(text.split())
    characters = len(CJK.findall(text))
    return characters / CHINESE_CHARACTERS_PER_WORD + len(CJK.sub(" ", text).split())


def headings(text: str) -> list[str]:
    """The level marks of every heading outside code blocks, in order (``##``, ``###``)."""
    prose = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    return re.findall(r"^(#+) ", prose, flags=re.M)


def lesson_rows(text: str) -> list[list[str]]:
    """The lesson table's rows, each as the notebooks its cells link to."""
    return [
        re.findall(r"\]\((notebooks/[^)]+\.ipynb)\)", line)
        for line in text.splitlines()
        if line.startswith("| [")
    ]


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def user_texts() -> dict[str, str]:
    """Every file of the front door a user reads, by its path from the root."""
    paths = [
        *README.values(),
        ROOT / "CHANGELOG.md",
        ROOT / "LICENSE-lessons.md",
        *sorted((ROOT / "docs").rglob("*.md")),
        *sorted((ROOT / "agentcore").rglob("*.py")),
        *sorted((ROOT / "agentcore" / "course" / "locale").rglob("*.po")),
    ]
    return {path.relative_to(ROOT).as_posix(): read(path) for path in paths}


@pytest.mark.parametrize("language", README)
def test_readme_is_one_screen_of_at_most_1000_words(language: str) -> None:
    counted = words(read(README[language]), language)
    assert counted <= MAX_WORDS, f"{README[language].name}: {counted:.0f} words"


def test_the_word_count_is_the_one_documented() -> None:
    assert words("one two  three\nfour", "en") == 4
    assert words("运行时 runtime", "zh-CN") == 3 / 2 + 1
    assert words("模型提议下一步。", "zh-CN") == 8 / 2


def test_the_chinese_readme_has_the_same_sections_and_lesson_rows() -> None:
    english, chinese = read(README["en"]), read(README["zh-CN"])
    assert headings(chinese) == headings(english)
    rows = lesson_rows(english)
    # one row per lesson (00-07); an appendix may have a row of its own after its lesson's
    assert len([row for row in rows if row and "-appendix-" not in row[0]]) == 8 and all(rows)
    assert lesson_rows(chinese) == [
        [link.replace("notebooks/en/", "notebooks/zh-CN/") for link in row] for row in rows
    ]


def test_the_site_finds_the_overview_it_shows() -> None:
    # scripts/site_pages.py shows each README up to and including this section.
    assert "\n## Open the course\n" in read(README["en"])
    assert "\n## 打开课程\n" in read(README["zh-CN"])


@pytest.mark.parametrize("language", README)
def test_the_first_lines_name_the_source_chapter(language: str) -> None:
    text = read(README[language])
    opening = text[: text.index("\n## ")]
    opening = " ".join(opening.split())
    for what, value in SOURCE.items():
        assert value in opening, f"{README[language].name} does not name the source's {what}"


def test_the_lesson_license_credits_the_source_and_keeps_its_notice() -> None:
    text = " ".join(read(ROOT / "LICENSE-lessons.md").split())
    for what, value in SOURCE.items():
        assert value in text, what
    for line in MIT_NOTICE:
        assert line in text
    # The companion pages of the chapter's folder, each at a commit.
    for folder in ("theory/", "advanced/", "exercises/"):
        assert re.search(re.escape(folder) + r"[^|]+\| `[0-9a-f]{40}`", text), folder


def test_the_work_history_pattern_finds_what_it_should() -> None:
    found = [
        "as issue 22 asks",
        "two rigs of a second attacker",
        "a new learner's report",
        "reviewed against the lesson",
        "the review found two gaps",
        "在这台机器上",
        "第三位攻击者",
        "load average 11-14",
    ]
    allowed = ["the review questions", "a review quiz", "grade_rigs.py", "复习题"]
    assert all(WORK_HISTORY.search(text) for text in found)
    assert not any(WORK_HISTORY.search(text) for text in allowed)


def test_no_user_facing_text_speaks_of_the_work_history() -> None:
    hits = {
        f"{name}:{text.count(chr(10), 0, match.start()) + 1}": match.group(0)
        for name, text in user_texts().items()
        for match in WORK_HISTORY.finditer(text)
    }
    assert hits == {}


LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def front_door_pages() -> list[Path]:
    return [
        *README.values(),
        ROOT / "LICENSE-lessons.md",
        *sorted((ROOT / "docs").glob("*.md")),
        *sorted((ROOT / "docs" / "teaching").glob("*.md")),
    ]


def slug(heading: str) -> str:
    """A heading's anchor as GitHub and MyST make it: lower case, punctuation dropped, spaces
    made hyphens (``## Exercises and grading`` -> ``exercises-and-grading``)."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    prose = re.sub(r"^```.*?^```", "", read(path), flags=re.S | re.M)
    return {slug(heading) for heading in re.findall(r"^#+ (.+)$", prose, flags=re.M)}


def test_the_slug_is_the_one_github_makes() -> None:
    assert slug("Exercises and grading") == "exercises-and-grading"
    assert slug("A real small model in this process: `LocalModel`") == (
        "a-real-small-model-in-this-process-localmodel"
    )
    assert slug("用 JupyterHub 带一个班") == "用-jupyterhub-带一个班"
    assert slug("选哪个小模型：PyPI 包里自带的那些") == "选哪个小模型pypi-包里自带的那些"


@pytest.mark.parametrize("path", front_door_pages(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_points_at_a_file_and_its_section(path: Path) -> None:
    prose = re.sub(r"^```.*?^```", "", read(path), flags=re.S | re.M)
    missing = []
    for target in LINK.findall(prose):
        if re.match(r"^[a-z]+:", target):
            continue
        file, _, anchor = target.partition("#")
        destination = (path.parent / file) if file else path
        if not destination.exists() or (
            anchor and destination.suffix == ".md" and anchor not in anchors(destination)
        ):
            missing.append(target)
    assert missing == []
