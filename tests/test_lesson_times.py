"""The time at the top of every lesson is the one notebooks/README.md's rule counts.

The rule is counted by ``scripts/lesson_times.py`` (its docstring reads it one precise way,
as notebooks/README.md states it): each language's learner notebook on its own, from the source
of every Markdown and code cell; Markdown at 150 English words or 300 Chinese characters a
minute, a code cell's source at 50 words or 100 characters a minute, 15 seconds per code cell,
7 minutes per exercise (a check cell nbgrader grades); the sum rounded up to a multiple of 5
minutes, and both languages' headers (learner and solution notebooks) state the larger count.
README.md and README.zh-CN.md give the course's total, the sum over every lesson and appendix
that exists.
"""

from __future__ import annotations

import re

import nbformat
import pytest

from scripts.lesson_times import (
    counted_minutes,
    course_minutes,
    english_words,
    headers,
    names,
    reading_minutes,
    stated_minutes,
)
from scripts.lessons import NOTEBOOKS, ROOT

NAMES = names()
TOTAL = {
    "README.md": re.compile(r"about (\d+) h(?: (\d+) min)?"),
    "README.zh-CN.md": re.compile(r"约 (\d+) 小时(?: (\d+) 分钟)?"),
}


def test_the_count_reads_words_characters_code_cells_and_exercises() -> None:
    assert english_words('print(phrase("x"))  # a sketch | - 3 ---') == 4
    assert english_words("用 `python -m agentcore doctor` 查明，再改") == 4
    markdown = nbformat.v4.new_markdown_cell("word " * 150 + "字" * 300 + "，。")
    assert reading_minutes([markdown]) == 2
    # Code is read at a third of the speed: 2 words (x and 1, nothing for "=") and 5 characters.
    cell = nbformat.v4.new_code_cell('x = 1  # 一个变量 "值"')
    assert reading_minutes([cell]) == pytest.approx(2 / 50 + 5 / 100 + 0.25)
    graded = nbformat.v4.new_code_cell('check("a", "en")', metadata={"nbgrader": {"grade": True}})
    assert reading_minutes([graded]) == pytest.approx(2 / 50 + 0.25 + 7)


@pytest.mark.parametrize("name", NAMES)
def test_every_lesson_states_the_time_its_rule_counts(name: str) -> None:
    counted = counted_minutes(name)
    for path, language in headers(name):
        stated = stated_minutes(path, language)
        assert stated == counted, (
            f"{path.relative_to(NOTEBOOKS)} states {stated} minutes; the rule of "
            f"notebooks/README.md counts {counted} (python -m scripts.lesson_times --write)"
        )


def test_a_lesson_core_fits_ninety_minutes() -> None:
    for name in NAMES:
        if "-appendix-" not in name:
            assert counted_minutes(name) <= 90, name


@pytest.mark.parametrize("readme", TOTAL)
def test_the_readme_states_the_course_total(readme: str) -> None:
    total = course_minutes()
    found = TOTAL[readme].findall((ROOT / readme).read_text(encoding="utf-8"))
    assert len(found) == 1, f"{readme}: the course's total should be stated once"
    hours, minutes = found[0]
    assert (int(hours), int(minutes or 0)) == divmod(total, 60), (
        f"{readme} states {hours} h {minutes or 0} min; the lessons add up to {total} minutes"
    )


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
