"""Lesson 04 (04-scripted-model-and-tests): ``check_paris_weather`` and ``compare_cities``."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from agentcore.course.judges.core import (
    AnswerRaised,
    Judgement,
    Namespace,
    TimeLimitExceeded,
    asked_twice,
    draw,
    error_name,
    error_text,
    exercise,
    shuffled,
)
from agentcore.course.judges.runs import (
    failure_shown,
    opaque,
    run,
    transcript_script,
    weather_tool_with,
)
from agentcore.course.teaching_tools import CONVERSION_TOOL, WEATHER_TOOL, build_tools
from agentcore.course.text import LANGUAGES, phrase
from agentcore.course.weather import ZH_CN_WORDS, ScriptedWeatherModel
from agentcore.errors import AgentRuntimeError, ModelError
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


def paris_models() -> dict[str, tuple[Callable[[], Any], str]]:
    """Models a Paris weather check must fail, each with the message for a check that passes
    it (the model's own message key, ``check.model_...``, says what the model did): the
    guesser, the double lookup and the lookup under another call_id get the answer right but
    not the path; the last three take the right path to a wrong answer (a check of the
    trajectory alone passes them; "12" alone passes 12.5°C)."""
    answer = "Paris's deterministic teaching record is 12.0°C, light rain."
    degrees = 12.0
    while abs(degrees) == 12.0:  # "-12.0°C" holds "12.0°C" too
        degrees = draw(600) / 10 - 20
    other = f"{degrees:.1f}"
    look = ToolCall("call-weather", "get_teaching_weather", {"city": "Paris"})
    again = ToolCall("call-weather-2", "get_teaching_weather", {"city": "Paris"})
    other_id = ToolCall("call-paris", "get_teaching_weather", {"city": "Paris"})
    return {
        "model_guesser": (
            lambda: transcript_script([ModelTurn(final_text=answer)]),
            "paris_passed_trajectory",
        ),
        "model_twice": (
            lambda: transcript_script(
                [
                    ModelTurn(tool_calls=(look,)),
                    ModelTurn(tool_calls=(again,)),
                    ModelTurn(final_text=answer),
                ]
            ),
            "paris_passed_trajectory",
        ),
        "model_other_id": (
            lambda: transcript_script(
                [ModelTurn(tool_calls=(other_id,)), ModelTurn(final_text=answer)]
            ),
            "paris_passed_trajectory",
        ),
        "model_wrong_answer": (
            lambda: transcript_script(
                [ModelTurn(tool_calls=(look,)), ModelTurn(final_text="Paris is 18.0°C, cloudy.")]
            ),
            "paris_passed_wrong_answer",
        ),
        # the honest answer's own wording with another temperature, drawn for each verdict: a
        # test of the wording alone passes it
        "model_same_words": (
            lambda: transcript_script(
                [ModelTurn(tool_calls=(look,)), ModelTurn(final_text=answer.replace("12.0", other))]
            ),
            "paris_passed_wrong_answer",
        ),
        "model_close_answer": (
            lambda: transcript_script(
                [
                    ModelTurn(tool_calls=(look,)),
                    ModelTurn(final_text="Paris is 12.5°C, light rain."),
                ]
            ),
            "paris_passed_wrong_answer",
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
    """``check_paris_weather(make_model)``: a test that passes the honest model, fails the rest.

    Every model reaches the test through :func:`~agentcore.course.judges.runs.opaque`: the
    honest one (a function script) and the guessers (listed scripts) look alike until run."""
    function = ns["check_paris_weather"]
    failing = failing_errors()
    models = paris_models()
    # Two rounds, each in a random order, the first never starting with the honest model: a
    # "test" that counts its calls (passes the first, fails the rest), or keeps the first model
    # it is given and compares the others with it, passes a guesser.
    first_round = shuffled([None, *models])
    while first_round[0] is None:
        first_round = shuffled(first_round)
    # the verdict names the deepest mistake whatever the order: the honest model failed, then
    # a guesser made the test raise something other than a failed assert, then a guesser passed
    honest_error: str | None = None
    guesser_error: tuple[str, str] | None = None
    passed: tuple[str, str] | None = None
    for key in [*first_round, *shuffled(first_round)]:
        if key is None:
            try:
                function(opaque(honest_model))
            except TimeLimitExceeded:
                raise
            except BaseException as error:
                honest_error = honest_error or error_name(error)
            continue
        make_model, passed_key = models[key]
        try:
            returned = function(opaque(make_model))
        except failing:
            continue
        except TimeLimitExceeded:
            raise
        except BaseException as error:
            guesser_error = guesser_error or (key, error_name(error))
            continue
        if returned is not None:
            return False, "paris_returns_value", {}
        passed = passed or (key, passed_key)
    if honest_error is not None:  # an error every model gets is the test's, not a guesser's
        return False, "paris_honest_failed", {"error": honest_error}
    if guesser_error is not None:
        guesser, raised = guesser_error
        return False, "paris_guesser_error", {"model_key": guesser, "error": raised}
    if passed is not None:
        if not any(_fails(function, other, failing) for other, _ in models.values()):
            # it fails no model at all: an assert that never runs, or one caught inside the test
            return False, "paris_never_fails", {}
        key, passed_key = passed
        return False, passed_key, {"model_key": key}
    return True, "paris_right", {}


def _fails(function: Any, make_model: Any, failing: tuple[type[BaseException], ...]) -> bool:
    """Whether the learner's test fails (raises one of ``failing``) for ``make_model``."""
    try:
        function(opaque(make_model))
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
    # and readings drawn afresh for each verdict (-20.0 to 39.9 °C, never equal), so a table
    # of the fixed ones cannot agree
    tokyo_c, paris_c = (round(draw(600) / 10 - 20, 1) for _ in range(2))
    if tokyo_c == paris_c:
        paris_c = round(paris_c + 0.5, 1)
    drawn = {
        "Tokyo": {"city": "Tokyo", "temperature_c": tokyo_c, "condition": "clear"},
        "Paris": {"city": "Paris", "temperature_c": paris_c, "condition": "cloudy"},
    }
    # both warm with Paris warmer, both cold with Tokyo warmer: a fixed threshold on one
    # city's reading ("Tokyo if above 15") cannot agree with both
    warm_both = {
        "Tokyo": {"city": "Tokyo", "temperature_c": 30.0, "condition": "clear"},
        "Paris": {"city": "Paris", "temperature_c": 31.5, "condition": "sunny"},
    }
    cold_both = {
        "Tokyo": {"city": "Tokyo", "temperature_c": 5.0, "condition": "cloudy"},
        "Paris": {"city": "Paris", "temperature_c": -3.0, "condition": "snow"},
    }
    cases = [
        (build_tools(), "Tokyo", "Paris"),
        ([weather_tool_with(warm_paris), CONVERSION_TOOL], "Paris", "Tokyo"),
        ([weather_tool_with(warm_both), CONVERSION_TOOL], "Paris", "Tokyo"),
        ([weather_tool_with(cold_both), CONVERSION_TOOL], "Tokyo", "Paris"),
        ([weather_tool_with(close), CONVERSION_TOOL], "Paris", "Tokyo"),
        (
            [weather_tool_with(drawn), CONVERSION_TOOL],
            *(("Tokyo", "Paris") if tokyo_c > paris_c else ("Paris", "Tokyo")),
        ),
    ]
    for tools, warmer, colder in asked_twice(cases):
        try:
            result = run(ScriptedModel(function), tools, "Which city is warmer?")
        except AgentRuntimeError as error:
            own = _own_error(error)
            if own is not None:  # the learner's function raised while it played the model
                raised = {"error": error_text(own), "turn": error.model_turns}
                return False, "compare_raised", raised
            return False, "compare_failed", {"error": failure_shown(error, "compare_cities")}
        asked = [
            (str(c["name"]), str(c["call_id"]))
            for m in result.messages
            for c in m.get("tool_calls", ())
        ]
        if len(asked) != 2 or any(name != WEATHER_TOOL.name for name, _ in asked):
            # an extra turn (a conversion), a lookup missing: say which calls it made
            shown = ", ".join(f"{name} ({call_id})" for name, call_id in asked) or "-"
            return False, "compare_calls", {"calls": shown}
        if [call_id for _, call_id in asked] != ["call-tokyo", "call-paris"]:
            return False, "compare_ids", {"ids": ", ".join(call_id for _, call_id in asked)}
        looked_up = [
            json.loads(m["content"]).get("city") for m in result.messages if m["role"] == "tool"
        ]
        if looked_up != ["Tokyo", "Paris"]:
            shown = ", ".join(str(city) for city in looked_up)
            return False, "compare_lookups", {"cities": shown}
        if result.model_turns != 2:
            return False, "compare_turns", {"turns": result.model_turns}
        answer = str(result.answer)
        called = called_warmer(answer, (warmer, colder))
        if called is None:
            return False, "compare_form", {"answer": answer}
        if called != warmer:
            # Name the readings the run saw: a hard-coded answer and one that takes the first
            # observation instead of comparing both fail the same case, for one reason.
            readings = {m["city"]: m["temperature_c"] for m in _observed(result.messages)}
            return False, "compare_hard_coded", {
                "tokyo": readings.get("Tokyo"), "paris": readings.get("Paris"), "answer": answer
            }
    return True, "compare_right", {}


def _own_error(error: AgentRuntimeError) -> BaseException | None:
    """The exception the learner's function raised while playing the model (the runtime keeps
    it as the ``ModelError``'s cause; in a grade, the player's ``AnswerRaised``); ``None``
    when the run failed for another reason (a refused call, a handler)."""
    cause = error.__cause__
    if isinstance(cause, AnswerRaised):
        return cause.error
    if isinstance(error, ModelError) and cause is not None:
        return cause
    return None


def _observed(messages: Any) -> list[dict[str, Any]]:
    """The weather readings in a run's tool messages, in order (the conversion's are skipped)."""
    readings = (json.loads(m["content"]) for m in messages if m["role"] == "tool")
    return [r for r in readings if isinstance(r, dict) and "city" in r]


WARMER = tuple(phrase("judge.is warmer", language) for language in LANGUAGES)
"""What follows the city's name in the answer's stated form, in every language of the course
(the catalogs' ``judge.is warmer``: "is warmer" and its Chinese)."""


def called_warmer(answer: str, cities: tuple[str, str]) -> str | None:
    """Which of the two ``cities`` the sentence ``answer`` calls warmer, in the form lesson 04's
    task states, or ``None`` when ``answer`` is not in that form.

    The form: the answer begins with a city's name, as the observation spells it (any case) or
    by its Chinese name (``ZH_CN_WORDS``, what the zh-CN lesson prints), then
    :data:`WARMER` in either language ("Paris is warmer, at 21.0°C."); blanks and quotation
    marks before the name, and blanks after it, are skipped. The task fixes the form, rather
    than this function reading free prose, because prose cannot be read without guessing:
    "Tokyo is not warmer than Paris", "Paris is less warm", and their Chinese (tests).
    """
    start = answer.lstrip(" \t\n\"'\u201c\u2018")
    for city in cities:
        for name in (city, ZH_CN_WORDS[city]):
            if start.lower().startswith(name.lower()):
                rest = start[len(name) :].lstrip().lower()
                if rest.startswith(WARMER):
                    return city
    return None
