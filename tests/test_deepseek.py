"""DeepSeekResponsesModel through AgentRuntime, the real openai SDK and real HTTP on 127.0.0.1.

Every run here goes: runtime -> adapter -> SDK -> HTTP -> LocalResponsesServer and back. The
request bodies the server recorded are what went over the wire.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from chapter import CHAPTER_ANSWER, chapter_transcript
from pydantic import BaseModel, ConfigDict

from agentcore import (
    AgentRuntime,
    AgentRuntimeError,
    DeepSeekResponsesModel,
    Model,
    ModelError,
    ModelTurn,
    ProviderConfigurationError,
    ProviderConnectionError,
    ProviderError,
    ProviderRequestError,
    ProviderResponseError,
    ProviderStatusError,
    ProviderTimeoutError,
    ScriptedWeatherModel,
    Tool,
    ToolCall,
    build_tools,
    weather_request,
)
from agentcore.course.offline_replies import weather_script
from agentcore.course.teaching_tools import (
    CONVERSION_TOOL,
    DESCRIBE_TEMPERATURE_TOOL,
    WEATHER_TOOL,
    WeatherArguments,
    get_teaching_weather,
)
from agentcore.providers.deepseek import (
    to_function_tool,
    to_input_items,
    to_model_turn,
)
from agentcore.providers.http import PREVIEW_CHARS
from agentcore.providers.local_server import (
    THINKING_400,
    LocalResponsesServer,
    Reply,
    function_call,
    http_error,
    message,
)
from agentcore.providers.tool_calls import parse_arguments

KEY = "sk-test-7f3a9c2e5b1d4e6f"
"""A made-up key: the tests check it reaches the server and appears nowhere else."""
MODEL = "deepseek-flash"
USER = weather_request()
FINAL = CHAPTER_ANSWER

TOOLS = [
    {
        "type": "function",
        "name": "get_teaching_weather",
        "description": WEATHER_TOOL.description,
        "parameters": {
            "additionalProperties": False,
            "description": "Arguments of ``get_teaching_weather``: only the two cities that have "
            "records.",
            "properties": {
                "city": {
                    "description": "City whose teaching record to read.",
                    "enum": ["Tokyo", "Paris"],
                    "title": "City",
                    "type": "string",
                }
            },
            "required": ["city"],
            "title": "WeatherArguments",
            "type": "object",
        },
        "strict": True,
    },
    {
        "type": "function",
        "name": "celsius_to_fahrenheit",
        "description": "Convert a temperature from degrees Celsius to degrees Fahrenheit.",
        "parameters": {
            "additionalProperties": False,
            "description": "Arguments of ``celsius_to_fahrenheit``: a finite temperature in °C.",
            "properties": {
                "temperature_c": {
                    "description": "Temperature in degrees Celsius.",
                    "title": "Temperature C",
                    "type": "number",
                }
            },
            "required": ["temperature_c"],
            "title": "CelsiusArguments",
            "type": "object",
        },
        "strict": True,
    },
]
USER_ITEM = {"type": "message", "role": "user", "content": USER}
WEATHER_ITEMS = [
    {
        "type": "function_call",
        "call_id": "call-weather",
        "name": "get_teaching_weather",
        "arguments": '{"city": "Tokyo"}',
    },
    {
        "type": "function_call_output",
        "call_id": "call-weather",
        "output": '{"city": "Tokyo", "temperature_c": 18.0, "condition": "cloudy"}',
    },
]
CONVERT_ITEMS = [
    {
        "type": "function_call",
        "call_id": "call-convert",
        "name": "celsius_to_fahrenheit",
        "arguments": '{"temperature_c": 18.0}',
    },
    {
        "type": "function_call_output",
        "call_id": "call-convert",
        "output": '{"temperature_f": 64.4}',
    },
]


@pytest.fixture(autouse=True)
def _no_deepseek_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    """A developer's own DEEPSEEK_* settings must not change what these tests see, and every
    test passes with proxies set to a closed port (loopback traffic never uses them)."""
    for name in ("DEEPSEEK_API_KEY", "DEEPSEEK_MODEL", "DEEPSEEK_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy"):
        monkeypatch.setenv(name, "http://127.0.0.1:9")


def adapter(server: LocalResponsesServer, **options: Any) -> DeepSeekResponsesModel:
    """The adapter pointed at the local server; no retries and a short timeout keep it fast."""
    settings: dict[str, Any] = {"api_key": KEY, "base_url": server.base_url, "max_retries": 0}
    settings["timeout"] = 5.0
    return DeepSeekResponsesModel(MODEL, **{**settings, **options})


# --- the chapter's trajectory over the wire -------------------------------------------------


def test_weather_trajectory_sends_the_whole_transcript_every_turn() -> None:
    with LocalResponsesServer(weather_script()) as server:
        result = AgentRuntime(adapter(server), build_tools()).run(USER)

    assert result.answer == FINAL
    assert (result.model_turns, result.tool_executions) == (3, 2)
    assert [request.body for request in server.requests] == [
        {"model": MODEL, "input": [USER_ITEM], "tools": TOOLS},
        {"model": MODEL, "input": [USER_ITEM, *WEATHER_ITEMS], "tools": TOOLS},
        {"model": MODEL, "input": [USER_ITEM, *WEATHER_ITEMS, *CONVERT_ITEMS], "tools": TOOLS},
    ]
    for request in server.requests:
        assert (request.method, request.path) == ("POST", "/responses")
        assert "previous_response_id" not in request.body
        assert request.sent_bearer(KEY)


def test_weather_trajectory_leaves_the_same_transcript_as_the_scripted_model() -> None:
    with LocalResponsesServer(weather_script()) as server:
        over_http = AgentRuntime(adapter(server), build_tools()).run(USER)
    in_process = AgentRuntime(ScriptedWeatherModel(), build_tools()).run(USER)

    assert over_http.messages == in_process.messages
    assert over_http.messages == chapter_transcript(USER)


def test_the_adapter_is_a_model_and_sends_instructions_when_given() -> None:
    with LocalResponsesServer([Reply(output=(message("Hello."),))]) as server:
        model = adapter(server, instructions="Use the tools.")
        assert isinstance(model, Model)
        AgentRuntime(model, build_tools()).run("Hi")
    assert server.requests[0].body["instructions"] == "Use the tools."


def test_a_stepped_run_sends_one_request_per_model_turn() -> None:
    with LocalResponsesServer(weather_script()) as server:
        run = AgentRuntime(adapter(server), build_tools()).start(USER)
        run.step()
        assert len(server.requests) == 1
        run.step()
        assert len(server.requests) == 2
        assert run.finish().answer == FINAL
    assert len(server.requests) == 3


# --- several calls in one response ----------------------------------------------------------


def spy_weather_tool(seen: list[str]) -> Tool:
    def handler(city: str) -> dict[str, Any]:
        seen.append(city)
        return get_teaching_weather(city)

    return Tool(WEATHER_TOOL.name, WEATHER_TOOL.description, WeatherArguments, handler)


def test_two_calls_in_one_response_run_in_order_and_both_outputs_go_back_by_call_id() -> None:
    seen: list[str] = []
    script = [
        Reply(
            output=(
                function_call("get_teaching_weather", {"city": "Paris"}, "call-a"),
                function_call("get_teaching_weather", {"city": "Tokyo"}, "call-b"),
            )
        ),
        Reply(output=(message("Paris 12.0°C, Tokyo 18.0°C."),)),
    ]
    with LocalResponsesServer(script) as server:
        result = AgentRuntime(adapter(server), [spy_weather_tool(seen)]).run("Both cities?")

    assert seen == ["Paris", "Tokyo"]
    assert result.model_turns == 2
    assert server.requests[1].body["input"] == [
        {"type": "message", "role": "user", "content": "Both cities?"},
        {
            "type": "function_call",
            "call_id": "call-a",
            "name": "get_teaching_weather",
            "arguments": '{"city": "Paris"}',
        },
        {
            "type": "function_call",
            "call_id": "call-b",
            "name": "get_teaching_weather",
            "arguments": '{"city": "Tokyo"}',
        },
        {
            "type": "function_call_output",
            "call_id": "call-a",
            "output": '{"city": "Paris", "temperature_c": 12.0, "condition": "light rain"}',
        },
        {
            "type": "function_call_output",
            "call_id": "call-b",
            "output": '{"city": "Tokyo", "temperature_c": 18.0, "condition": "cloudy"}',
        },
    ]


# --- provider items: text and reasoning beside the calls -------------------------------------

REASONING = {
    "type": "reasoning",
    "summary": [],
    "content": [{"type": "reasoning_text", "text": "Tokyo needs the weather tool."}],
}


def test_text_and_reasoning_beside_calls_are_kept_and_replayed_in_place() -> None:
    script = [
        Reply(
            output=(
                REASONING,
                message("Let me look that up."),
                function_call("get_teaching_weather", {"city": "Tokyo"}, "call-weather"),
            )
        ),
        Reply(output=(message("Tokyo is 18.0°C."),)),
    ]
    with LocalResponsesServer(script) as server:
        result = AgentRuntime(adapter(server), build_tools()).run("Tokyo?")

    sent_output = [
        {"id": "rs_001_1", "status": "completed", **REASONING},
        {"id": "msg_001_2", "status": "completed", **message("Let me look that up.")},
        {
            "id": "fc_001_3",
            "status": "completed",
            **function_call("get_teaching_weather", {"city": "Tokyo"}, "call-weather"),
        },
    ]
    request_turn = result.messages[1]
    assert request_turn["tool_calls"] == [
        {"call_id": "call-weather", "name": "get_teaching_weather", "arguments": {"city": "Tokyo"}}
    ]
    assert request_turn["provider_items"] == sent_output
    # Reasoning and text come back as received; the call comes from the transcript.
    assert server.requests[1].body["input"] == [
        {"type": "message", "role": "user", "content": "Tokyo?"},
        *sent_output[:2],
        {
            "type": "function_call",
            "call_id": "call-weather",
            "name": "get_teaching_weather",
            "arguments": '{"city": "Tokyo"}',
        },
        {
            "type": "function_call_output",
            "call_id": "call-weather",
            "output": '{"city": "Tokyo", "temperature_c": 18.0, "condition": "cloudy"}',
        },
    ]


def test_plain_turns_carry_no_provider_items() -> None:
    with LocalResponsesServer(weather_script()) as server:
        result = AgentRuntime(adapter(server), build_tools()).run(USER)
    assert not any("provider_items" in entry for entry in result.messages)


def test_a_final_answer_after_reasoning_keeps_the_reasoning() -> None:
    with LocalResponsesServer([Reply(output=(REASONING, message("Hello.")))]) as server:
        result = AgentRuntime(adapter(server), build_tools()).run("Hi")
    assert result.answer == "Hello."
    assert [item["type"] for item in result.messages[-1]["provider_items"]] == [
        "reasoning",
        "message",
    ]


def test_reasoning_and_text_kept_for_replay_show_no_key() -> None:
    # The final text was redacted, but the items kept in provider_items (and so repr(turn)
    # and the transcript) held the key as the reply said it; the chat adapter redacts them.
    thought = {
        "type": "reasoning",
        "summary": [],
        "content": [{"type": "reasoning_text", "text": f"the key is {KEY}"}],
    }
    reply = Reply(output=(thought, message(f"Your key: {KEY}")))
    with LocalResponsesServer([reply]) as server:
        turn = adapter(server).generate([{"role": "user", "content": "Hi"}], [])
    assert turn.final_text == "Your key: <redacted>"
    assert KEY not in repr(turn)
    assert KEY not in json.dumps(turn.provider_items)


def test_rejected_items_show_no_key() -> None:
    reply = Reply(output=(function_call("get_teaching_weather", "{" + KEY, "c1"),))
    with LocalResponsesServer([reply]) as server, pytest.raises(ProviderResponseError) as caught:
        adapter(server).generate([{"role": "user", "content": "Hi"}], [])
    assert caught.value.rejected
    assert KEY not in json.dumps(caught.value.rejected)


def test_input_items_keep_non_ascii_and_refuse_unknown_roles() -> None:
    call = {"call_id": "c", "name": "get_teaching_weather", "arguments": {"city": "东京"}}
    items = to_input_items([{"role": "assistant", "content": "", "tool_calls": [call]}])
    assert items[0]["arguments"] == '{"city": "东京"}'
    assert to_input_items([{"role": "system", "content": "Be brief."}]) == [
        {"type": "message", "role": "system", "content": "Be brief."}
    ]
    with pytest.raises(ProviderRequestError, match="message 1 has role 'robot'"):
        to_input_items([{"role": "user", "content": "hi"}, {"role": "robot", "content": "?"}])


# --- tools --------------------------------------------------------------------------------


@pytest.mark.parametrize("tool", [WEATHER_TOOL, CONVERSION_TOOL, DESCRIBE_TEMPERATURE_TOOL])
def test_tool_parameters_are_passed_through_unchanged_with_strict_true(tool: Tool) -> None:
    schema = tool.schema()
    assert to_function_tool(schema) == {
        "type": "function",
        "name": tool.name,
        "description": tool.description,
        "parameters": schema["parameters"],
        "strict": True,
    }
    assert to_function_tool(schema)["parameters"] is schema["parameters"]


class Place(BaseModel):
    model_config = ConfigDict(extra="forbid")
    city: str
    country: str | None = None


class TripArguments(BaseModel):
    model_config = ConfigDict(extra="forbid")
    start: Place
    stops: list[Place] = []


def test_nested_models_are_closed_and_every_property_required() -> None:
    tool = Tool("plan_trip", "Plan a trip.", TripArguments, lambda start, stops: {})
    strict = to_function_tool(tool.schema())["parameters"]
    place = strict["$defs"]["Place"]
    assert strict["additionalProperties"] is False
    assert strict["required"] == ["start", "stops"]
    assert place["additionalProperties"] is False
    assert place["required"] == ["city", "country"]


class TaggedArguments(BaseModel):
    model_config = ConfigDict(extra="forbid")
    tags: dict[str, int]


def test_a_schema_that_cannot_be_strict_is_refused_when_the_tool_is_built() -> None:
    # The strict schema is part of the tool (agentcore.strict_schema.strict_json_schema): a
    # tool the adapter could not offer strictly never reaches it.
    with pytest.raises(TypeError, match=r"'tag_things': field 'tags' is an object that allows"):
        Tool("tag_things", "Tag things.", TaggedArguments, lambda tags: {})


def test_an_open_model_is_refused_too() -> None:
    class Open(BaseModel):
        model_config = ConfigDict(extra="allow")
        city: str

    with pytest.raises(TypeError, match=r"'open_tool': the arguments are an object that allows"):
        Tool("open_tool", "Open.", Open, lambda city: {})


# --- rejected turns: each error keeps the transcript and runs no handler of that turn ---------

GOOD_FIRST_TURN = Reply(
    output=(function_call("get_teaching_weather", {"city": "Tokyo"}, "call-weather"),)
)


def run_into(
    reply: Reply, expected: type[ProviderError], **options: Any
) -> tuple[ProviderError, LocalResponsesServer]:
    """Play a good first turn, then ``reply``; return the error the run ended with."""
    with (
        LocalResponsesServer([GOOD_FIRST_TURN, reply]) as server,
        pytest.raises(expected) as caught,
    ):
        AgentRuntime(adapter(server, **options), build_tools()).run(USER)
    error = caught.value
    assert type(error) is expected
    assert isinstance(error, ModelError) and isinstance(error, AgentRuntimeError)
    # The failed run kept everything up to the rejected turn, and no handler of it ran.
    assert error.model_turns == 2
    assert error.tool_executions == 1
    # (The runtime may add the refused reply as a message marked "rejected", decision 10.)
    kept = [entry for entry in error.messages if "rejected" not in entry]
    assert [entry["role"] for entry in kept] == ["user", "assistant", "tool"]
    return error, server


def bad_arguments(arguments: str) -> Reply:
    return Reply(output=(function_call("celsius_to_fahrenheit", arguments, "call-convert"),))


def test_status_incomplete_names_the_reason() -> None:
    reply = Reply(status="incomplete", incomplete_reason="max_output_tokens")
    error, _ = run_into(reply, ProviderResponseError)
    assert "status 'incomplete' (reason: max_output_tokens), not 'completed'" in str(error)
    assert "cut off" in error.hint


def test_status_failed_is_refused() -> None:
    error, _ = run_into(Reply(status="failed"), ProviderResponseError)
    assert "status 'failed'" in str(error)


def test_no_function_call_and_no_text() -> None:
    error, _ = run_into(Reply(output=()), ProviderResponseError)
    assert "holds no function call and no text" in str(error)


def test_blank_text_counts_as_no_text() -> None:
    error, _ = run_into(Reply(output=(message("  "),)), ProviderResponseError)
    assert "holds no function call and no text" in str(error)


def test_a_refusal_is_named() -> None:
    refusal = {
        "type": "message",
        "role": "assistant",
        "content": [{"type": "refusal", "refusal": "I cannot help with that."}],
    }
    error, _ = run_into(Reply(output=(refusal,)), ProviderResponseError)
    assert "is a refusal, not an answer: 'I cannot help with that.'" in str(error)


def test_arguments_that_are_not_json_name_the_function() -> None:
    error, _ = run_into(bad_arguments('{"temperature_c": 18.0'), ProviderResponseError)
    assert "The arguments of function 'celsius_to_fahrenheit' are not JSON" in str(error)
    assert """'{"temperature_c": 18.0'""" in str(error)


def test_long_bad_arguments_are_shown_cut_to_the_preview_length() -> None:
    error, _ = run_into(bad_arguments("x" * 5000), ProviderResponseError)
    assert "x" * PREVIEW_CHARS + "…" in str(error)
    assert "x" * (PREVIEW_CHARS + 1) not in str(error)


def test_arguments_that_are_json_but_not_an_object() -> None:
    error, _ = run_into(bad_arguments("[18.0]"), ProviderResponseError)
    assert "are JSON but not an object (got list)" in str(error)


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        ('{"temperature_c": NaN}', "they hold NaN"),
        ('{"temperature_c": Infinity}', "they hold Infinity"),
        ('{"temperature_c": -Infinity}', "they hold -Infinity"),
        ('{"temperature_c": 1e999}', "the number 1e999 is too large to be finite"),
    ],
)
def test_arguments_that_are_not_finite(arguments: str, said: str) -> None:
    error, _ = run_into(bad_arguments(arguments), ProviderResponseError)
    assert said in str(error)


def test_arguments_with_a_key_twice() -> None:
    error, _ = run_into(
        bad_arguments('{"temperature_c": 18.0, "temperature_c": 99.0}'), ProviderResponseError
    )
    assert "they hold the key 'temperature_c' twice" in str(error)


def test_arguments_over_the_size_limit() -> None:
    arguments = json.dumps({"temperature_c": 18.0, "note": "y" * 100})
    error, _ = run_into(bad_arguments(arguments), ProviderResponseError, max_arguments_chars=64)
    assert f"are {len(arguments)} characters long, over the adapter's limit of 64" in str(error)


def test_a_function_call_with_an_empty_call_id() -> None:
    reply = Reply(output=(function_call("celsius_to_fahrenheit", {"temperature_c": 18.0}, ""),))
    error, _ = run_into(reply, ProviderResponseError)
    assert "The function_call to 'celsius_to_fahrenheit' has an empty call_id" in str(error)


def test_a_function_call_with_an_empty_name() -> None:
    reply = Reply(output=(function_call("", {"temperature_c": 18.0}, "call-convert"),))
    error, _ = run_into(reply, ProviderResponseError)
    assert "(call_id 'call-convert') has an empty name" in str(error)


def test_arguments_that_are_an_object_instead_of_a_string() -> None:
    item = {**function_call("celsius_to_fahrenheit", "{}", "call-convert"), "arguments": {}}
    error, _ = run_into(Reply(output=(item,)), ProviderResponseError)
    assert "are a dict, not a JSON string" in str(error)


def test_a_body_that_is_not_json() -> None:
    error, _ = run_into(Reply(raw_body="<html>busy</html>"), ProviderResponseError)
    assert "/responses cannot be read: it is not JSON" in str(error)


def test_the_same_call_id_twice_in_one_response_is_refused_and_recorded() -> None:
    call = function_call("celsius_to_fahrenheit", {"temperature_c": 18.0}, "call-x")
    with (
        LocalResponsesServer([Reply(output=(call, call))]) as server,
        pytest.raises(ProviderResponseError, match="share the call_id 'call-x'") as caught,
    ):
        AgentRuntime(adapter(server), build_tools()).run(USER)
    assert caught.value.tool_executions == 0
    recorded = caught.value.messages[-1]["rejected"]
    assert [item["call_id"] for item in recorded] == ["call-x", "call-x"]


# --- HTTP failures --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("status", "hint_names"),
    [
        (400, "request body"),
        (401, "DEEPSEEK_API_KEY"),
        (402, "Top up"),
        (403, "DEEPSEEK_MODEL"),
        (404, "DEEPSEEK_MODEL"),
        (422, "request body"),
        (429, "Wait a little"),
        (500, "Wait a little"),
        (503, "Wait a little"),
    ],
)
def test_http_error_statuses_become_one_typed_error_with_a_hint(
    status: int, hint_names: str
) -> None:
    error, _ = run_into(http_error(status, "provider says no"), ProviderStatusError)
    assert error.status_code == status
    assert error.provider_message == "provider says no"
    assert f"(HTTP {status}: provider says no)" in str(error)
    assert hint_names in error.hint and error.hint in str(error)


def test_an_unknown_model_is_400_model_not_exist_with_a_hint_naming_the_current_names() -> None:
    with (
        LocalResponsesServer([]) as server,
        pytest.raises(ProviderStatusError) as caught,
    ):
        AgentRuntime(DeepSeekResponsesModel("deepseek-chat-v9", **_local(server)), []).run("Hi")
    error = caught.value
    assert error.status_code == 400
    assert "(HTTP 400: Model Not Exist)" in str(error)
    assert "DEEPSEEK_MODEL" in error.hint and "deepseek-flash" in error.hint
    assert "deepseek-v4-flash is a retired alias" in error.hint


def test_the_retired_alias_is_still_served() -> None:
    with LocalResponsesServer([Reply(output=(message("Hello."),))]) as server:
        model = DeepSeekResponsesModel("deepseek-v4-flash", **_local(server))
        assert AgentRuntime(model, []).run("Hi").answer == "Hello."


def _local(server: LocalResponsesServer) -> dict[str, Any]:
    return {"api_key": KEY, "base_url": server.base_url, "max_retries": 0, "timeout": 5.0}


def test_a_slow_reply_becomes_a_timeout() -> None:
    slow = Reply(output=(message("late"),), delay_seconds=30)
    error, _ = run_into(slow, ProviderTimeoutError, timeout=0.3)
    assert "No whole reply from" in str(error) and "within 0.3 s" in str(error)
    assert "timeout=" in error.hint


def test_a_refused_connection_names_the_base_url() -> None:
    with LocalResponsesServer([]) as stopped:
        pass  # the port is free again: nothing listens there now
    model = DeepSeekResponsesModel(MODEL, api_key=KEY, base_url=stopped.base_url, max_retries=0)
    with pytest.raises(ProviderConnectionError) as caught:
        AgentRuntime(model, build_tools()).run(USER)
    error = caught.value
    assert type(error) is ProviderConnectionError
    assert f"Could not connect to {stopped.base_url}" in str(error)
    assert "DEEPSEEK_BASE_URL" in error.hint
    assert error.messages == [{"role": "user", "content": USER}]


def test_retries_are_the_sdks_and_bounded() -> None:
    with LocalResponsesServer([http_error(503, "busy"), *weather_script()]) as server:
        result = AgentRuntime(adapter(server, max_retries=1), build_tools()).run(USER)
    assert result.answer == FINAL
    assert len(server.requests) == 4  # the 503, its one retry, then two more turns


# --- configuration --------------------------------------------------------------------------


def test_missing_key_is_one_sentence_for_bash_powershell_and_cmd() -> None:
    with pytest.raises(ProviderConfigurationError) as caught:
        DeepSeekResponsesModel(MODEL)
    text = str(caught.value)
    assert text.startswith("DEEPSEEK_API_KEY is not set: set it in bash with ")
    assert 'export DEEPSEEK_API_KEY="your-deepseek-api-key"' in text
    assert '$env:DEEPSEEK_API_KEY="your-deepseek-api-key"' in text
    assert 'set "DEEPSEEK_API_KEY=your-deepseek-api-key"' in text
    assert text.count(". ") == 0 and text.endswith(".")


def test_missing_model_and_both_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ProviderConfigurationError, match=r"^DEEPSEEK_MODEL is not set: set it"):
        DeepSeekResponsesModel(api_key=KEY)
    with pytest.raises(ProviderConfigurationError) as caught:
        DeepSeekResponsesModel()
    assert str(caught.value).startswith("DEEPSEEK_API_KEY and DEEPSEEK_MODEL are not set:")
    monkeypatch.setenv("DEEPSEEK_API_KEY", "   ")
    with pytest.raises(ProviderConfigurationError, match=r"^DEEPSEEK_API_KEY is not set"):
        DeepSeekResponsesModel(MODEL)


def test_settings_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEEPSEEK_API_KEY", KEY)
    monkeypatch.setenv("DEEPSEEK_MODEL", "deepseek-v4-flash")
    assert DeepSeekResponsesModel().base_url == "https://api.deepseek.com"
    with LocalResponsesServer([Reply(output=(message("Hello."),))]) as server:
        monkeypatch.setenv("DEEPSEEK_BASE_URL", server.base_url)
        model = DeepSeekResponsesModel(max_retries=0)
        assert model.model == "deepseek-v4-flash"
        assert model.base_url == server.base_url
        AgentRuntime(model, build_tools()).run("Hi")
    assert server.requests[0].sent_bearer(KEY)
    assert server.requests[0].body["model"] == "deepseek-v4-flash"


@pytest.mark.parametrize(
    ("options", "error", "match"),
    [
        ({"timeout": 0}, ValueError, "timeout must be a positive number"),
        ({"timeout": "5"}, TypeError, "timeout must be a number of seconds"),
        ({"max_retries": -1}, ValueError, "max_retries must be at least 0"),
        ({"max_retries": True}, TypeError, "max_retries must be an int"),
        ({"max_retries": 6}, ValueError, "max_retries must be at most 5"),
        ({"reasoning_effort": "medium"}, ValueError, "reasoning_effort must be one of none"),
        ({"max_arguments_chars": 0}, ValueError, "max_arguments_chars must be at least 1"),
    ],
)
def test_bad_numbers_are_refused(
    options: dict[str, Any], error: type[Exception], match: str
) -> None:
    with pytest.raises(error, match=match):
        DeepSeekResponsesModel(MODEL, api_key=KEY, **options)


def test_the_package_loads_the_adapter_lazily() -> None:
    import agentcore
    import agentcore.providers.deepseek

    assert agentcore.DeepSeekResponsesModel is agentcore.providers.deepseek.DeepSeekResponsesModel
    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        agentcore.Nope  # noqa: B018


# --- the API key appears nowhere ------------------------------------------------------------


def _texts_of(error: BaseException) -> Iterator[str]:
    """str and repr of an error and of everything chained to it."""
    seen: BaseException | None = error
    while seen is not None:
        yield str(seen)
        yield repr(seen)
        seen = seen.__cause__ or seen.__context__


FAILURES: list[Callable[[], Reply]] = [
    lambda: http_error(401, f"Authentication Fails, your api key: {KEY} is invalid"),
    lambda: http_error(404, f"no model for key {KEY}"),
    lambda: http_error(500, "boom"),
    lambda: bad_arguments("{nope"),
    lambda: Reply(status="incomplete", incomplete_reason="max_output_tokens"),
]


def test_the_key_never_appears_in_output_logs_errors_or_reprs(
    capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    seen: list[str] = []
    with LocalResponsesServer(weather_script()) as server:
        model = adapter(server)
        result = AgentRuntime(model, build_tools(), verbose=True).run(USER)
        seen += [repr(model), str(model), repr(result), json.dumps(result.messages)]
        seen += [repr(server.requests), repr(server)]
    for failure in FAILURES:
        with (
            LocalResponsesServer([GOOD_FIRST_TURN, failure()]) as server,
            pytest.raises(ProviderError) as caught,
        ):
            AgentRuntime(adapter(server), build_tools(), verbose=True).run(USER)
        seen += list(_texts_of(caught.value))
        seen += [json.dumps(caught.value.messages), repr(server.requests)]
    captured = capsys.readouterr()
    seen += [captured.out, captured.err, caplog.text]
    seen += [str(record.__dict__) for record in caplog.records]

    assert "<redacted>" in " ".join(seen)  # the echoed keys were replaced, not dropped
    runs = {KEY[start : start + 8] for start in range(len(KEY) - 7)}  # a cut key shows one
    assert not [text for text in seen if any(run in text for run in runs)]
    assert server.requests[0].sent_bearer(KEY)  # yet the key was sent where it belongs


def test_the_key_is_not_in_the_configuration_error_either(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEEPSEEK_API_KEY", KEY)
    with pytest.raises(ProviderConfigurationError) as caught:
        DeepSeekResponsesModel()
    assert KEY not in "".join(_texts_of(caught.value))


@pytest.mark.parametrize("key", ["sk-\u200babc", "sk-abc def", "sk-é", "sk-a\nb"])
def test_a_key_an_http_header_cannot_carry_is_a_configuration_error(key: str) -> None:
    with pytest.raises(ProviderConfigurationError, match="DEEPSEEK_API_KEY holds") as caught:
        DeepSeekResponsesModel(MODEL, api_key=key)
    assert key.strip() not in str(caught.value)


def test_a_body_of_the_wrong_shape_is_a_response_error() -> None:
    body = {"id": "resp_1", "status": "completed", "output": [{"type": "message", "content": 5}]}
    with pytest.raises(ProviderResponseError, match="not shaped like a Responses API object"):
        to_model_turn(body)
    with pytest.raises(ProviderResponseError, match="cannot be read as JSON here"):
        parse_arguments("f", '{"a":' * 3000 + "1" + "}" * 3000)


# --- pairing is checked before anything is sent (fault 6) -----------------------------------

OBSERVATION = '{"city": "Tokyo", "temperature_c": 18.0, "condition": "cloudy"}'
TOKYO_CALL = {
    "call_id": "call-weather",
    "name": "get_teaching_weather",
    "arguments": {"city": "Tokyo"},
}


def test_an_output_without_its_call_is_refused_naming_the_id_and_nothing_is_sent() -> None:
    transcript = [
        {"role": "user", "content": USER},
        {"role": "tool", "tool_call_id": "call-lost", "content": OBSERVATION},
    ]
    with LocalResponsesServer([Reply(output=(message("never"),))]) as server:
        with pytest.raises(ProviderRequestError, match="call_id 'call-lost' has no earlier"):
            adapter(server).generate(transcript, [])
        assert server.requests == []


def test_a_call_without_its_output_is_refused_and_nothing_is_sent() -> None:
    transcript = [
        {"role": "user", "content": USER},
        {"role": "assistant", "content": "", "tool_calls": [TOKYO_CALL]},
    ]
    with LocalResponsesServer([Reply(output=(message("never"),))]) as server:
        with pytest.raises(ProviderRequestError, match="'call-weather' has no function_call_out"):
            adapter(server).generate(transcript, [])
        assert server.requests == []


# --- one source of truth for what was called (fault 7) --------------------------------------


class ParisToTokyo:
    """A guardrail around the adapter: it rewrites every Paris lookup to Tokyo."""

    def __init__(self, inner: DeepSeekResponsesModel) -> None:
        self.inner = inner

    def generate(self, messages: Any, tools: Any) -> ModelTurn:
        turn = self.inner.generate(messages, tools)
        if not turn.tool_calls:
            return turn
        calls = tuple(
            ToolCall(call.call_id, call.name, {**call.arguments, "city": "Tokyo"})
            for call in turn.tool_calls
        )
        return ModelTurn(tool_calls=calls, provider_items=turn.provider_items)


def test_a_rewritten_call_is_sent_back_as_the_transcript_says_not_as_the_provider_said() -> None:
    script = [
        Reply(output=(function_call("get_teaching_weather", {"city": "Paris"}, "call-1"),)),
        Reply(output=(message("Tokyo is 18.0°C."),)),
    ]
    with LocalResponsesServer(script, thinking=True) as server:
        result = AgentRuntime(ParisToTokyo(adapter(server)), build_tools()).run("Paris?")
    assert result.messages[1]["tool_calls"][0]["arguments"] == {"city": "Tokyo"}
    sent = server.requests[1].body["input"]
    assert [item["type"] for item in sent] == [
        "message",
        "reasoning",
        "function_call",
        "function_call_output",
    ]
    assert sent[2]["arguments"] == '{"city": "Tokyo"}'  # what ran, not what was proposed
    assert "Paris" not in json.dumps(sent[2:])


# --- thinking mode and reasoning_effort -----------------------------------------------------


def test_thinking_mode_replays_each_reasoning_item_in_place() -> None:
    with LocalResponsesServer(weather_script(), thinking=True) as server:
        result = AgentRuntime(adapter(server), build_tools()).run(USER)
    assert result.answer == FINAL
    third = [item["type"] for item in server.requests[2].body["input"]]
    assert third == [
        "message",
        "reasoning",
        "function_call",
        "function_call_output",
        "reasoning",
        "function_call",
        "function_call_output",
    ]


class DropsReasoning:
    """A forgetful adapter: it loses the provider items before the next request."""

    def __init__(self, inner: DeepSeekResponsesModel) -> None:
        self.inner = inner

    def generate(self, messages: Any, tools: Any) -> ModelTurn:
        kept = [{k: v for k, v in m.items() if k != "provider_items"} for m in messages]
        return self.inner.generate(kept, tools)


def test_dropping_the_reasoning_item_gets_deepseeks_400() -> None:
    with (
        LocalResponsesServer(weather_script(), thinking=True) as server,
        pytest.raises(ProviderStatusError) as caught,
    ):
        AgentRuntime(DropsReasoning(adapter(server)), build_tools()).run(USER)
    assert caught.value.status_code == 400
    assert caught.value.provider_message == THINKING_400
    assert "reasoning_effort='none'" in caught.value.hint


def test_reasoning_effort_is_sent_and_none_turns_thinking_off() -> None:
    with LocalResponsesServer(weather_script(), thinking=True) as server:
        model = adapter(server, reasoning_effort="none")
        result = AgentRuntime(model, build_tools()).run(USER)
    assert all(r.body["reasoning"] == {"effort": "none"} for r in server.requests)
    assert not any("provider_items" in entry for entry in result.messages)
    assert "reasoning_effort='none'" in repr(model)


def test_previous_response_id_is_never_sent_and_the_server_would_ignore_it() -> None:
    with LocalResponsesServer(weather_script()) as server:
        AgentRuntime(adapter(server), build_tools()).run(USER)
    assert not any("previous_response_id" in request.body for request in server.requests)


# --- rejected replies (contract decision 10) ------------------------------------------------


def test_a_rejected_reply_carries_its_raw_items() -> None:
    error, _ = run_into(bad_arguments("{nope"), ProviderResponseError)
    assert [item["type"] for item in error.rejected] == ["function_call"]
    assert error.rejected[0]["arguments"] == "{nope"


def test_a_message_marked_rejected_is_never_sent_back() -> None:
    transcript = [
        {"role": "user", "content": USER},
        {"role": "assistant", "content": "", "rejected": [{"type": "function_call"}]},
    ]
    assert to_input_items(transcript) == [USER_ITEM]


def test_content_filter_has_its_own_hint() -> None:
    error, _ = run_into(
        Reply(status="incomplete", incomplete_reason="content_filter"), ProviderResponseError
    )
    assert "(reason: content_filter)" in str(error)
    assert "content filter" in error.hint and "rephrase" in error.hint


# --- an output item the adapter does not model is refused, never read as a final text --------

class City(BaseModel):
    model_config = ConfigDict(extra="forbid")
    city: str


UNMODELLED = {
    "custom_tool_call": {
        "type": "custom_tool_call",
        "call_id": "call-custom",
        "name": "get_teaching_weather",
        "input": "Tokyo",
    },
    "web_search_call": {"type": "web_search_call", "id": "ws_1", "status": "completed"},
    "an item of a later API": {"type": "teleport_call", "call_id": "call-x"},
    "an item without a type": {"call_id": "call-y", "name": "get_teaching_weather"},
}


@pytest.mark.parametrize("case", UNMODELLED)
def test_an_output_item_of_another_type_beside_a_message_is_refused_naming_it(case: str) -> None:
    # Was: the message became the final answer and the call was lost without a word.
    ran: list[str] = []

    def weather(city: str) -> str:
        ran.append(city)
        return "sunny"

    tool = Tool("get_teaching_weather", "Weather in a city.", City, weather)
    item = UNMODELLED[case]
    reply = Reply(output=(message("Let me look that up."), item))
    with (
        LocalResponsesServer([reply]) as server,
        adapter(server) as model,
        pytest.raises(ProviderResponseError) as caught,
    ):
        AgentRuntime(model, [tool]).run(USER)
    assert caught.value.kind == "unknown item"
    assert repr(item.get("type")) in str(caught.value)
    assert ran == []  # no handler ran
    assert any(entry.get("type") == item.get("type") for entry in caught.value.rejected)
    assert caught.value.messages[-1].get("rejected")  # the runtime recorded the refused reply
