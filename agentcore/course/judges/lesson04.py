"""Lesson 04 (04-scripted-model-and-tests): ``check_paris_weather`` and ``compare_cities``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from agentcore.course.judges.core import (
    AnswerRaised,
    Judgement,
    Namespace,
    TimeLimitExceeded,
    error_name,
    exercise,
)
from agentcore.course.judges.runs import call_ids, run, weather_tool_with
from agentcore.course.teaching_tools import CONVERSION_TOOL, build_tools
from agentcore.course.weather import ScriptedWeatherModel
from agentcore.errors import AgentRuntimeError
from agentcore.protocol import ModelTurn, ToolCall
from agentcore.scripted import ScriptedModel


def paris_models() -> dict[str, tuple[Callable[[], Any], str]]:
    """Models a Paris weather check must fail, each with the message that says what it missed:
    the guesser and the double lookup get the answer right but not the path; the last one
    takes the right path to a wrong answer (a check of the trajectory alone passes it)."""
    answer = "Paris's deterministic teaching record is 12.0°C, light rain."
    look = ToolCall("call-weather", "get_teaching_weather", {"city": "Paris"})
    again = ToolCall("call-weather-2", "get_teaching_weather", {"city": "Paris"})
    return {
        "model_guesser": (
            lambda: ScriptedModel([ModelTurn(final_text=answer)]),
            "paris_passed_guesser",
        ),
        "model_twice": (
            lambda: ScriptedModel(
                [
                    ModelTurn(tool_calls=(look,)),
                    ModelTurn(tool_calls=(again,)),
                    ModelTurn(final_text=answer),
                ]
            ),
            "paris_passed_guesser",
        ),
        "model_wrong_answer": (
            lambda: ScriptedModel(
                [ModelTurn(tool_calls=(look,)), ModelTurn(final_text="Paris is 18.0°C, cloudy.")]
            ),
            "paris_passed_wrong_answer",
        ),
    }


@exercise("check_paris_weather", ("check_paris_weather",))
def check_paris_weather(ns: Namespace) -> Judgement:
    """``check_paris_weather(make_model)``: a test that passes the honest model, fails the rest."""
    function = ns["check_paris_weather"]
    try:
        function(lambda: ScriptedWeatherModel(city="Paris", task="weather"))
    except TimeLimitExceeded:
        raise
    except BaseException as error:
        return False, "paris_honest_failed", {"error": error_name(error)}
    for key, (make_model, passed) in paris_models().items():
        try:
            returned = function(make_model)
        except AssertionError:
            continue
        except TimeLimitExceeded:
            raise
        except BaseException as error:
            return False, "paris_guesser_error", {"model_key": key, "error": error_name(error)}
        if returned is not None:
            return False, "paris_returns_value", {}
        return False, passed, {"model_key": key, "what_key": "what_read"}
    return True, "paris_right", {}


@exercise("compare_cities", ("compare_cities",))
def compare_cities(ns: Namespace) -> Judgement:
    """``compare_cities(messages, tools)``: a turn function that looks both up, then answers."""
    function = ns["compare_cities"]
    warm_paris = {
        "Tokyo": {"city": "Tokyo", "temperature_c": 9.0, "condition": "clear"},
        "Paris": {"city": "Paris", "temperature_c": 21.0, "condition": "sunny"},
    }
    cases = [
        (build_tools(), "Tokyo", "Paris"),
        ([weather_tool_with(warm_paris), CONVERSION_TOOL], "Paris", "Tokyo"),
    ]
    for tools, warmer, colder in cases:
        try:
            result = run(ScriptedModel(function), tools, "Which city is warmer?")
        except AgentRuntimeError as error:
            cause = error.__cause__ or error
            if isinstance(cause, AnswerRaised):
                cause = cause.error
            return False, "compare_failed", {"error": error_name(cause)}
        if call_ids(result.messages) != ["call-tokyo", "call-paris"]:
            return False, "compare_ids", {}
        if result.model_turns != 2:
            return False, "compare_turns", {"turns": result.model_turns}
        answer = str(result.answer)
        if warmer not in answer or (
            colder in answer and answer.index(colder) < answer.index(warmer)
        ):
            return False, "compare_hard_coded", {}
    return True, "compare_right", {}
