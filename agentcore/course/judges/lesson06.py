"""Lesson 06 (06-experiments): the four section-12 experiments, done by the learner.

``two_calls``, ``describe_temperature``, ``failing_reminder``, ``reminder_twice``,
``max_steps_one`` and ``smallest_max_steps``: the learner builds each experiment, and these
judges run it through an unchanged ``AgentRuntime`` and compare with the run's own events.
Every expected count is the runtime's: a reference run gives it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from agentcore.course.judges.core import (
    AnswerRaised,
    Judgement,
    Namespace,
    TimeLimitExceeded,
    asked_twice,
    call,
    dict_with_keys,
    error_name,
    exercise,
    kind,
    plain,
    replace_list,
    same,
    same_words,
    shape,
    written_key,
)
from agentcore.course.judges.runs import (
    failure_shown,
    finished_run,
    opaque,
    takes_text_for_a_number,
    weather_tool_with,
)
from agentcore.course.ready_made import (  # noqa: F401  (lesson 06 shows them from here too)
    ReminderArguments,
    reminder_runtime,
    runtime_unchanged,
)
from agentcore.course.teaching_tools import (
    CONVERSION_TOOL,
    DESCRIBE_TEMPERATURE_TOOL,
    WEATHER_TOOL,
    WeatherArguments,
    build_tools,
)
from agentcore.course.text import LANGUAGES, phrase
from agentcore.course.weather import ScriptedWeatherModel, weather_request
from agentcore.errors import (
    InvalidModelTurnError,
    ModelError,
    ToolArgumentsError,
    ToolBudgetExceeded,
    ToolExecutionError,
    UnknownToolError,
)
from agentcore.protocol import ModelTurn, ToolCall
from agentcore.runtime import AgentRun, AgentRuntime
from agentcore.scripted import ScriptedModel
from agentcore.tools import Tool, call_handler


def prediction(ns: Namespace, name: str, keys: Sequence[str]) -> dict[str, Any] | Judgement:
    """The learner's prediction dict ``name`` as plain data with normalized keys, or the
    judgement that names the expected form (a dict with exactly ``keys``)."""
    value = ns[name]
    given = dict_with_keys(value, name, keys)
    if not isinstance(given, dict):
        return given
    for key in keys:  # the form before the value, so a right number as 2.0 is not "wrong"
        wanted = PREDICTION_TYPES[key]
        if type(given[key]) is not wanted:
            return (
                False,
                "value_type",
                {
                    "name": f"{name}[{written_key(plain(value), key)!r}]",
                    "wanted": wanted.__name__,
                    "kind": kind(given[key]),
                },
            )
    return given


PREDICTION_TYPES: dict[str, type] = {
    "tool executions": int,
    "model turns": int,
    "stop": int,
    "observe": int,
    "error": str,
    "status": str,
}
"""The type of every prediction key of lesson 06: counts are ``int`` (not ``2.0`` or
``True``), names are ``str``."""


TWO_CALLS_FIRST = ("get_teaching_weather(city='Paris')", "get_teaching_weather(city='Tokyo')")
TWO_CALLS_SECOND = "celsius_to_fahrenheit(temperature_c=18.0)"
"""The calls lesson 06's first exercise asks for, as :func:`_call_shown` writes them."""


def _call_shown(tool_call: ToolCall) -> str:
    """A tool call as ``name(argument=value, ...)``: its name and arguments, not its call_id.

    A number is written as a float (``18`` and ``18.0`` are the same temperature, as the
    tool's arguments model reads them); other values with ``repr``.
    """
    arguments = ", ".join(
        f"{name}={float(value)!r}" if type(value) in (int, float) else f"{name}={value!r}"
        for name, value in sorted(dict(tool_call.arguments).items())
    )
    return f"{tool_call.name}({arguments})"


@exercise("two_calls", ("my_turns", "my_prediction"))
def two_calls(ns: Namespace) -> Judgement:
    """Your turn: two calls in one turn, then a turn that reuses one of their call_ids.

    ``my_turns``: a list of ``ModelTurn``; ``my_prediction``: a dict with the keys
    ``"tool executions"`` (an int) and ``"error"`` (the error type's name, a str).
    """
    turns = ns["my_turns"]
    if not isinstance(turns, (list, tuple)) or not all(type(t) is ModelTurn for t in turns):
        return False, "turns_not_list", {"kind": shape(turns)}
    if len(turns) != 2:  # the task's two turns: a third is never reached, and not asked for
        return False, "turns_count", {"count": len(turns)}
    first = turns[0].tool_calls
    if len(first) != 2:
        return False, "turns_first", {"count": len(first)}
    # the task's own calls: the same counts come out of a half-done version (Tokyo twice, or
    # any second tool), so the calls themselves are compared
    if sorted(_call_shown(c) for c in first) != sorted(TWO_CALLS_FIRST):
        return False, "turns_first_calls", {"calls": ", ".join(_call_shown(c) for c in first)}
    second = turns[1].tool_calls
    if [_call_shown(c) for c in second] != [TWO_CALLS_SECOND]:
        return False, "turns_second_call", {"calls": ", ".join(map(_call_shown, second)) or "-"}
    second_ids = {tool_call.call_id for tool_call in second}
    if not second_ids & {tool_call.call_id for tool_call in first}:
        return False, "turns_second_fresh", {}
    run = finished_run(AgentRuntime(ScriptedModel(list(turns)), build_tools()), weather_request())
    if not isinstance(run.error, InvalidModelTurnError) or run.model_turns != 2:
        failure = "-" if run.error is None else error_name(run.error)
        return False, "turns_not_refused", {"error": failure, "turns": run.model_turns}
    guess = prediction(ns, "my_prediction", ("tool executions", "error"))
    if isinstance(guess, tuple):
        return guess
    if not same(guess["tool executions"], run.tool_executions):
        return False, "turns_prediction_executions", {}
    if not same_words(guess["error"], error_name(run.error)):
        return False, "turns_prediction_error", {}
    return True, "turns_right", {}


DESCRIBE_CELSIUS: tuple[tuple[str, float], ...] = (
    ("case_describe_hot", 30.0),
    ("case_describe_hot_bound", 25.0),
    ("case_describe_below_hot", 24.5),
    ("case_describe_cold_bound", 10.0),
    ("case_describe_below_cold", 9.5),
)
"""Other weather records for the Tokyo request, by case: both sides of each bound of
``describe_temperature`` and the bound itself (25 °C is 77 °F, hot; 24.5 °C is 76.1 °F, mild;
10 °C is 50 °F, mild; 9.5 °C is 49.1 °F, cold), so a script that does not read its
observations, or a handler with ``>`` for ``>=``, disagrees with the runtime somewhere."""


def _describe_cases() -> list[tuple[str, Tool]]:
    """(case key, weather tool): the lesson's own record first, then :data:`DESCRIBE_CELSIUS`."""
    cases = [("case_describe_tokyo", WEATHER_TOOL)]
    for case, celsius in DESCRIBE_CELSIUS:
        record = {"city": "Tokyo", "temperature_c": celsius, "condition": "sunny"}
        cases.append((case, weather_tool_with({"Tokyo": record})))
    return cases


def _observations(run: AgentRun) -> list[tuple[str, Any, Any]]:
    """(tool name, the call's arguments, the observation as JSON data) of every tool message."""
    arguments = {
        tool_call["call_id"]: tool_call["arguments"]
        for message in run.messages
        for tool_call in message.get("tool_calls", ())
    }
    return [
        (str(m["name"]), arguments.get(m["tool_call_id"]), json.loads(m["content"]))
        for m in run.messages
        if m.get("role") == "tool"
    ]


def _describe_schema_ok(tool: Tool) -> bool:
    """Whether the model is shown exactly one argument, the number ``temperature_f``."""
    parameters = tool.schema()["parameters"]
    properties = parameters.get("properties", {})
    return (
        set(properties) == {"temperature_f"}
        and properties["temperature_f"].get("type") == "number"
        and list(parameters.get("required", ())) == ["temperature_f"]
    )


def _refuses_non_finite(tool: Tool) -> bool:
    """Whether the arguments model refuses NaN and infinity before any handler runs."""
    for value in (float("nan"), float("inf"), float("-inf")):
        try:
            tool.validate({"temperature_f": value})
        except ToolArgumentsError:
            continue
        return False
    return True


@exercise("describe_temperature", ("my_describe_tool", "describe_script"))
def describe_temperature(ns: Namespace) -> Judgement:
    """Your turn: the third tool, by changing only the tools and the model stand-in.

    A correct answer satisfies all of:

    * ``my_describe_tool`` is a ``Tool`` named ``describe_temperature`` whose arguments model
      shows the model one number, ``temperature_f`` (no other field), is strict (refuses the
      text ``"64.4"``) and refuses NaN and infinity itself (``ToolArgumentsError``), before
      the handler runs;
    * its handler gives ``describe_temperature``'s description at every bound: 50 °F is mild
      and 49.1 °F cold, 77 °F is hot and 76.1 °F mild (the expected description is the
      package function's, run on the conversion's observation);
    * ``describe_script`` is a function script: run by ``ScriptedModel`` (a fresh one per
      case) through the unchanged ``AgentRuntime``, it asks for the weather, then the
      conversion of the ``temperature_c`` it read, then the description of the
      ``temperature_f`` it read, then answers with a final text that gives that °F value and
      its description (:func:`states_description`): with the lesson's record and with five
      others, so hard-coded values disagree;
    * ``agentcore.runtime`` is unchanged, and the arguments model is the learner's own, not
      the package's ``DESCRIBE_TEMPERATURE_TOOL``'s (its handler may be the package's
      ``describe_temperature``, which the lesson shows).
    """
    tool, script = ns["my_describe_tool"], ns["describe_script"]
    if not isinstance(tool, Tool):
        return False, "describe_not_a_tool", {"kind": kind(tool)}
    if tool.name != DESCRIBE_TEMPERATURE_TOOL.name:
        return False, "describe_name", {"name": tool.name}
    # the package's own tool under the answer's name: its arguments model was not written
    # (the handler may be the package's describe_temperature: the lesson shows it to be used)
    if tool.arguments_model is DESCRIBE_TEMPERATURE_TOOL.arguments_model:
        return False, "describe_package_tool", {}
    if not callable(script) or isinstance(script, (list, tuple)):
        return False, "describe_not_a_function", {"kind": kind(script)}
    if not _describe_schema_ok(tool):
        properties = tool.schema()["parameters"].get("properties", {})
        shown = ", ".join(f"{name} ({properties[name].get('type', '-')})" for name in properties)
        return False, "describe_schema", {"fields": shown or "-"}
    # in the order the task states them: strict first, then finite
    if takes_text_for_a_number(tool, "temperature_f"):
        return False, "describe_not_strict", {}
    if not _refuses_non_finite(tool):
        return False, "describe_not_finite", {}
    bad_answer: dict[str, Any] | None = None
    for case, weather in _describe_cases():
        runtime = AgentRuntime(ScriptedModel(script), [weather, CONVERSION_TOOL, tool])
        run = finished_run(runtime, weather_request(task="describe"))
        if run.error is not None:
            return False, "describe_failed", {"error": failure_shown(run.error, "describe_script")}
        seen = _observations(run)
        names = [name for name, _, _ in seen]
        if names != [WEATHER_TOOL.name, CONVERSION_TOOL.name, tool.name]:
            return False, "describe_trace", {"tools": ", ".join(names) or "-"}
        (_, _, weather_seen), (_, converted, conversion), (_, described, description) = seen
        read_celsius = {"temperature_c": weather_seen.get("temperature_c")}
        read_fahrenheit = {"temperature_f": conversion.get("temperature_f")}
        if not (same(dict(converted), read_celsius) and same(dict(described), read_fahrenheit)):
            return False, "describe_hard_coded", {"case_key": case}
        if not isinstance(description, dict):
            return False, "describe_output", {"kind": kind(description)}
        fahrenheit = read_fahrenheit["temperature_f"]
        expected = reference_description(fahrenheit)
        if description.get("description") != expected:
            return False, "describe_bounds", {"fahrenheit": fahrenheit}
        answer = run.result.answer if run.result is not None else ""
        if bad_answer is None and not states_description(answer, fahrenheit, expected):
            bad_answer = {"case_key": case, "answer": answer[:80]}
    # the final text is judged after every case's tools: a wrong bound is the deeper mistake
    if bad_answer is not None:
        return False, "describe_answer", bad_answer
    if not runtime_unchanged():
        return False, "describe_runtime_changed", {}
    return True, "describe_right", {}


_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_DESCRIPTIONS = ("cold", "mild", "hot")


def states_description(answer: str, fahrenheit: float, description: str) -> bool:
    """Whether a final text gives the Fahrenheit value and the description the run read.

    ``answer``: the final text; ``fahrenheit``: the °F the conversion returned (written any
    way that rounds to it at 0.1 °F: ``77``, ``77.0``); ``description``: ``cold``, ``mild``
    or ``hot``, in English or as the zh-CN lesson prints it (``phrase("teaching
    weather.hot")``). The text must not name another of the three descriptions.
    """
    numbers = [float(found) for found in _NUMBER.findall(answer)]
    if not any(abs(number - fahrenheit) < 0.05 for number in numbers):
        return False

    def named(word: str) -> bool:
        english = re.search(rf"\b{word}\b", answer, re.IGNORECASE) is not None
        return english or phrase(f"teaching weather.{word}", "zh-CN") in answer

    return named(description) and not any(named(w) for w in _DESCRIPTIONS if w != description)


def reference_description(temperature_f: float) -> str:
    """The description the package's own ``describe_temperature`` gives ``temperature_f``."""
    tool = DESCRIBE_TEMPERATURE_TOOL
    arguments = tool.validate({"temperature_f": temperature_f})
    return str(call_handler(tool, arguments)["description"])


REMINDER_REQUEST = "Remind me to take an umbrella."
POLICIES = ("stop", "observe")
CHECK_REMINDERS = {"stop": "Water the plants at 6.", "observe": "Call the dentist at 9."}
"""The reminders the check sends under each policy: not the lesson's, so a handler that
appends a fixed text instead of the ``text`` it was given shows."""


def reference_reminders() -> dict[str, int]:
    """How many reminders a send-then-fail handler sends under each policy, by running it."""
    sent: dict[str, int] = {}
    for policy in POLICIES:
        box: list[str] = []

        def send_then_fail(text: str, box: list[str] = box) -> dict[str, Any]:
            box.append(text)
            raise TimeoutError("the reference mail server did not confirm")

        finished_run(reminder_runtime(send_then_fail, policy), REMINDER_REQUEST)
        sent[policy] = len(box)
    return sent


def _every_call_failed(run: AgentRun) -> bool:
    """Whether every observation of ``run`` records a failure (a retry failed too)."""
    observations = [json.loads(m["content"]) for m in run.messages if m.get("role") == "tool"]
    return all(isinstance(seen, dict) and "error" in seen for seen in observations)


@exercise("failing_reminder", ("send_reminder",), needs={"outbox": "06_outbox"})
def failing_reminder(ns: Namespace) -> Judgement:
    """Your turn: a handler that sends (a side effect, ``outbox.append``), then raises.

    A correct ``send_reminder(text)`` (one argument, named ``text``), on every call, appends
    the ``text`` it was given to the lesson's ``outbox`` and then raises (returning anything,
    even a value that is not JSON and so fails the call, is not raising). Run by
    :func:`reminder_runtime` with the check's own reminders (:data:`CHECK_REMINDERS`):

    * under ``stop`` the run fails with ``ToolExecutionError`` and ``outbox`` holds the
      reminder once;
    * under ``observe`` the model retries, the retry fails too (a mail server that never
      confirms), and ``outbox`` holds it as many times as the reference handler sends it
      (:func:`reference_reminders`: twice), every entry the text given.

    ``outbox`` is emptied before each run and restored afterwards.
    """
    handler, outbox = ns["send_reminder"], ns["outbox"]
    if not isinstance(outbox, list):
        return False, "reminder_no_outbox", {}
    kept = list.copy(outbox)
    expected = reference_reminders()
    # what each call did: a handler that returns something that is not JSON fails its call
    # too (ToolExecutionError), but the task is a handler that raises
    returned: list[Any] = []

    def watched(text: str) -> Any:
        result = handler(text=text)
        returned.append(result)
        return result

    try:
        reminder_runtime(handler, "stop")  # the learner's own signature, as the lesson's run
    except TypeError:
        return False, "reminder_signature", {}
    try:
        sent: dict[str, int] = {}
        for policy in POLICIES:
            replace_list(ns, "outbox", [])
            runtime = reminder_runtime(watched, policy, CHECK_REMINDERS[policy])
            run = finished_run(runtime, REMINDER_REQUEST)
            if returned:
                return False, "reminder_returned", {"kind": kind(returned[0])}
            outbox = ns["outbox"]  # read again: in a grade, what the player's list holds now
            if not isinstance(outbox, list):
                return False, "reminder_no_outbox", {}
            sent[policy] = list.__len__(outbox)
            if policy == "stop" and not isinstance(run.error, ToolExecutionError):
                return False, "reminder_no_raise", {}
            if policy == "stop" and sent[policy] == 0:
                return False, "reminder_no_side_effect", {}
            if any(
                type(entry) is not str or entry != CHECK_REMINDERS[policy]
                for entry in list.copy(outbox)
            ):
                return False, "reminder_wrong_text", {}
            if policy == "observe" and not _every_call_failed(run):
                return False, "reminder_retry_succeeded", {}
        if sent != expected:
            return False, "reminder_counts", {"stop": sent["stop"], "observe": sent["observe"]}
    finally:
        replace_list(ns, "outbox", kept)
    return True, "reminder_right", {}


@exercise("reminder_twice", ("my_reminders", "sent_twice"))
def reminder_twice(ns: Namespace) -> Judgement:
    """``my_reminders``: a dict with the keys ``"stop"`` and ``"observe"`` (ints);
    ``sent_twice``: a bool, whether a retry sends the reminder twice."""
    guess = prediction(ns, "my_reminders", POLICIES)
    if isinstance(guess, tuple):
        return guess
    expected = reference_reminders()
    if not same(guess["stop"], expected["stop"]):
        return False, "twice_stop", {}
    if not same(guess["observe"], expected["observe"]):
        return False, "twice_observe", {}
    if type(ns["sent_twice"]) is not bool:
        return (
            False,
            "value_type",
            {"name": "sent_twice", "wanted": "bool", "kind": kind(ns["sent_twice"])},
        )
    if not same(ns["sent_twice"], expected["observe"] > 1):
        return False, "twice_answer", {}
    return True, "twice_right", {}


MAX_STEPS_KEYS = ("status", "model turns", "tool executions", "error")


@exercise("max_steps_one", ("my_max_steps_prediction",))
def max_steps_one(ns: Namespace) -> Judgement:
    """``my_max_steps_prediction``: a dict with the keys ``"status"``, ``"model turns"``,
    ``"tool executions"`` and ``"error"`` (``"-"`` when there is none)."""
    guess = prediction(ns, "my_max_steps_prediction", MAX_STEPS_KEYS)
    if isinstance(guess, tuple):
        return guess
    runtime = AgentRuntime(ScriptedWeatherModel(), build_tools(), max_steps=1)
    run = finished_run(runtime, weather_request())
    actual = {
        "status": run.status if hasattr(run, "status") else ("failed" if run.error else "answered"),
        "model turns": run.model_turns,
        "tool executions": run.tool_executions,
        "error": "-" if run.error is None else error_name(run.error),
    }
    wrong = [key for key in MAX_STEPS_KEYS if not same_words(guess[key], actual[key])]
    if wrong:
        return False, "max_steps_wrong", {"count": len(wrong), "field": wrong[0]}
    return True, "max_steps_right", {}


def _never_answers(messages: Sequence[Mapping[str, Any]], tools: Any) -> ModelTurn:
    call_id = f"call-{len(messages)}"
    return ModelTurn(tool_calls=(ToolCall(call_id, "get_teaching_weather", {"city": "Tokyo"}),))


def _answers_the_request(messages: Sequence[Mapping[str, Any]], tools: Any) -> ModelTurn:
    """A turn function that answers after one lookup when the run's request is the lesson's
    ``REQUEST`` (``weather_request()``, in either language), and never answers another text:
    an answer that runs ``"hello"`` instead of ``REQUEST`` gets ``None`` from it."""
    asked = messages[0].get("content") if messages else None
    if asked not in {weather_request(language=language) for language in LANGUAGES}:
        return _never_answers(messages, tools)
    if any(message["role"] == "tool" for message in messages):
        return ModelTurn(final_text="done")
    return ModelTurn(tool_calls=(ToolCall("call-1", "get_teaching_weather", {"city": "Tokyo"}),))


def _lookups_then_answer(lookups: int) -> ScriptedModel:
    """A listed script of ``lookups`` tool turns, then an answer: it needs ``lookups + 1``
    steps, and a model reused across tries starts in the middle of its script."""
    turns = [
        ModelTurn(tool_calls=(ToolCall(f"call-{n}", "get_teaching_weather", {"city": "Tokyo"}),))
        for n in range(lookups)
    ]
    return ScriptedModel([*turns, ModelTurn(final_text="done")])


def _broken_weather(city: str) -> dict[str, Any]:
    raise ConnectionError("the weather service did not answer (a simulated outage)")


@exercise("smallest_max_steps", ("smallest_max_steps",))
def smallest_max_steps(ns: Namespace) -> Judgement:
    """``smallest_max_steps(make_model, tools)``: the smallest budget that lets the run answer.

    A correct answer returns an ``int`` (the ``max_steps`` from 1 to 6 for which a run of
    ``REQUEST`` with a fresh ``make_model()`` and the ``tools`` it was given answers, the
    smallest such), or ``None`` when no budget up to 6 is enough; it catches only
    ``MaxStepsExceeded``, so a run that fails otherwise raises out of it. Tried on:

    * the four tasks of the scripted weather model (budgets 1 to 4), so a hard-coded number
      agrees with at most one; the describe task needs the tool list it was given;
    * a listed script needing 6 steps (the top of the range; a model reused across tries
      starts in its middle) and one needing 7 (one past the range: ``None``);
    * a model that never answers (``None``), and one that answers only ``REQUEST`` (2);
    Every model reaches the answer through :func:`~agentcore.course.judges.runs.opaque`, so
    its task or its list of turns cannot be read instead of trying budgets.

    * runs that fail for another reason, each of which must come out of it: a weather tool
      whose handler raises (``ToolExecutionError``), a turn of seven tool calls, over the
      default ``max_tool_calls`` (``ToolBudgetExceeded``), and a script of one turn that runs
      out (``ScriptExhaustedError``, a ``ModelError``): an ``except`` that lists one of those
      beside ``MaxStepsExceeded`` turns that failure into "not enough steps".
    """
    function = ns["smallest_max_steps"]
    tools = [*build_tools(), DESCRIBE_TEMPERATURE_TOOL]
    cases: list[tuple[str, Callable[[], Any], int | None]] = [
        ("case_greet", lambda: ScriptedWeatherModel(task="greet"), 1),
        ("case_weather", lambda: ScriptedWeatherModel(task="weather"), 2),
        ("case_convert", lambda: ScriptedWeatherModel(task="convert"), 3),
        ("case_describe", lambda: ScriptedWeatherModel(task="describe"), 4),
        ("case_never", lambda: ScriptedModel(_never_answers), None),
        ("case_request", lambda: ScriptedModel(_answers_the_request), 2),
        # the top of the range, and one past it; a listed script, so a reused model shows
        ("case_six_steps", lambda: _lookups_then_answer(5), 6),
        ("case_seven_steps", lambda: _lookups_then_answer(6), None),
    ]
    for case, make_model, expected in asked_twice(cases):
        try:
            got = call("smallest_max_steps", function, opaque(make_model), list(tools))
        except AnswerRaised as failure:
            if isinstance(failure.error, UnknownToolError):
                return False, "budget_tools", {}
            raise
        if got is not None and type(got) is not int:
            return False, "budget_not_int", {"kind": kind(got)}
        if not same(got, expected):
            if case == "case_six_steps":  # the top of the range: a model reused across tries
                return False, "budget_six_steps", {"got": got}
            return False, "budget_wrong", {"case_key": case, "got": got}
    broken = [
        Tool(
            name=WEATHER_TOOL.name,
            description=WEATHER_TOOL.description,
            arguments_model=WeatherArguments,
            handler=_broken_weather,
        ),
        CONVERSION_TOOL,
    ]
    seven = tuple(ToolCall(f"call-{n}", WEATHER_TOOL.name, {"city": "Tokyo"}) for n in range(7))
    lookup = ToolCall("call-weather", WEATHER_TOOL.name, {"city": "Tokyo"})
    failing: list[tuple[Callable[[], Any], list[Tool], type[BaseException]]] = [
        (lambda: ScriptedWeatherModel(task="convert"), broken, ToolExecutionError),
        (lambda: ScriptedModel([ModelTurn(tool_calls=seven)]), list(tools), ToolBudgetExceeded),
        (lambda: ScriptedModel([ModelTurn(tool_calls=(lookup,))]), list(tools), ModelError),
    ]
    for make_model, given, expected_error in failing:
        try:
            function(opaque(make_model), given)
        except expected_error:
            continue
        except TimeLimitExceeded:
            raise
        except BaseException as error:
            raise AnswerRaised("smallest_max_steps", error) from error
        return False, "budget_swallowed", {}
    return True, "budget_right", {}
