"""What does the runtime cost beside a plain loop, and beside other frameworks?

Prints one table. Every row is the same work done by:

* **plain loop**: the baseline. A loop that shares no code and no types with agentcore: a
  scripted "model" that returns plain dicts, arguments validated with pydantic's
  ``model_validate_json``, results written with ``json.dumps``, the transcript a list of dicts;
  written as lean as a careful engineer would (issue 21: everything looked up once).
* **agentcore**: ``AgentRuntime`` with a ``ScriptedModel`` and ``Tool`` objects.
* **pydantic-ai** and **openai-agents**, when installed (``pip install -e ".[bench]"``): the
  same tools and the same scripted decisions, in each framework's own idiom (pydantic-ai's
  ``FunctionModel``; a custom ``agents.Model`` for openai-agents, tracing off).

Rows: the chapter's trajectory (3 model turns, 2 tool calls), per run; runs of 10, 100 and
1,000 model turns (one tool call per turn but the last), per model turn; and the import time
of each package beside ``import pydantic`` (median of 5 fresh interpreters).

Method: each figure is the median of 5 rounds; in each round every implementation runs the
workload in turn (interleaved, so a slower moment of a shared machine hits all of them), and
a round's figure is the mean over its repeats. Every implementation shares the same handlers
and pydantic argument models, defined here. Nothing here asserts a time:
``python benchmarks/bench_runtime.py``.

Targets (issues 8 and 21): agentcore within 3x of the plain loop per run and per turn; the
per-turn cost of a 1,000-turn run at most 1.5x that of a 10-turn run; ``import agentcore`` at
most 25 ms more than ``import pydantic``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

# --- what every implementation shares: tools and the scripted decisions ---------------------


class WeatherArguments(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    city: Literal["Tokyo", "Paris"]


class CelsiusArguments(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    temperature_c: float


class PingArguments(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    n: int


def get_teaching_weather(city: Literal["Tokyo", "Paris"]) -> dict[str, Any]:
    """Read the fixed teaching record of a city."""
    record = {"Tokyo": (18.0, "cloudy"), "Paris": (12.0, "light rain")}[city]
    return {"city": city, "temperature_c": record[0], "condition": record[1]}


def celsius_to_fahrenheit(temperature_c: float) -> dict[str, float]:
    """Convert degrees Celsius to Fahrenheit."""
    return {"temperature_f": round(temperature_c * 9 / 5 + 32, 1)}


def ping(n: int) -> dict[str, int]:
    """Return the number it is given."""
    return {"pong": n}


ANSWER = "Tokyo's deterministic teaching record is 18.0°C (64.4°F), cloudy."
Decision = tuple[str, dict[str, Any]] | str
"""One scripted decision: a tool call ``(name, arguments)``, or the final text."""


def chapter_decision(step: int) -> Decision:
    """The chapter's trajectory: weather, then conversion, then the answer (step from 1)."""
    if step == 1:
        return ("get_teaching_weather", {"city": "Tokyo"})
    if step == 2:
        return ("celsius_to_fahrenheit", {"temperature_c": 18.0})
    return ANSWER


def pinging_decision(turns: int) -> Callable[[int], Decision]:
    """``turns - 1`` pings, then a final text."""

    def decide(step: int) -> Decision:
        return ("ping", {"n": step}) if step < turns else "done"

    return decide


CHAPTER_TOOLS = [
    ("get_teaching_weather", "Read a city's teaching weather.", WeatherArguments),
    ("celsius_to_fahrenheit", "Convert Celsius to Fahrenheit.", CelsiusArguments),
]
PING_TOOLS = [("ping", "Return the number it is given.", PingArguments)]
HANDLERS: dict[str, Callable[..., Any]] = {
    "get_teaching_weather": get_teaching_weather,
    "celsius_to_fahrenheit": celsius_to_fahrenheit,
    "ping": ping,
}
Runner = Callable[[], object]
"""One whole run of a workload, set up ahead (tools, model, runtime)."""


# --- the plain loop: no agentcore code or types -------------------------------------------


def plain_runner(decide: Callable[[int], Decision], tools: Sequence[Any], max_steps: int) -> Runner:
    """A plain loop over plain dicts, written lean: what a careful engineer would write.

    The same work as every other row: arguments are checked as the JSON a provider sends
    (``model_validate_json(..., strict=True)``), results written with ``json.dumps``
    (``ensure_ascii=False, allow_nan=False``), the transcript a list of dicts. Everything that
    can be looked up once is (validators, the encoder, ``append``); nothing is copied.
    """
    validators = {name: model.model_validate_json for name, _, model in tools}
    schemas = [
        {"name": name, "description": text, "parameters": model.model_json_schema()}
        for name, text, model in tools
    ]
    encode = json.JSONEncoder(ensure_ascii=False, allow_nan=False).encode
    arguments_text = json.JSONEncoder().encode

    def model(messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> dict[str, Any]:
        step = (len(messages) + 1) // 2  # user + (request, observation) per earlier turn
        decision = decide(step)
        if isinstance(decision, str):
            return {"final_text": decision}
        name, arguments = decision
        return {"tool_calls": [{"id": f"call-{step}", "name": name, "arguments": arguments}]}

    def run() -> str:
        messages: list[dict[str, Any]] = [{"role": "user", "content": "Tokyo in Fahrenheit?"}]
        append = messages.append
        for _ in range(max_steps):
            turn = model(messages, schemas)
            text = turn.get("final_text")
            if text is not None:
                append({"role": "assistant", "content": text})
                return text
            calls = turn["tool_calls"]
            append({"role": "assistant", "content": "", "tool_calls": calls})
            for call in calls:
                name = call["name"]
                arguments = validators[name](arguments_text(call["arguments"]), strict=True)
                content = encode(HANDLERS[name](**arguments.__dict__))
                append({"role": "tool", "tool_call_id": call["id"], "content": content})
        raise RuntimeError("max_steps exceeded")

    return run


# --- agentcore -------------------------------------------------------------------------------


def agentcore_runner(
    decide: Callable[[int], Decision], tools: Sequence[Any], max_steps: int
) -> Runner:
    """AgentRuntime with a ScriptedModel (a function of the transcript) and Tool objects."""
    from agentcore import AgentRuntime, ModelTurn, ScriptedModel, Tool, ToolCall

    def generate(messages: Sequence[Any], schemas: Sequence[Any]) -> ModelTurn:
        step = (len(messages) + 1) // 2
        decision = decide(step)
        if isinstance(decision, str):
            return ModelTurn(final_text=decision)
        name, arguments = decision
        return ModelTurn(tool_calls=(ToolCall(f"call-{step}", name, arguments),))

    runtime = AgentRuntime(
        ScriptedModel(generate),
        [Tool(name, text, model, HANDLERS[name]) for name, text, model in tools],
        max_steps=max_steps,
        max_tool_calls=max_steps,
    )
    return lambda: runtime.run("Tokyo in Fahrenheit?").answer


# --- pydantic-ai -----------------------------------------------------------------------------


def pydantic_ai_runner(
    decide: Callable[[int], Decision], tools: Sequence[Any], max_steps: int
) -> Runner:
    """pydantic-ai's Agent with a FunctionModel: the same decisions, the same handlers."""
    from pydantic_ai import Agent
    from pydantic_ai import Tool as PydanticAITool
    from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart
    from pydantic_ai.models.function import AgentInfo, FunctionModel
    from pydantic_ai.usage import UsageLimits

    def function(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        step = (len(messages) + 1) // 2  # request, (response, request) per earlier turn
        decision = decide(step)
        if isinstance(decision, str):
            return ModelResponse(parts=[TextPart(decision)])
        name, arguments = decision
        return ModelResponse(parts=[ToolCallPart(name, arguments, tool_call_id=f"call-{step}")])

    agent = Agent(
        FunctionModel(function),
        tools=[PydanticAITool(HANDLERS[name], takes_ctx=False) for name, _, _ in tools],
    )
    limits = UsageLimits(request_limit=max_steps + 1)
    return lambda: agent.run_sync("Tokyo in Fahrenheit?", usage_limits=limits).output


# --- openai-agents ---------------------------------------------------------------------------


def openai_agents_runner(
    decide: Callable[[int], Decision], tools: Sequence[Any], max_steps: int
) -> Runner:
    """openai-agents' Runner with a custom Model: the same decisions, the same handlers."""
    from agents import Agent, ModelResponse, Runner, function_tool, set_tracing_disabled
    from agents.models.interface import Model
    from agents.usage import Usage
    from openai.types.responses import (
        ResponseFunctionToolCall,
        ResponseOutputMessage,
        ResponseOutputText,
    )

    set_tracing_disabled(True)

    class ScriptedAgentsModel(Model):
        async def get_response(
            self, system_instructions: Any, input: Any, *args: Any, **kwargs: Any
        ) -> ModelResponse:
            step = (len(input) + 1) // 2 if isinstance(input, list) else 1
            decision = decide(step)
            if isinstance(decision, str):
                text = ResponseOutputText(type="output_text", text=decision, annotations=[])
                item: Any = ResponseOutputMessage(
                    id=f"msg-{step}",
                    type="message",
                    role="assistant",
                    status="completed",
                    content=[text],
                )
            else:
                name, arguments = decision
                item = ResponseFunctionToolCall(
                    type="function_call",
                    call_id=f"call-{step}",
                    name=name,
                    arguments=json.dumps(arguments),
                )
            return ModelResponse(output=[item], usage=Usage(), response_id=None)

        def stream_response(self, *args: Any, **kwargs: Any) -> Any:
            raise NotImplementedError

    agent = Agent(
        name="bench",
        model=ScriptedAgentsModel(),
        tools=[function_tool(HANDLERS[name]) for name, _, _ in tools],
    )

    def run() -> str:
        result = Runner.run_sync(agent, "Tokyo in Fahrenheit?", max_turns=max_steps + 1)
        return str(result.final_output)

    return run


# --- measuring -------------------------------------------------------------------------------

BUILDERS: dict[str, Callable[..., Runner]] = {
    "plain loop": plain_runner,
    "agentcore": agentcore_runner,
    "pydantic-ai": pydantic_ai_runner,
    "openai-agents": openai_agents_runner,
}


def available() -> list[str]:
    """The implementations that can run here (the frameworks are an optional extra)."""
    names = ["plain loop", "agentcore"]
    for name, module in (("pydantic-ai", "pydantic_ai"), ("openai-agents", "agents")):
        try:
            __import__(module)
        except ImportError:
            continue
        names.append(name)
    return names


def interleaved_medians(
    runners: dict[str, Runner], repeat: int, rounds: int = 5, budget: float = 0.25
) -> dict[str, float]:
    """Median over ``rounds`` of the mean seconds per call; implementations take turns.

    Each implementation runs ``repeat`` times per round, or fewer when that would take more
    than ``budget`` seconds (at least once): a framework that takes seconds per run is timed
    on fewer runs, not skipped.
    """
    repeats: dict[str, int] = {}
    for name, runner in runners.items():
        start = time.perf_counter()
        runner()  # warm up (first-call caches, lazy imports) and estimate
        once = max(time.perf_counter() - start, 1e-9)
        repeats[name] = max(1, min(repeat, int(budget / once)))
    samples: dict[str, list[float]] = {name: [] for name in runners}
    for _ in range(rounds):
        for name, runner in runners.items():
            start = time.perf_counter()
            for _ in range(repeats[name]):
                runner()
            samples[name].append((time.perf_counter() - start) / repeats[name])
    return {name: statistics.median(values) for name, values in samples.items()}


IMPORTS = {
    "plain loop": "import pydantic",
    "agentcore": "import agentcore",
    "pydantic-ai": "import pydantic_ai",
    "openai-agents": "import agents",
}


def import_medians(names: Sequence[str], rounds: int = 5) -> tuple[dict[str, float], float]:
    """Median seconds, over ``rounds`` fresh interpreters each, of each package's import.

    Also returns the median of what ``import agentcore`` adds to ``import pydantic``, both
    timed in the same fresh interpreter (pydantic first): the difference of two medians taken
    in different processes is too noisy on a shared machine.
    """
    samples: dict[str, list[float]] = {name: [] for name in names}
    added: list[float] = []
    clock = "import time; t = time.perf_counter(); {}; print(time.perf_counter() - t)"
    # As a user imports: from cached bytecode (PYTHONDONTWRITEBYTECODE would make every
    # interpreter compile agentcore's source again, while site-packages has its .pyc files).
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    for name in names:  # warm up: write the bytecode caches
        subprocess.run([sys.executable, "-c", IMPORTS[name]], env=environment, check=True)
    for _ in range(rounds):
        for name in names:
            code = clock.format(IMPORTS[name])
            if name == "agentcore":  # pydantic first, then what agentcore adds
                code = clock.format("import pydantic") + "; " + clock.format("import agentcore")
            done = subprocess.run(
                [sys.executable, "-c", code],
                env=environment,
                capture_output=True,
                text=True,
                check=True,
            )
            times = [float(line) for line in done.stdout.split()]
            samples[name].append(sum(times))
            if name == "agentcore":
                added.append(times[1])
    medians = {name: statistics.median(values) for name, values in samples.items()}
    return medians, statistics.median(added)


def print_row(label: str, figures: dict[str, float], unit: str, names: Sequence[str]) -> None:
    """One table row: each figure, and beside it its ratio to the plain loop."""
    scale = 1e6 if unit == "us" else 1e3
    base = figures["plain loop"]
    cells = []
    for name in names:
        if name not in figures:
            cells.append("skipped")
        elif name == "plain loop":
            cells.append(f"{figures[name] * scale:.1f}")
        else:
            cells.append(f"{figures[name] * scale:.1f} ({figures[name] / base:.1f}x)")
    print(f"{label:<28}" + "".join(f"{cell:>20}" for cell in cells))


SLOW_RUN = 5.0
"""Seconds: a framework whose 1,000-turn run would take longer (judged linearly from its
100-turn run) is not run at 1,000 turns; the table says "skipped". With ``--all-sizes`` it is
run, but timed on a single run after one warm-up run (the row says so)."""


def main() -> None:
    """Run every workload through every installed implementation and print the table."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats (a smoke run)")
    parser.add_argument(
        "--all-sizes",
        action="store_true",
        help="run the frameworks at 1,000 turns too (minutes; one timed run each)",
    )
    options = parser.parse_args()
    scale = 0.1 if options.quick else 1.0
    names = available()
    print(
        f"Python {sys.version.split()[0]}; medians of 5 interleaved rounds; (ratio to plain loop)"
    )
    print(f"{'':<28}" + "".join(f"{name:>20}" for name in names))

    runners = {name: BUILDERS[name](chapter_decision, CHAPTER_TOOLS, 6) for name in names}
    per_run = interleaved_medians(runners, max(3, int(1000 * scale)))
    print_row("chapter run (3 turns), us/run", per_run, "us", names)
    per_turn: dict[int, dict[str, float]] = {}
    for turns in (10, 100, 1000):
        decide = pinging_decision(turns)
        slow = {
            name
            for name in names
            if turns == 1000 and name != "agentcore" and per_turn[100][name] * 1000 > SLOW_RUN
        }
        chosen = [name for name in names if name not in slow]
        runners = {name: BUILDERS[name](decide, PING_TOOLS, turns) for name in chosen}
        repeat = max(2, int(10_000 * scale) // turns)
        figures = {k: v / turns for k, v in interleaved_medians(runners, repeat).items()}
        if options.all_sizes and slow:
            runners = {name: BUILDERS[name](decide, PING_TOOLS, turns) for name in sorted(slow)}
            single = interleaved_medians(runners, 1, rounds=1)
            figures.update({k: v / turns for k, v in single.items()})
            print(f"({', '.join(sorted(slow))}: one timed run at {turns} turns)")
        per_turn[turns] = figures
        print_row(f"{turns}-turn run, us/turn", figures, "us", names)
    imports, added = import_medians(names)
    print_row("import, ms (plain: pydantic)", imports, "ms", names)

    core = "agentcore"
    growth = per_turn[1000][core] / per_turn[10][core]
    overhead = added * 1e3
    run_ratio = per_run[core] / per_run["plain loop"]
    worst = max(figures[core] / figures["plain loop"] for figures in per_turn.values())
    print()
    print(
        f"agentcore / plain loop: per run {run_ratio:.2f}x, per turn at most {worst:.2f}x", end=""
    )
    print(" (target <= 3x)")
    print(f"agentcore per turn, 1,000-turn run / 10-turn run: {growth:.2f}x (target <= 1.5x)")
    print(f"import agentcore after import pydantic: +{overhead:.1f} ms (target <= 25 ms)")


if __name__ == "__main__":
    main()
