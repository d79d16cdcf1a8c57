"""What does the runtime itself cost per model turn, beside other frameworks and a plain loop?

Prints one table. Every row is the same work done by:

* **plain loop**: the baseline. A loop that shares no code and no types with agentcore: a
  scripted "model" that returns plain dicts, arguments validated with pydantic's
  ``model_validate_json``, results written with ``json.dumps``, the transcript a list of dicts;
  written as lean as a careful engineer would (everything looked up once). It shows what
  the work itself costs; it is a reference, not a target.
* **agentcore**: ``AgentRuntime`` with a ``ScriptedModel`` and ``Tool`` objects.
* **pydantic-ai** and **openai-agents**, when installed (``pip install -e ".[bench]"``): the
  same tools and the same scripted decisions, in each framework's own idiom (pydantic-ai's
  ``FunctionModel``; a custom ``agents.Model`` for openai-agents, tracing off).

Rows: the chapter's trajectory (3 model turns, 2 tool calls), per run; runs of 10, 100 and
1,000 model turns (one tool call per turn but the last), per model turn; and the import time
of each package beside ``import pydantic`` (5 fresh interpreters).

Method: 11 rounds (``--rounds``); in each round every workload of every implementation runs in
turn (interleaved, odd rounds in the reverse order, so a slower moment of a shared machine hits
all of them), and a round's figure is the mean over its repeats. Each figure is printed as the
median over the rounds with the lowest and highest beside it; a ratio (agentcore to the plain
loop, a 1,000-turn run to a 10-turn run) is taken round by round, between figures of the same
round, and printed the same way. Python's garbage collector stays on, with its default
thresholds, for every implementation (no side ever runs with it off); a table after the timings
shows what it did in each batch (``gc.callbacks``). Every implementation shares the same
handlers and pydantic argument models, defined here. Nothing here asserts a time:
``python benchmarks/bench_runtime.py``.

Targets: per model turn, agentcore's own cost under 0.5 ms (a real model turn takes hundreds
of milliseconds to seconds, so this is invisible); per run, at least 30x below pydantic-ai's
and openai-agents'; ``import agentcore`` at most 25 ms more than ``import pydantic``. The
runtime is written to be read, not tuned: these targets say how much room that leaves.
"""

from __future__ import annotations

import argparse
import gc
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


Key = tuple[str, str]
"""One timed batch: ``(workload, implementation)``, such as ``("1000-turn run", "agentcore")``."""


class CollectorLog:
    """What Python's cyclic garbage collector did during each timed batch.

    Registered in ``gc.callbacks``: every collection is counted, by generation, against the
    batch that was running when it happened (``current``), with the seconds it took. The
    collector stays on for every implementation; this only watches it. A collection that a
    batch's own allocations did not cause can land in it (the generations are shared by
    everything in the process); the interleaving spreads that over all implementations.
    """

    def __init__(self) -> None:
        self.current: Key | None = None
        self.collections: dict[Key, list[int]] = {}
        self.seconds: dict[Key, float] = {}
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if self.current is None:
            return
        if phase == "start":
            self._started = time.perf_counter()
            return
        counts = self.collections.setdefault(self.current, [0, 0, 0])
        counts[info["generation"]] += 1
        spent = time.perf_counter() - self._started
        self.seconds[self.current] = self.seconds.get(self.current, 0.0) + spent


def warm_up(runner: Runner) -> float:
    """Run once (first-call caches, lazy imports); return the seconds it took."""
    start = time.perf_counter()
    runner()
    return max(time.perf_counter() - start, 1e-9)


def interleaved_rounds(
    runners: dict[Key, Runner],
    repeats: dict[Key, int],
    rounds: int,
    collector: CollectorLog,
) -> dict[Key, list[float]]:
    """Seconds per call of every runner in each of ``rounds`` rounds, taking turns.

    In every round each runner runs ``repeats[key]`` times in a row and its figure for the
    round is the mean over those calls. Every workload of every implementation runs in every
    round, and odd rounds go through them in the reverse order: a slower moment of a shared
    machine, or a collection another batch made due, hits all of them alike, and figures of
    the same round can be divided (agentcore by the plain loop, a 1,000-turn run by a 10-turn
    run). The garbage collector stays as the process has it (on, default thresholds) for
    every batch; ``collector`` records what it did.
    """
    samples: dict[Key, list[float]] = {key: [] for key in runners}
    order = list(runners)
    for index in range(rounds):
        for key in order if index % 2 == 0 else reversed(order):
            runner, count = runners[key], repeats[key]
            collector.current = key
            start = time.perf_counter()
            for _ in range(count):
                runner()
            elapsed = time.perf_counter() - start
            collector.current = None
            samples[key].append(elapsed / count)
    return samples


def spread(values: Sequence[float], scale: float = 1.0, digits: int = 1) -> str:
    """``median [lowest-highest]`` of ``values`` times ``scale``."""
    low, middle, high = (scale * v for v in (min(values), statistics.median(values), max(values)))
    return f"{middle:.{digits}f} [{low:.{digits}f}-{high:.{digits}f}]"


def ratios(top: Sequence[float], bottom: Sequence[float]) -> list[float]:
    """Round by round: ``top[i] / bottom[i]`` (figures of the same round)."""
    return [a / b for a, b in zip(top, bottom, strict=True)]


IMPORTS = {
    "plain loop": "import pydantic",
    "agentcore": "import agentcore",
    "pydantic-ai": "import pydantic_ai",
    "openai-agents": "import agents",
}


def import_times(
    names: Sequence[str], rounds: int = 5
) -> tuple[dict[str, list[float]], list[float]]:
    """Seconds, in each of ``rounds`` fresh interpreters, of each package's import.

    Also returns what ``import agentcore`` adds to ``import pydantic`` in each round, both
    timed in the same fresh interpreter (pydantic first): the difference of two figures taken
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
    return samples, added


BASE = "plain loop"
CELL = 36
"""Width of one column of the table."""


def print_row(
    label: str, figures: dict[str, list[float]], scale: float, names: Sequence[str]
) -> None:
    """One table row: each implementation's median [lowest-highest] over the rounds and,
    beside the others, the median of their round-by-round ratio to the plain loop (for a
    single timed run, ``--all-sizes``: its ratio to the plain loop's median)."""
    cells = []
    for name in names:
        if name not in figures:
            cells.append("skipped")
        elif name == BASE:
            cells.append(spread(figures[name], scale))
        else:
            if len(figures[name]) == len(figures[BASE]):
                ratio = statistics.median(ratios(figures[name], figures[BASE]))
            else:
                ratio = statistics.median(figures[name]) / statistics.median(figures[BASE])
            cells.append(f"{spread(figures[name], scale)} {ratio:.1f}x")
    print(f"{label:<30}" + "".join(f"{cell:>{CELL}}" for cell in cells))


def print_collector(
    collector: CollectorLog, seconds: dict[Key, float], names: Sequence[str], labels: Sequence[str]
) -> None:
    """Per batch: collections of generations 0/1/2 over all rounds, and their share of the time."""
    print()
    print("garbage collector during the timed runs (all rounds): collections of generation")
    print("0/1/2, and the share of the batch's time spent in them (the collector is on for all)")
    print(f"{'':<30}" + "".join(f"{name:>{CELL}}" for name in names))
    for label in labels:
        cells = []
        for name in names:
            key = (label, name)
            if key not in seconds:
                cells.append("skipped")
                continue
            counts = collector.collections.get(key, [0, 0, 0])
            share = collector.seconds.get(key, 0.0) / seconds[key]
            cells.append(f"{counts[0]}/{counts[1]}/{counts[2]}, {share:.1%}")
        print(f"{label:<30}" + "".join(f"{cell:>{CELL}}" for cell in cells))


SLOW_RUN = 5.0
"""Seconds: a framework whose 1,000-turn run would take longer (judged linearly from its
100-turn warm-up run) is not run at 1,000 turns; the table says "skipped". With
``--all-sizes`` it is run, but timed on a single run after one warm-up run (the row says so)."""
ROUNDS = 11
"""Rounds of the interleaved timing: each figure is the median of this many."""
BUDGET = 0.25
"""Seconds: the most a framework's batch may take in one round. A framework that takes seconds
per run is timed on fewer runs a round (at least one), not skipped; the plain loop and
agentcore always run the same number of times."""


def main() -> None:
    """Run every workload through every installed implementation and print the table."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats (a smoke run)")
    parser.add_argument(
        "--rounds", type=int, default=ROUNDS, help=f"interleaved rounds (default {ROUNDS})"
    )
    parser.add_argument(
        "--all-sizes",
        action="store_true",
        help="run the frameworks at 1,000 turns too (minutes; one timed run each)",
    )
    options = parser.parse_args()
    scale = 0.1 if options.quick else 1.0
    rounds = 3 if options.quick else max(1, options.rounds)
    names = available()

    # label, decisions, tools, max_steps, model turns, runs per round
    workloads = [("chapter run (3 turns)", chapter_decision, CHAPTER_TOOLS, 6, 3, 1000)]
    for turns in (10, 100, 1000):
        workloads.append(
            (
                f"{turns}-turn run",
                pinging_decision(turns),
                PING_TOOLS,
                turns,
                turns,
                10_000 // turns,
            )
        )
    runners: dict[Key, Runner] = {}
    repeats: dict[Key, int] = {}
    once: dict[Key, float] = {}
    slow: list[str] = []
    for label, decide, tools, max_steps, turns, repeat in workloads:
        for name in names:
            framework = name not in (BASE, "agentcore")
            if turns == 1000 and framework and once[("100-turn run", name)] * 10 > SLOW_RUN:
                slow.append(name)
                continue
            key = (label, name)
            runners[key] = BUILDERS[name](decide, tools, max_steps)
            once[key] = warm_up(runners[key])
            repeats[key] = max(2, int(repeat * scale))
            if framework:  # only the frameworks are held to the budget
                repeats[key] = max(1, min(repeats[key], int(BUDGET / once[key])))
    gc.collect()  # the same start for every implementation: the set-up's garbage is gone
    tracked = len(gc.get_objects())
    collector = CollectorLog()
    gc.callbacks.append(collector)
    samples = interleaved_rounds(runners, repeats, rounds, collector)
    gc.callbacks.remove(collector)
    batch_seconds = {key: sum(values) * repeats[key] for key, values in samples.items()}

    print(
        f"Python {sys.version.split()[0]}; {rounds} interleaved rounds; each figure: median "
        "[lowest-highest] over the rounds"
    )
    print("and the median of its round-by-round ratio to the plain loop; the garbage collector")
    print(f"on for all ({tracked:,} objects tracked before the timing)")
    print(f"{'':<30}" + "".join(f"{name:>{CELL}}" for name in names))
    figures: dict[str, dict[str, list[float]]] = {}
    for label, decide, tools, max_steps, turns, _ in workloads:
        per = 1 if turns == 3 else turns  # the chapter run per run, the others per turn
        figures[label] = {
            name: [v / per for v in samples[(label, name)]]
            for name in names
            if (label, name) in samples
        }
        if turns == 1000 and options.all_sizes and slow:
            for name in slow:  # one warm-up run, then one timed run
                runner = BUILDERS[name](decide, tools, max_steps)
                warm_up(runner)
                figures[label][name] = [warm_up(runner) / turns]
            print(f"({', '.join(slow)}: one timed run at {turns} turns)")
        unit = "us/run" if turns == 3 else "us/turn"
        print_row(f"{label.replace(' (3 turns)', '')}, {unit}", figures[label], 1e6, names)
    imports, added = import_times(names)
    print_row("import, ms (plain: pydantic)", imports, 1e3, names)
    labels = [label for label, *_ in workloads]
    print_collector(collector, batch_seconds, names, labels)

    print_targets(figures, workloads, names)
    print(f"import agentcore after import pydantic: +{spread(added, 1e3)} ms (target <= 25 ms)")


TURN_BUDGET = 0.5e-3
"""Seconds: the most agentcore's own cost may be per model turn."""
FRAMEWORK_FACTOR = 30
"""How many times below each framework's cost agentcore's cost per run must be."""


def print_targets(
    figures: dict[str, dict[str, list[float]]], workloads: Sequence[Any], names: Sequence[str]
) -> None:
    """The targets, each with its figure: agentcore per model turn (under 0.5 ms) and each
    framework's cost per run divided by agentcore's, round by round (at least 30x)."""
    core = "agentcore"
    print()
    print(
        f"agentcore per model turn: median [lowest-highest] (target < {TURN_BUDGET * 1e6:.0f} us)"
    )
    for label, _, _, _, turns, _ in workloads:
        # the chapter run's figure is per run (3 turns), the others' per turn already
        per_turn = [value / 3 if turns == 3 else value for value in figures[label][core]]
        verdict = "met" if statistics.median(per_turn) < TURN_BUDGET else "MISSED"
        print(f"  {label:<34}{spread(per_turn, 1e6)} us/turn  {verdict}")
    print()
    print(
        f"framework / agentcore, per run, round by round: median [lowest-highest] "
        f"(target >= {FRAMEWORK_FACTOR}x)"
    )
    for label, *_ in workloads:
        for name in names:
            if name in (BASE, core) or name not in figures[label]:
                continue
            mine, theirs = figures[label][core], figures[label][name]
            if len(theirs) == len(mine):
                each = ratios(theirs, mine)
            else:  # a single timed run: against agentcore's median
                each = [value / statistics.median(mine) for value in theirs]
            verdict = "met" if statistics.median(each) >= FRAMEWORK_FACTOR else "MISSED"
            print(f"  {label + ', ' + name:<48}{spread(each, digits=1)}x  {verdict}")


if __name__ == "__main__":
    main()
