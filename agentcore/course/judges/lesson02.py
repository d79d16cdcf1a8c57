"""Lesson 02 (02-tools-and-registry): ``to_celsius_tool`` and ``predictions``."""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from agentcore import errors
from agentcore.course.judges.core import (
    Judgement,
    Namespace,
    draw,
    exercise,
    kind,
    plain,
    same,
    spelled,
)
from agentcore.course.judges.runs import failure_shown, outcome, takes_text_for_a_number
from agentcore.course.teaching_tools import build_tools
from agentcore.errors import AgentRuntimeError, ToolArgumentsError
from agentcore.protocol import ModelTurn, ToolCall
from agentcore.runtime import RunResult
from agentcore.scripted import ScriptedModel
from agentcore.tools import Tool, ToolRegistry

ABSOLUTE_ZERO_F = -459.67
"""The task's bound: a temperature "not below" absolute zero in °F."""


def through_runtime(tool: Tool, arguments: dict[str, Any]) -> Any:
    """Run one call of ``tool`` through the runtime: the observation dict, or the error."""
    model = ScriptedModel(
        [
            ModelTurn(tool_calls=(ToolCall("call-check", tool.name, arguments),)),
            ModelTurn(final_text="ok"),
        ]
    )
    result = outcome(model, [tool], "check")
    if isinstance(result, AgentRuntimeError):
        return result
    return json.loads(result.messages[2]["content"])


@exercise("to_celsius_tool", ("to_celsius_tool",))
def to_celsius_tool(ns: Namespace) -> Judgement:
    """``to_celsius_tool``: a ``Tool`` ``fahrenheit_to_celsius``, one field ``temperature_f``."""
    tool = ns["to_celsius_tool"]
    if not isinstance(tool, Tool):
        return False, "tool_not_a_tool", {"kind": kind(tool)}
    if tool.name != "fahrenheit_to_celsius":
        return False, "tool_name", {}
    parameters = tool.schema()["parameters"]
    if parameters.get("required") != ["temperature_f"] or list(
        parameters.get("properties", {})
    ) != ["temperature_f"]:
        return False, "tool_fields", {}
    if takes_text_for_a_number(tool, "temperature_f"):
        return False, "tool_accepted_text", {}
    good = through_runtime(tool, {"temperature_f": 64.4})
    if isinstance(good, AgentRuntimeError):  # name what failed: the handler's own exception
        return False, "tool_good_call", {"error": failure_shown(good, "to_celsius_tool")}
    # the task's own formula, on values where a wrong rounding or a swapped formula shows,
    # and on three drawn afresh for each verdict (from -400.0 to 1600.0 °F), so a table of the
    # fixed ones cannot agree
    drawn = [(draw(20001) - 4000) / 10 for _ in range(3)]
    for value in (64.4, 212.0, 100.0, 0.0, -40.0, *drawn):
        expected = {"temperature_c": round((value - 32) * 5 / 9, 1)}
        got = through_runtime(tool, {"temperature_f": value})
        if isinstance(got, AgentRuntimeError):
            shown = failure_shown(got, "to_celsius_tool")
            return False, "tool_result_failed", {"value": value, "error": shown}
        if not same(plain(got), expected):  # say what the tool gave, never what it should
            return False, "tool_result", {"value": value, "got": _shown(plain(got))}
    # the bound itself is allowed ("not below"), the value just under it is not
    if isinstance(through_runtime(tool, {"temperature_f": ABSOLUTE_ZERO_F}), AgentRuntimeError):
        return False, "tool_refused_bound", {}
    refusals: list[tuple[dict[str, Any], str]] = [
        ({"temperature_f": "64.4"}, "tool_accepted_text"),
        ({"temperature_f": ABSOLUTE_ZERO_F - 0.01}, "tool_accepted_below_bound"),
        ({"temperature_f": -500.0}, "tool_accepted_cold"),
        ({"temperature_f": 64.4, "unit": "F"}, "tool_accepted_extra"),
        ({}, "tool_accepted_missing"),
    ]
    for arguments, key in refusals:
        if not isinstance(through_runtime(tool, arguments), ToolArgumentsError):
            return False, key, {}
    return True, "tool_right", {}


def _shown(value: Any, limit: int = 80) -> str:
    """``repr(value)`` cut to ``limit`` characters, for a hint that quotes what a tool gave."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


class LessonConvertArguments(BaseModel):
    """Lesson 02's ``ConvertArguments``, as its cell defines it: the judge's own copy, so an
    answer cell that rebinds ``registry`` or empties ``calls`` cannot change the outcomes."""

    model_config = ConfigDict(extra="forbid", strict=True)

    temperature_c: float = Field(ge=-273.15, allow_inf_nan=False)
    unit: Literal["fahrenheit", "kelvin"]


def lesson_registry() -> ToolRegistry:
    """Lesson 02's ``registry``: the two teaching tools and ``convert_temperature``."""
    convert = Tool(
        name="convert_temperature",
        description="Convert a temperature from degrees Celsius to Fahrenheit or Kelvin.",
        arguments_model=LessonConvertArguments,
        handler=lambda temperature_c, unit: {"temperature": temperature_c, "unit": unit},
    )
    return ToolRegistry([*build_tools(), convert])


def lesson_calls() -> list[ToolCall]:
    """Lesson 02's five ``calls``, as its cell defines them."""
    return [
        ToolCall("call-a", "celsius_to_fahrenheit", {"temperature_c": 12.0}),
        ToolCall("call-b", "get_weather", {"city": "Tokyo"}),
        ToolCall("call-c", "get_teaching_weather", {"city": "tokyo"}),
        ToolCall("call-d", "convert_temperature", {"temperature_c": 12, "unit": "kelvin"}),
        ToolCall("call-e", "get_teaching_weather", {"city": "Tokyo", "units": "celsius"}),
    ]


def registry_outcome(call: ToolCall, registry: Any) -> str:
    """``"runs"`` or the error type name of one call through ``registry``."""
    model = ScriptedModel([ModelTurn(tool_calls=(call,)), ModelTurn(final_text="ok")])
    result = outcome(model, registry, "predict")
    return "runs" if isinstance(result, RunResult) else type(result).__name__


_ERROR_NAMES = frozenset(
    name
    for name, value in vars(errors).items()
    if isinstance(value, type) and issubclass(value, AgentRuntimeError)
)
"""The names of the runtime's typed errors (``agentcore.errors``): what a prediction may name."""


@exercise("predictions", ("my_predictions",))
def predictions(ns: Namespace) -> Judgement:
    """Lesson 02's five calls through the lesson's registry (the judge's own copies), beside
    the predictions: a dict from each call_id to ``"runs"`` or the error's type name."""
    calls, registry = lesson_calls(), lesson_registry()
    if not isinstance(ns["my_predictions"], dict):
        return False, "predictions_not_a_dict", {"kind": kind(ns["my_predictions"])}
    written = plain(ns["my_predictions"])
    # keys and words: case and surrounding blanks aside (core.spelled), nothing else
    guesses = {spelled(key): spelled(value) for key, value in written.items()}
    ids = [call.call_id for call in calls]
    # keys that are not the five call_ids: say the form
    if set(guesses) != {spelled(call_id) for call_id in ids}:
        return False, "predictions_keys", {"ids": ", ".join(ids)}
    # the form of each value before its truth: "run" or "ToolArgumentError" is a typo, and a
    # hint about the call's arguments would send the learner the wrong way
    forms = {spelled(form) for form in ("runs", *_ERROR_NAMES)}
    for call_id in ids:
        guess = guesses[spelled(call_id)]
        if not (isinstance(guess, str) and guess in forms):
            value = next(v for k, v in written.items() if spelled(k) == spelled(call_id))
            shown = {"name": f"my_predictions[{call_id!r}]", "value": repr(value)}
            return False, "predictions_value_form", shown
    wrong = [
        c
        for c in calls
        if guesses.get(spelled(c.call_id)) != spelled(registry_outcome(c, registry))
    ]
    total = len(calls)
    if wrong:
        first = wrong[0]
        hint = "hint_arguments" if first.name in registry else "hint_name"
        return (
            False,
            "predictions_wrong",
            {
                "right": total - len(wrong),
                "total": total,
                "call_id": first.call_id,
                "hint_key": hint,
            },
        )
    return True, "predictions_right", {"total": total}
