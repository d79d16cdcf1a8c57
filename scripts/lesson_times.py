"""The time a lesson states at its top, counted by the rule of notebooks/README.md.

    python -m scripts.lesson_times            # each lesson's count and the course's total
    python -m scripts.lesson_times --write    # restate every header that states another time

The rule (notebooks/README.md gives the reasons for each number): each language's learner
notebook is counted on its own, from the source of every Markdown and code cell (an output is
not read word by word: its cell's seconds cover it).

- Markdown is read at 150 English words or 300 Chinese characters a minute;
- a code cell's source is read at a third of that, 50 words or 100 characters a minute;
- each code cell takes 15 seconds more, to run it and look at what it printed;
- each exercise (a check cell nbgrader grades) takes 7 minutes.

A Chinese character is one CJK ideograph (punctuation is not counted); an English word is what
stands between whitespace once the Chinese characters are taken out, when it holds a Latin
letter or a digit (``print(phrase("x"))`` is one word, a table's ``|`` none). The sum is
rounded up to a multiple of 5 minutes, and both languages' headers (learner and solution
notebooks) state the larger of their two counts. ``--write`` changes only the number in
markdown cell 0 (``**Time:** about N minutes`` / ``**用时**：约 N 分钟``) and leaves outputs
alone; run ``python -m scripts.lessons stamp`` afterwards, since the English header is part of
what a translation's stamp records.
"""

from __future__ import annotations

import math
import re
import sys
from pathlib import Path
from typing import Any

import nbformat

from scripts.lessons import LANGUAGES, NOTEBOOKS, ROOT, lessons

PROSE_WORDS_PER_MINUTE = 150
CODE_WORDS_PER_MINUTE = 50
CHINESE_CHARACTERS_PER_WORD = 2
SECONDS_PER_CODE_CELL = 15
MINUTES_PER_EXERCISE = 7
ROUNDED_TO = 5

CHINESE_CHARACTER = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
LATIN_OR_DIGIT = re.compile(r"[A-Za-z0-9]")
STATED = {
    "en": re.compile(r"(\*\*Time:\*\* about )(\d+)( minutes)"),
    "zh-CN": re.compile(r"(\*\*用时\*\*：约 )(\d+)( 分钟)"),
}


def english_words(text: str) -> int:
    """The English words of ``text``: whitespace-separated pieces, once the Chinese characters
    are taken out, that hold a Latin letter or a digit."""
    return sum(
        1 for token in CHINESE_CHARACTER.sub(" ", text).split() if LATIN_OR_DIGIT.search(token)
    )


def _reading(source: str, words_per_minute: int) -> float:
    characters = len(CHINESE_CHARACTER.findall(source))
    return english_words(source) / words_per_minute + characters / (
        words_per_minute * CHINESE_CHARACTERS_PER_WORD
    )


def reading_minutes(cells: list[Any]) -> float:
    """One language's count of a lesson's cells (nbformat cells), before rounding."""
    prose = sum(
        _reading(cell.source, PROSE_WORDS_PER_MINUTE)
        for cell in cells
        if cell.cell_type == "markdown"
    )
    code = [cell for cell in cells if cell.cell_type == "code"]
    exercises = [cell for cell in code if cell.metadata.get("nbgrader", {}).get("grade")]
    return (
        prose
        + sum(_reading(cell.source, CODE_WORDS_PER_MINUTE) for cell in code)
        + len(code) * SECONDS_PER_CODE_CELL / 60
        + len(exercises) * MINUTES_PER_EXERCISE
    )


def counted_minutes(name: str) -> int:
    """The time lesson ``name`` (a file name such as ``06-experiments.ipynb``) states: the
    larger count of its two learner notebooks, rounded up to a multiple of 5 minutes."""
    counts = [
        reading_minutes(nbformat.read(NOTEBOOKS / language / name, as_version=4).cells)
        for language in LANGUAGES
    ]
    return ROUNDED_TO * math.ceil(max(counts) / ROUNDED_TO)


def names() -> list[str]:
    """Every lesson and appendix, by file name, in file order."""
    return [path.name for path in lessons("en")]


def course_minutes() -> int:
    """The sum of every lesson's and appendix's counted time."""
    return sum(counted_minutes(name) for name in names())


def stated_minutes(path: Path, language: str) -> int | None:
    """The time the header (markdown cell 0) of ``path`` states, or None when it states none."""
    found = STATED[language].search(nbformat.read(path, as_version=4).cells[0].source)
    return int(found.group(2)) if found else None


def headers(name: str) -> list[tuple[Path, str]]:
    """The notebooks whose header states lesson ``name``'s time, with their language."""
    return [
        (path, language)
        for language in LANGUAGES
        for path in (NOTEBOOKS / language / name, NOTEBOOKS / language / "solutions" / name)
        if path.exists()
    ]


def write(name: str) -> list[Path]:
    """Restate lesson ``name``'s counted time in every header that states another one; return
    the notebooks changed. Raises ValueError for a header with no stated time to change."""
    minutes = str(counted_minutes(name))
    changed = []
    for path, language in headers(name):
        notebook = nbformat.read(path, as_version=4)
        header = notebook.cells[0]
        if not STATED[language].search(header.source):
            raise ValueError(
                f"{path.relative_to(ROOT)}: markdown cell 0 states no time; add "
                + ("'**Time:** about N minutes'" if language == "en" else "'**用时**：约 N 分钟'")
            )
        source = STATED[language].sub(lambda m: m.group(1) + minutes + m.group(3), header.source)
        if source != header.source:
            header.source = source
            nbformat.write(notebook, path)
            changed.append(path)
    return changed


def main(argv: list[str]) -> int:
    if argv not in ([], ["--write"]):
        print(__doc__)
        return 2
    for name in names():
        print(f"{counted_minutes(name):4d}  {name}")
        if argv:
            for path in write(name):
                print(f"      restated {path.relative_to(ROOT)}")
    total = course_minutes()
    print(f"{total:4d}  in all ({total // 60} h {total % 60} min)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
