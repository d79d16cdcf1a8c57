"""The local Chat Completions server: what it answers, what it refuses, what it shares.

Spoken to with the standard library's ``urllib`` so these tests check the server on its own;
tests/test_deepseek_chat.py drives it through the real openai SDK.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

import pytest

from agentcore.course.offline_replies import weather_script
from agentcore.providers.local_chat_server import THINKING_400, LocalChatServer
from agentcore.providers.local_server import (
    CREATED_AT,
    LocalResponsesServer,
    LoopbackServer,
    Reply,
    function_call,
    http_error,
    message,
    reasoning,
)

KEY = "sk-chat-server-test-0123456789"
MODEL = "deepseek-flash"
USER = {"role": "user", "content": "hi"}
BODY = {"model": MODEL, "messages": [USER]}
CALL = {
    "id": "call-1",
    "type": "function",
    "function": {"name": "get_teaching_weather", "arguments": '{"city": "Tokyo"}'},
}


def post(
    server: LoopbackServer, body: Any = BODY, *, path: str = "/chat/completions"
) -> tuple[int, Any]:
    """POST ``body`` as JSON with the test key; return the status and the parsed body."""
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {KEY}"}
    request = urllib.request.Request(
        server.base_url + path, data=json.dumps(body).encode(), headers=headers
    )
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_a_scripted_reply_becomes_a_chat_completion() -> None:
    script = [
        Reply(output=(function_call("get_teaching_weather", {"city": "东京"}, "call-1"),)),
        Reply(output=(message("done"),)),
    ]
    with LocalChatServer(script) as server:
        first = post(server)[1]
        status, second = post(server)
    assert status == 200
    assert first == {
        "id": "chatcmpl-001",
        "object": "chat.completion",
        "created": CREATED_AT,
        "model": MODEL,
        "choices": [
            {
                "index": 0,
                "message": {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": "call-1",
                            "type": "function",
                            "function": {
                                "name": "get_teaching_weather",
                                "arguments": '{"city": "东京"}',
                            },
                        }
                    ],
                },
                "logprobs": None,
                "finish_reason": "tool_calls",
            }
        ],
        "usage": first["usage"],
    }
    assert second["id"] == "chatcmpl-002"
    assert second["choices"][0]["message"] == {"role": "assistant", "content": "done"}
    assert second["choices"][0]["finish_reason"] == "stop"
    usage = first["usage"]
    assert usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"] > 0


def test_it_shares_recording_and_refusals_with_the_responses_server() -> None:
    with LocalChatServer([Reply(output=(message("a"),))], api_key=KEY) as server:
        assert isinstance(server, LoopbackServer)
        assert not isinstance(server, LocalResponsesServer)
        assert post(server, path="/responses")[0] == 404
        assert post(server, [1])[0] == 400
        assert post(server)[0] == 200
        assert repr(server) == "LocalChatServer(running, replies played 1 of 1, requests=3)"
    recorded = server.requests[-1]
    assert (recorded.method, recorded.path, recorded.body) == ("POST", "/chat/completions", BODY)
    assert recorded.headers["authorization"] == "Bearer <redacted>"
    assert recorded.sent_bearer(KEY)
    assert KEY not in repr(server.requests)


def test_the_beta_path_is_served_too() -> None:
    with LocalChatServer([Reply(output=(message("a"),))]) as server:
        assert post(server, path="/beta/chat/completions")[0] == 200
    assert server.requests[0].path == "/beta/chat/completions"


def test_an_unknown_model_gets_deepseeks_400() -> None:
    with LocalChatServer([Reply(output=(message("a"),))]) as server:
        status, body = post(server, {**BODY, "model": "deepseek-nope"})
        assert server.replies_played == 0
    assert (status, body["error"]["message"]) == (400, "Model Not Exist")


@pytest.mark.parametrize(
    ("messages", "said"),
    [
        (
            [USER, {"role": "tool", "tool_call_id": "call-9", "content": "{}"}],
            "no tool call has the id 'call-9'",
        ),
        (
            [USER, {"role": "assistant", "content": None, "tool_calls": [CALL]}],
            "no tool message answers 'call-1'",
        ),
        (
            [USER, {"role": "assistant", "content": None, "tool_calls": [CALL]}, USER],
            "no tool message answers 'call-1'",
        ),
    ],
)
def test_unpaired_tool_messages_are_refused(messages: list[Any], said: str) -> None:
    with LocalChatServer([Reply(output=(message("a"),))]) as server:
        status, body = post(server, {"model": MODEL, "messages": messages})
        assert server.replies_played == 0
    assert status == 400
    assert said in body["error"]["message"]


def test_paired_tool_messages_are_accepted() -> None:
    answered = [
        USER,
        {"role": "assistant", "content": None, "tool_calls": [CALL, {**CALL, "id": "call-2"}]},
        {"role": "tool", "tool_call_id": "call-2", "content": "{}"},
        {"role": "tool", "tool_call_id": "call-1", "content": "{}"},
    ]
    with LocalChatServer([Reply(output=(message("a"),))]) as server:
        assert post(server, {"model": MODEL, "messages": answered})[0] == 200


def test_thinking_mode_sends_reasoning_and_wants_it_back_on_tool_call_messages() -> None:
    script = [
        Reply(output=(reasoning("Look it up first."), function_call("f", {}, "call-1"))),
        Reply(output=(message("done"),)),
        Reply(output=(message("done"),)),
    ]
    sent = {"role": "assistant", "content": None, "tool_calls": [CALL]}
    answer = {"role": "tool", "tool_call_id": "call-1", "content": "{}"}
    with LocalChatServer(script, thinking=True) as server:
        first = post(server)[1]["choices"][0]["message"]
        dropped = post(server, {"model": MODEL, "messages": [USER, sent, answer]})
        kept = {**sent, "reasoning_content": "Look it up first."}
        second = post(server, {"model": MODEL, "messages": [USER, kept, answer]})[1]
        off = {"model": MODEL, "messages": [USER, sent, answer], "thinking": {"type": "disabled"}}
        third = post(server, off)[1]
    assert first["reasoning_content"] == "Look it up first."
    assert dropped == (400, dropped[1])
    assert dropped[1]["error"]["message"] == THINKING_400
    assert second["choices"][0]["message"]["reasoning_content"] == (
        "(scripted reasoning, not a model's) Next step: answer with what the observations say."
    )
    assert "reasoning_content" not in third["choices"][0]["message"]


@pytest.mark.parametrize(
    ("reason", "finish_reason"),
    [
        ("max_output_tokens", "length"),
        ("length", "length"),
        ("content_filter", "content_filter"),
        ("insufficient_system_resource", "insufficient_system_resource"),
    ],
)
def test_a_cut_off_reply_has_its_finish_reason(reason: str, finish_reason: str) -> None:
    with LocalChatServer([Reply(status="incomplete", incomplete_reason=reason)]) as server:
        choice = post(server)[1]["choices"][0]
    assert choice["finish_reason"] == finish_reason
    assert choice["message"] == {"role": "assistant", "content": ""}


def test_errors_and_raw_bodies_are_the_shared_ones() -> None:
    with LocalChatServer([http_error(402, "Insufficient Balance")]) as server:
        status, body = post(server)
    assert (status, body["error"]["message"]) == (402, "Insufficient Balance")
    assert body["error"]["type"] == "insufficient_balance"


def test_the_weather_script_plays_unchanged() -> None:
    with LocalChatServer(weather_script()) as server:
        turns = [post(server)[1]["choices"][0] for _ in range(3)]
    assert [turn["finish_reason"] for turn in turns] == ["tool_calls", "tool_calls", "stop"]
    assert turns[0]["message"]["tool_calls"][0]["id"] == "call-weather"
    assert turns[1]["message"]["tool_calls"][0]["function"] == {
        "name": "celsius_to_fahrenheit",
        "arguments": '{"temperature_c": 18.0}',
    }
    assert turns[2]["message"]["content"].startswith("Tokyo's deterministic teaching record")


def test_a_repeated_prefix_is_reported_as_cache_hits() -> None:
    longer = {"model": MODEL, "messages": [USER, {"role": "user", "content": "more"}]}
    with LocalChatServer([Reply(output=(message("a"),))] * 2) as server:
        first = post(server)[1]["usage"]
        second = post(server, longer)[1]["usage"]
    assert first["prompt_cache_hit_tokens"] == 0
    assert 0 < second["prompt_cache_hit_tokens"] < second["prompt_tokens"]
    assert (
        second["prompt_cache_hit_tokens"] + second["prompt_cache_miss_tokens"]
        == second["prompt_tokens"]
    )
