"""How much does the runtime cost beside the smallest honest hand-written loop?

Prints, for the scripted model and trivial tools:

* the mean time per run of the chapter's trajectory (3 model turns, 2 tool calls);
* the time per model turn for runs of 10, 100 and 1,000 turns (it should stay flat: the
  runtime freezes each message once and never copies the transcript per turn);
* the import time of ``agentcore`` beside importing pydantic and defining the three argument
  models, which a hand-written loop needs as well.

Beside each figure: the same work done by a hand-written loop (pydantic validation,
``json.dumps``, a list of dicts) in the same process, and the ratio. Nothing here asserts a
time; run it and read the figures: ``python benchmarks/bench_runtime.py``.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict

from agentcore import (
    AgentRuntime,
    Message,
    ModelTurn,
    ScriptedModel,
    ScriptedWeatherModel,
    Tool,
    ToolCall,
    ToolSchema,
    build_tools,
)


class PingArguments(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    n: int


def ping(n: int) -> dict[str, int]:
    return {"pong": n}


PING = Tool("ping", "Return the number it is given.", PingArguments, ping)


class HandWritten:
    """The smallest honest loop: validate with pydantic, dump with json, keep a list of dicts.

    Like the runtime, it prepares its tool table and schemas once, not per run.
    """

    def __init__(self, model: Any, tools: Sequence[Tool], max_steps: int) -> None:
        self.model = model
        self.by_name = {tool.name: tool for tool in tools}
        self.schemas = [tool.schema() for tool in tools]
        self.max_steps = max_steps

    def run(self, user_input: str) -> list[dict[str, Any]]:
        return hand_written_loop(self, user_input)


def hand_written_loop(setup: HandWritten, user_input: str) -> list[dict[str, Any]]:
    """One run of the hand-written loop."""
    model, by_name, schemas, max_steps = setup.model, setup.by_name, setup.schemas, setup.max_steps
    messages: list[dict[str, Any]] = [{"role": "user", "content": user_input}]
    for _ in range(max_steps):
        turn = model.generate(messages, schemas)
        if turn.final_text is not None:
            messages.append({"role": "assistant", "content": turn.final_text})
            return messages
        messages.append(
            {
                "role": "assistant",
                "content": "",
                "tool_calls": [
                    {"call_id": c.call_id, "name": c.name, "arguments": c.arguments}
                    for c in turn.tool_calls
                ],
            }
        )
        for call in turn.tool_calls:
            tool = by_name[call.name]
            arguments = tool.arguments_model.model_validate(call.arguments)
            result = tool.handler(**dict(arguments))
            content = json.dumps(result, ensure_ascii=False, allow_nan=False)
            messages.append(
                {
                    "role": "tool",
                    "tool_call_id": call.call_id,
                    "name": call.name,
                    "content": content,
                }
            )
    raise RuntimeError("max_steps exceeded")


def pinging_model(turns: int) -> ScriptedModel:
    """A model that asks for ``ping`` on every turn but the last; O(1) work per turn."""

    def decide(messages: Sequence[Message], tools: Sequence[ToolSchema]) -> ModelTurn:
        step = (len(messages) + 1) // 2  # user + (request, observation) per earlier turn
        if step >= turns:
            return ModelTurn(final_text="done")
        return ModelTurn(tool_calls=(ToolCall(f"call-{step}", "ping", {"n": step}),))

    return ScriptedModel(decide)


def best_mean(work: Callable[[], object], repeat: int, rounds: int = 5) -> float:
    """Seconds per call of ``work``: the best of ``rounds`` means over ``repeat`` calls."""
    means = []
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(repeat):
            work()
        means.append((time.perf_counter() - start) / repeat)
    return min(means)


HAND_WRITTEN_IMPORTS = """
from typing import Literal
from pydantic import BaseModel, ConfigDict, Field
class WeatherArguments(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    city: Literal["Tokyo", "Paris"] = Field(description="City.")
class CelsiusArguments(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    temperature_c: float = Field(description="Celsius.", allow_inf_nan=False)
class FahrenheitArguments(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    temperature_f: float = Field(description="Fahrenheit.", allow_inf_nan=False)
"""
"""What a hand-written loop must import and define before its first run: pydantic and the
three argument models the teaching tools use."""


def import_seconds(code: str) -> float:
    """Median seconds, over 5 fresh interpreters, to run ``code`` (an import)."""
    timed = f"import time; t = time.perf_counter()\n{code}\nprint(time.perf_counter() - t)"
    samples = [
        float(
            subprocess.run(
                [sys.executable, "-c", timed], capture_output=True, text=True, check=True
            ).stdout
        )
        for _ in range(5)
    ]
    return statistics.median(samples)


def row(label: str, runtime: float, hand: float, unit: str = "us") -> None:
    scale = 1e6 if unit == "us" else 1e3
    print(
        f"{label:<34} runtime {runtime * scale:9.1f} {unit}   "
        f"hand-written {hand * scale:9.1f} {unit}   ratio {runtime / hand:5.2f}x"
    )


def main() -> None:
    print(f"Python {sys.version.split()[0]}; best of 5 rounds; times per run or per turn\n")

    chapter_runtime = AgentRuntime(ScriptedWeatherModel(), build_tools())
    chapter_hand = HandWritten(ScriptedWeatherModel(), build_tools(), 6)
    row(
        "chapter trajectory, per run",
        best_mean(lambda: chapter_runtime.run("Tokyo in Fahrenheit?"), 2000),
        best_mean(lambda: chapter_hand.run("Tokyo in Fahrenheit?"), 2000),
    )

    for turns in (10, 100, 1000):
        repeat = max(3, 20000 // turns)
        runtime = AgentRuntime(pinging_model(turns), [PING], max_steps=turns, max_tool_calls=turns)
        hand = HandWritten(pinging_model(turns), [PING], turns)
        row(
            f"{turns:>5}-turn run, per model turn",
            best_mean(lambda runtime=runtime: runtime.run("ping"), repeat) / turns,
            best_mean(lambda hand=hand: hand.run("ping"), repeat) / turns,
        )

    row(
        "import time",
        import_seconds("import agentcore"),
        import_seconds(HAND_WRITTEN_IMPORTS),
        unit="ms",
    )
    print("\n(import time, hand-written: pydantic and the three argument models)")


if __name__ == "__main__":
    main()
