"""The experiments of chapter section 12 as named scenarios, and a run read as plain data.

Section 12 takes the runtime apart by changing one assumption at a time:

1. two different tool calls in one model turn (in which order do they run?), then the same
   ``call_id`` twice (where is it refused: by ``ModelTurn`` within one turn, by the runtime
   across turns);
2. a third tool, ``describe_temperature``, added without touching ``AgentRuntime.run``;
3. a handler that raises: stop the run (section 7.1) or hand the failure to the model as an
   observation, and count how many times the handler ran;
4. ``max_steps=1`` (section 6.4).

Each scenario function builds the model, the tools and a plain :class:`AgentRuntime`, and
returns an :class:`Experiment`; lesson 06's appendix, the ``ExperimentPanel`` widget and the
tests share these definitions. Every model here decides from the transcript alone, so a run
started again plays again the same way. Nothing here imports ipywidgets.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Any

from agentcore.course.snapshot import RunSnapshot
from agentcore.course.teaching_tools import (
    CONVERSION_TOOL,
    DESCRIBE_TEMPERATURE_TOOL,
    WEATHER_TOOL,
    build_tools,
)
from agentcore.course.text import Language, phrase, resolve_language
from agentcore.course.weather import ZH_CN_WORDS, ScriptedWeatherModel
from agentcore.course.weather import weather_request as _weather_request
from agentcore.errors import AgentRuntimeError, InvalidModelTurnError
from agentcore.events import RunEvent
from agentcore.protocol import ModelTurn, ToolCall, ToolSchema
from agentcore.runtime import AgentRun, AgentRuntime, ToolErrorPolicy
from agentcore.scripted import ScriptedModel, TurnFunction
from agentcore.transcript import Message
from agentcore.validation import int_at_least


class _HandlerCounter:
    """Counts the runs of one handler: the stand-in for a side effect."""

    def __init__(self) -> None:
        self.runs = 0


@dataclass(eq=False)
class Experiment:
    """One experiment of chapter section 12, ready to run or step.

    Fields: ``key`` (the scenario's name in :data:`SCENARIOS`), ``language``, ``title``,
    ``options`` (the chosen options as text, ``""`` when none), ``watch`` (one sentence:
    what to notice), ``request`` (the user input), ``runtime`` (a plain
    :class:`AgentRuntime`, ``None`` when the scenario was refused) and ``refused`` (the
    :class:`InvalidModelTurnError` raised while building the scenario's model turn, else
    ``None``).
    """

    key: str
    language: Language
    title: str
    options: str
    watch: str
    request: str
    runtime: AgentRuntime | None
    refused: InvalidModelTurnError | None = None
    _counter: _HandlerCounter | None = dataclasses.field(default=None, repr=False)
    _refused_traceback: TracebackType | None = dataclasses.field(default=None, repr=False)

    def __post_init__(self) -> None:
        if self.refused is not None:
            self._refused_traceback = self.refused.__traceback__

    @property
    def label(self) -> str:
        """The title, with the options in brackets when there are any."""
        if not self.options:
            return self.title
        return phrase(
            "experiment.with options", self.language, title=self.title, options=self.options
        )

    @property
    def handler_runs(self) -> int | None:
        """Runs of the failing handler since the last :meth:`start`; ``None`` if not counted."""
        return self._counter.runs if self._counter is not None else None

    def start(self) -> AgentRun:
        """Start a fresh run (and reset the handler count); step it or finish it.

        Raises the stored :class:`InvalidModelTurnError` when the scenario was refused.
        """
        if self.refused is not None:
            # With the traceback it was refused with: raising it again must not lengthen it.
            raise self.refused.with_traceback(self._refused_traceback)
        assert self.runtime is not None  # every scenario sets one of runtime or refused
        if self._counter is not None:
            self._counter.runs = 0
        return self.runtime.start(self.request)

    def snapshot(self, run: AgentRun | None, last_step: Sequence[RunEvent] = ()) -> RunSnapshot:
        """Read ``run`` (``None`` for a refused scenario) with the handler count."""
        if run is None:
            if self.refused is None:
                raise ValueError(f"{self.key} was not refused: pass the run to read")
            return RunSnapshot.of_refusal(self.refused, language=self.language)
        return RunSnapshot.of_run(
            run, last_step, language=self.language, handler_runs=self.handler_runs
        )

    def play(self) -> RunSnapshot:
        """Run to the end and return the final snapshot; a failed run is reported, not raised.

        A refused scenario returns its refusal (status ``"refused"``).
        """
        if self.refused is not None:
            return self.snapshot(None)
        run = self.start()
        # A failed run keeps its error on run.error, with the transcript; the snapshot shows it.
        with contextlib.suppress(AgentRuntimeError):
            run.finish()
        return self.snapshot(run)

    def __repr__(self) -> str:
        built = f"refused={self.refused!r}" if self.refused else f"runtime={self.runtime!r}"
        return f"Experiment({self.key!r}, options={self.options!r}, {built})"


def _experiment(
    key: str,
    language: Language,
    request: str,
    runtime: AgentRuntime | None,
    *,
    options: str = "",
    refused: InvalidModelTurnError | None = None,
    counter: _HandlerCounter | None = None,
) -> Experiment:
    return Experiment(
        key=key,
        language=language,
        title=phrase(f"experiment.{key}", language),
        options=options,
        watch=phrase(f"experiment watch.{key}", language),
        request=request,
        runtime=runtime,
        refused=refused,
        _counter=counter,
    )


def _observations(messages: Sequence[Message]) -> list[dict[str, Any]]:
    return [json.loads(m["content"]) for m in messages if m.get("role") == "tool"]


def _weather_call(call_id: str, city: str) -> ToolCall:
    return ToolCall(call_id, "get_teaching_weather", {"city": city})


def two_calls_in_one_turn(language: Language | None = None) -> Experiment:
    """Experiment 1a: one model turn asks for Tokyo's and Paris's weather (section 6.3).

    The model (a :class:`ScriptedModel` function of the transcript) asks for
    ``call-tokyo`` then ``call-paris`` in turn 1, and answers from both observations in
    turn 2. The runtime runs the two calls in that order, one after the other.
    Raises ``ValueError`` for an unknown ``language``.
    """
    language = resolve_language(language)

    def tokyo_and_paris(messages: Sequence[Message], tools: Sequence[ToolSchema]) -> ModelTurn:
        records = _observations(messages)
        if not records:
            return ModelTurn(
                tool_calls=(
                    _weather_call("call-tokyo", "Tokyo"),
                    _weather_call("call-paris", "Paris"),
                )
            )
        words = ZH_CN_WORDS if language == "zh-CN" else {}
        parts = [
            phrase(
                "final answer.city",
                language,
                city=words.get(r["city"], r["city"]),
                temperature=r["temperature_c"],
                condition=words.get(r["condition"], r["condition"]),
            )
            for r in records
        ]
        end = phrase("final answer.end", language)
        return ModelTurn(final_text=phrase("final answer.join", language).join(parts) + end)

    request = phrase("user request.two cities", language)
    runtime = AgentRuntime(ScriptedModel(tokyo_and_paris), build_tools())
    return _experiment("two_calls_in_one_turn", language, request, runtime)


def same_call_id_in_one_turn(language: Language | None = None) -> Experiment:
    """Experiment 1b: two calls of one turn share ``call-weather`` (section 4.2).

    Building that :class:`ModelTurn` raises :class:`InvalidModelTurnError`, so no runtime is
    made: the returned experiment holds the error in ``refused`` and its :meth:`start`
    raises it. Raises ``ValueError`` for an unknown ``language``.
    """
    language = resolve_language(language)
    request = _weather_request("Tokyo", "weather", language)
    try:
        ModelTurn(
            tool_calls=(
                _weather_call("call-weather", "Tokyo"),
                _weather_call("call-weather", "Paris"),
            )
        )
    except InvalidModelTurnError as error:
        return _experiment("same_call_id_in_one_turn", language, request, None, refused=error)
    raise AssertionError("ModelTurn accepted a repeated call_id")  # the rule is gone: say so


def same_call_id_across_turns(language: Language | None = None) -> Experiment:
    """Experiment 1c: turn 2 reuses ``call-weather`` from turn 1 (section 4.2).

    Each turn is a valid :class:`ModelTurn`; the runtime refuses turn 2 with
    :class:`InvalidModelTurnError` before its handler runs (1 tool execution, 2 model turns;
    the transcript keeps the refused request). Raises ``ValueError`` for an unknown language.
    """
    language = resolve_language(language)

    def reuse_the_id(messages: Sequence[Message], tools: Sequence[ToolSchema]) -> ModelTurn:
        records = _observations(messages)
        if not records:
            return ModelTurn(tool_calls=(_weather_call("call-weather", "Tokyo"),))
        celsius = {"temperature_c": records[0]["temperature_c"]}
        return ModelTurn(tool_calls=(ToolCall("call-weather", "celsius_to_fahrenheit", celsius),))

    runtime = AgentRuntime(ScriptedModel(reuse_the_id), build_tools())
    request = _weather_request("Tokyo", "convert", language)
    return _experiment("same_call_id_across_turns", language, request, runtime)


def third_tool(language: Language | None = None, *, registered: bool = True) -> Experiment:
    """Experiment 2: the third tool ``describe_temperature`` (section 12).

    ``ScriptedWeatherModel(task="describe")`` asks for ``call-weather``, ``call-convert``,
    ``call-describe``, then answers (64.4 °F is "mild"). Only the tool list changes; the
    runtime is a plain :class:`AgentRuntime`. With ``registered=False`` the tool is left out
    and the run fails at turn 3 with :class:`UnknownToolError`. Raises ``ValueError`` for an
    unknown ``language``, ``TypeError`` for a non-bool ``registered``.
    """
    language = resolve_language(language)
    if not isinstance(registered, bool):
        raise TypeError(f"registered must be a bool, got {registered!r}")
    tools = [*build_tools(), DESCRIBE_TEMPERATURE_TOOL] if registered else build_tools()
    model = ScriptedWeatherModel(task="describe", language=language)
    request = _weather_request("Tokyo", "describe", language)
    return _experiment(
        "third_tool",
        language,
        request,
        AgentRuntime(model, tools),
        options=f"registered={registered}",
    )


def _retrying(model: ScriptedWeatherModel, retries: int) -> TurnFunction:
    """Ask again, with a new call_id, after each failed observation, up to ``retries`` times."""

    def retry_then_give_up(messages: Sequence[Message], tools: Sequence[ToolSchema]) -> ModelTurn:
        failures = [o for o in _observations(messages) if "error" in o]
        last = messages[-1]
        if failures and last.get("role") == "tool" and len(failures) <= retries:
            requested = {
                call["call_id"]: call for m in messages for call in m.get("tool_calls") or ()
            }
            failed = requested[last["tool_call_id"]]
            retry = ToolCall(
                f"call-convert-retry-{len(failures)}", failed["name"], failed["arguments"]
            )
            return ModelTurn(tool_calls=(retry,))
        return model.generate(messages, tools)

    return retry_then_give_up


def failing_handler(
    on_tool_error: ToolErrorPolicy = "stop", *, retries: int = 0, language: Language | None = None
) -> Experiment:
    """Experiment 3: the conversion handler raises ``ConnectionError`` (sections 7.1, 12).

    The weather task runs; at turn 2 the handler of ``celsius_to_fahrenheit`` fails.

    * ``on_tool_error="stop"``: the run fails with :class:`ToolExecutionError`; the handler
      ran once.
    * ``"observe"``: the failure is recorded as an observation and the model answers that it
      could not finish; with ``retries=n`` the model first asks again ``n`` times (ids
      ``call-convert-retry-1``...), so the handler runs ``1 + n`` times, as long as the
      runtime's ``max_steps`` (6) leaves turns for them: from ``retries=4`` on, the run ends
      with :class:`MaxStepsExceeded` first (the panel offers 0-2).

    :attr:`Experiment.handler_runs` counts the handler's runs, separately from the runtime's
    counts. Raises ``ValueError`` for an unknown policy, a negative ``retries`` or an unknown
    ``language``; ``TypeError`` for a non-int ``retries``.
    """
    language = resolve_language(language)
    retries = int_at_least("retries", retries, 0)
    counter = _HandlerCounter()

    def unreliable_conversion(temperature_c: float) -> dict[str, float]:
        counter.runs += 1
        raise ConnectionError("the conversion service did not answer (a simulated outage)")

    tools = [WEATHER_TOOL, dataclasses.replace(CONVERSION_TOOL, handler=unreliable_conversion)]
    model = ScriptedModel(_retrying(ScriptedWeatherModel(language=language), retries))
    runtime = AgentRuntime(model, tools, on_tool_error=on_tool_error)
    return _experiment(
        "failing_handler",
        language,
        _weather_request("Tokyo", "convert", language),
        runtime,
        options=f"on_tool_error={on_tool_error!r}, retries={retries}",
        counter=counter,
    )


def max_steps_limit(max_steps: int = 1, *, language: Language | None = None) -> Experiment:
    """Experiment 4: the chapter's weather task under a small ``max_steps`` (section 6.4).

    The task needs 3 model turns. With ``max_steps=1`` the weather call runs and the run
    fails with :class:`MaxStepsExceeded` (1 model turn, 1 tool execution); with 3 or more it
    answers. Raises ``TypeError``/``ValueError`` for a bad ``max_steps`` (as
    :class:`AgentRuntime` does) and ``ValueError`` for an unknown ``language``.
    """
    language = resolve_language(language)
    model = ScriptedWeatherModel(language=language)
    runtime = AgentRuntime(model, build_tools(), max_steps=max_steps)
    return _experiment(
        "max_steps_limit",
        language,
        _weather_request("Tokyo", "convert", language),
        runtime,
        options=f"max_steps={max_steps}",
    )


@dataclass(frozen=True)
class Scenario:
    """A named scenario: its builder and the keyword options the builder takes.

    ``build(language=..., **options)`` returns an :class:`Experiment`; ``options`` names the
    keywords it accepts besides ``language`` (``"on_tool_error"``, ``"retries"``,
    ``"max_steps"``, ``"registered"``).
    """

    key: str
    build: Callable[..., Experiment]
    options: tuple[str, ...] = ()

    def title(self, language: Language | None = None) -> str:
        """The scenario's title in ``language``."""
        return phrase(f"experiment.{self.key}", resolve_language(language))


SCENARIOS: Mapping[str, Scenario] = {
    scenario.key: scenario
    for scenario in (
        Scenario("two_calls_in_one_turn", two_calls_in_one_turn),
        Scenario("same_call_id_in_one_turn", same_call_id_in_one_turn),
        Scenario("same_call_id_across_turns", same_call_id_across_turns),
        Scenario("third_tool", third_tool, ("registered",)),
        Scenario("failing_handler", failing_handler, ("on_tool_error", "retries")),
        Scenario("max_steps_limit", max_steps_limit, ("max_steps",)),
    )
}
"""Every scenario of section 12, in the chapter's order, by key."""


def build_experiment(key: str, *, language: Language | None = None, **options: Any) -> Experiment:
    """Build the scenario ``key`` with ``options`` (only those it takes, see :class:`Scenario`).

    Raises ``KeyError`` for an unknown key and ``TypeError`` for an option the scenario does
    not take, each naming what exists.
    """
    scenario = SCENARIOS.get(key)
    if scenario is None:
        raise KeyError(f"unknown experiment {key!r}; choose one of {list(SCENARIOS)}")
    unknown = sorted(set(options) - set(scenario.options))
    if unknown:
        raise TypeError(
            f"experiment {key!r} takes the options {list(scenario.options)}, not {unknown}"
        )
    return scenario.build(language=language, **options)
