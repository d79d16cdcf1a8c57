"""The stored lessons: both languages in step, really executed, stamped, and clean.

nbval (run by the README's test command over ``notebooks/``) replays every lesson and compares
outputs. These tests check what nbval cannot: that there is something to compare, that the two
languages hold the same code and outputs, that translations were reviewed against the current
English lesson, and that nothing private leaked into a stored output.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import nbformat
import pytest

from scripts.lessons import (
    LANGUAGE_SPECIFIC_TAG,
    LANGUAGES,
    WIDGET_VIEW,
    english_twin,
    lessons,
    source_hash,
)

LESSON_FILES = [
    "00-fixed-script.ipynb",
    "01-the-loop.ipynb",
    "02-tools-and-registry.ipynb",
    "03-errors.ipynb",
    "04-scripted-model-and-tests.ipynb",
    "05-deepseek-adapter.ipynb",
    "06-experiments.ipynb",
]
ALL_LESSONS = [path for language in LANGUAGES for path in lessons(language)]
ZH_LESSONS = lessons("zh-CN")


def read(path: Path) -> Any:
    return nbformat.read(path, as_version=4)


def lesson_id(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


def code_cells(notebook: Any) -> list[Any]:
    return [cell for cell in notebook.cells if cell.cell_type == "code"]


def comparable_outputs(cell: Any) -> list[Any]:
    """Outputs as nbval compares them: streams merged, no execution counts or widget views."""
    outputs: list[dict[str, Any]] = []
    for output in cell.get("outputs", []):
        output = {k: v for k, v in output.items() if k not in ("execution_count", "metadata")}
        if "data" in output:
            output["data"] = {k: v for k, v in output["data"].items() if k != WIDGET_VIEW}
        previous = outputs[-1] if outputs else None
        if (
            output.get("output_type") == "stream"
            and previous is not None
            and previous.get("output_type") == "stream"
            and previous.get("name") == output.get("name")
        ):
            previous["text"] = previous["text"] + output["text"]  # one print, split in transit
            continue
        outputs.append(output)
    return outputs


def tags(cell: Any) -> list[str]:
    return list(cell.get("metadata", {}).get("tags", []))


def test_both_languages_hold_the_seven_lessons() -> None:
    for language in LANGUAGES:
        assert [path.name for path in lessons(language)] == LESSON_FILES, language


@pytest.mark.parametrize("path", ZH_LESSONS, ids=lesson_id)
def test_code_cells_and_outputs_match_between_languages(path: Path) -> None:
    english, chinese = code_cells(read(english_twin(path))), code_cells(read(path))
    assert len(english) == len(chinese), "the two languages need the same code cells"
    for index, (en, zh) in enumerate(zip(english, chinese, strict=True)):
        where = f"{path.name} code cell {index + 1}"
        assert (LANGUAGE_SPECIFIC_TAG in tags(en)) == (LANGUAGE_SPECIFIC_TAG in tags(zh)), (
            f"{where}: tag '{LANGUAGE_SPECIFIC_TAG}' must be on both languages or neither"
        )
        if LANGUAGE_SPECIFIC_TAG in tags(en):
            continue  # allowed to differ: it prints in the lesson's language
        assert en.source == zh.source, f"{where}: code differs between en and zh-CN"
        assert comparable_outputs(en) == comparable_outputs(zh), f"{where}: outputs differ"


@pytest.mark.parametrize("path", ALL_LESSONS, ids=lesson_id)
def test_every_code_cell_ran_once_in_order(path: Path) -> None:
    # A stripped notebook would pass nbval with nothing compared; this catches it.
    cells = code_cells(read(path))
    assert cells, "a lesson without code cells"
    counts = [cell.execution_count for cell in cells]
    assert counts == list(range(1, len(cells) + 1)), (
        f"execution counts {counts}: re-execute on a fresh kernel "
        "(python -m scripts.lessons execute ...)"
    )
    assert any(cell.outputs for cell in cells), "no stored outputs at all"
    errors = [
        cell.source[:60]
        for cell in cells
        if any(output.output_type == "error" for output in cell.outputs)
    ]
    assert errors == [], f"cells stored with an uncaught error: {errors}"


@pytest.mark.parametrize("path", ZH_LESSONS, ids=lesson_id)
def test_translation_was_stamped_against_the_current_english(path: Path) -> None:
    stamp = read(path).metadata.get("agentcore", {}).get("translated_from", {})
    assert stamp.get("path") == f"notebooks/en/{path.name}"
    assert stamp.get("source_sha256") == source_hash(read(english_twin(path))), (
        "the English lesson changed since this translation was reviewed: update the "
        f"translation, then run: python -m scripts.lessons stamp notebooks/zh-CN/{path.name}"
    )


LEAKS = {
    "absolute path": re.compile(
        r"(?<![\w.])/(?:home|root|Users|tmp|work|opt|usr|var)/"
        r"|[A-Za-z]:\\\\(?:Users|Windows)"
    ),
    "memory address": re.compile(r"\b0x[0-9a-fA-F]{6,}\b"),
    "API key": re.compile(r"\bsk-[A-Za-z0-9_-]{16,}"),
    "bearer token": re.compile(r"Bearer\s+(?!\.\.\.)[A-Za-z0-9._-]{12,}"),
}


def private_names() -> list[re.Pattern[str]]:
    """This machine's user and host names, where they would show in a path or an address.

    The user name is matched only in path or address shapes, so a user called "root" does
    not flag the word "root" in printed source code.
    """
    import getpass
    import socket

    user, host = re.escape(getpass.getuser()), socket.gethostname()
    patterns = [rf"/home/{user}\b", rf"\\Users\\{user}\b", rf"\b{user}@"]
    if len(host) > 3 and host != "localhost":
        patterns.append(rf"\b{re.escape(host)}\b")
    return [re.compile(pattern) for pattern in patterns]


@pytest.mark.parametrize("path", ALL_LESSONS, ids=lesson_id)
def test_no_stored_output_leaks_paths_addresses_or_secrets(path: Path) -> None:
    private = private_names()
    for index, cell in enumerate(code_cells(read(path))):
        text = json.dumps(cell.get("outputs", []), ensure_ascii=False)
        for label, pattern in LEAKS.items():
            assert not pattern.search(text), f"code cell {index + 1} output holds an {label}"
        for pattern in private:
            assert not pattern.search(text), (
                f"code cell {index + 1} output holds this machine's user or host name"
            )


KEY_ASSIGNMENT = re.compile(r"""^\s*[A-Z_]*KEY[A-Z_]*\s*=\s*["']([^"'\n]{8,})["']""", re.MULTILINE)
"""A made-up key a lesson defines (``DEMO_KEY = "..."``): it may be sent, never shown."""


def key_runs(key: str, size: int = 8) -> set[str]:
    """Every run of ``size`` characters of ``key``: a cut key still shows one of them."""
    return {key[start : start + size] for start in range(len(key) - size + 1)}


@pytest.mark.parametrize("path", ALL_LESSONS, ids=lesson_id)
def test_no_output_or_metadata_holds_a_key_or_any_eight_characters_of_one(path: Path) -> None:
    notebook = read(path)
    keys = {key for cell in code_cells(notebook) for key in KEY_ASSIGNMENT.findall(cell.source)}
    runs = {run for key in keys for run in key_runs(key)}
    places = {"the notebook's metadata": json.dumps(notebook.metadata, ensure_ascii=False)}
    for index, cell in enumerate(notebook.cells):
        places[f"cell {index + 1}'s metadata"] = json.dumps(cell.metadata, ensure_ascii=False)
        if cell.cell_type == "code":
            places[f"cell {index + 1}'s output"] = json.dumps(cell.outputs, ensure_ascii=False)
    for where, text in places.items():
        shown = sorted(run for run in runs if run in text)
        assert not shown, f"{where} holds part of a lesson's key: {shown}"
        for label, pattern in LEAKS.items():
            assert not pattern.search(text), f"{where} holds an {label}"
