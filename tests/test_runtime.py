"""AgentRuntime: the loop, its budgets, its record and its errors (chapter sections 6 and 7)."""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Sequence
from typing import Any

import pytest
from chapter import CHAPTER_TRACE, chapter_transcript
from pydantic import BaseModel, ConfigDict

from agentcore import (
    AgentRuntime,
    AgentRuntimeError,
    FinalAnswer,
    InvalidModelTurnError,
    MaxStepsExceeded,
    Message,
    ModelDecision,
    ModelError,
    ModelTurn,
    RunFailed,
    ScriptedModel,
    ScriptedWeatherModel,
    Tool,
    ToolAction,
    ToolArgumentsError,
    ToolBudgetExceeded,
    ToolCall,
    ToolError,
    ToolExecutionError,
    ToolObservation,
    ToolSchema,
    UnknownToolError,
    build_tools,
)
from agentcore.course.teaching_tools import WeatherArguments
from agentcore.errors import PUBLIC_MESSAGE_LIMIT


class NoteArguments(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    text: str


class Recorder:
    """Tools whose handlers record every call, in order."""

    def __init__(self) -> None:
        self.ran: list[str] = []

    def tool(self, name: str, fail: bool = False, result: Any = None) -> Tool:
        def handler(text: str) -> Any:
            self.ran.append(f"{name}:{text}")
            if fail:
                raise RuntimeError(f"{name} is broken")
            return {"noted": text} if result is None else result

        return Tool(name, f"Record {name}.", NoteArguments, handler)


def call(call_id: str, name: str = "note", text: str = "x") -> ToolCall:
    return ToolCall(call_id, name, {"text": text})


def turn(*calls: ToolCall) -> ModelTurn:
    return ModelTurn(tool_calls=calls)


def final(text: str = "done") -> ModelTurn:
    return ModelTurn(final_text=text)


# --- the chapter's trajectory ------------------------------------------------------------


def test_verbose_run_prints_the_chapter_trace_exactly(capsys: pytest.CaptureFixture[str]) -> None:
    runtime = AgentRuntime(ScriptedWeatherModel(), build_tools(), verbose=True)
    runtime.run("Read Tokyo's teaching weather and convert it to Fahrenheit.")
    assert capsys.readouterr().out == CHAPTER_TRACE


def test_the_chapter_transcript_and_counts() -> None:
    result = AgentRuntime(ScriptedWeatherModel(), build_tools()).run("Tokyo in Fahrenheit?")
    answer = "Tokyo's deterministic teaching record is 18.0°C (64.4°F), cloudy."
    assert result.answer == answer
    assert (result.model_turns, result.tool_executions) == (3, 2)
    assert result.messages == chapter_transcript("Tokyo in Fahrenheit?")


def test_a_task_that_needs_no_tool_ends_in_one_turn() -> None:
    runtime = AgentRuntime(ScriptedWeatherModel(task="greet"), build_tools(), max_tool_calls=0)
    result = runtime.run("Hello")
    assert (result.model_turns, result.tool_executions, len(result.messages)) == (1, 0, 2)


def test_verbose_false_prints_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    AgentRuntime(ScriptedWeatherModel(), build_tools()).run("Tokyo?")
    assert capsys.readouterr().out == ""


# --- budgets -----------------------------------------------------------------------------


def test_max_steps_counts_model_turns_not_tool_calls() -> None:
    recorder = Recorder()
    counter = iter(range(100))

    def never_finishes(messages: Sequence[Message], tools: Sequence[ToolSchema]) -> ModelTurn:
        return turn(call(f"call-{next(counter)}"), call(f"call-{next(counter)}"))

    runtime = AgentRuntime(
        ScriptedModel(never_finishes), [recorder.tool("note")], max_steps=2, max_tool_calls=10
    )
    with pytest.raises(MaxStepsExceeded, match="max_steps=2 model turns") as caught:
        runtime.run("go")
    error = caught.value
    assert (error.model_turns, error.tool_executions) == (2, 4)  # both turns' calls ran
    assert len(recorder.ran) == 4
    assert [m["role"] for m in error.messages] == ["user"] + ["assistant", "tool", "tool"] * 2


def test_max_steps_one_stops_after_the_first_observation() -> None:
    runtime = AgentRuntime(ScriptedWeatherModel(), build_tools(), max_steps=1)
    with pytest.raises(MaxStepsExceeded) as caught:
        runtime.run("Tokyo?")
    assert [m.get("tool_call_id") for m in caught.value.messages if m["role"] == "tool"] == [
        "call-weather"
    ]


def test_tool_budget_is_checked_before_any_handler_of_the_turn() -> None:
    recorder = Recorder()
    model = ScriptedModel([turn(call("a")), turn(call("b"), call("c")), final()])
    runtime = AgentRuntime(model, [recorder.tool("note")], max_tool_calls=2)
    with pytest.raises(ToolBudgetExceeded, match=r"asks for more tool calls \(2\)") as caught:
        runtime.run("go")
    assert recorder.ran == ["note:x"]  # turn 2 was refused whole
    assert (caught.value.model_turns, caught.value.tool_executions) == (2, 1)
    assert caught.value.messages[-1]["tool_calls"][1]["call_id"] == "c"  # rejected request kept


def test_zero_tool_calls_allows_only_answers_without_tools() -> None:
    runtime = AgentRuntime(ScriptedWeatherModel(), build_tools(), max_tool_calls=0)
    with pytest.raises(ToolBudgetExceeded):
        runtime.run("Tokyo?")


@pytest.mark.parametrize(
    ("option", "value", "error"),
    [
        ("max_steps", 0, ValueError),
        ("max_steps", -1, ValueError),
        ("max_steps", True, TypeError),
        ("max_steps", 2.0, TypeError),
        ("max_steps", "3", TypeError),
        ("max_tool_calls", -1, ValueError),
        ("max_tool_calls", False, TypeError),
        ("max_tool_calls", 1.5, TypeError),
        ("on_tool_error", "retry", ValueError),
    ],
)
def test_bad_options_are_rejected(option: str, value: Any, error: type[Exception]) -> None:
    with pytest.raises(error, match=option):
        AgentRuntime(ScriptedWeatherModel(), build_tools(), **{option: value})


def test_a_model_without_generate_is_rejected() -> None:
    with pytest.raises(TypeError, match="generate"):
        AgentRuntime(object(), build_tools())  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("user_input", "error"),
    [("", ValueError), ("  ", ValueError), (None, TypeError), (42, TypeError)],
)
def test_blank_or_non_text_input_is_rejected(user_input: Any, error: type[Exception]) -> None:
    with pytest.raises(error, match="user_input"):
        AgentRuntime(ScriptedWeatherModel(), build_tools()).run(user_input)


# --- the whole turn is checked first; calls run in order -----------------------------------


def test_calls_of_one_turn_run_sequentially_in_the_models_order() -> None:
    recorder = Recorder()
    model = ScriptedModel([turn(call("c2", "second", "b"), call("c1", "first", "a")), final()])
    runtime = AgentRuntime(model, [recorder.tool("first"), recorder.tool("second")])
    result = runtime.run("go")
    assert recorder.ran == ["second:b", "first:a"]
    assert [m["tool_call_id"] for m in result.messages if m["role"] == "tool"] == ["c2", "c1"]


@pytest.mark.parametrize(
    ("second", "error"),
    [
        (call("c2", "delete_everything"), UnknownToolError),
        (ToolCall("c2", "note", {"text": 5}), ToolArgumentsError),
    ],
    ids=["unknown-tool", "bad-arguments"],
)
def test_an_invalid_second_call_stops_the_turn_before_the_first_handler(
    second: ToolCall, error: type[AgentRuntimeError]
) -> None:
    recorder = Recorder()
    model = ScriptedModel([turn(call("c1"), second), final()])
    with pytest.raises(error) as caught:
        AgentRuntime(model, [recorder.tool("note")]).run("go")
    assert recorder.ran == []
    assert caught.value.tool_executions == 0
    assert caught.value.messages[-1]["tool_calls"][1]["call_id"] == "c2"


def test_unknown_tool_names_the_request_and_the_registry() -> None:
    model = ScriptedModel([turn(ToolCall("c1", "delete_everything", {}))])
    with pytest.raises(UnknownToolError, match=r"'delete_everything'.*get_teaching_weather"):
        AgentRuntime(model, build_tools()).run("go")


def test_a_call_id_reused_on_a_later_turn_is_rejected() -> None:
    recorder = Recorder()
    model = ScriptedModel([turn(call("same")), turn(call("same")), final()])
    with pytest.raises(InvalidModelTurnError, match="'same' was already used") as caught:
        AgentRuntime(model, [recorder.tool("note")]).run("go")
    assert recorder.ran == ["note:x"]
    assert (caught.value.model_turns, caught.value.tool_executions) == (2, 1)
    assert len(caught.value.messages) == 4  # user, request, observation, rejected request


def test_a_return_value_that_is_not_a_model_turn_is_rejected_and_counted() -> None:
    class Chatty:
        def generate(self, messages: Any, tools: Any) -> Any:
            return "Action: get_teaching_weather"

    with pytest.raises(InvalidModelTurnError, match="must return a ModelTurn") as caught:
        AgentRuntime(Chatty(), build_tools()).run("go")
    assert caught.value.model_turns == 1
    assert caught.value.messages == [{"role": "user", "content": "go"}]


def test_a_model_that_raises_becomes_a_model_error_with_the_record() -> None:
    def broken(messages: Sequence[Message], tools: Sequence[ToolSchema]) -> ModelTurn:
        if len(messages) > 1:
            raise KeyError("lost")
        return turn(ToolCall("c1", "get_teaching_weather", {"city": "Tokyo"}))

    with pytest.raises(ModelError, match="KeyError") as caught:
        AgentRuntime(ScriptedModel(broken), build_tools()).run("go")
    assert isinstance(caught.value.__cause__, KeyError)
    assert (caught.value.model_turns, caught.value.tool_executions) == (2, 1)


# --- tool failures -------------------------------------------------------------------------


def test_default_policy_stops_on_a_failing_handler_after_one_execution() -> None:
    recorder = Recorder()
    model = ScriptedModel([turn(call("c1", "flaky")), final()])
    with pytest.raises(ToolExecutionError, match="flaky is broken") as caught:
        AgentRuntime(model, [recorder.tool("flaky", fail=True)]).run("go")
    assert recorder.ran == ["flaky:x"]  # exactly once, never retried
    assert (caught.value.model_turns, caught.value.tool_executions) == (1, 1)
    assert isinstance(caught.value.__cause__, RuntimeError)


def test_a_handler_that_raises_after_an_earlier_call_of_the_turn_keeps_that_observation() -> None:
    recorder = Recorder()
    model = ScriptedModel([turn(call("c1", "ok"), call("c2", "flaky"), call("c3", "ok")), final()])
    tools = [recorder.tool("ok"), recorder.tool("flaky", fail=True)]
    with pytest.raises(ToolExecutionError) as caught:
        AgentRuntime(model, tools).run("go")
    assert recorder.ran == ["ok:x", "flaky:x"]  # the third call never ran
    assert caught.value.tool_executions == 2
    observations = [m for m in caught.value.messages if m["role"] == "tool"]
    assert [m["tool_call_id"] for m in observations] == ["c1"]


def test_observe_policy_returns_the_failure_to_the_model() -> None:
    recorder = Recorder()
    seen: list[str] = []

    def model(messages: Sequence[Message], tools: Sequence[ToolSchema]) -> ModelTurn:
        if messages[-1]["role"] == "tool":
            seen.append(messages[-1]["content"])
            return final("the tool failed")
        return turn(call("c1", "flaky"))

    runtime = AgentRuntime(
        ScriptedModel(model), [recorder.tool("flaky", fail=True)], on_tool_error="observe"
    )
    result = runtime.run("go")
    assert result.answer == "the tool failed"
    assert recorder.ran == ["flaky:x"]
    assert json.loads(seen[0]) == {
        "error": "ToolExecutionError",
        "message": "The tool flaky failed; no details are shown to the model.",
    }
    assert "Traceback" not in seen[0]


FAKE_KEY = "sk-test-1234567890abcdef"


def leaky_tool(error: BaseException) -> Tool:
    def handler(text: str) -> Any:
        raise error

    return Tool("fetch", "Fetch a record.", NoteArguments, handler)


def test_observe_keeps_a_handlers_exception_message_out_of_the_transcript() -> None:
    leak = ConnectionError(f"postgres://admin:{FAKE_KEY}@db.internal/prod refused")
    model = ScriptedModel([turn(call("c1", "fetch")), final("the tool failed")])
    run = AgentRuntime(model, [leaky_tool(leak)], on_tool_error="observe").start("go")
    result = run.finish()
    assert not any(FAKE_KEY in json.dumps(message) for message in result.messages)
    observation = json.loads(result.messages[2]["content"])
    assert observation == {
        "error": "ToolExecutionError",
        "message": "The tool fetch failed; no details are shown to the model.",
    }
    # The application still has every detail: in the event, and as the error's cause.
    [event] = [event for event in run.events if isinstance(event, ToolObservation)]
    assert event.failed
    assert isinstance(event.error, ToolExecutionError)
    assert FAKE_KEY in str(event.error)
    assert event.error.__cause__ is leak


def test_a_tool_error_is_the_one_message_the_model_reads() -> None:
    public = ToolError("No record for Atlantis; ask for a city that exists.")
    model = ScriptedModel([turn(call("c1", "fetch")), final("no such city")])
    result = AgentRuntime(model, [leaky_tool(public)], on_tool_error="observe").run("go")
    assert json.loads(result.messages[2]["content"]) == {
        "error": "ToolExecutionError",
        "message": "No record for Atlantis; ask for a city that exists.",
    }


def test_stop_keeps_the_details_in_the_typed_error_and_out_of_the_transcript() -> None:
    leak = PermissionError(f"token {FAKE_KEY} expired")
    model = ScriptedModel([turn(call("c1", "fetch"))])
    with pytest.raises(ToolExecutionError) as caught:
        AgentRuntime(model, [leaky_tool(leak)]).run("go")
    assert caught.value.__cause__ is leak
    assert not any(FAKE_KEY in json.dumps(message) for message in caught.value.messages)


class CityUnknown(ToolError):
    """A learner's own ToolError, with an __init__ of its own that never calls ToolError's."""

    def __init__(self, city: str) -> None:
        Exception.__init__(self, f"No weather record for {city}; ask for another city.")


@pytest.mark.parametrize("policy", ["stop", "observe"])
def test_a_tool_error_subclass_with_its_own_init_fails_the_call_as_any_tool_error(
    policy: Any,
) -> None:
    model = ScriptedModel([turn(call("c1", "fetch")), final("no such city")])
    runtime = AgentRuntime(model, [leaky_tool(CityUnknown("Atlantis"))], on_tool_error=policy)
    if policy == "stop":
        with pytest.raises(ToolExecutionError) as caught:
            runtime.run("go")
        assert caught.value.public_message.startswith("No weather record for Atlantis")
        return
    observation = json.loads(runtime.run("go").messages[2]["content"])
    assert observation["message"] == "No weather record for Atlantis; ask for another city."


def test_a_long_tool_error_is_cut_before_the_model_reads_it_every_turn() -> None:
    model = ScriptedModel([turn(call("c1", "fetch")), final("too long")])
    tool = leaky_tool(ToolError("x" * 20_000))
    result = AgentRuntime(model, [tool], on_tool_error="observe").run("go")
    message = json.loads(result.messages[2]["content"])["message"]
    assert len(message) == PUBLIC_MESSAGE_LIMIT and message.endswith("…")


@pytest.mark.parametrize("message", ["", "   ", None, 3, "lone \ud83d surrogate"])
def test_a_tool_error_needs_a_message_for_the_model(message: Any) -> None:
    with pytest.raises(TypeError, match="non-blank message"):
        ToolError(message)


def test_a_result_holding_nan_or_infinity_fails_the_run() -> None:
    recorder = Recorder()
    model = ScriptedModel([turn(call("c1", "nan")), final()])
    with pytest.raises(ToolExecutionError, match="not JSON"):
        AgentRuntime(model, [recorder.tool("nan", result={"value": math.inf})]).run("go")


def test_scripted_weather_model_reports_an_observed_failure() -> None:
    def broken_weather(city: str) -> dict[str, Any]:
        raise TimeoutError("records offline")

    weather, conversion = build_tools()
    tools = [
        Tool(weather.name, weather.description, weather.arguments_model, broken_weather),
        conversion,
    ]
    result = AgentRuntime(ScriptedWeatherModel(), tools, on_tool_error="observe").run("Tokyo?")
    assert result.answer.startswith("I could not finish: the tool get_teaching_weather failed")
    assert (result.model_turns, result.tool_executions) == (2, 1)


# --- the record cannot be corrupted ------------------------------------------------------


def test_the_model_cannot_rewrite_the_record() -> None:
    attempts: list[str] = []

    def vandal(messages: Sequence[Message], tools: Sequence[ToolSchema]) -> ModelTurn:
        vandalism = [
            lambda: messages[0].__setitem__("content", "forged"),  # type: ignore[attr-defined]
            lambda: messages.append({"role": "user"}),  # type: ignore[attr-defined]
            lambda: tools[0].__setitem__("name", "delete_everything"),  # type: ignore[attr-defined]
        ]
        if len(messages) > 1:
            vandalism.append(lambda: messages[1]["tool_calls"].append({}))
        for attempt in vandalism:
            try:
                attempt()
            except (TypeError, AttributeError) as refused:
                attempts.append(type(refused).__name__)
        if len(messages) == 1:
            return turn(ToolCall("c1", "get_teaching_weather", {"city": "Tokyo"}))
        return final()

    result = AgentRuntime(ScriptedModel(vandal), build_tools()).run("original")
    assert len(attempts) == 7 and set(attempts) <= {"TypeError", "AttributeError"}
    assert result.messages[0] == {"role": "user", "content": "original"}
    assert len(result.messages[1]["tool_calls"]) == 1


@pytest.mark.parametrize(
    "rewrite",
    [
        lambda message: dict.__setitem__(message, "content", "forged"),
        lambda message: dict.update(message, content="forged"),
        lambda message: dict.__init__(message, content="forged"),  # type: ignore[misc]
        lambda message: dict.clear(message),
    ],
    ids=["dict.__setitem__", "dict.update", "dict.__init__", "dict.clear"],
)
def test_what_the_model_does_to_its_messages_leaves_the_record_as_it_was(rewrite: Any) -> None:
    seen: list[str] = []

    def vandal(messages: Sequence[Message], tools: Sequence[ToolSchema]) -> ModelTurn:
        seen.append(messages[0].get("content", ""))
        rewrite(messages[0])
        if len(seen) == 1:
            return turn(ToolCall("c1", "get_teaching_weather", {"city": "Tokyo"}))
        return final()

    result = AgentRuntime(ScriptedModel(vandal), build_tools()).run("original")
    assert seen == ["original", "original"]  # the second turn got a fresh copy
    assert result.messages[0] == {"role": "user", "content": "original"}
    assert [message["role"] for message in result.messages] == [
        "user",
        "assistant",
        "tool",
        "assistant",
    ]


def test_what_the_model_does_to_a_tool_schema_reaches_no_later_run() -> None:
    weather = build_tools()[0]
    shown: list[Any] = []

    def vandal(messages: Sequence[Message], tools: Sequence[ToolSchema]) -> ModelTurn:
        shown.append(json.loads(json.dumps(tools[0])))
        dict.update(tools[0]["parameters"]["properties"], {"city": {"type": "string"}})
        dict.__setitem__(tools[0], "description", "Delete everything.")
        return final()

    original = json.loads(json.dumps(weather.schema()))
    for _ in range(2):  # two runtimes, each with the same shared tool
        AgentRuntime(ScriptedModel(vandal), [weather]).run("go")
    assert shown == [original, original]
    assert weather.schema() == original


def test_what_the_model_changes_in_its_own_turn_later_leaves_the_record_as_it_was() -> None:
    kept: list[ModelTurn] = []

    def sneaky(messages: Sequence[Message], tools: Sequence[ToolSchema]) -> ModelTurn:
        if not kept:
            kept.append(turn(ToolCall("c1", "get_teaching_weather", {"city": "Tokyo"})))
            return kept[0]
        dict.__setitem__(kept[0].tool_calls[0].arguments, "city", "Paris")
        return final()

    result = AgentRuntime(ScriptedModel(sneaky), build_tools()).run("go")
    assert result.messages[1]["tool_calls"][0]["arguments"] == {"city": "Tokyo"}


def test_arguments_changed_after_the_turn_do_not_reach_the_tool() -> None:
    arguments = {"city": "Tokyo"}

    def sneaky(messages: Sequence[Message], tools: Sequence[ToolSchema]) -> ModelTurn:
        if len(messages) == 1:
            decided = turn(ToolCall("c1", "get_teaching_weather", arguments))
            arguments["city"] = "Paris"
            return decided
        return final()

    result = AgentRuntime(ScriptedModel(sneaky), build_tools()).run("go")
    assert json.loads(result.messages[2]["content"])["city"] == "Tokyo"


def test_step_advances_one_model_turn_and_the_transcript_grows() -> None:
    run = AgentRuntime(ScriptedWeatherModel(), build_tools()).start("Tokyo?")
    assert len(run.messages) == 1 and not run.finished

    first = run.step()
    assert [type(event) for event in first] == [ModelDecision, ToolAction, ToolObservation]
    assert (run.model_turns, run.tool_executions, len(run.messages)) == (1, 1, 3)

    second = run.step()
    assert [type(event) for event in second] == [ModelDecision, ToolAction, ToolObservation]
    assert isinstance(second[1], ToolAction) and second[1].call.call_id == "call-convert"

    third = run.step()
    assert [type(event) for event in third] == [ModelDecision, FinalAnswer]
    assert run.finished and run.result is not None and run.result.model_turns == 3
    assert run.step() == []


def test_a_turn_with_two_calls_is_one_step() -> None:
    recorder = Recorder()
    model = ScriptedModel([turn(call("c1"), call("c2")), final()])
    run = AgentRuntime(model, [recorder.tool("note")]).start("go")
    events = run.step()
    assert [type(e).__name__ for e in events] == [
        "ModelDecision",
        "ToolAction",
        "ToolObservation",
        "ToolAction",
        "ToolObservation",
    ]
    assert recorder.ran == ["note:x", "note:x"]


def test_a_failing_run_steps_to_a_failure_event_and_finish_raises() -> None:
    run = AgentRuntime(ScriptedWeatherModel(), build_tools(), max_steps=1).start("Tokyo?")
    run.step()
    failure = run.step()
    assert len(failure) == 1 and isinstance(failure[0], RunFailed)
    assert isinstance(run.error, MaxStepsExceeded)
    with pytest.raises(MaxStepsExceeded):
        run.finish()


def test_stepping_and_run_give_the_same_record() -> None:
    runtime = AgentRuntime(ScriptedWeatherModel(city="Paris"), build_tools())
    stepped = runtime.start("Paris?")
    while not stepped.finished:
        stepped.step()
    assert stepped.result == runtime.run("Paris?")


def test_equal_results_hash_alike_so_repeated_runs_can_be_counted_in_a_set() -> None:
    runs = [AgentRuntime(ScriptedWeatherModel(), build_tools()).run("Tokyo?") for _ in range(3)]
    paris = AgentRuntime(ScriptedWeatherModel(city="Paris"), build_tools()).run("Paris?")
    assert len({*runs, paris}) == 2


def test_results_and_errors_print_readably() -> None:
    result = AgentRuntime(ScriptedWeatherModel(), build_tools()).run("Tokyo?")
    assert repr(result) == (
        'RunResult(answer="Tokyo\'s deterministic teaching record is 18.0°C (64.4°F), cloudy.", '
        "model_turns=3, tool_executions=2, messages=<6 messages>)"
    )
    with pytest.raises(MaxStepsExceeded) as caught:
        AgentRuntime(ScriptedWeatherModel(), build_tools(), max_steps=1).run("Tokyo?")
    assert repr(caught.value) == (
        "MaxStepsExceeded('The run did not finish within max_steps=1 model turns', "
        "model_turns=1, tool_executions=1, messages=<3 messages>)"
    )


def test_a_run_says_where_it_stands() -> None:
    run = AgentRuntime(ScriptedWeatherModel(), build_tools()).start("Tokyo?")
    assert repr(run) == (
        "AgentRun(not started, model_turns=0/6, tool_executions=0/6, messages=<1 messages>)"
    )
    run.step()
    assert repr(run).startswith("AgentRun(running, model_turns=1/6, tool_executions=1/6")
    run.finish()
    assert repr(run).startswith("AgentRun(answered, model_turns=3/6")


def test_an_interrupted_run_reads_as_over_and_keeps_its_record() -> None:
    def interrupt(messages: Sequence[Message], tools: Sequence[ToolSchema]) -> ModelTurn:
        if len(messages) > 1:
            raise KeyboardInterrupt
        return turn(ToolCall("c1", "get_teaching_weather", {"city": "Tokyo"}))

    run = AgentRuntime(ScriptedModel(interrupt), build_tools()).start("go")
    run.step()
    with pytest.raises(KeyboardInterrupt):
        run.step()
    assert run.finished and isinstance(run.interrupted, KeyboardInterrupt)
    assert len(run.messages) == 3 and run.step() == []
    assert repr(run).startswith("AgentRun(interrupted by KeyboardInterrupt, model_turns=2/6")
    with pytest.raises(RuntimeError, match="interrupted by KeyboardInterrupt"):
        run.finish()


def test_ctrl_c_through_run_keeps_the_transcript_reachable() -> None:
    def interrupt(messages: Sequence[Message], tools: Sequence[ToolSchema]) -> ModelTurn:
        if len(messages) == 1:
            return turn(ToolCall("c1", "get_teaching_weather", {"city": "Tokyo"}))
        raise KeyboardInterrupt

    runtime = AgentRuntime(ScriptedModel(interrupt), build_tools())
    assert runtime.last_run is None
    with pytest.raises(KeyboardInterrupt) as caught:
        runtime.run("Tokyo?")
    if sys.version_info >= (3, 11):
        assert "runtime.last_run.messages" in "".join(caught.value.__notes__)
    run = runtime.last_run
    assert run is not None and run.status == "interrupted"
    assert [message["role"] for message in run.messages] == ["user", "assistant", "tool"]


def test_ctrl_c_while_a_verbose_run_prints_a_line_ends_the_run_as_interrupted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    printed: list[str] = []

    def print_then_ctrl_c(*line: object, **_: object) -> None:
        printed.append(" ".join(map(str, line)))
        if len(printed) == 2:  # the learner presses Ctrl-C while the second line is printed
            raise KeyboardInterrupt

    monkeypatch.setattr("builtins.print", print_then_ctrl_c)
    runtime = AgentRuntime(ScriptedWeatherModel(), build_tools(), verbose=True)
    with pytest.raises(KeyboardInterrupt):
        runtime.run("Tokyo?")
    run = runtime.last_run
    assert run is not None and run.status == "interrupted" and run.finished
    assert run.step() == []
    with pytest.raises(RuntimeError, match="interrupted by KeyboardInterrupt"):
        run.finish()


def test_interrupting_a_run_from_its_own_handler_is_refused_and_the_run_goes_on() -> None:
    refused: list[str] = []

    def lookup(city: str) -> dict[str, Any]:
        with pytest.raises(RuntimeError, match="taking a step") as caught:
            run.interrupt(KeyboardInterrupt())
        refused.append(str(caught.value))
        return {"city": city, "temperature_c": 18.0, "condition": "cloudy"}

    tools = [Tool("get_teaching_weather", "Weather.", WeatherArguments, lookup), *build_tools()[1:]]
    run = AgentRuntime(ScriptedWeatherModel(), tools).start("Tokyo?")
    result = run.finish()
    assert refused and run.status == "answered" and run.interrupted is None
    assert "64.4" in result.answer


class _Unprintable(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no message")


class _NoRepr:
    def __repr__(self) -> str:
        raise RuntimeError("no repr")


@pytest.mark.parametrize(
    ("generate", "error"),
    [
        (lambda messages, tools: _NoRepr(), InvalidModelTurnError),
        (lambda messages, tools: "x" * 10_000_000, InvalidModelTurnError),
        (lambda messages, tools: (_ for _ in ()).throw(_Unprintable()), ModelError),
    ],
    ids=["repr-raises", "huge-string", "message-raises"],
)
def test_a_model_that_returns_or_raises_odd_objects_fails_typed_with_a_short_message(
    generate: Any, error: type[AgentRuntimeError]
) -> None:
    run = AgentRuntime(ScriptedModel(generate), []).start("go")
    with pytest.raises(error) as caught:
        run.finish()
    assert run.status == "failed" and run.interrupted is None
    assert len(str(caught.value)) < 1_000 and caught.value.messages == [
        {"role": "user", "content": "go"}
    ]


def test_a_model_class_instead_of_a_model_is_rejected_at_construction() -> None:
    with pytest.raises(TypeError, match=r"the class ScriptedModel; pass an instance"):
        AgentRuntime(ScriptedModel, build_tools())  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("tools", "hint"),
    [
        (None, "a list of Tool.*NoneType"),
        (build_tools()[0], r"\[tool\]"),
        ({"a": build_tools()[0]}, "values"),
    ],
    ids=["none", "one-tool", "dict"],
)
def test_tools_that_are_not_a_list_of_tools_are_rejected_with_the_fix(
    tools: Any, hint: str
) -> None:
    with pytest.raises(TypeError, match=hint):
        AgentRuntime(ScriptedWeatherModel(), tools)


@pytest.mark.parametrize(
    ("fields", "error", "says"),
    [
        ((5, 1, 0, []), TypeError, "answer must be a str"),
        (("ok", -1, 0, []), ValueError, "model_turns must be at least 0"),
        (("ok", 1, "0", []), TypeError, "tool_executions must be an int"),
        (("ok", 1, 0, None), TypeError, "messages must be a sequence"),
    ],
    ids=["answer", "turns", "executions", "messages"],
)
def test_a_run_result_built_by_hand_refuses_wrong_types(
    fields: tuple[Any, ...], error: type[Exception], says: str
) -> None:
    from agentcore import RunResult

    with pytest.raises(error, match=says):
        RunResult(*fields)
