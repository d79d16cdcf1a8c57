"""Lesson 06's appendix (06-appendix-reference-and-trajectory): ``task_succeeded``,
``trajectory`` and ``where``.

What a correct answer must satisfy, and where the judges try it (where wrong answers differ
from right ones):

``task_succeeded(messages)``
    returns ``True`` if the transcript (a list of message dicts, as ``run.messages`` holds
    them) has at least one observation (``"role": "tool"``) of ``celsius_to_fahrenheit``
    whose content is not a failure (a JSON object with an ``"error"`` key), and ``False``
    otherwise, however the run ended; a ``bool``, never a truthy stand-in. The expected
    value of each case is not written down: it is whether the conversion handler of that
    run really returned (the judge counts it). The cases: Tokyo and Paris (a hard-coded
    figure shows), the describe task (the conversion is not the last observation), a run that
    asked ``describe_temperature`` about a °F figure it never converted (its observation holds
    a ``temperature_f`` too: only the conversion's observation counts), a run that
    ran out of turns before converting and one that ran out just after (the bound), stop and
    observe after a failing handler, a retry that succeeds the second time (the first
    conversion observation does not decide), retries that all fail, a success followed by a
    failed second conversion (the last observation does not decide either), and a final text
    with the right figure but no tool call.

``my_trajectory``
    a list (or tuple) of the eight ``(letter, holder)`` pairs, each two ``str``: the letters
    ``A``-``H`` of the lesson's table, each once, in the order the Tokyo run produces its
    events; ``holder`` is ``"model"``, ``"runtime"`` or ``"tool"`` (case and spaces aside).
    The answer is a fixed ordering of the lesson's letters, so no fresh data exists for it;
    the order and the holders are read from a real run's events (:func:`snapshot.holder`),
    and only which letter names which event (the lesson's table) is written here.

``my_where``
    a dict with exactly the keys ``"decides"``, ``"executes"``, ``"state"``, ``"errors"``,
    ``"stops"``, each a pair of two ``str``: a file of the ``agentcore`` package
    (``"runtime.py"``; a path to it is fine) and a function or class it defines, a method
    optionally with its class (``"AgentRun.finish"``). The right answers are read from real
    runs (:mod:`.code_places`), never from a list, and a verdict says a file lacks a name only
    when neither its source nor its attributes have it.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import typing
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from agentcore.course.judges.code_places import QUESTIONS, find, places
from agentcore.course.judges.core import (
    FixtureFailed,
    Judgement,
    Namespace,
    asked_twice,
    call,
    error_name,
    exercise,
    kind,
    normalized_keys,
    plain,
)
from agentcore.course.judges.runs import finished_run
from agentcore.course.snapshot import Holder, holder
from agentcore.course.teaching_tools import (
    CONVERSION_TOOL,
    DESCRIBE_TEMPERATURE_TOOL,
    WEATHER_TOOL,
)
from agentcore.course.weather import ScriptedWeatherModel, Task, weather_request
from agentcore.events import ModelDecision, RunEvent, ToolAction, ToolObservation
from agentcore.protocol import ModelTurn, ToolCall
from agentcore.runtime import AgentRuntime
from agentcore.scripted import ScriptedModel
from agentcore.tools import Tool

T = TypeVar("T")


def _own(work: Callable[[], T]) -> T:
    """Run the check's own fixture (no learner code in it): what it raises is the check's
    failure, so the verdict says so instead of blaming the answer."""
    try:
        return work()
    except Exception as error:  # the runtime or the course changed under the check
        raise FixtureFailed("fixture_failed", error=error_name(error)) from error


# ----------------------------------------------------------------------------- task_succeeded


def _conversion(
    failures: int, note: str | None = None, fail_from: int | None = None, reported: bool = False
) -> tuple[Tool, list[bool]]:
    """The conversion tool whose first ``failures`` calls raise ``ConnectionError`` (and, with
    ``fail_from``, every call from that index on: a success, then failures); the list fills
    with whether each call returned, so a case's expected value is what happened. With
    ``note``, a result that returned also carries ``{"note": note}``: a success whose text
    holds the word "error" is still a success (a failure is an object with an "error" key).
    With ``reported``, a failing call returns the service's own failure record instead of
    raising: ``{"error": ..., "temperature_f": None}``, a failure by the task's definition that
    still holds a ``temperature_f`` key."""
    returned: list[bool] = []
    convert = CONVERSION_TOOL.handler

    def conversion(temperature_c: float) -> Any:
        failing = len(returned) < failures or (
            fail_from is not None and len(returned) >= fail_from
        )
        returned.append(not failing)
        if failing and reported:
            return {"error": "the conversion service is in maintenance", "temperature_f": None}
        if failing:
            raise ConnectionError("the conversion service did not answer (a simulated outage)")
        result = convert(temperature_c=temperature_c)
        return result if note is None else {**result, "note": note}

    return dataclasses.replace(CONVERSION_TOOL, handler=conversion), returned


def _retrying(retries: int) -> ScriptedModel:
    """The weather model that asks again, with a new ``call_id``, after each failed
    observation, up to ``retries`` times (the lesson's ``failing_handler`` model)."""
    model = ScriptedWeatherModel()

    def retry(messages: Sequence[Any], tools: Sequence[Any]) -> ModelTurn:
        failures = [
            m for m in messages if m["role"] == "tool" and "error" in json.loads(m["content"])
        ]
        last_failed = messages[-1]["role"] == "tool" and "error" in json.loads(
            messages[-1]["content"]
        )
        if last_failed and len(failures) <= retries:
            asked = messages[-2]["tool_calls"][0]
            again = ToolCall(
                f"call-convert-retry-{len(failures)}", asked["name"], asked["arguments"]
            )
            return ModelTurn(tool_calls=(again,))
        return model.generate(messages, tools)

    return ScriptedModel(retry)


def _converting_twice() -> ScriptedModel:
    """A model that reads Tokyo's weather, converts it, converts it once more (a new
    ``call_id``), then answers: with the second conversion failing, a success comes before
    the last conversion observation, which is a failure."""

    def script(messages: Sequence[Any], tools: Sequence[Any]) -> ModelTurn:
        seen = [json.loads(m["content"]) for m in messages if m["role"] == "tool"]
        if not seen:
            call = ToolCall("call-weather", WEATHER_TOOL.name, {"city": "Tokyo"})
        elif len(seen) < 3:
            celsius = {"temperature_c": seen[0]["temperature_c"]}
            call = ToolCall(f"call-convert-{len(seen)}", CONVERSION_TOOL.name, celsius)
        else:
            return ModelTurn(final_text="done")
        return ModelTurn(tool_calls=(call,))

    return ScriptedModel(script)


def _describing_a_guess(converted: list[Any]) -> ScriptedModel:
    """A model that reads Tokyo's weather, skips the conversion and asks
    ``describe_temperature`` about the right °F figure (taken from a converted run): that
    observation holds a ``temperature_f`` too, but no conversion ever ran."""
    fahrenheit = next(
        json.loads(m["content"])["temperature_f"]
        for m in converted
        if m["role"] == "tool" and "temperature_f" in json.loads(m["content"])
    )
    weather = ToolCall("call-weather", WEATHER_TOOL.name, {"city": "Tokyo"})
    describe = ToolCall(
        "call-describe", DESCRIBE_TEMPERATURE_TOOL.name, {"temperature_f": fahrenheit}
    )
    return ScriptedModel(
        [
            ModelTurn(tool_calls=(weather,)),
            ModelTurn(tool_calls=(describe,)),
            ModelTurn(final_text=f"Tokyo is {fahrenheit} °F."),
        ]
    )


def _case(
    key: str,
    model: Any,
    failures: int = 0,
    task: Task = "convert",
    city: str = "Tokyo",
    **options: Any,
) -> tuple[str, list[Any], bool]:
    """(case key, the run's transcript as plain JSON data, whether a conversion returned)."""
    conversion, returned = _conversion(
        failures,
        options.pop("note", None),
        options.pop("fail_from", None),
        options.pop("reported", False),
    )
    tools = [WEATHER_TOOL, conversion, DESCRIBE_TEMPERATURE_TOOL]
    run = finished_run(AgentRuntime(model, tools, **options), weather_request(city, task=task))
    return key, json.loads(json.dumps(list(run.messages))), any(returned)


def _succeeded_cases() -> list[tuple[str, list[Any], bool]]:
    """The runs of the lesson and their neighbours, built fresh for every verdict."""
    tokyo = _case("case_converted", ScriptedWeatherModel())
    figure = tokyo[1][-1]["content"]  # the right figure, written without any tool call
    return [
        tokyo,
        _case("case_paris", ScriptedWeatherModel(city="Paris"), city="Paris"),
        _case("case_describe", ScriptedWeatherModel(task="describe"), task="describe"),
        _case("case_max_steps", ScriptedWeatherModel(), max_steps=1),
        _case("case_converted_no_answer", ScriptedWeatherModel(), max_steps=2),
        _case("case_stop", ScriptedWeatherModel(), failures=1),
        _case("case_observe", ScriptedWeatherModel(), failures=1, on_tool_error="observe"),
        _case("case_retry_succeeded", _retrying(1), failures=1, on_tool_error="observe"),
        _case("case_retries_failed", _retrying(2), failures=3, on_tool_error="observe"),
        _case(
            "case_success_then_failure",
            _converting_twice(),
            fail_from=1,
            on_tool_error="observe",
        ),
        _case("case_guess", ScriptedModel([ModelTurn(final_text=figure)])),
        _case("case_described_unconverted", _describing_a_guess(tokyo[1])),
        _case("case_error_in_text", ScriptedWeatherModel(), note="rounding error under 0.1 °F"),
        _case("case_reported_failure", ScriptedWeatherModel(), failures=1, reported=True),
    ]


@exercise("task_succeeded", ("task_succeeded",))
def task_succeeded(ns: Namespace) -> Judgement:
    """``task_succeeded(messages)``: a bool, whether a conversion observation is not a failure."""
    function = ns["task_succeeded"]
    cases = _own(_succeeded_cases)
    wrong: list[str] = []
    for case, messages, expected in asked_twice(cases):
        got = call("task_succeeded", function, copy.deepcopy(messages))
        if got is None:
            return False, "returns_nothing", {"name": "task_succeeded"}
        if type(got) is not bool:
            return False, "not_a_bool", {"name": "task_succeeded", "kind": kind(got)}
        if got is not expected and case not in wrong:
            wrong.append(case)
    if wrong:
        return (
            False,
            "transcripts_wrong",
            {"wrong": len(wrong), "total": len(cases), "case_key": wrong[0]},
        )
    return True, "succeeded_right", {}


# ----------------------------------------------------------------------------- trajectory

TRAJECTORY_STEPS = {
    "A": ("FinalAnswer", None),
    "B": ("ModelDecision", "celsius_to_fahrenheit"),
    "C": ("ToolAction", "get_teaching_weather"),
    "D": ("ToolObservation", "get_teaching_weather"),
    "E": ("ModelDecision", None),
    "F": ("ModelDecision", "get_teaching_weather"),
    "G": ("ToolObservation", "celsius_to_fahrenheit"),
    "H": ("ToolAction", "celsius_to_fahrenheit"),
}
"""What each letter of the lesson's table (section 13) names: event type and tool name. The
order and who acts are the run's own, read from its events."""

HOLDERS: tuple[str, ...] = typing.get_args(Holder)
"""Who may act at an event, as :func:`agentcore.course.snapshot.holder` names them."""


def _event_step(event: RunEvent) -> str | None:
    if isinstance(event, ModelDecision):
        calls = event.turn.tool_calls
        key = ("ModelDecision", calls[0].name if calls else None)
    elif isinstance(event, (ToolAction, ToolObservation)):
        key = (type(event).__name__, event.call.name)
    else:
        key = (type(event).__name__, None)
    return next((step for step, value in TRAJECTORY_STEPS.items() if value == key), None)


@exercise("trajectory", ("my_trajectory",))
def trajectory(ns: Namespace) -> Judgement:
    """``my_trajectory``: a list of ``(letter, holder)`` pairs of str, in the run's order."""
    answer = ns["my_trajectory"]
    if not isinstance(answer, (list, tuple)):
        return False, "trajectory_format", {"kind": kind(answer)}
    pairs = []
    for position, item in enumerate(plain(answer), start=1):
        if not (
            isinstance(item, (list, tuple)) and len(item) == 2 and all(type(x) is str for x in item)
        ):
            return False, "trajectory_item", {"position": position}
        step, who = item[0].strip().upper(), item[1].strip().lower()
        if step not in TRAJECTORY_STEPS:
            return False, "trajectory_unknown_step", {"position": position, "step": item[0]}
        if who not in HOLDERS:
            return False, "trajectory_unknown_holder", {"position": position, "holder": item[1]}
        pairs.append((step, who))
    steps = [step for step, _ in pairs]
    repeated = next((step for step in steps if steps.count(step) > 1), None)
    if repeated is not None:
        return False, "trajectory_repeated", {"step": repeated}
    runtime = AgentRuntime(ScriptedWeatherModel(), [WEATHER_TOOL, CONVERSION_TOOL])
    finished = _own(lambda: finished_run(runtime, weather_request()))
    expected = [(_event_step(event), holder(event)) for event in finished.events]
    if len(pairs) != len(expected):
        return False, "trajectory_length", {"count": len(pairs), "total": len(expected)}
    for position, ((step, who), (right_step, right_who)) in enumerate(
        zip(pairs, expected, strict=True), start=1
    ):
        if step != right_step:
            return False, "trajectory_order", {"position": position}
        if who != right_who:
            return False, "trajectory_holder", {"step": step}
    return True, "trajectory_right", {}


# ----------------------------------------------------------------------------- where


@exercise("where", ("my_where",))
def where(ns: Namespace) -> Judgement:
    """``my_where``: a dict with the keys ``"decides"``, ``"executes"``, ``"state"``,
    ``"errors"``, ``"stops"``, each a pair ``("file.py", "function or Class.method")``."""
    shown = ", ".join(repr(question) for question in QUESTIONS)
    if not isinstance(ns["my_where"], dict):
        return (
            False,
            "prediction_not_a_dict",
            {"name": "my_where", "keys": shown, "kind": kind(ns["my_where"])},
        )
    written = plain(ns["my_where"])
    answers = normalized_keys(written)  # keys: case and surrounding blanks aside
    missing = [question for question in QUESTIONS if question not in answers]
    if missing:
        return False, "where_missing", {"questions": ", ".join(missing)}
    if len(answers) != len(QUESTIONS):
        given = ", ".join(repr(key) for key in written)
        return False, "prediction_keys", {"name": "my_where", "keys": shown, "given": given}
    known = _own(places)
    for question in QUESTIONS:
        answer = answers[question]
        if not (
            isinstance(answer, (list, tuple))
            and len(answer) == 2
            and all(isinstance(part, str) for part in answer)
        ):
            return False, "where_format", {"question": question}
        # a file's name (a path to it is fine) and a name it defines: case and surrounding
        # blanks aside, nothing else ("runtime" is not "runtime.py")
        file = answer[0].replace("\\", "/").rsplit("/", 1)[-1].strip()
        name = answer[1].strip().removesuffix("()")
        found = find(file, name)
        values = {"question": question, "file": file, "function": name}
        if not found.modules:
            return False, "where_no_file", values
        if not found.targets:
            if found.elsewhere:
                return False, "where_elsewhere", {**values, "defined": found.elsewhere}
            if not found.exists:
                return False, "where_no_such", values
        if not any(known.accepts(question, owner, value) for owner, value in found.targets):
            hint = {"question": question, "what_key": f"where_{question}"}
            if not any(known.ran(value) for _, value in found.targets):
                # Model.generate, ScriptedModel.generate: never on the run's stack
                return False, "where_not_run", {**hint, "file": file, "function": name}
            return False, "where_wrong", hint
    return True, "where_right", {}
