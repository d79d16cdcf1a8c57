"""The runtime's contract, tried as a user would try to break it (issue 9).

Each test is one example of a kind of fault: the schema and the validator disagree, what the
model was handed changes, an untyped exception escapes, a contract is not checked, an error
does not say which call.
"""

from __future__ import annotations

import copy
import datetime
import enum
import json
import pickle
import sys
import threading
import traceback
from collections.abc import Sequence
from typing import Annotated, Any
from unittest import mock

import pytest
from pydantic import BaseModel, ConfigDict, Field, computed_field

from agentcore import (
    AgentRun,
    AgentRuntime,
    AgentRuntimeError,
    InvalidModelTurnError,
    Message,
    ModelError,
    ModelTurn,
    RunResult,
    ScriptedModel,
    ScriptedWeatherModel,
    ScriptExhaustedError,
    Tool,
    ToolArgumentsError,
    ToolCall,
    ToolExecutionError,
    ToolSchema,
    UnknownToolError,
    build_tools,
)
from agentcore.strict_schema import strict_json_schema


class TextArguments(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    text: str


def calls_then_answer(*arguments: dict[str, Any], name: str = "echo") -> ScriptedModel:
    """A script: one call per turn with these arguments, then a final answer."""
    turns = [
        ModelTurn(tool_calls=(ToolCall(f"call-{index}", name, args),))
        for index, args in enumerate(arguments, start=1)
    ]
    return ScriptedModel([*turns, ModelTurn(final_text="done")])


def echo_tool(handler: Any = None) -> Tool:
    return Tool("echo", "Echo the text.", TextArguments, handler or (lambda text: {"echo": text}))


# --- 1. the schema the model is shown and the validator that runs agree --------------------


class Unit(enum.Enum):
    CELSIUS = "C"
    FAHRENHEIT = "F"


DAY = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"


class ForecastArguments(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    day: Annotated[str, Field(pattern=DAY)]  # a datetime.date is refused: see strict_schema
    unit: Unit


def test_a_day_and_an_enum_sent_as_the_schema_asks_validate() -> None:
    seen: list[tuple[Any, Any]] = []

    def forecast(day: str, unit: Unit) -> dict[str, str]:
        seen.append((datetime.date.fromisoformat(day), unit))
        return {"day": day, "unit": unit.value}

    tool = Tool("forecast", "Forecast a day.", ForecastArguments, forecast)
    parameters = tool.schema()["parameters"]
    assert parameters["properties"]["day"] == {"pattern": DAY, "title": "Day", "type": "string"}
    model = calls_then_answer({"day": "2026-01-01", "unit": "C"}, name="forecast")
    result = AgentRuntime(model, [tool]).run("Forecast?")
    assert seen == [(datetime.date(2026, 1, 1), Unit.CELSIUS)]
    assert result.messages[2]["content"] == '{"day": "2026-01-01", "unit": "C"}'


def test_what_the_schema_forbids_does_not_validate() -> None:
    tool = Tool("forecast", "Forecast a day.", ForecastArguments, lambda day, unit: {})
    for bad in ({"day": "1767225600", "unit": "C"}, {"day": "2026-01-01", "unit": "K"}):
        with pytest.raises(ToolArgumentsError):
            tool.validate(bad)
    with pytest.raises(ToolArgumentsError, match="text"):
        echo_tool().validate({"text": 3})  # strict: a number is not a string


class RoundArguments(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    value: float
    decimals: int = 1


def test_a_field_with_a_default_is_required_in_the_schema_and_has_no_default() -> None:
    tool = Tool(
        "round_it", "Round.", RoundArguments, lambda value, decimals: round(value, decimals)
    )
    parameters = tool.schema()["parameters"]
    assert parameters["required"] == ["value", "decimals"]
    assert "default" not in json.dumps(parameters)
    assert tool.validate({"value": 1.25}).decimals == 1  # the validator still fills it in


class Place(BaseModel):
    model_config = ConfigDict(extra="forbid")
    city: str
    country: str | None = None


class OpenPlace(BaseModel):
    city: str  # pydantic's default: unknown keys are ignored, not refused


class TripArguments(BaseModel):
    model_config = ConfigDict(extra="forbid")
    start: Place
    stops: list[Place] = []


def test_nested_models_are_closed_required_and_without_defaults() -> None:
    strict = strict_json_schema(TripArguments)
    place = strict["$defs"]["Place"]
    assert strict["additionalProperties"] is False and place["additionalProperties"] is False
    assert strict["required"] == ["start", "stops"] and place["required"] == ["city", "country"]
    assert "default" not in json.dumps(strict)


def test_a_model_that_cannot_agree_is_refused_when_the_tool_is_built_naming_the_field() -> None:
    class Tagged(BaseModel):
        model_config = ConfigDict(extra="forbid")
        tags: dict[str, int]

    class Trip(BaseModel):
        model_config = ConfigDict(extra="forbid")
        start: OpenPlace

    class Loose(BaseModel):
        city: str

    with pytest.raises(TypeError, match=r"^Tool 'tag': field 'tags'"):
        Tool("tag", "Tag.", Tagged, lambda tags: {})
    # The field that holds the open model, not the model's class (was: "field 'OpenPlace'").
    with pytest.raises(TypeError, match=r"^Tool 'trip': field 'start' is an object"):
        Tool("trip", "Trip.", Trip, lambda start: {})
    with pytest.raises(TypeError, match=r"^Tool 'loose': the arguments are an object.*'forbid'"):
        Tool("loose", "Loose.", Loose, lambda city: {})


# --- 2. what the model is handed does not change after the call ----------------------------


def test_a_model_that_keeps_the_messages_sees_what_it_was_handed() -> None:
    kept: list[Sequence[Message]] = []

    def decide(messages: Sequence[Message], tools: Sequence[ToolSchema]) -> ModelTurn:
        kept.append(messages)
        return ScriptedWeatherModel().generate(messages, tools)

    AgentRuntime(ScriptedModel(decide), build_tools()).run("Tokyo in Fahrenheit?")
    assert [len(messages) for messages in kept] == [1, 3, 5]
    assert [list(messages)[-1]["role"] for messages in kept] == ["user", "tool", "tool"]


def test_a_mock_model_records_each_call_as_it_was() -> None:
    model = mock.Mock()
    model.generate.side_effect = ScriptedWeatherModel().generate
    AgentRuntime(model, build_tools()).run("Tokyo in Fahrenheit?")
    assert [len(call.args[0]) for call in model.generate.call_args_list] == [1, 3, 5]


# --- 3. no untyped exception escapes -------------------------------------------------------


@pytest.mark.parametrize("policy", ["stop", "observe"])
def test_a_handler_that_calls_sys_exit_is_a_tool_execution_error(policy: Any) -> None:
    def leave(text: str) -> None:
        sys.exit(3)

    runtime = AgentRuntime(
        calls_then_answer({"text": "x"}), [echo_tool(leave)], on_tool_error=policy
    )
    if policy == "stop":
        with pytest.raises(ToolExecutionError, match="SystemExit: 3") as caught:
            runtime.run("Go.")
        assert isinstance(caught.value.__cause__, SystemExit)
        assert caught.value.tool_executions == 1
    else:
        result = runtime.run("Go.")
        assert json.loads(result.messages[2]["content"])["error"] == "ToolExecutionError"


@pytest.mark.parametrize(
    "raised", [SystemExit(3), GeneratorExit("closed"), StopIteration("empty"), ValueError("x")]
)
def test_whatever_the_model_raises_but_ctrl_c_is_a_model_error_with_the_record(
    raised: BaseException,
) -> None:
    # Was: SystemExit and GeneratorExit from Model.generate escaped run() untyped (status
    # "interrupted"), while the same from a handler became a ToolExecutionError.
    turns = iter([ModelTurn(tool_calls=(ToolCall("call-1", "echo", {"text": "x"}),))])

    def decide(messages: Sequence[Message], tools: Sequence[ToolSchema]) -> ModelTurn:
        for turn in turns:
            return turn
        raise raised

    run = AgentRuntime(ScriptedModel(decide), [echo_tool()]).start("Go.")
    with pytest.raises(ModelError, match=f"raised {type(raised).__name__} while producing turn 2"):
        run.finish()
    error = run.error
    assert run.status == "failed" and error is not None and error.__cause__ is raised
    assert (error.model_turns, error.tool_executions) == (2, 1)
    assert [message["role"] for message in error.messages] == ["user", "assistant", "tool"]


def test_ctrl_c_in_a_handler_propagates_and_the_run_reads_as_interrupted() -> None:
    def interrupt(text: str) -> None:
        raise KeyboardInterrupt

    run = AgentRuntime(calls_then_answer({"text": "x"}), [echo_tool(interrupt)]).start("Go.")
    with pytest.raises(KeyboardInterrupt):
        run.finish()
    assert run.status == "interrupted" and run.finished
    assert len(run.messages) == 2  # the request is kept; no observation was recorded


class Broken(BaseModel):
    value: int

    @computed_field  # type: ignore[prop-decorator]
    @property
    def label(self) -> str:
        return {"a": "b"}[str(self.value)]  # KeyError while being dumped


@pytest.mark.parametrize("policy", ["stop", "observe"])
def test_a_result_that_fails_to_become_json_is_a_tool_execution_error(policy: Any) -> None:
    tool = echo_tool(lambda text: Broken(value=1))
    runtime = AgentRuntime(calls_then_answer({"text": "x"}), [tool], on_tool_error=policy)
    if policy == "stop":
        with pytest.raises(ToolExecutionError, match="KeyError") as caught:
            runtime.run("Go.")
        assert len(caught.value.messages) == 2  # the transcript is kept
    else:
        failure = json.loads(runtime.run("Go.").messages[2]["content"])
        assert failure == {  # the details are for the application, not the model
            "error": "ToolExecutionError",
            "message": "The tool echo failed; no details are shown to the model.",
        }


def test_a_lone_surrogate_in_arguments_is_refused_before_any_handler_runs() -> None:
    with pytest.raises(InvalidModelTurnError, match="UTF-8"):
        ToolCall("call-1", "echo", {"text": "sunny \ud83d"})
    with pytest.raises(InvalidModelTurnError, match="UTF-8"):
        ToolCall("call-1", "echo", {"text\ud83d": "sunny"})  # a key too
    with pytest.raises(InvalidModelTurnError, match="UTF-8"):
        ToolCall("call-\ud83d", "echo", {})
    ran: list[str] = []

    def decide(messages: Sequence[Message], tools: Sequence[ToolSchema]) -> ModelTurn:
        return ModelTurn(tool_calls=(ToolCall("call-1", "echo", {"text": "sunny \ud83d"}),))

    runtime = AgentRuntime(ScriptedModel(decide), [echo_tool(lambda text: ran.append(text))])
    with pytest.raises(InvalidModelTurnError, match="UTF-8") as caught:
        runtime.run("Go.")
    assert caught.value.model_turns == 1 and caught.value.tool_executions == 0
    assert ran == []


def test_a_lone_surrogate_in_a_final_text_or_a_result_is_refused() -> None:
    with pytest.raises(InvalidModelTurnError, match="UTF-8"):
        ModelTurn(final_text="done \udc00")
    runtime = AgentRuntime(calls_then_answer({"text": "x"}), [echo_tool(lambda text: "\ud83d")])
    with pytest.raises(ToolExecutionError, match="not JSON"):
        runtime.run("Go.")


def test_a_sub_agents_error_fails_the_outer_run_with_a_model_error_keeping_both_records() -> None:
    inner = AgentRuntime(ScriptedModel([]), [])

    class Delegating:
        def generate(self, messages: Sequence[Message], tools: Sequence[ToolSchema]) -> ModelTurn:
            inner.run("Inner question.")  # fails: the inner script is empty
            raise AssertionError("unreachable")

    with pytest.raises(ModelError) as caught:
        AgentRuntime(Delegating(), []).run("Outer question.")
    outer = caught.value
    assert type(outer) is ModelError
    assert outer.messages == [{"role": "user", "content": "Outer question."}]
    assert isinstance(outer.__cause__, ScriptExhaustedError)
    assert outer.__cause__.messages == [{"role": "user", "content": "Inner question."}]


def test_a_models_own_typed_error_keeps_its_type() -> None:
    with pytest.raises(ScriptExhaustedError) as caught:
        AgentRuntime(ScriptedModel([]), []).run("Go.")
    assert caught.value.messages == [{"role": "user", "content": "Go."}]


# --- 4. contracts that are written down and checked ----------------------------------------


def test_an_async_handler_is_refused_when_the_tool_is_built() -> None:
    async def fetch(text: str) -> str:
        return text

    class AsyncCallable:
        async def __call__(self, text: str) -> str:
            return text

    for handler in (fetch, AsyncCallable()):
        with pytest.raises(TypeError, match="asynchronous"):
            echo_tool(handler)


def test_a_str_subclass_cannot_defeat_call_id_uniqueness() -> None:
    class Sneaky(str):
        def __hash__(self) -> int:
            return id(self)

        def __eq__(self, other: object) -> bool:
            return self is other

    call = ToolCall(Sneaky("call-1"), Sneaky("echo"), {"text": "x"})
    assert type(call.call_id) is str and type(call.name) is str
    turns = [ModelTurn(tool_calls=(ToolCall(Sneaky("call-1"), "echo", {"text": "x"}),))] * 4
    runtime = AgentRuntime(ScriptedModel(turns), [echo_tool()])
    with pytest.raises(InvalidModelTurnError, match="'call-1' was already used"):
        runtime.run("Go.")


class NumbersArguments(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    values: Sequence[int]
    anything: list[int]  # typed: Any would be refused (the strict schema cannot show it)
    nested: list[list[int]]


def test_handlers_get_ordinary_mutable_values_and_the_record_stays_read_only() -> None:
    def sort_all(
        values: Sequence[int], anything: list[int], nested: list[list[int]]
    ) -> dict[str, Any]:
        values.sort()  # type: ignore[attr-defined]
        anything.append(0)
        nested[0].reverse()
        return {"values": values, "anything": anything, "nested": nested}

    tool = Tool("sort_all", "Sort.", NumbersArguments, sort_all)
    arguments = {"values": [3, 1, 2], "anything": [2, 1], "nested": [[1, 2]]}
    result = AgentRuntime(calls_then_answer(arguments, name="sort_all"), [tool]).run("Sort.")
    assert json.loads(result.messages[2]["content"]) == {
        "values": [1, 2, 3],
        "anything": [2, 1, 0],
        "nested": [[2, 1]],
    }
    assert result.messages[1]["tool_calls"][0]["arguments"] == arguments  # unchanged
    with pytest.raises(TypeError, match="read-only"):
        result.messages[1]["tool_calls"][0]["arguments"]["values"].sort()


def test_a_second_step_from_a_handler_is_refused_and_the_run_goes_on() -> None:
    runs: list[AgentRun] = []
    refusals: list[str] = []

    def reenter(text: str) -> dict[str, str]:
        try:
            runs[0].step()
        except RuntimeError as error:
            refusals.append(str(error))
        return {"echo": text}

    run = AgentRuntime(calls_then_answer({"text": "x"}), [echo_tool(reenter)]).start("Go.")
    runs.append(run)
    assert run.finish().answer == "done"
    assert len(refusals) == 1 and "already taking a step" in refusals[0]
    assert run.status == "answered" and run.finish().answer == "done"


def test_a_second_step_from_another_thread_is_refused() -> None:
    runs: list[AgentRun] = []
    refusals: list[BaseException] = []

    def from_thread(text: str) -> dict[str, str]:
        def other() -> None:
            try:
                runs[0].step()
            except RuntimeError as error:
                refusals.append(error)

        worker = threading.Thread(target=other)
        worker.start()
        worker.join()
        return {"echo": text}

    run = AgentRuntime(calls_then_answer({"text": "x"}), [echo_tool(from_thread)]).start("Go.")
    runs.append(run)
    assert run.finish().answer == "done" and len(refusals) == 1


def test_runs_say_interrupted_not_running_after_ctrl_c() -> None:
    def decide(messages: Sequence[Message], tools: Sequence[ToolSchema]) -> ModelTurn:
        raise KeyboardInterrupt

    run = AgentRuntime(ScriptedModel(decide), []).start("Go.")
    assert run.status == "not started"
    with pytest.raises(KeyboardInterrupt):
        run.step()
    assert run.status == "interrupted"
    assert repr(run).startswith("AgentRun(interrupted by KeyboardInterrupt")


def test_raising_a_stored_error_again_keeps_its_traceback_the_same_length() -> None:
    run = AgentRuntime(ScriptedModel([]), []).start("Go.")
    lengths = []
    for _ in range(3):
        with pytest.raises(ScriptExhaustedError) as caught:
            run.finish()
        lengths.append(len(traceback.extract_tb(caught.value.__traceback__)))
    assert lengths[0] == lengths[1] == lengths[2]


def test_a_run_result_pickles_and_copies_equal() -> None:
    result = AgentRuntime(ScriptedWeatherModel(), build_tools()).run("Tokyo in Fahrenheit?")
    for again in (pickle.loads(pickle.dumps(result)), copy.copy(result), copy.deepcopy(result)):
        assert again == result and isinstance(again, RunResult)


def test_tool_calls_and_model_turns_pickle_and_copy_equal() -> None:
    call = ToolCall("call-1", "echo", {"text": "东京", "nested": [{"a": 1}]})
    turns = [
        ModelTurn(tool_calls=(call,), provider_items=({"type": "reasoning"},)),
        ModelTurn(final_text="done"),
    ]
    for value in (call, *turns):
        for again in (pickle.loads(pickle.dumps(value)), copy.copy(value), copy.deepcopy(value)):
            assert again == value and type(again) is type(value)
    unpickled = pickle.loads(pickle.dumps(call))
    with pytest.raises(TypeError, match="read-only"):
        unpickled.arguments["text"] = "Paris"  # type: ignore[index]


# --- 5. errors say which call; a rejected reply is kept ------------------------------------


def test_call_errors_name_the_call_id() -> None:
    cases: list[tuple[ModelTurn, type[AgentRuntimeError]]] = [
        (ModelTurn(tool_calls=(ToolCall("call-a", "nope", {}),)), UnknownToolError),
        (ModelTurn(tool_calls=(ToolCall("call-b", "echo", {"text": 1}),)), ToolArgumentsError),
        (ModelTurn(tool_calls=(ToolCall("call-c", "echo", {"text": "x"}),)), ToolExecutionError),
    ]

    def fail(text: str) -> None:
        raise ValueError("no")

    for turn, kind in cases:
        runtime = AgentRuntime(ScriptedModel([turn]), [echo_tool(fail)])
        with pytest.raises(kind) as caught:
            runtime.run("Go.")
        call_id = turn.tool_calls[0].call_id
        assert caught.value.call_id == call_id  # type: ignore[attr-defined]
        assert f"call_id {call_id!r}" in str(caught.value)


def test_a_reply_the_adapter_rejected_is_kept_in_the_transcript() -> None:
    raw = [{"type": "function_call", "call_id": "", "name": "echo", "arguments": "{"}]

    def decide(messages: Sequence[Message], tools: Sequence[ToolSchema]) -> ModelTurn:
        raise ModelError("The reply's function call has no call_id", rejected=raw)

    with pytest.raises(ModelError) as caught:
        AgentRuntime(ScriptedModel(decide), [echo_tool()]).run("Go.")
    assert caught.value.rejected == tuple(raw)
    assert caught.value.messages == [
        {"role": "user", "content": "Go."},
        {"role": "assistant", "content": "", "rejected": raw},
    ]


def test_a_handler_that_returns_a_coroutine_fails_without_a_never_awaited_warning() -> None:
    import warnings

    async def later() -> str:
        return "x"

    tool = echo_tool(lambda text: later())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ToolExecutionError, match="awaitable"):
            AgentRuntime(calls_then_answer({"text": "x"}), [tool]).run("Go.")


# --- a finished record stays finished --------------------------------------------------------

CHANGES = {
    "clear": lambda messages: messages.clear(),
    "append": lambda messages: messages.append({"role": "user", "content": "x"}),
    "extend": lambda messages: messages.extend([]),
    "insert": lambda messages: messages.insert(0, {}),
    "pop": lambda messages: messages.pop(),
    "remove": lambda messages: messages.remove(messages[0]),
    "sort": lambda messages: messages.sort(key=str),
    "reverse": lambda messages: messages.reverse(),
    "item assignment": lambda messages: messages.__setitem__(0, {}),
    "item deletion": lambda messages: messages.__delitem__(0),
    "slice assignment": lambda messages: messages.__setitem__(slice(0, 1), []),
    "+=": lambda messages: messages.__iadd__([]),
    "*=": lambda messages: messages.__imul__(0),
}


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_a_finished_result_cannot_be_changed_through_its_public_api(change: str) -> None:
    # Was: result.messages.clear() emptied a frozen result's list.
    result = AgentRuntime(calls_then_answer({"text": "x"}), [echo_tool()]).run("Go.")
    before = [dict(message) for message in result.messages]
    copies = (copy.copy(result), copy.deepcopy(result), pickle.loads(pickle.dumps(result)))
    for kept in (result, *copies):
        assert kept == result
        with pytest.raises(TypeError, match="read-only"):
            CHANGES[change](kept.messages)
    assert result.messages == before and len(result.messages) == 4


def test_the_messages_of_a_result_are_read_only_all_the_way_down() -> None:
    result = AgentRuntime(calls_then_answer({"text": "x"}), [echo_tool()]).run("Go.")
    with pytest.raises(TypeError, match="read-only"):
        result.messages[0]["content"] = "something else"  # type: ignore[index]
    with pytest.raises(TypeError, match="read-only"):
        result.messages[1]["tool_calls"].append({})
    with pytest.raises(TypeError, match="read-only"):
        result.messages[1]["tool_calls"][0]["arguments"]["text"] = "y"
    with pytest.raises(AttributeError):
        result.messages = []  # type: ignore[misc]
    built = RunResult("ok", 1, 0, [{"role": "user", "content": "Go."}])
    with pytest.raises(TypeError, match="read-only"):
        built.messages.append({"role": "assistant", "content": "x"})  # type: ignore[attr-defined]
    thawed = copy.deepcopy(list(result.messages))  # the documented way to a version you change
    thawed.clear()
    assert len(result.messages) == 4
