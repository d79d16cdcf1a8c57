"""The time at the top of every lesson is the one notebooks/README.md's rule counts.

The rule, read one precise way (notebooks/README.md states this reading): each language's
learner notebook is counted on its own, from the source of every Markdown and code cell (an
output is not read word by word: the 15 seconds of its cell cover it).

- a Chinese character is one CJK ideograph (punctuation is not counted), read at 300 a minute;
- an English word is what stands between whitespace once the Chinese characters are taken
  out, when it holds a Latin letter or a digit (``print(phrase("x"))`` is one word, a table's
  ``|`` or a list's ``-`` none), read at 150 a minute, in prose and code alike;
- 15 seconds per code cell; 5 minutes per exercise (a check cell nbgrader grades);

the sum is rounded up to a multiple of 5 minutes, and both languages' headers (learner and
solution notebooks) state the larger of their two counts.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import nbformat
import pytest

from scripts.lessons import LANGUAGES, NOTEBOOKS, ROOT, lessons

CHINESE_CHARACTER = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
LATIN_OR_DIGIT = re.compile(r"[A-Za-z0-9]")
STATED = {
    "en": re.compile(r"\*\*Time:\*\* about (\d+) minutes"),
    "zh-CN": re.compile(r"\*\*用时\*\*：约 (\d+) 分钟"),
}
NAMES = [path.name for path in lessons("en")]


def english_words(text: str) -> int:
    return sum(
        1 for token in CHINESE_CHARACTER.sub(" ", text).split() if LATIN_OR_DIGIT.search(token)
    )


def reading_minutes(cells: list[Any]) -> float:
    """One language's count of a lesson, before rounding."""
    sources = [cell.source for cell in cells if cell.cell_type in ("markdown", "code")]
    characters = sum(len(CHINESE_CHARACTER.findall(source)) for source in sources)
    words = sum(english_words(source) for source in sources)
    code = [cell for cell in cells if cell.cell_type == "code"]
    exercises = [cell for cell in code if cell.metadata.get("nbgrader", {}).get("grade")]
    return words / 150 + characters / 300 + len(code) * 15 / 60 + len(exercises) * 5


def counted_minutes(name: str) -> int:
    """The time a lesson states: the larger count of its two learner notebooks, rounded up."""
    counts = [
        reading_minutes(nbformat.read(NOTEBOOKS / language / name, as_version=4).cells)
        for language in LANGUAGES
    ]
    return 5 * math.ceil(max(counts) / 5)


def stated_minutes(path: Path, language: str) -> int:
    header = nbformat.read(path, as_version=4).cells[0].source
    found = STATED[language].search(header)
    assert found, f"{path}: no stated time in the header"
    return int(found.group(1))


def test_the_count_reads_words_characters_code_cells_and_exercises() -> None:
    assert english_words('print(phrase("x"))  # a sketch | - 3 ---') == 4
    assert english_words("用 `python -m agentcore doctor` 查明，再改") == 4
    markdown = nbformat.v4.new_markdown_cell("word " * 150 + "字" * 300 + "，。")
    cell = nbformat.v4.new_code_cell("x = 1")  # 2 words: x and 1, nothing for "="
    graded = nbformat.v4.new_code_cell('check("a", "en")', metadata={"nbgrader": {"grade": True}})
    assert reading_minutes([markdown]) == 2
    assert reading_minutes([cell]) == pytest.approx(2 / 150 + 0.25)
    assert reading_minutes([graded]) == pytest.approx(2 / 150 + 0.25 + 5)


@pytest.mark.parametrize("name", NAMES)
def test_every_lesson_states_the_time_its_rule_counts(name: str) -> None:
    counted = counted_minutes(name)
    for language in LANGUAGES:
        for path in (NOTEBOOKS / language / name, NOTEBOOKS / language / "solutions" / name):
            if path.exists():
                assert stated_minutes(path, language) == counted, (
                    f"{path.relative_to(NOTEBOOKS)} states {stated_minutes(path, language)} "
                    f"minutes; the rule of notebooks/README.md counts {counted}"
                )


def test_a_lesson_core_fits_sixty_minutes() -> None:
    for name in NAMES:
        if "-appendix-" not in name:
            assert counted_minutes(name) <= 60, name


def test_the_teachers_guide_lists_the_times_the_lessons_state() -> None:
    cores: list[str] = []
    appendices: dict[str, list[str]] = {}
    for name in NAMES:  # in file order: 05's appendices "inside the adapter", then "local model"
        minutes = str(counted_minutes(name))
        if "-appendix-" in name:
            appendices.setdefault(name[:2], []).append(minutes)
        else:
            cores.append(f"{name[:2]}: {minutes}")
    english = (
        ", ".join(cores)
        + " minutes; the appendices: "
        + ", ".join(f"{n}: {' and '.join(m)}" for n, m in appendices.items())
    )
    chinese = (
        "，".join(cores).replace(": ", "：")
        + " 分钟；附录："
        + "，".join(f"{n}：{' 和 '.join(m)}" for n, m in appendices.items())
    )
    guide = ROOT / "docs" / "teaching"
    assert f"({english})" in " ".join((guide / "README.md").read_text(encoding="utf-8").split())
    assert f"（{chinese}）" in (guide / "README.zh-CN.md").read_text(encoding="utf-8")
