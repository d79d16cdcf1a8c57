"""Every section the teacher's guide names in a lesson's part exists in that lesson.

The guide (docs/teaching/, both languages) names the chapter's sections ("section 9",
"第 9 节"); the lessons carry them in their headings ("(§9)", "（第 9 节）"). A section named in
the part of the guide about lesson NN must be one that lesson's headings carry, so a teacher
who looks for it finds it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "teaching"
GUIDES = {  # "section 9", "section-12 experiments"; "第 9 节", "第12节"
    "en": (GUIDE / "README.md", re.compile(r"[Ss]ection[- ](\d+(?:\.\d+)?)")),
    "zh-CN": (GUIDE / "README.zh-CN.md", re.compile(r"第 ?(\d+(?:\.\d+)?) ?节")),
}
HEADING = {"en": re.compile(r"§(\d+(?:\.\d+)?)"), "zh-CN": re.compile(r"第 (\d+(?:\.\d+)?) 节")}


def lesson_parts(text: str) -> dict[str, str]:
    """The guide's text per lesson number (its ``## NN · ...`` part)."""
    parts = re.split(r"^## ", text, flags=re.M)
    return {part[:2]: part for part in parts if re.match(r"\d\d · ", part)}


def lesson_sections(language: str, number: str) -> set[str]:
    """The chapter sections the headings of lesson ``number`` (and its appendix) carry."""
    found: set[str] = set()
    for path in (ROOT / "notebooks" / language).glob(f"{number}-*.ipynb"):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] != "markdown":
                continue
            for line in "".join(cell["source"]).splitlines():
                if line.startswith("#"):
                    found |= set(HEADING[language].findall(line))
    return found


@pytest.mark.parametrize("language", GUIDES)
def test_every_section_the_guide_names_is_in_its_lesson(language: str) -> None:
    path, named = GUIDES[language]
    parts = lesson_parts(path.read_text(encoding="utf-8"))
    assert len(parts) == 8
    missing = [
        f"lesson {number}: section {section}"
        for number, part in parts.items()
        for section in named.findall(part)
        if section not in lesson_sections(language, number)
    ]
    assert missing == []


@pytest.mark.parametrize("language", GUIDES)
def test_every_section_the_guide_names_outside_a_lesson_part_is_in_some_lesson(
    language: str,
) -> None:
    """The introduction and the parts on experiments and slides name sections too."""
    path, named = GUIDES[language]
    text = path.read_text(encoding="utf-8")
    for part in lesson_parts(text).values():
        text = text.replace(part, "")
    every = set().union(*(lesson_sections(language, f"{n:02d}") for n in range(7)))
    found = named.findall(text)
    assert "12" in found, "the guide's part on the section-12 experiments is checked"
    assert [section for section in found if section not in every] == []


def test_the_old_reference_to_a_missing_section_would_be_caught() -> None:
    assert "5" not in lesson_sections("en", "01")
    assert lesson_sections("en", "01") >= {"4", "6", "6.4"}
