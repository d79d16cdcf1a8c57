"""Lesson 01 (01-the-loop): ``predict_lengths`` and ``never_stops``."""

from __future__ import annotations

import re
from typing import Any

from agentcore.course.judges.core import (
    AnswerRaised,
    Judgement,
    Namespace,
    error_name,
    exercise,
    kind,
    normalized_keys,
    plain,
    same,
    written_key,
)
from agentcore.course.judges.runs import failure_shown, outcome
from agentcore.course.teaching_tools import build_tools
from agentcore.course.weather import weather_request
from agentcore.errors import InvalidModelTurnError, MaxStepsExceeded
from agentcore.protocol import ModelTurn, ToolCall
from agentcore.runtime import AgentRuntime, RunResult
from agentcore.scripted import ScriptedModel


def growth_script() -> list[ModelTurn]:
    """The three model turns whose run lesson 01's ``my_lengths`` predicts."""
    return [
        ModelTurn(
            tool_calls=(
                ToolCall("call-tokyo", "get_teaching_weather", {"city": "Tokyo"}),
                ToolCall("call-paris", "get_teaching_weather", {"city": "Paris"}),
            )
        ),
        ModelTurn(
            tool_calls=(ToolCall("call-convert", "celsius_to_fahrenheit", {"temperature_c": 18.0}),)
        ),
        ModelTurn(final_text="Tokyo is 18.0°C (64.4°F); Paris is 12.0°C."),
    ]


@exercise("predict_lengths", ("my_lengths",))
def predict_lengths(ns: Namespace) -> Judgement:
    """``my_lengths``: a list of ints, ``len(run.messages)`` before any step and after each."""
    run = AgentRuntime(ScriptedModel(growth_script()), build_tools()).start(weather_request())
    actual = [len(run.messages)]
    while not run.finished:
        run.step()
        actual.append(len(run.messages))
    predicted = ns["my_lengths"]
    if not isinstance(predicted, (list, tuple)):
        return False, "lengths_not_a_list", {"count": len(actual), "kind": kind(predicted)}
    predicted = list(plain(predicted))
    not_counts = [guess for guess in predicted if type(guess) is not int]
    if not_counts:  # "1.0" or 1.0 is not a length: say the form before judging the numbers
        return False, "lengths_not_ints", {"kind": type(not_counts[0]).__name__}
    if len(predicted) != len(actual):
        return False, "lengths_count", {"count": len(actual), "written": len(predicted)}
    for moment, (guess, real) in enumerate(zip(predicted, actual, strict=True)):
        if not same(guess, real):
            return False, "lengths_wrong", {"moment": moment}
    return True, "lengths_right", {}


def _refused(
    error: InvalidModelTurnError, turns: list[ModelTurn], unbuilt: list[InvalidModelTurnError]
) -> Judgement:
    """The hint for a turn the runtime refused: a call_id repeated within the turn itself (the
    learner's ``ModelTurn(...)`` refused it, ``unbuilt``), one an earlier turn used, or
    (neither) the runtime's other reasons."""
    repeated = re.search(r"repeats call_id ('[^']*')", str(unbuilt[0])) if unbuilt else None
    if repeated is not None:
        return False, "never_stops_ids_in_turn", {"ids": repeated.group(1)}
    last = [str(call.call_id) for call in turns[-1].tool_calls] if turns else []
    twice = sorted({call_id for call_id in last if last.count(call_id) > 1})
    if twice:
        return False, "never_stops_ids_in_turn", {"ids": ", ".join(twice)}
    earlier = {str(call.call_id) for turn in turns[:-1] for call in turn.tool_calls}
    reused = sorted(set(last) & earlier)
    if reused:
        return False, "never_stops_refused", {"error": error_name(error), "ids": ", ".join(reused)}
    return False, "never_stops_other_refusal", {"error": error_name(error)}


RUNS = ((3, 20), (6, 30))
"""``never_stops``'s runs as ``(max_steps, max_tool_calls)``: the task's, then a longer one with
a fresh model, which shows a function that answers after turn 3 or that counts its turns in
state kept between runs ("never answers", "every turn")."""


@exercise("never_stops", ("fresh_calls", "my_counts"))
def never_stops(ns: Namespace) -> Judgement:
    """``fresh_calls(messages, tools)``: a turn function; ``my_counts``: the run's two counts."""
    fresh_calls = ns["fresh_calls"]
    # what the function returned, when it was not a turn: the runtime refuses that as an
    # invalid turn, and the hint must name it (not the call_ids)
    not_turns: list[str] = []
    turns: list[ModelTurn] = []
    unbuilt: list[InvalidModelTurnError] = []

    def watched(messages: Any, tools: Any) -> Any:
        try:
            turn = fresh_calls(messages, tools)
        except InvalidModelTurnError as error:  # ModelTurn(...) itself refused the turn
            unbuilt.append(error)
            raise
        if type(turn) is not ModelTurn:
            not_turns.append(kind(turn))
        else:
            turns.append(turn)
        return turn

    results = []
    for max_steps, max_tool_calls in RUNS:
        try:
            result = outcome(
                ScriptedModel(watched),
                build_tools(),
                weather_request(),
                max_steps=max_steps,
                max_tool_calls=max_tool_calls,
            )
        except Exception as error:  # the function is not a turn function at all
            raise AnswerRaised("fresh_calls", error) from error
        if isinstance(result, RunResult):
            return False, "never_stops_answered", {}
        if not_turns:
            return False, "never_stops_not_a_turn", {"kind": not_turns[0]}
        if isinstance(result, InvalidModelTurnError):
            return _refused(result, turns, unbuilt)
        if not isinstance(result, MaxStepsExceeded):  # the runtime's error names the refusal
            # a KeyError in fresh_calls is named, not only the runtime's ModelError around it
            return False, "never_stops_failed", {"error": failure_shown(result, "fresh_calls")}
        sizes = [len(m["tool_calls"]) for m in result.messages if m.get("tool_calls")]
        if any(size != 3 for size in sizes):
            return False, "never_stops_size", {"sizes": sizes}
        results.append(result)
    first = results[0]
    actual = {"model_turns": first.model_turns, "tool_executions": first.tool_executions}
    counts = ns["my_counts"]
    if not isinstance(counts, dict) or set(normalized_keys(plain(counts))) != set(actual):
        return False, "never_stops_counts_keys", {}
    given = normalized_keys(plain(counts))
    for key in actual:  # the form before the value: a right count written "8" is not "wrong"
        if type(given[key]) is not int:
            written = written_key(plain(counts), key)
            shown = {"name": f"my_counts[{written!r}]", "wanted": "int", "kind": kind(given[key])}
            return False, "value_type", shown
    if not same(given, actual):
        return False, "never_stops_counts", {}
    return True, "never_stops_right", {}
