"""Lesson 03 (03-errors): ``break_second_turn`` and ``unanswered_calls``."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Sequence
from typing import Any

from agentcore.course.judges.core import (
    AnswerRaised,
    Judgement,
    Namespace,
    asked_twice,
    call,
    draw,
    error_text,
    exercise,
    fresh_call_id,
    kind,
    plain,
    same,
    shape,
)
from agentcore.course.judges.runs import failure_shown, outcome
from agentcore.course.teaching_tools import build_tools
from agentcore.course.weather import weather_request
from agentcore.errors import ScriptExhaustedError, ToolArgumentsError
from agentcore.protocol import ModelTurn
from agentcore.runtime import RunResult
from agentcore.scripted import ScriptedModel


@exercise("break_second_turn", ("my_script",))
def break_second_turn(ns: Namespace) -> Judgement:
    """``my_script``: a list of ``ModelTurn`` whose second turn's arguments the tool refuses."""
    script = ns["my_script"]
    if not isinstance(script, list | tuple) or not all(type(t) is ModelTurn for t in script):
        return False, "script_not_a_list", {"kind": shape(script)}
    result = outcome(ScriptedModel(list(script)), build_tools(), weather_request())
    if isinstance(result, RunResult):
        # the second turn the run took was a final text: no tool ever checked its arguments
        if len(script) < 2 or not script[1].tool_calls:
            return False, "script_answered_no_call", {}
        return False, "script_answered", {}
    if isinstance(result, ScriptExhaustedError):
        # every turn the script holds was accepted, and the run asked for one more
        return False, "script_ran_out", {"turn": result.model_turns}
    if not isinstance(result, ToolArgumentsError):
        return False, "script_other_error", {"error": failure_shown(result, "my_script")}
    if (result.model_turns, result.tool_executions) != (2, 1):
        return (
            False,
            "script_counts",
            {"turns": result.model_turns, "executions": result.tool_executions},
        )
    # "reads Tokyo's weather": the one observation is Tokyo's record, not another city's
    observed = [json.loads(m["content"]) for m in result.messages if m.get("role") == "tool"]
    if not observed or not isinstance(observed[0], dict) or observed[0].get("city") != "Tokyo":
        return False, "script_not_tokyo", {}
    return True, "script_right", {}


def _request(*calls: tuple[str, str, dict[str, Any]]) -> dict[str, Any]:
    return {
        "role": "assistant",
        "content": "",
        "tool_calls": [{"call_id": c, "name": n, "arguments": a} for c, n, a in calls],
    }


def _observation(call_id: str, name: str, content: dict[str, Any]) -> dict[str, Any]:
    return {"role": "tool", "tool_call_id": call_id, "name": name, "content": json.dumps(content)}


USER = {"role": "user", "content": "Compare Tokyo and Paris."}
TOKYO = ("call-tokyo", "get_teaching_weather", {"city": "Tokyo"})
PARIS = ("call-paris", "get_teaching_weather", {"city": "Paris"})
CONVERT = ("call-convert", "celsius_to_fahrenheit", {"temperature_c": 18.0})
TOKYO_RECORD = {"city": "Tokyo", "temperature_c": 18.0, "condition": "cloudy"}
CITIES = ("Tokyo", "Paris")

UNANSWERED_CASES: tuple[tuple[str, list[dict[str, Any]], list[str]], ...] = (
    ("case_stopped", [USER, _request(TOKYO, PARIS)], ["call-tokyo", "call-paris"]),
    (
        "case_half",
        [
            USER,
            _request(TOKYO, PARIS),
            _observation("call-tokyo", "get_teaching_weather", TOKYO_RECORD),
        ],
        ["call-paris"],
    ),
    (
        "case_unknown_tool",
        [
            USER,
            _request(TOKYO),
            _observation("call-tokyo", "get_teaching_weather", TOKYO_RECORD),
            _request(("call-convert", "convert_temperature", {"temperature_c": 18.0})),
        ],
        ["call-convert"],
    ),
    (
        "case_all_observed",
        [
            USER,
            _request(TOKYO),
            _observation("call-tokyo", "get_teaching_weather", TOKYO_RECORD),
            _request(CONVERT),
            _observation("call-convert", "celsius_to_fahrenheit", {"temperature_f": 64.4}),
        ],
        [],
    ),
    (
        "case_two_turns_open",
        [
            USER,
            _request(TOKYO, PARIS),
            _observation("call-tokyo", "get_teaching_weather", TOKYO_RECORD),
            _request(CONVERT),
        ],
        ["call-paris", "call-convert"],
    ),
    ("case_no_calls", [USER, {"role": "assistant", "content": "Hello!"}], []),
    # a turn of two calls, both observed: the second observation is not right after its call
    (
        "case_both_observed",
        [
            USER,
            _request(TOKYO, PARIS),
            _observation("call-tokyo", "get_teaching_weather", TOKYO_RECORD),
            _observation("call-paris", "get_teaching_weather", {**TOKYO_RECORD, "city": "Paris"}),
        ],
        [],
    ),
    (
        "case_second_observed",
        [
            USER,
            _request(TOKYO, PARIS),
            _observation("call-paris", "get_teaching_weather", {**TOKYO_RECORD, "city": "Paris"}),
        ],
        ["call-tokyo"],
    ),
    # ids that sort neither in the order asked nor against it: the list keeps the request order
    (
        "case_request_order",
        [
            USER,
            _request(
                ("call-b", "get_teaching_weather", {"city": "Tokyo"}),
                ("call-c", "get_teaching_weather", {"city": "Paris"}),
                ("call-a", "get_teaching_weather", {"city": "Tokyo"}),
            ),
        ],
        ["call-b", "call-c", "call-a"],
    ),
)


Case = tuple[str, list[dict[str, Any]], list[str]]
"""(message key naming the case, the input, the list a right answer returns)."""

FRESH_CASES = 3
"""How many made-up cases each verdict adds to a fixed table (:func:`fresh_transcripts`)."""


def fresh_transcripts(count: int = FRESH_CASES) -> tuple[Case, ...]:
    """``count`` transcripts made up for one verdict, each with the call_ids left unanswered.

    Each is built turn by turn as a run leaves it (one to three turns of one to three calls
    with call_ids of their own, each turn followed by the observations of some of its calls,
    in any order, at least one call left unanswered), and its expected list is known from
    how it was built. So no table of the fixed cases' answers, looked up by input, agrees with
    every verdict (a function that looks its input up in :data:`UNANSWERED_CASES` fails),
    and there is no reference function an answer could call."""
    cases: list[Case] = []
    while len(cases) < count:
        taken: set[str] = set()
        messages: list[dict[str, Any]] = [dict(USER)]
        requested: list[str] = []
        observed: set[str] = set()
        for _turn in range(1 + draw(3)):
            calls = [
                (fresh_call_id(taken), "get_teaching_weather", {"city": CITIES[draw(2)]})
                for _call in range(1 + draw(3))
            ]
            messages.append(_request(*calls))
            answered = [c for c in calls if draw(5) < 3]
            answered.sort(key=lambda _call: draw(1 << 30))
            for call_id, name, arguments in answered:
                record = {**TOKYO_RECORD, "city": arguments["city"]}
                messages.append(_observation(call_id, name, record))
                observed.add(call_id)
            requested.extend(call_id for call_id, _name, _arguments in calls)
        expected = [c for c in requested if c not in observed]
        if expected:  # one left open at least: an answer returning [] for a case it cannot
            cases.append(("case_fresh_transcript", messages, expected))  # look up is wrong
    return tuple(cases)


def judge_lists(
    name: str,
    function: Any,
    cases: Sequence[Case],
    wrong_key: str,
    right_key: str,
    fresh: Callable[[], Sequence[Case]] = tuple,
    raised_key: str | None = None,
    order_key: str | None = None,
) -> Judgement:
    """Call ``function`` on a deep copy of each case's input; its lists beside the expected.

    Used by every "write a function that returns a list of call_ids" exercise. The cases are
    the fixed table ``cases`` and the ones ``fresh()`` makes up for this verdict alone (call_ids
    of their own, so no answer can look its input up in the table). A case's input
    is rebuilt for every call, so an answer that mutates it changes nothing for the next; an
    answer that changes the list it was given is refused (a transcript or a request is read
    to be checked, and what already happened is never lost). A result that is not a list, or a
    list holding anything but ``str`` (the call dicts instead of their call_ids), gets a hint
    naming the expected form before any case is compared. Each case is asked twice, in a
    random order (:func:`~agentcore.course.judges.core.asked_twice`). With ``raised_key``, an
    ``Exception`` the function raises is named with its message and the case it was reading
    (``{name}``, ``{error}``, ``{case}``); without it, or for a ``KeyboardInterrupt``, it reaches
    the core's verdicts. With ``order_key``, lists that hold the right call_ids in another
    order in every case they got wrong are told so with that message.
    """
    every = [*cases, *fresh()]
    wrong: set[int] = set()
    reordered: set[int] = set()  # the right call_ids, in another order
    for index, (case, given, expected) in asked_twice(list(enumerate(every))):
        handed = copy.deepcopy(given)
        try:
            got = call(name, function, handed)
        except AnswerRaised as failure:
            if raised_key is None or not isinstance(failure.error, Exception):
                raise
            shown = {"name": name, "error": error_text(failure.error), "case_key": case}
            return False, raised_key, shown
        if type(handed) is not list or not same(plain(handed), given):
            return False, "changed_input", {"name": name}
        if got is None:
            return False, "returns_nothing_list", {"name": name}
        if not isinstance(got, list):
            return False, "not_a_list", {"name": name, "kind": kind(got)}
        items = plain(got)
        strange = [item for item in items if type(item) is not str]
        if strange:  # a message or call dict instead of its call_id: name the expected form
            return False, "not_call_ids", {"name": name, "kind": kind(strange[0])}
        if not same(items, expected):
            wrong.add(index)
            if sorted(items) == sorted(expected):
                reordered.add(index)
    if wrong:  # the hint names the first wrong case of the table, else a made-up one
        first = every[min(wrong)][0]
        key = order_key if order_key is not None and reordered == wrong else wrong_key
        return False, key, {"wrong": len(wrong), "total": len(every), "case_key": first}
    return True, right_key, {}


@exercise("unanswered_calls", ("unanswered_calls",))
def unanswered_calls(ns: Namespace) -> Judgement:
    """``unanswered_calls(messages)``: the list of requested call_ids with no tool message."""
    return judge_lists(
        "unanswered_calls",
        ns["unanswered_calls"],
        UNANSWERED_CASES,
        "transcripts_wrong",
        "unanswered_right",
        fresh_transcripts,
        raised_key="raised_on_transcript",
        order_key="transcripts_order",
    )
