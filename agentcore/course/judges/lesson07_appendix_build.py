"""Lesson 07's appendix (07-appendix-build-it-yourself): five exercises from the source
chapter's companion material (``exercises/review-questions.md`` and
``exercises/provider-adapter-exercises.md`` of wds1996/Tiny-Agent, ``stages/01-react-runtime``).

* ``wire_by_hand``: ``my_messages``, a short transcript written by hand in DeepSeek's Chat
  Completions format; judged against the adapter's own translation
  (:func:`agentcore.providers.openai_compatible.to_chat_messages`).
* ``extract_tool_calls``: the learner's ``extract_tool_calls(response)``; judged on valid and
  malformed chat completions against the adapter's own reading
  (:func:`agentcore.providers.openai_compatible.to_chat_model_turn`).
* ``dependent_calls``: ``my_dependent_prediction``, what the runtime does with a conversion
  asked in the same turn as the lookup it needs; judged against a run.
* ``own_loop``: the learner's ``run_my_loop(model, tools, request, max_steps)``; judged on the
  chapter's trajectory and three failures (unknown tool, ``max_steps``, invalid arguments).
* ``design_faults``: ``my_faults``, the four design faults of the lesson's bad runtime, named
  from the lesson's list under the course's one spelling rule.

Every expected value comes from the package (the adapter, the runtime), never from a table of
answers, except the design faults, which are a reading of code shown in the lesson.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from agentcore.course.judges.core import (
    AnswerRaised,
    Judgement,
    Namespace,
    asked_twice,
    call,
    dict_with_keys,
    error_name,
    exercise,
    fresh_call_id,
    kind,
    plain,
    same,
    spelled,
    written_key,
)
from agentcore.course.text import Language, current_language, phrase
from agentcore.protocol import ModelTurn, ToolCall
from agentcore.runtime import AgentRuntime
from agentcore.scripted import ScriptedModel

# ----------------------------------------------------------------------------- wire_by_hand

# The request and the final text of the transcript the lesson translates, in the learner's
# language (the lesson's cell writes the same): messages "build.request" and "build.answer".

WIRE_CALL_ID = "call-weather"


def wire_transcript(language: Language) -> list[dict[str, Any]]:
    """The transcript the lesson shows: the runtime's record of one lookup and an answer, in
    ``language`` (``"en"`` or ``"zh-CN"``), made by a run of :class:`AgentRuntime`."""
    from agentcore.course.teaching_tools import build_tools

    script = [
        ModelTurn(tool_calls=(ToolCall(WIRE_CALL_ID, "get_teaching_weather", {"city": "Tokyo"}),)),
        ModelTurn(final_text=phrase("build.answer", language)),
    ]
    result = AgentRuntime(ScriptedModel(script), build_tools()).run(
        phrase("build.request", language)
    )
    return [dict(message) for message in result.messages]


def wire_reference(language: Language) -> list[dict[str, Any]]:
    """What the DeepSeek Chat Completions adapter sends for :func:`wire_transcript`."""
    from agentcore.providers.openai_compatible import to_chat_messages

    return to_chat_messages(wire_transcript(language))


NAMED_VALUES = ("role", "type", "name")
"""Keys whose values are names: compared by the one spelling rule, like keys."""


def _wire_difference(given: Any, wanted: Any, where: str) -> Judgement | None:
    """The first difference between the learner's ``given`` and the adapter's ``wanted``
    (plain data), as a judgement naming ``where`` it is; ``None`` when they agree. Keys and
    the values of :data:`NAMED_VALUES` are read by the one spelling rule; ``arguments`` is
    JSON text compared by what it decodes to; everything else exactly."""
    if isinstance(wanted, dict):
        if not isinstance(given, dict):
            return False, "wire_value", {"where": where}
        keys = {spelled(key): key for key in given}
        for key in wanted:
            if key not in keys:
                return False, "wire_missing_key", {"where": where, "field": key}
        for key in keys:
            if key not in wanted:
                return False, "wire_extra_key", {"where": where, "field": keys[key]}
        for key, value in wanted.items():
            inner = f"{where}[{keys[key]!r}]"
            item = given[keys[key]]
            if key == "arguments":
                if not isinstance(item, str):
                    return False, "wire_arguments_text", {"where": inner, "kind": kind(item)}
                try:
                    decoded = json.loads(item)
                except ValueError:
                    return False, "wire_arguments_json", {"where": inner}
                if not same(decoded, json.loads(value)):
                    return False, "wire_value", {"where": inner}
                continue
            if key in NAMED_VALUES and isinstance(item, str) and isinstance(value, str):
                if spelled(item) != spelled(value):
                    return False, "wire_value", {"where": inner}
                continue
            found = _wire_difference(item, value, inner)
            if found is not None:
                return found
        return None
    if isinstance(wanted, list):
        if not isinstance(given, list):
            return False, "wire_value", {"where": where}
        if len(given) != len(wanted):
            return (
                False,
                "wire_length",
                {"where": where, "given": len(given), "wanted": len(wanted)},
            )
        for index, (item, value) in enumerate(zip(given, wanted, strict=True)):
            found = _wire_difference(item, value, f"{where}[{index}]")
            if found is not None:
                return found
        return None
    if same(given, wanted):
        return None
    if wanted is None:  # an assistant message that only calls tools: no text at all
        return False, "wire_none", {"where": where}
    return False, "wire_value", {"where": where}


@exercise("wire_by_hand", ("my_messages",))
def wire_by_hand(ns: Namespace) -> Judgement:
    """``my_messages``: the ``messages`` list a DeepSeek request carries for the lesson's
    transcript (:func:`wire_transcript` in the lesson's language), written by hand. Right when
    it agrees with :func:`wire_reference`: the same messages in the same order, the same keys
    (by the one spelling rule), each call's ``arguments`` JSON text that decodes to the same
    object, every other value the same."""
    value = ns["my_messages"]
    if type(value) is not list:
        return False, "wire_not_a_list", {"kind": kind(value)}
    found = _wire_difference(plain(value), wire_reference(current_language()), "my_messages")
    if found is not None:
        return found
    return True, "wire_right", {}


# ----------------------------------------------------------------------------- extract_tool_calls


def _completion(message: Mapping[str, Any] | None, finish: str = "tool_calls") -> dict[str, Any]:
    choices = (
        [] if message is None else [{"index": 0, "message": dict(message), "finish_reason": finish}]
    )
    return {"id": "chatcmpl-lesson", "object": "chat.completion", "choices": choices}


def _chat_call(call_id: str, name: str, arguments: str) -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


def extract_cases() -> list[tuple[str, dict[str, Any]]]:
    """The chat completions the check hands to ``extract_tool_calls``, with call_ids drawn
    for this verdict alone: ``(message key naming the case, the completion)``. Three valid
    replies (one call, two calls, a final text) and ten malformed ones (arguments that are not
    JSON; JSON that is not an object: a list, ``null``, a number, a string; a call without a
    name, one without an id, one whose type is not ``"function"``; no choice; a message with
    neither calls nor text). A malformed call the adapter refuses must be refused with its
    :class:`ProviderResponseError`, not left to :class:`ToolCall` to refuse with another error."""
    taken: set[str] = set()
    one, two, three = (fresh_call_id(taken) for _ in range(3))
    weather = '{"city": "Tokyo"}'
    return [
        (
            "case_extract_one_call",
            _completion(
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [_chat_call(one, "get_teaching_weather", weather)],
                }
            ),
        ),
        (
            "case_extract_two_calls",
            _completion(
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        _chat_call(two, "get_teaching_weather", '{"city": "Paris"}'),
                        _chat_call(three, "celsius_to_fahrenheit", '{"temperature_c": 18.0}'),
                    ],
                }
            ),
        ),
        (
            "case_extract_final_text",
            _completion({"role": "assistant", "content": "Tokyo is cloudy."}, "stop"),
        ),
        (
            "case_extract_not_json",
            _completion(
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [_chat_call(one, "get_teaching_weather", "{city: Tokyo}")],
                }
            ),
        ),
        (
            "case_extract_not_an_object",
            _completion(
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [_chat_call(one, "celsius_to_fahrenheit", "[18.0]")],
                }
            ),
        ),
        (
            "case_extract_no_name",
            _completion(
                {"role": "assistant", "content": None, "tool_calls": [_chat_call(one, "", weather)]}
            ),
        ),
        *(
            (
                case,
                _completion(
                    {
                        "role": "assistant",
                        "content": None,
                        "tool_calls": [_chat_call(one, "celsius_to_fahrenheit", arguments)],
                    }
                ),
            )
            for case, arguments in (
                ("case_extract_null_arguments", "null"),
                ("case_extract_number_arguments", "18"),
                ("case_extract_text_arguments", '"x"'),
            )
        ),
        (
            "case_extract_no_id",
            _completion(
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "type": "function",
                            "function": {"name": "get_teaching_weather", "arguments": weather},
                        }
                    ],
                }
            ),
        ),
        (
            "case_extract_not_a_function",
            _completion(
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {**_chat_call(one, "get_teaching_weather", weather), "type": "custom"}
                    ],
                }
            ),
        ),
        ("case_extract_no_choice", _completion(None)),
        (
            "case_extract_empty_message",
            _completion({"role": "assistant", "content": None}, "stop"),
        ),
    ]


EXTRACT_ERROR = "ProviderResponseError"
"""The typed error a malformed reply must raise: the adapter's own."""


def extract_reference(completion: Mapping[str, Any]) -> list[tuple[str, str, Any]] | None:
    """The adapter's reading of ``completion``: its calls as ``(call_id, name, arguments)``,
    or ``None`` when the adapter refuses it (``ProviderResponseError``)."""
    from agentcore.providers.errors import ProviderResponseError
    from agentcore.providers.openai_compatible import to_chat_model_turn

    try:
        turn = to_chat_model_turn(completion)
    except ProviderResponseError:
        return None
    return [(c.call_id, c.name, plain(dict(c.arguments))) for c in turn.tool_calls]


def _raised(failure: AnswerRaised) -> str:
    """The name of what the learner's code raised; a stop (``KeyboardInterrupt``, the time
    limit) is raised again, so the verdict says the learner stopped it or it ran too long."""
    if not isinstance(failure.error, Exception):
        raise failure
    return error_name(failure.error)


@exercise("extract_tool_calls", ("extract_tool_calls",))
def extract_tool_calls(ns: Namespace) -> Judgement:
    """``extract_tool_calls(response)``: the tool calls of a chat completion (a dict as the
    JSON decodes) as a list of ``ToolCall`` in order (``[]`` for a final text), or
    ``ProviderResponseError`` for a reply the adapter refuses (:func:`extract_cases`, each
    asked twice in a random order). Judged against :func:`extract_reference`."""
    function = ns["extract_tool_calls"]
    for case, completion in asked_twice(extract_cases()):
        wanted = extract_reference(completion)
        try:
            got = call("extract_tool_calls", function, json.loads(json.dumps(completion)))
        except AnswerRaised as failure:
            raised = _raised(failure)
            if wanted is not None:
                return False, "extract_raised", {"case_key": case, "error": raised}
            if raised != EXTRACT_ERROR:
                return False, "extract_other_error", {"case_key": case, "error": raised}
            continue
        if wanted is None:
            return False, "extract_accepted", {"case_key": case}
        if type(got) is not list:
            return False, "extract_not_a_list", {"kind": kind(got)}
        strange = [item for item in got if type(item) is not ToolCall]
        if strange:
            return False, "extract_not_calls", {"kind": kind(strange[0])}
        calls = [(c.call_id, c.name, plain(dict(c.arguments))) for c in got]
        if not same(calls, wanted):
            return False, "extract_wrong", {"case_key": case}
    return True, "extract_right", {}


# ----------------------------------------------------------------------------- dependent_calls

MADE_UP_CELSIUS = 20.0
"""The temperature the lesson's model writes into the conversion before any record exists."""

DEPENDENT_KEYS = ("tool executions", "model turns", "fahrenheit")


def dependent_script() -> list[ModelTurn]:
    """The lesson's script: the lookup and the conversion in one turn (the conversion's
    argument made up, since no result exists yet), then a final text."""
    return [
        ModelTurn(
            tool_calls=(
                ToolCall("call-weather", "get_teaching_weather", {"city": "Tokyo"}),
                ToolCall(
                    "call-convert", "celsius_to_fahrenheit", {"temperature_c": MADE_UP_CELSIUS}
                ),
            )
        ),
        ModelTurn(final_text="Tokyo: 18.0 °C, 68.0 °F."),
    ]


def dependent_reference() -> dict[str, Any]:
    """What the runtime does with :func:`dependent_script`: its counts, and the Fahrenheit
    value the conversion returned (read from the run's transcript)."""
    from agentcore.course.teaching_tools import build_tools

    result = AgentRuntime(ScriptedModel(dependent_script()), build_tools()).run("Tokyo in °F?")
    converted = next(
        json.loads(m["content"])
        for m in result.messages
        if m.get("role") == "tool" and m.get("tool_call_id") == "call-convert"
    )
    return {
        "tool executions": result.tool_executions,
        "model turns": result.model_turns,
        "fahrenheit": float(converted["temperature_f"]),
    }


@exercise("dependent_calls", ("my_dependent_prediction",))
def dependent_calls(ns: Namespace) -> Judgement:
    """``my_dependent_prediction``: a dict with the keys ``"tool executions"`` and ``"model
    turns"`` (ints) and ``"fahrenheit"`` (a number): the run's counts and the Fahrenheit value
    the conversion returned, as :func:`dependent_reference` finds them (within 0.05)."""
    value = ns["my_dependent_prediction"]
    given = dict_with_keys(value, "my_dependent_prediction", DEPENDENT_KEYS)
    if not isinstance(given, dict):
        return given
    for key in DEPENDENT_KEYS:
        item = given[key]
        number = key == "fahrenheit"
        good = type(item) in ((int, float) if number else (int,))
        if not good:
            name = f"my_dependent_prediction[{written_key(plain(value), key)!r}]"
            wanted = "float" if number else "int"
            return False, "value_type", {"name": name, "wanted": wanted, "kind": kind(item)}
    expected = dependent_reference()
    if given["tool executions"] != expected["tool executions"]:
        return False, "dependent_executions", {}
    if given["model turns"] != expected["model turns"]:
        return False, "dependent_turns", {}
    if abs(given["fahrenheit"] - expected["fahrenheit"]) > 0.05:
        return False, "dependent_fahrenheit", {}
    return True, "dependent_right", {}


# ----------------------------------------------------------------------------- own_loop

LOOP_MAX_STEPS = 4
"""The ``max_steps`` the check passes: one more than the chapter's trajectory needs."""


# The final text of the trajectory run_my_loop is judged on: message "build.loop answer".


class _Trace:
    """What the check's model and tools saw during one run of the learner's loop."""

    def __init__(self) -> None:
        self.turns = 0
        self.executed: list[tuple[str, Any]] = []
        self.saw_record = False


def _requested(message: Any) -> list[Any]:
    """The call_ids an assistant message of the transcript asks for (``[]`` for any other)."""
    if not isinstance(message, Mapping) or message.get("role") != "assistant":
        return []
    calls = message.get("tool_calls")
    if not isinstance(calls, (list, tuple)):
        return []
    return [call.get("call_id") for call in calls if isinstance(call, Mapping)]


def _observation(messages: Sequence[Any], call_id: str) -> Any:
    """The decoded content of the tool message answering ``call_id``, after the assistant
    message that asked for it (as a provider pairs them); ``None`` without one."""
    asked = False
    for message in messages:
        asked = asked or call_id in _requested(message)
        if (
            asked
            and isinstance(message, Mapping)
            and message.get("role") == "tool"
            and message.get("tool_call_id") == call_id
        ):
            try:
                return json.loads(message["content"])
            except (KeyError, TypeError, ValueError):
                return None
    return None


def loop_tools(trace: _Trace) -> list[Any]:
    """The chapter's two tools, their handlers noting each execution in ``trace``."""
    import dataclasses

    from agentcore.course.teaching_tools import CONVERSION_TOOL, WEATHER_TOOL

    def get_teaching_weather(city: str) -> Any:
        trace.executed.append(("get_teaching_weather", city))
        return WEATHER_TOOL.handler(city=city)

    def celsius_to_fahrenheit(temperature_c: float) -> Any:
        trace.executed.append(("celsius_to_fahrenheit", temperature_c))
        return CONVERSION_TOOL.handler(temperature_c=temperature_c)

    return [
        dataclasses.replace(WEATHER_TOOL, handler=get_teaching_weather),
        dataclasses.replace(CONVERSION_TOOL, handler=celsius_to_fahrenheit),
    ]


def trajectory_model(trace: _Trace, lookup: str, convert: str, answer: str) -> ScriptedModel:
    """The chapter's trajectory, decided from the transcript alone: the lookup (``lookup``,
    a call_id), then the conversion of the temperature it read (``convert``), then ``answer``.
    A model that never reads the lookup's observation asks for it again."""

    def play(messages: Sequence[Any], tools: Any) -> ModelTurn:
        trace.turns += 1
        record = _observation(messages, lookup)
        if not isinstance(record, Mapping) or "temperature_c" not in record:
            return ModelTurn(
                tool_calls=(ToolCall(lookup, "get_teaching_weather", {"city": "Tokyo"}),)
            )
        trace.saw_record = True
        if _observation(messages, convert) is None:
            celsius = record["temperature_c"]
            return ModelTurn(
                tool_calls=(ToolCall(convert, "celsius_to_fahrenheit", {"temperature_c": celsius}),)
            )
        return ModelTurn(final_text=answer)

    return ScriptedModel(play)


def failing_model(trace: _Trace, case: str, taken: set[str]) -> ScriptedModel:
    """A model for one failure case: an unknown tool, a lookup asked for ever (``max_steps``),
    or a conversion with a temperature that is not a number."""

    def play(messages: Sequence[Any], tools: Any) -> ModelTurn:
        trace.turns += 1
        call_id = fresh_call_id(taken)
        if case == "case_loop_unknown":
            return ModelTurn(tool_calls=(ToolCall(call_id, "get_live_weather", {"city": "Tokyo"}),))
        if case == "case_loop_invalid":
            arguments = {"temperature_c": "warm"}
            return ModelTurn(tool_calls=(ToolCall(call_id, "celsius_to_fahrenheit", arguments),))
        return ModelTurn(tool_calls=(ToolCall(call_id, "get_teaching_weather", {"city": "Tokyo"}),))

    return ScriptedModel(play)


LOOP_FAILURES = {
    "case_loop_unknown": "UnknownToolError",
    "case_loop_max_steps": "MaxStepsExceeded",
    "case_loop_invalid": "ToolArgumentsError",
}
"""Each failure case and the course's typed error the loop must raise for it."""


def _run_loop(function: Any, model: Any, tools: list[Any], request: str, steps: int) -> Any:
    """The learner's loop's answer, or the name of the error it raised (a ``str`` either way;
    the second in a one-item tuple)."""
    try:
        return call("run_my_loop", function, model, tools, request, steps)
    except AnswerRaised as failure:
        return (_raised(failure),)


@exercise("own_loop", ("run_my_loop",))
def own_loop(ns: Namespace) -> Judgement:
    """``run_my_loop(model, tools, request, max_steps)``: a minimal runtime. Judged by what it
    does, so a function that hands the work to :class:`AgentRuntime` passes too (its
    transcript reaches a grade's judge as the same plain list). Judged on:

    * the chapter's trajectory (Tokyo: lookup, conversion, answer) with call_ids drawn for
      this verdict: it returns the model's final text, after exactly three model turns and
      the two executions in order, the conversion given the temperature the lookup returned
      (so each observation reached the model, paired by its ``tool_call_id`` after the
      request that asked for it);
    * an unknown tool: ``UnknownToolError``, no handler run;
    * a model that never answers: ``MaxStepsExceeded`` after exactly ``max_steps`` turns;
    * a conversion with a temperature that is not a number: ``ToolArgumentsError``, no
      handler run.

    A loop that raises on the trajectory is told the error's name first; only
    ``MaxStepsExceeded`` with the record never read (what a loop that never passes the
    observation back runs into) is told that the model never read the record.
    """
    from agentcore.course.teaching_tools import get_teaching_weather

    function = ns["run_my_loop"]
    language = current_language()
    taken: set[str] = set()
    lookup, convert = fresh_call_id(taken), fresh_call_id(taken)
    answer = phrase("build.loop answer", language)
    trace = _Trace()
    model = trajectory_model(trace, lookup, convert, answer)
    got = _run_loop(
        function, model, loop_tools(trace), phrase("build.request", language), LOOP_MAX_STEPS
    )
    unseen = not trace.saw_record
    if isinstance(got, tuple) and not (unseen and got[0] == "MaxStepsExceeded"):
        # the learner's own error (a KeyError, a ZeroDivisionError...) is named first: only
        # the step limit is what a loop that never passes the record back runs into
        return False, "loop_raised", {"error": got[0]}
    if unseen:
        return False, "loop_unseen", {}
    celsius = get_teaching_weather("Tokyo")["temperature_c"]
    wanted = [("get_teaching_weather", "Tokyo"), ("celsius_to_fahrenheit", celsius)]
    if trace.turns != 3 or not same(trace.executed, wanted):
        return False, "loop_counts", {"turns": trace.turns, "executions": len(trace.executed)}
    if type(got) is not str or got != answer:
        return False, "loop_answer", {"kind": kind(got)}
    for case, wanted_error in LOOP_FAILURES.items():
        trace = _Trace()
        steps = 3 if case == "case_loop_max_steps" else LOOP_MAX_STEPS
        got = _run_loop(
            function,
            failing_model(trace, case, taken),
            loop_tools(trace),
            phrase("build.request", language),
            steps,
        )
        if not isinstance(got, tuple):
            return False, "loop_failure_returned", {"case_key": case, "wanted": wanted_error}
        if got[0] != wanted_error:
            return False, "loop_failure", {"case_key": case, "wanted": wanted_error, "got": got[0]}
        if case == "case_loop_max_steps":
            if trace.turns != steps:
                return False, "loop_max_steps_turns", {"turns": trace.turns, "max_steps": steps}
        elif trace.executed:
            return False, "loop_ran_handler", {"case_key": case}
    return True, "loop_right", {}


# ----------------------------------------------------------------------------- design_faults

FAULTS = {
    "text actions": True,
    "any function": True,
    "swallowed errors": True,
    "no step limit": True,
    "plain function handlers": False,
    "observations in the transcript": False,
    "final text ends the run": False,
    "json arguments": False,
}
"""The names the lesson lists for the bad runtime (each spelled in the learner's language by
the message ``design fault.NAME``) and whether each is one of its four design faults (a
reading of the code the lesson shows)."""


def fault_names(language: Language) -> dict[str, bool]:
    """The lesson's fault names in ``language`` and whether each is a design fault."""
    return {phrase(f"design fault.{name}", language): right for name, right in FAULTS.items()}


@exercise("design_faults", ("my_faults",))
def design_faults(ns: Namespace) -> Judgement:
    """``my_faults``: a list (or tuple) of four names from the lesson's list (:data:`FAULTS`
    in the lesson's language, by the one spelling rule), each once: the four that are design
    faults of the bad runtime. Order does not matter."""
    value = ns["my_faults"]
    if type(value) not in (list, tuple):
        return False, "faults_not_a_list", {"kind": kind(value)}
    names = plain(value)
    strange = [item for item in names if type(item) is not str]
    if strange:
        return False, "faults_not_text", {"kind": kind(strange[0])}
    listed = {spelled(name): right for name, right in fault_names(current_language()).items()}
    unknown = [name for name in names if spelled(name) not in listed]
    if unknown:
        return False, "faults_unknown", {"name": unknown[0]}
    chosen = [spelled(name) for name in names]
    if len(set(chosen)) != len(chosen):
        return False, "faults_repeated", {}
    if len(chosen) != 4:
        return False, "faults_count", {"given": len(chosen)}
    right = sum(listed[name] for name in chosen)
    if right != 4:
        return False, "faults_wrong", {"right": right}
    return True, "faults_right", {}
