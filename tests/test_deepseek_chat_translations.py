"""The three pure translations of the Chat Completions adapter, without any HTTP.

tests/test_deepseek_chat.py runs them through the runtime, the SDK and real HTTP.
"""

from __future__ import annotations

from typing import Any

import pytest

from agentcore import (
    AgentRuntime,
    ProviderRequestError,
    ProviderResponseError,
    ScriptedWeatherModel,
    build_tools,
    weather_request,
)
from agentcore.providers.openai_compatible import (
    to_chat_messages,
    to_chat_model_turn,
    to_chat_tool,
)

WEATHER_CALL = {
    "call_id": "call-weather",
    "name": "get_teaching_weather",
    "arguments": {"city": "Tokyo"},
}
OBSERVATION = '{"city": "Tokyo", "temperature_c": 18.0, "condition": "cloudy"}'


def completion(message: dict[str, Any], finish_reason: str | None = "stop") -> dict[str, Any]:
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "choices": [{"index": 0, "message": message, "finish_reason": finish_reason}],
    }


def tool_call(call_id: str, name: str, arguments: str) -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


# --- tools ------------------------------------------------------------------------------------


def test_a_tool_schema_is_nested_under_function_and_parameters_pass_through_unchanged() -> None:
    for schema in [tool.schema() for tool in build_tools()]:
        translated = to_chat_tool(schema)
        assert translated == {
            "type": "function",
            "function": {
                "name": schema["name"],
                "description": schema["description"],
                "parameters": schema["parameters"],
            },
        }
        assert translated["function"]["parameters"] is not schema["parameters"]


def test_strict_is_sent_only_when_the_setting_is_on() -> None:
    schema = build_tools()[0].schema()
    assert "strict" not in to_chat_tool(schema)["function"]
    strict = to_chat_tool(schema, strict=True)["function"]
    assert strict["strict"] is True
    assert strict["parameters"] == schema["parameters"]


# --- transcript -> messages --------------------------------------------------------------------


def test_the_chapter_transcript_becomes_chat_messages() -> None:
    result = AgentRuntime(ScriptedWeatherModel(), build_tools()).run(weather_request())
    assert to_chat_messages(result.messages) == [
        {"role": "user", "content": weather_request()},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [tool_call("call-weather", "get_teaching_weather", '{"city": "Tokyo"}')],
        },
        {"role": "tool", "tool_call_id": "call-weather", "content": OBSERVATION},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                tool_call("call-convert", "celsius_to_fahrenheit", '{"temperature_c": 18.0}')
            ],
        },
        {"role": "tool", "tool_call_id": "call-convert", "content": '{"temperature_f": 64.4}'},
        {"role": "assistant", "content": result.answer},
    ]


def test_reasoning_goes_back_on_every_assistant_message_of_a_tool_calling_turn() -> None:
    transcript = [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Tokyo?"},
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [WEATHER_CALL],
            "provider_items": [{"content": "Let me look.", "reasoning_content": "Need a tool."}],
        },
        {"role": "tool", "tool_call_id": "call-weather", "content": OBSERVATION},
        {
            "role": "assistant",
            "content": "Tokyo is 18.0°C.",
            "provider_items": [{"reasoning_content": "Done."}],
        },
    ]
    assert to_chat_messages(transcript) == [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "Tokyo?"},
        {
            "role": "assistant",
            "content": "Let me look.",
            "reasoning_content": "Need a tool.",
            "tool_calls": [tool_call("call-weather", "get_teaching_weather", '{"city": "Tokyo"}')],
        },
        {"role": "tool", "tool_call_id": "call-weather", "content": OBSERVATION},
        {"role": "assistant", "content": "Tokyo is 18.0°C.", "reasoning_content": "Done."},
    ]


def test_calls_come_from_tool_calls_and_an_empty_responses_reasoning_is_not_sent() -> None:
    rewritten = {**WEATHER_CALL, "arguments": {"city": "东京"}}
    transcript = [
        {"role": "user", "content": "Tokyo?"},
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [rewritten],
            "provider_items": [{"type": "reasoning", "content": []}],
        },
        {"role": "tool", "tool_call_id": "call-weather", "content": OBSERVATION},
    ]
    assert to_chat_messages(transcript)[1] == {
        "role": "assistant",
        "content": None,
        "tool_calls": [tool_call("call-weather", "get_teaching_weather", '{"city": "东京"}')],
    }


def test_a_rejected_reply_is_never_sent_back() -> None:
    transcript = [
        {"role": "user", "content": "Tokyo?"},
        {"role": "assistant", "content": "", "rejected": [{"role": "assistant", "content": ""}]},
    ]
    assert to_chat_messages(transcript) == [{"role": "user", "content": "Tokyo?"}]


@pytest.mark.parametrize(
    ("transcript", "said"),
    [
        (
            [
                {"role": "user", "content": "hi"},
                {"role": "tool", "tool_call_id": "call-9", "content": "{}"},
            ],
            "tool_call_id 'call-9' answers no call",
        ),
        (
            [
                {"role": "user", "content": "hi"},
                {"role": "assistant", "content": "", "tool_calls": [WEATHER_CALL]},
            ],
            "The tool call 'call-weather' has no tool message",
        ),
        (
            [
                {"role": "user", "content": "hi"},
                {"role": "assistant", "content": "", "tool_calls": [WEATHER_CALL]},
                {"role": "user", "content": "and?"},
                {"role": "tool", "tool_call_id": "call-weather", "content": "{}"},
            ],
            "The tool call 'call-weather' has no tool message",
        ),
        (
            [{"role": "user", "content": "hi"}, {"role": "robot", "content": "?"}],
            "message 1 has role 'robot'",
        ),
    ],
)
def test_what_the_provider_would_refuse_is_refused_before_sending(
    transcript: list[dict[str, Any]], said: str
) -> None:
    with pytest.raises(ProviderRequestError, match=said):
        to_chat_messages(transcript)


# --- reply -> turn ------------------------------------------------------------------------------


def test_tool_calls_become_tool_calls_in_order() -> None:
    turn = to_chat_model_turn(
        completion(
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    tool_call("call-a", "get_teaching_weather", '{"city": "Paris"}'),
                    tool_call("call-b", "get_teaching_weather", '{"city": "Tokyo"}'),
                ],
            },
            "tool_calls",
        )
    )
    assert [(c.call_id, c.arguments) for c in turn.tool_calls] == [
        ("call-a", {"city": "Paris"}),
        ("call-b", {"city": "Tokyo"}),
    ]
    assert turn.provider_items == ()


def test_reasoning_and_text_beside_calls_are_kept() -> None:
    turn = to_chat_model_turn(
        completion(
            {
                "role": "assistant",
                "content": "Let me look.",
                "reasoning_content": "Need a tool.",
                "tool_calls": [tool_call("c", "get_teaching_weather", '{"city": "Tokyo"}')],
            },
            "tool_calls",
        )
    )
    assert turn.provider_items == (
        {"content": "Let me look.", "reasoning_content": "Need a tool."},
    )


def test_a_final_text_keeps_its_reasoning() -> None:
    turn = to_chat_model_turn(
        completion({"role": "assistant", "content": "Hi.", "reasoning_content": "Greet."})
    )
    assert (turn.final_text, turn.provider_items) == ("Hi.", ({"reasoning_content": "Greet."},))
    assert (
        to_chat_model_turn(completion({"role": "assistant", "content": "Hi."})).provider_items == ()
    )


@pytest.mark.parametrize(
    ("body", "said", "hint"),
    [
        ({"id": "x", "choices": []}, "holds no choice", "Chat Completions API"),
        ({"id": "x"}, "holds no choice", "Chat Completions API"),
        (
            completion({"role": "assistant", "content": "cut"}, "length"),
            "finish_reason 'length'",
            "cut off",
        ),
        (
            completion({"role": "assistant", "content": ""}, "content_filter"),
            "finish_reason 'content_filter'",
            "content filter",
        ),
        (
            completion({"role": "assistant", "content": ""}, "insufficient_system_resource"),
            "finish_reason 'insufficient_system_resource'",
            "capacity",
        ),
        (
            completion({"role": "assistant", "content": "x"}, None),
            "finish_reason None",
            "Chat Completions",
        ),
        (
            completion({"role": "assistant", "content": ""}),
            "holds no tool call and no text",
            "run again",
        ),
        (
            completion({"role": "assistant", "content": "  "}),
            "holds no tool call and no text",
            "run again",
        ),
        (
            completion({"role": "assistant", "content": None, "refusal": "No."}),
            "is a refusal",
            "Rephrase",
        ),
        ({"id": "x", "choices": [{"finish_reason": "stop"}]}, "choice without a message", "Chat"),
        (
            completion({"role": "assistant", "content": 5}),
            "not shaped like a Chat Completions",
            "Chat",
        ),
        ({"id": "x", "choices": "no"}, "holds no choice", "Chat"),
        ({"id": "x", "choices": [7]}, "not shaped like a Chat Completions", "Chat"),
        (
            completion(
                {"role": "assistant", "content": None, "tool_calls": {"id": 1}}, "tool_calls"
            ),
            "not shaped like",
            "Chat",
        ),
        (
            completion(
                {"role": "assistant", "content": None, "tool_calls": [tool_call("", "f", "{}")]},
                "tool_calls",
            ),
            "The tool call to 'f' has an empty id",
            "paired",
        ),
        (
            completion(
                {"role": "assistant", "content": None, "tool_calls": [tool_call("c", "", "{}")]},
                "tool_calls",
            ),
            "(id 'c') has an empty function name",
            "which tool",
        ),
        (
            completion(
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [{"id": "c", "type": "custom", "custom": {}}],
                },
                "tool_calls",
            ),
            "is of type 'custom', not a function",
            "function tools",
        ),
        (
            completion(
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {**tool_call("c", "f", "{}"), "function": {"name": "f", "arguments": {}}}
                    ],
                },
                "tool_calls",
            ),
            "are a dict, not a JSON string",
            "No tool ran",
        ),
    ],
)
def test_every_bad_reply_is_a_response_error_with_a_hint(
    body: dict[str, Any], said: str, hint: str
) -> None:
    with pytest.raises(ProviderResponseError) as caught:
        to_chat_model_turn(body)
    assert said in str(caught.value)
    assert hint in caught.value.hint


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        ('{"city": ', "are not JSON"),
        ("[1]", "JSON but not an object"),
        ('{"a": NaN}', "they hold NaN"),
        ('{"a": 1, "a": 2}', "they hold the key 'a' twice"),
        ('{"a":' * 3000 + "1" + "}" * 3000, "cannot be read as JSON here"),
    ],
)
def test_arguments_follow_the_responses_adapters_strict_rules(arguments: str, said: str) -> None:
    body = completion(
        {"role": "assistant", "content": None, "tool_calls": [tool_call("c", "f", arguments)]},
        "tool_calls",
    )
    with pytest.raises(ProviderResponseError, match=said):
        to_chat_model_turn(body)
