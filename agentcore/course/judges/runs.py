"""Runs the judges share: the runtime driven by scripted models, and its records read back.

Every judge tries an answer the way the runtime would (through ``AgentRuntime`` with scripted
models, never by reading the learner's code); these are the few ways they do it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pydantic import ValidationError

from agentcore.course.judges.core import AnswerRaised
from agentcore.course.teaching_tools import WEATHER_TOOL, WeatherArguments
from agentcore.errors import (
    AgentRuntimeError,
    ModelError,
    ScriptExhaustedError,
    ToolArgumentsError,
    ToolExecutionError,
    UnknownToolError,
)
from agentcore.protocol import ModelTurn
from agentcore.runtime import AgentRun, AgentRuntime, RunResult
from agentcore.scripted import ScriptedModel
from agentcore.tools import Tool


def run(model: Any, tools: Sequence[Tool], request: str, **options: Any) -> RunResult:
    """``AgentRuntime(model, tools, **options).run(request)``; raises what the run raises."""
    return AgentRuntime(model, tools, **options).run(request)


def outcome(model: Any, tools: Sequence[Tool], request: str, **options: Any) -> Any:
    """The run's ``RunResult``, or the ``AgentRuntimeError`` it failed with."""
    try:
        return run(model, tools, request, **options)
    except AgentRuntimeError as error:
        return error


def transcript_script(turns: Sequence[ModelTurn]) -> ScriptedModel:
    """A listed script whose turn depends on the transcript alone: turn ``k`` for a transcript
    that holds ``k`` model turns, ``ScriptExhaustedError`` past the last. In a run it plays
    exactly as ``ScriptedModel(turns)``; asked twice about one transcript it answers the same,
    as a function script does, so an answer cannot tell a listed probe from the honest one by
    draining it (calling ``generate`` until it runs out). Not for a probe that must show a
    model reused across runs (lesson 06's ``smallest_max_steps``): that needs a listed script's
    state."""
    listed = tuple(turns)

    def play(messages: Sequence[Mapping[str, Any]], tools: Sequence[Any]) -> ModelTurn:
        taken = sum(1 for message in messages if message.get("role") == "assistant")
        if taken >= len(listed):
            raise ScriptExhaustedError(
                f"the script was asked for turn {taken + 1} but holds only {len(listed)}"
            )
        return listed[taken]

    return ScriptedModel(play)


def opaque(make_model: Callable[[], Any]) -> Callable[[], ScriptedModel]:
    """``make_model`` whose models all look alike from the inside: each is a ``ScriptedModel``
    of one local function that asks the real model (a listed script, a function script, a
    ``ScriptedWeatherModel``) for its turn. Judges hand these to learner code, so an answer
    cannot tell the honest probe from a guesser, or one task from another, by reading a
    model's attributes (``task``, its list of turns) instead of running it; in a grade the
    local function crosses to the player as an opaque callback, which cannot be read either."""

    def build() -> ScriptedModel:
        model = make_model()

        def generate(messages: Sequence[Mapping[str, Any]], tools: Sequence[Any]) -> Any:
            return model.generate(messages, tools)

        return ScriptedModel(generate)

    return build


def finished_run(runtime: AgentRuntime, request: str) -> AgentRun:
    """A run of ``request`` stepped to its end; a failed run keeps its error on ``run.error``."""
    started = runtime.start(request)
    for _ in started:
        pass
    return started


def call_ids(messages: Sequence[Mapping[str, Any]]) -> list[str]:
    """The ``tool_call_id`` of every tool message, in order."""
    return [str(m["tool_call_id"]) for m in messages if m.get("role") == "tool"]


def tool_names(messages: Sequence[Mapping[str, Any]]) -> list[str]:
    """The tool name of every tool message, in order."""
    return [str(m["name"]) for m in messages if m.get("role") == "tool"]


def failure_shown(error: BaseException, answer: str) -> str:
    """How a failed run's error is named in a verdict (``error``: what the run raised or kept;
    ``answer``: the learner's function that played the model). The runtime's typed error with
    what it is about: the tool and the fields, or the exception a handler or the learner's
    function raised, so a handler's ``ValueError`` is not taken for the learner's own."""
    cause = error.__cause__
    if isinstance(cause, AnswerRaised):  # the learner's function raised: name its exception
        return f"{type(cause.error).__name__} ({answer})"
    if isinstance(error, ModelError) and cause is not None:
        # the runtime's ModelError around what the learner's function, playing the model,
        # raised (a KeyError reading a message): name that exception and the function
        return f"{type(cause).__name__} ({answer})"
    if isinstance(error, ToolArgumentsError):
        fields = ", ".join(".".join(map(str, e.get("loc", ()))) or "-" for e in error.errors)
        return f"ToolArgumentsError ({error.tool}: {fields})"
    if isinstance(error, ToolExecutionError):
        raised = "" if cause is None else f": {type(cause).__name__}"
        return f"ToolExecutionError ({error.tool}{raised})"
    if isinstance(error, UnknownToolError):
        return f"UnknownToolError ({error.name})"
    return type(error).__name__


def takes_text_for_a_number(tool: Tool, field: str) -> bool:
    """Whether ``tool``'s arguments model accepts the text ``"64.4"`` for the number ``field``.

    A strict model (``ConfigDict(strict=True)``, chapter section 5.1) refuses it in Python mode
    too; the runtime validates JSON strictly either way, so only this probe tells them apart.
    Lessons 02 and 06 ask for a strict model. Never raises for a model that refuses.
    """
    try:
        tool.arguments_model.model_validate({field: "64.4"})
    except ValidationError:
        return False
    return True


def weather_tool_with(records: Mapping[str, dict[str, Any]]) -> Tool:
    """``get_teaching_weather`` with other records, so a hard-coded answer shows.

    Input: the record of each city, by city name. Output: a ``Tool`` with the teaching tool's
    name, description and arguments model; an unknown city raises ``ValueError`` in its
    handler, with the teaching tool's wording, so a verdict reads as the lesson's run would.
    """

    def other_weather(city: str) -> dict[str, Any]:
        if city not in records:
            raise ValueError(f"No teaching record for {city!r}; known cities: {sorted(records)}")
        return dict(records[city])

    return Tool(
        name=WEATHER_TOOL.name,
        description=WEATHER_TOOL.description,
        arguments_model=WeatherArguments,
        handler=other_weather,
    )
