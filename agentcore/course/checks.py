"""Self-checks for the lessons' exercises ("your turn" cells).

An exercise is two cells. The answer cell starts with ``forget("name", ...)``: it deletes the
names the answer defines, so a check never reads an answer left over from an earlier run, and
it notes whether the rest of that cell raised. The check cell calls ``check("exercise", "en")``,
which prints exactly one verdict line in the lesson's language:

* ``✔ ...`` the answer is accepted;
* ``✘ ...`` not attempted yet, the answer cell raised (its error type is named), or a hint.

A verdict never prints the expected answer. ``accepted(exercise)`` returns the same judgement
as a bool, for nbgrader's hidden tests (``assert accepted("...")``). ``verdict(exercise,
language, namespace)`` returns ``(accepted, line)`` and is what the tests call.

Each judge reads the learner's names from the namespace (IPython's ``user_ns`` in a
notebook) and tries the answer the way the runtime would: through ``AgentRuntime`` with
scripted models, never by reading the learner's code. Inputs are built here, so a lesson
cannot leave a check without the cases that catch the known wrong answers (the half-answered
turn, the hard-coded answer, the guesser, ``return False``, a too-broad ``except``).
"""

from __future__ import annotations

import hashlib
import inspect
import json
import linecache
import re
from collections.abc import Callable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field  # lesson 06: ReminderArguments

from agentcore import runtime as _runtime_module  # lesson 06: runtime_unchanged()
from agentcore.course.experiments import failing_handler, max_steps_limit, third_tool
from agentcore.course.teaching_tools import (
    CONVERSION_TOOL,
    DESCRIBE_TEMPERATURE_TOOL,
    WEATHER_TOOL,
    WeatherArguments,
    build_tools,
)
from agentcore.course.text import check_language, phrase, resolve_language
from agentcore.course.weather import ScriptedWeatherModel, weather_request
from agentcore.errors import (
    AgentRuntimeError,
    InvalidModelTurnError,
    MaxStepsExceeded,
    ToolArgumentsError,
    ToolExecutionError,
)
from agentcore.protocol import ModelTurn, ToolCall
from agentcore.runtime import AgentRun, AgentRuntime, RunResult
from agentcore.scripted import ScriptedModel
from agentcore.tools import Tool

Namespace = MutableMapping[str, Any]
Judgement = tuple[bool, str, dict[str, Any]]
"""(accepted, message key, values for the message's placeholders)."""


def text(key: str, language: str, **values: Any) -> str:
    """The message ``key`` in ``language``, with ``values`` filled in.

    Raises ``KeyError`` for an unknown key and ``ValueError`` for an unknown language.
    """
    return phrase("check." + key, check_language(language), **values)


# ----------------------------------------------------------------------------- answer cells


@dataclass
class _Watch:
    """Which names the current cell's ``forget`` cleared, and what each answer cell raised."""

    pending: tuple[str, ...] = ()
    errors: dict[str, str] | None = None
    hooked: bool = False


_WATCH = _Watch(errors={})


def _ipython() -> Any:
    try:
        from IPython import get_ipython
    except ImportError:  # outside IPython there is no cell to watch
        return None
    return get_ipython()


def _namespace(namespace: Namespace | None) -> Namespace:
    if namespace is not None:
        return namespace
    shell = _ipython()
    if shell is None:
        raise RuntimeError("outside IPython, pass the namespace that holds the answer")
    return shell.user_ns  # type: ignore[no-any-return]


def _after_cell(result: Any) -> None:
    """IPython ``post_run_cell`` hook: record whether the answer cell that just ran raised."""
    if not _WATCH.pending:
        return
    error = result.error_in_exec or result.error_before_exec
    assert _WATCH.errors is not None
    for name in _WATCH.pending:
        if error is None:
            _WATCH.errors.pop(name, None)
        else:
            _WATCH.errors[name] = type(error).__name__
    _WATCH.pending = ()


FORGET_CALL = re.compile(r"^forget\(([^)]*)\)", re.M)
"""An answer cell's first statement, as written in the lessons: ``forget("name", ...)``."""


def _before_cell(info: Any) -> None:
    """IPython ``pre_run_cell`` hook: clear an answer cell's names even if it cannot run.

    A cell with a syntax error never reaches its ``forget`` call; clearing the names here
    still keeps its check from reading the answer of an earlier run.
    """
    match = FORGET_CALL.search(getattr(info, "raw_cell", "") or "")
    if match is None:
        return
    names = tuple(re.findall(r"[\"'](\w+)[\"']", match.group(1)))
    shell = _ipython()
    if shell is not None and names:
        for name in names:
            shell.user_ns.pop(name, None)
        _WATCH.pending = names


def watch_answer_cells() -> None:
    """Register the hooks that clear answer cells' names and note what each cell raised.

    Called when this module is imported in IPython (a lesson's import cell), and by
    ``forget``; registering twice is a no-op.
    """
    shell = _ipython()
    if shell is None or _WATCH.hooked:
        return
    shell.events.register("pre_run_cell", _before_cell)
    shell.events.register("post_run_cell", _after_cell)
    _WATCH.hooked = True


def forget(*names: str, namespace: Namespace | None = None) -> None:
    """Delete ``names`` from the notebook's namespace; call it first in an answer cell.

    A check then never reads an answer left over from an earlier run: if the rest of the
    cell raises (or the cell does not even parse), the names stay undefined and the check says
    which error the cell raised. Inputs: the names the answer defines. Raises
    ``RuntimeError`` outside IPython without a ``namespace``.
    """
    space = _namespace(namespace)
    for name in names:
        space.pop(name, None)
    if namespace is None and _ipython() is not None:
        watch_answer_cells()
        _WATCH.pending = tuple(names)


# ----------------------------------------------------------------------------- helpers


def _kind(value: Any) -> str:
    return type(value).__name__


def _error(error: BaseException) -> str:
    return type(error).__name__


def _run(model: Any, tools: Sequence[Tool], request: str, **options: Any) -> RunResult:
    return AgentRuntime(model, tools, **options).run(request)


def _outcome(model: Any, tools: Sequence[Tool], request: str, **options: Any) -> Any:
    """The run's result, or the error it failed with."""
    try:
        return _run(model, tools, request, **options)
    except AgentRuntimeError as error:
        return error


def _call_ids(messages: Sequence[Mapping[str, Any]]) -> list[str]:
    return [str(m["tool_call_id"]) for m in messages if m.get("role") == "tool"]


class _AnswerRaised(Exception):
    """The learner's function raised while a judge used it."""

    def __init__(self, name: str, error: BaseException) -> None:
        super().__init__(name)
        self.name, self.error = name, error


def _call(name: str, function: Any, *args: Any) -> Any:
    try:
        return function(*args)
    except Exception as error:
        raise _AnswerRaised(name, error) from error


# ----------------------------------------------------------------------------- judges

JOBS = {"A": "workflow", "B": "agent", "C": "workflow", "D": "agent"}


def _workflow_or_agent(ns: Namespace) -> Judgement:
    answers = ns["my_answers"]
    if not isinstance(answers, Mapping):
        return False, "jobs_not_a_dict", {"kind": _kind(answers)}
    missing = [job for job in JOBS if answers.get(job) not in ("workflow", "agent")]
    if missing:
        return False, "jobs_missing", {"jobs": ", ".join(missing)}
    wrong = [job for job in JOBS if answers[job] != JOBS[job]]
    if wrong:
        return False, "jobs_wrong", {"count": len(wrong), "job": wrong[0], "job_key": wrong[0]}
    return True, "jobs_right", {}


def _both_cities(ns: Namespace) -> Judgement:
    turn = ns["both_cities"]
    if not isinstance(turn, ModelTurn):
        return False, "turn_not_a_model_turn", {"kind": _kind(turn)}
    calls = turn.tool_calls
    if len(calls) != 2:
        return False, "turn_call_count", {"count": len(calls)}
    if {call.name for call in calls} != {"get_teaching_weather"}:
        return False, "turn_tool_names", {}
    if sorted(str(call.arguments.get("city")) for call in calls) != ["Paris", "Tokyo"]:
        return False, "turn_cities", {}
    # The turn must also be one the runtime accepts and runs.
    outcome = _outcome(ScriptedModel([turn, ModelTurn(final_text="done")]), build_tools(), "both")
    if isinstance(outcome, AgentRuntimeError):
        return False, "turn_cities", {}
    return True, "turn_right", {}


GROWTH_SCRIPT = (
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
)


def _predict_lengths(ns: Namespace) -> Judgement:
    predicted = ns["my_lengths"]
    if not isinstance(predicted, Sequence) or isinstance(predicted, str):
        return False, "lengths_count", {"count": 4, "written": "?"}
    run = AgentRuntime(ScriptedModel(list(GROWTH_SCRIPT)), build_tools()).start(weather_request())
    actual = [len(run.messages)]
    while not run.finished:
        run.step()
        actual.append(len(run.messages))
    if len(predicted) != len(actual):
        return False, "lengths_count", {"count": len(actual), "written": len(predicted)}
    for moment, (guess, real) in enumerate(zip(predicted, actual, strict=True)):
        if guess != real:
            return False, "lengths_wrong", {"moment": moment}
    return True, "lengths_right", {}


def _never_stops(ns: Namespace) -> Judgement:
    fresh_calls, counts = ns["fresh_calls"], ns["my_counts"]
    try:
        outcome = _outcome(
            ScriptedModel(fresh_calls),
            build_tools(),
            weather_request(),
            max_steps=3,
            max_tool_calls=20,
        )
    except Exception as error:  # the function is not a turn function at all
        raise _AnswerRaised("fresh_calls", error) from error
    if isinstance(outcome, RunResult):
        return False, "never_stops_answered", {}
    if isinstance(outcome, InvalidModelTurnError):
        return False, "never_stops_refused", {"error": _error(outcome)}
    if not isinstance(outcome, MaxStepsExceeded):
        cause = outcome.__cause__
        return False, "never_stops_failed", {"error": _error(cause or outcome)}
    sizes = [len(m["tool_calls"]) for m in outcome.messages if m.get("tool_calls")]
    if any(size != 3 for size in sizes):
        return False, "never_stops_size", {"sizes": sizes}
    actual = {"model_turns": outcome.model_turns, "tool_executions": outcome.tool_executions}
    if counts != actual:
        return False, "never_stops_counts", {}
    return True, "never_stops_right", {}


def _through_runtime(tool: Tool, arguments: dict[str, Any]) -> Any:
    """Run one call of ``tool`` through the runtime: the observation dict, or the error."""
    model = ScriptedModel(
        [
            ModelTurn(tool_calls=(ToolCall("call-check", tool.name, arguments),)),
            ModelTurn(final_text="ok"),
        ]
    )
    outcome = _outcome(model, [tool], "check")
    if isinstance(outcome, AgentRuntimeError):
        return outcome
    return json.loads(outcome.messages[2]["content"])


def _to_celsius_tool(ns: Namespace) -> Judgement:
    tool = ns["to_celsius_tool"]
    if not isinstance(tool, Tool):
        return False, "tool_not_a_tool", {"kind": _kind(tool)}
    if tool.name != "fahrenheit_to_celsius":
        return False, "tool_name", {}
    parameters = tool.schema()["parameters"]
    if parameters.get("required") != ["temperature_f"] or list(
        parameters.get("properties", {})
    ) != ["temperature_f"]:
        return False, "tool_fields", {}
    good = _through_runtime(tool, {"temperature_f": 64.4})
    if isinstance(good, AgentRuntimeError):
        return False, "tool_good_call", {"error": _error(good)}
    if good != {"temperature_c": 18.0} or _through_runtime(tool, {"temperature_f": 212.0}) != {
        "temperature_c": 100.0
    }:
        return False, "tool_result", {}
    refusals: list[tuple[dict[str, Any], str]] = [
        ({"temperature_f": "64.4"}, "tool_accepted_text"),
        ({"temperature_f": -500.0}, "tool_accepted_cold"),
        ({"temperature_f": 64.4, "unit": "F"}, "tool_accepted_extra"),
    ]
    for arguments, key in refusals:
        if not isinstance(_through_runtime(tool, arguments), ToolArgumentsError):
            return False, key, {}
    return True, "tool_right", {}


def _registry_outcome(call: ToolCall, registry: Any) -> str:
    model = ScriptedModel([ModelTurn(tool_calls=(call,)), ModelTurn(final_text="ok")])
    outcome = _outcome(model, registry, "predict")
    return "runs" if isinstance(outcome, RunResult) else type(outcome).__name__


def _predictions(ns: Namespace) -> Judgement:
    """Lesson 02's five ``calls`` through the lesson's ``registry``, beside the predictions."""
    predictions, calls, registry = ns["my_predictions"], ns["calls"], ns["registry"]
    if not isinstance(predictions, Mapping):
        return False, "predictions_not_a_dict", {"kind": _kind(predictions)}
    wrong = [c for c in calls if predictions.get(c.call_id) != _registry_outcome(c, registry)]
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


def _break_second_turn(ns: Namespace) -> Judgement:
    script = ns["my_script"]
    if not isinstance(script, list | tuple) or not all(isinstance(t, ModelTurn) for t in script):
        return False, "script_not_a_list", {"kind": _kind(script)}
    outcome = _outcome(ScriptedModel(list(script)), build_tools(), weather_request())
    if isinstance(outcome, RunResult):
        return False, "script_answered", {}
    if not isinstance(outcome, ToolArgumentsError):
        return False, "script_other_error", {"error": _error(outcome)}
    if (outcome.model_turns, outcome.tool_executions) != (2, 1):
        return (
            False,
            "script_counts",
            {
                "turns": outcome.model_turns,
                "executions": outcome.tool_executions,
            },
        )
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
PARIS_RECORD = {"city": "Paris", "temperature_c": 12.0, "condition": "light rain"}

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
)


def _unanswered_calls(ns: Namespace) -> Judgement:
    function = ns["unanswered_calls"]
    wrong = []
    for case, messages, expected in UNANSWERED_CASES:
        got = _call("unanswered_calls", function, [dict(m) for m in messages])
        if got is None:
            return False, "returns_nothing", {"name": "unanswered_calls"}
        if not isinstance(got, list):
            return False, "not_a_list", {"name": "unanswered_calls", "kind": _kind(got)}
        if got != expected:
            wrong.append(case)
    if wrong:
        return (
            False,
            "transcripts_wrong",
            {
                "wrong": len(wrong),
                "total": len(UNANSWERED_CASES),
                "case_key": wrong[0],
            },
        )
    return True, "unanswered_right", {}


def _paris_weather_request() -> str:
    return "What is Paris's teaching weather?"


def _paris_models() -> dict[str, Callable[[], Any]]:
    """Models a Paris weather check must fail: each gets the answer right but not the path."""
    answer = "Paris's deterministic teaching record is 12.0°C, light rain."
    look = ToolCall("call-weather", "get_teaching_weather", {"city": "Paris"})
    again = ToolCall("call-weather-2", "get_teaching_weather", {"city": "Paris"})
    return {
        "model_guesser": lambda: ScriptedModel([ModelTurn(final_text=answer)]),
        "model_twice": lambda: ScriptedModel(
            [
                ModelTurn(tool_calls=(look,)),
                ModelTurn(tool_calls=(again,)),
                ModelTurn(final_text=answer),
            ]
        ),
    }


def _check_paris_weather(ns: Namespace) -> Judgement:
    check_paris_weather = ns["check_paris_weather"]
    try:
        check_paris_weather(lambda: ScriptedWeatherModel(city="Paris", task="weather"))
    except Exception as error:
        return False, "paris_honest_failed", {"error": _error(error)}
    for key, make_model in _paris_models().items():
        try:
            returned = check_paris_weather(make_model)
        except AssertionError:
            continue
        except Exception as error:
            return False, "paris_guesser_error", {"model_key": key, "error": _error(error)}
        if returned is not None:
            return False, "paris_returns_value", {}
        return False, "paris_passed_guesser", {"model_key": key, "what_key": "what_read"}
    return True, "paris_right", {}


def _weather_tool_with(records: Mapping[str, dict[str, Any]]) -> Tool:
    """``get_teaching_weather`` with other records: a hard-coded answer shows."""

    def other_weather(city: str) -> dict[str, Any]:
        return dict(records[city])

    return Tool(
        name=WEATHER_TOOL.name,
        description=WEATHER_TOOL.description,
        arguments_model=WeatherArguments,
        handler=other_weather,
    )


def _compare_cities(ns: Namespace) -> Judgement:
    compare_cities = ns["compare_cities"]
    warm_paris = {
        "Tokyo": {"city": "Tokyo", "temperature_c": 9.0, "condition": "clear"},
        "Paris": {"city": "Paris", "temperature_c": 21.0, "condition": "sunny"},
    }
    cases = [
        (build_tools(), "Tokyo", "Paris"),
        ([_weather_tool_with(warm_paris), CONVERSION_TOOL], "Paris", "Tokyo"),
    ]
    for tools, warmer, colder in cases:
        try:
            result = _run(ScriptedModel(compare_cities), tools, "Which city is warmer?")
        except AgentRuntimeError as error:
            return False, "compare_failed", {"error": _error(error.__cause__ or error)}
        if _call_ids(result.messages) != ["call-tokyo", "call-paris"]:
            return False, "compare_ids", {}
        if result.model_turns != 2:
            return False, "compare_turns", {"turns": result.model_turns}
        answer = result.answer
        if warmer not in answer or (
            colder in answer and answer.index(colder) < answer.index(warmer)
        ):
            return False, "compare_hard_coded", {}
    return True, "compare_right", {}


def _finished_messages(experiment: Any) -> list[Any]:
    run = experiment.start()
    for _ in run:  # to the end; a failed run keeps its error on run.error
        pass
    return list(run.messages)


def _succeeded_cases() -> list[tuple[str, list[Any], bool]]:
    guess = "Tokyo's deterministic teaching record is 18.0°C (64.4°F), cloudy."
    guessed = _run(ScriptedModel([ModelTurn(final_text=guess)]), build_tools(), weather_request())
    paris = _run(ScriptedWeatherModel(city="Paris"), build_tools(), weather_request("Paris"))
    return [
        ("case_converted", _finished_messages(third_tool()), True),
        ("case_max_steps", _finished_messages(max_steps_limit(1)), False),
        ("case_stop", _finished_messages(failing_handler("stop")), False),
        ("case_observe", _finished_messages(failing_handler("observe")), False),
        ("case_observe", _finished_messages(failing_handler("observe", retries=2)), False),
        ("case_guess", list(guessed.messages), False),
        ("case_paris", list(paris.messages), True),
        ("case_converted", _finished_messages(max_steps_limit(3)), True),
    ]


def _task_succeeded(ns: Namespace) -> Judgement:
    function = ns["task_succeeded"]
    cases = _succeeded_cases()
    wrong = []
    for case, messages, expected in cases:
        got = _call("task_succeeded", function, messages)
        if got is None:
            return False, "returns_nothing", {"name": "task_succeeded"}
        if not isinstance(got, bool):
            return False, "not_a_bool", {"name": "task_succeeded", "kind": _kind(got)}
        if got != expected:
            wrong.append(case)
    if wrong:
        return (
            False,
            "transcripts_wrong",
            {"wrong": len(wrong), "total": len(cases), "case_key": wrong[0]},
        )
    return True, "succeeded_right", {}


def _never_answers(messages: Sequence[Mapping[str, Any]], tools: Any) -> ModelTurn:
    call_id = f"call-{len(messages)}"
    return ModelTurn(tool_calls=(ToolCall(call_id, "get_teaching_weather", {"city": "Tokyo"}),))


def _broken_weather(city: str) -> dict[str, Any]:
    raise ConnectionError("the weather service did not answer (a simulated outage)")


def _smallest_max_steps(ns: Namespace) -> Judgement:
    function = ns["smallest_max_steps"]
    tools = [*build_tools(), DESCRIBE_TEMPERATURE_TOOL]
    cases: list[tuple[str, Callable[[], Any], int | None]] = [
        ("case_greet", lambda: ScriptedWeatherModel(task="greet"), 1),
        ("case_weather", lambda: ScriptedWeatherModel(task="weather"), 2),
        ("case_convert", lambda: ScriptedWeatherModel(task="convert"), 3),
        ("case_describe", lambda: ScriptedWeatherModel(task="describe"), 4),
        ("case_never", lambda: ScriptedModel(_never_answers), None),
    ]
    for case, make_model, expected in cases:
        got = _call("smallest_max_steps", function, make_model, tools)
        if got != expected:
            return False, "budget_wrong", {"case_key": case}
    broken = [
        Tool(
            name=WEATHER_TOOL.name,
            description=WEATHER_TOOL.description,
            arguments_model=WeatherArguments,
            handler=_broken_weather,
        ),
        CONVERSION_TOOL,
    ]
    try:
        function(lambda: ScriptedWeatherModel(task="convert"), broken)
    except ToolExecutionError:
        return True, "budget_right", {}
    except Exception as error:
        raise _AnswerRaised("smallest_max_steps", error) from error
    return False, "budget_swallowed", {}


def _call_item(call_id: str) -> dict[str, Any]:
    arguments = '{"city": "Tokyo"}'
    return {
        "type": "function_call",
        "call_id": call_id,
        "name": "get_teaching_weather",
        "arguments": arguments,
    }


def _output_item(call_id: str) -> dict[str, Any]:
    return {"type": "function_call_output", "call_id": call_id, "output": "{}"}


REQUEST_ITEM = {"role": "user", "content": "Tokyo?"}
ITEMS_CASES: tuple[tuple[str, list[dict[str, Any]], list[str]], ...] = (
    ("case_paired", [REQUEST_ITEM, _call_item("call-weather"), _output_item("call-weather")], []),
    ("case_latest_only", [_output_item("call-weather")], ["call-weather"]),
    ("case_output_first", [_output_item("call-a"), _call_item("call-a")], ["call-a"]),
    (
        "case_never_called",
        [_call_item("call-a"), _output_item("call-a"), _output_item("call-x")],
        ["call-x"],
    ),
    (
        "case_two_calls",
        [
            REQUEST_ITEM,
            _call_item("call-a"),
            _call_item("call-b"),
            _output_item("call-b"),
            _output_item("call-a"),
        ],
        [],
    ),
    ("case_paired", [REQUEST_ITEM], []),
)


def _unpaired_outputs(ns: Namespace) -> Judgement:
    """Lesson 05, your turn 1: outputs without an earlier call of the same ``call_id``."""
    function = ns["unpaired_outputs"]
    wrong = []
    for case, items, expected in ITEMS_CASES:
        got = _call("unpaired_outputs", function, [dict(item) for item in items])
        if got is None:
            return False, "returns_nothing", {"name": "unpaired_outputs"}
        if not isinstance(got, list):
            return False, "not_a_list", {"name": "unpaired_outputs", "kind": _kind(got)}
        if got != expected:
            wrong.append(case)
    if wrong:
        return (
            False,
            "items_wrong",
            {"wrong": len(wrong), "total": len(ITEMS_CASES), "case_key": wrong[0]},
        )
    return True, "items_right", {}


def _bad_reply(ns: Namespace) -> Judgement:
    """Lesson 05, your turn 2: a second-turn reply the adapter refuses before any handler runs.

    Uses the lesson's ``run_offline``, ``tokyo_first_turn`` and ``broken_arguments``.
    """
    from agentcore import ProviderResponseError  # (lazily) loaded only for lesson 05

    reply = ns["my_bad_reply"]
    if reply == ns["broken_arguments"]:
        return False, "reply_reused", {}
    outcome = ns["run_offline"]([ns["tokyo_first_turn"], reply], verbose=False)[0]
    if not isinstance(outcome, AgentRuntimeError):
        return False, "reply_answered", {}
    if not isinstance(outcome, ProviderResponseError):
        return False, "reply_other_error", {"error": _error(outcome)}
    if (outcome.model_turns, outcome.tool_executions) != (2, 1):
        return (
            False,
            "reply_counts",
            {
                "turns": outcome.model_turns,
                "executions": outcome.tool_executions,
            },
        )
    return True, "reply_right", {}


@dataclass(frozen=True)
class Exercise:
    """One exercise: the names its answer cell defines and the judge of the answer."""

    names: tuple[str, ...]
    judge: Callable[[Namespace], Judgement]


EXERCISES: dict[str, Exercise] = {
    "workflow_or_agent": Exercise(("my_answers",), _workflow_or_agent),
    "both_cities": Exercise(("both_cities",), _both_cities),
    "predict_lengths": Exercise(("my_lengths",), _predict_lengths),
    "never_stops": Exercise(("fresh_calls", "my_counts"), _never_stops),
    "to_celsius_tool": Exercise(("to_celsius_tool",), _to_celsius_tool),
    "predictions": Exercise(("my_predictions",), _predictions),
    "break_second_turn": Exercise(("my_script",), _break_second_turn),
    "unanswered_calls": Exercise(("unanswered_calls",), _unanswered_calls),
    "check_paris_weather": Exercise(("check_paris_weather",), _check_paris_weather),
    "compare_cities": Exercise(("compare_cities",), _compare_cities),
    "task_succeeded": Exercise(("task_succeeded",), _task_succeeded),
    "smallest_max_steps": Exercise(("smallest_max_steps",), _smallest_max_steps),
    "unpaired_outputs": Exercise(("unpaired_outputs",), _unpaired_outputs),
    "bad_reply": Exercise(("my_bad_reply",), _bad_reply),
}
"""Every exercise of the lessons, by the name its check cell uses (05's two are ready for when
lesson 05 is marked up: ``unpaired_outputs`` and ``bad_reply``)."""

_NESTED: dict[str, tuple[str, str]] = {
    "job_key": ("question", "job_"),
    "hint_key": ("hint", ""),
    "case_key": ("case", ""),
    "model_key": ("model", ""),
    "what_key": ("what", ""),
}
"""A value that names another message: (the placeholder it fills, the key's prefix)."""


def _message(key: str, language: str, values: dict[str, Any]) -> str:
    filled = dict(values)
    for nested, (slot, prefix) in _NESTED.items():
        if nested in filled:
            filled[slot] = text(prefix + str(filled.pop(nested)), language)
    if "moment" in filled:
        moment = filled.pop("moment")
        filled["when"] = (
            text("before_any_step", language)
            if moment == 0
            else text("after_step", language, step=moment)
        )
    return text(key, language, **filled)


def verdict(
    exercise: str, language: str | None = None, namespace: Namespace | None = None
) -> tuple[bool, str]:
    """Judge an exercise: ``(accepted, the one verdict line)``.

    Inputs: the exercise's name (a key of ``EXERCISES``), the lesson's language (default:
    :func:`agentcore.course.text.current_language`, what ``set_language`` chose), and the
    namespace holding the answer (default: the running notebook's). Never raises for a wrong
    or broken answer; raises ``KeyError`` for an unknown exercise and ``ValueError`` for an
    unknown language.
    """
    language = resolve_language(language)
    spec = EXERCISES[exercise]
    ns = _namespace(namespace)
    assert _WATCH.errors is not None
    raised = [_WATCH.errors[name] for name in spec.names if name in _WATCH.errors]
    missing = [name for name in spec.names if name not in ns]
    if raised and missing:
        ok, key, values = False, "answer_cell_raised", {"error": raised[0]}
    elif missing:
        ok, key, values = False, "not_attempted", {"names": ", ".join(missing)}
    else:
        try:
            ok, key, values = spec.judge(ns)
        except _AnswerRaised as failure:
            ok, key, values = (
                False,
                "answer_raised",
                {
                    "name": failure.name,
                    "error": _error(failure.error),
                },
            )
        except Exception as error:  # the answer broke the judge: still one ✘ line, no traceback
            ok, key, values = (
                False,
                "answer_raised",
                {
                    "name": ", ".join(spec.names),
                    "error": _error(error),
                },
            )
    prefix_key = "not attempted" if key == "not_attempted" else "right" if ok else "not yet"
    prefix = phrase("check.prefix." + prefix_key, language)
    return ok, prefix + _message(key, language, values)


def check(exercise: str, language: str | None = None) -> None:
    """Print the exercise's one verdict line (``✔ ...`` or ``✘ ...``); never raises for one.

    ``language`` defaults to the one ``set_language`` chose (see :func:`verdict`)."""
    print(verdict(exercise, language)[1])


def accepted(exercise: str, language: str | None = None) -> bool:
    """Whether the answer is accepted: for nbgrader's hidden tests, ``assert accepted(...)``.

    ``language`` defaults to the one ``set_language`` chose (see :func:`verdict`)."""
    return verdict(exercise, language)[0]


# ----------------------------------------------------------------------------- lesson 06 (issue 13)
# Lesson 06's learner tasks for sections 12 and 13: the learner builds each experiment, and
# these judges run it through an unchanged AgentRuntime and compare with the run's own events.
# The core (06-experiments) holds two_calls, describe_temperature, failing_reminder,
# reminder_twice, max_steps_one and smallest_max_steps; the appendix
# (06-appendix-reference-and-trajectory) holds task_succeeded, trajectory and where.

_RUNTIME_SOURCE_HASH = hashlib.sha256(inspect.getsource(_runtime_module).encode()).hexdigest()
_RUNTIME_CLASSES = (AgentRuntime, AgentRun)
_RUNTIME_ATTRIBUTES = {cls: dict(vars(cls)) for cls in _RUNTIME_CLASSES}


def runtime_unchanged() -> bool:
    """Whether ``agentcore.runtime`` is as it was when this module was imported.

    Compares a SHA-256 of the module's source (read again from disk) with the hash taken at
    import, and every attribute of ``AgentRuntime`` and ``AgentRun`` with the ones seen then
    (so a monkeypatched method shows too). Returns a bool; never raises.
    """
    try:
        linecache.checkcache(_runtime_module.__file__)
        source = inspect.getsource(_runtime_module)
    except (OSError, TypeError):
        return False
    if hashlib.sha256(source.encode()).hexdigest() != _RUNTIME_SOURCE_HASH:
        return False
    if _runtime_module.AgentRuntime is not AgentRuntime or _runtime_module.AgentRun is not AgentRun:
        return False
    return all(dict(vars(cls)) == _RUNTIME_ATTRIBUTES[cls] for cls in _RUNTIME_CLASSES)


def _finished_run(runtime: AgentRuntime, request: str) -> AgentRun:
    run = runtime.start(request)
    for _ in run:  # to the end; a failed run keeps its error on run.error
        pass
    return run


def _tool_names(messages: Sequence[Mapping[str, Any]]) -> list[str]:
    return [str(m["name"]) for m in messages if m.get("role") == "tool"]


def _two_calls(ns: Namespace) -> Judgement:
    """Your turn: two calls in one turn, then a turn that reuses one of their call_ids."""
    turns, prediction = ns["my_turns"], ns["my_prediction"]
    if not isinstance(turns, (list, tuple)) or not all(isinstance(t, ModelTurn) for t in turns):
        return False, "turns_not_list", {"kind": _kind(turns)}
    if len(turns) < 2:
        return False, "turns_too_few", {"count": len(turns)}
    first = turns[0].tool_calls
    if len(first) != 2:
        return False, "turns_first", {"count": len(first)}
    second_ids = {call.call_id for call in turns[1].tool_calls}
    if not second_ids & {call.call_id for call in first}:
        return False, "turns_second_fresh", {}
    run = _finished_run(AgentRuntime(ScriptedModel(list(turns)), build_tools()), weather_request())
    if not isinstance(run.error, InvalidModelTurnError) or run.model_turns != 2:
        failure = "-" if run.error is None else _error(run.error)
        return False, "turns_not_refused", {"error": failure, "turns": run.model_turns}
    if not isinstance(prediction, Mapping):
        return False, "prediction_not_a_dict", {"name": "my_prediction", "kind": _kind(prediction)}
    if prediction.get("tool executions") != run.tool_executions:
        return False, "turns_prediction_executions", {}
    if prediction.get("error") != _error(run.error):
        return False, "turns_prediction_error", {}
    return True, "turns_right", {}


def _hot_weather_tool() -> Tool:
    return _weather_tool_with(
        {
            "Tokyo": {"city": "Tokyo", "temperature_c": 30.0, "condition": "sunny"},
            "Paris": {"city": "Paris", "temperature_c": 30.0, "condition": "sunny"},
        }
    )


def _describe_temperature(ns: Namespace) -> Judgement:
    """Your turn: the third tool, by changing only the tools and the model stand-in."""
    tool, script = ns["my_describe_tool"], ns["describe_script"]
    if not isinstance(tool, Tool):
        return False, "describe_not_a_tool", {"kind": _kind(tool)}
    if tool.name != DESCRIBE_TEMPERATURE_TOOL.name:
        return False, "describe_name", {"name": tool.name}
    if not callable(script) or isinstance(script, (list, tuple)):
        return False, "describe_not_a_function", {"kind": _kind(script)}
    expected = {"Tokyo": "mild", "hot": "hot"}
    for case, weather in (("Tokyo", WEATHER_TOOL), ("hot", _hot_weather_tool())):
        runtime = AgentRuntime(ScriptedModel(script), [weather, CONVERSION_TOOL, tool])
        run = _finished_run(runtime, weather_request(task="describe"))
        if run.error is not None:
            cause = run.error.__cause__ or run.error
            if isinstance(cause, _AnswerRaised):
                cause = cause.error
            return False, "describe_failed", {"error": _error(cause)}
        names = _tool_names(run.messages)
        if names != [WEATHER_TOOL.name, CONVERSION_TOOL.name, tool.name]:
            return False, "describe_trace", {"tools": ", ".join(names) or "-"}
        described = json.loads(run.messages[-2]["content"])
        if described.get("description") != expected[case]:
            return False, "describe_hard_coded", {}
    if not runtime_unchanged():
        return False, "describe_runtime_changed", {}
    return True, "describe_right", {}


class ReminderArguments(BaseModel):
    """Arguments of ``send_reminder``: the reminder's text."""

    model_config = ConfigDict(extra="forbid", strict=True)

    text: str = Field(description="The reminder to send.")


def reminder_runtime(send_reminder: Callable[..., Any], on_tool_error: str) -> AgentRuntime:
    """A runtime whose only tool is ``send_reminder`` and whose model retries a failure once.

    The model stand-in (a function script) asks for ``send_reminder`` (``call-remind``); if
    the last observation is a failure it asks once more as ``call-remind-retry``, then gives
    up with a final text (texts in :func:`agentcore.course.text.current_language`).
    ``on_tool_error`` is ``"stop"`` or ``"observe"``. Raises what
    ``Tool`` raises when the handler does not fit ``ReminderArguments`` (a ``TypeError``).
    """
    tool = Tool(
        name="send_reminder",
        description="Send the user a reminder; returns a confirmation.",
        arguments_model=ReminderArguments,
        handler=send_reminder,
    )

    from agentcore.course.text import phrase

    reminder = phrase("lesson 06.reminder")
    sent, failed = phrase("lesson 06.reminder sent"), phrase("lesson 06.reminder failed")

    def retry_once(messages: Sequence[Mapping[str, Any]], tools: Any) -> ModelTurn:
        tries = sum(1 for m in messages if m.get("role") == "tool")
        last = json.loads(messages[-1]["content"]) if tries else {}
        if tries < 2 and (tries == 0 or "error" in last):
            call_id = "call-remind" if tries == 0 else "call-remind-retry"
            call = ToolCall(call_id, "send_reminder", {"text": reminder})
            return ModelTurn(tool_calls=(call,))
        return ModelTurn(final_text=failed if "error" in last else sent)

    return AgentRuntime(ScriptedModel(retry_once), [tool], on_tool_error=on_tool_error)  # type: ignore[arg-type]


def _failing_reminder(ns: Namespace) -> Judgement:
    """Your turn: a handler that sends (a side effect), then raises."""
    handler, outbox = ns["send_reminder"], ns.get("outbox")
    if not isinstance(outbox, list):
        return False, "reminder_no_outbox", {}
    kept = list(outbox)
    try:
        sent: dict[str, int] = {}
        for policy in ("stop", "observe"):
            outbox.clear()
            try:
                runtime = reminder_runtime(handler, policy)
            except TypeError as error:
                raise _AnswerRaised("send_reminder", error) from error
            run = _finished_run(runtime, "Remind me to take an umbrella.")
            sent[policy] = len(outbox)
            if policy == "stop" and not isinstance(run.error, ToolExecutionError):
                return False, "reminder_no_raise", {}
        if sent["stop"] == 0:
            return False, "reminder_no_side_effect", {}
        if sent != {"stop": 1, "observe": 2}:
            return False, "reminder_counts", {"stop": sent["stop"], "observe": sent["observe"]}
    finally:
        outbox[:] = kept
    return True, "reminder_right", {}


def _reminder_twice(ns: Namespace) -> Judgement:
    """Your turn: how many reminders went out under each policy; does a retry send it twice?"""
    reminders, twice = ns["my_reminders"], ns["sent_twice"]
    if not isinstance(reminders, Mapping):
        return False, "prediction_not_a_dict", {"name": "my_reminders", "kind": _kind(reminders)}
    if reminders.get("stop") != 1:
        return False, "twice_stop", {}
    if reminders.get("observe") != 2:
        return False, "twice_observe", {}
    if twice is not True:
        return False, "twice_answer", {}
    return True, "twice_right", {}


def _max_steps_one(ns: Namespace) -> Judgement:
    """Your turn: predict the run of the Tokyo task with ``max_steps=1``."""
    prediction = ns["my_max_steps_prediction"]
    if not isinstance(prediction, Mapping):
        name = "my_max_steps_prediction"
        return False, "prediction_not_a_dict", {"name": name, "kind": _kind(prediction)}
    runtime = AgentRuntime(ScriptedWeatherModel(), build_tools(), max_steps=1)
    run = _finished_run(runtime, weather_request())
    actual = {
        "status": run.status if hasattr(run, "status") else ("failed" if run.error else "answered"),
        "model turns": run.model_turns,
        "tool executions": run.tool_executions,
        "error": "-" if run.error is None else _error(run.error),
    }
    wrong = [key for key in actual if prediction.get(key) != actual[key]]
    if wrong:
        return False, "max_steps_wrong", {"count": len(wrong), "field": wrong[0]}
    return True, "max_steps_right", {}


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
"""The shuffled steps of the Tokyo run (lesson 06's appendix, section 13): event type and tool
name."""


def _event_step(event: Any) -> str | None:
    from agentcore.events import ModelDecision, ToolAction, ToolObservation

    if isinstance(event, ModelDecision):
        calls = event.turn.tool_calls
        key = ("ModelDecision", calls[0].name if calls else None)
    elif isinstance(event, (ToolAction, ToolObservation)):
        key = (type(event).__name__, event.call.name)
    else:
        key = (type(event).__name__, None)
    return next((step for step, value in TRAJECTORY_STEPS.items() if value == key), None)


def _trajectory(ns: Namespace) -> Judgement:
    """Your turn: the Tokyo trajectory's steps in order, each with who acts."""
    from agentcore.course.snapshot import holder

    answer = ns["my_trajectory"]
    if not isinstance(answer, (list, tuple)) or not all(
        isinstance(item, (list, tuple)) and len(item) == 2 for item in answer
    ):
        return False, "trajectory_format", {"kind": _kind(answer)}
    run = _finished_run(AgentRuntime(ScriptedWeatherModel(), build_tools()), weather_request())
    expected = [(_event_step(event), holder(event)) for event in run.events]
    if len(answer) != len(expected):
        return False, "trajectory_length", {"count": len(answer), "total": len(expected)}
    for position, ((step, who), (right_step, right_who)) in enumerate(
        zip(answer, expected, strict=True), start=1
    ):
        if step != right_step:
            return False, "trajectory_order", {"position": position}
        if who != right_who:
            return False, "trajectory_holder", {"step": step}
    return True, "trajectory_right", {}


WHERE_QUESTIONS = ("decides", "executes", "state", "errors", "stops")
WHERE_ACCEPTED: dict[str, set[tuple[str, str]]] = {
    "decides": {
        ("runtime.py", "_ask_model"),
        ("protocol.py", "generate"),
        ("protocol.py", "Model"),
        ("scripted.py", "generate"),
        ("weather.py", "generate"),
        ("deepseek.py", "generate"),
    },
    "executes": {("tools.py", "execute"), ("tools.py", "invoke"), ("runtime.py", "_execute")},
    "state": {("runtime.py", "AgentRun"), ("runtime.py", "record")},
    "errors": {
        ("runtime.py", "_check_turn"),
        ("runtime.py", "_check_call_ids"),
        ("runtime.py", "_check_budget"),
        ("runtime.py", "_execute"),
        ("tools.py", "validate"),
        ("tools.py", "prepare"),
        ("tools.py", "get"),
        ("protocol.py", "__post_init__"),
    },
    "stops": {("runtime.py", "_loop")},
}
"""The five "where" questions of lesson 06's appendix: (file, function or class) answers that
are right."""

_WHERE_MODULES = {
    "runtime.py": "agentcore.runtime",
    "tools.py": "agentcore.tools",
    "protocol.py": "agentcore.protocol",
    "scripted.py": "agentcore.scripted",
    "errors.py": "agentcore.errors",
    "events.py": "agentcore.events",
    "weather.py": "agentcore.course.weather",
    "deepseek.py": "agentcore.providers.deepseek",
}


def _defines(file: str, name: str) -> bool:
    import importlib

    module_name = _WHERE_MODULES.get(file)
    if module_name is None:
        return False
    source = inspect.getsource(importlib.import_module(module_name))
    return re.search(rf"^\s*(?:def|class)\s+{re.escape(name)}\b", source, re.M) is not None


def _where(ns: Namespace) -> Judgement:
    """Your turn: the chapter's five "where" questions, each as (file, function)."""
    answers = ns["my_where"]
    if not isinstance(answers, Mapping):
        return False, "prediction_not_a_dict", {"name": "my_where", "kind": _kind(answers)}
    missing = [question for question in WHERE_QUESTIONS if question not in answers]
    if missing:
        return False, "where_missing", {"questions": ", ".join(missing)}
    for question in WHERE_QUESTIONS:
        answer = answers[question]
        if (
            not isinstance(answer, (list, tuple))
            or len(answer) != 2
            or not all(isinstance(part, str) for part in answer)
        ):
            return False, "where_format", {"question": question}
        file = answer[0].replace("\\", "/").rsplit("/", 1)[-1]
        name = answer[1].rsplit(".", 1)[-1].removesuffix("()")
        if not _defines(file, name):
            return False, "where_no_such", {"question": question, "file": file, "function": name}
        if (file, name) not in WHERE_ACCEPTED[question]:
            return False, "where_wrong", {"question": question, "what_key": f"where_{question}"}
    return True, "where_right", {}


EXERCISES.update(
    {
        "two_calls": Exercise(("my_turns", "my_prediction"), _two_calls),
        "describe_temperature": Exercise(
            ("my_describe_tool", "describe_script"), _describe_temperature
        ),
        "failing_reminder": Exercise(("send_reminder",), _failing_reminder),
        "reminder_twice": Exercise(("my_reminders", "sent_twice"), _reminder_twice),
        "max_steps_one": Exercise(("my_max_steps_prediction",), _max_steps_one),
        "trajectory": Exercise(("my_trajectory",), _trajectory),
        "where": Exercise(("my_where",), _where),
    }
)
# ----------------------------------------------------------------------------- end of lesson 06


watch_answer_cells()  # in a notebook, from the lesson's import cell on
