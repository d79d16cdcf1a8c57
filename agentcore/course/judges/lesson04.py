"""Lesson 04 (04-scripted-model-and-tests): ``check_paris_weather`` and ``compare_cities``."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from agentcore.course.judges.core import (
    Judgement,
    Namespace,
    TimeLimitExceeded,
    asked_twice,
    error_name,
    exercise,
)
from agentcore.course.judges.runs import call_ids, failure_shown, run, weather_tool_with
from agentcore.course.teaching_tools import CONVERSION_TOOL, build_tools
from agentcore.course.weather import ZH_CN_WORDS, ScriptedWeatherModel
from agentcore.errors import AgentRuntimeError
from agentcore.protocol import ModelTurn, ToolCall
from agentcore.scripted import ScriptedModel


def honest_model() -> ScriptedModel:
    """The chapter's model, reading the city from the request: a check that runs it on another
    city's request (lesson 04's ``REQUEST`` is Tokyo's) gets that city's answer, not Paris's."""

    def honest(messages: Any, tools: Any) -> ModelTurn:
        request = str(messages[0].get("content", "")) if messages else ""
        city = "Paris" if "Paris" in request or ZH_CN_WORDS["Paris"] in request else "Tokyo"
        return ScriptedWeatherModel(city=city, task="weather").generate(messages, tools)

    return ScriptedModel(honest)


def paris_models() -> dict[str, tuple[Callable[[], Any], str, str]]:
    """Models a Paris weather check must fail, each with the message that says what it missed
    and what it did not do: the guesser, the double lookup and the lookup under another
    call_id get the answer right but not the path; the last two take the right path to a
    wrong answer (a check of the trajectory alone passes them; "12" alone passes 12.5°C)."""
    answer = "Paris's deterministic teaching record is 12.0°C, light rain."
    look = ToolCall("call-weather", "get_teaching_weather", {"city": "Paris"})
    again = ToolCall("call-weather-2", "get_teaching_weather", {"city": "Paris"})
    other_id = ToolCall("call-paris", "get_teaching_weather", {"city": "Paris"})
    return {
        "model_guesser": (
            lambda: ScriptedModel([ModelTurn(final_text=answer)]),
            "paris_passed_guesser",
            "what_read",
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
            "what_read",
        ),
        "model_other_id": (
            lambda: ScriptedModel(
                [ModelTurn(tool_calls=(other_id,)), ModelTurn(final_text=answer)]
            ),
            "paris_passed_guesser",
            "what_call_id",
        ),
        "model_wrong_answer": (
            lambda: ScriptedModel(
                [ModelTurn(tool_calls=(look,)), ModelTurn(final_text="Paris is 18.0°C, cloudy.")]
            ),
            "paris_passed_wrong_answer",
            "what_read",
        ),
        "model_close_answer": (
            lambda: ScriptedModel(
                [
                    ModelTurn(tool_calls=(look,)),
                    ModelTurn(final_text="Paris is 12.5°C, light rain."),
                ]
            ),
            "paris_passed_wrong_answer",
            "what_read",
        ),
    }


def failing_errors() -> tuple[type[BaseException], ...]:
    """What a failing check may raise: ``AssertionError``, or ``pytest.fail``'s exception
    (lesson 04's ``run_checks`` counts both as failed)."""
    try:
        import pytest
    except ImportError:  # an environment without pytest: only assert can fail a check there
        return (AssertionError,)
    return (AssertionError, pytest.fail.Exception)


@exercise("check_paris_weather", ("check_paris_weather",))
def check_paris_weather(ns: Namespace) -> Judgement:
    """``check_paris_weather(make_model)``: a test that passes the honest model, fails the rest."""
    function = ns["check_paris_weather"]
    failing = failing_errors()
    models = paris_models()
    # The honest model first, then every guesser; then all of them again in a random order,
    # so a "test" that counts its calls (passes the first, fails the rest) cannot score.
    for key in asked_twice([None, *models]):
        if key is None:
            try:
                function(honest_model)
            except TimeLimitExceeded:
                raise
            except BaseException as error:
                return False, "paris_honest_failed", {"error": error_name(error)}
            continue
        make_model, passed, what = models[key]
        try:
            returned = function(make_model)
        except failing:
            continue
        except TimeLimitExceeded:
            raise
        except BaseException as error:
            return False, "paris_guesser_error", {"model_key": key, "error": error_name(error)}
        if returned is not None:
            return False, "paris_returns_value", {}
        if not any(_fails(function, other, failing) for other, _, _ in models.values()):
            # it fails no model at all: an assert that never runs, or one caught inside the test
            return False, "paris_never_fails", {}
        return False, passed, {"model_key": key, "what_key": what}
    return True, "paris_right", {}


def _fails(function: Any, make_model: Any, failing: tuple[type[BaseException], ...]) -> bool:
    """Whether the learner's test fails (raises one of ``failing``) for ``make_model``."""
    try:
        function(make_model)
    except failing:
        return True
    except TimeLimitExceeded:
        raise
    except BaseException:  # any other error is judged where it first happens, not here
        return False
    return False


@exercise("compare_cities", ("compare_cities",))
def compare_cities(ns: Namespace) -> Judgement:
    """``compare_cities(messages, tools)``: a turn function that looks both up, then answers."""
    function = ns["compare_cities"]
    warm_paris = {
        "Tokyo": {"city": "Tokyo", "temperature_c": 9.0, "condition": "clear"},
        "Paris": {"city": "Paris", "temperature_c": 21.0, "condition": "sunny"},
    }
    # less than a degree apart, so a comparison of truncated or rounded values shows
    close = {
        "Tokyo": {"city": "Tokyo", "temperature_c": 12.4, "condition": "cloudy"},
        "Paris": {"city": "Paris", "temperature_c": 12.9, "condition": "light rain"},
    }
    cases = [
        (build_tools(), "Tokyo", "Paris"),
        ([weather_tool_with(warm_paris), CONVERSION_TOOL], "Paris", "Tokyo"),
        ([weather_tool_with(close), CONVERSION_TOOL], "Paris", "Tokyo"),
    ]
    for tools, warmer, colder in asked_twice(cases):
        try:
            result = run(ScriptedModel(function), tools, "Which city is warmer?")
        except AgentRuntimeError as error:
            return False, "compare_failed", {"error": failure_shown(error, "compare_cities")}
        if call_ids(result.messages) != ["call-tokyo", "call-paris"]:
            return False, "compare_ids", {}
        looked_up = [
            json.loads(m["content"]).get("city") for m in result.messages if m["role"] == "tool"
        ]
        if looked_up != ["Tokyo", "Paris"]:
            shown = ", ".join(str(city) for city in looked_up)
            return False, "compare_lookups", {"cities": shown}
        if result.model_turns != 2:
            return False, "compare_turns", {"turns": result.model_turns}
        answer = str(result.answer)
        said_warmer, said_colder = _named_at(answer, warmer), _named_at(answer, colder)
        if said_warmer is None or (said_colder is not None and said_colder < said_warmer):
            # Name the readings the run saw: a hard-coded answer and one that takes the first
            # observation instead of comparing both fail the same case, for one reason.
            readings = {m["city"]: m["temperature_c"] for m in _observed(result.messages)}
            return False, "compare_hard_coded", {
                "tokyo": readings.get("Tokyo"), "paris": readings.get("Paris"), "answer": answer
            }
    return True, "compare_right", {}


def _observed(messages: Any) -> list[dict[str, Any]]:
    """The weather readings in a run's tool messages, in order (the conversion's are skipped)."""
    readings = (json.loads(m["content"]) for m in messages if m["role"] == "tool")
    return [r for r in readings if isinstance(r, dict) and "city" in r]


def _named_at(answer: str, city: str) -> int | None:
    """Where ``answer`` first names ``city``, in English or by its Chinese name
    (``ZH_CN_WORDS``, what the zh-CN lesson prints), or ``None`` if it does not."""
    lowered = answer.lower()  # "TOKYO is warmer" names Tokyo too
    found = [at for at in (lowered.find(city.lower()), answer.find(ZH_CN_WORDS[city])) if at >= 0]
    return min(found) if found else None
